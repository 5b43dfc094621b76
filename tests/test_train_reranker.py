"""train/reranker.py (not part of the package): LightGBM's trees in the format codesift evaluates."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np

from codesift.rank.learned import FEATURES, Trees

_TRAIN = Path(__file__).resolve().parents[1] / "train"
_spec = importlib.util.spec_from_file_location("train_reranker", _TRAIN / "reranker.py")
reranker = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(reranker)


class Booster:
    """What ``to_json`` reads of a LightGBM booster: ``dump_model()``'s nested trees."""

    def dump_model(self) -> dict:
        leaf = lambda v: {"leaf_index": 0, "leaf_value": v}  # noqa: E731
        split = lambda f, t, lo, hi: {"split_feature": f, "threshold": t, "decision_type": "<=",  # noqa: E731
                                       "left_child": lo, "right_child": hi}
        return {"tree_info": [{"tree_structure": split(0, 0.5, split(1, 2.0, leaf(1.0), leaf(2.0)), leaf(3.0))},
                              {"tree_structure": leaf(0.25)}]}


def test_nested_trees_become_flat_arrays_that_score_the_same() -> None:
    model = reranker.to_json(Booster())
    assert model["features"] == list(FEATURES)
    trees = Trees.from_json(model)
    x = np.zeros((4, len(FEATURES)))
    x[:, 0] = [0.5, 0.2, 0.9, 0.1]
    x[:, 1] = [2.0, 3.0, 0.0, -1.0]
    assert list(trees.predict(x)) == [1.25, 2.25, 3.25, 1.25]


def test_reciprocal_rank_at_ten_and_the_reordering() -> None:
    y = np.array([False, False, True])
    assert reranker.rr_at_10(y, np.arange(3)) == 1 / 3
    assert reranker.rr_at_10(np.array([False] * 12), np.arange(12)) == 0.0
    assert reranker.code_base("click-nodoc") == "click" == reranker.code_base("click")
