"""The ``[rank]`` table: switches and strengths of each ranking stage (read by :mod:`codesift.rank`)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

RankValue = bool | int | float  # what every setting is: a switch, a count, a weight or a factor


@dataclass(frozen=True, slots=True)
class RankSettings:
    """Switches and strengths of each stage; bonus weights are in units of one rank-1 RRF term."""

    # The keyword and vector sides' RRF weights follow the query's shape (identifier, phrase, sentence).
    adaptive_weights: bool = True
    # A definition whose name the query names exactly (or by camel humps) gets a bonus and joins the pool.
    name_match: bool = True
    # The exact-name bonus, in rank-1 RRF terms: an exact name with weak retrieval still comes first.
    # why 3: docs/design-decisions.md#name-match-weight
    name_match_weight: float = 3.0
    # Identifier queries: the name bonus kept by a name's other definitions (not the implementation).
    namesake_factor: float = 0.5
    # The name bonus for a query of 4+ words, whose identifiers are mostly context.
    # why 0: docs/design-decisions.md#sentence-name-match-weight
    sentence_name_match_weight: float = 0.0
    # Bonus for query terms in a candidate's path (sessions.py for "session").
    path_bonus: bool = False
    path_bonus_weight: float = 0.3  # the path bonus, in rank-1 RRF terms
    # Bonus for recently changed files (half-life 7 days, from the index's last update).
    recency: bool = False
    recency_weight: float = 0.3  # the recency bonus, in rank-1 RRF terms
    # Tests and examples down, unless the query asks for tests or names one exactly.
    test_penalty: bool = True
    test_penalty_factor: float = 0.4  # score factor of test code (1 = off)
    # Factors on the candidates within half of the best score: kind, language, path, recency (rank/boosts.py).
    rerank: bool = True
    docs_factor: float = 0.9  # re-rank factor of documentation (Markdown sections, prose windows)
    # Sentence queries: re-rank factor of a struct, interface, enum or type alias (and typings/stub files).
    # why 0.8: docs/design-decisions.md#declaration-factor
    declaration_factor: float = 0.8
    # Sentence queries: factor of module code between definitions (a lone /** */ block excepted).
    # why 0.8: docs/design-decisions.md#module-factor
    module_factor: float = 0.8
    # Sentences without a text/format word: factor of String()/Error()/toString()/__repr__/fmt.
    # why 0.8: docs/design-decisions.md#stringifier-factor
    stringifier_factor: float = 0.8
    # A sentence opening with (a verb and) "whether"/"if": factor of all but predicates.
    # why 0.8: docs/design-decisions.md#predicate-factor
    predicate_factor: float = 0.8
    # Score factor of the definitions of X for "where is X used/checked/called … ": the question asks for the
    # code that uses X (shape.used_name), and X's own class, field accessor or constant matched every word of it.
    used_definition_factor: float = 0.5
    # Later candidates whose code repeats an earlier one's (copies, vendored twins) are dropped.
    dedupe: bool = True
    max_per_file: int = 0  # results kept per file; 0 = no cap
    # Each file's best candidate in score order first, then the remaining candidates.
    file_first: bool = False
    # Candidates of one file that touch or overlap are merged into one passage (``+N nearby``).
    consolidate: bool = True
    # Keyword side: documents holding every query word first; why off: docs/design-decisions.md#keyword-and-first
    keyword_and_first: bool = False
    keyword_near: bool = False  # keyword side: consecutive query words close together score more (store/keyword.py)
    # The near pairs' sloppy-phrase scores (shared out among the pairs), times the field boost, times this.
    keyword_near_weight: float = 1.0
    # Keyword side: the query's last word also matches the terms it begins (search-as-you-type).
    keyword_prefix: bool = False
    # Hybrid search leaves the vector side out until this share of chunks is embedded.
    # why 0.95: docs/design-decisions.md#min-vector-coverage
    min_vector_coverage: float = 0.95
    query_preamble: bool = True  # the query reaches the dense model shaped like a document preamble
    preamble_debias: float = 0.0  # λ: the query vector minus λ × its preamble's vector (see Index._query_vector)
    # A long chunk's vector score is the best of its own vector's and its further windows' (store/windows.py;
    # embedded unless embed_windows = false): a question about a step deep inside a long function meets it.
    window_vectors: bool = True
    # Cosine taken off a window's score before it competes with the chunk's own.
    # why 0.03: docs/design-decisions.md#window-margin
    window_margin: float = 0.03
    # Cosine taken off a one-line chunk's vector score, ramping to 0 at 10 lines.
    # why 0.06: docs/design-decisions.md#short-vector-penalty
    short_vector_penalty: float = 0.06
    # Cosine taken off documentation's vector score, so the dense side ranks code first.
    # why 0.1: docs/design-decisions.md#prose-vector-penalty
    prose_vector_penalty: float = 0.1
    # A name typed as the query: the definitions it names exactly come first, after the re-ranker too
    # (diversity.named_first). why: docs/design-decisions.md#twelve-languages
    named_first: bool = True
    # A container over 200 lines ranks right after the last of its members (diversity.members_first).
    # why: docs/design-decisions.md#members-first
    members_first: bool = True
    # A short overload ranked above a longer one of its name and file yields to it (diversity.implementation_first).
    implementation_first: bool = True
    # A function declared without a body ranked above a definition of its name with one yields its place
    # (diversity.declaration_yields). why: docs/design-decisions.md#twelve-languages
    declaration_yields: bool = True
    # A deprecated definition ranked above the one its note says to use instead follows it
    # (diversity.deprecated_yields). why: docs/design-decisions.md#twelve-languages
    deprecated_yields: bool = True
    # A result inside a better-ranked result of its file (a class's method below the class) follows the results
    # that are not (diversity.contained_yields). why: docs/design-decisions.md#contained-yields
    contained_yields: bool = True
    # A nested function ranked above its enclosing function gives it its place (diversity.enclosing_first).
    # why: docs/design-decisions.md#enclosing-first
    enclosing_first: bool = True
    # Score factor of module code that is only imports (boosts.is_import_block).
    # why 0.4: docs/design-decisions.md#import-penalty-factor
    import_penalty_factor: float = 0.4
    # Keyword side: weight of the query words' abbreviations (arguments → args, query.abbrev).
    # why 0.3: docs/design-decisions.md#abbreviation-weight
    abbreviation_weight: float = 0.3
    # Keyword side, sentences of 3+ words: weight of the query words' synonyms (query.synonyms).
    # why 1.0: docs/design-decisions.md#synonym-weight
    synonym_weight: float = 1.0
    # Keyword side, sentences of 2+ words: weight of the learned code terms of the query's words (query.translate);
    # why 0.15: docs/design-decisions.md#translation-weight
    translation_weight: float = 0.15
    # The first 20 distinct results reordered by boosted trees over the signals above (rank.learned, trained by
    # train/reranker.py); how it was fitted: docs/design-decisions.md#the-learned-re-ranker
    learned_rerank: bool = True

    def with_values(self, **changes: RankValue) -> RankSettings:
        """A copy with the named settings replaced: names known only at run time (a ``[rank]`` table, a
        stage's switch), so the type checker cannot pair each value with its field. :func:`dataclasses.replace`
        rejects an unknown name; the callers check the values' types."""
        values: dict[str, Any] = changes
        return replace(self, **values)
