"""Weighted Reciprocal Rank Fusion: ``score(d) = Σ_i w_i / (k + rank_i(d))``, ranks 1-based."""

from __future__ import annotations

from collections.abc import Sequence


def rrf(rankings: Sequence[Sequence[int]], weights: Sequence[float] | None = None, k: float = 60.0) -> dict[int, float]:
    """Fuse ranked id lists; an id missing from a list gets nothing from it. Returns id → fused score."""
    if weights is None:
        weights = [1.0] * len(rankings)
    if len(weights) != len(rankings):
        raise ValueError("one weight per ranking is required")
    if k < 0:
        raise ValueError("k must be non-negative")
    scores: dict[int, float] = {}
    for ranking, weight in zip(rankings, weights):
        for rank, doc in enumerate(ranking, start=1):
            scores[doc] = scores.get(doc, 0.0) + weight / (k + rank)
    return scores


def ranked(scores: dict[int, float]) -> list[tuple[int, float]]:
    """Scores sorted best first; ties broken by id for a stable order."""
    return sorted(scores.items(), key=lambda kv: (-kv[1], kv[0]))
