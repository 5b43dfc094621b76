"""One writer per index: an advisory ``flock`` on ``<index>/write.lock``.

The kernel drops the lock when its holder dies, so a crashed writer never leaves a stale lock behind;
the file only records the holder's pid for the message a second writer prints.
"""

from __future__ import annotations

import fcntl
import os
import time
from pathlib import Path
from codesift.errors import CodesiftError


class IndexBusy(CodesiftError, RuntimeError):
    """Another process is writing this index."""


class WriteLock:
    """Context manager taking the index's write lock, waiting at most ``timeout`` seconds."""

    def __init__(self, folder: Path, timeout: float = 0.0) -> None:
        self.path = folder / "write.lock"
        self.timeout = timeout
        self._fd: int | None = None

    def holder(self) -> str:
        try:
            return self.path.read_text().strip() or "unknown"
        except OSError:
            return "unknown"

    def acquire(self) -> None:
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        deadline = time.monotonic() + self.timeout
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    os.close(fd)
                    raise IndexBusy(
                        f"another codesift process (pid {self.holder()}) is updating the index at "
                        f"{self.path.parent}; searches still work, try the update again when it finishes"
                    ) from None
                time.sleep(0.1)
        os.ftruncate(fd, 0)
        os.write(fd, str(os.getpid()).encode())
        self._fd = fd

    def release(self) -> None:
        if self._fd is not None:
            fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
            self._fd = None

    def __enter__(self) -> "WriteLock":
        self.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()
