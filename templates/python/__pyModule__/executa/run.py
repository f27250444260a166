"""``run``: wires stdin -> framing -> dispatcher -> writer -> stdout, the threads, and the stop rules.

Threads: one thread at a time reads stdin and answers each frame (reading.py). An invoke that
arrives while no other is at work runs on the reading thread; others run on worker threads
(``async def`` tools on an event loop of their own). The main thread waits for the stop and
handles SIGTERM, SIGHUP and SIGINT.
"""

import json
import os
import signal
import sys

from .dispatch import Dispatcher
from .errors import INVALID_REQUEST
from .framing import BLANK, OVERSIZE, FrameReader, ParseError, TooDeep, decode_frame
from .host import HostChannel
from .reading import Reading
from .stdio import log, protect_stdout
from .stopping import Stopper
from .workers import Workers
from .writer import FrameWriter

# Invokes that run at once; more wait for a free thread.
MAX_WORKERS = 1024


def run(manifest: dict | None = None, *, manifest_path: str | None = None, bindings: dict | None = None) -> None:
    """Serves the manifest's tools over stdio until stdin closes, ``shutdown`` or a signal; then exits 0.

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
        self._workers = Workers(MAX_WORKERS + 1)  # and the read loop
        self._reading = Reading(self._workers, self._read)
        self.channel = HostChannel(manifest, self.writer, log, before_wait=self._reading.hand_off)
        self.dispatcher = Dispatcher(manifest, bindings, self.writer, self.channel, self.stopper, log, self._submit)
        self.frames = FrameReader(sys.stdin.buffer)

    def serve(self) -> None:
        self._handle_signals()
        self._reading.start()
        # Short waits, not one long one: Python runs signal handlers on the main thread only, and
        # a lock wait there is not interrupted when the OS delivers the signal to another thread
        # (macOS may; Windows lock waits are never interrupted).
        while not self.stopper.stopped.wait(0.2):
            pass
        self.stopper.drain(log)
        _exit()

    def _read(self, turn) -> None:
        """Reads and answers frames until EOF, or until the reading moves to another thread. After
        shutdown or a signal it reads on: the host's answers still reach the in-flight invokes, and
        new requests are answered "Shutting down"."""
        read, dispatcher, writer = self.frames.read, self.dispatcher, self.writer
        while turn.reading:
            writer.wait_for_room()  # backpressure: a host that stops reading stdout stops being read
            try:
                line = read()
            except (OSError, ValueError) as err:
                log(f"executa: stdin: {err}")
                line = None
            if line is None:
                self.channel.close()
                self.stopper.begin("stdin closed")
                return
            try:
                if line is OVERSIZE:
                    writer.error(None, INVALID_REQUEST, "Frame exceeds 16 MiB")
                    continue
                try:
                    value = decode_frame(line)
                except ParseError as err:
                    dispatcher.parse_error(str(err))
                    continue
                except TooDeep as deep:
                    dispatcher.too_deep(deep.id, deep.response)
                    continue
                if value is not BLANK:
                    dispatcher.frame(value)
            except Exception:
                import traceback

                log(f"executa: internal error:\n{traceback.format_exc().rstrip()}")

    def _submit(self, job) -> None:
        if self.stopper.unfinished == 1:  # this invoke is the only one at work
            self._reading.run_here(job)
        else:
            self._workers.submit(job)

    def _handle_signals(self) -> None:
        def on_signal(signum, _frame):
            name = signal.Signals(signum).name
            if self.stopper.stopping:
                log(f"executa: second {name}, exiting now")
                _exit()
            self.stopper.begin(name)

        for name in ("SIGTERM", "SIGHUP", "SIGINT"):
            sig = getattr(signal, name, None)
            if sig is not None:
                try:
                    signal.signal(sig, on_signal)
                except (ValueError, OSError):  # not the main thread
                    pass


def _exit() -> None:
    """Exit 0 now: worker threads still running a tool (or blocked on stdout) must not hold the exit up."""
    for stream in (sys.stderr, sys.__stderr__):
        try:
            stream.flush()
        except (AttributeError, OSError, ValueError):
            pass
    os._exit(0)
