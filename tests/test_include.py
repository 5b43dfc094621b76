"""``include`` patterns: files brought back although git or a default rule leaves them out (walk and git)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from codesift.config.settings import Config, ConfigError, load_config, validate
from codesift.indexing.discover import discover
from codesift.config.include import IncludeRules, pattern_errors

from test_discover import git, make_repo, paths, write

needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="git not on PATH")


@pytest.fixture
def plain(tmp_path: Path) -> Path:
    root = tmp_path / "plain"
    root.mkdir()
    return root


def _tree(root: Path) -> None:
    write(root, ".gitignore", "gen/\n*.log\n")
    write(root, "src/app.py")
    write(root, "gen/api/client.py")
    write(root, "gen/other/junk.py")
    write(root, "run.log", "log line\n")
    write(root, "node_modules/acme/index.js", "module.exports = 1\n")
    write(root, "node_modules/left-pad/index.js", "module.exports = 2\n")
    write(root, "proto/service_pb2.py")


# --------------------------------------------------------------------------- rules
def test_may_contain_follows_the_literal_start_of_each_pattern() -> None:
    rules = IncludeRules(["/vendor/acme/", "gen/api/*.py"])
    assert rules.may_contain("vendor/") and rules.may_contain("vendor/acme/") and rules.may_contain("vendor/acme/x/")
    assert not rules.may_contain("vendor/other/")
    assert rules.may_contain("gen/") and rules.may_contain("gen/api/") and not rules.may_contain("gen/other/")
    assert not rules.may_contain("node_modules/")
    anywhere = IncludeRules(["*.po"])
    assert anywhere.may_contain("deep/down/") and anywhere.matches("a/b/django.po")
    assert not IncludeRules([]) and not IncludeRules([]).matches("x.py")


def test_negated_patterns_take_files_back_out() -> None:
    rules = IncludeRules(["vendor/acme/", "!vendor/acme/tests/"])
    assert rules.matches("vendor/acme/a.go") and not rules.matches("vendor/acme/tests/a_test.go")


# --------------------------------------------------------------------------- walk mode
def test_without_include_nothing_changes(plain: Path) -> None:
    _tree(plain)
    d = discover(plain)
    assert paths(d) == [".gitignore", "src/app.py"] and d.included == []
    assert d.skipped == {"node_modules/": "vendored", "proto/service_pb2.py": "generated"}


def test_walk_brings_back_gitignored_vendored_and_generated_files(plain: Path) -> None:
    _tree(plain)
    d = discover(plain, include=["gen/api/", "/node_modules/acme/", "*_pb2.py", "*.log"])
    assert paths(d) == [".gitignore", "gen/api/client.py", "node_modules/acme/index.js",
                        "proto/service_pb2.py", "run.log", "src/app.py"]
    assert d.included == ["gen/api/client.py", "node_modules/acme/index.js", "proto/service_pb2.py", "run.log"]
    assert "node_modules/" not in d.skipped  # looked into, not skipped wholesale


def test_codesiftignore_and_content_checks_still_win(plain: Path) -> None:
    _tree(plain)
    write(plain, "gen/api/logo.png", b"\x89PNG\0\0")
    write(plain, "gen/api/blob.py", b"x = 1\0\0")
    write(plain, "gen/api/huge.py", "x = 1\n" * 200)
    d = discover(plain, include=["gen/"], extra_ignores=["gen/api/client.py"], max_file_size=200)
    assert paths(d) == [".gitignore", "gen/other/junk.py", "src/app.py"]
    assert d.skipped["gen/api/logo.png"] == "binary" and d.skipped["gen/api/blob.py"] == "binary"
    assert d.skipped["gen/api/huge.py"] == "too_large"


def test_explain_names_the_ignore_rule(plain: Path) -> None:
    _tree(plain)
    write(plain, ".codesiftignore", "src/\n")
    d = discover(plain, explain=True)
    assert d.ignored == {"gen/": "gitignore", "run.log": "gitignore", "src/": "codesiftignore"}
    assert discover(plain).ignored == {}  # only on request


# --------------------------------------------------------------------------- git mode
@needs_git
def test_git_brings_back_ignored_files_and_folders(tmp_path: Path) -> None:
    root = make_repo(tmp_path / "repo")
    _tree(root)
    write(root, "vendor/acme/lib.go", "package acme\n")
    write(root, "vendor/other/lib.go", "package other\n")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "init")
    d = discover(root)
    assert d.mode == "git" and paths(d) == [".gitignore", "src/app.py"]
    d = discover(root, include=["gen/api/", "node_modules/acme/", "vendor/acme/", "run.log"])
    assert paths(d) == [".gitignore", "gen/api/client.py", "node_modules/acme/index.js", "run.log",
                        "src/app.py", "vendor/acme/lib.go"]
    assert d.included == ["gen/api/client.py", "node_modules/acme/index.js", "run.log", "vendor/acme/lib.go"]
    explained = discover(root, explain=True).ignored
    assert explained["gen/"] == "gitignore" and explained["run.log"] == "gitignore"


@needs_git
def test_git_include_never_reaches_the_index_folder(tmp_path: Path) -> None:
    root = make_repo(tmp_path / "repo")
    write(root, "a.py")
    write(root, ".codesift/.gitignore", "*\n")
    write(root, ".codesift/stuff.py")
    d = discover(root, include=["*.py"], explain=True)
    assert paths(d) == ["a.py"] and ".codesift/" not in d.ignored


# --------------------------------------------------------------------------- configuration
def test_config_reads_and_checks_include(tmp_path: Path) -> None:
    (tmp_path / "codesift.toml").write_text('include = ["vendor/acme/", "*.po"]\n', encoding="utf-8")
    assert load_config(tmp_path).include == ("vendor/acme/", "*.po")
    for bad, words in (('"vendor/"', "must be a list"), ("[1]", "not a string"), ('[" "]', "names nothing"),
                       ('["# x"]', "comment")):
        (tmp_path / "codesift.toml").write_text(f"include = {bad}\n", encoding="utf-8")
        with pytest.raises(ConfigError, match=words):
            load_config(tmp_path)
    with pytest.raises(ConfigError, match="names nothing"):
        validate(Config(include=("!",)))
    assert pattern_errors(["a/", "!a/b"]) == []


def test_index_uses_include(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from codesift import Index

    monkeypatch.setenv("CODESIFT_EMBEDDER", "none")
    root = tmp_path / "t"
    _tree(root)
    (root / "codesift.toml").write_text('include = ["gen/api/"]\n', encoding="utf-8")
    with Index(root) as idx:
        idx.update(embed=False)
        assert "gen/api/client.py" in idx.store.files() and "gen/other/junk.py" not in idx.store.files()
