"""The threads invokes run on: idle ones wait on one queue, and a new one starts only when none is
idle (up to a limit; past it, invokes wait for a free thread). Lighter per invoke than
concurrent.futures' ThreadPoolExecutor, which builds a Future for every job."""

import threading


class Workers:
    def __init__(self, limit: int) -> None:
        self._limit = limit
        self._lock = threading.Lock()
        self._jobs = None  # a queue.SimpleQueue, made by the first submit
        self._threads = 0
        # Threads waiting for a job that no submit has claimed. Once every thread is busy at the
        # limit it counts high, which changes nothing: no thread starts past the limit anyway.
        self._idle = 0

    def submit(self, job) -> None:
        """Runs ``job()`` on a worker thread; the job answers its own failures."""
        with self._lock:
            if self._jobs is None:
                from queue import SimpleQueue

                self._jobs = SimpleQueue()
            start = not self._idle and self._threads < self._limit
            if start:
                self._threads += 1
            elif self._idle:
                self._idle -= 1
        self._jobs.put(job)
        if start:
            threading.Thread(target=self._work, name="executa-invoke", daemon=True).start()

    def _work(self) -> None:
        get, lock = self._jobs.get, self._lock
        while True:
            job = get()
            try:
                job()
            except BaseException:  # the job answered or logged it; the thread serves on
                pass
            with lock:
                self._idle += 1
