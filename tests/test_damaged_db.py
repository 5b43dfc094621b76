"""Issue 45: a damaged ``.codesift/meta.db`` (truncated, a zero-filled region, a garbled header) ends in one
line saying so, never a traceback; a read-only command exits non-zero; ``codesift index`` (no flag) sets the
damaged file aside and rebuilds the index whole."""

from __future__ import annotations

import gc
import json
import sqlite3
from pathlib import Path

import pytest

from conftest import run_cli

NAME = "rebuild_auth"


def _checkpointed(repo: Path) -> Path:
    """The index's database with everything in its main file (as after a clean exit: no WAL left)."""
    gc.collect()  # the CLI's Index objects and their connections
    db = repo / ".codesift" / "meta.db"
    con = sqlite3.connect(db)
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()
    return db


def _top(output: str) -> str:
    lines = [ln for ln in output.splitlines() if ln.strip() and not ln.startswith(("note:", "codesift:"))]
    return lines[0] if lines else ""


def _damage(db: Path, kind: str) -> None:
    data = bytearray(db.read_bytes())
    if kind == "truncated":
        data = data[: len(data) // 2]
    elif kind == "zeroed":  # every page after the schema's first: the tables a search reads among them
        data[4096:] = bytes(len(data) - 4096)
    elif kind == "zeroed-middle":  # pages a search never reads (references, names): only a full check sees them
        third = len(data) // 3 // 4096 * 4096
        data[third : 2 * third] = bytes(third)
    else:  # garbled header
        data[:16] = b"garbage garbage!"
    db.write_bytes(bytes(data))


@pytest.fixture
def built(repo: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, int, str]:
    """The fixture repository indexed by the CLI without embeddings: (repo, symbols, top result for NAME)."""
    monkeypatch.setenv("CODESIFT_EMBEDDER", "none")
    assert run_cli("index", "-q", str(repo)).exit_code == 0
    symbols = json.loads(run_cli("status", "--json", str(repo)).output)["symbols"]
    top = _top(run_cli("search", "--no-update", NAME, cwd=repo).output)
    assert symbols > 0 and "sessions.py" in top
    return repo, symbols, top


def _one_line(result, *words: str) -> None:
    assert "Traceback" not in result.output and not isinstance(result.exception, sqlite3.Error), result.exception
    lines = [ln for ln in result.output.splitlines() if "damaged (" in ln]
    assert len(lines) == 1, result.output
    for word in words:
        assert word in lines[0], lines[0]


@pytest.mark.parametrize("kind", ["truncated", "zeroed", "header"])
def test_read_only_commands_say_damaged_and_exit_non_zero(built, kind: str) -> None:
    repo, _, _ = built
    db = _checkpointed(repo)
    _damage(db, kind)
    for args in (["search", "--no-update", NAME], ["status"]):
        result = run_cli(*args, cwd=repo)
        assert result.exit_code != 0, (args, result.output)
        _one_line(result, "meta.db", "codesift index")
    assert db.is_file() and not list(db.parent.glob("meta.db.damaged-*"))  # a reader moves nothing


@pytest.mark.parametrize("kind", ["truncated", "zeroed", "zeroed-middle", "header"])
def test_index_repairs_a_damaged_database(built, kind: str) -> None:
    repo, symbols, top = built
    db = _checkpointed(repo)
    _damage(db, kind)
    result = run_cli("index", "-q", cwd=repo)
    assert result.exit_code == 0, result.output
    _one_line(result, "meta.db.damaged-")
    kept = list(db.parent.glob("meta.db.damaged-*"))
    assert len(kept) == 1 and str(kept[0]) in result.output
    status = json.loads(run_cli("status", "--json", cwd=repo).output)
    assert status["symbols"] == symbols
    assert "meta.db.damaged-" in status["repaired"]["database"]["repaired"]
    plain = run_cli("status", cwd=repo).output.splitlines()
    assert any(ln.startswith("repaired") and "meta.db.damaged-" in ln for ln in plain), plain
    assert _top(run_cli("search", "--no-update", NAME, cwd=repo).output) == top
    again = run_cli("index", "-q", cwd=repo)  # said once: the next run is quiet about it
    assert again.exit_code == 0 and "damaged (" not in again.output


@pytest.mark.parametrize("kind", ["truncated", "zeroed", "header"])
def test_search_that_refreshes_repairs_and_answers(built, kind: str) -> None:
    repo, symbols, top = built
    db = _checkpointed(repo)
    _damage(db, kind)
    result = run_cli("search", NAME, cwd=repo)
    assert result.exit_code == 0, result.output
    _one_line(result, "meta.db.damaged-")
    assert _top(result.output) == top
    assert json.loads(run_cli("status", "--json", cwd=repo).output)["symbols"] == symbols


def test_doctor_runs_the_integrity_check(built) -> None:
    repo, _, _ = built
    db = _checkpointed(repo)
    _damage(db, "zeroed")
    result = run_cli("doctor", "--json", str(repo))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    health = json.loads(result.output[result.output.index("{"):])["health"]
    assert "btreeInitPage" in health["damaged"] or "malformed" in health["damaged"]
    assert any("damaged (" in p and "codesift index" in p for p in health["problems"])


def test_a_repair_embeds_nothing_twice(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The rebuilt database takes its vectors from the machine-wide cache: the model sees no text again."""
    from test_embed_order import CountingEmbedder

    from codesift import Index
    from codesift.search import dense

    embedder = CountingEmbedder()
    monkeypatch.setattr(dense, "load_embedder", lambda name, env: embedder)
    with Index(repo) as idx:
        idx.update()
        before = idx.status()
        hybrid = idx.search("follow redirects", limit=3)
    assert embedder.seen and before["coverage"] == 1.0 and hybrid.mode == "hybrid"
    _damage(_checkpointed(repo), "header")
    embedder.seen.clear()
    with Index(repo) as idx:
        assert idx.repaired and "meta.db.damaged-" in idx.repaired[0]
        idx.update()
        assert embedder.seen == []  # every chunk's vector came from the cache
        after = idx.status()
        res = idx.search("follow redirects", limit=3)
    assert (after["embedded"], after["symbols"], after["coverage"]) == (before["embedded"], before["symbols"], 1.0)
    assert res.mode == "hybrid" and [r.path for r in res.results] == [r.path for r in hybrid.results]


def test_damage_the_open_does_not_read_is_found_by_the_refresh(built) -> None:
    """One table's page zeroed (the files table's): the open reads only the schema and settings, SQLite finds it
    when a command reads that page; a read-only search says so in one line, a refreshing one repairs."""
    repo, symbols, top = built
    db = _checkpointed(repo)
    files_page = sqlite3.connect(db).execute("SELECT pageno FROM dbstat WHERE name = 'files'").fetchone()[0]
    data = bytearray(db.read_bytes())
    data[(files_page - 1) * 4096 : files_page * 4096] = bytes(4096)
    db.write_bytes(bytes(data))
    gc.collect()
    result = run_cli("search", "--no-update", NAME, cwd=repo)
    assert result.exit_code == 1
    _one_line(result, "meta.db", "codesift index")
    result = run_cli("search", NAME, cwd=repo)
    assert result.exit_code == 0, result.output
    _one_line(result, "meta.db.damaged-")
    assert _top(result.output) == top
    assert json.loads(run_cli("status", "--json", cwd=repo).output)["symbols"] == symbols
