"""One search, from the parsed query to the response: notes, the dense side, expansion terms, retrievers, the run.

An :class:`~codesift.api.Index` owns one :class:`SearchEngine`, built over its store, configuration and
dense side, with what lies above this package passed in as callables: the keyword index (repaired first when
a writer died), the declared-constant lookup of the agent tools and, on the Qdrant backend, its retrievers.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from codesift.config.settings import Config
from codesift.embed import EmbeddingUnavailable
from codesift.query.abbrev import abbreviations
from codesift.query.expand import Expander
from codesift.query.parsed import ParsedQuery
from codesift.query.synonyms import synonyms
from codesift.query.translate import translations
from codesift.rank.labels import NOTHING_MATCHES, cap, weak_match
from codesift.rank.learned import RankerUnavailable, load_trees
from codesift.search.coverage import share
from codesift.search.dense import DenseSide
from codesift.search.notes import query_notes
from codesift.search.retrieve import KeywordRetriever, Retriever, VectorRetriever
from codesift.search.run import Filters, SearchParams, SearchResponse, run_search
from codesift.store.keyword import KeywordDamaged, KeywordIndex
from codesift.store.sqlite import MetaStore

Declared = Callable[[ParsedQuery], tuple[str, frozenset[tuple[str, int]]]]
# (params, the query vector's getter or None) -> the two retrievers and notes on what they do not apply
RemoteRetrievers = Callable[[SearchParams, "Callable[[], np.ndarray | None] | None"],
                            tuple[tuple[Retriever, Retriever | None], list[str]]]


@dataclass(slots=True)
class SearchEngine:
    """The read path of one index: :meth:`search` runs a parsed query inside normalised filters."""

    store: MetaStore
    config: Config
    dense: DenseSide
    expander: Expander  # query expansion (off by default)
    keyword: Callable[[], KeywordIndex | None]  # the keyword index, repaired first; None for a Qdrant reader
    chunk_count: Callable[[], int]
    declared: Declared  # the constant an identifier query names, when no definition has its name
    remote: RemoteRetrievers | None = None  # the Qdrant backend's retrievers; None: the embedded store

    def search(self, query: ParsedQuery, filters: Filters, *, limit: int, offset: int, mode: str,
               threshold: float | None, notes: list[str]) -> SearchResponse:
        """Hybrid, keyword or semantic results ``offset`` to ``offset + limit``; degrades to keyword-only and
        says so. ``notes`` (about the filters) open the response's notes.

        A keyword index found damaged is marked for a rebuild from SQLite and the search runs again (the
        keyword index is rebuilt first when this process can take the write lock); while it stays damaged the
        search answers from the vectors alone, or with nothing, and says so."""
        keyword = self.keyword()
        try:
            if keyword is None or keyword.damaged is None:
                return self._search(query, filters, limit=limit, offset=offset, mode=mode, threshold=threshold,
                                    notes=notes, keyword=keyword)
        except KeywordDamaged:
            pass
        if self.store.get_meta("keyword_dirty", "0") == "0":
            self.store.set_meta("keyword_dirty", "1")  # the next writer (or search) rebuilds it from SQLite
            self.store.commit()
        keyword = self.keyword()
        try:
            if keyword is not None and keyword.damaged is None:
                return self._search(query, filters, limit=limit, offset=offset, mode=mode, threshold=threshold,
                                    notes=notes, keyword=keyword)
        except KeywordDamaged:
            pass
        damage = keyword.damaged if keyword is not None else None
        semantic = mode != "keyword" and self.dense.embedder() is not None
        response = SearchResponse(query=query.text, mode=mode)
        if semantic:
            response = self._search(query, filters, limit=limit, offset=offset, mode="semantic", threshold=threshold,
                                    notes=notes, keyword=None)
        response.notes.append(
            f"the keyword index is damaged ({damage}): "
            + ("semantic results only" if semantic else "no keyword results (not a sign that nothing matches)")
            + "; it is rebuilt from SQLite by the next search or `codesift index`")
        return response

    def _search(self, query: ParsedQuery, filters: Filters, *, limit: int, offset: int, mode: str,
                threshold: float | None, notes: list[str], keyword: KeywordIndex | None) -> SearchResponse:
        config = self.config
        response = SearchResponse(query=query.text, mode=mode)
        response.notes.extend(notes)
        holds = keyword.holds if keyword is not None else None  # a reader has no keyword index here
        response.notes.extend(query_notes(self.store, query, holds))
        vectors = pending = early = None
        embedder = self.dense.embedder() if mode != "keyword" else None
        judged = self.dense.coverage(self.chunk_count()) if embedder is not None else None
        # Judged without the files that dominate the chunks (generated bulk, embedded last): search.coverage.
        partial = mode == "hybrid" and judged is not None and judged.judged < config.rank.min_vector_coverage
        if embedder is not None and not partial:
            pending, vectors, early = self.dense.start(embedder, filters, query.text, limit + offset,
                                                       embedded_store=self.remote is None)
        failed: list[EmbeddingUnavailable] = []

        def query_vector() -> np.ndarray | None:
            if pending is None:
                return None
            try:
                return pending.result()
            except EmbeddingUnavailable as exc:  # provider down: the breaker counts it
                failed.append(exc)
                return None

        if mode != "keyword" and embedder is None:
            self.keyword_only(response)
            if mode == "semantic":
                return response
            mode = "keyword"
        elif partial:
            assert judged is not None
            mode = "keyword"
            response.coverage = round(judged.fraction, 4)
            outside = f" outside {judged.bulk_phrase()} (embedded last)" if judged.judged_chunks >= 0 else ""
            response.notes.append(
                f"keyword results: only {share(judged.judged)} of the chunks{outside} are embedded, semantic "
                f"ranking joins at {config.rank.min_vector_coverage:.0%}; run `codesift index` to finish")
        response.mode = mode
        params = self.params(query, filters, limit + offset, mode, threshold, response.notes)
        retrievers: tuple[Retriever, Retriever | None]
        if self.remote is not None:
            retrievers, unsupported = self.remote(params, query_vector if pending is not None else None)
            response.notes.extend(unsupported)
        else:
            vector_retriever = early if early is not None else (
                VectorRetriever(vectors, self.store) if vectors is not None else None)
            # No keyword index (found damaged): the semantic side alone, which never asks the keyword one.
            retrievers = (KeywordRetriever.for_params(keyword, params) if keyword is not None else _NoKeywords(),
                          vector_retriever)
        response.results = run_search(self.store, *retrievers, query_vector, query, params)[offset:]
        response.best_cosine = params.best_cosine
        if keyword is not None:
            response.terms, response.held = keyword.held_terms(query.terms)
        if weak_match(response.terms, response.held, response.best_cosine):
            closest = " and the closest code is only loosely similar" if response.best_cosine is not None else ""
            response.notes.append(f"{NOTHING_MATCHES}: no indexed text holds any of its words{closest}; the "
                                  "results are guesses (WEAK); search in the code's own words or grep_code a name")
            for r in response.results:
                r.label = cap(r.label, "WEAK")
        if failed:
            self.dense.error = failed[0]
            self.keyword_only(response)
            response.mode = "keyword" if mode == "hybrid" else mode
        elif vectors is not None or (pending is not None and self.remote is not None):
            chunks = self.chunk_count()
            if chunks:
                embedded = len(vectors) if vectors is not None else self.dense.embedded_count()
                response.coverage = round(min(1.0, embedded / chunks), 4)
            bulk = judged.bulk_pending() if judged is not None else []
            if bulk and judged is not None:
                response.notes.append(
                    f"{share(response.coverage)} of chunks embedded: {sum(n - e for _, n, e in bulk):,} of the "
                    f"{judged.chunks - judged.embedded:,} missing are in {', '.join(p for p, _, _ in bulk)}, embedded "
                    "last (the vector side does not see them yet; keywords do); run `codesift index` to finish")
            elif response.coverage < 1.0:
                response.notes.append(f"{share(response.coverage)} of chunks embedded; run `codesift index` to finish")
        return response

    def params(self, query: ParsedQuery, filters: Filters, limit: int, mode: str, threshold: float | None,
               notes: list[str]) -> SearchParams:
        """The run's settings: fusion, ranking, the learned re-ranker, the declared constant and the keyword
        side's extra terms (expansion, abbreviations, synonyms, translations)."""
        config, rank = self.config, self.config.rank
        params = SearchParams(
            limit=limit, mode=mode, filters=filters, rrf_k=config.rrf_k,
            overfetch=config.overfetch, keyword_weight=config.keyword_weight,
            vector_weight=config.vector_weight, rank=rank,
            threshold=config.threshold if threshold is None else threshold, typing=query.typing,
        )
        if rank.learned_rerank:
            try:
                params.reranker = load_trees()
            except RankerUnavailable as exc:  # a broken install: the pipeline's own order, and say so
                notes.append(str(exc))
        if mode != "semantic" and rank.name_match:
            params.declared_name, params.declared = self.declared(query)
        params.expansion, expansion_notes = self.expander.expand(query.text, mode)
        if rank.abbreviation_weight > 0 and mode != "semantic":
            params.expansion += tuple((t, rank.abbreviation_weight) for t in abbreviations(query.text))
        if rank.synonym_weight > 0 and mode != "semantic":
            params.expansion += tuple((t, rank.synonym_weight) for t in synonyms(query.text))
        if rank.translation_weight > 0 and mode != "semantic":
            params.lift = tuple((t, rank.translation_weight) for t in translations(query.text))
        notes.extend(expansion_notes)
        return params

    def keyword_only(self, response: SearchResponse) -> None:
        """Mark ``response`` keyword-only and say why the semantic side is unavailable."""
        response.embedding_status = "keyword_only"
        reason = self.dense.error.reason if self.dense.error else "unavailable"
        response.notes.append(f"semantic search unavailable ({reason}): keyword results only")


class _NoKeywords:
    """The keyword retriever when the keyword index cannot be read: no hits."""

    def search(self, query: str | np.ndarray, limit: int, filters: Filters) -> list[tuple[int, float]]:
        return []
