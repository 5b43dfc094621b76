"""Several services in one index (issue 12 §3): [[services]] in codesift.toml, `index --all`, `service=`."""

from __future__ import annotations

import json
import subprocess
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from codesift import Index
from codesift.cli.app import main
from codesift.config.settings import ConfigError, load_config
from codesift.search.filters import FilterError


@pytest.fixture(autouse=True)
def _keyword_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CODESIFT_EMBEDDER", "none")


def _write(path: Path, body: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(body).lstrip(), encoding="utf-8")


def _git(repo: Path, *args: str) -> str:
    env = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@x", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@x", "PATH": "/usr/bin:/bin", "HOME": str(repo)}
    return subprocess.run(["git", *args], cwd=repo, env=env, check=True, capture_output=True,
                          text=True).stdout.strip()


API_V1 = '''
    def parse_payload(body):
        """Decode the request payload (first version)."""
        return "payload-v1"


    def handle_request(body):
        return parse_payload(body)
    '''
API_V2 = API_V1.replace("first version", "second version").replace("payload-v1", "payload-v2")


@pytest.fixture
def workspace(tmp_path: Path) -> dict[str, object]:
    """A root with codesift.toml listing a folder service (web) and a git service (api) at its first commit."""
    web, repo, root = tmp_path / "web_src", tmp_path / "api_repo", tmp_path / "root"
    _write(web / "client.py", '''
        def render_page(body):
            """Render the page around a payload."""
            return parse_payload(body)


        def parse_payload(body):
            return body
        ''')
    _write(web / "node_modules" / "lib" / "x.js", "function vendored() {}\n")
    repo.mkdir()
    _git(repo, "init", "-q", "-b", "main")
    _write(repo / "server.py", API_V1)
    _write(repo / "README.md", "# API\n\nThe api service.\n")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "first")
    first = _git(repo, "rev-parse", "HEAD")
    _git(repo, "tag", "v1")
    _write(repo / "server.py", API_V2)
    _write(repo / "extra.py", "def only_in_second():\n    return 2\n")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "second")
    second = _git(repo, "rev-parse", "HEAD")
    _write(repo / "server.py", API_V2.replace("payload-v2", "working-tree"))  # uncommitted: never indexed
    root.mkdir()
    _write(root / "own.py", "def root_only():\n    return 0\n")
    config = root / "codesift.toml"
    config.write_text(textwrap.dedent(f'''
        [[services]]
        name = "web"
        path = "../web_src"

        [[services]]
        name = "api"
        git = "{repo}"
        ref = "v1"
        exclude = ["*.md"]
        '''))
    return {"root": root, "repo": repo, "web": web, "first": first, "second": second, "config": config}


def _index(root: Path) -> Index:
    idx = Index(root)
    idx.update(all_services=True)
    return idx


def _paths(idx: Index) -> set[str]:
    return set(idx.store.files())


def test_index_all_stores_each_service_under_its_name(workspace: dict) -> None:
    with _index(workspace["root"]) as idx:
        assert _paths(idx) == {"web/client.py", "api/server.py"}  # own.py, README (excluded), vendored: out
        assert idx.store.skipped().get("web/node_modules/") == "vendored"
        sources = {s["name"]: s for s in idx.list_sources()}
        assert sources["api"]["commit"] == workspace["first"] and sources["api"]["kind"] == "git"
        assert sources["web"]["files"] == 1 and sources["web"]["symbols"] == 2
        assert sources["web"]["languages"] == {"python": 1} and sources["web"]["commit"] is None


def test_service_filters_search_symbols_usages_grep_and_map(workspace: dict) -> None:
    with _index(workspace["root"]) as idx:
        both = idx.search("parse payload", mode="keyword").results
        assert {r.path for r in both} == {"web/client.py", "api/server.py"}
        api = idx.search("parse payload", mode="keyword", service="api").results
        assert api and {r.path for r in api} == {"api/server.py"}
        assert {r.path for r in idx.search("parse payload", mode="keyword", service=["api", "web"]).results} == \
            {"web/client.py", "api/server.py"}
        assert {s["path"] for s in idx.find_symbol("parse_payload", service="web")} == {"web/client.py"}
        assert {s["path"] for s in idx.find_symbol("parse_payload")} == {"web/client.py", "api/server.py"}
        uses = idx.find_usages("parse_payload", service="api")
        assert {u["path"] for u in uses["usages"]} == {"api/server.py"}
        assert uses["usages"][0]["text"] == "return parse_payload(body)"  # read from the blob at v1
        hits = idx.grep("payload-v1", service="api")["results"]
        assert [(h["path"], h["line"]) for h in hits] == [("api/server.py", 3)]
        assert idx.grep("payload", service="web")["results"][0]["path"] == "web/client.py"
        assert {f["path"] for f in idx.repo_map(service="web")["files"]} <= {"web/client.py"}
        matches = idx.summarize_matches("parse payload", service="web", mode="keyword")
        assert [m["path"] for m in matches] == ["web/client.py"]
        with pytest.raises(FilterError, match="unknown service 'nope'"):
            idx.search("parse", service="nope")
        with pytest.raises(ValueError, match="path and service disagree"):
            idx.search("parse", service="api", path="web/")


def test_get_code_context_reads_the_git_blob_at_the_indexed_commit(workspace: dict) -> None:
    with _index(workspace["root"]) as idx:
        ctx = idx.get_code_context("api/server.py", "parse_payload")
        assert '"payload-v1"' in ctx["code"] and ctx["source"] == f"git {workspace['first']}"
        assert ctx["changed_since_indexed"] is False
        from codesift.tools.markdown import render_context

        assert f"git {workspace['first']}" in render_context(ctx).text
        live = idx.get_code_context("web/client.py", "render_page")
        assert "parse_payload(body)" in live["code"] and live["source"].startswith("folder ")
        outline = idx.outline("api/server.py")
        assert {i["name"] for i in outline["symbols"]} >= {"parse_payload", "handle_request"}


def test_rerun_with_unchanged_refs_parses_nothing_and_a_new_ref_reindexes(workspace: dict) -> None:
    root, config = workspace["root"], workspace["config"]
    with _index(root) as idx:
        again = idx.update(all_services=True)
        assert again.files_parsed == 0 and again.services["api"]["state"] == "unchanged"
        plain = idx.update()  # an index built with --all keeps refreshing its services (a search's refresh)
        assert plain.files_parsed == 0 and _paths(idx) == {"web/client.py", "api/server.py"}
    config.write_text(config.read_text().replace('ref = "v1"', 'ref = "main"'))
    with Index(root) as idx:
        stats = idx.update(all_services=True)
        assert stats.files_parsed == 2 and stats.services["api"]["commit"] == workspace["second"]
        assert _paths(idx) == {"web/client.py", "api/server.py", "api/extra.py"}
        assert '"payload-v2"' in idx.get_code_context("api/server.py")["code"]
        assert idx.grep("payload-v1")["results"] == []


def test_removing_a_service_deletes_its_files(workspace: dict) -> None:
    root, config = workspace["root"], workspace["config"]
    _index(root).close()
    text = config.read_text()
    config.write_text(text[text.index("[[services]]\nname = \"api\""):])
    with Index(root) as idx:
        stats = idx.update(all_services=True)
        assert stats.files_deleted == 1 and _paths(idx) == {"api/server.py"}
        assert [s["name"] for s in idx.list_sources()] == ["api"]


@pytest.mark.parametrize("body, message", [
    ('[[services]]\npath = "x"\n', "missing name"),
    ('[[services]]\nname = "a"\npath = "x"\n[[services]]\nname = "a"\npath = "y"\n', "duplicate name"),
    ('[[services]]\nname = "a"\npath = "x"\ngit = "y"\n', "either path"),
    ('[[services]]\nname = "a"\n', "needs path"),
    ('[[services]]\nname = "a"\npath = "x"\nbranch = "m"\n', "unknown key 'branch'"),
    ('[[services]]\nname = "a/b"\npath = "x"\n', "no '/'"),
    ('[[services]]\nname = "a"\npath = "x"\nref = "main"\n', "ref goes with git"),
    ('[[services]]\nname = "a"\npath = "x"\nexclude = ["#x"]\n', "exclude pattern '#x' is a comment"),
    ('[[services]]\nname = "a"\npath = "x"\ninclude = "  "\n', "names nothing"),
    ('services = "x"\n', r"must be \[\[services\]\] tables"),
])
def test_config_errors_name_the_problem(tmp_path: Path, body: str, message: str) -> None:
    (tmp_path / "codesift.toml").write_text(body)
    with pytest.raises(ConfigError, match=message):
        load_config(tmp_path)


def test_unknown_ref_and_missing_folder_are_clear(workspace: dict) -> None:
    config = workspace["config"]
    config.write_text(config.read_text().replace('ref = "v1"', 'ref = "no-such-branch"'))
    result = CliRunner().invoke(main, ["index", str(workspace["root"]), "--all", "--json"])
    assert result.exit_code == 2 and "no commit 'no-such-branch'" in result.output
    bare = workspace["root"].parent / "plain"
    bare.mkdir()
    result = CliRunner().invoke(main, ["index", str(bare), "--all"])
    assert result.exit_code == 2 and "needs [[services]]" in result.output


def test_cli_index_all_and_service_option(workspace: dict) -> None:
    root = str(workspace["root"])
    runner = CliRunner()
    result = runner.invoke(main, ["index", root, "--all", "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["files"] == 2 and summary["services"]["api"]["commit"] == workspace["first"]
    result = runner.invoke(main, ["search", "parse payload", "--root", root, "--mode", "keyword",
                                  "--service", "web", "--json"])
    assert result.exit_code == 0, result.output
    assert {r["path"] for r in json.loads(result.stdout)} == {"web/client.py"}
    result = runner.invoke(main, ["symbol", "parse_payload", "--root", root, "--service", "api",
                                  "--service", "web", "--json"])
    assert {r["path"] for r in json.loads(result.stdout)} == {"web/client.py", "api/server.py"}
    result = runner.invoke(main, ["usages", "parse_payload", "--root", root, "--service", "web", "--json"])
    assert {r["path"] for r in json.loads(result.stdout)} == {"web/client.py"}
    result = runner.invoke(main, ["grep", "payload-v1", "--root", root, "--service", "api", "--json"])
    assert [r["path"] for r in json.loads(result.stdout)] == ["api/server.py"]
    result = runner.invoke(main, ["map", "--root", root, "--service", "web", "--json"])
    assert result.exit_code == 0 and {f["path"] for f in json.loads(result.stdout)["files"]} <= {"web/client.py"}
    result = runner.invoke(main, ["search", "parse", "--root", root, "--service", "nope"])
    assert result.exit_code == 2 and "unknown service 'nope'" in result.output


def test_qdrant_backend_filters_services_in_the_payload_filter(workspace: dict, monkeypatch: pytest.MonkeyPatch,
                                                                tmp_path: Path) -> None:
    pytest.importorskip("qdrant_client")
    monkeypatch.setenv("CODESIFT_BACKEND", "qdrant")
    monkeypatch.setenv("CODESIFT_QDRANT_URL", str(tmp_path / "qdrant"))
    with _index(workspace["root"]) as idx:
        points = idx.qdrant.scroll_payloads(["path", "dirs"])
        assert {p["path"] for p in points.values()} == {"web/client.py", "api/server.py"}
        assert {r.path for r in idx.search("parse payload", mode="keyword", service="api").results} == \
            {"api/server.py"}
        assert {r.path for r in idx.search("parse payload", mode="keyword", service=["web", "api"]).results} == \
            {"web/client.py", "api/server.py"}


def test_mcp_service_argument_takes_one_or_several(workspace: dict) -> None:
    import anyio
    from mcp import Client

    from codesift.server.service import IndexService
    from codesift.server.mcp import build_server

    _index(workspace["root"]).close()
    service = IndexService(Index(workspace["root"]), embed=False)
    server = build_server(service)
    service.start()

    async def scenario():
        async with Client(server) as client:
            listed = {t.name: t for t in (await client.list_tools()).tools}
            found = await client.call_tool("find_symbol", {"name": "parse_payload", "service": ["api"]})
            return listed, found

    try:
        listed, found = anyio.run(scenario)
    finally:
        service.close()
    for name in ("search_code", "find_symbol", "find_usages", "grep_code", "get_repo_map", "summarize_matches"):
        assert '"array"' in json.dumps(listed[name].input_schema["properties"]["service"]), name
    shown = json.dumps(found.structured_content)
    assert "api/server.py" in shown and "web/client.py" not in shown


def test_folder_service_in_a_git_work_tree_records_its_commit(workspace: dict) -> None:
    web = workspace["web"]
    _git(web, "init", "-q", "-b", "main")
    _git(web, "add", "-A")
    _git(web, "commit", "-q", "-m", "web")
    head = _git(web, "rev-parse", "HEAD")
    with _index(workspace["root"]) as idx:
        assert {s["name"]: s["commit"] for s in idx.list_sources()}["web"] == head


def test_list_sources_markdown_shows_kind_languages_and_commit(workspace: dict) -> None:
    from codesift.tools.markdown import render_sources

    with _index(workspace["root"]) as idx:
        sources = idx.list_sources()
        text = render_sources({"root": str(idx.root), "results": sources}).text
        assert "| api | git | 1 | 2 | python | " + workspace["first"][:12] + " |" in text


def test_a_git_service_skips_typescript_compiler_output_like_a_folder_does() -> None:
    from codesift.indexing.gitblobs import TreeEntry
    from codesift.indexing.services import select_entries
    from codesift.config.services import ServiceSpec

    entries = [TreeEntry(p, "100644", "0" * 40, 10) for p in ("src/a.ts", "a.js", "a.d.ts", "b.js")]
    chosen, skipped = select_entries(entries, ServiceSpec("api", repo=Path(".")), 1 << 20, [])
    assert [e.path for e in chosen] == ["src/a.ts", "b.js"]
    assert skipped == {"a.js": "compiled", "a.d.ts": "compiled"}


def test_a_git_service_applies_the_larger_size_limit_of_source_like_a_folder_does() -> None:
    from codesift.indexing.gitblobs import TreeEntry
    from codesift.indexing.services import select_entries
    from codesift.config.services import ServiceSpec

    sizes = {"Core.java": 300, "Huge.java": 500, "data.csv": 300}
    entries = [TreeEntry(p, "100644", "0" * 40, n) for p, n in sizes.items()]
    chosen, skipped = select_entries(entries, ServiceSpec("api", repo=Path(".")), 100, [])
    assert [e.path for e in chosen] == ["Core.java"]
    assert skipped == {"Huge.java": "too_large", "data.csv": "too_large"}
