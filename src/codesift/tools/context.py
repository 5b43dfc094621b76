"""get_code_context: live source from the working tree (or a git revision), never the indexed copy."""

from __future__ import annotations

import difflib
import os
import subprocess
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from ..indexer import _decode, _digest
from ..languages import language_for
from ..parse import extract_chunks
from ..errors import CodesiftError
from ..model import NOT_DEFINITIONS, dotted

if TYPE_CHECKING:  # pragma: no cover
    from ..model import Chunk
    from ..services import Location
    from ..store.records import ChunkRecord
    from .base import Workspace

MAX_FILE_LINES = 2000  # a whole-file answer longer than this is cut, and says so


class ContextError(CodesiftError, ValueError):
    """The request cannot be answered (outside the root, missing file, unknown symbol); says why."""


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
def _read(path: str, mtime_ns: int, size: int) -> bytes:  # keyed by stat: a changed file misses
    with open(path, "rb") as fh:
        return fh.read()


def _git_show(root: Path, ref: str, rel: str) -> bytes:
    if ref.startswith("-"):
        raise ContextError(f"invalid git revision {ref!r}")
    proc = subprocess.run(["git", "show", f"{ref}:{rel}"], cwd=root, capture_output=True, timeout=20)
    if proc.returncode != 0:
        raise ContextError(f"git could not read {rel} at {ref}: {proc.stderr.decode(errors='replace').strip()[:200]}")
    return proc.stdout


def _service_source(ws: "Workspace", loc: "Location", rel: str, ref: str | None) -> tuple[bytes, bool, str]:
    """(bytes, changed since indexed, where they come from) of a configured service's file: the blob at
    the indexed commit (or ``ref``) for a git service, the live file (or ``ref`` of its repository) for a
    folder."""
    from ..gitblobs import read_blob

    if loc.repo is not None:
        commit = loc.commit or ""
        if ref:
            from ..gitblobs import GitSourceError, resolve_commit

            try:
                commit = resolve_commit(Path(loc.repo), ref)
            except GitSourceError as exc:
                raise ContextError(str(exc)) from None
        try:
            return read_blob(loc.repo, commit, loc.inner), False, f"git {commit}"
        except OSError:
            raise ContextError(f"no file {loc.inner} in service {loc.service!r} at {commit[:12]}") from None
    assert loc.file is not None
    if ref:
        return _git_show(Path(loc.file).parent, ref, "./" + Path(loc.file).name), False, f"git {ref}"
    if not os.path.isfile(loc.file):
        raise ContextError(f"no such file in service {loc.service!r}: {loc.inner} ({loc.file})")
    st = os.stat(loc.file)
    data = _read(loc.file, st.st_mtime_ns, st.st_size)
    entry = ws.store.file_entry(rel)
    return data, entry is None or entry[1] != _digest(data), f"folder {loc.file}"


def get_code_context(ws: "Workspace", file_path: str, symbol_name: str | None = None, *, ref: str | None = None,
                     context_lines: int = 0, start_line: int | None = None) -> dict[str, object]:
    """The file (or one symbol of it, plus ``context_lines`` around) with 1-based line numbers, at most
    ``MAX_FILE_LINES`` of them from ``start_line`` on (how a long file is read page by page)."""
    if context_lines < 0:
        raise ContextError("context_lines must be >= 0")
    full, rel = safe_path(ws.root, file_path)
    loc = ws.sources.locate(rel) if ws.sources is not None else None
    source = None
    if loc is not None and loc.service is not None:  # a configured service: its folder, or its git blob
        data, stale, source = _service_source(ws, loc, rel, ref)
    elif ref:
        data = _git_show(ws.root, ref, rel)
        stale = False
    else:
        if not full.is_file():
            if ws.remote:  # a Qdrant reader without this checkout: the stored text
                from .context_stored import stored_context

                return stored_context(ws, rel, symbol_name, context_lines, start_line, "no such file here")
            raise ContextError(f"no such file in the indexed root: {rel}")
        st = os.stat(full)
        data = _read(str(full), st.st_mtime_ns, st.st_size)
        entry = ws.store.file_entry(rel)
        stale = entry is None or entry[1] != _digest(data)
        if ws.remote:
            from .context_stored import LIVE, stored_context

            if stale:  # the live file is not what the collection holds: its stored text is
                return stored_context(ws, rel, symbol_name, context_lines, start_line,
                                      "the file here differs from the indexed one")
            source = LIVE
    text, _ = _decode(data)
    lines = text.splitlines()
    start, end = 1, len(lines)
    symbol = None
    if symbol_name:
        language = language_for(rel) or "text"
        chunks = [c for c in extract_chunks(text, language, rel) if c.kind not in NOT_DEFINITIONS]
        want = dotted(symbol_name)
        matches = [c for c in chunks if c.qualified_name == want] or [c for c in chunks if c.name == want] or [
            c for c in chunks if c.qualified_name.endswith("." + want)]
        if matches:
            sym = matches[0]
            deco = len(sym.text.splitlines()) - (sym.end_line - sym.start_line + 1)
            start = max(1, sym.start_line - max(0, deco) - context_lines)
            end = min(len(lines), sym.end_line + context_lines)
            symbol = symbol_info(sym)
        else:  # a constant or variable (``DEFAULT_TIMEOUT = 30``), as find_symbol finds one
            from .assigned import declaration_in

            spans = [(c.start_line, c.end_line, c.kind, c.qualified_name) for c in chunks]
            symbol = declaration_in(text, language, want.rsplit(".", 1)[-1], spans)
            if symbol is None or (want != symbol["name"] and want != symbol["qualified_name"]):
                raise no_symbol(symbol_name, rel, [c.qualified_name for c in chunks])
            start = max(1, int(symbol["start_line"]) - context_lines)  # type: ignore[call-overload]
            end = min(len(lines), int(symbol["end_line"]) + context_lines)  # type: ignore[call-overload]
    start, end, truncated = answer_window(start, end, start_line)
    return {
        "path": rel, "ref": ref, **({"source": source} if source else {}), "language": language_for(rel) or "text",
        "start_line": start, "end_line": end, "total_lines": len(lines), "symbol": symbol,
        "changed_since_indexed": stale, "truncated": truncated, "code": "\n".join(lines[start - 1 : end]),
    }


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


def symbol_info(sym: Chunk | ChunkRecord) -> dict[str, object]:
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
