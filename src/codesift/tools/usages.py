"""find_usages: real references from the static index built at indexing time (tree-sitter).

Calls, attribute reads, imports, type references, inheritance and decorators are recorded per file;
strings, comments, definitions, parameters and assignment targets are not references. Only when the
static index knows nothing about a name does this fall back to a semantic guess, labelled as such.
"""

from __future__ import annotations

import os
from collections import defaultdict
from typing import TYPE_CHECKING

from ..store import refs
from .context import _read

if TYPE_CHECKING:  # pragma: no cover
    from ..api import Index

CONTEXT_LINES = 2


def _enclosing(index: "Index", file_ids: set[int]) -> dict[int, list[tuple[int, int, str]]]:
    """Per file: (start, end, qualified name) of its definitions, narrowest last when nested."""
    out: dict[int, list[tuple[int, int, str]]] = defaultdict(list)
    ids = list(file_ids)
    for start in range(0, len(ids), 900):
        part = ids[start : start + 900]
        rows = index.store.db.execute(
            f"SELECT file_id, start_line, end_line, qualified_name FROM chunks WHERE file_id IN "
            f"({','.join('?' * len(part))}) AND kind NOT IN ('module','window','section')", part
        )
        for fid, s, e, q in rows:
            out[fid].append((s, e, q))
    return out


def _innermost(defs: list[tuple[int, int, str]], line: int) -> str | None:
    best = None
    for s, e, q in defs:
        if s <= line <= e and (best is None or e - s < best[1] - best[0]):
            best = (s, e, q)
    return best[2] if best else None


def _context(root: str, path: str, line: int, cache: dict[str, list[str]]) -> tuple[str, str]:
    """(the site's own line, a few numbered lines around it), read live from the working tree."""
    if path not in cache:
        full = os.path.join(root, path)
        try:
            st = os.stat(full)
            cache[path] = _read(full, st.st_mtime_ns, st.st_size).decode("utf-8", "replace").splitlines()
        except OSError:
            cache[path] = []
    lines = cache[path]
    lo, hi = max(1, line - CONTEXT_LINES), min(len(lines), line + CONTEXT_LINES)
    own = lines[line - 1].strip() if 0 < line <= len(lines) else ""
    return own, "\n".join(f"{n}: {lines[n - 1]}" for n in range(lo, hi + 1))


def _target_of(ref_qualifier: str, ref_path: str, targets: list[dict[str, object]]) -> str:
    """Best-effort owner of a reference when several definitions share its name."""
    last = ref_qualifier.rsplit(".", 1)[-1]
    for t in targets:
        if last and last == t["parent"]:
            return str(t["qualified_name"])
    for t in targets:
        if t["path"] == ref_path:
            return str(t["qualified_name"])
    module_hint = ref_qualifier.replace(".", "/")
    for t in targets:
        if module_hint and str(t["path"]).rsplit(".", 1)[0].endswith(module_hint):
            return str(t["qualified_name"])
    return "unresolved"


def find_usages(index: "Index", symbol_name: str, *, limit: int = 100, service: str | None = None,
                with_context: bool = True) -> dict[str, object]:
    """References to ``symbol_name`` (a name or ``Parent.name``), the definition sites excluded."""
    name = symbol_name.strip().replace("::", ".").rsplit(".", 1)[-1]
    if not name:
        raise ValueError("symbol_name is empty")
    if limit <= 0:
        raise ValueError("limit must be a positive integer")
    targets = index.find_symbol(symbol_name, exact=True)
    def_sites = {(t["path"], t["start_line"]) for t in targets}
    prefix = service.rstrip("/") + "/" if service else None
    rows = refs.sites_of(index.store.db, name, prefix)
    rows = [r for r in rows if (r[1], r[2]) not in def_sites]
    total = len(rows)
    rows = rows[:limit]
    defs = _enclosing(index, {r[0] for r in rows})
    cache: dict[str, list[str]] = {}
    ambiguous = len({t["qualified_name"] for t in targets}) > 1
    usages = []
    for fid, path, line, kind, qualifier in rows:
        item: dict[str, object] = {"path": path, "line": line, "kind": kind, "qualifier": qualifier,
                                   "enclosing": _innermost(defs.get(fid, []), line)}
        if ambiguous:
            item["target"] = _target_of(qualifier, path, targets)
        if with_context:
            item["text"], item["context"] = _context(str(index.root), path, line, cache)
        usages.append(item)
    result: dict[str, object] = {
        "symbol": symbol_name, "definitions": [
            {k: t[k] for k in ("path", "start_line", "end_line", "qualified_name", "kind")} for t in targets],
        "ambiguous": ambiguous, "total": total, "usages": usages, "source": "static",
    }
    if ambiguous:
        result["note"] = (f"{len(targets)} definitions are named {name!r}; references are grouped by their "
                          f"most likely target (by qualifier, file and import path)")
    if not usages and not total:
        response = index.search(f"code that uses or references {symbol_name}", limit=min(limit, 10))
        result["source"] = "semantic_guess"
        result["note"] = f"no static reference to {name!r} was found; these are semantic guesses, not references"
        result["usages"] = [
            {"path": r.path, "line": r.start_line, "kind": "guess", "qualifier": "", "enclosing": r.qualified_name,
             "score": r.score} for r in response.results
        ]
    return result
