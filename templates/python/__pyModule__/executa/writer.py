"""The one writer of the protocol stream: one whole frame per line, under one lock.

Responses whose frame is over 512 KiB go by file transport. Lone surrogates are written as U+FFFD.
"""

import json
import os
import threading

from .errors import INTERNAL_ERROR
from .framing import MAX_FRAME_BYTES, well_formed
from .ids import random_hex

FILE_TRANSPORT_THRESHOLD_BYTES = 512 * 1024
# While more than this many bytes of answers wait to be written, no new frame is taken from stdin.
MAX_PENDING_OUTPUT_BYTES = 4 * 1024 * 1024

_encode = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode


class NotJson(ValueError):
    """NaN or Infinity in a value to send."""


def to_json_bytes(value) -> bytes:
    """Compact JSON, UTF-8. Raises NotJson for NaN or Infinity, TypeError / ValueError for what else JSON cannot carry."""
    try:
        text = _encode(value)
    except ValueError as err:
        if "Out of range float values" in str(err):
            raise NotJson("NaN or Infinity") from None
        raise
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate in a string or a key
        return well_formed(text).encode("utf-8")


def _temp_dir() -> str:
    """TMPDIR as given (unlike tempfile.gettempdir, which skips one it cannot write to), else the system's."""
    given = os.environ.get("TMPDIR") if os.name == "posix" else None
    if given:
        return given
    import tempfile  # only for large responses: keeps start-up light

    return tempfile.gettempdir()


class FrameWriter:
    def __init__(self, fd: int, log, on_closed) -> None:
        """
        Args:
            fd: The real stdout (a duplicate; fd 1 itself points at stderr).
            log: Writes one line on stderr.
            on_closed: Called when the protocol stream is gone (the host went away).
        """
        self._fd = fd
        self._log = log
        self._on_closed = on_closed
        self._lock = threading.Lock()
        self._pending = 0  # bytes of frames waiting for the lock or being written
        self._drained = threading.Condition()

    def request(self, id: str, method: str, params) -> None:
        """A request from the plugin to the host (never file-transported)."""
        self._write(to_json_bytes({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))

    def result(self, id, result) -> None:
        """A response with a result. Raises like to_json_bytes when the result is not JSON."""
        self._response(id, to_json_bytes({"jsonrpc": "2.0", "id": id, "result": result}))

    def raw_result(self, id, result_json: bytes) -> None:
        """A result that is already JSON (the describe answer, serialised once)."""
        self._response(id, b'{"jsonrpc":"2.0","id":' + to_json_bytes(id) + b',"result":' + result_json + b"}")

    def error(self, id, code: int, message: str, data=None) -> None:
        error = {"code": code, "message": message} if data is None else {"code": code, "message": message, "data": data}
        self._response(id, to_json_bytes({"jsonrpc": "2.0", "id": id, "error": error}))

    def wait_for_room(self) -> None:
        """Blocks while more than MAX_PENDING_OUTPUT_BYTES wait to be written (a host that stops reading)."""
        with self._drained:
            while self._pending > MAX_PENDING_OUTPUT_BYTES:
                self._drained.wait(0.2)

    def _response(self, id, data: bytes) -> None:
        if len(data) > FILE_TRANSPORT_THRESHOLD_BYTES:
            path = self._to_file(data)
            if path is not None:
                data = to_json_bytes({"jsonrpc": "2.0", "id": id, "__file_transport": path})
            elif len(data) > MAX_FRAME_BYTES:
                self._log(f"executa: the response to {json.dumps(id)} is {len(data)} bytes, over the 16 MiB frame limit")
                message = "Response exceeds 16 MiB and could not go by file transport; see the plugin's stderr"
                data = to_json_bytes({"jsonrpc": "2.0", "id": id, "error": {"code": INTERNAL_ERROR, "message": message}})
        self._write(data)

    def _to_file(self, data: bytes):
        """Writes the whole response to a fresh 0600 file; None when that fails (nothing is left behind)."""
        path = os.path.join(os.path.abspath(_temp_dir()), f"executa-resp-{random_hex()}.json")
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o600)
        except OSError as err:
            self._log(f"executa: file transport failed ({err}); sending the response inline")
            return None
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
        except OSError as err:
            self._log(f"executa: file transport failed ({err}); sending the response inline")
            os.close(fd)
            try:
                os.unlink(path)
            except OSError:
                pass
            return None
        os.close(fd)
        return path

    def _write(self, data: bytes) -> None:
        data += b"\n"
        with self._drained:
            self._pending += len(data)
        try:
            with self._lock:
                view = memoryview(data)
                while view:
                    view = view[os.write(self._fd, view) :]
        except OSError as err:
            self._log(f"executa: stdout: {err}")
            self._on_closed()
        finally:
            with self._drained:
                self._pending -= len(data)
                self._drained.notify_all()
