"""The Qdrant backend seen from ``Index``: open it, keep it in sync, and search it through the same
``Retriever`` protocol as the embedded indexes (``codesift.search.retrieve``).

Search sends the keyword side (BM25 as a sparse query; with ``keyword_and_first`` a second one whose
filter requires every query term, as the tantivy index does) and the dense side in one
``query_batch_points`` round-trip, each filtered by the search's ``Filters`` turned into a payload
filter. The two lists come back separately and go through codesift's own weighted RRF and ranking
stages (``codesift.search.run``), unchanged: Qdrant's server-side ``Fusion.RRF`` is not used, because the
weights depend on the query's shape and the ranking needs each list's ranks and the dense cosines.

Scores are compared at ``SCORE_DIGITS`` significant digits and ties broken by chunk id, as the embedded
retrievers break theirs: the engines add floating-point numbers in different orders.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from codesift.qdrant.bm25 import query_vector as sparse_query
from codesift.store.keyword import FIELD_BOOSTS, extra_terms
from codesift.qdrant.collection import DENSE, SPARSE, WINDOWS, Layout, QdrantCollection, connect
from codesift.qdrant.refs import REFS_VERSION, sync as sync_refs
from codesift.qdrant.sync import PAYLOAD_VERSION, SyncStats, sync
from codesift.store.vectors import WindowedVectors, best_of_vectors
from codesift.text.tokens import tokenize

if TYPE_CHECKING:  # pragma: no cover
    from qdrant_client import models

    from codesift.config.settings import Config
    from codesift.search.run import Filters, SearchParams
    from codesift.store.sqlite import MetaStore

SCORE_DIGITS = 6
SYNCED_KEY = "qdrant_synced"  # meta: "<url>|<collection>|<service>|<generation>" of the last complete sync


def open_backend(config: Config, root: Path) -> QdrantCollection | None:
    """The configured Qdrant collection (checked reachable), or None for the embedded backend.

    Raises QdrantMissing (no qdrant-client) or QdrantUnavailable before anything is written."""
    if config.backend != "qdrant" or not config.qdrant_url:
        return None
    client = connect(config.qdrant_url, config.qdrant_api_key)
    layout = Layout(config.qdrant_shards, config.qdrant_replicas, config.qdrant_on_disk, config.qdrant_quantization)
    return QdrantCollection(client, config.qdrant_url, config.qdrant_collection, config.qdrant_service or root.name,
                            layout)


def _sync_tag(coll: QdrantCollection, store: MetaStore) -> str:
    # The references' version: a writer synced before they were stored syncs again (they are written, the
    # chunk diff finds nothing to do).
    return f"{coll.url}|{coll.name}|{coll.service}|{store.get_meta('generation', '0')}|refs{REFS_VERSION}"


def _dim(store: MetaStore) -> int | None:
    return int(store.get_meta("model_dim") or 0) or None


def sync_backend(coll: QdrantCollection, store: MetaStore, embedder: Callable[[], Any]) -> SyncStats | None:
    """Write the store's changes since the last complete sync to the collection; None when there were
    none. The sync is recorded only once it finished, so an interrupted one is redone (no duplicates:
    point ids are deterministic). ``embedder()`` (None when unavailable) is asked for the dense
    dimension when the store has not recorded one yet."""
    # ":memory:" starts empty in every process: its collection is always filled again.
    if coll.url != ":memory:" and store.get_meta(SYNCED_KEY) == _sync_tag(coll, store):
        return None
    dim = _dim(store)
    if dim is None and (model := embedder()) is not None:
        dim = model.dim
    coll.ensure(dim)
    stats = sync(coll, store, dim)
    stats.refs = sync_refs(coll, store)
    counts = store.counts(embedded=0)
    dense = bool(dim) and coll.dense_dim == dim
    coll.write_meta({"model_id": store.get_meta("model_id") if dense else None, "model_dim": dim if dense else None,
                     "avgdl": stats.avgdl, "files": counts["files"], "chunks": counts["chunks"],
                     "symbols": counts["symbols"], "payload_version": PAYLOAD_VERSION, "synced_at": time.time(),
                     "references": True})  # its files' references are in <collection>_refs
    store.set_meta(SYNCED_KEY, _sync_tag(coll, store))
    store.commit()
    return stats


def _score_key(score: float) -> float:
    return float(f"{score:.{SCORE_DIGITS}g}")


def _must(flt: models.Filter) -> list[models.Condition]:
    """The conditions ``flt`` requires, as a list (Qdrant also takes one condition, or none)."""
    must = flt.must
    return [] if must is None else list(must) if isinstance(must, list) else [must]


def _ranked(points: list[Any], score: Callable[[Any], float],
            ids: dict[int, int] | None = None) -> list[tuple[int, float]]:
    """(chunk id, score) of the points, best first, ties by chunk id; ``ids`` (a reader's point id → its
    own chunk id) replaces the payload's chunk id."""
    if ids is not None:
        hits = [(ids[int(p.id)], score(p)) for p in points if int(p.id) in ids]
    else:
        hits = [(int(p.payload["chunk_id"]), score(p)) for p in points if p.payload and "chunk_id" in p.payload]
    hits.sort(key=lambda h: (-_score_key(h[1]), h[0]))
    return hits


@dataclass(slots=True)
class QdrantSearch:
    """One search's requests to the collection. The keyword retriever sends the dense request with its
    own (one round-trip) when ``query_vector`` gives the vector; the vector retriever then answers from
    that reply."""

    coll: QdrantCollection
    and_first: bool = True
    expansion: tuple[tuple[str, float], ...] = ()
    lift: tuple[tuple[str, float], ...] = ()  # terms that score only what the others matched
    query_vector: Callable[[], np.ndarray | None] | None = None
    window_margin: float | None = None  # search the long chunks' window vectors too, less this (None: not)
    _dense: dict[tuple[bytes, int, int], list[tuple[int, float]]] = field(default_factory=dict)

    def keyword(self, query: str, limit: int, filters: Filters) -> list[tuple[int, float]]:
        from qdrant_client import models

        flt = self.coll.to_filter(filters)
        terms = list(dict.fromkeys(tokenize(query)))
        requests, and_request = [], False
        if flt is not None and terms:
            known = set(terms)
            weighted = [(t, 1.0) for t in terms] + extra_terms(self.expansion, known)
            matching = [t for t, _ in weighted]  # a lift term alone does not make a match
            weighted += extra_terms(self.lift, known)
            indices, values = sparse_query(weighted, FIELD_BOOSTS)
            vector = models.SparseVector(indices=indices, values=values)
            if self.and_first and len(terms) > 1:
                every = [models.FieldCondition(key="terms", match=models.MatchValue(value=t)) for t in terms]
                requests.append(self._request(vector, SPARSE, models.Filter(must=[*_must(flt), *every]), limit))
                and_request = True
            any_term = flt
            if len(matching) < len(weighted):
                some = models.FieldCondition(key="terms", match=models.MatchAny(any=matching))
                any_term = models.Filter(must=[*_must(flt), some])
            requests.append(self._request(vector, SPARSE, any_term, limit))
        dense_key = None
        vec = self.query_vector() if self.query_vector is not None and self.coll.dense_dim else None
        if vec is not None:
            dense_key = self._key(vec, limit, filters)
            if flt is not None:
                requests += self._dense_requests(vec, flt, limit)
        answers = self.coll.query_batch(requests)
        ids = self.coll.local_ids
        if dense_key is not None and vec is not None:  # the key is made from the vector
            self._dense[dense_key] = (self._dense_hits(self._pop_dense(answers), vec, ids, limit)
                                      if flt is not None else [])
        if not answers:
            return []
        out = _ranked(answers[0], lambda p: p.score, ids) if and_request else []
        seen = {cid for cid, _ in out}
        out += [h for h in _ranked(answers[-1], lambda p: p.score, ids) if h[0] not in seen]
        return out[:limit]

    def dense(self, vec: np.ndarray, limit: int, filters: Filters) -> list[tuple[int, float]]:
        key = self._key(vec, limit, filters)
        if key in self._dense:
            return self._dense[key]
        flt = self.coll.to_filter(filters)
        if flt is None or not self.coll.dense_dim:
            return []
        answers = self.coll.query_batch(self._dense_requests(vec, flt, limit))
        return self._dense_hits(self._pop_dense(answers), vec, self.coll.local_ids, limit)

    @staticmethod
    def _key(vec: np.ndarray, limit: int, filters: Filters) -> tuple[bytes, int, int]:
        return (np.asarray(vec, dtype=np.float32).tobytes(), limit, id(filters))

    @staticmethod
    def _request(query: Any, using: str, flt: Any, limit: int) -> Any:
        from qdrant_client import models

        return models.QueryRequest(query=query, using=using, filter=flt, limit=limit, with_payload=["chunk_id"])

    def _windowed(self) -> bool:
        return self.window_margin is not None and self.coll.has_windows

    def _dense_requests(self, vec: np.ndarray, flt: Any, limit: int) -> list[Any]:
        """The dense request and, where the collection has them, the window vectors' (MAX_SIM over a point's
        windows: its best window's cosine), fetched as deep as the embedded store fetches its windows."""
        from qdrant_client import models

        query = np.asarray(vec, dtype=np.float32).tolist()
        out = [models.QueryRequest(query=query, using=DENSE, filter=flt, limit=limit,
                                   with_payload=["chunk_id", "dense_norm"])]
        if self._windowed():
            out.append(models.QueryRequest(query=[query], using=WINDOWS, filter=flt,
                                           limit=WindowedVectors.WINDOW_FETCH * limit, with_payload=["chunk_id"]))
        return out

    def _pop_dense(self, answers: list[list[Any]]) -> tuple[list[Any], list[Any]]:
        """The dense and window answers, taken off the end of a batch's answers."""
        windows = answers.pop() if self._windowed() else []
        return answers.pop(), windows

    def _dense_hits(self, answer: tuple[list[Any], list[Any]], vec: np.ndarray, ids: dict[int, int] | None,
                    limit: int) -> list[tuple[int, float]]:
        """Cosines times the stored vector's norm (and the query's): the embedded backend's dot product; with
        window vectors, each chunk's best of its own and (less the margin) its windows'
        (store.vectors.best_of_vectors)."""
        points, windows = answer
        qnorm = float(np.linalg.norm(np.asarray(vec, dtype=np.float32)))
        own = _ranked(points, lambda p: p.score * float(p.payload.get("dense_norm", 1.0)) * qnorm, ids)
        if not self._windowed():
            return own
        best_window = _ranked(windows, lambda p: p.score * qnorm, ids)
        return best_of_vectors(own, best_window, self.window_margin or 0.0, limit)


@dataclass(slots=True)
class QdrantKeywordRetriever:
    """BM25 over the collection's sparse vectors (``Retriever`` protocol)."""

    search_: QdrantSearch

    def search(self, query: str | np.ndarray, limit: int, filters: Filters) -> list[tuple[int, float]]:
        return self.search_.keyword(str(query), limit, filters)


@dataclass(slots=True)
class QdrantVectorRetriever:
    """Cosine over the collection's dense vectors (``Retriever`` protocol)."""

    search_: QdrantSearch

    def search(self, query: str | np.ndarray, limit: int, filters: Filters) -> list[tuple[int, float]]:
        if isinstance(query, str):
            raise TypeError("the vector retriever takes the query's vector, not its text")
        return self.search_.dense(query, limit, filters)


def retrievers(coll: QdrantCollection, store: MetaStore, params: SearchParams,
               query_vector: Callable[[], Any] | None) -> tuple[QdrantKeywordRetriever, QdrantVectorRetriever | None]:
    """The two retrievers of one search; the vector side only with a ``query_vector`` and a collection
    that holds dense vectors."""
    if not coll.ready:
        coll.ensure(_dim(store))
    dense = query_vector is not None and bool(coll.dense_dim)
    rank = params.rank
    shared = QdrantSearch(coll, and_first=rank.keyword_and_first, expansion=params.expansion, lift=params.lift,
                          query_vector=query_vector if dense and params.mode == "hybrid" else None,
                          window_margin=rank.window_margin if rank.window_vectors else None)
    return QdrantKeywordRetriever(shared), (QdrantVectorRetriever(shared) if dense else None)


def unsupported_notes(params: SearchParams) -> list[str]:
    """Notes for keyword-query settings the Qdrant backend does not apply."""
    rank = params.rank
    off = [name for name, on in (("keyword_near", rank.keyword_near),
                                 ("keyword_prefix", rank.keyword_prefix and params.typing)) if on]
    return [f"{', '.join(off)} not applied: the qdrant backend does not support it yet"] if off else []
