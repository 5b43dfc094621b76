"""Issue 44: one file that dominates the chunks (generated bulk) neither delays semantic search for the rest of
the tree nor goes unnamed, and a file with one enormous line keeps its definitions (and a code file indexed as
text windows is reported)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from codesift import Index
from codesift.config.settings import Config
from codesift.parse import extract_chunks

from conftest import write_repo

BULK = "gen/tables.py"
BULK_FUNCTIONS = 1_200  # a scaled-down generated file: most of the index's chunks


class CountingEmbedder:
    """A tiny deterministic embedder that remembers what it was given."""

    model_id, dim, max_chars = "test-order", 8, 1000

    def __init__(self) -> None:
        self.seen: list[str] = []

    def embed(self, texts: list[str]) -> np.ndarray:
        self.seen.extend(texts)
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for i, t in enumerate(texts):
            out[i, sum(t.encode()) % self.dim] = 1.0
        return out

    def embed_query(self, text: str) -> np.ndarray:
        return self.embed([text])[0]


def _bulk_tree(root: Path) -> Path:
    write_repo(root)
    (root / "gen").mkdir()
    (root / BULK).write_text("".join(f"def table_entry_{i}():\n    return {i}\n\n" for i in range(BULK_FUNCTIONS)))
    return root


def _embedded_paths(idx: Index) -> dict[str, tuple[int, int]]:
    """path -> (chunks, chunks with a vector)."""
    rows = idx.store.db.execute(
        "SELECT c.path, count(*), sum(EXISTS (SELECT 1 FROM vectors v WHERE v.hash = c.embed_hash)) "
        "FROM chunks c GROUP BY c.path").fetchall()
    return {r[0]: (r[1], r[2]) for r in rows}


def test_ordinary_code_is_embedded_before_tests_and_before_a_file_that_holds_most_chunks(tmp_path: Path) -> None:
    root = _bulk_tree(tmp_path / "repo")
    with Index(root, config=Config(embedder="none", embed_batch=4)) as idx:
        idx.update(embed=False)
        per_file = _embedded_paths(idx)
        assert per_file[BULK][0] > 0.9 * sum(n for n, _ in per_file.values())
        code = sum(n for p, (n, _) in per_file.items() if p != BULK and not p.startswith("tests/"))
        idx.indexer.embed_pending(CountingEmbedder(), limit=code)
        after = _embedded_paths(idx)
        assert all(e == n for p, (n, e) in after.items() if p != BULK and not p.startswith("tests/")), after
        assert after[BULK][1] == 0 and after["tests/test_sessions.py"][1] == 0
        idx.indexer.embed_pending(CountingEmbedder(), limit=1)  # then tests, still before the bulk
        assert _embedded_paths(idx)["tests/test_sessions.py"][1] == 1 and _embedded_paths(idx)[BULK][1] == 0


def test_hybrid_search_uses_vectors_once_the_code_outside_the_bulk_file_is_embedded(tmp_path: Path,
                                                                                     monkeypatch) -> None:
    from codesift.search import dense

    monkeypatch.setattr(dense, "load_embedder", lambda name, env: CountingEmbedder())
    root = _bulk_tree(tmp_path / "repo")
    with Index(root) as idx:
        idx.update(embed=False)
        per_file = _embedded_paths(idx)
        rest = sum(n for p, (n, _) in per_file.items() if p != BULK)
        idx.indexer.embed_pending(CountingEmbedder(), limit=rest)
        res = idx.search("follow redirects", limit=5)
        assert res.mode == "hybrid", res.notes
        assert res.coverage < 0.2  # of all chunks: the bulk file is not embedded yet
        assert any(BULK in n and "embedded last" in n for n in res.notes), res.notes
        assert not any("semantic ranking joins" in n for n in res.notes)


def test_below_the_threshold_the_note_says_which_chunks_count(tmp_path: Path, monkeypatch) -> None:
    from codesift.search import dense

    monkeypatch.setattr(dense, "load_embedder", lambda name, env: CountingEmbedder())
    root = _bulk_tree(tmp_path / "repo")
    with Index(root) as idx:
        idx.update(embed=False)
        idx.indexer.embed_pending(CountingEmbedder(), limit=2)
        res = idx.search("follow redirects", limit=5)
        assert res.mode == "keyword"
        note = next(n for n in res.notes if "semantic ranking joins" in n)
        assert BULK in note, note


def test_doctor_names_a_file_that_holds_most_of_the_chunks(tmp_path: Path, monkeypatch) -> None:
    from codesift.doctor.health import doctor

    monkeypatch.setenv("CODESIFT_EMBEDDER", "none")
    root = _bulk_tree(tmp_path / "repo")
    with Index(root) as idx:
        idx.update(embed=False)
    health = doctor(root, time_model=False)["health"]
    assert isinstance(health, dict)
    assert any(f"{BULK} holds 9" in p and "% of the chunks" in p for p in health["problems"]), health["problems"]
    assert health["dominant_files"][0]["path"] == BULK


# --------------------------------------------------------------------------- one enormous line
LONG_LINE = 'DATA = "' + "x" * 109_000 + '"\n\ndef after_the_literal():\n    return DATA\n'


def test_a_file_with_one_enormous_line_keeps_its_definitions() -> None:
    chunks = extract_chunks(LONG_LINE, "python", "blob.py")
    assert any(c.kind == "function" and c.name == "after_the_literal" for c in chunks), [c.kind for c in chunks]
    assert all(len(c.text) <= 20_000 for c in chunks)  # what is stored (and embedded) stays capped


def test_a_minified_bundle_is_still_indexed_as_windows() -> None:
    bundle = "".join(f"function f{i}(a){{return a+{i}}};" for i in range(2_000)) + "\n"
    chunks = extract_chunks(bundle, "javascript", "bundle.js")
    assert chunks and {c.kind for c in chunks} == {"window"}


def test_status_reports_code_files_indexed_as_text_windows(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("CODESIFT_EMBEDDER", "none")
    root = write_repo(tmp_path / "repo")
    (root / "blob.py").write_text(LONG_LINE)
    (root / "web" / "bundle.js").write_text(
        "".join(f"function f{i}(a){{return a+{i}}};" for i in range(2_000)) + "\n")
    with Index(root) as idx:
        idx.update(embed=False)
        assert idx.find_symbol("after_the_literal", exact=True)
        status = idx.status()
        assert status["text_windows"] == {"files": 1, "paths": ["web/bundle.js"]}
    health = __import__("codesift.doctor.health", fromlist=["doctor"]).doctor(root, time_model=False)["health"]
    assert any("web/bundle.js" in p and "text windows" in p for p in health["problems"]), health["problems"]


@pytest.mark.parametrize("shares, expected", [
    ({"a.py": 10, "b.py": 20}, []),  # small: nothing dominates
    ({"a.py": 100, "gen.py": 5_000}, ["gen.py"]),
    ({f"m{i}.py": 2_000 for i in range(5)}, []),  # big, but none holds a large share
])
def test_which_files_dominate(shares: dict[str, int], expected: list[str]) -> None:
    from codesift.search.coverage import dominating

    assert [path for path, _ in dominating(shares)] == expected
