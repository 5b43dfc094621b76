"""The index folder stays out of git, and read-only commands never create it (issue 14, item 4)."""

import json
import subprocess

import pytest
from click.testing import CliRunner

from codesift import Index, NoIndexError
from codesift.api import GITIGNORE
from codesift.cli.app import EXIT_NO_INDEX, main


@pytest.fixture(autouse=True)
def _keyword_only(monkeypatch):
    monkeypatch.setenv("CODESIFT_EMBEDDER", "none")  # these tests are about folders, not vectors


def git(root, *args):
    return subprocess.run(["git", *args], cwd=root, capture_output=True, text=True, check=True).stdout


def test_new_index_folder_is_invisible_to_git(repo):
    git(repo, "init", "-q")
    with Index(repo) as idx:
        idx.update()
    assert (repo / ".codesift" / ".gitignore").read_text() == GITIGNORE
    status = git(repo, "status", "--porcelain", "--untracked-files=all")
    assert "src/" in status and ".codesift" not in status


def test_existing_index_folder_gets_gitignore_when_opened_for_writing(repo):
    with Index(repo) as idx:
        idx.update()
    (repo / ".codesift" / ".gitignore").unlink()  # an index made before this change
    with Index(repo, create=False):  # read-only open: leaves the folder as it is
        pass
    assert not (repo / ".codesift" / ".gitignore").exists()
    with Index(repo):
        pass
    assert (repo / ".codesift" / ".gitignore").read_text() == GITIGNORE


def test_a_users_gitignore_in_a_configured_index_dir_is_kept(repo, tmp_path):
    from codesift.config.settings import Config

    folder = tmp_path / "elsewhere"
    folder.mkdir()
    (folder / ".gitignore").write_text("meta.db\n")
    with Index(repo, config=Config(index_dir=str(folder))):
        pass
    assert (folder / ".gitignore").read_text() == "meta.db\n"


def test_read_only_open_without_an_index_creates_nothing(tmp_path):
    with pytest.raises(NoIndexError) as info:
        Index(tmp_path, create=False)
    assert "no index here" in str(info.value) and f"codesift index {tmp_path}" in str(info.value)
    assert list(tmp_path.iterdir()) == []


def test_status_without_an_index_says_so_and_creates_nothing(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for args in (["status"], ["status", str(tmp_path)]):
        result = CliRunner().invoke(main, args)
        assert result.exit_code == EXIT_NO_INDEX == 1, result.output
        assert result.stdout.strip() == f"no index here ({tmp_path}); run `codesift index {tmp_path}`"
    result = CliRunner().invoke(main, ["status", "--json"])
    assert result.exit_code == 1
    assert json.loads(result.stdout) == {
        "indexed": False, "root": str(tmp_path), "index_dir": str(tmp_path / ".codesift"),
        "message": f"no index here ({tmp_path}); run `codesift index {tmp_path}`",
    }
    assert list(tmp_path.iterdir()) == []


def test_no_update_commands_without_an_index_create_nothing(tmp_path):
    for args in (["search", "x", "--no-update", "--root", str(tmp_path)],
                 ["usages", "x", "--no-update", "--root", str(tmp_path)],
                 ["symbol", "x", "--no-update", "--root", str(tmp_path)]):
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 1, (args, result.output)
        assert "no index here" in result.output and "Traceback" not in result.output
    assert list(tmp_path.iterdir()) == []


def test_status_of_an_index_still_works(repo):
    assert CliRunner().invoke(main, ["index", str(repo), "-q"]).exit_code == 0
    result = CliRunner().invoke(main, ["status", str(repo), "--json"])
    assert result.exit_code == 0 and json.loads(result.stdout)["indexed"] is True
