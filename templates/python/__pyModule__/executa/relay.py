"""Reading: exactly one thread reads stdin at a time, and an invoke runs on the thread that read it.

A quick invoke (most are) is answered with no thread switch at all. When an invoke is still
running after about 5 ms, or is about to wait for the host, the reading moves to a thread of a
ThreadPoolExecutor, so the plugin keeps taking frames while slow invokes run side by side.
"""

from __future__ import annotations

import threading
import time

# How long an invoke may hold the reading before a watchdog moves it to another thread. The
# watchdog ticks at this rate while invokes run: at 1 ms its wakes (each a GIL hand-over) cost
# ~35% more CPU on a stream of quick invokes; at 5 ms ~8%.
HAND_OFF_AFTER_S = 0.005
MAX_THREADS = 256
# Idle wakes after which the watchdog sleeps until the next invoke.
IDLE_CHECKS = 50


class Relay:
    def __init__(self, read_loop) -> None:
        """
        Args:
            read_loop: ``read_loop(is_reader)`` reads and dispatches frames while ``is_reader()``.
        """
        self._read_loop = read_loop
        self._lock = threading.Lock()
        self._generation = 0  # which read loop is the reader
        self._local = threading.local()  # this thread's read-loop generation
        self._running = False  # the reader is running an invoke
        self._seq = 0  # counts invokes started by readers
        self._watching = False
        self._wake = threading.Event()
        self._watchdog: threading.Thread | None = None
        self._pool = None

    def start(self) -> None:
        """Starts the first reader (a daemon thread: the main thread waits for the stop)."""
        threading.Thread(target=self._reader, args=(0,), name="executa-reader", daemon=True).start()

    def begin(self) -> None:
        """Called by the reader before it runs an invoke."""
        with self._lock:
            if getattr(self._local, "generation", None) != self._generation:
                return
            self._seq += 1
            self._running = True
            if not self._watching:
                self._watching = True
                if self._watchdog is None:
                    self._watchdog = threading.Thread(target=self._watch, name="executa-watchdog", daemon=True)
                    self._watchdog.start()
                self._wake.set()

    def end(self) -> None:
        """Called after the invoke; the thread then reads on only if it is still the reader."""
        with self._lock:
            if getattr(self._local, "generation", None) == self._generation:
                self._running = False

    def hand_off(self) -> None:
        """The current thread is about to block (a reverse request): move the reading off it now."""
        with self._lock:
            if self._running and getattr(self._local, "generation", None) == self._generation:
                self._move_reading()

    def _reader(self, generation: int) -> None:
        self._local.generation = generation
        self._read_loop(lambda: self._generation == generation)

    def _move_reading(self) -> None:  # under self._lock
        self._running = False
        self._generation += 1
        if self._pool is None:
            from concurrent.futures import ThreadPoolExecutor  # only once an invoke is slow

            self._pool = ThreadPoolExecutor(max_workers=MAX_THREADS, thread_name_prefix="executa")
        self._pool.submit(self._reader, self._generation)

    def _watch(self) -> None:
        """Wakes every HAND_OFF_AFTER_S while invokes run; sleeps once none started for IDLE_CHECKS
        wakes (waking it for every burst of invokes would cost more than the wakes themselves)."""
        idle = 0
        while True:
            self._wake.wait()
            seen = self._seq
            time.sleep(HAND_OFF_AFTER_S)
            with self._lock:
                if self._running and self._seq == seen:
                    self._move_reading()
                elif self._seq != seen or self._running:
                    idle = 0
                else:
                    idle += 1
                    if idle >= IDLE_CHECKS:
                        idle = 0
                        self._watching = False
                        self._wake.clear()
