import numpy as np

from codesift.store import vectors as vmod
from codesift.store.vectors import VectorIndex


def _data(n, dim=8, seed=0):
    rng = np.random.default_rng(seed)
    mat = rng.normal(size=(n, dim)).astype(np.float32)
    mat /= np.linalg.norm(mat, axis=1, keepdims=True)
    return np.arange(100, 100 + n, dtype=np.int64), mat.astype(np.float16)


def test_exact_search_finds_the_query_itself(tmp_path):
    ids, mat = _data(50)
    index = VectorIndex(tmp_path, 8)
    index.load(1, lambda: (ids, mat))
    hits = index.search(mat[7].astype(np.float32), 3)
    assert hits[0][0] == 107
    assert hits[0][1] > hits[1][1]


def test_allowed_ids_prefilter(tmp_path):
    ids, mat = _data(50)
    index = VectorIndex(tmp_path, 8)
    index.load(1, lambda: (ids, mat))
    hits = index.search(mat[7].astype(np.float32), 5, allowed=np.array([120, 121]))
    assert {h[0] for h in hits} == {120, 121}


def test_snapshot_reused_for_same_generation_and_rebuilt_for_new(tmp_path):
    ids, mat = _data(20)
    calls = []

    def rebuild():
        calls.append(1)
        return ids, mat

    VectorIndex(tmp_path, 8).load(3, rebuild)
    VectorIndex(tmp_path, 8).load(3, rebuild)
    assert len(calls) == 1
    VectorIndex(tmp_path, 8).load(4, rebuild)
    assert len(calls) == 2


def test_hnsw_above_threshold_agrees_with_exact(tmp_path, monkeypatch):
    monkeypatch.setattr(vmod, "HNSW_THRESHOLD", 100)
    ids, mat = _data(500, dim=16, seed=1)
    index = VectorIndex(tmp_path, 16)
    index.load(1, lambda: (ids, mat))
    assert index._hnsw is not None
    q = mat[42].astype(np.float32)
    assert index.search(q, 1)[0][0] == 142
    # the saved graph is reopened (memory-mapped) instead of rebuilt
    again = VectorIndex(tmp_path, 16)
    again.load(1, lambda: (_ for _ in ()).throw(AssertionError("rebuilt")))
    assert again.search(q, 1)[0][0] == 142


def test_empty_index(tmp_path):
    index = VectorIndex(tmp_path, 8)
    index.load(1, lambda: (np.zeros(0, dtype=np.int64), np.zeros((0, 8), dtype=np.float16)))
    assert index.search(np.ones(8, dtype=np.float32), 5) == []
