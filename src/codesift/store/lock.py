"""One writer per index: an advisory ``flock`` on ``<index>/write.lock``; and what a failed write says.

The kernel drops the lock when its holder dies, so a crashed writer never leaves a stale lock behind;
the file only records the holder's pid for the message a second writer prints.

The lock goes with its folder: a writer whose index folder is deleted (or replaced) under it checks
:func:`check_held` between batches and stops with :class:`IndexRemoved` instead of writing on into deleted
files while a second writer, not refused, builds the index anew. A write that fails (disk full, a file size
limit, permission, an I/O error) becomes one :class:`IndexWriteError` naming the cause
(:func:`write_failure`).
"""

from __future__ import annotations

import errno
import fcntl
import os
import re
import resource
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path

from codesift.errors import CodesiftError


class IndexBusy(CodesiftError, RuntimeError):
    """Another process is writing this index."""


class IndexWriteError(CodesiftError, RuntimeError):
    """Writing the index failed (disk full, a file size limit, permission, I/O); the message names the cause.
    The writer rolled back what it had not committed: the index answers as it did before the failed batch."""


class IndexRemoved(IndexWriteError):
    """The index folder was removed (or replaced) while this process was writing it, or was gone when it came to."""


_HELD: dict[str, "WriteLock"] = {}  # index folder (absolute) -> the lock this process holds on it


def check_held(folder: Path) -> None:
    """Raise :class:`IndexRemoved` when this process holds the write lock of ``folder`` and the lock file is
    gone or is another file than the one locked (the folder was deleted, or deleted and made again)."""
    lock = _HELD.get(os.path.abspath(folder))
    if lock is not None:
        lock.check()


def removed_message(folder: Path) -> str:
    return f"the index folder {folder} was removed while indexing; run `codesift index` again"


class WriteLock:
    """Context manager taking the index's write lock, waiting at most ``timeout`` seconds; ``on_wait`` is
    called once with a one-line message when it has to wait (a silent 10 s pause looked like a hang)."""

    def __init__(self, folder: Path, timeout: float = 0.0, on_wait: Callable[[str], None] | None = None) -> None:
        self.path = folder / "write.lock"
        self.timeout = timeout
        self.on_wait = on_wait
        self._fd: int | None = None
        self._ident: tuple[int, int] = (0, 0)  # (device, inode) of the locked file

    def holder(self) -> str:
        try:
            return self.path.read_text().strip() or "unknown"
        except OSError:
            return "unknown"

    def acquire(self) -> None:
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except FileNotFoundError:  # the index folder itself is gone: deleted under a long-lived process
            raise IndexRemoved(f"the index folder {self.path.parent} no longer exists (removed?); run "
                               f"`codesift index` to build it again") from None
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
        st = os.fstat(fd)
        self._ident = (st.st_dev, st.st_ino)
        _HELD.setdefault(os.path.abspath(self.path.parent), self)

    def check(self) -> None:
        """Raise :class:`IndexRemoved` when the locked file is no longer the one at :attr:`path`."""
        if self._fd is None:
            return
        try:
            st = os.stat(self.path)
        except OSError:
            st = None
        if st is None or (st.st_dev, st.st_ino) != self._ident:
            raise IndexRemoved(removed_message(self.path.parent))

    def release(self) -> None:
        if self._fd is not None:
            if _HELD.get(os.path.abspath(self.path.parent)) is self:
                del _HELD[os.path.abspath(self.path.parent)]
            fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
            self._fd = None

    def __enter__(self) -> "WriteLock":
        self.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


# --------------------------------------------------------------------------- failed writes
_SQLITE_FULL, _SQLITE_READONLY, _SQLITE_PERM = 13, 8, 3
_OS_ERROR = re.compile(r"os error (\d+)|errno[ =:]+(\d+)", re.IGNORECASE)
_IO_WORDS = ("no space left", "file too large", "disk quota", "read-only file system", "permission denied",
             "input/output error", "ioerror", "io error")


def write_failure(exc: BaseException, folder: Path, needed: int | None = None,
                  kept: str = "the index answers as it did before this run") -> IndexWriteError | None:
    """The one-line :class:`IndexWriteError` for a write that failed with ``exc`` (an ``OSError``, an
    ``sqlite3`` error, or the keyword index's ``ValueError`` wrapping an OS error); None when ``exc`` is no
    failed write. ``needed``: an estimate of the bytes the update meant to add; ``kept``: what the index holds."""
    try:
        check_held(folder)
    except IndexRemoved as removed:
        return removed
    code = _errno(exc)
    if code is None:
        return None
    if code == 0:  # SQLite's "disk I/O error" does not say why: tell the likely causes apart
        code = _diagnose(folder, needed)
    cause = _describe(code, folder)
    need = f"; it needs about {_size(needed)} more" if needed else ""
    return IndexWriteError(f"could not write the index at {folder}: {cause}{need}. The unfinished batch was rolled "
                           f"back and {kept}; make room, then run `codesift index` again")


def _errno(exc: BaseException) -> int | None:
    """The errno of a failed write; 0 for an I/O error without one; None when ``exc`` is no failed write."""
    if isinstance(exc, OSError):
        return exc.errno or errno.EIO
    if isinstance(exc, sqlite3.Error):
        text = str(exc).lower()
        base = (getattr(exc, "sqlite_errorcode", 0) or 0) & 0xFF
        if base == _SQLITE_FULL or "disk is full" in text:
            return errno.ENOSPC
        if base == _SQLITE_READONLY or "readonly database" in text:
            return errno.EACCES
        if base == _SQLITE_PERM:
            return errno.EACCES
        if "disk i/o error" in text or base == 10:
            return 0
        return None
    if isinstance(exc, ValueError):  # tantivy's errors are ValueErrors; an OS error inside names its number
        text = str(exc)
        if (m := _OS_ERROR.search(text)) is not None:
            return int(m.group(1) or m.group(2))
        if any(w in text.lower() for w in _IO_WORDS):
            return 0
    return None


def _diagnose(folder: Path, needed: int | None) -> int:
    """The likely errno behind an I/O error: a file size limit reached, a full disk, or an I/O error."""
    soft, _ = resource.getrlimit(resource.RLIMIT_FSIZE)
    if soft != resource.RLIM_INFINITY:
        largest = max((e.stat().st_size for e in _files(folder)), default=0)
        if largest + 4 * 1024 * 1024 >= soft:  # a file within a few MB of the limit: a write past it failed
            return errno.EFBIG
    try:
        st = os.statvfs(folder if folder.exists() else folder.parent)
    except OSError:
        return errno.EIO
    if st.f_bavail * st.f_frsize < max(needed or 0, 16 * 1024 * 1024):
        return errno.ENOSPC
    return errno.EIO


def _files(folder: Path) -> list[os.DirEntry[str]]:
    out: list[os.DirEntry[str]] = []
    try:
        for entry in os.scandir(folder):
            if entry.is_dir(follow_symlinks=False):
                out += _files(Path(entry.path))
            elif entry.is_file(follow_symlinks=False):
                out.append(entry)
    except OSError:
        pass
    return out


def folder_bytes(folder: Path) -> int:
    """The bytes the files under ``folder`` hold."""
    total = 0
    for entry in _files(folder):
        try:
            total += entry.stat().st_size
        except OSError:
            pass
    return total


def _describe(code: int, folder: Path) -> str:
    if code == errno.ENOSPC:
        try:
            st = os.statvfs(folder if folder.exists() else folder.parent)
            return f"no space left on device ({_size(st.f_bavail * st.f_frsize)} free)"
        except OSError:
            return "no space left on device"
    if code == errno.EFBIG:
        soft, _ = resource.getrlimit(resource.RLIMIT_FSIZE)
        limit = f" of {_size(soft)}" if soft != resource.RLIM_INFINITY else ""
        return f"a file reached the file size limit{limit} (ulimit -f)"
    if code == errno.EDQUOT:
        return "disk quota exceeded"
    if code in (errno.EACCES, errno.EPERM):
        return "permission denied"
    if code == errno.EROFS:
        return "read-only file system"
    if code == errno.EIO:
        return "disk I/O error"
    return os.strerror(code).lower()


def _size(n: int | None) -> str:
    value = float(n or 0)
    for unit in ("bytes", "KB", "MB", "GB"):
        if value < 1024 or unit == "GB":
            return f"{value:.0f} {unit}" if unit == "bytes" else f"{value:.1f} {unit}"
        value /= 1024
    return f"{value:.1f} TB"  # pragma: no cover - the loop returns at GB
