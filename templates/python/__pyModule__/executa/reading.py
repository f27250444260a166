"""Reading stdin: one thread at a time reads and dispatches frames, and an invoke that arrives while
no other is at work runs on that thread itself, with no thread switch (most invokes are quick).
If it is still running after HAND_OFF_AFTER_S, or is about to wait for the host's answer, the
reading moves to a worker thread: frames keep being read and invokes stay concurrent."""

import threading
import time

# How long an invoke may hold the reading. A watchdog wakes at this rate while invokes run on
# the reading thread; each wake costs a GIL hand-over, so shorter costs CPU on quick invokes.
HAND_OFF_AFTER_S = 0.005
# Wakes with no new invoke after which the watchdog sleeps until the next one.
IDLE_CHECKS = 50


class Turn:
    """One read loop's turn: ``reading`` turns False when the reading moves to another loop."""

    __slots__ = ("reading",)

    def __init__(self) -> None:
        self.reading = True


class Reading:
    def __init__(self, workers, read_loop) -> None:
        """
        Args:
            workers: The Workers the read loops run on.
            read_loop: ``read_loop(turn)`` reads and dispatches frames while ``turn.reading``.
        """
        self._workers = workers
        self._read_loop = read_loop
        self._lock = threading.Lock()
        self._turn = Turn()  # the reading loop's
        self._here = None  # the thread id of the reader while it runs an invoke
        self._invokes = 0  # invokes run on the reader so far: the watchdog's clock
        self._watching = False
        self._wake = threading.Event()
        self._watchdog = None

    def start(self) -> None:
        """Starts the first read loop, on a thread of its own (the workers start no thread before they must)."""
        threading.Thread(target=self._read_loop, args=(self._turn,), name="executa-reader", daemon=True).start()

    def run_here(self, job) -> None:
        """Runs an invoke's ``job()`` on the reading thread (the caller)."""
        me = threading.get_ident()
        lock = self._lock
        # acquire and release rather than ``with``, which costs twice as much: this runs for every invoke
        lock.acquire()
        self._invokes += 1
        self._here = me
        watching = self._watching
        lock.release()
        if not watching:
            self._watch_again()
        try:
            job()
        finally:
            lock.acquire()
            if self._here == me:
                self._here = None
            lock.release()

    def _watch_again(self) -> None:
        with self._lock:
            if not self._watching:
                self._watching = True
                if self._watchdog is None:
                    self._watchdog = threading.Thread(target=self._watch, name="executa-watchdog", daemon=True)
                    self._watchdog.start()
                self._wake.set()

    def hand_off(self) -> None:
        """The caller is about to block (a reverse request): if it holds the reading, move it now."""
        with self._lock:
            if self._here == threading.get_ident():
                self._move()

    def _move(self) -> None:  # under self._lock
        self._here = None
        self._turn.reading = False
        turn = self._turn = Turn()
        self._workers.submit(lambda: self._read_loop(turn))

    def _watch(self) -> None:
        idle = 0
        while True:
            self._wake.wait()
            seen = self._invokes
            time.sleep(HAND_OFF_AFTER_S)
            with self._lock:
                if self._here is not None and self._invokes == seen:
                    self._move()
                elif self._invokes != seen or self._here is not None:
                    idle = 0
                else:
                    idle += 1
                    if idle >= IDLE_CHECKS:  # waking the watchdog for every invoke would cost more than these wakes
                        idle = 0
                        self._watching = False
                        self._wake.clear()
