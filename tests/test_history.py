"""Git history search: `index --history`, search_commits, get_commit, on the API, the CLI and MCP.

A small git repository is built in a temporary folder, one commit at a time with fixed dates; most tests run
keyword-only (CODESIFT_EMBEDDER=none), one with the real model.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import anyio
import pytest
from click.testing import CliRunner

from codesift import Index
from codesift.cli.app import main
from codesift.indexing.history import CommitNotFound, NotAGitRepository, show_commit
from codesift.tools.markdown.commits import render_commit, render_commits

# (date, subject, body, files to write, files to delete, renames)
COMMITS = [
    ("2023-01-01T10:00:00+00:00", "Add session module", "", {"src/http/sessions.py": "def send():\n    pass\n"},
     [], []),
    ("2023-06-01T10:00:00+00:00", "Fix redirect loop when the Location header is relative",
     "Follow relative redirects against the request URL instead of looping.",
     {"src/http/sessions.py": "def send():\n    return follow_redirects()\n"}, [], []),
    ("2024-01-01T10:00:00+00:00", "Add cookie jar", "RequestsCookieJar keeps cookies per domain.",
     {"src/http/cookies.py": "class RequestsCookieJar:\n    pass\n", "docs/guide.md": "# Guide\n"}, [], []),
    ("2024-03-01T10:00:00+00:00", "Rename the guide to manual", "", {}, [], [("docs/guide.md", "docs/manual.md")]),
    ("2024-05-01T10:00:00+00:00", "Bump version to 2.0", "", {"setup.cfg": "[metadata]\nversion = 2.0\n"},
     ["src/http/cookies.py"], []),
]


def git(repo: Path, *args: str, date: str | None = None) -> str:
    env = {**os.environ, "GIT_AUTHOR_DATE": date or "", "GIT_COMMITTER_DATE": date or ""}
    if date is None:
        env.pop("GIT_AUTHOR_DATE"), env.pop("GIT_COMMITTER_DATE")
    return subprocess.run(["git", *args], cwd=repo, env=env, check=True, capture_output=True, text=True).stdout


def commit(repo: Path, date: str, subject: str, body: str = "", files: dict[str, str] | None = None,
           delete: list[str] = (), renames: list[tuple[str, str]] = ()) -> str:  # type: ignore[assignment]
    for rel, text in (files or {}).items():
        (repo / rel).parent.mkdir(parents=True, exist_ok=True)
        (repo / rel).write_text(text)
    for old, new in renames:
        git(repo, "mv", old, new)
    for rel in delete:
        git(repo, "rm", "-q", rel)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", subject, *(["-m", body] if body else []), date=date)
    return git(repo, "rev-parse", "HEAD").strip()


@pytest.fixture
def git_repo(tmp_path: Path, monkeypatch) -> Path:
    monkeypatch.setenv("CODESIFT_EMBEDDER", "none")
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    git(repo, "config", "user.name", "Ada Lovelace")
    git(repo, "config", "user.email", "ada@example.com")
    git(repo, "config", "commit.gpgsign", "false")
    for date, subject, body, files, delete, renames in COMMITS:
        commit(repo, date, subject, body, files, delete, renames)
    return repo


@pytest.fixture
def history(git_repo: Path):
    with Index(git_repo) as idx:
        idx.index_history(100)
        yield idx


def subjects(found: dict) -> list[str]:
    return [r["subject"] for r in found["results"]]


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def test_indexing_is_bounded_and_incremental(git_repo: Path) -> None:
    with Index(git_repo) as idx:
        stats = idx.index_history(3)
        assert (stats.added, stats.commits, stats.embedded) == (3, 3, 0)
        assert stats.embed_pending == 3 and "keyword search only" in stats.notes[0]
        assert subjects(idx.search_commits("session module")) == []  # the oldest commits are past N
        assert idx.index_history(3).added == 0  # nothing new
        commit(git_repo, "2024-06-01T10:00:00+00:00", "Add retry budget", files={"src/retry.py": "x = 1\n"})
        again = idx.index_history(3)
        assert (again.added, again.commits) == (1, 4)
        assert idx.index_history(100).added == 2  # the older ones, once a larger N asks for them
        assert idx.search_commits("session module")["commits"] == 6


def test_keyword_search_finds_commits_by_message_and_by_path(history: Index) -> None:
    found = history.search_commits("redirect loop")
    first = found["results"][0]
    assert first["subject"].startswith("Fix redirect loop") and found["mode"] == "keyword"
    assert set(first) == {"sha", "date", "author", "subject", "paths", "paths_total", "score"}
    assert first["paths"] == ["src/http/sessions.py"] and first["author"] == "Ada Lovelace"
    assert first["date"].startswith("2023-06-01") and first["score"] == 1.0
    assert subjects(history.search_commits("cookies.py"))[:1] == ["Add cookie jar"]  # a changed path
    assert subjects(history.search_commits("CookieJar"))[:1] == ["Add cookie jar"]  # an identifier part
    assert subjects(history.search_commits("relative request url"))[0].startswith("Fix redirect")  # the body
    assert any("keyword results only" in n for n in found["notes"])


def test_path_and_since_filters(history: Index) -> None:
    assert set(subjects(history.search_commits("add fix", path="src/http/sessions.py"))) == {
        "Add session module", "Fix redirect loop when the Location header is relative"}
    assert set(subjects(history.search_commits("add fix", path="src/"))) == {
        "Add session module", "Fix redirect loop when the Location header is relative", "Add cookie jar"}
    # a rename touches its old path too
    assert subjects(history.search_commits("rename guide", path="docs/guide.md"))[0] == "Rename the guide to manual"
    assert subjects(history.search_commits("add", since="2024-01-01")) == ["Add cookie jar"]
    assert subjects(history.search_commits("add", since="2024-01-02")) == []
    assert subjects(history.search_commits("add", path=str(history.root / "src" / "http"))) != []
    with pytest.raises(ValueError, match="ISO date"):
        history.search_commits("add", since="last tuesday")
    with pytest.raises(ValueError):
        history.search_commits("  ")


def test_get_commit_shows_message_files_and_diff(history: Index) -> None:
    sha = history.search_commits("rename guide")["results"][0]["sha"]
    info = history.get_commit(sha[:7])
    assert info["sha"] == sha and info["subject"] == "Rename the guide to manual" and info["indexed"]
    assert info["files"] == [{"path": "docs/manual.md", "status": "R", "old_path": "docs/guide.md"}]
    fix = history.get_commit(history.search_commits("redirect loop")["results"][0]["sha"])
    assert fix["body"].startswith("Follow relative redirects") and fix["author"] == "Ada Lovelace"
    assert fix["files"] == [{"path": "src/http/sessions.py", "status": "M"}]
    assert "+    return follow_redirects()" in fix["diff"] and not fix["diff_truncated"]
    bump = history.get_commit(history.search_commits("bump version")["results"][0]["sha"])
    assert {f["path"]: f["status"] for f in bump["files"]} == {"setup.cfg": "A", "src/http/cookies.py": "D"}


def test_diff_is_cut_to_its_budget(git_repo: Path) -> None:
    big = commit(git_repo, "2024-07-01T10:00:00+00:00", "Vendor a big table",
                 files={"data/table.py": "".join(f"row_{i} = {i}\n" for i in range(2000))})
    info = show_commit(git_repo, big)
    assert info["diff_truncated"] and info["diff_lines"] == 400 and len(info["diff"].splitlines()) == 400
    small = show_commit(git_repo, big, max_lines=10_000, max_bytes=2_000)
    assert small["diff_truncated"] and len(small["diff"].encode()) <= 2_000
    text = render_commit(info, 3_000).text
    assert len(text) <= 3_000 and "diff cut" in text


def test_unknown_sha_is_a_lookup_error(history: Index) -> None:
    for bad in ("deadbeefdeadbeef", "xyz", "", "--output=/tmp/x"):
        with pytest.raises(LookupError) as err:
            history.get_commit(bad)
        assert isinstance(err.value, CommitNotFound) and "\n" not in str(err.value)


def test_a_tree_outside_git_says_so(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("CODESIFT_EMBEDDER", "none")
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))  # never the repository around tmp_path
    plain = tmp_path / "plain"
    (plain / "src").mkdir(parents=True)
    (plain / "src" / "a.py").write_text("x = 1\n")
    with Index(plain) as idx:
        with pytest.raises(NotAGitRepository, match="not a git repository"):
            idx.index_history(10)
        with pytest.raises(NotAGitRepository):
            idx.search_commits("anything")
        with pytest.raises(NotAGitRepository):
            idx.get_commit("abcd")
    result = run("index", str(plain), "--history")
    assert result.exit_code == 2 and "not a git repository" in result.output
    assert len(result.output.strip().splitlines()) == 1 and "Traceback" not in result.output
    result = run("commits", "anything", "--root", str(plain))
    assert result.exit_code == 2 and "not a git repository" in result.output


def test_cli_json_shapes(git_repo: Path) -> None:
    result = run("index", "--history", str(git_repo), "--no-embed", "--json")  # PATH after a bare --history
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["history"]["added"] == len(COMMITS) and summary["history"]["limit"] == 1000
    assert json.loads(run("index", str(git_repo), "--history", "2", "--json").stdout)["history"]["added"] == 0
    result = run("commits", "redirect", "--root", str(git_repo), "--json", "--limit", "2")
    items = json.loads(result.stdout)
    assert result.exit_code == 0 and 1 <= len(items) <= 2
    assert set(items[0]) == {"sha", "date", "author", "subject", "paths", "paths_total", "score"}
    result = run("commits", "redirect", "--root", str(git_repo), "--since", "2024-01-01", "--path", "src/")
    assert result.exit_code == 1  # nothing matches
    result = run("commits", "cookie", "--root", str(git_repo))
    assert result.exit_code == 0 and "Add cookie jar" in result.stdout and "src/http/cookies.py" in result.stdout
    info = json.loads(run("commit", items[0]["sha"][:8], "--root", str(git_repo), "--json").stdout)
    assert info["sha"] == items[0]["sha"] and {"files", "diff", "diff_truncated", "body"} <= set(info)
    plain = run("commit", items[0]["sha"], "--root", str(git_repo))
    assert plain.exit_code == 0 and plain.stdout.startswith(f"commit {items[0]['sha']}")
    missing = run("commit", "0000000", "--root", str(git_repo))
    assert missing.exit_code == 1 and "no commit" in missing.output and "Traceback" not in missing.output


def test_markdown_answers(history: Index) -> None:
    found = history.search_commits("add fix", limit=3)
    rendered = render_commits(found)
    assert rendered.text.startswith("Commits matching `add fix`") and "get_commit(sha=" in rendered.text
    assert len(rendered.data["results"]) == 3 and rendered.data["results"][0]["sha"]
    shown = render_commit(history.get_commit(found["results"][0]["sha"]))
    assert "```diff" in shown.text and "diff" not in shown.data and "Files (" in shown.text


def test_mcp_tools_registered_and_answer(history: Index) -> None:
    from codesift.server.service import IndexService
    from codesift.server.mcp import build_server

    service = IndexService(history, embed=False)
    service._ready.set()  # the index is up to date: no start-up update needed
    server = build_server(service)
    tools = {t.name: t for t in anyio.run(server.list_tools)}
    assert {"search_commits", "get_commit"} <= set(tools)
    assert set(tools["search_commits"].input_schema["properties"]) == {"query", "path", "since", "limit", "max_chars"}

    async def call(name: str, args: dict):
        return await server.call_tool(name, args)

    found = anyio.run(call, "search_commits", {"query": "redirect loop", "limit": 2})
    assert not found.is_error and "Fix redirect loop" in found.content[0].text
    sha = found.structured_content["results"][0]["sha"]
    shown = anyio.run(call, "get_commit", {"sha": sha[:10]})
    assert not shown.is_error and "follow_redirects" in shown.content[0].text
    bad = anyio.run(call, "get_commit", {"sha": "ffffffff"})
    assert bad.is_error and bad.content[0].text.startswith("get_commit: no commit")


@pytest.mark.model
def test_hybrid_with_the_real_model(git_repo: Path, monkeypatch) -> None:
    monkeypatch.delenv("CODESIFT_EMBEDDER")
    with Index(git_repo) as idx:
        if idx.embedder() is None:
            pytest.skip("the local embedding model is unavailable")
        stats = idx.index_history(100)
        assert stats.embedded == len(COMMITS) and stats.embed_pending == 0
        found = idx.search_commits("infinite loop following HTTP redirects")
        assert found["mode"] == "hybrid" and found["embedded"] == len(COMMITS)
        assert found["results"][0]["subject"].startswith("Fix redirect loop")
        assert idx.index_history(100).embedded == 0  # vectors are kept, keyed by text
        # A code update that prunes the vectors of edited-away texts keeps the commits' vectors.
        idx.update()
        some = next(p for p in git_repo.rglob("*.py") if ".codesift" not in p.parts)
        some.write_text(some.read_text() + "\n\ndef added_later():\n    return 1\n")
        assert idx.update().files_parsed == 1
        assert idx.search_commits("infinite loop following HTTP redirects")["embedded"] == len(COMMITS)
