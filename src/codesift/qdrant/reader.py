"""Reader mode: a machine with only the Qdrant URL (no local index, maybe no checkout) reads a service.

``Index(root)`` with backend qdrant and no ``<root>/.codesift/meta.db`` opens a reader when the
collection holds the service (``qdrant_service``, else the root folder's name; ``*`` reads every service
of the collection, each under ``<service>/``). One scroll copies the service's payloads into an
in-memory SQLite store of the usual schema (``store/remote.py``): every tool reads that store as it
reads a local one, and the two retrievers are the Qdrant ones. Nothing is written, neither a
``.codesift`` folder nor a point.

Why a copy and not payload-filter lookups: ``find_symbol``'s prefix, camel-hump and substring matches,
outlines, filters and the ranking's chunk records would each need a Qdrant translation; the copy makes
them the same code as on the writer, at the cost of one scroll per process (see docs/scale.md).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from codesift.embed import EmbeddingUnavailable
from codesift.qdrant import refs as qdrant_refs
from codesift.qdrant.collection import DENSE, QdrantCollection, meta_point_id
from codesift.qdrant.remote import READ_FIELDS, fill, memory_store

if TYPE_CHECKING:  # pragma: no cover
    from qdrant_client import models

    from codesift.embed.base import Embedder
    from codesift.store.reads import FilterLike
    from codesift.store.sqlite import MetaStore
    from codesift.tools.payloads import IndexStatus, ReaderSource, UsagesAnswer  # the tools' answers, as types

ALL_SERVICES = "*"


class ReaderCollection(QdrantCollection):
    """The collection as a reader sees it: one service, or several (``*``) whose paths the local store
    prefixes with ``<service>/``; point ids map to the store's chunk ids."""

    def __init__(self, base: QdrantCollection, services: tuple[str, ...], all_services: bool) -> None:
        super().__init__(base.client, base.url, base.name, base.service, base.layout)
        self.read_services, self.all_services = services, all_services
        self.store: MetaStore | None = None
        self.pid_of: dict[int, int] = {}  # chunk id → point id

    def ensure(self, dim: int | None) -> None:
        """A reader never creates anything: only check the collection."""
        self._check(None)
        self.ready = True

    def service_filter(self) -> models.FieldCondition:
        from qdrant_client import models

        if not self.all_services:
            return super().service_filter()
        return models.FieldCondition(key="service", match=models.MatchAny(any=list(self.read_services)))

    def meta_ids(self) -> list[int]:
        return [meta_point_id(s) for s in self.read_services]

    def to_filter(self, filters: FilterLike | None) -> models.Filter | None:
        """With several services a path or service filter is solved on the local store (its paths carry the
        service) and sent as the point ids that pass; languages and kinds as payload conditions."""
        from qdrant_client import models

        if not self.all_services:
            return super().to_filter(filters)
        must: list[Any] = [self.service_filter()]
        services = getattr(filters, "services", ()) if filters is not None else ()
        if filters is not None and (filters.path or services):
            assert self.store is not None
            ids = self.store.filtered_ids(filters)
            if not len(ids):
                return None
            must.append(models.HasIdCondition(has_id=[self.pid_of[int(c)] for c in ids if int(c) in self.pid_of]))
        elif filters is not None:
            for key, values in (("language", filters.languages), ("kind", filters.kinds)):
                if values:
                    must.append(models.FieldCondition(key=key, match=models.MatchAny(any=list(values))))
        return models.Filter(must=must)


@dataclass(slots=True)
class RemoteVectors:
    """The collection's dense vectors as ``find_similar`` reads a vector index (``vector_of``, ``search``)."""

    coll: ReaderCollection
    size: int

    def __len__(self) -> int:
        return self.size

    def vector_of(self, chunk_id: int) -> np.ndarray | None:
        pid = self.coll.pid_of.get(int(chunk_id))
        vec = self.coll.dense_of([pid]).get(pid) if pid is not None else None
        return None if vec is None else np.asarray(vec, dtype=np.float32)

    def search(self, query: np.ndarray, limit: int, allowed: np.ndarray | None = None) -> list[tuple[int, float]]:
        """Top ``limit`` (chunk id, cosine) of the services read."""
        from qdrant_client import models

        request = models.QueryRequest(query=np.asarray(query, dtype=np.float32).tolist(), using=DENSE,
                                      filter=self.coll.to_filter(None), limit=limit, with_payload=False)
        ids = self.coll.local_ids or {}
        return [(ids[int(p.id)], float(p.score)) for p in self.coll.query_batch([request])[0] if int(p.id) in ids]


@dataclass(slots=True)
class RemoteIndex:
    """What a reader holds: the collection, the in-memory store and each service's meta point."""

    coll: ReaderCollection
    store: MetaStore
    metas: dict[str, dict[str, Any]] = field(default_factory=dict)
    points: int = 0
    dense: int = 0  # points with a dense vector
    load_seconds: float = 0.0
    ref_services: tuple[str, ...] = ()  # the services whose references were read (store/qdrant_refs.py)
    ref_files: int = 0

    def model(self) -> tuple[str | None, int | None]:
        """The embedding model id and dimension the writer recorded (None where no meta point says)."""
        ids = {m["model_id"] for m in self.metas.values() if m.get("model_id")}
        model_id = sorted(ids)[0] if len(ids) == 1 else None
        return model_id, self.coll.dense_dim

    def check_model(self, embedder: Embedder) -> None:
        """Raise EmbeddingUnavailable when this machine's model cannot embed queries for the stored vectors."""
        model_id, dim = self.model()
        if not dim or not self.dense:
            raise EmbeddingUnavailable("the collection holds no dense vectors (it was indexed keyword-only)",
                                       "index on the writer with an embedding model for semantic search")
        if model_id is None and embedder.dim == dim:
            return  # a writer without meta points (an older codesift): the dimension is all there is to check
        if model_id != embedder.model_id or embedder.dim != dim:
            made = f"{model_id} ({dim} dims)" if model_id else f"an unrecorded model of {dim} dims"
            raise EmbeddingUnavailable(
                f"model mismatch: the collection's vectors were made by {made}, this machine's model is "
                f"{embedder.model_id} ({embedder.dim} dims)",
                f"set CODESIFT_EMBED_MODEL (and CODESIFT_EMBEDDER) to {model_id or 'the writer model'} to search them "
                "semantically; keyword search works as it is")

    def vectors(self) -> RemoteVectors | None:
        return RemoteVectors(self.coll, self.dense) if self.dense and self.coll.dense_dim else None

    def status(self) -> "IndexStatus":
        """What ``status`` says on a reader, over the local index's keys."""
        model_id, dim = self.model()
        return {"index_dir": None, "mode": "reader", "model": model_id, "dim": dim, "last_update": self._synced(),
                "qdrant": {"url": self.coll.url, "collection": self.coll.name, "service": self.coll.service,
                           "services": list(self.coll.read_services), "points": self.points,
                           "dense_points": self.dense, "load_seconds": round(self.load_seconds, 3),
                           "meta": bool(self.metas), "references": self._references()}}

    def _references(self) -> str:
        missing = [s for s in self.coll.read_services if s not in self.ref_services]
        if not missing:
            return f"stored in Qdrant ({self.ref_files} files' references read)"
        return (f"not in the collection for {', '.join(missing)} (written by a codesift before references were "
                "stored; sync again on the writer): find_usages answers semantic guesses there")

    def usages(self, result: "UsagesAnswer") -> "UsagesAnswer":
        """``find_usages``' answer on a reader: where a service's references are not in the collection
        (written before they were stored), say so."""
        missing = [s for s in self.coll.read_services if s not in self.ref_services]
        if result.get("source") == "semantic_guess" and missing:
            result["note"] = (f"the references of {', '.join(missing)} are not in the collection (written by a "
                              "codesift before references were stored; sync again on the writer): "
                              f"{result.get('note')}")
        return result

    def _synced(self) -> float | None:
        times = [float(m["synced_at"]) for m in self.metas.values() if m.get("synced_at")]
        return max(times) if times else None

    def sources(self) -> list["ReaderSource"]:
        """Every service of the collection with its chunk count (and files, symbols, model where its meta
        point says), ``reading`` marking those this reader holds."""
        out: list[ReaderSource] = []
        for name, n in sorted(self.coll.services().items()):
            meta = self.metas.get(name) or self.coll.read_meta(name)
            out.append({"service": name, "collection": self.coll.name, "chunks": n - (1 if meta else 0),
                        "files": meta.get("files"), "symbols": meta.get("symbols"), "model": meta.get("model_id"),
                        "reading": name in self.coll.read_services})
        return out


def open_reader(base: QdrantCollection, root: Path) -> RemoteIndex | None:
    """A reader of ``base``'s service (``*``: all of them), or None when the collection does not hold it
    (then the caller indexes as a writer). ``root`` is only where live files are looked for."""
    if not base.call("checking the collection", base.client.collection_exists, base.name):
        return None
    all_services = base.service == ALL_SERVICES
    services = tuple(sorted(base.services())) if all_services else (base.service,)
    coll = ReaderCollection(base, services, all_services)
    if not services or coll.count() == 0:
        return None
    t0 = time.perf_counter()
    coll.ensure(None)
    store = memory_store()
    payloads = coll.scroll_payloads(READ_FIELDS)
    ids = fill(store, payloads.items(), prefix_services=all_services)
    coll.local_ids, coll.pid_of, coll.store = ids, {c: p for p, c in ids.items()}, store
    remote = RemoteIndex(coll, store, points=len(payloads), dense=sum("dense_norm" in p for p in payloads.values()))
    remote.metas = {s: m for s in services if (m := coll.read_meta(s))}
    remote.ref_services = tuple(s for s in services if remote.metas.get(s, {}).get("references"))
    if remote.ref_services:
        read = qdrant_refs.fill(coll, store, remote.ref_services, prefix_services=all_services)
        remote.ref_services, remote.ref_files = (remote.ref_services, read) if read is not None else ((), 0)
    model_id, dim = remote.model()
    if model_id and dim:
        store.set_meta("model_id", model_id)
        store.set_meta("model_dim", dim)
        store.commit()
    remote.load_seconds = time.perf_counter() - t0
    return remote


def open_remote(coll: QdrantCollection | None, root: Path, folder: Path, local: bool, create: bool,
                reader: bool | None) -> RemoteIndex | None:
    """The reader ``Index`` opens, or None: the embedded backend, a local index (unless ``reader``),
    ``reader=False``, or a collection without the service (then a writer, or NoIndexError without ``create``)."""
    from codesift.config.settings import ConfigError
    from codesift.indexing.folder import NoIndexError

    if coll is None:
        return None
    remote = None if reader is False or (local and reader is not True) else open_reader(coll, root)
    if remote is None and coll.service == ALL_SERVICES:
        coll.close()
        raise ConfigError(f"qdrant_service '*' reads every service of collection {coll.name!r}: there is none to "
                          "read, and '*' cannot be indexed into (name this tree's service)")
    if remote is None and not create and not local:
        coll.close()
        raise NoIndexError(root, folder)
    return remote
