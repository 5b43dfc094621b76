"""Bring a Qdrant collection in line with the SQLite store: one diff, upserts, deletes.

SQLite stays the source of truth. Every point carries a ``sig`` (a hash of what it was written from:
the chunk id, its file's and its text's hashes, whether it has a vector, the payload layout); the sync
reads the service's ``sig``s (one scroll, no vectors), writes the chunks whose point is missing or
differs, and deletes the points no chunk maps to. Point ids are deterministic, so a run that died
half-way (Ctrl-C, a server that went away) is finished by the next one without duplicates.

The sparse BM25 weights depend on the mean field lengths (``store/bm25.py``). They are computed over
the whole service on every sync from the lengths kept in each point's payload plus the new chunks'; the
points keep the means they were written with until the current ones drift more than ``DRIFT`` from them,
then every point is rewritten (a fresh build is therefore exact).
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import xxhash

from codesift.qdrant import bm25
from codesift.store.keyword import FIELD_BOOSTS, TEXT_FIELDS, keyword_fields
from codesift.qdrant.collection import DENSE, SPARSE, WINDOWS, QdrantCollection

if TYPE_CHECKING:  # pragma: no cover
    from codesift.store.records import ChunkRecord
    from codesift.store.sqlite import MetaStore

PAYLOAD_VERSION = "2"  # bumped when the payload or the weights change: every point is rewritten
# 2: the file's mtime (a reader's recency boost)
DRIFT = 0.05  # relative change of a mean field length that makes every point's BM25 weights be rewritten
WRITE_BATCH = 128
ChunkKey = tuple[int, str, str, str, str]  # id, path, kind, qualified name, embed hash

assert tuple(FIELD_BOOSTS) == TEXT_FIELDS


@dataclass(slots=True)
class SyncStats:
    """What one sync did."""

    written: int = 0
    deleted: int = 0
    kept: int = 0
    reweighted: bool = False  # the mean field lengths drifted: every point was rewritten
    seconds: float = 0.0
    avgdl: list[float] | None = None  # the mean field lengths the points hold
    refs: Any = None  # the reference sync's RefStats (store/qdrant_refs.py)


def point_id(service: str, path: str, kind: str, qualified_name: str, ordinal: int) -> int:
    """The chunk's point id: an unsigned 64-bit hash of the service, the path and its stable key (kind,
    qualified name and which of the same-named chunks of the file it is), so that re-indexing an
    unchanged symbol upserts the same point."""
    key = "\x1f".join((service, path, kind, qualified_name, str(ordinal)))
    return xxhash.xxh3_64_intdigest(key.encode("utf-8", "surrogatepass"))


def point_sig(chunk_id: int, file_hash: str, embed_hash: str, has_vector: bool, windows: int = 0) -> str:
    """What a point was written from (``windows``: how many of its window vectors, store/windows.py); a point
    whose ``sig`` differs is rewritten."""
    key = f"{PAYLOAD_VERSION}|{chunk_id}|{file_hash}|{embed_hash}|{int(has_vector)}"
    key += f"|{windows}" if windows else ""
    return xxhash.xxh3_64_hexdigest(key.encode())


def path_dirs(path: str) -> list[str]:
    """The folder prefixes of ``path`` (with their ``/``) and the path itself: what a folder filter matches."""
    parts = path.split("/")
    return ["/".join(parts[:i]) + "/" for i in range(1, len(parts))] + [path]


def _fields(row: ChunkRecord) -> tuple[str, str, str, str]:
    return keyword_fields(row.name, row.qualified_name, row.docstring, row.text, row.path, row.kind,
                          row.language)


def _rows(store: MetaStore, ids: list[int], batch: int = 500) -> Iterator[ChunkRecord]:
    for start in range(0, len(ids), batch):
        part = ids[start : start + batch]
        found = store.chunks_by_id(part)
        yield from (found[i] for i in part if i in found)


def build_point(row: ChunkRecord, *, pid: int, service: str, file_hash: str, sig: str, fields: tuple[str, ...],
                avgdl: list[float], vector: np.ndarray | None, windows: np.ndarray | None = None) -> Any:
    """The point of one chunk: its payload and its ``bm25`` (and, when embedded, ``dense``, and a long chunk's
    ``windows``: one row a window) vectors."""
    from qdrant_client import models

    indices, values = bm25.doc_vector(TEXT_FIELDS, fields, avgdl)
    vectors: dict[str, Any] = {SPARSE: models.SparseVector(indices=indices, values=values)}
    payload: dict[str, Any] = {
        "service": service, "path": row.path, "dirs": path_dirs(row.path), "language": row.language,
        "kind": row.kind, "name": row.name, "qualified_name": row.qualified_name, "parent": row.parent,
        "start_line": row.start_line, "end_line": row.end_line, "signature": row.signature,
        "docstring": row.docstring, "decorators": list(row.decorators), "route": row.route,
        "content_hash": row.embed_hash, "file_hash": file_hash, "mtime": row.mtime, "chunk_id": row.id,
        "text": row.text,
        "terms": sorted({t for text in fields for t in text.split()}), "name_terms": sorted(set(fields[0].split())),
        "lens": bm25.field_lengths(fields), "avgdl": list(avgdl), "sig": sig,
    }
    if vector is not None:
        vec = np.asarray(vector, dtype=np.float32)
        norm = float(np.linalg.norm(vec))
        if norm > 0:
            vectors[DENSE] = vec.tolist()
            payload["dense_norm"] = norm  # cosine ÷ this norm: the embedded backend's dot product
            if windows is not None and len(windows):
                vectors[WINDOWS] = np.asarray(windows, dtype=np.float32).tolist()
    return models.PointStruct(id=pid, vector=vectors, payload=payload)


def _target_avgdl(kept: Iterable[dict[str, Any]], current: list[float]) -> tuple[list[float], bool]:
    """The mean lengths to write with: those most kept points have unless ``current`` drifted from them."""
    counts = Counter(tuple(p["avgdl"]) for p in kept if isinstance(p.get("avgdl"), list))
    if not counts:
        return current, False
    held = list(counts.most_common(1)[0][0])
    drift = max((abs(c - h) / c if c else abs(h)) for c, h in zip(current, held))
    return (current, True) if drift > DRIFT else (held, False)


def sync(coll: QdrantCollection, store: MetaStore, dim: int | None) -> SyncStats:
    """Write what the collection lacks for this service and delete what it has too much of."""
    t0 = time.perf_counter()
    stats = SyncStats()
    files = {path: row.hash for path, row in store.files().items()}
    with_dense = bool(dim) and coll.dense_dim == dim
    embedded = set(store.embedded_chunk_ids().tolist()) if with_dense else set()
    windows = store.embedded_windows_by_chunk() if with_dense and coll.has_windows else {}
    existing = coll.scroll_payloads(["sig", "lens", "avgdl"])
    ordinals: Counter[tuple[str, str, str]] = Counter()
    wanted: dict[int, tuple[int, str]] = {}  # point id -> (chunk id, sig)
    todo: list[int] = []
    for cid, path, kind, qname, ehash in store.chunk_keys():
        ordinal = ordinals[(path, kind, qname)]
        ordinals[(path, kind, qname)] += 1
        pid = point_id(coll.service, path, kind, qname, ordinal)
        has_vector = cid in embedded
        sig = point_sig(cid, files.get(path, ""), ehash, has_vector, windows.get(cid, 0) if has_vector else 0)
        wanted[pid] = (cid, sig)
        old = existing.get(pid)
        if old is None or old.get("sig") != sig or not isinstance(old.get("lens"), list):
            todo.append(pid)
    todo_set = set(todo)
    kept = [existing[p] for p in wanted if p not in todo_set]
    totals = [0] * len(TEXT_FIELDS)
    for p in kept:
        totals = [t + int(n) for t, n in zip(totals, p["lens"])]
    by_chunk = {wanted[p][0]: p for p in todo}
    for row in _rows(store, list(by_chunk)):  # first pass: the new chunks' lengths, for the means
        totals = [t + n for t, n in zip(totals, bm25.field_lengths(_fields(row)))]
    current = bm25.average_lengths(totals, len(wanted))
    avgdl, stats.reweighted = _target_avgdl(kept, current)
    stats.avgdl = list(avgdl)
    stale = [p for p in wanted if p not in todo_set and existing[p].get("avgdl") != avgdl]
    todo += stale
    stats.kept = len(wanted) - len(todo)
    _write(coll, store, todo, wanted, files, avgdl, dim if with_dense else None, embedded, stats,
           with_windows=bool(windows))
    gone = [p for p in existing if p not in wanted]
    coll.delete(gone)
    stats.deleted = len(gone)
    stats.seconds = time.perf_counter() - t0
    return stats


def _write(coll: QdrantCollection, store: MetaStore, todo: list[int], wanted: dict[int, tuple[int, str]],
           files: dict[str, str], avgdl: list[float], dim: int | None, embedded: set[int], stats: SyncStats, *,
           with_windows: bool = False) -> None:
    """Upsert the points ``todo`` in batches (second pass over their texts)."""
    pid_of = {wanted[p][0]: p for p in todo}
    ids = list(pid_of)
    for start in range(0, len(ids), WRITE_BATCH):
        part = ids[start : start + WRITE_BATCH]
        with_vec = np.asarray([c for c in part if c in embedded], dtype=np.int64)
        vecs = dict(zip(with_vec.tolist(), store.vectors_for(with_vec, dim))) if dim and len(with_vec) else {}
        wins = store.window_vectors_by_chunk(with_vec.tolist(), dim) if dim and with_windows and len(with_vec) else {}
        points = []
        for row in _rows(store, part):
            pid = pid_of[row.id]
            points.append(build_point(row, pid=pid, service=coll.service, file_hash=files.get(row.path, ""),
                                      sig=wanted[pid][1], fields=_fields(row), avgdl=avgdl, vector=vecs.get(row.id),
                                      windows=wins.get(row.id)))
        coll.upsert(points)
        stats.written += len(points)
