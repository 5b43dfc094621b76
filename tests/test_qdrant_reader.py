"""Reader mode: a second machine with only the Qdrant URL (no ``.codesift``, no checkout) runs the read tools.

A writer indexes the parity fixture with backend qdrant into a local-mode folder; its checkout is then
moved away and an empty folder reads the service from the collection, through the API and the CLI. The
answers must be the writer's, nothing may be written, and a model mismatch is said plainly.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

pytest.importorskip("qdrant_client")

from codesift import Index  # noqa: E402
from codesift.cli.app import main  # noqa: E402

from conftest import write_repo  # noqa: E402
from test_qdrant_parity import FILES, QUERIES  # noqa: E402

SERVICE = "repo"
SYMBOLS = ["TokenSigner", "sign", "Rate", "parse_json", "LRU"]


def _top(idx: Index, query: str, mode: str = "keyword") -> list[tuple]:
    return [(r.chunk_id, r.path, r.start_line, r.qualified_name) for r in idx.search(query, mode=mode, limit=5).results]


def _symbols(idx: Index) -> dict[str, list[tuple]]:
    return {n: [(h["id"], h["path"], h["qualified_name"], h["match"]) for h in idx.find_symbol(n)] for n in SYMBOLS}


def _writer(tmp_path: Path, monkeypatch, embedder: str) -> tuple[Path, Path]:
    """Index the fixture as service ``repo``; return (its checkout, the Qdrant folder)."""
    folder = tmp_path / "qdrant"
    monkeypatch.setenv("CODESIFT_BACKEND", "qdrant")
    monkeypatch.setenv("CODESIFT_QDRANT_URL", str(folder))
    monkeypatch.setenv("CODESIFT_EMBEDDER", embedder)
    for var in ("CODESIFT_QDRANT_API_KEY", "CODESIFT_QDRANT_COLLECTION", "CODESIFT_QDRANT_SERVICE"):
        monkeypatch.delenv(var, raising=False)
    return write_repo(tmp_path / "w" / SERVICE, FILES), folder


def _point_count(folder: Path) -> int:
    from qdrant_client import QdrantClient

    client = QdrantClient(path=str(folder))
    try:
        return client.count("codesift", exact=True).count
    finally:
        client.close()


@pytest.fixture
def keyword_writer(tmp_path: Path, monkeypatch):
    """The writer's answers (keyword only), its checkout moved away, and an empty reader root."""
    checkout, folder = _writer(tmp_path, monkeypatch, "none")
    with Index(checkout) as idx:
        idx.update()
        want = {"top": {q: _top(idx, q) for q in QUERIES}, "symbols": _symbols(idx),
                "summary": idx.summarize_matches("token", limit=10), "chunks": idx.store.chunk_count(),
                "counts": idx.store.counts(embedded=0),
                "sign_line": idx.find_usages("sign")["usages"][0]["line"]}
    shutil.move(str(checkout.parent), str(tmp_path / "moved"))
    reader_root = tmp_path / "elsewhere" / "empty"
    reader_root.mkdir(parents=True)
    monkeypatch.setenv("CODESIFT_QDRANT_SERVICE", SERVICE)
    return want, reader_root, folder, tmp_path / "moved" / SERVICE


def test_reader_answers_like_the_writer_and_writes_nothing(keyword_writer) -> None:
    want, root, folder, _ = keyword_writer
    before = _point_count(folder)
    with Index(root) as idx:
        assert idx.remote is not None and idx.store.chunk_count() == want["chunks"]
        assert {q: _top(idx, q) for q in QUERIES} == want["top"]
        assert _symbols(idx) == want["symbols"]
        assert idx.summarize_matches("token", limit=10) == want["summary"]
        assert idx.update().files_parsed == 0  # a reader has nothing to refresh
        status = idx.status()
        assert status["mode"] == "reader" and status["index_dir"] is None
        assert {k: status[k] for k in ("files", "chunks", "symbols")} == {k: want["counts"][k] for k in
                                                                           ("files", "chunks", "symbols")}
        assert status["qdrant"]["service"] == SERVICE and status["qdrant"]["points"] == want["chunks"]
        assert status["embedding_status"] == "keyword_only"
        sources = idx.list_sources()
        assert sources == [{"service": SERVICE, "collection": "codesift", "chunks": want["chunks"],
                            "files": want["counts"]["files"], "symbols": want["counts"]["symbols"], "model": None,
                            "reading": True}]
        usages = idx.find_usages("TokenSigner")  # no static use in the fixture: no word about Qdrant
        assert usages["source"] == "semantic_guess" and "Qdrant" not in str(usages["note"])
        assert idx.find_usages("sign")["usages"][0]["line"] == want["sign_line"]  # references are read
        with pytest.raises(LookupError, match="semantic search is unavailable"):
            idx.find_similar(want["top"]["hmac"][0][0])
    assert list(root.iterdir()) == [] and not (root / ".codesift").exists()
    assert _point_count(folder) == before


def test_code_context_is_the_stored_text_without_the_checkout(keyword_writer) -> None:
    _, root, _, checkout = keyword_writer
    with Index(root) as idx:
        ctx = idx.get_code_context("app/auth/tokens.py", "TokenSigner.verify")
        assert ctx["source"] == "qdrant (stored text)" and "no such file here" in ctx["note"]
        assert ctx["code"].strip().startswith("def verify(") and "compare_digest" in ctx["code"]
        whole = idx.get_code_context("app/auth/tokens.py")
        assert whole["code"].splitlines() == (checkout / "app/auth/tokens.py").read_text().splitlines()
    # The checkout is back where the reader looks: the live file, as long as it is the indexed one.
    shutil.copytree(checkout / "app", root / "app")
    with Index(root) as idx:
        assert idx.get_code_context("app/auth/tokens.py", "refresh_token")["source"] == "live file"
        (root / "app/auth/tokens.py").write_text("changed = 1\n")
        ctx = idx.get_code_context("app/auth/tokens.py", "refresh_token")
        assert ctx["source"] == "qdrant (stored text)" and "differs" in ctx["note"]
    assert not (root / ".codesift").exists()


def test_cli_reads_from_another_root(keyword_writer, monkeypatch) -> None:
    want, root, folder, _ = keyword_writer
    monkeypatch.delenv("CODESIFT_QDRANT_SERVICE")
    monkeypatch.delenv("CODESIFT_QDRANT_URL")
    base = ["--backend", "qdrant", "--qdrant-url", str(folder), "--qdrant-service", SERVICE]
    run = CliRunner().invoke
    result = run(main, [*base, "search", "verify token signature", "--mode", "keyword", "--json", "-n", "5",
                        "--root", str(root)])
    assert result.exit_code == 0, result.output
    got = json.loads(result.stdout)
    assert [(r["path"], r["start_line"]) for r in got] == [(t[1], t[2]) for t in want["top"]["verify token signature"]]
    result = run(main, [*base, "symbol", "TokenSigner", "--root", str(root)])
    assert result.exit_code == 0 and "app/auth/tokens.py" in result.output, result.output
    assert not (root / ".codesift").exists()
    # Every service of the collection: paths under <service>/, a --service filter inside Qdrant.
    result = run(main, ["--backend", "qdrant", "--qdrant-url", str(folder), "--qdrant-service", "*", "search",
                        "verify token", "--mode", "keyword", "--json", "--root", str(root), "--service", SERVICE])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)[0]["path"] == f"{SERVICE}/app/auth/tokens.py"
    result = run(main, [*base, "status", str(root), "--json"])
    assert result.exit_code == 0, result.output
    info = json.loads(result.stdout)
    assert info["mode"] == "reader" and info["chunks"] == want["chunks"] and info["qdrant"]["service"] == SERVICE
    assert not (root / ".codesift").exists()


def test_index_still_writes_and_a_missing_service_is_a_writer(keyword_writer, monkeypatch) -> None:
    _, root, folder, checkout = keyword_writer
    monkeypatch.setenv("CODESIFT_QDRANT_SERVICE", "nothing-here")
    with pytest.raises(Exception, match="no index"):
        Index(root, create=False)
    assert not (root / ".codesift").exists()
    monkeypatch.setenv("CODESIFT_QDRANT_SERVICE", SERVICE)
    with Index(checkout, reader=False) as idx:  # `codesift index`: this tree is written, not read
        assert idx.remote is None
        idx.update()
    assert (checkout / ".codesift" / "meta.db").is_file()


@pytest.mark.model
def test_reader_with_the_model_and_a_mismatch(tmp_path: Path, monkeypatch) -> None:
    checkout, folder = _writer(tmp_path, monkeypatch, "local")
    monkeypatch.delenv("CODESIFT_EMBEDDER")
    with Index(checkout) as idx:
        idx.update()
        want = {q: _top(idx, q, "hybrid") for q in QUERIES[:4]}
        source = want[QUERIES[0]][0][0]
        similar = [(h["id"], h["path"]) for h in idx.find_similar(source, limit=5)]
        drill = [h["path"] for h in idx.drill_down(source, limit=3)]
        model = idx.status()["model"]
    shutil.rmtree(checkout.parent)
    root = tmp_path / "reader"
    root.mkdir()
    monkeypatch.setenv("CODESIFT_QDRANT_SERVICE", SERVICE)
    with Index(root) as idx:
        assert {q: _top(idx, q, "hybrid") for q in want} == want
        assert [(h["id"], h["path"]) for h in idx.find_similar(source, limit=5)] == similar
        assert [h["path"] for h in idx.drill_down(source, limit=3)] == drill
        status = idx.status()
        assert status["model"] == model and status["coverage"] == 1.0 and status["embedding_status"] == "ok"
    # Another model on the reader: keyword results, and the reason says which models differ.
    from codesift.search import dense as api_dense

    class Other:
        model_id, dim = "someone/else-model", 384

        def embed_query(self, text: str):  # pragma: no cover - never reached
            raise AssertionError

    monkeypatch.setattr(api_dense, "load_embedder", lambda name, env: Other())
    with Index(root) as idx:
        response = idx.search("verify token signature")
        assert response.mode == "keyword" and response.embedding_status == "keyword_only"
        assert any("model mismatch" in n and model in n and "someone/else-model" in n for n in response.notes)
        assert idx.find_similar(source, limit=5)  # stored vectors compare without the model
    assert list(root.iterdir()) == []
