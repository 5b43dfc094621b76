"""Embedding beside a serving process: a lower CPU priority for the thread that runs the model, and
the locks it holds while it touches the store."""

from __future__ import annotations

import os
import sys
import threading
from pathlib import Path

from codesift.store.lock import WriteLock


def lower_thread_priority(niceness: int = 10) -> bool:
    """Lower the calling thread's CPU priority (Linux: nice is per thread, and threads it starts inherit
    it); False where that is not possible. Elsewhere a thread id is no ``setpriority`` target (it could
    name another process), so this is Linux only."""
    if sys.platform != "linux":
        return False
    try:
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), niceness)
    except (AttributeError, OSError):
        return False
    return True


class WriteGuard:
    """The service lock, then the index's write lock (another process may be running `codesift index`):
    what the background embedding holds while it touches the store."""

    def __init__(self, lock: threading.Lock, folder: Path, wait: float = 2.0) -> None:
        self.lock, self.write = lock, WriteLock(folder, wait)

    def __enter__(self) -> "WriteGuard":
        self.lock.acquire()
        try:
            self.write.acquire()
        except BaseException:
            self.lock.release()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self.write.release()
        self.lock.release()
