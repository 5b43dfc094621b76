"""What a damaged SQLite database looks like: the error that names it, the SQLite errors that mean damage, a
header check read without SQLite, and setting the file aside for a bug report."""

from __future__ import annotations

import os
import sqlite3
import time
from pathlib import Path

from codesift.errors import CodesiftError


class IndexDamaged(CodesiftError, RuntimeError):
    """The index's SQLite database cannot be read as it is (truncated, overwritten, not a database at all).
    ``codesift index`` sets it aside and rebuilds the index from the tree (store/health.py)."""

    def __init__(self, path: Path, reason: str) -> None:
        self.path, self.reason = path, reason
        super().__init__(f"the index database {path} is damaged ({reason}): run `codesift index` to set it aside "
                         "and rebuild the index from the tree")


_DAMAGE_CODES = (11, 26)  # SQLITE_CORRUPT, SQLITE_NOTADB (primary codes; "database is locked" is not damage)


def is_damage(exc: BaseException) -> bool:
    """Whether ``exc`` says the database file is damaged (not busy, not read-only, not a bad statement)."""
    if isinstance(exc, IndexDamaged):
        return True
    code = getattr(exc, "sqlite_errorcode", None)
    return isinstance(exc, sqlite3.DatabaseError) and code is not None and code & 0xFF in _DAMAGE_CODES


_MAGIC = b"SQLite format 3\x00"


def header_problem(path: Path) -> str | None:
    """What is wrong with the database file at first sight, read without SQLite (100 bytes and a stat): not an
    SQLite file, a bad page size, shorter than its header says. None when nothing is (or there is no file yet).

    The size is compared only when the header's page count is valid (its change counter matches) and no WAL
    holds newer pages: then the main file holds every page the header counts."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(100)
            size = os.fstat(fh.fileno()).st_size
    except FileNotFoundError:
        return None
    if size == 0:
        return None  # a database SQLite has not written yet
    if len(head) < 100 or head[:16] != _MAGIC:
        return "not an SQLite database: its header is overwritten"
    page = int.from_bytes(head[16:18], "big")
    page = 65536 if page == 1 else page
    if page < 512 or page & (page - 1):
        return f"its header gives an impossible page size ({page})"
    pages = int.from_bytes(head[28:32], "big")
    wal = path.with_name(path.name + "-wal")
    if pages and head[24:28] == head[92:96] and size < pages * page and not (wal.is_file() and wal.stat().st_size):
        return f"truncated: {size:,} bytes where its header counts {pages * page:,}"
    return None


def set_aside(path: Path) -> Path:
    """Move a damaged database (and its WAL) to ``<name>.damaged-<UTC time>`` beside it, for a bug report; return
    the new path. Its shared-memory file is removed: SQLite rebuilds it from the WAL."""
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    kept = path.with_name(f"{path.name}.damaged-{stamp}")
    n = 1
    while kept.exists():
        n += 1
        kept = path.with_name(f"{path.name}.damaged-{stamp}-{n}")
    os.replace(path, kept)
    wal = path.with_name(path.name + "-wal")
    if wal.exists():
        os.replace(wal, kept.with_name(kept.name + "-wal"))
    path.with_name(path.name + "-shm").unlink(missing_ok=True)
    return kept
