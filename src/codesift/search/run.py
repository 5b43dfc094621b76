"""Retrieve from both indexes, fuse with weighted RRF, and shape results.

Filters (path prefix/glob, language, kind) are applied inside each retriever, before fusion, so a
filtered search still gets a full candidate list from each side.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING
import numpy as np

from codesift.datatypes import NOT_DEFINITIONS
from codesift.languages import is_test_path
from codesift.search.fusion import ranked, rrf
from codesift.rank import Candidate, RankSettings, rank
from codesift.rank.boosts import is_prose, query_wants_tests
from codesift.rank.deprecation import deprecation_note
from codesift.rank.diversity import FUNCTION_KINDS, MAX_MERGED_SPAN
from codesift.rank.labels import cap, label
from codesift.rank.learned import DEPTH, RerankRow, Trees, rerank
from codesift.rank.pipeline import restructure
from codesift.query.parsed import ParsedQuery
from codesift.query.shape import DEFAULT_WEIGHTS, QueryShape, bare_name, looks_like_identifier
from codesift.store.names import NAMESPACED_LANGUAGES
from codesift.store.records import ChunkRecord
from codesift.store.sqlite import MetaStore
from codesift.text.doc_comments import description

if TYPE_CHECKING:  # pragma: no cover
    from codesift.search.retrieve import Retriever

MODES: tuple[str, ...] = ("hybrid", "keyword", "semantic")
SNIPPET_LINES = 6
SNIPPET_CHARS = 400


@dataclass(slots=True)
class Filters:
    """Restrictions applied inside both retrievers."""

    path: str | None = None
    languages: tuple[str, ...] = ()
    kinds: tuple[str, ...] = ()
    services: tuple[str, ...] = ()  # top-level folders (a configured service is stored under <name>/)

    def __bool__(self) -> bool:
        return bool(self.path or self.languages or self.kinds or self.services)

@dataclass(slots=True)
class SearchResult:
    """One ranked hit. ``path`` is relative to the indexed root; lines are 1-based inclusive.

    ``start_line``-``end_line`` is the passage the result returns: its definition, widened over the
    definitions beside it when ranking merged them into one passage (``nearby``); this is the range
    ``search --json`` gives and the public benchmark scores. ``definition_start_line``-``definition_end_line``
    is the result's own definition (``qualified_name``'s lines), the location shown to a person or an agent
    (the terminal, the page, MCP ``Location:``); the two are equal when nothing was merged."""

    path: str
    start_line: int
    end_line: int
    score: float
    name: str
    qualified_name: str
    kind: str
    language: str
    snippet: str
    # The line the snippet's first line is on: the definition's (decorators above it skipped), or the line
    # setting the constant the query names.
    snippet_line: int = 0
    # The lines of the result's own definition, inside the passage start_line-end_line (``nearby`` merged).
    definition_start_line: int = 0
    definition_end_line: int = 0
    signature: str = ""
    # The definition's doc in one line, where the snippet does not show it: a comment above the code
    # (Go, Java, Rust, JavaScript), or a docstring below the snippet's first lines.
    doc: str = ""
    chunk_id: int = 0
    keyword_rank: int | None = None
    vector_rank: int | None = None
    score_kind: str = "rrf"
    label: str = ""
    decorators: list[str] = field(default_factory=list)
    route: str | None = None
    nearby: list[str] = field(default_factory=list)  # adjacent symbols merged into this passage
    # For a name defined more than once, on the implementation: the others ("path:line kind name").
    also_defined: list[str] = field(default_factory=list)
    # Marked deprecated: what its note says (what to use instead), "" when it says nothing; None: not marked.
    deprecated: str | None = None
    explain: dict[str, object] = field(default_factory=dict)

    def to_dict(self) -> dict[str, object]:
        """JSON-ready fields (``asdict`` deep-copies recursively: ~10× slower on a page of results)."""
        out: dict[str, object] = {name: getattr(self, name) for name in self.__slots__}
        out["decorators"] = list(self.decorators)
        out["nearby"] = list(self.nearby)
        out["also_defined"] = list(self.also_defined)
        out["explain"] = dict(self.explain)
        return out


    @property
    def title(self) -> str:
        """The main symbol, with how many adjacent ones its passage also covers (``X +2 nearby``)."""
        return f"{self.qualified_name} +{len(self.nearby)} nearby" if self.nearby else self.qualified_name


@dataclass(slots=True)
class SearchResponse:
    """Results plus how they were produced (mode actually used, embedding coverage, notes)."""

    query: str
    mode: str
    results: list[SearchResult] = field(default_factory=list)
    embedding_status: str = "ok"  # ok | keyword_only
    coverage: float = 1.0  # share of chunks with a vector
    notes: list[str] = field(default_factory=list)
    # What says whether anything matches the query well (search.notes.weak_match): the query's index terms,
    # how many of them some indexed text holds, and the raw cosine of the nearest chunk (None: no vector side).
    terms: int = 0
    held: int = 0
    best_cosine: float | None = None


DOC_CHARS = 200


def doc_line(docstring: str, snippet: str) -> str:
    """The first paragraph of the doc's description (block tags left out) on one line (its first sentence when
    longer than ``DOC_CHARS``), or nothing when the snippet already shows it."""
    first = " ".join(description(docstring or "").split("\n\n", 1)[0].split())
    if not first or first[:60] in " ".join(snippet.split()):
        return ""
    if len(first) > DOC_CHARS:
        end = first.find(". ", 0, DOC_CHARS)
        first = first[: end + 1] if end > 0 else first[: DOC_CHARS - 1].rstrip() + "…"
    return first


def snippet_of(text: str, start_line: int, chunk_start: int) -> tuple[str, int]:
    """A few lines from the definition line on (decorators above it are skipped), and the line number of
    the first of them."""
    lines = text.splitlines()
    offset = 0
    # chunk text may begin with decorators above the def line: start the snippet at the def line
    if len(lines) > 1 and chunk_start < start_line:
        offset = min(start_line - chunk_start, len(lines) - 1)
    out = "\n".join(lines[offset : offset + SNIPPET_LINES])
    return out[:SNIPPET_CHARS], chunk_start + offset


def fuse(
    keyword_hits: list[tuple[int, float]],
    vector_hits: list[tuple[int, float]],
    *,
    k: float,
    keyword_weight: float,
    vector_weight: float,
) -> tuple[list[tuple[int, float]], float]:
    """Weighted RRF of the two lists; returns (ranked pairs, the best score any document could get)."""
    lists, weights = [], []
    if keyword_hits:
        lists.append([i for i, _ in keyword_hits])
        weights.append(keyword_weight)
    if vector_hits:
        lists.append([i for i, _ in vector_hits])
        weights.append(vector_weight)
    if not lists:
        return [], 1.0
    best = sum(w / (k + 1) for w in weights)
    return ranked(rrf(lists, weights, k)), best


@dataclass(slots=True)
class SearchParams:
    """Everything :func:`run_search` needs besides the stores and the query."""

    limit: int
    mode: str
    filters: Filters
    rrf_k: float = 60.0
    overfetch: float = 2.0
    keyword_weight: float = 1.0
    vector_weight: float = 1.0
    rank: RankSettings = field(default_factory=RankSettings)
    threshold: float = 0.0
    expansion: tuple[tuple[str, float], ...] = ()  # (text, weight) added to the keyword query (codesift.query.expand)
    lift: tuple[tuple[str, float], ...] = ()  # (text, weight) scoring only what the keyword query matched
    typing: bool = True  # the query did not end with whitespace: its last word may be unfinished
    declared: frozenset[tuple[str, int]] = frozenset()  # (path, line) setting the constant the query names
    declared_name: str = ""  # that constant's name
    reranker: Trees | None = None  # the learned re-ranker (rank.learned), None: the pipeline's order stands
    best_cosine: float | None = None  # set by run_search: the raw cosine of the nearest chunk (None: no vector side)


POOL_BASE = 50  # the pool is sized for this many results whatever the limit below it


def candidate_pool(limit: int, overfetch: float) -> int:
    """Candidates each retriever returns: ``overfetch × max(limit, POOL_BASE)``.

    The pool does not shrink with the limit, so the ranking does not depend on how many results are
    shown: for any limit up to ``POOL_BASE`` the results are the first ``limit`` of the same list.
    """
    return max(limit, math.ceil(overfetch * max(limit, POOL_BASE)))


SHORT_LINES = 10


def penalise_short(hits: list[tuple[int, float]], rows: dict[int, ChunkRecord], penalty: float,
                   prose: float = 0.0) -> list[tuple[int, float]]:
    """Vector hits re-sorted after taking up to ``penalty`` off the cosine of short chunks (a one-line
    chunk loses all of it, a chunk of ``SHORT_LINES`` lines or more nothing): a short chunk's embedding
    is mostly its preamble, which resembles every query's preamble. Documentation chunks lose ``prose``."""
    out = []
    for cid, cos in hits:
        row = rows.get(cid)
        span = row.end_line - row.start_line + 1 if row is not None else SHORT_LINES
        cos -= penalty * max(0.0, (SHORT_LINES - span) / (SHORT_LINES - 1))
        if prose and row is not None and is_prose(row.kind, row.language):
            cos -= prose
        out.append((cid, cos))
    out.sort(key=lambda h: (-h[1], h[0]))
    return out


def shape_weights(query: ParsedQuery, params: SearchParams) -> tuple[QueryShape, float, float]:
    """The query's shape and the keyword/vector weights for it (config weights scale them)."""
    shape = query.shape
    kw, vec = DEFAULT_WEIGHTS[shape] if params.rank.adaptive_weights else (1.0, 1.0)
    return shape, kw * params.keyword_weight, vec * params.vector_weight


def learned_order(cands: list[Candidate], rows: dict[int, ChunkRecord], best: float, query: ParsedQuery,
                  trees: Trees) -> list[Candidate]:
    """The first :data:`~codesift.rank.learned.DEPTH` distinct candidates reordered by the learned re-ranker,
    the rest after them as they were."""
    head: list[Candidate] = []
    seen: set[tuple[str, int, int]] = set()
    for c in cands:
        key = (c.path, c.start_line, c.end_line)
        if key not in seen:
            seen.add(key)
            head.append(c)
            if len(head) == DEPTH:
                break
    stored = [rows[c.chunk_id] for c in head]
    inputs = [RerankRow(min(1.0, c.score / best) if best > 0 else 0.0, c.keyword_rank, c.vector_rank,
                        c.explain.get("cosine"), c.kind, row.qualified_name, row.text, row.docstring or "")
              for c, row in zip(head, stored)]
    moved = {id(c) for c in head}
    return rerank(head, inputs, query, trees) + [c for c in cands if id(c) not in moved]


def result_label(c: Candidate, norm: float, score_kind: str, query: ParsedQuery) -> str:
    """``c``'s label (rank.labels). A test file's result, unless the query asks for tests, is never HIGH by its
    name alone: a plain word (``throttle``) names a test helper as exactly as the code under test, so only a
    name spelt as one (``test_throttle``, ``RateLimiter.throttle``) counts; and it is GOOD at best (on the
    bench no test result of a query not asking for tests is an answer)."""
    if not is_test_path(c.path) or query_wants_tests(query.text):
        return label(norm, score_kind, named=c.named)
    spelt = c.named and any(looks_like_identifier(i) for i in query.identifiers)
    return label(norm, score_kind, named=True) if spelt else cap(label(norm, score_kind), "GOOD")


def run_search(
    store: MetaStore,
    keyword: Retriever,
    vectors: Retriever | None,
    query_vector: np.ndarray | Callable[[], np.ndarray | None] | None,
    query: ParsedQuery,
    params: SearchParams,
) -> list[SearchResult]:
    """Both retrievers over-fetch inside ``params.filters``, fuse with shape-adaptive weighted RRF, rank,
    dedupe, cut to limit. ``keyword`` takes the query's text, ``vectors`` its vector.

    ``query_vector`` may be a callable, called after the keyword retriever ran (the caller embeds the
    query meanwhile); None from it means keyword results only."""
    limit, mode, filters = params.limit, params.mode, params.filters
    fetch = candidate_pool(limit, params.overfetch)
    kw_hits: list[tuple[int, float]] = []
    vec_hits: list[tuple[int, float]] = []
    if mode in ("hybrid", "keyword"):
        kw_hits = keyword.search(query.text, fetch, filters)
    # Everything that does not need the query vector happens before waiting for it (the caller may
    # still be embedding the query on another thread).
    named: list[int] = []
    unknown: frozenset[str] = frozenset()  # qualifiers that name no definition: ``z`` of ``z.object``
    quals: frozenset[str] = frozenset()  # the query identifiers' qualifiers (``chi`` of ``chi.URLParam``)
    if params.rank.name_match:
        idents = query.identifiers
        named = store.ids_by_name([*idents, *map(bare_name, idents)], filters)
        quals = query.qualifiers
        unknown = frozenset(q.lower() for q in quals if not store.ids_by_name([q]))
    searched = vectors if mode in ("hybrid", "semantic") else None  # the vector retriever this mode uses
    prefilter: Callable[[Filters], object] | None = getattr(searched, "prefilter", None)
    if prefilter is not None:
        prefilter(filters)  # a retriever that can, filters before the query vector is waited for
    rows = store.chunks_by_id(dict.fromkeys([*(cid for cid, _ in kw_hits), *named]))
    if callable(query_vector):
        query_vector = query_vector()
    if searched is not None and query_vector is not None:
        vec_hits = searched.search(query_vector, fetch, filters)
        params.best_cosine = max((cos for _, cos in vec_hits), default=None)
        rows.update(store.chunks_by_id(cid for cid, _ in vec_hits if cid not in rows))
        if params.rank.short_vector_penalty > 0 or params.rank.prose_vector_penalty > 0:
            vec_hits = penalise_short(vec_hits, rows, params.rank.short_vector_penalty,
                                      params.rank.prose_vector_penalty)
    shape, w_kw, w_vec = shape_weights(query, params)
    fused, max_fused = fuse(kw_hits, vec_hits, k=params.rrf_k, keyword_weight=w_kw, vector_weight=w_vec)
    # Definitions named exactly like an identifier in the query join the candidates even when
    # neither retriever ranked them (a class drowned by its own methods, say).
    known = {cid for cid, _ in fused}
    for cid in named:
        if cid not in known:
            fused.append((cid, 0.0))
    kw_rank = {cid: r for r, (cid, _) in enumerate(kw_hits, start=1)}
    vec_rank = {cid: r for r, (cid, _) in enumerate(vec_hits, start=1)}
    cosines = dict(vec_hits)
    score_kind = "rrf" if kw_hits and vec_hits else ("keyword" if kw_hits else "semantic")
    cands: list[Candidate] = []
    for cid, score in fused:
        row = rows.get(cid)
        if row is None:  # the keyword index is a step ahead of (or behind) SQLite: skip quietly
            continue
        c = Candidate(
            chunk_id=cid, path=row.path, name=row.name, qualified_name=row.qualified_name,
            kind=row.kind, language=row.language, start_line=row.start_line,
            end_line=row.end_line, text=row.text, mtime=row.mtime or 0.0, decorators=row.decorators,
            doc=row.docstring or "",
            keyword_rank=kw_rank.get(cid), vector_rank=vec_rank.get(cid), score=score,
        )
        c.explain.update({"rrf": score, "w_keyword": w_kw, "w_vector": w_vec})
        if cid in cosines:
            c.explain["cosine"] = cosines[cid]
        cands.append(c)
    if params.rank.enclosing_first:  # a long function holding many definitions is no pointer (diversity)
        long_ones = [c for c in cands if c.kind in FUNCTION_KINDS and c.span > MAX_MERGED_SPAN]
        nested = store.nested_definition_counts(c.chunk_id for c in long_ones)
        for c in long_ones:
            c.nested = nested.get(c.chunk_id, 0)
    # Recency is measured from the last update, not the wall clock: the same index ranks a query the
    # same way on every call.
    now = float(store.get_meta("last_update", "0") or 0) or None
    # Code names a definition after its file's package or namespace (Go's ``chi.URLParam``, C#'s
    # ``Polly.Retry.RetryHelper``, C++'s ``os::now``), which no path needs to spell
    packages = store.namespaces({c.path for c in cands if c.language in NAMESPACED_LANGUAGES}) if quals else {}
    cands, best = rank(cands, query, params.rank, rrf_unit=1.0 / (params.rrf_k + 1), max_fused=max_fused, now=now,
                       unknown_qualifiers=unknown, packages=packages, declared=params.declared,
                       reranked=params.reranker is not None)
    if params.reranker is not None:
        cands = restructure(learned_order(cands, rows, best, query, params.reranker), query, params.rank)
    results: list[SearchResult] = []
    seen: set[tuple[str, int, int]] = set()
    for c in cands:
        key = (c.path, c.start_line, c.end_line)
        if key in seen:
            continue
        seen.add(key)
        norm = round(min(1.0, c.score / best), 4) if best > 0 else 0.0
        if norm < params.threshold:
            break
        row = rows[c.chunk_id]
        name, qualified, shown_from = c.name, c.qualified_name, row.start_line
        if c.named and params.declared_name and c.kind in NOT_DEFINITIONS:  # the chunk setting that constant
            lines = [line for p, line in params.declared if p == c.path and c.start_line <= line <= c.end_line]
            if lines:
                name = qualified = params.declared_name
                shown_from = min(lines)
        snippet, snippet_line = snippet_of(row.text, shown_from, row.text_start)
        results.append(
            SearchResult(
                path=c.path, start_line=c.start_line, end_line=c.end_line, score=norm,
                definition_start_line=row.start_line, definition_end_line=row.end_line,
                name=name, qualified_name=qualified, nearby=list(c.merged_names),
                also_defined=list(c.also_defined),
                kind=c.kind, language=c.language,
                snippet=snippet, snippet_line=snippet_line,
                signature=row.signature, doc=doc_line(row.docstring, snippet), chunk_id=c.chunk_id,
                keyword_rank=c.keyword_rank,
                vector_rank=c.vector_rank, score_kind=score_kind, label=result_label(c, norm, score_kind, query),
                decorators=list(row.decorators), route=row.route or None,
                deprecated=deprecation_note(row.docstring, row.decorators),
                explain={"shape": shape.value, **{k: round(v, 5) for k, v in c.explain.items()}},
            )
        )
        if len(results) >= limit:
            break
    return results
