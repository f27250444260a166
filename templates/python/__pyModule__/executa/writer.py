"""The one writer of the protocol stream: one whole frame per line, under one lock.

A response whose frame is over the platform's 4 MiB result limit is replaced by a
RESULT_TOO_LARGE error (Anna's hosts would refuse it). Lone surrogates are written as U+FFFD.
"""

import json
import os
import threading
import time

from .errors import INTERNAL_ERROR
from .framing import well_formed

# The platform's limit on one response frame, in bytes without its newline.
MAX_RESULT_BYTES = 4 * 1024 * 1024
# While more than this many bytes of answers wait to be written, no new frame is taken from stdin.
MAX_PENDING_OUTPUT_BYTES = 4 * 1024 * 1024

_encoder = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False)
# The C encoder that JSONEncoder.encode makes on every call (a third of its time), made once.
# Without cycle markers it finds a cycle by RecursionError, as it does nesting too deep.
_c_encode = json.encoder.c_make_encoder and json.encoder.c_make_encoder(
    None, _encoder.default, json.encoder.encode_basestring, None, ":", ",", False, False, False
)

# A tool's answer around its id, data and duration: written as bytes, which takes a third of the
# time of encoding the envelope each time.
_TOOL_RESULT = b'{"jsonrpc":"2.0","id":%b,"result":{"success":true,"data":%b,"duration_ms":%d}}'


class NotJson(ValueError):
    """NaN or Infinity in a value to send."""


def to_json_bytes(value) -> bytes:
    """Compact JSON, UTF-8. Raises NotJson for NaN or Infinity, TypeError / ValueError / RecursionError for what else JSON cannot carry."""
    try:
        text = "".join(_c_encode(value, 0)) if _c_encode else _encoder.encode(value)
    except ValueError as err:
        if "Out of range float values" in str(err):
            raise NotJson("NaN or Infinity") from None
        raise
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate in a string or a key
        return well_formed(text).encode("utf-8")


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
        self._lock = threading.Lock()  # held while a frame is written
        self._writing = 0  # bytes of the frame being written
        self._waiting = 0  # bytes of frames waiting for the lock
        self._counting = threading.Lock()

    def request(self, id: str, method: str, params) -> None:
        """A request from the plugin to the host (the 4 MiB limit is on results only)."""
        self._write(to_json_bytes({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))

    def notify(self, method: str, params) -> None:
        """A notification (no id, no answer). Raises like to_json_bytes when params are not JSON."""
        self._write(to_json_bytes({"jsonrpc": "2.0", "method": method, "params": params}))

    def result(self, id, result) -> None:
        """A response with a result. Raises like to_json_bytes when the result is not JSON."""
        self._response(id, to_json_bytes({"jsonrpc": "2.0", "id": id, "result": result}))

    def tool_result(self, id, data, duration_ms: int) -> None:
        """A tool's answer. Raises like to_json_bytes when ``data`` is not JSON."""
        self._response(id, _TOOL_RESULT % (to_json_bytes(id), to_json_bytes(data), duration_ms))

    def raw_result(self, id, result_json: bytes) -> None:
        """A result that is already JSON (the describe answer, serialised once)."""
        self._response(id, b'{"jsonrpc":"2.0","id":' + to_json_bytes(id) + b',"result":' + result_json + b"}")

    def error(self, id, code: int, message: str, data=None) -> None:
        error = {"code": code, "message": message} if data is None else {"code": code, "message": message, "data": data}
        self._response(id, to_json_bytes({"jsonrpc": "2.0", "id": id, "error": error}))

    def wait_for_room(self) -> None:
        """Blocks while more than MAX_PENDING_OUTPUT_BYTES wait to be written (a host that stops reading)."""
        while self._writing + self._waiting > MAX_PENDING_OUTPUT_BYTES:
            time.sleep(0.01)

    def _response(self, id, data: bytes) -> None:
        if len(data) > MAX_RESULT_BYTES:
            self._log(f"executa: the response to {json.dumps(id)} is {len(data)} bytes, over the platform's 4 MiB result limit")
            message = (
                f"result too large: {len(data)} bytes is over the platform's 4 MiB result limit; "
                "return a file reference instead (host/uploadFile or APS files)"
            )
            error_data = {"errorCode": "RESULT_TOO_LARGE", "result_size_bytes": len(data), "max_payload_bytes": MAX_RESULT_BYTES}
            data = to_json_bytes({"jsonrpc": "2.0", "id": id, "error": {"code": INTERNAL_ERROR, "message": message, "data": error_data}})
        self._write(data)

    def _write(self, data: bytes) -> None:
        data += b"\n"
        size = len(data)
        if not self._lock.acquire(blocking=False):
            with self._counting:
                self._waiting += size
            self._lock.acquire()
            with self._counting:
                self._waiting -= size
        self._writing = size
        try:
            written = os.write(self._fd, data)
            if written < size:  # a pipe takes a large frame in parts
                view = memoryview(data)[written:]
                while view:
                    view = view[os.write(self._fd, view) :]
        except OSError as err:
            self._log(f"executa: stdout: {err}")
            self._on_closed()
        finally:
            self._writing = 0
            self._lock.release()
