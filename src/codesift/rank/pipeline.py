"""The ranking pipeline proper: :data:`STAGES`, applied in order to fused candidates, each switchable.

One list is the pipeline: :func:`rank` runs the stages it holds, ``search --explain`` reports what they
recorded, and the ablation and latency benches switch them off by name (:meth:`Stage.off`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from codesift.config.rank import RankSettings, RankValue
from codesift.datatypes import CONTAINER_KINDS, NOT_DEFINITIONS
from codesift.languages import is_example_path, is_test_path
from codesift.query.parsed import ParsedQuery, as_parsed
from codesift.rank import boosts
from codesift.rank.candidate import Candidate
from codesift.rank.diversity import (FUNCTION_KINDS, best_of_each_file_first, cap_per_file, consolidate,
                                     contained_yields, declaration_yields, dedupe_content, deprecated_yields,
                                     enclosing_first, implementation_first, members_first, named_first)

BONUSES = ("name_match", "path", "recency")  # explain keys added to the fused score (in this order)
RERANK_BEST = 1.10 * 1.05 * 1.02 * 1.02  # the most the re-rank factors can lift a score


@dataclass(slots=True)
class RankState:
    """What the stages of one ranking share: the query, the settings, and what earlier stages found."""

    query: ParsedQuery
    settings: RankSettings
    rrf_unit: float  # 1/(k+1): one rank-1 RRF term, the unit of every bonus
    now: float
    packages: dict[str, str]  # path → the package its Go file declares (``chi.URLParam``)
    declared: frozenset[tuple[str, int]]  # (path, line) setting the constant an identifier query names
    best: float  # the most a candidate can score so far (what scores are normalised by)
    identifiers: list[str]  # the query's identifiers less import aliases
    words: list[str]  # its lower-cased words, to compare with names (``cookie jar`` ~ ``CookieJar``)
    terms: set[str]
    wants_tests: bool
    match_weight: float  # the name bonus, in rank-1 RRF terms
    used: str | None  # ``who calls X``: X, when its definition is ranked below what uses it
    matches: dict[int, float]  # chunk id → how well the query names it (0–1), by the name_match stage

    @classmethod
    def after(cls, query: ParsedQuery, settings: RankSettings) -> RankState:
        """The state the structural stages read once the scores are final (:func:`restructure`)."""
        return cls(query=query, settings=settings, rrf_unit=0.0, now=0.0, packages={}, declared=frozenset(),
                   best=0.0, identifiers=[], words=[], terms=set(), wants_tests=False, match_weight=0.0,
                   used=None, matches={})

    def is_test(self, c: Candidate) -> bool:
        return (is_test_path(c.path) or is_example_path(c.path)
                or boosts.is_test_code(c.name, c.qualified_name, c.kind, c.language, c.text, c.decorators))


Run = Callable[[list[Candidate], RankState], list[Candidate]]


@dataclass(frozen=True, slots=True)
class Stage:
    """One named step of the pipeline and the ``[rank]`` setting that switches it (``None``: always on)."""

    name: str
    run: Run
    switch: str | None = None
    neutral: RankValue = False  # the switch's value that turns the stage off

    def enabled(self, settings: RankSettings) -> bool:
        return self.switch is None or getattr(settings, self.switch) != self.neutral

    def off(self, settings: RankSettings) -> RankSettings:
        """``settings`` with this stage switched off."""
        if self.switch is None:
            raise ValueError(f"the {self.name} stage cannot be switched off")
        return settings.with_values(**{self.switch: self.neutral})


# -- score: bonuses and penalties -----------------------------------------------------------------
def name_match(cands: list[Candidate], st: RankState) -> list[Candidate]:
    """How well the query names each candidate (its identifiers, its words spelling a name, the constant it
    names), the name's other definitions kept below its implementation."""
    settings, query, idents = st.settings, st.query, st.identifiers

    def spelled(c: Candidate) -> float:
        """Plain words that spell the name (``cookie jar``), but not a test's (``nested schema`` asks for the
        code, not the test class ``NestedSchema``) unless the query asks for tests."""
        match = boosts.phrase_name_match(st.words, c.name)
        return match if match and (st.wants_tests or not st.is_test(c)) else 0.0

    def sets_declared(c: Candidate) -> float:
        return 1.0 if any(p == c.path and c.start_line <= line <= c.end_line for p, line in st.declared) else 0.0

    matches = {c.chunk_id: boosts.name_match(idents, c.name, c.qualified_name, c.path, st.packages.get(c.path, ""))
               or spelled(c) or (sets_declared(c) if st.declared else 0.0) for c in cands}
    if st.used is not None and matches:  # ``who calls X``: X is what the question is about, not what it asks for
        for c in cands:
            if c.name == st.used:
                matches[c.chunk_id] = 0.0
    if (idents and st.used is None) or any(matches.values()):
        # the most this query's candidates can get; plain words that spell no candidate's name (``strip
        # trailing slash``) cannot get the name bonus, and counting it halved their scores: all WEAK
        st.best += st.match_weight * st.rrf_unit
    if any(v == 1.0 for v in matches.values()):  # ``mute?`` is there: ``mute`` is another name
        matches = {cid: v * settings.namesake_factor if v == boosts.BARE_MATCH else v for cid, v in matches.items()}
    asked = query.named_kind
    # An identifier query: which definition is meant. A pasted definition line says it with its parameters
    # (the keyword side reads them), so all the definitions of its name keep the bonus, but those of a
    # kind the line rules out.
    if settings.namesake_factor < 1.0 and not query.sentence and not query.pasted:
        by_id = {c.chunk_id: c for c in cands}
        named = frozenset(i.rsplit(".", 1)[-1] for i in idents)
        exact = [c for c in cands if matches.get(c.chunk_id) == 1.0]
        for impl_id, others in boosts.namesakes(exact, named, asked[1] if asked else frozenset()).items():
            impl = by_id[impl_id]
            impl.also_defined = [f"{o.path}:{o.start_line} {o.kind} {o.qualified_name}" for o in others]
            for o in others:
                # ``Arg`` typed and the struct ``Arg`` found: ``arg`` is another name in a case-sensitive
                # language, kept as a lesser alternative (the factor twice)
                other_name = impl.name in named and o.name != impl.name
                matches[o.chunk_id] *= settings.namesake_factor ** (2 if other_name else 1)
    elif settings.namesake_factor < 1.0 and query.pasted:
        # The line as pasted, return type and all, is in some definitions' text: the others yield to them
        # (testify's ``func Equal(…) bool`` in assert/, ``func Equal(…)`` in require/).
        exact = [c for c in cands if matches.get(c.chunk_id) == 1.0]
        holding = {c.chunk_id for c in exact if boosts.holds_line(c.text, query.text)}
        if holding and len(holding) < len(exact):
            for c in exact:
                if c.chunk_id not in holding:
                    matches[c.chunk_id] *= settings.namesake_factor
    if (settings.namesake_factor < 1.0 and (query.sentence or query.pasted) and asked and asked[1]
            and asked[1] != FUNCTION_KINDS):
        # Go's receiver or its absence, a ``self`` parameter: ``func Unmarshal(…)`` is not the method
        # ``Tree.Unmarshal``, which yields to it as a namesake does.
        exact = [c for c in cands if matches.get(c.chunk_id) == 1.0]
        if any(c.kind in asked[1] for c in exact):
            for c in exact:
                if c.kind not in asked[1] and c.kind in FUNCTION_KINDS:
                    matches[c.chunk_id] *= settings.namesake_factor
    for c in cands:
        if matches.get(c.chunk_id):
            c.explain["name_match"] = matches[c.chunk_id] * st.match_weight * st.rrf_unit
            c.named = matches[c.chunk_id] == 1.0 and st.match_weight > 0
    st.matches = matches
    return cands


def path_bonus(cands: list[Candidate], st: RankState) -> list[Candidate]:
    """Query terms in a candidate's path (``sessions.py`` for "session")."""
    for c in cands:
        p = boosts.path_overlap(st.terms, c.path)
        if p:
            c.explain["path"] = p * st.settings.path_bonus_weight * st.rrf_unit
    return cands


def recency(cands: list[Candidate], st: RankState) -> list[Candidate]:
    """Recently changed files, measured from the index's last update."""
    for c in cands:
        r = boosts.recency(c.mtime, st.now)
        if r > 0.01:
            c.explain["recency"] = r * st.settings.recency_weight * st.rrf_unit
    return cands


def add_bonuses(cands: list[Candidate], st: RankState) -> list[Candidate]:
    """The bonuses the stages above recorded, added to the fused score."""
    for c in cands:
        c.score += sum(v for k, v in c.explain.items() if k in BONUSES)
    return cands


def test_penalty(cands: list[Candidate], st: RankState) -> list[Candidate]:
    """Tests and examples down, unless the query asks for tests or names one exactly (a sentence's names are
    context)."""
    for c in cands:
        named_exactly = not st.query.sentence and st.matches.get(c.chunk_id) == 1.0
        if not st.wants_tests and not named_exactly and st.is_test(c):
            c.score *= st.settings.test_penalty_factor
            c.explain["test_penalty"] = st.settings.test_penalty_factor
    return cands


def import_penalty(cands: list[Candidate], st: RankState) -> list[Candidate]:
    """Blocks of import statements down."""
    for c in cands:
        if boosts.is_import_block(c.kind, c.text):
            c.score *= st.settings.import_penalty_factor
            c.explain["import_penalty"] = st.settings.import_penalty_factor
    return cands


def order(cands: list[Candidate], st: RankState) -> list[Candidate]:
    cands.sort(key=lambda c: (-c.score, c.chunk_id))
    return cands


def rerank(cands: list[Candidate], st: RankState) -> list[Candidate]:
    """Factors on the candidates within half of the best score: kind, language, path, recency; in sentences
    declarations, stringifiers, non-predicates and module code down; the used definition of a usage question."""
    if not cands:
        return cands
    settings, query, terms = st.settings, st.query, st.terms
    floor = cands[0].score * 0.5
    for c in cands:
        if c.score >= floor:
            factor, factors = boosts.rerank_factor(c.kind, c.language, c.path, c.text,
                                                   boosts.recency(c.mtime, st.now), settings.docs_factor)
            c.score *= factor
            for key, value in factors.items():
                c.explain[f"x_{key}"] = value
    if query.sentence and settings.declaration_factor < 1.0:
        for c in cands:
            if c.kind in boosts.DECLARATION_KINDS or boosts.is_declaration_file(c.path):
                c.score *= settings.declaration_factor
                c.explain["x_declaration"] = settings.declaration_factor
    if query.sentence and settings.stringifier_factor < 1.0 and not boosts.asks_for_text(terms):
        for c in cands:
            if boosts.is_stringifier(c.name, c.kind, c.text):
                c.score *= settings.stringifier_factor
                c.explain["x_stringifier"] = settings.stringifier_factor
    if query.sentence and settings.predicate_factor < 1.0 and boosts.asks_yes_or_no(query.text):
        for c in cands:
            if not boosts.is_predicate(c.name, c.kind, c.text):
                c.score *= settings.predicate_factor
                c.explain["x_not_predicate"] = settings.predicate_factor
    if st.used is not None:
        for c in cands:
            if c.name == st.used and c.kind not in NOT_DEFINITIONS:
                c.score *= settings.used_definition_factor
                c.explain["x_used_definition"] = settings.used_definition_factor
    if query.sentence and settings.module_factor < 1.0:
        for c in cands:
            if c.kind == "module" and not boosts.is_doc_block(c.text):
                c.score *= settings.module_factor
                c.explain["x_module"] = settings.module_factor
    cands.sort(key=lambda c: (-c.score, c.chunk_id))
    st.best *= RERANK_BEST
    return cands


def _order_only(step: Callable[[list[Candidate]], list[Candidate]]) -> Run:
    """A diversity or consolidation step, which reads the candidates alone."""
    return lambda cands, st: step(cands)


STAGES: tuple[Stage, ...] = (
    Stage("name_match", name_match, "name_match"),
    Stage("path_bonus", path_bonus, "path_bonus"),
    Stage("recency", recency, "recency"),
    Stage("add_bonuses", add_bonuses),
    Stage("test_penalty", test_penalty, "test_penalty"),
    Stage("import_penalty", import_penalty, "import_penalty_factor", 1.0),
    Stage("order", order),
    Stage("rerank", rerank, "rerank"),
    Stage("named_first", lambda cands, st: named_first(cands, st.query), "named_first"),
    Stage("members_first", _order_only(lambda cands: members_first(cands, CONTAINER_KINDS)), "members_first"),
    Stage("implementation_first", _order_only(implementation_first), "implementation_first"),
    Stage("declaration_yields", lambda cands, st: declaration_yields(cands, st.query.text), "declaration_yields"),
    Stage("deprecated_yields", lambda cands, st: deprecated_yields(cands, st.query.text), "deprecated_yields"),
    Stage("contained_yields", _order_only(contained_yields), "contained_yields"),
    Stage("dedupe", _order_only(dedupe_content), "dedupe"),
    Stage("max_per_file", lambda cands, st: cap_per_file(cands, st.settings.max_per_file), "max_per_file", 0),
    Stage("file_first", _order_only(best_of_each_file_first), "file_first"),
    Stage("consolidate", _order_only(consolidate), "consolidate"),
    Stage("enclosing_first", _order_only(enclosing_first), "enclosing_first"),
)


# Orders that follow from the code's structure: a long class after its members, a wrapper after its overload
# with the body, a declaration after its definition, a nested function inside the one enclosing it. The learned
# re-ranker reads no structure and may undo them, so they run again after it (docs/design-decisions.md#restructure).
STRUCTURAL = ("members_first", "implementation_first", "declaration_yields", "enclosing_first")


# Stages that run once the order is final: after the learned re-ranker when there is one, not before it, where
# moving a result would change what the re-ranker reads (its place, which results are in its first 20).
LAST = ("named_first", "deprecated_yields", "contained_yields")


def restructure(cands: list[Candidate], query: ParsedQuery, settings: RankSettings) -> list[Candidate]:
    """``cands`` in a final order (the learned re-ranker's) with the enabled :data:`STRUCTURAL` stages applied again
    and the :data:`LAST` ones applied."""
    st = RankState.after(query, settings)
    for s in STAGES:
        if (s.name in STRUCTURAL or s.name in LAST) and s.enabled(settings):
            cands = s.run(cands, st)
    return cands


def stage(name: str) -> Stage:
    """The stage called ``name``; raises KeyError naming the known ones."""
    for s in STAGES:
        if s.name == name:
            return s
    raise KeyError(f"no stage {name!r}; the pipeline is {', '.join(s.name for s in STAGES)}")


def rank(
    cands: list[Candidate],
    query: ParsedQuery | str,
    settings: RankSettings,
    *,
    rrf_unit: float,
    max_fused: float,
    now: float | None = None,
    unknown_qualifiers: frozenset[str] = frozenset(),
    packages: dict[str, str] | None = None,
    declared: frozenset[tuple[str, int]] = frozenset(),
    reranked: bool = False,
) -> tuple[list[Candidate], float]:
    """Re-score and re-order fused candidates through the enabled :data:`STAGES`; returns them with the
    theoretical maximum score.

    ``rrf_unit`` is 1/(k+1), one rank-1 RRF term; ``max_fused`` the best fused score possible;
    ``unknown_qualifiers`` the query's qualifiers (lower-case) that name no definition of the index;
    ``packages`` the package each candidate's Go file declares (path → name), for Go's ``pkg.Func``;
    ``declared`` the (path, line) where the constant or variable an identifier query names is set, when no
    definition has its name: the chunk holding that line is named by the query; ``reranked``: the learned
    re-ranker orders the result next, and :func:`restructure` runs the :data:`LAST` stages after it.
    """
    query = as_parsed(query)
    packages = packages or {}
    best = max_fused
    if settings.path_bonus:
        best += settings.path_bonus_weight * rrf_unit
    if settings.recency:
        best += settings.recency_weight * rrf_unit
    st = RankState(
        query=query, settings=settings, rrf_unit=rrf_unit, now=time.time() if now is None else now,
        packages=packages, declared=declared, best=best,
        identifiers=boosts.drop_aliases(list(query.identifiers), unknown_qualifiers, cands, packages),
        words=boosts.query_words(query.text), terms=set(query.terms),
        wants_tests=boosts.query_wants_tests(query.text),
        match_weight=settings.sentence_name_match_weight if query.sentence else settings.name_match_weight,
        used=query.used_name if settings.used_definition_factor < 1.0 else None, matches={},
    )
    for s in STAGES:
        if s.enabled(settings) and not (reranked and s.name in LAST):
            cands = s.run(cands, st)
    return cands, st.best
