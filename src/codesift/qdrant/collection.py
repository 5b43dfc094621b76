"""The Qdrant backend's collection: connection, schema, filters and the search round-trip.

One collection holds any number of trees (``service`` in every point's payload and in every query's
filter). Each chunk is one point with two named vectors — ``dense`` (cosine, the embedder's dimension)
and ``bm25`` (sparse, ``Modifier.IDF``; see ``store/bm25.py``) — and a payload that carries everything
a reader needs (path, lines, names, signature, docstring, decorators, route, hashes, the text). Point
ids are unsigned 64-bit integers derived from the service, the path and the chunk's stable key, which a
Qdrant server accepts and local mode too. ``store/qdrant_sync.py`` writes the points.

Only what a real server's API accepts is used: the tests drive qdrant-client's local mode
(``QdrantClient(":memory:")`` or a folder), which tolerates more.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar

from codesift.errors import CodesiftError
from codesift.store.keyword import glob_to_regex, normalise_path_filter

if TYPE_CHECKING:  # pragma: no cover
    from qdrant_client import QdrantClient, models

    from codesift.store.reads import FilterLike

DENSE, SPARSE = "dense", "bm25"
WINDOWS = "windows"  # a long chunk's window vectors (store/windows.py), one multivector a point, searched MAX_SIM
INSTALL = "pip install 'codesift[qdrant]'"
# Payload fields with a keyword index: the search filters, the sync's diff and the name lookups.
KEYWORD_INDEXES = ("service", "language", "kind", "path", "dirs", "name", "terms", "name_terms")
TIMEOUT_S = 10
MAX_FACET_PATHS = 1_000_000
META_FLAG = "codesift_meta"  # payload flag of a service's meta point (no vectors: never a search hit)
T = TypeVar("T")


def meta_point_id(service: str) -> int:
    """The id of ``service``'s meta point: an unsigned 64-bit hash no chunk's key can give."""
    import xxhash

    return xxhash.xxh3_64_intdigest(f"\x1emeta\x1f{service}".encode("utf-8", "surrogatepass"))


class QdrantMissing(CodesiftError, ImportError):
    """``backend = "qdrant"`` without the qdrant-client package; the message is the pip command."""


class QdrantUnavailable(CodesiftError, RuntimeError):
    """The configured Qdrant cannot be used (unreachable, refused, misconfigured); the message says the fix."""


def _client_module() -> ModuleType:  # qdrant_client, an optional dependency
    try:
        import qdrant_client
    except ImportError as exc:
        raise QdrantMissing(
            f"backend qdrant needs the qdrant-client package ({exc.name} is missing): {INSTALL}") from exc
    return qdrant_client


def is_server_url(url: str) -> bool:
    """True for ``http(s)://host:port``; anything else is a local-mode folder or ``:memory:``."""
    return bool(re.match(r"(?i)https?://", url))


def _reason(exc: BaseException) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text[:300]


def _fix(url: str) -> str:
    if is_server_url(url):
        return ("start the server or fix qdrant_url / CODESIFT_QDRANT_URL (and CODESIFT_QDRANT_API_KEY); "
                "or set CODESIFT_BACKEND=embedded")
    return "local mode lets one process open a folder at a time: close the other codesift, or use a Qdrant server"


def guarded(url: str, action: str, call: Callable[[], T]) -> T:
    """``call()``, with any failure of the client or the connection raised as one QdrantUnavailable line."""
    try:
        return call()
    except CodesiftError:
        raise
    except Exception as exc:  # httpx, grpc, the client's own and local mode's errors alike
        status = getattr(exc, "status_code", None)
        if status in (401, 403):
            raise QdrantUnavailable(f"Qdrant at {url} refused the request ({status}) while {action}: "
                                    "set the right API key in CODESIFT_QDRANT_API_KEY or qdrant_api_key") from exc
        raise QdrantUnavailable(f"cannot use Qdrant at {url} while {action}: {_reason(exc)}; {_fix(url)}") from exc


def connect(url: str, api_key: str | None = None) -> QdrantClient:
    """A client for ``url`` (server, local-mode folder or ``:memory:``), checked with one request."""
    qc = _client_module()
    if url == ":memory:":
        make = lambda: qc.QdrantClient(location=":memory:")  # noqa: E731
    elif is_server_url(url):
        make = lambda: qc.QdrantClient(url=url, api_key=api_key or None, timeout=TIMEOUT_S,  # noqa: E731
                                       check_compatibility=False)
    else:
        folder = Path(url).expanduser()
        if folder.exists() and not folder.is_dir():
            raise QdrantUnavailable(f"qdrant_url {url} is a file: give http(s)://host:port for a server, "
                                    "or a folder (or :memory:) for qdrant-client's local mode")
        make = lambda: qc.QdrantClient(path=str(folder))  # noqa: E731
    client = guarded(url, "connecting", make)
    guarded(url, "connecting", client.get_collections)
    return client


class Layout(NamedTuple):
    """How a new collection is laid out (0: the server's default); see docs/scale.md, "Sizing a collection"."""

    shards: int = 0
    replicas: int = 0
    on_disk: bool = False
    quantization: str = "none"  # or "int8"


class QdrantCollection:
    """One collection on one Qdrant, seen from one tree (its ``service``)."""

    def __init__(self, client: QdrantClient, url: str, name: str, service: str,
                 layout: Layout | None = None) -> None:
        self.client, self.url, self.name, self.service = client, url, name, service
        self.layout = layout or Layout()
        self.dense_dim: int | None = None
        self.has_windows = False  # the collection has the multivector WINDOWS (known once ensure() ran)
        self.ready = False  # ensure() ran: the collection exists and dense_dim is known
        self.local_ids: dict[int, int] | None = None  # a reader's point id → chunk id (None: the payload's)

    def close(self) -> None:
        try:
            self.client.close()
        except Exception:  # closing a dead connection must not mask the real error
            pass

    def call(self, action: str, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """``fn(*args, **kwargs)`` with failures as QdrantUnavailable (see :func:`guarded`)."""
        return guarded(self.url, action, lambda: fn(*args, **kwargs))

    # -- schema ---------------------------------------------------------------------------------
    def ensure(self, dim: int | None) -> None:
        """Create the collection (dense only when ``dim`` is known) and its payload indexes, or check the
        existing one: a sparse ``bm25`` vector with IDF, and a dense one of ``dim`` when ``dim`` is given."""
        from qdrant_client import models

        exists = self.call("checking the collection", self.client.collection_exists, self.name)
        if not exists:
            lay = self.layout
            on_disk = lay.on_disk or None
            max_sim = models.MultiVectorConfig(comparator=models.MultiVectorComparator.MAX_SIM)
            dense = ({DENSE: models.VectorParams(size=dim, distance=models.Distance.COSINE, on_disk=on_disk),
                      WINDOWS: models.VectorParams(size=dim, distance=models.Distance.COSINE, on_disk=on_disk,
                                                   multivector_config=max_sim)}
                     if dim else {})
            sparse = models.SparseVectorParams(modifier=models.Modifier.IDF,
                                               index=models.SparseIndexParams(on_disk=lay.on_disk))
            quant = (models.ScalarQuantization(scalar=models.ScalarQuantizationConfig(
                type=models.ScalarType.INT8, quantile=0.99, always_ram=True)) if lay.quantization == "int8" else None)
            self.call("creating the collection", self.client.create_collection, self.name, vectors_config=dense,
                      sparse_vectors_config={SPARSE: sparse}, shard_number=lay.shards or None,
                      replication_factor=lay.replicas or None, quantization_config=quant)
            with warnings.catch_warnings():  # local mode warns that they have no effect there
                warnings.simplefilter("ignore", UserWarning)
                for key in KEYWORD_INDEXES:
                    self.call("creating payload indexes", self.client.create_payload_index, self.name, key,
                              field_schema=models.PayloadSchemaType.KEYWORD)
        self._check(dim)
        self.ready = True

    def _check(self, dim: int | None) -> None:
        from qdrant_client import models

        info = self.call("reading the collection", self.client.get_collection, self.name)
        params = info.config.params
        sparse = params.sparse_vectors or {}
        vectors = params.vectors if isinstance(params.vectors, dict) else {}
        fix = f"use another qdrant_collection, or delete collection {self.name!r} and run `codesift index --rebuild`"
        if SPARSE not in sparse or sparse[SPARSE].modifier != models.Modifier.IDF:
            raise QdrantUnavailable(f"collection {self.name!r} at {self.url} has no sparse vector {SPARSE!r} with "
                                    f"the IDF modifier (not made by codesift?): {fix}")
        have = vectors[DENSE].size if DENSE in vectors else None
        if dim and have is None:
            raise QdrantUnavailable(f"collection {self.name!r} was created without dense vectors (keyword only), "
                                    f"the embedder now gives {dim}: {fix}")
        if dim and have != dim:
            raise QdrantUnavailable(f"collection {self.name!r} holds dense vectors of dimension {have}, the "
                                    f"embedder gives {dim}: {fix}")
        self.dense_dim = have
        # a collection made before window vectors has none: its chunks are searched by their own vector alone
        self.has_windows = bool(have) and WINDOWS in vectors

    # -- filters --------------------------------------------------------------------------------
    def service_filter(self) -> models.FieldCondition:
        from qdrant_client import models

        return models.FieldCondition(key="service", match=models.MatchValue(value=self.service))

    def to_filter(self, filters: FilterLike | None) -> models.Filter | None:
        """``filters`` as a payload filter (always narrowed to this service); None when no point can pass
        (a path glob that matches no indexed path)."""
        from qdrant_client import models

        must: list[Any] = [self.service_filter()]
        if filters is not None and filters.path:
            cond = self._path_condition(normalise_path_filter(filters.path))
            if cond is None:
                return None
            must.append(cond)
        services = getattr(filters, "services", ()) if filters is not None else ()
        if services:  # ``dirs`` holds every folder prefix of a path: "<service>/" matches exactly its files
            must.append(models.FieldCondition(key="dirs", match=models.MatchAny(any=[s + "/" for s in services])))
        if filters is not None:
            for key, values in (("language", filters.languages), ("kind", filters.kinds)):
                if values:
                    must.append(models.FieldCondition(key=key, match=models.MatchAny(any=list(values))))
        return models.Filter(must=must)

    def _path_condition(self, path: str) -> models.FieldCondition | None:
        """A folder prefix (``src/``) or a whole path matches the ``dirs`` keyword array; any other prefix
        or a glob is matched against the collection's paths (one facet request, paths not ids) and sent
        as the list of paths that pass."""
        from qdrant_client import models

        if not any(c in path for c in "*?[") and (path.endswith("/") or self._is_path(path)):
            return models.FieldCondition(key="dirs", match=models.MatchValue(value=path))
        pattern = re.compile(glob_to_regex(path))
        matched = [p for p in self.paths() if pattern.fullmatch(p)]
        if not matched:
            return None
        return models.FieldCondition(key="path", match=models.MatchAny(any=matched))

    def _is_path(self, path: str) -> bool:
        from qdrant_client import models

        flt = models.Filter(must=[self.service_filter(),
                                  models.FieldCondition(key="path", match=models.MatchValue(value=path))])
        return self.call("counting", self.client.count, self.name, count_filter=flt, exact=True).count > 0

    def paths(self) -> list[str]:
        """Every indexed path of this service (a facet over the ``path`` keyword index)."""
        from qdrant_client import models

        flt = models.Filter(must=[self.service_filter()])
        hits = self.call("listing paths", self.client.facet, self.name, "path", facet_filter=flt,
                         limit=MAX_FACET_PATHS, exact=True)
        return sorted(str(h.value) for h in hits.hits)

    # -- reading --------------------------------------------------------------------------------
    def query_batch(self, requests: Sequence[models.QueryRequest]) -> list[list[models.ScoredPoint]]:
        """Several queries in one round-trip; each answer's points, best first."""
        if not requests:
            return []
        answers = self.call("searching", self.client.query_batch_points, self.name, list(requests))
        return [a.points for a in answers]

    def _chunks_filter(self) -> models.Filter:
        """This service's chunk points (its ``meta`` point left out)."""
        from qdrant_client import models

        return models.Filter(must=[self.service_filter()],
                             must_not=[models.HasIdCondition(has_id=list(self.meta_ids()))])

    def meta_ids(self) -> list[int]:
        """The ids of the meta points of the services read (see :meth:`write_meta`)."""
        return [meta_point_id(self.service)]

    def scroll_payloads(self, fields: Sequence[str] | bool, batch: int = 1024) -> dict[int, dict[str, Any]]:
        """point id → the asked payload fields (``True``: all), for every chunk point of this service."""
        flt = self._chunks_filter()
        out: dict[int, dict[str, Any]] = {}
        offset = None
        with_payload = fields if isinstance(fields, bool) else list(fields)
        while True:
            points, offset = self.call("reading points", self.client.scroll, self.name, scroll_filter=flt,
                                       limit=batch, offset=offset, with_payload=with_payload, with_vectors=False)
            for p in points:
                out[int(p.id)] = dict(p.payload or {})
            if offset is None:
                return out

    def count(self) -> int:
        """This service's chunk points."""
        return self.call("counting", self.client.count, self.name, count_filter=self._chunks_filter(), exact=True).count

    # -- the per-service meta point -------------------------------------------------------------------
    def write_meta(self, payload: dict[str, Any]) -> None:
        """Store what a reader needs besides the chunks (model id and dimension, counts, mean lengths) in
        one vector-less point of this service."""
        from qdrant_client import models

        point = models.PointStruct(id=meta_point_id(self.service), vector={},
                                   payload={**payload, "service": self.service, META_FLAG: True})
        self.call("writing points", self.client.upsert, self.name, points=[point], wait=True)

    def read_meta(self, service: str | None = None) -> dict[str, Any]:
        """The meta point's payload of ``service`` (default: this one); {} when there is none."""
        got = self.call("reading points", self.client.retrieve, self.name, [meta_point_id(service or self.service)],
                        with_payload=True, with_vectors=False)
        return dict(got[0].payload or {}) if got else {}

    def services(self) -> dict[str, int]:
        """service → points, for every service of the collection (a facet over ``service``)."""
        hits = self.call("listing services", self.client.facet, self.name, "service", limit=MAX_FACET_PATHS,
                         exact=True)
        return {str(h.value): int(h.count) for h in hits.hits}

    def dense_of(self, ids: Sequence[int]) -> dict[int, list[float]]:
        """point id → its stored dense vector (unit length: the collection is cosine), where it has one."""
        got = self.call("reading vectors", self.client.retrieve, self.name, list(ids), with_payload=False,
                        with_vectors=[DENSE])
        out: dict[int, list[float]] = {}
        for p in got:
            vec = p.vector.get(DENSE) if isinstance(p.vector, dict) else None
            if vec is not None:
                out[int(p.id)] = list(vec)  # type: ignore[arg-type]
        return out

    # -- writing --------------------------------------------------------------------------------
    def upsert(self, points: list[models.PointStruct]) -> None:
        if points:
            self.call("writing points", self.client.upsert, self.name, points=points, wait=True)

    def delete(self, ids: Sequence[int]) -> None:
        from qdrant_client import models

        for start in range(0, len(ids), 1000):
            self.call("deleting points", self.client.delete, self.name,
                      points_selector=models.PointIdsList(points=list(ids[start : start + 1000])), wait=True)

    def delete_service(self) -> None:
        """Every point of this service (``index --rebuild``)."""
        from qdrant_client import models

        if self.call("checking the collection", self.client.collection_exists, self.name):
            self.call("deleting points", self.client.delete, self.name,
                      points_selector=models.FilterSelector(filter=models.Filter(must=[self.service_filter()])),
                      wait=True)
        from codesift.qdrant.refs import delete_service

        delete_service(self)

