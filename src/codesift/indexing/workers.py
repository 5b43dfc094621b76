"""Worker processes for parsing: started only when there is enough work and more than one core, with
``__main__`` hidden from spawn, and ended with their parent even when it is killed."""

from __future__ import annotations

import multiprocessing
import os
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager


POOL_MIN_FILES = 400  # below this, starting worker processes costs more than it saves


@contextmanager
def worker_pool(n_files: int, *, in_process: bool) -> Iterator[ProcessPoolExecutor | None]:
    """Worker processes for parsing when there is enough work and more than one core; else None, as always
    with ``in_process`` (``CODESIFT_WORKERS=1``, ``Config.env.parse_in_process``)."""
    workers = min(usable_cpus(), 8)
    if n_files < POOL_MIN_FILES or workers < 2 or in_process:
        yield None
        return
    # spawn, not fork: the parent may hold onnxruntime/tantivy threads that fork would copy mid-state
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"),
                               initializer=_die_with_parent, initargs=(os.getpid(),))
    try:
        _start_workers(pool, workers)
        yield pool
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _die_with_parent(parent: int) -> None:
    """Worker initializer: end this worker when the indexing process ``parent`` dies, even by SIGKILL.

    Linux's PR_SET_PDEATHSIG where available; elsewhere a thread polling the parent's pid.
    """
    import signal
    import threading

    if os.getppid() != parent:  # the parent died while this worker was still starting
        os._exit(1)
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(1, signal.SIGTERM, 0, 0, 0) == 0:  # PR_SET_PDEATHSIG = 1
            if os.getppid() != parent:  # the parent died before prctl took effect
                os._exit(1)
            return
    except (OSError, AttributeError):
        pass

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(1)

    threading.Thread(target=watch, daemon=True).start()


def _start_workers(pool: ProcessPoolExecutor, workers: int) -> None:
    """Start the workers with ``__main__`` hidden from spawn.

    A spawned worker normally re-imports the parent's main script, so a user's script calling
    ``Index.update()`` without an ``if __name__ == "__main__"`` guard would run again in every worker.
    Workers only need codesift, so the main module is masked while they start.
    """
    import sys

    main = sys.modules.get("__main__")
    saved_spec, saved_file = getattr(main, "__spec__", None), getattr(main, "__file__", None)
    try:
        if main is not None:
            main.__spec__ = None  # spawn then falls back to __file__ ...
            if saved_file is not None:
                del main.__file__  # ... which is gone too: nothing to re-import
        for future in [pool.submit(usable_cpus) for _ in range(workers)]:
            future.result()
    finally:
        if main is not None:
            main.__spec__ = saved_spec
            if saved_file is not None:
                main.__file__ = saved_file


def usable_cpus() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1
