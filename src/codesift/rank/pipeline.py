"""The ranking pipeline proper: apply the enabled stages to fused candidates, in order."""

from __future__ import annotations

import time

from codesift.config.rank import RankSettings
from codesift.datatypes import CONTAINER_KINDS, NOT_DEFINITIONS
from codesift.text.tokens import tokenize
from codesift.rank import boosts
from codesift.rank.candidate import Candidate
from codesift.rank.diversity import (FUNCTION_KINDS, best_of_each_file_first, cap_per_file, consolidate, dedupe_content,
                        enclosing_first, implementation_first, members_first)
from codesift.query.shape import identifier_words, named_kind, pasted_definition, used_name

def rank(
    cands: list[Candidate],
    query: str,
    settings: RankSettings,
    *,
    rrf_unit: float,
    max_fused: float,
    now: float | None = None,
    unknown_qualifiers: frozenset[str] = frozenset(),
    packages: dict[str, str] | None = None,
    declared: frozenset[tuple[str, int]] = frozenset(),
) -> tuple[list[Candidate], float]:
    """Re-score and re-order fused candidates; returns them with the theoretical maximum score.

    ``rrf_unit`` is 1/(k+1), one rank-1 RRF term; ``max_fused`` the best fused score possible;
    ``unknown_qualifiers`` the query's qualifiers (lower-case) that name no definition of the index;
    ``packages`` the package each candidate's Go file declares (path → name), for Go's ``pkg.Func``;
    ``declared`` the (path, line) where the constant or variable an identifier query names is set, when no
    definition has its name: the chunk holding that line is named by the query.
    """
    now = time.time() if now is None else now
    packages = packages or {}
    idents = boosts.drop_aliases(identifier_words(query), unknown_qualifiers, cands, packages)
    words = boosts.query_words(query)
    terms = set(tokenize(query))
    wants_tests = boosts.query_wants_tests(query)
    best = max_fused
    asked = named_kind(query)  # ``find the Session class``: a name, not a sentence
    sentence = len(query.split()) >= 4 and asked is None
    match_weight = settings.sentence_name_match_weight if sentence else settings.name_match_weight
    if settings.path_bonus:
        best += settings.path_bonus_weight * rrf_unit
    if settings.recency:
        best += settings.recency_weight * rrf_unit

    def is_test(c: Candidate) -> bool:
        return (boosts.is_test_path(c.path) or boosts.is_example_path(c.path)
                or boosts.is_test_code(c.name, c.qualified_name, c.kind, c.language, c.text, c.decorators))

    def spelled(c: Candidate) -> float:
        """Plain words that spell the name (``cookie jar``), but not a test's (``nested schema`` asks for the
        code, not the test class ``NestedSchema``) unless the query asks for tests."""
        match = boosts.phrase_name_match(words, c.name)
        return match if match and (wants_tests or not is_test(c)) else 0.0

    def sets_declared(c: Candidate) -> float:
        return 1.0 if any(p == c.path and c.start_line <= line <= c.end_line for p, line in declared) else 0.0

    matches = {c.chunk_id: boosts.name_match(idents, c.name, c.qualified_name, c.path, packages.get(c.path, ""))
               or spelled(c) or (sets_declared(c) if declared else 0.0) for c in cands} if settings.name_match else {}
    used = used_name(query) if settings.used_definition_factor < 1.0 else None
    if used is not None and matches:  # ``who calls X``: X is what the question is about, not what it asks for
        for c in cands:
            if c.name == used:
                matches[c.chunk_id] = 0.0
    if settings.name_match and ((idents and used is None) or any(matches.values())):
        # the most this query's candidates can get; plain words that spell no candidate's name (``strip
        # trailing slash``) cannot get the name bonus, and counting it halved their scores: all WEAK
        best += match_weight * rrf_unit
    if any(v == 1.0 for v in matches.values()):  # ``mute?`` is there: ``mute`` is another name
        matches = {cid: v * settings.namesake_factor if v == boosts.BARE_MATCH else v for cid, v in matches.items()}
    # An identifier query: which definition is meant. A pasted definition line says it with its parameters
    # (the keyword side reads them), so all the definitions of its name keep the bonus, but those of a
    # kind the line rules out.
    pasted = pasted_definition(query)
    if settings.namesake_factor < 1.0 and not sentence and not pasted:
        by_id = {c.chunk_id: c for c in cands}
        spelled = frozenset(i.rsplit(".", 1)[-1] for i in idents)
        exact = [c for c in cands if matches.get(c.chunk_id) == 1.0]
        for impl_id, others in boosts.namesakes(exact, spelled, asked[1] if asked else frozenset()).items():
            impl = by_id[impl_id]
            impl.also_defined = [f"{o.path}:{o.start_line} {o.kind} {o.qualified_name}" for o in others]
            for o in others:
                # ``Arg`` typed and the struct ``Arg`` found: ``arg`` is another name in a case-sensitive
                # language, kept as a lesser alternative (the factor twice)
                other_name = impl.name in spelled and o.name != impl.name
                matches[o.chunk_id] *= settings.namesake_factor ** (2 if other_name else 1)
    elif settings.namesake_factor < 1.0 and pasted:
        # The line as pasted, return type and all, is in some definitions' text: the others yield to them
        # (testify's ``func Equal(…) bool`` in assert/, ``func Equal(…)`` in require/).
        exact = [c for c in cands if matches.get(c.chunk_id) == 1.0]
        holding = {c.chunk_id for c in exact if boosts.holds_line(c.text, query)}
        if holding and len(holding) < len(exact):
            for c in exact:
                if c.chunk_id not in holding:
                    matches[c.chunk_id] *= settings.namesake_factor
    if (settings.namesake_factor < 1.0 and (sentence or pasted) and asked and asked[1]
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
            c.explain["name_match"] = matches[c.chunk_id] * match_weight * rrf_unit
            c.named = matches[c.chunk_id] == 1.0 and match_weight > 0
        if settings.path_bonus:
            p = boosts.path_overlap(terms, c.path)
            if p:
                c.explain["path"] = p * settings.path_bonus_weight * rrf_unit
        if settings.recency:
            r = boosts.recency(c.mtime, now)
            if r > 0.01:
                c.explain["recency"] = r * settings.recency_weight * rrf_unit
        c.score += sum(v for k, v in c.explain.items() if k in ("name_match", "path", "recency"))
        # A test or example helper the query names is wanted (a sentence's names are context, as above).
        named_exactly = not sentence and matches.get(c.chunk_id) == 1.0
        if settings.test_penalty and not wants_tests and not named_exactly and is_test(c):
            c.score *= settings.test_penalty_factor
            c.explain["test_penalty"] = settings.test_penalty_factor
        if settings.import_penalty_factor < 1.0 and boosts.is_import_block(c.kind, c.text):
            c.score *= settings.import_penalty_factor
            c.explain["import_penalty"] = settings.import_penalty_factor
    cands.sort(key=lambda c: (-c.score, c.chunk_id))
    if settings.rerank and cands:
        floor = cands[0].score * 0.5
        for c in cands:
            if c.score >= floor:
                factor, factors = boosts.rerank_factor(c.kind, c.language, c.path, c.text,
                                                       boosts.recency(c.mtime, now), settings.docs_factor)
                c.score *= factor
                for key, value in factors.items():
                    c.explain[f"x_{key}"] = value
        if sentence and settings.declaration_factor < 1.0:
            for c in cands:
                if c.kind in boosts.DECLARATION_KINDS or boosts.is_declaration_file(c.path):
                    c.score *= settings.declaration_factor
                    c.explain["x_declaration"] = settings.declaration_factor
        if sentence and settings.stringifier_factor < 1.0 and not boosts.asks_for_text(terms):
            for c in cands:
                if boosts.is_stringifier(c.name, c.kind, c.text):
                    c.score *= settings.stringifier_factor
                    c.explain["x_stringifier"] = settings.stringifier_factor
        if sentence and settings.predicate_factor < 1.0 and boosts.asks_yes_or_no(query):
            for c in cands:
                if not boosts.is_predicate(c.name, c.kind, c.text):
                    c.score *= settings.predicate_factor
                    c.explain["x_not_predicate"] = settings.predicate_factor
        if used is not None:
            for c in cands:
                if c.name == used and c.kind not in NOT_DEFINITIONS:
                    c.score *= settings.used_definition_factor
                    c.explain["x_used_definition"] = settings.used_definition_factor
        if sentence and settings.module_factor < 1.0:
            for c in cands:
                if c.kind == "module" and not boosts.is_doc_block(c.text):
                    c.score *= settings.module_factor
                    c.explain["x_module"] = settings.module_factor
        cands.sort(key=lambda c: (-c.score, c.chunk_id))
        best *= 1.10 * 1.05 * 1.02 * 1.02
    if settings.members_first:
        cands = members_first(cands, CONTAINER_KINDS)
    if settings.implementation_first:
        cands = implementation_first(cands)
    if settings.dedupe:
        cands = dedupe_content(cands)
    if settings.max_per_file > 0:
        cands = cap_per_file(cands, settings.max_per_file)
    if settings.file_first:
        cands = best_of_each_file_first(cands)
    if settings.consolidate:
        cands = consolidate(cands)
    if settings.enclosing_first:
        cands = enclosing_first(cands)
    return cands, best
