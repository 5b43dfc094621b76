"""The ``[rank]`` table: switches and strengths of each ranking stage (read by :mod:`codesift.rank`)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

RankValue = bool | int | float  # what every setting is: a switch, a count, a weight or a factor


@dataclass(frozen=True, slots=True)
class RankSettings:
    """Switches and strengths of each stage; bonus weights are in units of one rank-1 RRF term."""

    adaptive_weights: bool = True
    name_match: bool = True
    # 3 rank-1 RRF terms: an exact name with weak retrieval (clap's trait ``Parser`` under ``value_parser``)
    # still comes first. The hand-written bench is the same at 2 and 3; bench/quality/name_probe.py on eight
    # repositories nobody tuned for (cobra, thor, symfony/console, clap, zod, ujson, fmt, pythonnet): 3 wins
    # the leave-one-out choice for every one of them, held-out +2.4 of ~550 probes a repository (clap +15,
    # zod +6, ujson +3; thor -1, fmt -2, pythonnet -2, pasted definition lines).
    name_match_weight: float = 3.0
    # Identifier queries: the name bonus kept by a name's other definitions (not the implementation).
    namesake_factor: float = 0.5
    # The same for a query of 4+ words, whose identifiers are mostly context ("where does X call Y"), not
    # the answer. bench/quality/loco.py over 1.0/0.5/0.25/0: every held-out corpus picks 0 (held-out +0.007).
    # The exact-name candidates still join the pool; a named symbol is still never merged away.
    sentence_name_match_weight: float = 0.0
    path_bonus: bool = False
    path_bonus_weight: float = 0.3
    recency: bool = False
    recency_weight: float = 0.3
    test_penalty: bool = True
    test_penalty_factor: float = 0.4
    rerank: bool = True
    docs_factor: float = 0.9  # re-rank factor of documentation (Markdown sections, prose windows)
    # Re-rank factor of a struct, interface, enum or type alias for a query of 4+ words: a sentence asks what
    # code does, and a declaration whose field comments describe every feature (a Go options struct) does
    # none of it. bench/quality/loco.py over 1/0.9/0.8/0.6: held-out 0.871 -> 0.878 (Go +0.020, Rust +0.022, TypeScript
    # +0.017, no query down); 0.8 and 0.6 equal on every corpus, the milder kept. Also every definition of a
    # typings or stub file (boosts.is_declaration_file): the short-answer set +0.009 (commander's typings), the
    # other sets equal.
    declaration_factor: float = 0.8
    # The same for module code (the statements between definitions: constants, registrations, a package's doc
    # comment), but a lone ``/** */`` block, which is the doc of the function below it (boosts.is_doc_block:
    # without that exception express lost 0.04). Hand-written 0.890 = (2 queries up, none down), dev set 0.822 ->
    # 0.826 (3 up), docstring 0.657 -> 0.659. bench/quality/loco.py --devset over 0.8/1.0/0.6/0.4: 0.6 in 17 folds, 0.8
    # in 1, held-out the same as 0.8's; the milder kept, as for declarations.
    module_factor: float = 0.8
    # The same for a conventional stringifier method (Go's ``Error() string``/``String() string``, ``toString()``,
    # ``__repr__``, Rust's ``fmt``; boosts.is_stringifier) when the sentence has no word about text or formatting
    # (boosts.asks_for_text): its messages name the behaviour the question describes, it does none of it.
    # Over 1/0.9/0.8/0.6/0.4 (30 corpora, all five query sets) every factor below 1 moves the same 3 queries up
    # (cli-q09 0.5 -> 1, cli-q21, requests-doc-072) and none down; held out by corpus (mean of the five sets),
    # cli keeps its gain, chosen by requests' docstring query. bench/quality/loco.py --devset --terse, which has no
    # docstring set, ties everywhere but cli and so picks 1.0 with cli held out: thin evidence, a convention's
    # prior more than a tuned constant; the milder 0.8 kept. Without the text-word exception four of indicatif's
    # Display impls (the targets) lose.
    stringifier_factor: float = 0.8
    # Score factor of every candidate but a predicate (boosts.is_predicate: a declared boolean result, or a
    # question for a name: isX, has_x, empty?) when the sentence opens with "whether", or a verb and "whether"
    # or "if" (boosts.asks_yes_or_no: "check whether the value needs quoting", "Return True if …"); a "whether"
    # later in the sentence is a step of a larger job ("…, then decide whether to flush") and changes nothing
    # (anywhere in the sentence: hand-written -0.002). As an index term for predicates "whether" was noise
    # (docstring -0.0025: predicates are everywhere). At 0.8: short 0.571 -> 0.610 (8 up, none down), dev
    # 0.8143 -> 0.8166, docstring 0.6687 -> 0.6723, hand-written and terse equal; 0.6 and 0.4 lift short to
    # 0.642 but cost cobra and globset ("check whether a pattern only needs the last component" asks for an
    # Option). bench/quality/loco.py --devset --short --terse over 1/0.8/0.6/0.4 (corpora weighted equally): 0.8 in 51
    # of 53 folds (0.6 in 2), held-out 0.7805 against 0.7796 at 1.0 and 0.7813 in-sample.
    predicate_factor: float = 0.8
    # Score factor of the definitions of X for "where is X used/checked/called … ": the question asks for the
    # code that uses X (shape.used_name), and X's own class, field accessor or constant matched every word of it.
    used_definition_factor: float = 0.5
    dedupe: bool = True
    max_per_file: int = 0  # 0 = no cap
    file_first: bool = False
    consolidate: bool = True
    keyword_and_first: bool = False  # measured: off +0.003 / +0.003 MRR@10 (bench/quality/ablation.py)
    keyword_near: bool = False  # keyword side: consecutive query words close together score more (store/keyword.py)
    # The near pairs' sloppy-phrase scores (shared out among the pairs), times the field boost, times this.
    keyword_near_weight: float = 1.0
    # Keyword side: the query's last word also matches the terms it begins (search-as-you-type).
    keyword_prefix: bool = False
    # Hybrid search leaves the vector side out until this share of chunks is embedded: a partial vector
    # list ranks only the embedded chunks and made hybrid worse than keyword-only at every coverage
    # below 0.95 measured (bench/quality/quality.py --coverage, both query sets). The share is judged without
    # the files that dominate the chunks (search/coverage.py `dominating`: generated bulk, embedded last).
    min_vector_coverage: float = 0.95
    query_preamble: bool = True  # the query reaches the dense model shaped like a document preamble
    preamble_debias: float = 0.0  # λ: the query vector minus λ × its preamble's vector (see Index._query_vector)
    # A long chunk's vector score is the best of its own vector's and its further windows' (store/windows.py;
    # embedded unless embed_windows = false): a question about a step deep inside a long function meets it.
    window_vectors: bool = True
    # Cosine taken off a window's score before it competes with the chunk's own: the best of up to seven vectors
    # is high by chance alone, and short answers lost to long functions (short-answer set 0.597 -> 0.561 held out
    # at 0). The re-ranker retrained per value, held out by repository (train/reranker.py loco) over
    # 0/0.01/0.02/0.03/0.04/0.06: 0.03 chosen in 30 of 30 folds (mean over the other 29 corpora); again over
    # 0/0.02/0.03/0.04 with windows for definitions outside tests and examples only (indexing.prepare.windowed): 0.03 in
    # 30 of 30. Five-set held-out mean without windows 0.7502, with them 0.7595 (hand-written 0.9066 -> 0.9143,
    # dev 0.8312 -> 0.8422, terse 0.7337 -> 0.7515, docstring 0.6821 -> 0.6856, short 0.5972 -> 0.6038).
    window_margin: float = 0.03
    # Cosine taken off a one-line chunk's vector score, ramping to 0 at 10 lines; bench/quality/loco.py picks
    # 0.06 (grid 0–0.12) and it holds out: +0.012 MRR@10 held-out mean with the keyword factor.
    short_vector_penalty: float = 0.06
    # Cosine taken off documentation's vector score (Markdown sections, prose windows), so the dense side ranks
    # code first and a README section comes in through its keywords: prose that talks about a feature
    # resembles the question more than the code doing it. bench/quality/loco.py over 0/0.03/0.06/0.1/0.2/1: 0.1 in
    # 7 of 8 folds (javapoet 0.850 → 0.854, flask +0.002, h3 +0.001, none down; ≥ 0.1 alike).
    prose_vector_penalty: float = 0.1
    # A container over 200 lines ranks right after the last of its members among the candidates
    # (diversity.members_first). bench/quality/loco.py: javapoet +0.047 MRR@10, click +0.002, no corpus down.
    members_first: bool = True
    # A short overload ranked above a longer one of its name and file yields to it (diversity.implementation_first).
    implementation_first: bool = True
    # A function nested in another that ranks above it gives the enclosing function its place
    # (diversity.enclosing_first). Docstring set 0.651 -> 0.657 (13 queries up, none down), dev set 0.805 ->
    # 0.817 (4 up, none down), hand-written identical.
    enclosing_first: bool = True
    # Score factor of module code that is only imports (boosts.is_import_block): 69 of the hand-written queries'
    # top-10 slots held one. bench/quality/loco.py over 1/0.7/0.4/0.2: held-out +0.001 (javapoet, requests), no corpus
    # down, 0.7–0.2 alike; 0.4 as for tests.
    import_penalty_factor: float = 0.4
    # Keyword side: the query words' programming abbreviations (``arguments`` → ``args``, codesift.query.abbrev) join
    # the any-term match at this weight. bench/quality/loco.py over 0/0.3/0.6/1.0: 0.3 in 7 of 8 folds, held-out +0.003.
    abbreviation_weight: float = 0.3
    # Keyword side, sentences of 3+ words: the words that mean what a query word means (``option`` → ``flag``,
    # ``remove`` → ``strip drop``; codesift.query.synonyms) join the any-term match at this weight. Leave one
    # corpus out over the 18 corpora of bench/quality/quality.py and bench/quality/devset.py, 0/0.5/0.75/1.0/1.5:
    # 1.0 in 17 folds, held-out 0.829 -> 0.844; hand-written hybrid 0.884 -> 0.890 (no language down), dev set
    # 0.780 -> 0.805, docstring =.
    synonym_weight: float = 1.0
    # Keyword side, sentences of 2+ plain words: the code terms documented code pairs with a query word
    # (``glob`` → ``pattern match``; codesift.query.translate) add their score at this weight to what the query's
    # terms matched (never a match of their own: the same ranking as letting them match, at a third of the cost).
    # Leave one corpus out over 0/0.05/0.1/0.15/0.2/0.25/0.3 (30 corpora of bench/quality/quality.py and
    # bench/quality/devset.py, mean of the five query sets): 0.15 in 29 folds, held-out +0.0085 (17 corpora up,
    # 10 down); dev set 0.790 -> 0.802, terse 0.695 -> 0.705, short 0.575 -> 0.581, docstring 0.660 -> 0.667,
    # hand-written 0.885 -> 0.884.
    translation_weight: float = 0.15
    # The first 20 distinct results reordered by boosted trees over the signals above (rank.learned; trained by
    # train/reranker.py, whose docstring has its leave-one-corpus-out table).
    learned_rerank: bool = True

    def with_values(self, **changes: RankValue) -> RankSettings:
        """A copy with the named settings replaced: names known only at run time (a ``[rank]`` table, a
        stage's switch), so the type checker cannot pair each value with its field. :func:`dataclasses.replace`
        rejects an unknown name; the callers check the values' types."""
        values: dict[str, Any] = changes
        return replace(self, **values)
