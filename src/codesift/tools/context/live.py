"""get_code_context: live source from the working tree (or a git revision), never the indexed copy."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import TYPE_CHECKING

from codesift.text.source import content_hash, decode_source
from codesift.languages import language_for
from codesift.parse import extract_chunks
from codesift.indexing.discover import SNIFF_BYTES, is_binary
from codesift.tools.context.common import (ContextError, answer_window, no_symbol, not_indexed, read_cached,
                                           safe_path, symbol_info)
from codesift.tools.payloads import CodeContext, ContextSymbol
from codesift.datatypes import NOT_DEFINITIONS, dotted

if TYPE_CHECKING:  # pragma: no cover
    from codesift.indexing.sources import Location
    from codesift.tools.base import Workspace

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
    from codesift.indexing.gitblobs import read_blob

    if loc.repo is not None:
        commit = loc.commit or ""
        if ref:
            from codesift.indexing.gitblobs import GitSourceError, resolve_commit

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
    data = read_cached(loc.file, st.st_mtime_ns, st.st_size)
    entry = ws.store.file_entry(rel)
    return data, entry is None or entry[1] != content_hash(data), f"folder {loc.file}"


def get_code_context(ws: "Workspace", file_path: str, symbol_name: str | None = None, *, ref: str | None = None,
                     context_lines: int = 0, start_line: int | None = None) -> CodeContext:
    """The file (or one symbol of it, plus ``context_lines`` around) with 1-based line numbers, at most
    ``MAX_FILE_LINES`` of them from ``start_line`` on (how a long file is read page by page)."""
    if context_lines < 0:
        raise ContextError("context_lines must be >= 0")
    full, rel = safe_path(ws.root, file_path)
    loc = ws.sources.locate(rel) if ws.sources is not None else None
    source = None
    skipped = None if ref else ws.store.skip_reason(rel)
    if skipped is not None and (full.is_file() or loc is not None and loc.service is not None):
        raise not_indexed(rel, skipped)  # binary, too large, a lockfile…: no source to read, however it reads
    if loc is not None and loc.service is not None:  # a configured service: its folder, or its git blob
        data, stale, source = _service_source(ws, loc, rel, ref)
    elif ref:
        data = _git_show(ws.root, ref, rel)
        stale = False
    else:
        if not full.is_file():
            if ws.remote:  # a Qdrant reader without this checkout: the stored text
                from codesift.tools.context.stored import stored_context

                return stored_context(ws, rel, symbol_name, context_lines, start_line, "no such file here")
            raise ContextError(f"no such file in the indexed root: {rel}")
        st = os.stat(full)
        data = read_cached(str(full), st.st_mtime_ns, st.st_size)
        entry = ws.store.file_entry(rel)
        stale = entry is None or entry[1] != content_hash(data)
        if ws.remote:
            from codesift.tools.context.stored import LIVE, stored_context

            if stale:  # the live file is not what the collection holds: its stored text is
                return stored_context(ws, rel, symbol_name, context_lines, start_line,
                                      "the file here differs from the indexed one")
            source = LIVE
    if is_binary(data[:SNIFF_BYTES]):  # added since the last update, or at another revision
        raise not_indexed(rel, "binary")
    text, _ = decode_source(data)
    lines = text.splitlines()
    start, end = 1, len(lines)
    symbol: ContextSymbol | None = None
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
            from codesift.tools.assigned import declaration_in

            spans = [(c.start_line, c.end_line, c.kind, c.qualified_name) for c in chunks]
            symbol = declaration_in(text, language, want.rsplit(".", 1)[-1], spans)
            if symbol is None or (want != symbol["name"] and want != symbol["qualified_name"]):
                raise no_symbol(symbol_name, rel, [c.qualified_name for c in chunks])
            start = max(1, symbol["start_line"] - context_lines)
            end = min(len(lines), symbol["end_line"] + context_lines)
    start, end, truncated = answer_window(start, end, start_line)
    answer: CodeContext = {
        "path": rel, "ref": ref, "source": source or "", "language": language_for(rel) or "text",
        "start_line": start, "end_line": end, "total_lines": len(lines), "symbol": symbol,
        "changed_since_indexed": stale, "truncated": truncated, "code": "\n".join(lines[start - 1 : end]),
    }
    if not source:  # said for a configured service's file and a Qdrant reader's live one
        del answer["source"]
    return answer


