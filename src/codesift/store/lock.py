"""One writer per index: an advisory ``flock`` on ``<index>/write.lock``.

The kernel drops the lock when its holder dies, so a crashed writer never leaves a stale lock behind;
the file only records the holder's pid for the message a second writer prints.
"""

from __future__ import annotations

import fcntl
import os
import time
from collections.abc import Callable
from pathlib import Path

from codesift.errors import CodesiftError


class IndexBusy(CodesiftError, RuntimeError):
    """Another process is writing this index."""


class WriteLock:
    """Context manager taking the index's write lock, waiting at most ``timeout`` seconds; ``on_wait`` is
    called once with a one-line message when it has to wait (a silent 10 s pause looked like a hang)."""

    def __init__(self, folder: Path, timeout: float = 0.0, on_wait: Callable[[str], None] | None = None) -> None:
        self.path = folder / "write.lock"
        self.timeout = timeout
        self.on_wait = on_wait
        self._fd: int | None = None

    def holder(self) -> str:
        try:
            return self.path.read_text().strip() or "unknown"
        except OSError:
            return "unknown"

    def acquire(self) -> None:
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        deadline = time.monotonic() + self.timeout
        said = False
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if not said and self.on_wait is not None and self.timeout > 0:
                    said = True
                    self.on_wait(f"waiting up to {self.timeout:g} s for another codesift process "
                                 f"(pid {self.holder()}) that is updating the index at {self.path.parent}")
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
