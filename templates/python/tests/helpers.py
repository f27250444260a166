"""A small test host: spawns a plugin, sends frames on its stdin, reads the frames it writes on
stdout, and answers its reverse requests. Standard library only."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import threading
import time

_NO_PARAMS = object()


class Plugin:
    def __init__(self, argv: list[str], *, cwd: str | None = None, env: dict[str, str] | None = None) -> None:
        self.frames: list[dict] = []  # every frame the plugin wrote, in order
        self.stray_lines: list[bytes] = []  # stdout lines that were not JSON objects (must stay empty)
        self._stderr: list[str] = []
        self._unclaimed: list[dict] = []
        self._cond = threading.Condition()
        self._next_id = 1
        self.proc = subprocess.Popen(
            argv,
            cwd=cwd,
            env={**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})},
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        self._threads = [
            threading.Thread(target=self._read_stdout, daemon=True),
            threading.Thread(target=self._read_stderr, daemon=True),
        ]
        for t in self._threads:
            t.start()

    # sending

    def send(self, frame) -> None:
        """Sends a frame: a dict as one JSON line; str or bytes exactly as given."""
        if isinstance(frame, dict):
            data = (json.dumps(frame) + "\n").encode()
        elif isinstance(frame, str):
            data = frame.encode()
        else:
            data = frame
        try:
            self.proc.stdin.write(data)
            self.proc.stdin.flush()
        except (BrokenPipeError, ValueError):
            pass  # the plugin exited before it read everything

    def request(self, method: str, params=_NO_PARAMS, id=_NO_PARAMS, timeout: float = 10) -> dict:
        """Sends a request and returns its response."""
        if id is _NO_PARAMS:
            id = self._next_id
            self._next_id += 1
        frame = {"jsonrpc": "2.0", "id": id, "method": method}
        if params is not _NO_PARAMS:
            frame["params"] = params
        self.send(frame)
        return self.response(id, timeout)

    def invoke_async(self, tool: str, arguments=_NO_PARAMS, **extra) -> int:
        """Sends an invoke and returns its id; collect the answer with response(id)."""
        id = self._next_id
        self._next_id += 1
        params = {"tool": tool, **extra}
        if arguments is not _NO_PARAMS:
            params["arguments"] = arguments
        self.send({"jsonrpc": "2.0", "id": id, "method": "invoke", "params": params})
        return id

    def invoke(self, tool: str, arguments=_NO_PARAMS, timeout: float = 10, **extra) -> dict:
        return self.response(self.invoke_async(tool, arguments, **extra), timeout)

    def initialize(self, protocol_version="2.0") -> dict:
        """``initialize`` with this protocol version ("2.0" enables reverse requests); returns the result."""
        return self.request("initialize", {"protocolVersion": protocol_version, "clientInfo": {"name": "test-host"}})["result"]

    def reply(self, id, result) -> None:
        self.send({"jsonrpc": "2.0", "id": id, "result": result})

    def reply_error(self, id, code: int, message: str) -> None:
        self.send({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})

    # receiving

    def response(self, id, timeout: float = 10) -> dict:
        """The response with this id (type-exact: id 1 is not id True)."""
        return self.next(lambda f: "method" not in f and "id" in f and f["id"] == id and type(f["id"]) is type(id), timeout)

    def reverse_request(self, method: str | None = None, timeout: float = 10) -> dict:
        """The next reverse request the plugin sends (of this method, if given)."""
        return self.next(lambda f: isinstance(f.get("method"), str) and (method is None or f["method"] == method), timeout)

    def next(self, match=lambda f: True, timeout: float = 10) -> dict:
        """The first frame not taken yet that matches; waits for it if needed."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                for i, frame in enumerate(self._unclaimed):
                    if match(frame):
                        return self._unclaimed.pop(i)
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"no matching frame within {timeout} s; stderr:\n{self.stderr}")
                self._cond.wait(left)

    def pending(self) -> list[dict]:
        """Frames written but not taken yet."""
        with self._cond:
            return list(self._unclaimed)

    @property
    def stderr(self) -> str:
        return "".join(self._stderr)

    def wait_for_stderr(self, text: str, count: int = 1, timeout: float = 10) -> None:
        """Waits until ``text`` was written on stderr (``count`` times)."""
        deadline = time.monotonic() + timeout
        while self.stderr.count(text) < count:
            if time.monotonic() > deadline:
                raise AssertionError(f"{text!r} not on stderr within {timeout} s; stderr:\n{self.stderr}")
            time.sleep(0.01)

    # stopping

    def close_stdin(self) -> None:
        try:
            self.proc.stdin.close()
        except OSError:
            pass

    def kill(self, sig: int = signal.SIGTERM) -> None:
        self.proc.send_signal(sig)

    def wait(self, timeout: float = 10) -> int:
        """The exit code (negative: killed by that signal)."""
        code = self.proc.wait(timeout)
        for t in self._threads:
            t.join(2)
        return code

    def stop(self, timeout: float = 10) -> int:
        """Closes stdin and waits for the exit; kills the process if it is still running after timeout."""
        self.close_stdin()
        try:
            return self.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.wait()
            raise

    def _read_stdout(self) -> None:
        for line in self.proc.stdout:
            try:
                frame = json.loads(line)
            except ValueError:
                frame = None
            with self._cond:
                if not isinstance(frame, dict):
                    self.stray_lines.append(line)
                    continue
                self.frames.append(frame)
                self._unclaimed.append(frame)
                self._cond.notify_all()

    def _read_stderr(self) -> None:
        for line in iter(self.proc.stderr.readline, b""):
            self._stderr.append(line.decode("utf-8", "replace"))
