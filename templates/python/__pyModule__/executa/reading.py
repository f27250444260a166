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


class Reading:
    def __init__(self, workers, read_loop) -> None:
        """
        Args:
            workers: The Workers the read loops run on.
            read_loop: ``read_loop(is_reader)`` reads and dispatches frames while ``is_reader()``.
        """
        self._workers = workers
        self._read_loop = read_loop
        self._lock = threading.Lock()
        self._generation = 0  # which read loop is the reader
        self._here = None  # the thread id of the reader while it runs an invoke
        self._invokes = 0  # invokes run on the reader so far: the watchdog's clock
        self._watching = False
        self._wake = threading.Event()
        self._watchdog = None

    def start(self) -> None:
        """Starts the first read loop, on a thread of its own (the workers start no thread before they must)."""
        threading.Thread(target=self._loop, args=(0,), name="executa-reader", daemon=True).start()

    def run_here(self, job) -> None:
        """Runs an invoke's ``job()`` on the reading thread (the caller)."""
        me = threading.get_ident()
        with self._lock:
            self._invokes += 1
            self._here = me
            if not self._watching:
                self._watching = True
                if self._watchdog is None:
                    self._watchdog = threading.Thread(target=self._watch, name="executa-watchdog", daemon=True)
                    self._watchdog.start()
                self._wake.set()
        try:
            job()
        finally:
            with self._lock:
                if self._here == me:
                    self._here = None

    def hand_off(self) -> None:
        """The caller is about to block (a reverse request): if it holds the reading, move it now."""
        with self._lock:
            if self._here == threading.get_ident():
                self._move()

    def _loop(self, generation: int) -> None:
        self._read_loop(lambda: self._generation == generation)

    def _move(self) -> None:  # under self._lock
        self._here = None
        self._generation += 1
        generation = self._generation
        self._workers.submit(lambda: self._loop(generation))

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
