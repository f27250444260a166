"""``run``: wires stdin -> framing -> dispatcher -> writer -> stdout, the threads, and the stop rules.

Threads: one thread at a time reads stdin and dispatches each frame (relay.py). A synchronous
invoke that arrives while nothing else runs is called on the reading thread itself (no thread hop
for quick tools); if it is still running after about 5 ms, or it sends a reverse request, another
thread takes over the reading, so invokes stay concurrent. Every other invoke runs on a thread
pool (``async def`` tools on their own event loop there). The main thread only waits for
stopping and handles SIGTERM / SIGINT.
"""

import json
import os
import signal
import sys

from .dispatch import Dispatcher
from .errors import INVALID_REQUEST
from .framing import BLANK, OVERSIZE, FrameReader, ParseError, decode_frame
from .host import HostChannel
from .relay import Relay
from .stdio import log, protect_stdout
from .stopping import Stopper
from .writer import FrameWriter

MAX_WORKERS = 64


def run(manifest: dict | None = None, *, manifest_path: str | None = None, bindings: dict | None = None) -> None:
    """Serves the manifest's tools over stdio until stdin closes, ``shutdown``, SIGTERM or SIGINT; then exits 0.

    Args:
        manifest: The describe result (manifest.json) as data; or give ``manifest_path``.
        manifest_path: The path of manifest.json.
        bindings: Tool name -> a function that returns the tool's function (``executa_bindings.BINDINGS``).
    """
    if manifest is None:
        try:
            with open(manifest_path, "rb") as f:
                manifest = json.loads(f.read())
        except (OSError, ValueError, TypeError) as err:
            log(f"executa: cannot read manifest.json ({manifest_path}): {err}; run `executa manifest`")
            sys.exit(1)
    if type(manifest) is not dict or type(manifest.get("tools", [])) is not list:
        log("executa: the manifest must be an object with a 'tools' list; run `executa manifest`")
        sys.exit(1)
    _Server(manifest, bindings or {}).serve()


class _Server:
    def __init__(self, manifest: dict, bindings: dict) -> None:
        self.stopper = Stopper()
        self.writer = FrameWriter(protect_stdout(), log, lambda: self.stopper.begin("stdout closed"))
        self.relay = Relay(self._read_loop)
        self.channel = HostChannel(manifest, self.writer, log, before_wait=self.relay.hand_off)
        self.dispatcher = Dispatcher(manifest, bindings, self.writer, self.channel, self.stopper, log, self._execute)
        self.frames = FrameReader(sys.stdin.buffer)
        self._pool = None

    def serve(self) -> None:
        stopper = self.stopper
        self._handle_signals()
        self.relay.start()
        # Short waits, not one long one: Python runs signal handlers on the main thread only, and
        # a lock wait there is not interrupted when the OS delivers the signal to another thread
        # (macOS may; Windows lock waits are never interrupted).
        while not stopper.stopped.wait(0.2):
            pass
        stopper.drain(log)
        _exit()

    def _read_loop(self, is_reader) -> None:
        """Reads and dispatches frames while this thread is the reader. After EOF, shutdown or a
        signal it keeps reading, so the host's answers still reach the in-flight invokes."""
        read = self.frames.read
        dispatcher = self.dispatcher
        while is_reader():
            try:
                line = read()
            except (OSError, ValueError) as err:
                log(f"executa: stdin: {err}")
                line = None
            if line is None:
                self.channel.close()
                self.stopper.begin("stdin closed")
                return
            if line is OVERSIZE:
                self.writer.error(None, INVALID_REQUEST, "Frame exceeds 16 MiB")
                continue
            try:
                value = decode_frame(line)
            except ParseError as err:
                dispatcher.parse_error(str(err))
                continue
            if value is BLANK:
                continue
            try:
                dispatcher.frame(value)
            except Exception:
                import traceback

                log(f"executa: internal error:\n{traceback.format_exc().rstrip()}")

    def _execute(self, job, synchronous: bool) -> None:
        """Runs one invoke: on the reading thread when it is synchronous and nothing else runs, else on the pool."""
        if synchronous and self.stopper.running == 1:
            self.relay.begin()
            try:
                job()
            finally:
                self.relay.end()
            return
        pool = self._pool
        if pool is None:
            from concurrent.futures import ThreadPoolExecutor  # only once invokes overlap

            pool = self._pool = ThreadPoolExecutor(max_workers=MAX_WORKERS, thread_name_prefix="executa-invoke")
        pool.submit(job)

    # stopping

    def _handle_signals(self) -> None:
        def on_signal(signum, _frame):
            name = signal.Signals(signum).name
            if self.stopper.stopping:
                log(f"executa: second {name}, exiting now")
                _exit()
            self.stopper.begin(name)

        for name in ("SIGTERM", "SIGINT"):
            sig = getattr(signal, name, None)
            if sig is not None:
                try:
                    signal.signal(sig, on_signal)
                except (ValueError, OSError):  # not the main thread
                    pass


def _exit() -> None:
    """Exit 0 now: worker threads still running a tool must not hold the exit up."""
    for stream in (sys.stderr, sys.__stderr__):
        try:
            stream.flush()
        except (AttributeError, OSError, ValueError):
            pass
    os._exit(0)
