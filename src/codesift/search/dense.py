"""The dense side of an index: the embedding provider (loaded once, retried, adopting a changed model),
the query's vector and the vector index of the current generation.

An :class:`~codesift.api.Index` owns one :class:`DenseSide` (``Index.dense``), built over its root, folder,
config and store; the search engine and the index's update read the same one.
"""

from __future__ import annotations

import logging
import time
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import nullcontext
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from codesift.config.settings import Config
from codesift.embed import EmbeddingUnavailable, configured_model_id, load_embedder
from codesift.embed.base import Embedder
from codesift.text.model_input import query_embed_text
from codesift.search.coverage import Coverage, judge
from codesift.search.retrieve import EarlyVectorRetriever, VectorRetriever
from codesift.search.run import candidate_pool
from codesift.store.lock import IndexBusy, WriteLock
from codesift.store.sqlite import MetaStore
from codesift.store.vectors import DenseIndex, VectorIndex, WindowedVectors

if TYPE_CHECKING:  # pragma: no cover
    from collections.abc import Callable

    from codesift.qdrant.reader import RemoteIndex
    from codesift.search.run import Filters

log = logging.getLogger(__name__)

EMBED_RETRY_S = 30.0


class DenseSide:
    """Embedder, model adoption, query vectors and the vector snapshot of one index."""

    def __init__(self, root: Path, folder: Path, config: Config, store: MetaStore,
                 remote: RemoteIndex | None = None) -> None:
        self.root, self.folder, self.config, self.store = root, folder, config, store
        self.remote = remote  # reader mode (codesift.qdrant.reader): the collection's vectors
        self.error: EmbeddingUnavailable | None = None  # why the provider is unavailable, when it is
        self.failed_at = 0.0  # when it last failed (monotonic), retried after EMBED_RETRY_S
        self.writing = False  # this process holds the index's write lock (inside ``Index.update``)
        self._embedder: Embedder | None = None
        self._vectors: DenseIndex | None = None
        self._vectors_gen = -1
        self._main_language: tuple[str | None, str | None] = (None, "")
        self._query_pool: ThreadPoolExecutor | None = None
        self._embedded: tuple[int, int] = (-1, 0)
        self._judged: tuple[int, Coverage | None] = (-1, None)
        self._preamble_vectors: dict[str, np.ndarray] = {}

    def close(self) -> None:
        """Stop the query thread (waiting for a query it is embedding)."""
        if self._query_pool is not None:
            self._query_pool.shutdown(wait=True)
            self._query_pool = None

    def unavailable(self, exc: EmbeddingUnavailable) -> None:
        """Record that the provider failed now: searches say why, and it is tried again later."""
        self.error, self.failed_at = exc, time.monotonic()

    def embedder(self) -> Embedder | None:
        """The embedding provider, loaded once; None (with the reason kept) when unavailable.

        A provider that could not be loaded is tried again after ``EMBED_RETRY_S`` seconds, so a
        long-running server picks up an embedding server that came back.
        """
        if self._embedder is None:
            if self.error is not None and time.monotonic() - self.failed_at < EMBED_RETRY_S:
                return None
            try:
                embedder = load_embedder(self.config.embedder, self.config.env)
            except EmbeddingUnavailable as exc:
                self.unavailable(exc)
                return None
            try:
                self._adopt_model(embedder)
            except EmbeddingUnavailable as exc:
                self.unavailable(exc)
                return None
            self._embedder, self.error = embedder, None
        return self._embedder

    def model_changed(self) -> bool:
        """Whether the configured model is not the one that made the stored vectors (no model is loaded)."""
        if self._embedder is not None:
            return False
        stored = self.store.get_meta("model_id")
        wanted = configured_model_id(self.config.embedder, self.config.env)
        return stored is not None and wanted is not None and wanted != stored

    def _adopt_model(self, embedder: Embedder) -> None:
        """Record the model on a new index. When another model (or dimension) made the stored vectors —
        an upgrade of the default model, or ``CODESIFT_EMBED_MODEL`` changed — drop them, so that the
        tree is re-embedded by the next ``index`` (or the server's background embedding); searches run on
        keywords until enough is embedded, and say so. The machine-wide vector cache keeps the old
        vectors under their model's id: switching back costs no re-embedding.

        Raises EmbeddingUnavailable while another process writes the index (it cannot be reset now)."""
        if self.remote is not None:  # a reader embeds queries only, with the model that made the vectors
            self.remote.check_model(embedder)
            return
        stored = self.store.get_meta("model_id")
        dim = self.store.get_meta("model_dim")
        if stored == embedder.model_id and int(dim or 0) == embedder.dim:
            return
        if stored is None:
            self.store.set_meta("model_id", embedder.model_id)
            self.store.set_meta("model_dim", embedder.dim)
            self.store.commit()
            return
        try:
            with nullcontext() if self.writing else WriteLock(self.folder, 0):
                self.store.reset_vectors(embedder.model_id, embedder.dim)
        except (IndexBusy, OSError) as exc:
            raise EmbeddingUnavailable(
                f"the index's vectors were made by {stored}, the configured model is {embedder.model_id}, "
                f"and the index cannot be reset now ({exc})",
                f"run `codesift index {self.root}` to re-embed with {embedder.model_id}") from exc
        self._vectors = None
        log.info("embedding model changed from %s to %s: vectors dropped, the tree is re-embedded",
                 stored, embedder.model_id)

    def query_preamble(self, filters: Filters) -> str:
        """The start of the text the dense model reads for a query, shaped like a document's preamble
        ("python function …", see ``text.model_input.embed_text``): the filtered language, else the tree's main
        code language (docs/design-decisions.md#query-preamble)."""
        if not self.config.rank.query_preamble:
            return ""
        if len(filters.languages) == 1:
            return f"{filters.languages[0]} function: "
        gen = self.store.get_meta("generation", "0")
        if self._main_language[0] != gen:
            self._main_language = (gen, self.store.main_language())
        lang = self._main_language[1]
        return f"{lang} function: " if lang else "function: "

    def _query_thread(self) -> ThreadPoolExecutor:
        if self._query_pool is None:
            self._query_pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="codesift-query")
        return self._query_pool

    def start(self, embedder: Embedder, filters: Filters, query: str, limit: int, *,
                     embedded_store: bool) -> tuple[Future[np.ndarray], DenseIndex | None, EarlyVectorRetriever | None]:
        """Embed the query on the query thread; returns its future, the vector index (the embedded store's) and,
        for an unfiltered search of the embedded store, the vector retriever that searches on that thread too.

        The query is embedded on another core while this thread opens the vector index and runs the keyword
        retriever (onnxruntime releases the GIL): ~8 ms off a ~24 ms hybrid query. The vector search then
        runs there as well while this thread reads the keyword hits' rows (100k symbols: p50 ×0.95)."""
        early = None
        if embedded_store and not filters:
            early = EarlyVectorRetriever(candidate_pool(limit, self.config.overfetch))
        pending = self._query_thread().submit(self._query_vector, embedder, self.query_preamble(filters), query,
                                              early.run if early is not None else None)
        if not embedded_store:
            return pending, None, None
        vectors = self.vector_index(embedder)
        if early is not None:  # from here on its vector search can run on the query thread
            early.retriever = VectorRetriever(vectors, self.store)
        return pending, vectors, early

    def _query_vector(self, embedder: Embedder, preamble: str, query: str,
                      then: Callable[[np.ndarray], None] | None = None) -> np.ndarray:
        """The query's vector; with ``preamble_debias`` λ, minus λ × the preamble's own vector, so that
        chunks whose embedding is mostly their preamble (short ones) stop matching every query:
        ``(q − λp)·d = cos(q, d) − λ·cos(p, d)``. ``then`` is called with it before it is returned (the
        vector search of :class:`~codesift.search.retrieve.EarlyVectorRetriever`, on the same thread)."""
        vec = embedder.embed_query(query_embed_text(preamble, query))
        debias = self.config.rank.preamble_debias
        if debias > 0 and preamble:
            if preamble not in self._preamble_vectors:
                self._preamble_vectors[preamble] = embedder.embed_query(preamble.strip())
            vec = vec - debias * self._preamble_vectors[preamble]
            vec = vec / (float(np.linalg.norm(vec)) or 1.0)
        if then is not None:
            then(vec)
        return vec

    def vector_index(self, embedder: Embedder) -> DenseIndex:
        gen = int(self.store.get_meta("generation", "0") or 0)
        if self._vectors is None or gen != self._vectors_gen:
            vectors = VectorIndex(self.folder / "dense", embedder.dim, embedder.model_id)
            vectors.load(gen, self.store.embedded_chunk_ids, lambda ids: self.store.vectors_for(ids, embedder.dim))
            windows = self._window_index(embedder, gen)
            self._vectors = vectors if windows is None else WindowedVectors(
                vectors, windows, self.store.window_owners(windows.ids), self.config.rank.window_margin)
            self._vectors_gen = gen
        return self._vectors

    def _window_index(self, embedder: Embedder, gen: int) -> VectorIndex | None:
        """The long chunks' window vectors (store/windows.py), once ``min_vector_coverage`` of them are embedded:
        a chunk with its windows beside one without would win on having more vectors, not on its code."""
        if not (self.config.embed_windows and self.config.rank.window_vectors):
            return None
        total, embedded = self.store.window_counts()
        if not total or embedded < self.config.rank.min_vector_coverage * total:
            return None
        windows = VectorIndex(self.folder / "dense-windows", embedder.dim, embedder.model_id)
        windows.load(gen, self.store.embedded_window_ids, lambda ids: self.store.window_vectors_for(ids, embedder.dim))
        return windows

    def current_vectors(self) -> DenseIndex | None:
        """The vector index of the current generation; None when no embedder is available."""
        if self.remote is not None:  # a reader: the collection's vectors (no model needed to compare them)
            return self.remote.vectors()  # type: ignore[return-value]
        embedder = self.embedder()
        return None if embedder is None else self.vector_index(embedder)

    def embedded_count(self) -> int:
        """Chunks with a vector: the vector snapshot's size when it is current, else counted (cached)."""
        if self.remote is not None:
            return self.remote.dense
        gen = int(self.store.get_meta("generation", "0") or 0)
        if self._vectors is not None and self._vectors_gen == gen:
            return len(self._vectors)
        if self._embedded[0] != gen:
            self._embedded = (gen, self.store.count_embedded())
        return self._embedded[1]

    def coverage(self, chunks: int) -> Coverage:
        """How much of the index's ``chunks`` is embedded, judged without the files that dominate the chunks
        (``search.coverage.judge``); counted per file only while something is missing (cached per generation)."""
        embedded = min(self.embedded_count(), chunks)
        if self.remote is not None or embedded >= chunks:
            return Coverage(chunks, embedded)
        gen = int(self.store.get_meta("generation", "0") or 0)
        cached = self._judged[1]
        if self._judged[0] != gen or cached is None:
            cached = judge(self.store.chunks_per_file())
            self._judged = (gen, cached)
        return cached
