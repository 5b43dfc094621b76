"""Retrieval behind one small protocol: a retriever takes the query, a limit and the ``Filters`` and
returns ranked (chunk id, score) pairs. Fusion and ranking (``codesift.search.run``) take those lists and do
not know where they came from; each retriever turns ``Filters`` into its own query.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

import numpy as np

from codesift.store.keyword import NEAR_WEIGHT, KeywordIndex
from codesift.store.sqlite import MetaStore
from codesift.store.vectors import DenseIndex

if TYPE_CHECKING:  # pragma: no cover
    from codesift.search.run import Filters, SearchParams


class Retriever(Protocol):
    """Ranked (chunk id, score) pairs for ``query``, best first, at most ``limit``, inside ``filters``."""

    def search(self, query: str | np.ndarray, limit: int, filters: Filters) -> list[tuple[int, float]]: ...


@dataclass(slots=True)
class KeywordRetriever:
    """BM25 over the keyword index; the filters become the engine's own query clauses."""

    index: KeywordIndex
    and_first: bool = True
    near: bool = False
    near_weight: float = NEAR_WEIGHT
    prefix: bool = False
    expansion: tuple[tuple[str, float], ...] = ()
    lift: tuple[tuple[str, float], ...] = ()

    @classmethod
    def for_params(cls, index: KeywordIndex, params: SearchParams) -> KeywordRetriever:
        """The keyword retriever as one search's settings configure it."""
        rank = params.rank
        return cls(index, and_first=rank.keyword_and_first, near=rank.keyword_near,
                   near_weight=rank.keyword_near_weight, prefix=rank.keyword_prefix and params.typing,
                   expansion=params.expansion, lift=params.lift)

    def search(self, query: str | np.ndarray, limit: int, filters: Filters) -> list[tuple[int, float]]:
        return self.index.search(str(query), limit, path=filters.path, languages=filters.languages,
                                 kinds=filters.kinds, services=filters.services, and_first=self.and_first,
                                 near=self.near, near_weight=self.near_weight, prefix=self.prefix,
                                 expansion=self.expansion, lift=self.lift)


@dataclass(slots=True)
class VectorRetriever:
    """Cosine over the vector index; the filters become its pre-filter (the chunk ids the store says pass
    them), computed by ``prefilter`` ahead of the query vector when the caller can."""

    index: DenseIndex
    store: MetaStore
    _allowed: tuple[Filters, np.ndarray | None] | None = field(default=None, repr=False)

    def prefilter(self, filters: Filters) -> np.ndarray | None:
        """The chunk ids ``filters`` allow (None: all), kept for the next ``search`` with them."""
        if self._allowed is None or self._allowed[0] is not filters:
            self._allowed = (filters, self.store.filtered_ids(filters) if filters else None)
        return self._allowed[1]

    def search(self, query: str | np.ndarray, limit: int, filters: Filters) -> list[tuple[int, float]]:
        if isinstance(query, str):
            raise TypeError("the vector retriever takes the query's vector, not its text")
        return self.index.search(query, limit, self.prefilter(filters))


@dataclass(slots=True)
class EarlyVectorRetriever:
    """The vector retriever of an unfiltered search, run on the query thread the moment the query's vector is
    ready (:meth:`run`) while the caller's thread still reads the keyword hits' rows; :meth:`search` then
    answers from it. ``retriever`` is set by the caller once the vector index is open: a vector ready before
    that (or a search of another limit or with filters) is searched on the caller's thread as before."""

    limit: int
    retriever: VectorRetriever | None = None
    _hits: list[tuple[int, float]] | None = field(default=None, repr=False)

    def run(self, vector: np.ndarray) -> None:
        """Search for ``vector`` now, when the vector index is already open (on the query thread)."""
        retriever = self.retriever
        if retriever is not None:
            try:
                self._hits = retriever.index.search(vector, self.limit)
            except Exception:  # noqa: BLE001 - searched again, and raised, on the caller's thread
                self._hits = None

    def prefilter(self, filters: Filters) -> np.ndarray | None:
        return self.retriever.prefilter(filters) if self.retriever is not None else None

    def search(self, query: str | np.ndarray, limit: int, filters: Filters) -> list[tuple[int, float]]:
        if self._hits is not None and limit == self.limit and not filters:
            return self._hits
        if self.retriever is None:
            raise RuntimeError("the vector index is not open")
        return self.retriever.search(query, limit, filters)
