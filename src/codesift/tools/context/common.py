"""What the live and the stored get_code_context share: the path check, cached reads, the answer window and
the errors."""

from __future__ import annotations

import difflib
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from codesift.datatypes import dotted
from codesift.errors import CodesiftError
from codesift.tools.payloads import ContextSymbol

if TYPE_CHECKING:  # pragma: no cover
    from codesift.datatypes import Chunk
    from codesift.store.records import ChunkRecord

MAX_FILE_LINES = 2000  # a whole-file answer longer than this is cut, and says so


class ContextError(CodesiftError, ValueError):
    """The request cannot be answered (outside the root, missing file, unknown symbol, a binary file or one the index
    skipped); says why."""


# Why a file is no source to read, by the skip reason discovery records (codesift.indexing.discover).
SKIP_WORDS = {
    "binary": "a binary file, not text",
    "too_large": "over the max_file_size setting",
    "lockfile": "a dependency lockfile",
    "minified": "minified code",
    "generated": "generated code",
    "unreadable": "could not be read",
    "not_regular": "not a regular file",
}


def not_indexed(rel: str, reason: str) -> ContextError:
    """The refusal for a file the index leaves out: its path, the reason, and what that means."""
    words = SKIP_WORDS.get(reason)
    return ContextError(f"{rel} is not indexed: {reason}" + (f" ({words})" if words else "")
                        + "; get_code_context reads only the text files the index holds")


def safe_path(root: Path, path: str) -> tuple[Path, str]:
    """Resolve ``path`` (relative to ``root`` or absolute) and refuse anything outside ``root``."""
    if not path or "\x00" in path:
        raise ContextError("file_path is empty or invalid")
    candidate = Path(path)
    full = candidate if candidate.is_absolute() else root / candidate
    resolved = full.resolve()
    try:
        rel = resolved.relative_to(root)
    except ValueError:
        raise ContextError(f"{path!r} is outside the indexed root {root}") from None
    return resolved, rel.as_posix()


@lru_cache(maxsize=64)
def read_cached(path: str, mtime_ns: int, size: int) -> bytes:  # keyed by stat: a changed file misses
    with open(path, "rb") as fh:
        return fh.read()


def no_symbol(symbol_name: str, rel: str, names: list[str], shown: int = 30) -> ContextError:
    """The error for a symbol ``rel`` does not define: the names closest to the one asked first (a typo,
    ``Table.add_rw``), then the file's other names in order, ``shown`` in all."""
    known = sorted(set(names))
    want = dotted(symbol_name)
    by_last: dict[str, list[str]] = {}
    for name in known:
        by_last.setdefault(name.rsplit(".", 1)[-1], []).append(name)
    close = difflib.get_close_matches(want, known, n=5, cutoff=0.75)
    close += [n for last in difflib.get_close_matches(want.rsplit(".", 1)[-1], list(by_last), n=5, cutoff=0.75)
              for n in by_last[last]]
    close = list(dict.fromkeys(close))[:5]
    rest = [n for n in known if n not in close]
    there = ", ".join(rest[: max(0, shown - len(close))])
    if close:
        return ContextError(f"no symbol {symbol_name!r} in {rel}; did you mean {', '.join(close)}?"
                            + (f" Other symbols there: {there}" if there else ""))
    return ContextError(f"no symbol {symbol_name!r} in {rel}" + (f"; symbols there: {there}" if there else ""))


def symbol_info(sym: Chunk | ChunkRecord) -> ContextSymbol:
    """The ``symbol`` field of a context answer."""
    return {"name": sym.name, "qualified_name": sym.qualified_name, "kind": sym.kind,
            "start_line": sym.start_line, "end_line": sym.end_line, "signature": sym.signature}


def answer_window(start: int, end: int, start_line: int | None) -> tuple[int, int, bool]:
    """The lines a context answer holds: ``start``–``end``, begun at ``start_line`` when given (paging
    through a long file), cut to ``MAX_FILE_LINES``; and whether it was cut."""
    if start_line is not None:
        if start_line < 1:
            raise ContextError("start_line must be >= 1")
        start = max(start, min(start_line, end))
    truncated = end - start + 1 > MAX_FILE_LINES
    if truncated:
        end = start + MAX_FILE_LINES - 1
    return start, end, truncated
