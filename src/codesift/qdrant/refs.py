"""The reference index (``store/refs.py``) in Qdrant, so that a reader answers find_usages, callers,
callees, impact and the repository map as the writer does.

A second collection, ``<collection>_refs``, holds vector-less points: one per indexed file that has
references, keyed by an unsigned 64-bit hash of (service, path), with the payload ``service``, ``path``,
``file_hash``, ``v`` (``REFS_VERSION``) and ``refs``: the file's rows of the ``refs`` table exactly as
SQLite holds them, ``[name, sites]`` (``sites`` the packed JSON string). The sync is the chunk sync's
pattern: one scroll of (path, file_hash, v) for the service, upserts of the files whose point is missing
or differs, deletes of the points no file maps to; ids are deterministic, so an interrupted run is
finished by the next one without duplicates.
"""

from __future__ import annotations

import time
import warnings
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import xxhash

from codesift.store import mirror

if TYPE_CHECKING:  # pragma: no cover
    from codesift.qdrant.collection import QdrantCollection
    from codesift.store.sqlite import MetaStore

REFS_SUFFIX = "_refs"
REFS_VERSION = "1"  # bumped when the rows' layout changes: every ref point is rewritten
BATCH_POINTS = 256
BATCH_BYTES = 4_000_000  # well under a server's default 32 MB request limit
SCROLL_BATCH = 1024


@dataclass(slots=True)
class RefStats:
    """What one reference sync did."""

    written: int = 0
    deleted: int = 0
    kept: int = 0
    upserts: int = 0  # upsert requests sent
    seconds: float = 0.0


def refs_name(collection: str) -> str:
    return collection + REFS_SUFFIX


def ref_point_id(service: str, path: str) -> int:
    """The id of one file's reference point."""
    return xxhash.xxh3_64_intdigest(f"\x1eref\x1f{service}\x1f{path}".encode("utf-8", "surrogatepass"))


def _service_filter(services: Iterable[str]) -> Any:
    from qdrant_client import models

    wanted = list(services)
    match = models.MatchValue(value=wanted[0]) if len(wanted) == 1 else models.MatchAny(any=wanted)
    return models.Filter(must=[models.FieldCondition(key="service", match=match)])


def exists(coll: QdrantCollection) -> bool:
    return bool(coll.call("checking the collection", coll.client.collection_exists, refs_name(coll.name)))


def ensure(coll: QdrantCollection) -> None:
    """Create ``<collection>_refs`` (no vectors) and its ``service`` payload index unless it exists."""
    from qdrant_client import models

    name = refs_name(coll.name)
    if exists(coll):
        return
    lay = coll.layout
    coll.call("creating the reference collection", coll.client.create_collection, name, vectors_config={},
              shard_number=lay.shards or None, replication_factor=lay.replicas or None,
              on_disk_payload=lay.on_disk or None)
    with warnings.catch_warnings():  # local mode warns that payload indexes have no effect there
        warnings.simplefilter("ignore", UserWarning)
        coll.call("creating payload indexes", coll.client.create_payload_index, name, "service",
                  field_schema=models.PayloadSchemaType.KEYWORD)


def scroll(coll: QdrantCollection, services: Iterable[str], fields: list[str]) -> Iterable[tuple[int, dict[str, Any]]]:
    """(point id, the asked payload fields) of every reference point of ``services``."""
    name, flt, offset = refs_name(coll.name), _service_filter(services), None
    while True:
        points, offset = coll.call("reading reference points", coll.client.scroll, name, scroll_filter=flt,
                                   limit=SCROLL_BATCH, offset=offset, with_payload=fields, with_vectors=False)
        for p in points:
            yield int(p.id), dict(p.payload or {})
        if offset is None:
            return


def sync(coll: QdrantCollection, store: MetaStore) -> RefStats:
    """Bring this service's reference points in line with the store's ``refs`` table."""
    from qdrant_client import models

    t0 = time.perf_counter()
    stats = RefStats()
    ensure(coll)
    existing = {pid: p for pid, p in scroll(coll, [coll.service], ["file_hash", "v"])}
    files = mirror.file_hashes(store)
    with_refs = mirror.files_with_refs(store)
    wanted: dict[int, int] = {}  # point id -> file id
    todo: list[int] = []
    for fid in with_refs:
        if fid not in files:
            continue
        path, fhash = files[fid]
        pid = ref_point_id(coll.service, path)
        wanted[pid] = fid
        old = existing.get(pid)
        if old is None or old.get("file_hash") != fhash or old.get("v") != REFS_VERSION:
            todo.append(fid)
    stats.kept = len(wanted) - len(todo)
    if todo:
        rows = mirror.ref_rows(store, None if len(todo) > len(files) // 4 else todo)
        batch: list[Any] = []
        size = 0
        for fid in sorted(todo, key=lambda f: files[f][0]):
            path, fhash = files[fid]
            file_rows = rows.get(fid, [])
            payload = {"service": coll.service, "path": path, "file_hash": fhash, "v": REFS_VERSION, "refs": file_rows}
            batch.append(models.PointStruct(id=ref_point_id(coll.service, path), vector={}, payload=payload))
            size += sum(len(n) + len(s) + 8 for n, s in file_rows) + len(path) + 100
            if len(batch) >= BATCH_POINTS or size >= BATCH_BYTES:
                _upsert(coll, batch, stats)
                batch, size = [], 0
        _upsert(coll, batch, stats)
    gone = [pid for pid in existing if pid not in wanted]
    for start in range(0, len(gone), 1000):
        coll.call("deleting reference points", coll.client.delete, refs_name(coll.name),
                  points_selector=models.PointIdsList(points=list(gone[start : start + 1000])), wait=True)
    stats.deleted = len(gone)
    stats.seconds = time.perf_counter() - t0
    return stats


def _upsert(coll: QdrantCollection, points: list[Any], stats: RefStats) -> None:
    if points:
        coll.call("writing reference points", coll.client.upsert, refs_name(coll.name), points=points, wait=True)
        stats.written += len(points)
        stats.upserts += 1


def delete_service(coll: QdrantCollection) -> None:
    """Every reference point of this service (``index --rebuild``)."""
    from qdrant_client import models

    if exists(coll):
        coll.call("deleting reference points", coll.client.delete, refs_name(coll.name),
                  points_selector=models.FilterSelector(filter=_service_filter([coll.service])), wait=True)


def fill(coll: QdrantCollection, store: MetaStore, services: Iterable[str], *, prefix_services: bool) -> int | None:
    """Copy the reference points of ``services`` into the reader's store (``refs`` rows, and a ``files``
    row for a file no chunk named); the number of files read, or None when the collection has no
    reference collection (written before references were stored)."""
    if not exists(coll):
        return None
    file_ids = mirror.file_ids(store)
    top = max(file_ids.values(), default=0)
    new_files: list[tuple[Any, ...]] = []
    rows: list[tuple[int, str, str]] = []
    n = 0
    for service in services:  # one scroll per service; files by path, as a writer mostly inserts them
        points = sorted((p for _, p in scroll(coll, [service], ["path", "file_hash", "refs"])),
                        key=lambda p: str(p.get("path") or ""))
        for p in points:
            path = str(p.get("path") or "")
            if not path:
                continue
            if prefix_services:
                path = f"{service}/{path}"
            fid = file_ids.get(path)
            if fid is None:
                top += 1
                fid = file_ids[path] = top
                new_files.append((fid, path, 0, 0.0, str(p.get("file_hash") or ""), None, 0.0, None))
            rows += [(fid, str(name), str(sites)) for name, sites in p.get("refs") or []]
            n += 1
    mirror.insert_files(store, new_files)
    mirror.insert_refs(store, rows)
    store.commit()
    return n
