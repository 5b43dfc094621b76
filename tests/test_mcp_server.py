"""The MCP server end to end: `codesift serve` as a subprocess, driven by the SDK's own client.

One stdio session (module-scoped) calls every tool once and the tests below assert on the answers;
one test does the same over streamable HTTP. An in-process test covers search while embedding is
still pending.
"""

import shutil
import sys
import time
from pathlib import Path

import anyio
import pytest

from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client

from codesift import Index  # noqa: E402
from conftest import http_server, marks_users, write_repo  # noqa: E402

TOOLS = {"search_code", "find_symbol", "find_usages", "get_code_context", "find_similar", "drill_down",
         "summarize_matches", "index_status", "list_sources"}
TOOLS |= {"get_repo_map", "callers", "callees", "impact"}  # server/graph.py (tests/test_graph.py, test_repomap.py)
TOOLS |= {"grep_code", "get_file_outline"}  # server/nav.py (tests/test_grep.py, test_outline.py)
TOOLS |= {"search_commits", "get_commit"}  # server/history.py (tests/test_history.py)
TOOLS |= {"reindex"}  # server/reindex.py (tests/test_reindex.py)


def text(result) -> str:
    return "\n".join(block.text for block in result.content if block.type == "text")


async def wait_embedded(session: ClientSession, seconds: float = 30) -> dict:
    """Poll index_status until the background embedding is done (bounded)."""
    deadline = time.monotonic() + seconds
    while True:
        status = (await session.call_tool("index_status", {})).structured_content
        if (status["coverage"] >= 1 and "background" not in status) or time.monotonic() > deadline:
            return status
        await anyio.sleep(0.2)


async def stdio_scenario(repo: Path, errlog) -> dict:
    """Every tool once (plus error cases) over one stdio session; returns the answers by key."""
    params = StdioServerParameters(command=sys.executable, args=["-m", "codesift", "serve", str(repo)])
    out: dict = {}
    with anyio.fail_after(90):
        async with stdio_client(params, errlog=errlog) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            out["tools"] = (await session.list_tools()).tools
            calls = {
                "search": ("search_code", {"query": "rebuild_auth", "limit": 3}),
                "search_filtered": ("search_code", {"query": "parse json body", "language": "javascript",
                                                     "mode": "keyword"}),
                "search_small": ("search_code", {"query": "redirect", "limit": 5, "max_chars": 1000}),
                "symbol": ("find_symbol", {"name": "RCJ"}),
                "usages": ("find_usages", {"symbol_name": "resolve_redirects"}),
                "context": ("get_code_context", {"file_path": "src/http/sessions.py", "symbol_name": "rebuild_auth"}),
                "outside": ("get_code_context", {"file_path": "../x"}),
                "summary": ("summarize_matches", {"query": "redirect"}),
                "sources": ("list_sources", {}),
                "unknown_arg": ("search_code", {"query": "x", "bogus": 1}),
                "bad_limit": ("search_code", {"query": "x", "limit": 0}),
                "empty_query": ("search_code", {"query": "   "}),
                "bad_mode": ("search_code", {"query": "x", "mode": "fuzzy"}),
                "bad_id": ("find_similar", {"result_id": 999_999}),
                # issue 14: filter values as typed (aliases), and one that names nothing
                "lang_alias": ("search_code", {"query": "redirect", "language": "Py", "kind": "meth"}),
                "bad_lang": ("search_code", {"query": "x", "language": "golang2"}),
                # issue 14: budgets out of range are clamped, empty or long input gets the API's words
                "tiny_budget": ("search_code", {"query": "redirect", "max_chars": 800}),
                "huge_budget": ("get_code_context", {"file_path": "src/http/sessions.py", "max_chars": 10**7}),
                "long_query": ("search_code", {"query": "redirect " * 300}),
                "empty_name": ("find_symbol", {"name": " \t"}),
                "empty_usage": ("find_usages", {"symbol_name": ""}),
                "empty_summary": ("summarize_matches", {"query": " "}),
                "symbol_page": ("find_symbol", {"name": "re", "limit": 1}),
            }
            for key, (name, args) in calls.items():
                out[key] = await session.call_tool(name, args)
            out["status"] = await wait_embedded(session)
            # Hybrid ranking needs the vectors (until then searches rank by keywords and say so).
            out["search"] = await session.call_tool(*calls["search"])
            hit = (await session.call_tool("search_code", {"query": "rebuild_auth"})).structured_content["results"][0]
            out["hit"] = hit
            out["similar"] = await session.call_tool("find_similar", {"result_id": hit["id"], "limit": 3})
            out["drill"] = await session.call_tool("drill_down", {"result_id": hit["id"], "limit": 5})
    return out


@pytest.fixture(scope="module")
@marks_users("subprocess", "model")  # `codesift serve` embeds with the real model
def session_results(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("mcp")
    repo = write_repo(tmp / "repo")
    with open(tmp / "server.log", "w+") as errlog:
        try:
            return anyio.run(stdio_scenario, repo, errlog)
        except BaseException:
            errlog.seek(0)
            print("server log:\n" + errlog.read()[-4000:])
            raise


def test_lists_all_tools_with_descriptions_and_schemas(session_results):
    tools = {t.name: t for t in session_results["tools"]}
    assert set(tools) == TOOLS
    for tool in tools.values():
        assert len(tool.description) > 80, tool.name
        assert tool.input_schema["type"] == "object" and tool.input_schema.get("additionalProperties") is False
    assert {"query", "limit", "service", "path", "language", "kind", "threshold", "offset", "mode",
            "max_chars"} <= set(tools["search_code"].input_schema["properties"])
    assert tools["search_code"].input_schema["required"] == ["query"]
    assert set(tools["find_symbol"].input_schema["properties"]) >= {"name", "symbol_type", "service", "exact"}


def test_search_code_answers_markdown_and_structured(session_results):
    result = session_results["search"]
    assert not result.is_error
    body = text(result)
    assert "src/http/sessions.py:14" in body and "### 1. SessionRedirectMixin.rebuild_auth (method)" in body
    assert "```python" in body and "Search `rebuild_auth` · mode: hybrid" in body
    data = result.structured_content
    first = data["results"][0]
    assert (first["path"], first["start_line"], first["kind"]) == ("src/http/sessions.py", 14, "method")
    assert isinstance(first["id"], int) and len(data["results"]) <= 3
    filtered = session_results["search_filtered"]
    assert all(r["language"] == "javascript" for r in filtered.structured_content["results"])
    assert "parseJsonBody" in text(filtered) and "mode: keyword" in text(filtered)


def test_search_budget_pages_with_offset(session_results):
    result = session_results["search_small"]
    assert len(text(result)) <= 1000
    data = result.structured_content
    assert data["truncated"] and f"call again with offset={data['next_offset']}" in text(result)


def test_find_symbol_get_code_context_summary_sources(session_results):
    assert "RequestsCookieJar" in text(session_results["symbol"])
    assert session_results["symbol"].structured_content["results"][0]["match"] == "camel_hump"
    context = text(session_results["context"])
    assert "14 |     def rebuild_auth(self, prepared, response):" in context
    assert "SessionRedirectMixin.rebuild_auth (method)" in context
    summary = session_results["summary"]
    assert "- **src/http/sessions.py**" in text(summary) and "```" not in text(summary)
    sources = session_results["sources"].structured_content["results"]
    assert {s["service"] for s in sources} >= {"src", "web", "docs", "tests"}


def test_filter_aliases_are_accepted(session_results):
    result = session_results["lang_alias"]
    assert not result.is_error, text(result)
    found = result.structured_content["results"]
    assert found and all(r["language"] == "python" and r["kind"] == "method" for r in found)


def test_errors_are_one_line_tool_errors(session_results):
    expect = {"outside": "outside the indexed root", "unknown_arg": "bogus: unknown argument",
              "bad_limit": "limit: Input should be greater than or equal to 1",
              "empty_query": "search_code: the query is empty: say what to look for",
              "long_query": "search_code: the query is 2,699 characters long; at most 2,000 are accepted",
              "empty_name": "find_symbol: the name is empty: give a name or part of one",
              "empty_usage": "find_usages: the name is empty: give a name or part of one",
              "empty_summary": "summarize_matches: the query is empty",
              "bad_mode": "mode: Input should be 'hybrid', 'keyword' or 'semantic'",
              "bad_id": "no embedded chunk with id 999999",
              "bad_lang": "search_code: unknown language 'golang2' (this index has: "}
    for key, fragment in expect.items():
        result = session_results[key]
        assert result.is_error, key
        message = text(result)
        assert fragment in message, (key, message)
        assert "\n" not in message.strip() and "Traceback" not in message, key


def test_find_similar_and_drill_down_from_a_search_id(session_results):
    assert session_results["status"]["coverage"] == 1.0
    hit = session_results["hit"]
    similar = session_results["similar"]
    assert not similar.is_error and f"Code similar to result {hit['id']}" in text(similar)
    ids = [r["id"] for r in similar.structured_content["results"]]
    assert ids and hit["id"] not in ids
    drill = session_results["drill"].structured_content["results"]
    paths = [r["path"] for r in drill]
    assert len(paths) == len(set(paths)) and hit["path"] not in paths


def test_budgets_are_clamped_and_structured_content_has_no_text(session_results):
    from codesift.limits import MAX_NAME_CHARS, MAX_QUERY_CHARS
    from codesift.tools.markdown import MIN_MAX_CHARS, TEXT_FIELDS

    tiny = session_results["tiny_budget"]
    assert not tiny.is_error and len(text(tiny)) <= MIN_MAX_CHARS, text(tiny)
    huge = session_results["huge_budget"]
    assert not huge.is_error and "def rebuild_auth" in text(huge)
    for key in ("search", "symbol", "usages", "summary"):
        for item in session_results[key].structured_content["results"]:
            assert not TEXT_FIELDS & set(item), (key, item)
    assert "code" not in session_results["context"].structured_content
    page = session_results["symbol_page"]
    assert len(page.structured_content["results"]) == 1 and page.structured_content["next_offset"] == 1
    tools = {t.name: t for t in session_results["tools"]}  # the limits the schema advertises are limits.py's
    assert tools["search_code"].input_schema["properties"]["query"]["maxLength"] == MAX_QUERY_CHARS
    assert tools["find_usages"].input_schema["properties"]["symbol_name"]["maxLength"] == MAX_NAME_CHARS
    for name in ("search_code", "find_symbol", "find_usages", "get_code_context", "find_similar", "drill_down",
                 "summarize_matches"):
        assert "max_chars" in tools[name].input_schema["properties"], name


def test_find_usages(session_results):
    result = session_results["usages"]
    assert not result.is_error, text(result)
    assert "tests/test_sessions.py:2" in text(result)
    assert result.structured_content["results"][0]["kind"] in {"reference", "call"}


@pytest.mark.model
def test_keyword_search_works_while_embedding_is_pending(repo):
    """In-process, embedding off: hybrid search answers from keywords and reports the coverage."""
    from mcp import Client

    from codesift.server.service import IndexService
    from codesift.server.mcp import build_server

    service = IndexService(Index(repo), embed=False)
    server = build_server(service)
    service.start()

    async def scenario():
        async with Client(server) as client:
            return await client.call_tool("search_code", {"query": "rebuild_auth"})

    try:
        result = anyio.run(scenario)
    finally:
        service.close()
    assert not result.is_error
    assert "src/http/sessions.py:14" in text(result) and "semantic coverage 0%" in text(result)
    assert result.structured_content["coverage"] == 0.0


@pytest.mark.model  # the server embeds with the real model (http_server marks it subprocess)
def test_streamable_http(repo, tmp_path):
    with http_server(repo, tmp_path / "server.log") as port:
        async def scenario():
            with anyio.fail_after(60):
                async with streamable_http_client(f"http://127.0.0.1:{port}/mcp") as (read, write), \
                        ClientSession(read, write) as session:
                    await session.initialize()
                    tools = (await session.list_tools()).tools
                    result = await session.call_tool("search_code", {"query": "cookie jar", "limit": 2})
                    return tools, result

        tools, result = anyio.run(scenario)
    assert {t.name for t in tools} == TOOLS
    assert not result.is_error and "src/http/cookies.py" in text(result)


def test_serve_watch_applies_file_changes_without_a_call(repo):
    from codesift.server.service import IndexService

    service = IndexService(Index(repo), embed=False, refresh_interval=3600)  # no refresh-on-call
    service.start()
    service.start_watching()
    try:
        assert service.wait_ready(30)
        time.sleep(0.8)
        (repo / "src/watched.py").write_text("def appears_while_serving():\n    return 1\n")
        deadline = time.time() + 20
        found = []
        while time.time() < deadline and not found:
            time.sleep(0.2)
            found = service.call_sync(lambda idx: idx.find_symbol("appears_while_serving", exact=True))
        assert found and found[0]["path"] == "src/watched.py"
    finally:
        service.close()


@pytest.mark.model
def test_index_status_gives_embedding_rate_and_eta_while_embedding(repo):
    import threading

    from codesift.server.service import IndexService, _duration

    with Index(repo) as idx:
        idx.update(embed=False)
        svc = IndexService(idx, embed=False)
        hold = threading.Event()
        svc._worker = threading.Thread(target=hold.wait)
        svc._worker.start()
        try:
            svc.state = "embedding"
            assert "embedding_eta_s" not in svc.status()  # no measure yet
            svc._embedded_since = (time.monotonic() - 10, 20)  # 20 chunks in 10 s
            status = svc.status()
            left = status["chunks"] - status["embedded"]
            assert 1.5 < status["embedding_rate"] <= 2.0
            assert abs(status["embedding_eta_s"] - left / status["embedding_rate"]) <= 1
            assert "chunks/s" in status["background"] and "left" in status["background"]
        finally:
            hold.set()
            svc._worker.join()
    assert (_duration(42), _duration(600), _duration(7200)) == ("42 s", "10 min", "2.0 h")


def test_a_root_removed_under_the_server_is_a_one_line_tool_error(tmp_path, monkeypatch):
    """The folder the server indexes is deleted (moved) while it runs: every refreshing tool says so in one line,
    an expected failure, not an internal error with a traceback in the log."""
    from mcp import Client

    from codesift.server.mcp import build_server
    from codesift.server.service import IndexService

    monkeypatch.setenv("CODESIFT_EMBEDDER", "none")
    root = tmp_path / "moved"
    (root / "src").mkdir(parents=True)
    (root / "src" / "app.py").write_text("def rebuild_auth(prepared):\n    return prepared\n")
    service = IndexService(Index(root), embed=False)
    server = build_server(service)
    service.start()

    async def scenario():
        async with Client(server) as client:
            before = await client.call_tool("search_code", {"query": "rebuild_auth"})
            shutil.rmtree(root)
            after = [await client.call_tool(tool, args) for tool, args in
                     (("search_code", {"query": "rebuild_auth"}), ("find_symbol", {"name": "rebuild_auth"}),
                      ("index_status", {}))]
            return before, after

    try:
        before, after = anyio.run(scenario)
    finally:
        service.close()
    assert not before.is_error and "src/app.py" in text(before)
    for result in after:
        assert result.is_error
        assert f"the indexed folder {root} no longer exists" in text(result) and "internal error" not in text(result)


def test_updating_an_index_whose_root_is_gone_raises_root_removed(tmp_path, monkeypatch):
    from codesift.api import RootRemoved

    monkeypatch.setenv("CODESIFT_EMBEDDER", "none")
    root = tmp_path / "gone"
    root.mkdir()
    (root / "a.py").write_text("def f():\n    pass\n")
    with Index(root) as idx:
        idx.update(embed=False)
        shutil.rmtree(root)
        with pytest.raises(RootRemoved, match="no longer exists"):
            idx.update(embed=False)
