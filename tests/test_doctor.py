"""``index --dry-run`` and ``doctor`` (codesift.doctor.dry_run*), and grammar failures made visible in ``status``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from codesift import Index
from codesift.doctor.dry_run import dry_run
from codesift.parse import grammars

from conftest import write_repo
from test_cli import run
from test_discover import write


@pytest.fixture(autouse=True)
def _no_model(monkeypatch: pytest.MonkeyPatch) -> None:
    """Keyword-only: these tests are about files and counts, not the model (one test times it)."""
    monkeypatch.setenv("CODESIFT_EMBEDDER", "none")


@pytest.fixture
def fresh_grammars():
    """Grammars loaded again from scratch before and after the test (a monkeypatched loader is forgotten)."""
    grammars.reset()
    yield
    grammars.reset()


def _break_python(monkeypatch: pytest.MonkeyPatch) -> None:
    real = grammars._load

    def load(name: str):  # tree_sitter.Language
        if name == "python":
            raise ImportError("tree_sitter_python was built for another ABI")
        return real(name)

    monkeypatch.setattr(grammars, "_load", load)
    grammars.reset()


def _tree(root: Path) -> Path:
    write_repo(root)
    write(root, ".gitignore", "*.log\n")
    write(root, "debug.log", "x\n")
    write(root, ".codesiftignore", "scratch/\n")
    write(root, "scratch/tmp.py")
    write(root, "node_modules/lib/index.js", "module.exports = 1\n")
    write(root, "app.min.js", "var a=1;\n")
    write(root, "logo.png", b"\x89PNG\0")
    write(root, "big.py", "x = 1\n" * 800_000)  # over 4 × max_file_size: source may be 4 MiB
    write(root, "notes.xyz", "what is this\n")
    return root


# --------------------------------------------------------------------------- dry run
def test_dry_run_lists_indexed_and_skipped_with_reasons_and_writes_nothing(tmp_path: Path) -> None:
    root = _tree(tmp_path / "t")
    report = dry_run(root, time_model=False)
    assert not (root / ".codesift").exists()
    ind, skp = report["indexed"], report["skipped"]
    assert "src/http/sessions.py" in ind["paths"] and "notes.xyz" in ind["paths"]
    assert ind["by_language"]["python"]["files"] == 3 and "notes.xyz" in ind["unknown_language"]["examples"]
    reasons = {r: v["paths"] for r, v in skp["by_reason"].items()}
    assert reasons == {"gitignore": ["debug.log"], "codesiftignore": ["scratch/"], "vendored": ["node_modules/"],
                       "minified": ["app.min.js"], "binary": ["logo.png"], "too_large": ["big.py"]}
    assert skp["by_reason"]["too_large"]["rule"].startswith("over max_file_size")
    est = report["estimate"]
    assert est["exact"] and est["embedding"]["status"] == "disabled"
    assert any("big.py" in w and "max_file_size" in w for w in report["warnings"])


def test_exact_estimate_is_the_real_chunk_count(tmp_path: Path) -> None:
    root = write_repo(tmp_path / "t")
    estimated = dry_run(root, time_model=False)["estimate"]["chunks"]
    with Index(root) as idx:
        idx.update(embed=False)
        assert estimated == idx.status()["chunks"]


def test_sampled_estimate_extrapolates_per_language(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from codesift.doctor import estimate as doctor_estimate

    root = tmp_path / "t"
    for i in range(60):
        write(root, f"pkg/m{i:02}.py", "".join(f"def f{j}():\n    return {j}\n\n\n" for j in range(i % 5 + 1)))
    monkeypatch.setattr(doctor_estimate, "EXACT_BYTES", 0)
    monkeypatch.setattr(doctor_estimate, "SAMPLE_FILES", 16)
    est = dry_run(root, time_model=False)["estimate"]
    assert not est["exact"] and est["by_language"]["python"]["parsed_files"] == 16
    with Index(root) as idx:
        idx.update(embed=False)
        real = idx.status()["chunks"]
    assert abs(est["chunks"] - real) <= 0.2 * real


@pytest.mark.model
def test_embedding_time_is_measured_with_the_real_model(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CODESIFT_EMBEDDER")
    emb = dry_run(write_repo(tmp_path / "t"))["estimate"]["embedding"]
    assert emb["status"] == "timed" and emb["sample_chunks"] == 32 and emb["chunks_per_second"] > 0
    assert emb["seconds"] is not None


def test_warnings_for_suspicious_outcomes(tmp_path: Path) -> None:
    root = tmp_path / "t"
    for i in range(30):
        write(root, f"static/app{i}.min.js", "var a=1;\n")
    write(root, "README.md", "# x\n")
    write(root, ".codesiftignore", "*.py\n")
    for i in range(3):
        write(root, f"src/m{i}.py")
    warnings = dry_run(root, time_model=False)["warnings"]
    assert any(w.startswith("0 of 3 python files (the tree's main language) would be indexed (3 codesiftignore)")
               for w in warnings), warnings
    assert any(w.startswith("30 of 32 files (93%) are skipped by codesift's rules") for w in warnings), warnings
    assert dry_run(write_repo(tmp_path / "fine"), time_model=False)["warnings"] == []


def test_include_pattern_that_brings_nothing_is_flagged(tmp_path: Path) -> None:
    root = write_repo(tmp_path / "t")
    write(root, "node_modules/acme/index.js", "module.exports = 1\n")
    (root / "codesift.toml").write_text('include = ["node_modules/acme/", "nothing/here/"]\n', encoding="utf-8")
    report = dry_run(root, time_model=False)
    assert report["indexed"]["included"] == ["node_modules/acme/index.js"]
    assert [w for w in report["warnings"] if "include pattern" in w] == [
        "include pattern 'nothing/here/' brings back no file (nothing matches it, or what matches is ignored "
        "by .codesiftignore/`ignore`, binary or too large)"]


def test_dry_run_warns_when_a_grammar_does_not_load(tmp_path: Path, monkeypatch, fresh_grammars) -> None:
    _break_python(monkeypatch)
    report = dry_run(write_repo(tmp_path / "t"), time_model=False)
    assert report["grammars"]["python"].startswith("ImportError: tree_sitter_python")
    assert report["grammars"]["javascript"] == "ok"
    assert any(w.startswith("the python grammar does not load") for w in report["warnings"])


# --------------------------------------------------------------------------- CLI
def test_cli_dry_run_json_contract_and_nothing_written(tmp_path: Path) -> None:
    root = _tree(tmp_path / "t")
    result = run("index", "--dry-run", "--json", str(root))
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert {"indexed", "skipped", "estimate"} <= set(report)
    assert not (root / ".codesift").exists()
    text = run("index", "--dry-run", str(root))
    assert text.exit_code == 0 and "would index" in text.output and "gitignore" in text.output
    assert "embedding  disabled" in text.output


def test_cli_dry_run_with_rebuild_deletes_nothing(repo: Path) -> None:
    assert run("index", "--no-embed", "-q", str(repo)).exit_code == 0
    result = run("index", "--rebuild", "--dry-run", "--json", str(repo))
    assert result.exit_code == 0 and (repo / ".codesift" / "meta.db").is_file()


def test_cli_doctor_without_and_with_an_index(repo: Path) -> None:
    result = run("doctor", "--json", str(repo))
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["health"]["exists"] is False and not (repo / ".codesift").exists()
    assert run("index", "--no-embed", "-q", str(repo)).exit_code == 0
    write(repo, "src/new_module.py")
    report = json.loads(run("doctor", "--json", str(repo)).output)
    health = report["health"]
    assert health["exists"] and health["schema"]["index"] == health["schema"]["needed"]
    assert health["behind"]["new"] == 1 and health["files"] == 5
    assert any("behind the tree" in p for p in health["problems"])
    text = run("doctor", str(repo)).output
    assert "index health" in text and "behind" in text


def test_cli_bad_paths(tmp_path: Path) -> None:
    assert run("doctor", str(tmp_path / "nope")).exit_code == 2
    assert run("index", "--dry-run", str(tmp_path / "nope")).exit_code == 2


# --------------------------------------------------------------------------- grammar failures in status
def test_grammar_failure_is_recorded_shown_and_healed(repo: Path, monkeypatch, fresh_grammars) -> None:
    from codesift.cli.render import print_status
    from codesift.tools.markdown import render_status

    _break_python(monkeypatch)
    with Index(repo) as idx:
        stats = idx.update(embed=False)
        assert stats.grammar_errors == {"python": "ImportError: tree_sitter_python was built for another ABI"}
        assert stats.warnings["grammar_failed"] == 3
        info = idx.status()
        assert info["grammar_errors"] == {"python": {"error": stats.grammar_errors["python"], "files": 3}}
        assert idx.find_symbol("rebuild_auth") == []  # windows only: no symbols
        assert "Grammar failed (python)" in render_status(info).text
    result = run("status", str(repo))
    assert "python: 3 files indexed as line windows" in result.output
    assert run("index", "--no-embed", str(repo)).exit_code == 0
    monkeypatch.undo()  # the grammar loads again: the windowed files are parsed again at the next update
    monkeypatch.setenv("CODESIFT_EMBEDDER", "none")
    grammars.reset()
    with Index(repo) as idx:
        stats = idx.update(embed=False)
        assert stats.files_parsed == 3 and not stats.grammar_errors
        assert idx.status()["grammar_errors"] == {}
        assert idx.find_symbol("rebuild_auth")
    print_status(info)  # renders without error


def test_compiled_copies_of_indexed_typescript_raise_no_warning(tmp_path: Path) -> None:
    # an npm package shipping src/*.ts and the compiler's .js/.cjs/.d.ts of each: nothing is missing
    root = tmp_path / "pkg"
    for i in range(10):
        write(root, f"src/m{i}.ts", f"export const m{i} = {i};\n")
        for ext in (".js", ".cjs", ".d.ts"):
            write(root, f"m{i}{ext}", f"exports.m{i} = {i};\n")
    report = dry_run(root, time_model=False)
    assert report["skipped"]["by_reason"]["compiled"]["count"] == 30
    assert report["warnings"] == []
