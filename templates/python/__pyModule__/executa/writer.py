"""The one writer of the protocol stream: one whole frame per line, under one lock.

Responses whose frame is over 512 KiB go by file transport.
"""

import json
import os
import threading

from .ids import random_hex

FILE_TRANSPORT_THRESHOLD_BYTES = 512 * 1024

_encode = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode
_encode_ascii = json.JSONEncoder(ensure_ascii=True, separators=(",", ":"), allow_nan=False).encode


def to_json_bytes(value) -> bytes:
    """Compact JSON, UTF-8. Raises TypeError / ValueError for what JSON cannot carry."""
    try:
        return _encode(value).encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate in a string: escape it instead
        return _encode_ascii(value).encode("ascii")


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

    def request(self, id: str, method: str, params) -> None:
        """A request from the plugin to the host (never file-transported)."""
        self._write(to_json_bytes({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))

    def result(self, id, result) -> None:
        try:
            data = to_json_bytes({"jsonrpc": "2.0", "id": id, "result": result})
        except (TypeError, ValueError, RecursionError) as err:
            self._log(f"executa: could not serialise the result of request {_show(id)}: {err}")
            self.error(id, -32603, "Result is not serialisable as JSON; see the plugin's stderr")
            return
        self._response(id, data)

    def raw_result(self, id, result_json: bytes) -> None:
        """A result that is already JSON (the describe answer, serialised once)."""
        self._response(id, b'{"jsonrpc":"2.0","id":' + to_json_bytes(id) + b',"result":' + result_json + b"}")

    def error(self, id, code: int, message: str, data=None) -> None:
        error = {"code": code, "message": message} if data is None else {"code": code, "message": message, "data": data}
        self._response(id, to_json_bytes({"jsonrpc": "2.0", "id": id, "error": error}))

    def _response(self, id, data: bytes) -> None:
        if len(data) > FILE_TRANSPORT_THRESHOLD_BYTES:
            path = self._to_file(data)
            if path is not None:
                data = to_json_bytes({"jsonrpc": "2.0", "id": id, "__file_transport": path})
        self._write(data)

    def _to_file(self, data: bytes):
        """Writes the whole response to a fresh 0600 file; None when that fails (then it goes inline)."""
        import tempfile  # only for large responses: keeps start-up light

        path = os.path.join(tempfile.gettempdir(), f"executa-resp-{random_hex()}.json")
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
        return os.path.abspath(path)

    def _write(self, data: bytes) -> None:
        data += b"\n"
        with self._lock:
            try:
                written = os.write(self._fd, data)
                if written < len(data):
                    view = memoryview(data)[written:]
                    while view:
                        view = view[os.write(self._fd, view) :]
            except OSError as err:
                self._log(f"executa: stdout: {err}")
                self._on_closed()


def _show(id) -> str:
    return json.dumps(id)
