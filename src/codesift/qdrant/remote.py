"""A reader's store: the chunks of one (or every) service of a Qdrant collection, copied from the points'
payloads into an in-memory SQLite store of the usual schema.

Every tool then reads it through the same ``MetaStore`` queries as a local index (chunk records, the
name index behind ``find_symbol``, filters, outlines), so no tool needs a second code path. The
reference index comes from ``<collection>_refs`` (``store/qdrant_refs.py``). What no point carries stays
empty: grep's file texts, skip reasons and the git history.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from codesift.store import mirror, names
from codesift.store.schema import SCHEMA_VERSION
from codesift.store.sqlite import MetaStore

# What a reader asks of every point (not the terms, lengths and signatures the sync keeps for itself).
READ_FIELDS = ("service", "path", "language", "kind", "name", "qualified_name", "parent", "start_line", "end_line",
               "signature", "docstring", "decorators", "route", "text", "content_hash", "file_hash", "mtime",
               "chunk_id", "dense_norm")


def memory_store() -> MetaStore:
    """An empty store of the current schema that lives in this process only."""
    store = MetaStore(Path(":memory:"))
    store.set_meta("schema_version", SCHEMA_VERSION)
    store.set_meta("generation", "0")
    return store


def fill(store: MetaStore, points: Iterable[tuple[int, dict[str, Any]]], *, prefix_services: bool) -> dict[int, int]:
    """Insert the points' files, chunks and names; return point id → chunk id.

    A chunk keeps the writer's chunk id (a reader's results, ``find_symbol`` ids and ``find_similar``
    arguments are the writer's); with several services (``prefix_services``: paths become
    ``<service>/<path>``) each service's ids are shifted past the previous one's, services by name."""
    rows = sorted(points, key=lambda p: (str(p[1].get("service", "")), int(p[1].get("chunk_id") or 0), p[0]))
    ids: dict[int, int] = {}
    used: set[int] = set()
    files: dict[str, int] = {}
    file_rows: list[tuple[Any, ...]] = []
    chunk_rows: list[tuple[Any, ...]] = []
    symbols: list[tuple[int, str, str]] = []
    offset, top, service = 0, 0, None
    for pid, p in rows:
        if p.get("service") != service:
            service, offset = p.get("service"), top
        path = str(p.get("path") or "")
        if not path:
            continue
        if prefix_services:
            path = f"{service}/{path}"
        cid = offset + int(p.get("chunk_id") or 0)
        if cid <= offset or cid in used:
            cid = top + 1  # a duplicate (two writers' ids) or none: a fresh one
        used.add(cid)
        top = max(top, cid)
        ids[pid] = cid
        fid = files.get(path)
        if fid is None:
            fid = files[path] = len(files) + 1
            file_rows.append((fid, path, 0, float(p.get("mtime") or 0.0), str(p.get("file_hash") or ""),
                              p.get("language"), 0.0, None))
        kind, name, qual = str(p.get("kind") or ""), str(p.get("name") or ""), str(p.get("qualified_name") or "")
        chunk_rows.append((cid, fid, path, kind, name, qual, p.get("parent"), str(p.get("language") or "text"),
                           int(p.get("start_line") or 1), int(p.get("end_line") or 1), str(p.get("signature") or ""),
                           str(p.get("docstring") or ""), json.dumps(list(p.get("decorators") or [])), p.get("route"),
                           str(p.get("text") or ""), str(p.get("content_hash") or "")))
        if kind not in names.NON_SYMBOL_KINDS:
            symbols.append((cid, name, qual))
    mirror.insert_files(store, file_rows)
    mirror.insert_chunks(store, chunk_rows, symbols)
    store.commit()
    return ids
