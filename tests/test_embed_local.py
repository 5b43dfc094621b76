"""The local MiniLM provider: its optimized-graph cache gives the same vectors and survives damage."""

import numpy as np
import pytest

from codesift.embed.base import EmbeddingUnavailable

TEXTS = ["def parse_args(argv): return argv", "follow redirects", "class CookieJar:\n    pass"]


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("CODESIFT_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache" / "models"


@pytest.mark.model
def test_optimized_graph_is_cached_and_gives_the_same_vectors(cache):
    from codesift.embed.local import MiniLMEmbedder

    first = MiniLMEmbedder()
    saved = [p for p in cache.iterdir()]
    assert len(saved) == 1 and not saved[0].name.endswith(".tmp")
    assert (saved[0] / "model.onnx").is_file() and (saved[0] / "weights.bin").stat().st_size > 10_000_000
    again = MiniLMEmbedder()  # loads the saved graph
    assert np.allclose(first.embed(TEXTS), again.embed(TEXTS), atol=1e-6)
    assert np.allclose(first.embed_query("redirect"), again.embed_query("redirect"), atol=1e-6)


@pytest.mark.model
def test_a_damaged_cached_graph_is_replaced(cache):
    from codesift.embed.local import MiniLMEmbedder

    reference = MiniLMEmbedder().embed(TEXTS)
    saved = next(cache.iterdir()) / "model.onnx"
    saved.write_bytes(b"not a model")
    embedder = MiniLMEmbedder()
    assert np.allclose(embedder.embed(TEXTS), reference, atol=1e-6)
    assert saved.stat().st_size > 1000  # rewritten by the fresh optimization


@pytest.mark.model
def test_unwritable_cache_folder_still_loads(tmp_path, monkeypatch):
    from codesift.embed.local import MiniLMEmbedder

    blocker = tmp_path / "file"
    blocker.write_text("a file where the cache folder should be")
    monkeypatch.setenv("CODESIFT_CACHE_DIR", str(blocker))
    assert MiniLMEmbedder().embed_query("x").shape == (384,)


def test_missing_model_names_the_fix(tmp_path, monkeypatch):
    from codesift.embed.local import MiniLMEmbedder

    monkeypatch.setenv("CODESIFT_MODEL_PATH", str(tmp_path / "absent.onnx"))
    with pytest.raises(EmbeddingUnavailable) as err:
        MiniLMEmbedder()
    assert "pip install" in err.value.fix


@pytest.mark.model
def test_release_batch_drops_the_document_session_until_the_next_batch(cache):
    from codesift.embed.local import MiniLMEmbedder

    embedder = MiniLMEmbedder()
    first = embedder.embed(TEXTS)
    assert embedder._session is not None
    embedder.release_batch()
    assert embedder._session is None
    assert np.allclose(embedder.embed_query("redirect"), MiniLMEmbedder().embed_query("redirect"), atol=1e-6)
    assert np.allclose(embedder.embed(TEXTS), first, atol=1e-6)  # made again on demand


@pytest.mark.model
def test_failing_to_save_the_optimized_graph_still_loads_the_model(cache, monkeypatch):
    import codesift.embed.local as local

    monkeypatch.setattr(local, "_OPTIMIZED_WEIGHTS", "no/such/folder/weights.bin")  # the save fails
    assert local.MiniLMEmbedder().embed_query("redirect").shape == (384,)
    assert list(cache.iterdir()) == []  # nothing half-written is left behind


@pytest.mark.model
def test_half_written_saves_of_dead_processes_are_removed(cache):
    import os
    import time

    import onnxruntime

    from codesift.config.env import read_env
    from codesift.embed.local import MiniLMEmbedder, _optimized_dir, query_model_file

    # the session made first
    target = _optimized_dir(query_model_file(None, read_env()), onnxruntime.__version__, cache.parent)
    stale, fresh = target.with_name(f"{target.name}.999999.tmp"), target.with_name(f"{target.name}.999998.tmp")
    for folder in (stale, fresh):
        folder.mkdir(parents=True)
        (folder / "weights.bin").write_bytes(b"partial")
    old = time.time() - 3600
    os.utime(stale, (old, old))
    MiniLMEmbedder()
    assert not stale.exists() and fresh.exists()  # a recent one may still be being written
    assert (target / "model.onnx").is_file()


def test_an_unknown_local_model_names_the_choices(monkeypatch):
    from codesift.embed.local import MiniLMEmbedder

    monkeypatch.setenv("CODESIFT_EMBED_MODEL", "codebert")
    with pytest.raises(EmbeddingUnavailable) as err:
        MiniLMEmbedder()
    assert "codebert" in err.value.reason and "minilm" in err.value.fix


@pytest.mark.model
def test_a_model_file_override_gets_its_own_id(tmp_path, monkeypatch):
    """Another file under a known model's id would mix two models' vectors in indexes and the cache."""
    import shutil

    from codesift.config.env import Environment
    from codesift.embed.local import LOCAL_MODELS, MiniLMEmbedder, model_files

    copy = tmp_path / "model.onnx"
    shutil.copy(model_files(LOCAL_MODELS["minilm"], Environment())[0], copy)
    monkeypatch.setenv("CODESIFT_MODEL_PATH", str(copy))
    embedder = MiniLMEmbedder()
    assert embedder.model_id.startswith("file:model.onnx:")
    assert embedder.model_id not in {m.model_id for m in LOCAL_MODELS.values()}


@pytest.mark.model
def test_a_query_model_override_gets_its_own_id_and_answers_queries_only(tmp_path, monkeypatch):
    import shutil

    from codesift.config.env import Environment
    from codesift.embed.local import LOCAL_MODELS, MiniLMEmbedder, model_files

    copy = tmp_path / "tower.onnx"
    shutil.copy(model_files(LOCAL_MODELS["minilm"], Environment())[0], copy)  # the base model's file as the "tower"
    monkeypatch.setenv("CODESIFT_QUERY_MODEL_PATH", str(copy))
    embedder, base = MiniLMEmbedder(), MiniLMEmbedder(model="minilm")
    assert embedder.model_id == base.model_id  # documents: the base model, as before
    assert embedder.query_model_id.startswith("file:tower.onnx:")
    assert np.allclose(embedder.embed_query("redirect"), base.embed_query("redirect"), atol=1e-6)


def test_a_missing_query_model_names_the_fix(tmp_path, monkeypatch):
    from codesift.embed.local import MiniLMEmbedder

    monkeypatch.setenv("CODESIFT_QUERY_MODEL_PATH", str(tmp_path / "absent.onnx"))
    with pytest.raises(EmbeddingUnavailable) as err:
        MiniLMEmbedder()
    assert "absent.onnx" in err.value.reason and "CODESIFT_QUERY_MODEL_PATH" in err.value.fix
