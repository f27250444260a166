"""Stopping: on stdin EOF, ``shutdown``, SIGTERM, SIGHUP or SIGINT, answer new requests "Shutting
down", let in-flight invokes finish within the grace period, then exit 0. A second signal exits at once."""

import _thread
import threading
import time

# Seconds in-flight invokes may still run once the plugin stops; their answers are still written.
GRACE_S = 3.0


class Stopper:
    """Counts the invokes in flight and knows when stopping began."""

    def __init__(self) -> None:
        self.stopping = False
        self.reason = ""
        self.running = 0  # invokes not answered yet (health's in_flight)
        self.unfinished = 0  # invokes whose thread is still at work
        self.stopped = threading.Event()  # set when stopping begins
        self.drained = threading.Event()  # set when stopping and no invoke is running
        self._lock = _thread.allocate_lock()

    # These three run for every invoke: acquire and release rather than ``with``, which costs twice as much.
    def started(self) -> None:
        self._lock.acquire()
        self.running += 1
        self.unfinished += 1
        self._lock.release()

    def answering(self) -> None:
        """The invoke's answer is about to be written: it no longer counts as in flight."""
        self._lock.acquire()
        self.running -= 1
        self._lock.release()

    def finished(self) -> None:
        """The invoke's answer is written (or failed to be)."""
        self._lock.acquire()
        self.unfinished -= 1
        drained = self.stopping and self.unfinished == 0
        self._lock.release()
        if drained:
            self.drained.set()

    def begin(self, reason: str) -> None:
        """Begin stopping; later calls do nothing."""
        with self._lock:
            if self.stopping:
                return
            self.stopping = True
            self.reason = reason
            if self.unfinished == 0:
                self.drained.set()
        self.stopped.set()

    def drain(self, log, grace: float = GRACE_S) -> bool:
        """Waits until the in-flight invokes are done or the grace period is over; False if some were left."""
        if self.drained.is_set():
            return True
        log(f"executa: {self.reason}: waiting up to {int(grace * 1000)} ms for {self.unfinished} invoke(s)")
        deadline = time.monotonic() + grace
        # In short waits, so that a second signal is handled at once (see run._Server.serve).
        while not self.drained.wait(max(0.0, min(0.2, deadline - time.monotonic()))):
            if time.monotonic() >= deadline:
                break
        else:
            return True
        log(f"executa: grace period over with {self.unfinished} invoke(s) unanswered")
        return False
