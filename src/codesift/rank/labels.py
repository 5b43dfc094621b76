"""Result labels: HIGH / GOOD / FAIR / LOW / WEAK for a normalised score, per kind of score.

A label says how often a result like it is what the query asked for, so its floors are fitted on the bench
(``bench/quality/labels.py``: the top 10 of 759 queries over 31 libraries in six languages, public and dev sets) with
:func:`fit_floors`, and checked leave-one-corpus-out. The score kinds need floors of their own: a hybrid score
is high when both retrievers agree, while a keyword-only or semantic-only score is mostly its rank.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

__all__ = ["FLOORS", "NOTHING_MATCHES", "PRECISION_TARGETS", "cap", "fit_floors", "label", "weak_match"]

# The share of answers the least likely result of each label still reaches (WEAK: below LOW's).
PRECISION_TARGETS = {"HIGH": 0.75, "GOOD": 0.35, "FAIR": 0.12, "LOW": 0.04}

# The lowest normalised score of each label, per score kind: ``fit_floors`` over bench/quality/labels.py's results
# (those the query names exactly left out: they are HIGH anyway); one set for every language, and keyword-only or
# semantic-only results are never HIGH. why: docs/design-decisions.md#label-floors
FLOORS: dict[str, dict[str, float]] = {
    "HIGH": {"rrf": 0.92, "keyword": 1.01, "semantic": 1.01},
    "GOOD": {"rrf": 0.90, "keyword": 0.92, "semantic": 0.92},
    "FAIR": {"rrf": 0.84, "keyword": 0.90, "semantic": 0.90},
    "LOW": {"rrf": 0.80, "keyword": 0.83, "semantic": 0.84},
}


def label(score: float, kind: str = "rrf", *, named: bool = False) -> str:
    """The label of a normalised ``score`` of ``kind`` (``rrf``, ``keyword`` or ``semantic``; others as ``rrf``).

    ``named``: the query names the result exactly (an identifier query's definition, not its namesakes), which
    is HIGH whatever its score: on the bench, all 78 such results are answers, and their scores spread as
    widely as a sentence's top result's (a tenth under 0.86)."""
    if named:
        return "HIGH"
    for name, floors in FLOORS.items():
        if score >= floors.get(kind, floors["rrf"]):
            return name
    return "WEAK"


ORDER = (*FLOORS, "WEAK")


def cap(name: str, most: str) -> str:
    """Label ``name`` lowered to ``most`` when it is better."""
    return max(name, most, key=ORDER.index)


# A query none of whose index terms any indexed text holds, and whose nearest chunk's cosine is below this, is
# matched by nothing: its results are the dense model's nearest guesses. On the bench (bench/quality/labels.py
# --nonsense 4: 144 queries of random letters or everyday words over 30 libraries), 143 nonsense queries hold
# no term and their nearest chunk's cosine is at most 0.634 (median 0.43); every one of the 1,322 real
# queries holds at least a third of its terms (nearest cosine 0.42–0.91, median 0.70).
WEAK_COSINE = 0.65
NOTHING_MATCHES = "nothing matches the query well"


def weak_match(terms: int, held: int, best_cosine: float | None) -> bool:
    """Whether nothing matches a query of ``terms`` index terms, ``held`` of them held by some indexed text,
    whose nearest chunk has cosine ``best_cosine`` (None: no vector side): no term held, and no chunk close in
    meaning either."""
    return terms > 0 and held == 0 and (best_cosine is None or best_cosine < WEAK_COSINE)


def fit_floors(pairs: Iterable[tuple[float, bool]], window: int = 200) -> dict[str, float]:
    """Each label's floor fitted on (score, is an answer) pairs: the score where the share of answers among
    the ``window`` results scoring nearest it first falls below the label's ``PRECISION_TARGETS`` share,
    going down from the best score. So the least likely result of a label is still an answer about that
    often. Floors are rounded down to 0.01; a label no band of results reaches gets the better label's floor
    (1.01 for HIGH: no result)."""
    ranked = sorted(pairs, key=lambda p: -p[0])
    if not ranked:
        return dict.fromkeys(PRECISION_TARGETS, 1.01)
    answers = [0]
    for _, a in ranked:
        answers.append(answers[-1] + a)
    half = max(1, window // 2)
    floors: dict[str, float] = {}
    start = 0
    for name, target in PRECISION_TARGETS.items():
        i = start
        while i < len(ranked):
            lo, hi = max(0, i - half), min(len(ranked), i + half)
            if (answers[hi] - answers[lo]) / (hi - lo) < target:
                break
            i += 1
        if i > start:  # the floor: the score of the label's last result, rounded down
            floors[name] = math.floor(ranked[i - 1][0] * 100 + 1e-6) / 100
        else:  # an empty band
            floors[name] = min(floors.values(), default=1.01)
        start = i
    return floors
