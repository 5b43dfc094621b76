"""The ranking pipeline: small pure stages between fusion and formatting, each switchable.

Order: query shape → weighted RRF (in :mod:`codesift.search.run`) → bonuses → re-rank boosts → diversity →
consolidation → the learned re-ranker (:mod:`codesift.rank.learned`, over the first 20) → the structural stages
again (:func:`~codesift.rank.pipeline.restructure`) → normalisation.
Every stage reads and writes :class:`~codesift.rank.candidate.Candidate` objects and records what it did in
``Candidate.explain`` so ``search --explain`` can show it.
"""

from codesift.rank.candidate import Candidate
from codesift.config.rank import RankSettings
from codesift.rank.pipeline import rank
from codesift.query.shape import QueryShape, classify

__all__ = ["Candidate", "QueryShape", "RankSettings", "classify", "rank"]
