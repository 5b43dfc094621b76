"""train/reranker.py (not part of the package): LightGBM's trees in the format codesift evaluates."""

from __future__ import annotations

import argparse
import importlib.util
import pickle
from pathlib import Path

import numpy as np
import pytest

from codesift.rank.learned import FEATURES, RerankRow, Trees, features

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


def _rows() -> list[RerankRow]:
    return [RerankRow(0.9, 1, 2, 0.61, "function", "parse_args", "def parse_args(argv): ...", "Parse the arguments."),
            RerankRow(0.7, 3, None, None, "class", "Parser", "class Parser: ...", "")]


def _collection(tmp_path: Path, **group: object) -> Path:
    path = tmp_path / "rows.pkl"
    path.write_bytes(pickle.dumps({"groups": [{"set": "pub", "id": "q1", "corpus": "click", "kind": "nl",
                                               "y": np.array([True, False]), **group}]}))
    return path


def test_features_are_computed_from_the_kept_rows_and_a_probe_adds_a_column(tmp_path: Path) -> None:
    rows = _rows()
    data = _collection(tmp_path, query="parse the arguments", rows=rows)
    probe_file = tmp_path / "probe.py"
    probe_file.write_text("def doc_length(rows, query):\n    return [len(r.doc) for r in rows]\n", encoding="utf-8")
    [group] = reranker.load(data)
    assert np.array_equal(group["x"], features(rows, "parse the arguments"))
    [group] = reranker.load(data, [f"{probe_file}:doc_length"])
    assert group["x"].shape == (2, len(FEATURES) + 1)
    assert list(group["x"][:, -1]) == [20.0, 0.0]
    model = reranker.to_json(Booster(), [*FEATURES, "doc_length"])
    assert model["features"][-1] == "doc_length"


def test_a_collection_without_rows_or_a_missing_probe_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(SystemExit, match="no collection there"):
        reranker.load(tmp_path / "missing.pkl")
    with pytest.raises(SystemExit, match="collect again"):
        reranker.load(_collection(tmp_path, x=np.zeros((2, len(FEATURES)))))
    data = _collection(tmp_path, query="q", rows=_rows())
    with pytest.raises(SystemExit, match="FILE:FUNCTION"):
        reranker.load(data, ["no_such_file.py:f"])
    (tmp_path / "probe.py").write_text("x = 1\n", encoding="utf-8")
    with pytest.raises(SystemExit, match="no function 'f'"):
        reranker.load(data, [f"{tmp_path / 'probe.py'}:f"])
    (tmp_path / "probe.py").write_text("def f(rows, query):\n    return [1.0]\n", encoding="utf-8")
    with pytest.raises(SystemExit, match="q1's 2 rows"):
        reranker.load(data, [f"{tmp_path / 'probe.py'}:f"])


def test_lightgbm_settings_read_as_json_where_they_parse() -> None:
    assert reranker.lightgbm_param("num_leaves=7") == ("num_leaves", 7)
    assert reranker.lightgbm_param("extra_trees=true") == ("extra_trees", True)
    assert reranker.lightgbm_param("boosting=dart") == ("boosting", "dart")
    with pytest.raises(argparse.ArgumentTypeError):
        reranker.lightgbm_param("num_leaves")
