"""The Qdrant backend on qdrant-client's local mode: settings, writes, re-runs, deletes and failures."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

pytest.importorskip("qdrant_client")

from codesift import Index  # noqa: E402
from codesift.cli.app import main  # noqa: E402
from codesift.config.settings import ConfigError, load_config  # noqa: E402
from codesift.qdrant import sync as qdrant_sync  # noqa: E402
from codesift.qdrant.collection import QdrantCollection, QdrantMissing, QdrantUnavailable  # noqa: E402
from codesift.query.translate import translations  # noqa: E402

from conftest import free_port  # noqa: E402


@pytest.fixture
def qdrant_env(monkeypatch, tmp_path: Path) -> Path:
    """Backend qdrant on a local-mode folder, keyword only (fast); returns the folder."""
    folder = tmp_path / "qdrant"
    monkeypatch.setenv("CODESIFT_BACKEND", "qdrant")
    monkeypatch.setenv("CODESIFT_QDRANT_URL", str(folder))
    monkeypatch.setenv("CODESIFT_EMBEDDER", "none")
    monkeypatch.delenv("CODESIFT_QDRANT_API_KEY", raising=False)
    monkeypatch.delenv("CODESIFT_QDRANT_COLLECTION", raising=False)
    return folder


def _points(idx: Index) -> dict[int, dict]:
    assert idx.qdrant is not None
    return idx.qdrant.scroll_payloads(["path", "chunk_id", "name"])


# -- settings ---------------------------------------------------------------------------------------
def test_settings_from_the_file_and_env_wins(tmp_path: Path, monkeypatch) -> None:
    for var in ("CODESIFT_BACKEND", "CODESIFT_QDRANT_URL", "CODESIFT_QDRANT_API_KEY", "CODESIFT_QDRANT_COLLECTION"):
        monkeypatch.delenv(var, raising=False)
    assert load_config(tmp_path).backend == "embedded"
    (tmp_path / "codesift.toml").write_text(
        'backend = "qdrant"\nqdrant_url = "http://db:6333"\nqdrant_collection = "code"\nqdrant_api_key = "k"\n')
    cfg = load_config(tmp_path)
    assert (cfg.backend, cfg.qdrant_url, cfg.qdrant_collection, cfg.qdrant_api_key) == (
        "qdrant", "http://db:6333", "code", "k")
    monkeypatch.setenv("CODESIFT_QDRANT_URL", ":memory:")
    monkeypatch.setenv("CODESIFT_QDRANT_API_KEY", "secret")
    monkeypatch.setenv("CODESIFT_BACKEND", "Embedded")
    cfg = load_config(tmp_path)
    assert (cfg.backend, cfg.qdrant_url, cfg.qdrant_api_key) == ("embedded", ":memory:", "secret")


def test_bad_backend_settings_are_refused(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.delenv("CODESIFT_QDRANT_URL", raising=False)
    monkeypatch.setenv("CODESIFT_BACKEND", "elastic")
    with pytest.raises(ConfigError, match="backend must be one of embedded, qdrant"):
        load_config(tmp_path)
    monkeypatch.setenv("CODESIFT_BACKEND", "qdrant")
    with pytest.raises(ConfigError, match="CODESIFT_QDRANT_URL"):
        load_config(tmp_path)


# -- failures: one line, exit 2, nothing written ----------------------------------------------------
def test_missing_extra_names_the_pip_command(repo: Path, qdrant_env: Path, monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "qdrant_client", None)  # import fails as if not installed
    with pytest.raises(QdrantMissing, match=r"pip install 'codesift\[qdrant\]'"):
        Index(repo)
    result = CliRunner().invoke(main, ["index", str(repo)])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert result.output.strip().splitlines() == [result.output.strip()]
    assert "pip install 'codesift[qdrant]'" in result.output
    assert not (repo / ".codesift").exists() and not qdrant_env.exists()


def test_unreachable_server_is_one_line_exit_2_nothing_written(repo: Path, qdrant_env: Path, monkeypatch) -> None:
    url = f"http://127.0.0.1:{free_port()}"  # nobody listens there
    monkeypatch.setenv("CODESIFT_QDRANT_URL", url)
    for args in (["index", str(repo)], ["search", "redirect", "--root", str(repo)]):
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 2, result.output
        line = result.output.strip()
        assert "\n" not in line and "Traceback" not in line
        assert line.startswith(f"codesift: cannot use Qdrant at {url} while connecting") and "start the server" in line
    assert not (repo / ".codesift").exists()


def test_cli_backend_option_wins(repo: Path, qdrant_env: Path, monkeypatch) -> None:
    monkeypatch.setenv("CODESIFT_BACKEND", "embedded")
    url = f"http://127.0.0.1:{free_port()}"
    result = CliRunner().invoke(main, ["--backend", "qdrant", "--qdrant-url", url, "index", str(repo)])
    assert result.exit_code == 2 and url in result.output


def test_a_file_as_local_folder_is_refused(repo: Path, qdrant_env: Path, monkeypatch, tmp_path: Path) -> None:
    bad = tmp_path / "afile"
    bad.write_text("x")
    monkeypatch.setenv("CODESIFT_QDRANT_URL", str(bad))
    with pytest.raises(QdrantUnavailable, match="is a file"):
        Index(repo)


def test_collection_of_another_dimension_is_refused(repo: Path, qdrant_env: Path) -> None:
    from qdrant_client import QdrantClient

    client = QdrantClient(path=str(qdrant_env))
    coll = QdrantCollection(client, str(qdrant_env), "codesift", "repo")
    coll.ensure(8)
    with pytest.raises(QdrantUnavailable, match="dimension 8, the embedder gives 384"):
        coll.ensure(384)
    client.close()


def test_the_collection_layout_settings_reach_a_new_collection(repo: Path, qdrant_env: Path) -> None:
    (repo / "codesift.toml").write_text("qdrant_shards = 3\nqdrant_replicas = 2\nqdrant_on_disk = true\n"
                                        'qdrant_quantization = "int8"\n')
    with Index(repo) as idx:
        assert tuple(idx.qdrant.layout) == (3, 2, True, "int8")
        # Local mode keeps no shards, replicas or quantization: what the server would be asked is checked.
        client, asked = idx.qdrant.client, {}
        create = client.create_collection
        client.create_collection = lambda name, **kw: asked.update(kw) or create(name, **kw)
        idx.qdrant.ensure(8)
        assert asked["shard_number"] == 3 and asked["replication_factor"] == 2
        assert asked["vectors_config"]["dense"].on_disk is True
        assert asked["sparse_vectors_config"]["bm25"].index.on_disk is True
        assert asked["quantization_config"].scalar.type == "int8" and asked["quantization_config"].scalar.always_ram
    (repo / "codesift.toml").write_text('qdrant_quantization = "binary"\n')
    with pytest.raises(ConfigError, match="qdrant_quantization must be none or int8"):
        load_config(repo)


# -- writes ----------------------------------------------------------------------------------------
def test_index_writes_one_point_per_chunk_with_its_payload(repo: Path, qdrant_env: Path) -> None:
    with Index(repo) as idx:
        idx.update(embed=False)
        points = idx.qdrant.scroll_payloads(["service", "path", "dirs", "language", "kind", "name", "qualified_name",
                                             "start_line", "end_line", "signature", "docstring", "decorators",
                                             "route", "content_hash", "text", "chunk_id", "parent"])
        assert len(points) == idx.store.chunk_count() > 5
        rows = idx.store.chunks_by_id(p["chunk_id"] for p in points.values())
        for p in points.values():
            row = rows[p["chunk_id"]]
            assert p["service"] == "repo" and p["path"] == row.path and p["text"] == row.text
            assert (p["start_line"], p["end_line"], p["kind"], p["name"]) == (
                row.start_line, row.end_line, row.kind, row.name)
            assert p["content_hash"] == row.embed_hash and p["dirs"][-1] == row.path
        assert all(0 <= pid < 2**64 for pid in points)
        # The keyword search answers from Qdrant: the tantivy index is not asked.
        idx.keyword.search = None  # type: ignore[assignment]
        response = idx.search("rebuild_auth", mode="keyword", limit=3)
        assert response.results[0].qualified_name == "SessionRedirectMixin.rebuild_auth"


def test_reindex_never_duplicates_and_deleted_files_leave(repo: Path, qdrant_env: Path) -> None:
    with Index(repo) as idx:
        idx.update(embed=False)
        first = _points(idx)
    with Index(repo) as idx:  # a re-run of an unchanged tree writes nothing
        idx.store.set_meta("qdrant_synced", "")  # and even a forced full diff keeps the same points
        idx.update(embed=False)
        assert _points(idx).keys() == first.keys()
    cookies = repo / "src/http/cookies.py"
    cookies.unlink()
    sessions = repo / "src/http/sessions.py"
    sessions.write_text(sessions.read_text() + textwrap.dedent('''

        def follow_once(resp):
            """One more function."""
            return resp
        '''))
    with Index(repo) as idx:
        idx.update(embed=False)
        now = _points(idx)
        assert len(now) == idx.store.chunk_count()
        assert not any(p["path"] == "src/http/cookies.py" for p in now.values())
        assert sum(p["name"] == "follow_once" for p in now.values()) == 1
        # Unchanged symbols keep their point ids; their payload follows the new chunk ids.
        kept = {pid for pid, p in first.items() if p["path"] == "src/http/sessions.py"}
        assert kept <= now.keys()
        assert {p["chunk_id"] for p in now.values()} == set(idx.store.chunks_by_id(
            p["chunk_id"] for p in now.values()))


def test_a_sync_that_dies_half_way_is_finished_by_the_next_run(repo: Path, qdrant_env: Path, monkeypatch) -> None:
    monkeypatch.setattr(qdrant_sync, "WRITE_BATCH", 2)
    real = QdrantCollection.upsert
    calls = {"n": 0}

    def dying(self, points):
        calls["n"] += 1
        if calls["n"] == 3:
            raise QdrantUnavailable("cannot use Qdrant: connection lost")
        return real(self, points)

    monkeypatch.setattr(QdrantCollection, "upsert", dying)
    with Index(repo) as idx:
        with pytest.raises(QdrantUnavailable):
            idx.update(embed=False)
        assert 0 < len(_points(idx)) < idx.store.chunk_count()
    monkeypatch.setattr(QdrantCollection, "upsert", real)
    with Index(repo) as idx:
        idx.update(embed=False)  # nothing changed on disk: the unfinished sync is redone all the same
        points = _points(idx)
        assert len(points) == idx.store.chunk_count()
        assert len({p["chunk_id"] for p in points.values()}) == len(points)


@pytest.mark.parametrize("filters", [{"path": "src/"}, {"path": "src/http/sessions.py"}, {"path": "src/ht"},
                                     {"path": "**/*.js"}, {"language": "python"}, {"kind": "method,function"},
                                     {"path": "nowhere/*.py"}])
def test_filters_match_the_embedded_backend(repo: Path, qdrant_env: Path, monkeypatch, filters: dict) -> None:
    query = "redirect request parse session cookie"
    with Index(repo) as idx:
        idx.update(embed=False)
        got = [(r.path, r.start_line) for r in idx.search(query, mode="keyword", limit=20, **filters).results]
    monkeypatch.setenv("CODESIFT_BACKEND", "embedded")
    with Index(repo) as idx:
        want = [(r.path, r.start_line) for r in idx.search(query, mode="keyword", limit=20, **filters).results]
    assert got == want


def test_every_word_first_and_expansion_match_the_embedded_backend(repo: Path, qdrant_env: Path, monkeypatch) -> None:
    (repo / "codesift.toml").write_text('query_expansion = "vocab"\n\n[rank]\nkeyword_and_first = true\n')
    queries = ["redirect auth header", "cookie jar get", "follow redirect host", "merge request setting",
               "parse body json", "install redirect helpers"]
    assert all(translations(q) for q in queries)  # lift terms (codesift.query.translate) on both sides too
    with Index(repo) as idx:
        assert idx.config.rank.keyword_and_first
        idx.update(embed=False)
        got = {q: [(r.path, r.start_line) for r in idx.search(q, mode="keyword", limit=8).results] for q in queries}
    monkeypatch.setenv("CODESIFT_BACKEND", "embedded")
    with Index(repo) as idx:
        want = {q: [(r.path, r.start_line) for r in idx.search(q, mode="keyword", limit=8).results] for q in queries}
    assert got == want and all(want.values())


def test_memory_mode_is_filled_in_every_process(repo: Path, qdrant_env: Path, monkeypatch) -> None:
    monkeypatch.setenv("CODESIFT_QDRANT_URL", ":memory:")
    for _ in range(2):  # the second Index starts with an empty collection: the update fills it again
        with Index(repo) as idx:
            idx.update(embed=False)
            assert idx.qdrant.count() == idx.store.chunk_count()
            assert idx.search("RequestsCookieJar", mode="keyword").results[0].name == "RequestsCookieJar"


@pytest.mark.slow  # five commands, each after a full gc.collect() (the local-mode folder lock)
def test_cli_index_search_status_on_qdrant(repo: Path, qdrant_env: Path) -> None:
    import json

    import gc

    def invoke(*args: str):
        # Each command runs in this process: its Index (and the local-mode folder's lock, which one
        # process at a time may hold) must be gone before the next, as a CLI process exiting would.
        gc.collect()
        return runner.invoke(main, list(args))

    runner = CliRunner()
    assert invoke("index", str(repo), "-q").exit_code == 0
    result = invoke("search", "rebuild_auth", "--json", "--mode", "keyword", "--root", str(repo))
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)[0]["qualified_name"] == "SessionRedirectMixin.rebuild_auth"
    status = json.loads(invoke("status", str(repo), "--json").stdout)
    assert status["backend"] == "qdrant" and status["qdrant"] == {"url": str(qdrant_env), "collection": "codesift",
                                                                  "service": "repo"}
    assert invoke("index", str(repo), "-q", "--rebuild").exit_code == 0
    gc.collect()
    with Index(repo) as idx:
        assert idx.qdrant.count() == idx.store.chunk_count()
