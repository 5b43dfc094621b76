import shutil

import numpy as np
import pytest
from conftest import marks_users

from codesift import Index
from codesift.config.settings import Config
from codesift.store.cache import EmbeddingCache


def test_cache_round_trip_and_model_separation(tmp_path):
    cache = EmbeddingCache(tmp_path / "c.db")
    vecs = np.eye(3, 4, dtype=np.float32)
    cache.put_many("m1", ["a", "b", "c"], vecs)
    got = cache.get_many("m1", ["a", "c", "zz"], 4)
    assert set(got) == {"a", "c"} and np.allclose(got["c"], vecs[2])
    assert cache.get_many("m2", ["a"], 4) == {}
    assert cache.get_many("m1", ["a"], 8) == {}  # wrong dimension is a miss, not an error


def test_unusable_cache_location_is_ignored(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    cache = EmbeddingCache(blocker / "sub" / "c.db")
    assert cache.get_many("m", ["a"], 4) == {}
    cache.put_many("m", ["a"], np.zeros((1, 4)))


@pytest.fixture
@marks_users("model")
def clone(repo, tmp_path, monkeypatch):
    """A copy of ``repo`` (no index) after ``repo`` was indexed and embedded into a fresh machine-wide cache."""
    monkeypatch.setenv("CODESIFT_CACHE_DIR", str(tmp_path / "shared"))
    with Index(repo) as first:
        first.update()
    copy = tmp_path / "clone"
    shutil.copytree(repo, copy, ignore=shutil.ignore_patterns(".codesift"))
    return copy


def _counting(index: Index, monkeypatch, calls: list[int], run_model: bool = True) -> None:
    embedder = index.embedder()
    real = embedder.embed
    monkeypatch.setattr(embedder, "embed", lambda texts: calls.append(len(texts)) or (real(texts) if run_model else []))


def test_a_second_clone_reuses_the_first_clones_vectors(clone, monkeypatch):
    calls: list[int] = []
    with Index(clone) as second:
        _counting(second, monkeypatch, calls)
        stats = second.update()
        assert stats.embedded > 0 and calls == []  # every vector came from the shared cache
        assert second.status()["coverage"] == 1.0
        assert second.search("rebuild_auth", mode="semantic").results


def test_a_search_over_the_threshold_still_takes_what_the_cache_holds(clone, monkeypatch):
    (clone / "src" / "http" / "new.py").write_text("def brand_new_helper():\n    return 42\n")
    calls: list[int] = []
    # batches of 3: the text the cache lacks is in one of them, and the fill goes on past it
    with Index(clone, config=Config(embed_batch=3)) as second:
        _counting(second, monkeypatch, calls, run_model=False)
        stats = second.update(embed_threshold=1)  # what a CLI search runs first: never the model on a tree
        pending = second.store.count_missing_embeddings()
        assert calls == [] and stats.embedded > 0 and pending == stats.embed_pending == 1  # only the new text
        assert second.search("rebuild_auth", mode="semantic").results
