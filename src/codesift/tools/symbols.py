"""find_symbol, find_similar, drill_down, summarize_matches and list_sources."""

from __future__ import annotations

from typing import TYPE_CHECKING, Unpack, cast

from codesift.languages import is_test_path
from codesift.limits import check_name
from codesift.datatypes import dotted
from codesift.store.records import ChunkRecord
from codesift.text.doc_comments import description
from codesift.tools.payloads import FileSummary, LocalSource, Symbol

if TYPE_CHECKING:  # pragma: no cover

    from codesift.tools.base import SearchFilters, Workspace

MAX_PARTIAL = 50


def _symbol_dict(row: ChunkRecord) -> Symbol:
    return {
        "id": row.id, "path": row.path, "start_line": row.start_line, "end_line": row.end_line,
        "name": row.name, "qualified_name": row.qualified_name, "kind": row.kind,
        "language": row.language, "signature": row.signature, "parent": row.parent,
        "decorators": list(row.decorators), "route": row.route,
        "docstring": (row.docstring or "").strip().split("\n\n")[0][:300],
    }


def find_symbol(ws: "Workspace", name: str, *, kind: str | list[str] | None = None, exact: bool = False,
                service: str | list[str] | None = None, declarations: bool = True) -> list[Symbol]:
    """Definitions named ``name``: every exact match first (callers page what they show; the call graph
    considers them all), then prefix, camel-hump, substring (≤50). When no definition has the name exactly
    (and no ``kind`` is asked), ``declarations`` adds the top-level constants and variables of that name
    (:mod:`codesift.tools.assigned`)."""
    from codesift.search.filters import normalise_kinds, under

    name = check_name(name)  # empty or too long: the same error as on the CLI and MCP
    kinds = normalise_kinds(kind, ws.store.kinds)
    services = ws.services(service)
    hits = ws.store.lookup_names(name, exact=exact, kinds=kinds, limit_exact=None, limit_partial=MAX_PARTIAL,
                                 services=services)
    rows = ws.store.chunks_by_id((cid for cid, _ in hits), with_text=False)
    out: list[Symbol] = []
    for cid, match in hits:
        row = rows.get(cid)
        if row is None or not under(row.path, services):
            continue
        symbol = _symbol_dict(row)
        symbol["match"], symbol["test"] = match, is_test_path(row.path)
        out.append(symbol)
    # Names are looked up case aside; among the exact matches the one spelled as typed comes first
    # (``session`` the function, ``Session`` the class), and definitions in test files (a test-local
    # ``class Config``) after the real ones, the order otherwise kept.
    typed = dotted(name).rsplit(".", 1)[-1]
    out.sort(key=lambda s: (s["match"] != "exact", s["test"], s["name"] != typed))
    if declarations and not kinds and not any(s["match"] == "exact" for s in out):  # a constant, then?
        from codesift.tools.assigned import assigned

        out[:0] = assigned(ws, name, service)
    return out


def find_similar(ws: "Workspace", result_id: int, *, limit: int = 10, spread: bool = False) -> list[Symbol]:
    """Nearest neighbours of a stored chunk's embedding; with ``spread``, at most one per file (drill_down)."""
    vectors = ws.vectors()
    if vectors is None:
        raise LookupError("semantic search is unavailable (keyword-only index): find_similar needs embeddings")
    vec = vectors.vector_of(result_id)
    if vec is None:
        raise LookupError(f"no embedded chunk with id {result_id}: use an id from search_code results")
    hits = vectors.search(vec.astype("float32"), limit * (6 if spread else 2) + 1)
    source = ws.store.chunks_by_id([result_id]).get(result_id)
    rows = ws.store.chunks_by_id(cid for cid, _ in hits)
    out: list[Symbol] = []
    files = {source.path} if (spread and source) else set()
    for cid, score in hits:
        row = rows.get(cid)
        if row is None or cid == result_id:
            continue
        if source is not None and row.path == source.path and row.start_line <= source.end_line \
                and source.start_line <= row.end_line:
            continue  # a part of the chunk (its nested helper) or what holds it (its class): not other code
        if spread:
            if row.path in files:
                continue
            files.add(row.path)
        symbol = _symbol_dict(row)
        symbol["score"], symbol["score_kind"] = round(max(0.0, score), 4), "similar"
        out.append(symbol)
        if len(out) >= limit:
            break
    return out


def summarize_matches(ws: "Workspace", query: str, *, limit: int = 30,
                      **filters: Unpack["SearchFilters"]) -> list[FileSummary]:
    """One entry per matching file: path, best score, matching symbols and a one-line description."""
    response = ws.search(query, limit=limit, **filters)
    files: dict[str, FileSummary] = {}
    for r in response.results:
        entry = files.setdefault(r.path, {"path": r.path, "score": r.score, "symbols": [], "description": ""})
        entry["symbols"].append(f"{r.qualified_name} ({r.kind}, {r.definition_start_line}-{r.definition_end_line})")
    ids = [r.chunk_id for r in response.results]
    rows = ws.store.chunks_by_id(ids)
    for r in response.results:
        entry = files[r.path]
        if not entry["description"]:
            row = rows.get(r.chunk_id)
            doc = description(row.docstring or "").splitlines() if row else []
            entry["description"] = doc[0][:160] if doc else (r.signature or r.snippet.splitlines()[0])[:160]
    return list(files.values())


def list_sources(ws: "Workspace") -> list[LocalSource]:
    """The indexed root and its top-level folders ("services") with file and symbol counts; for an index of
    configured services (``index --all``), one entry per service with its languages and indexed commit."""
    if ws.sources is not None and ws.sources.active():
        from codesift.indexing.sources import service_sources

        # ServiceSources, built below the tools (indexing knows the services)
        return cast("list[LocalSource]", service_sources(ws.root, tuple(ws.sources.specs.values()), ws.store))
    rows = ws.store.service_counts()
    return [{"root": str(ws.root), "service": r[0], "files": r[1], "symbols": r[2]} for r in rows]
