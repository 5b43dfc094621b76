"""The repository map: PageRank over the reference index, focus, budget, paging; API, CLI and MCP."""

import json

import anyio
import numpy as np
import pytest

from codesift import Index
from codesift.tools.refgraph import pagerank
from conftest import write_repo
from test_cli import run

FILES = {
    "src/core/store.py": '''
        class Store:
            """Everything goes through the store."""

            def get(self, key):
                return key

            def put(self, key, value):
                return value


        def open_store(path: str) -> Store:
            return Store()
        ''',
    "src/core/util.py": '''
        def lonely_helper(x):
            return x
        ''',
    "src/web/views.py": '''
        from core.store import Store, open_store


        def index_view(request):
            store = open_store("db")
            return store.get(request)


        def detail_view(request):
            store = open_store("db")
            return store.get(request)


        def save_view(request, store: Store):
            store.put(request, 1)
            return render_page(request)


        def render_page(request):
            return request
        ''',
    "src/web/admin.py": '''
        from core.store import open_store


        def admin_view(request):
            return open_store("admin")
        ''',
    "src/cli/main.go": '''
        package main

        type Config struct{ Name string }

        func LoadConfig() *Config { return &Config{} }

        func main() {
            c := LoadConfig()
            run(c)
        }

        func run(c *Config) { println(c.Name) }
        ''',
    "tests/test_views.py": '''
        from web.views import index_view, render_page


        def test_index():
            assert index_view(1)
            assert render_page(2)
        ''',
}


@pytest.fixture(scope="module")
def index(tmp_path_factory):
    root = write_repo(tmp_path_factory.mktemp("map") / "repo", FILES)
    with Index(root) as idx:
        idx.update(embed=False)
        yield idx


def listed(result):
    return [s["qualified_name"] for f in result["files"] for s in f["symbols"]]


def ranked(result):
    """Qualified names in rank order (the map groups by file)."""
    return [s["qualified_name"] for s in sorted((s for f in result["files"] for s in f["symbols"]),
                                                key=lambda s: -s["rank"])]


def test_pagerank_power_iteration():
    # 0, 1, 2 all point at 3; 3 points at 4; 4 points nowhere (dangling)
    src, dst = np.array([0, 1, 2, 3]), np.array([3, 3, 3, 4])
    r = pagerank(src, dst, np.ones(4), 5)
    assert abs(r.sum() - 1) < 1e-9
    assert r[4] > r[3] > r[0] and abs(r[0] - r[1]) < 1e-12
    personal = np.array([1.0, 0, 0, 0, 0])
    focused = pagerank(src, dst, np.ones(4), 5, personal)
    assert focused[0] > focused[1] and focused[1] == focused[2]


def test_most_referenced_definitions_come_first(index):
    result = index.repo_map(budget_tokens=2000)
    order = ranked(result)
    assert order.index("open_store") < order.index("lonely_helper")
    assert order.index("Store") < order.index("lonely_helper")
    assert "test_index" not in order and result["tests_left_out"]  # tests use the code; they are not mapped
    store = next(f for f in result["files"] if f["path"] == "src/core/store.py")
    assert [s["qualified_name"] for s in store["symbols"]] == ["Store", "Store.get", "Store.put", "open_store"]
    assert store["symbols"][0]["signature"] == "class Store" and store["symbols"][0]["uses"] >= 2
    assert result["total"] == len(order) and result["next_offset"] is None
    assert "LoadConfig" in order and "Config" in order  # Go too


def test_map_text_is_grouped_by_file_with_one_line_signatures(index):
    result = index.repo_map(budget_tokens=2000)
    from codesift.tools.markdown.graph import render_map

    text = render_map(result, cli=True).text
    assert "tokens ≈ characters / 4" in text
    assert "src/core/store.py\n  1: class Store\n  4:   def get(self, key)\n" in text  # methods under their class
    assert "  11: def open_store(path: str) -> Store\n" in text
    assert "return" not in text  # no bodies


def test_budget_cuts_a_prefix_of_the_ranking(index):
    big = index.repo_map(budget_tokens=2000)
    small = index.repo_map(budget_tokens=200)
    assert 0 < small["shown"] < big["shown"]
    assert small["tokens"] <= 200 < big["budget_tokens"]
    from codesift.tools.markdown.graph import render_map

    assert len(render_map(small).text) <= 200 * 4
    assert index.repo_map(budget_tokens=1)["budget_tokens"] == 200  # brought up to the smallest useful map
    assert set(listed(small)) <= set(listed(big)) and small["next_offset"] == small["shown"]
    rest = index.repo_map(budget_tokens=2000, offset=small["next_offset"])
    assert not set(listed(rest)) & set(listed(small))
    assert set(listed(rest)) | set(listed(small)) == set(listed(big))


def test_focus_pulls_neighbours_up(index):
    plain = ranked(index.repo_map(budget_tokens=2000))
    focused = index.repo_map(budget_tokens=2000, focus=["src/web/admin.py"])
    order = ranked(focused)
    assert focused["focus_matched"] == {"src/web/admin.py": 1} and "admin_view" not in order  # focus: not listed
    assert plain[0] != "open_store" and order[0] == "open_store"  # what the focus uses
    go = ranked(index.repo_map(budget_tokens=2000, focus=["LoadConfig"]))
    assert go[:2] == ["Config", "main"] or set(go[:2]) == {"Config", "main"}  # what it uses, what uses it
    by_name = ranked(index.repo_map(budget_tokens=2000, focus="save_view"))
    assert by_name.index("render_page") < plain.index("render_page") or by_name[0] == "render_page"
    missing = index.repo_map(focus="no_such_thing")
    assert missing["notes"] and "no_such_thing" in missing["notes"][0]


def test_service_narrows_the_map(index):
    result = index.repo_map(service="src/web")
    assert {f["path"] for f in result["files"]} == {"src/web/views.py", "src/web/admin.py"}
    with pytest.raises(ValueError, match="no indexed file"):
        index.repo_map(service="nope")


def test_graph_is_rebuilt_when_files_change(tmp_path):
    root = write_repo(tmp_path / "r", {"a.py": "def alpha():\n    return 1\n"})
    with Index(root) as idx:
        idx.update(embed=False)
        assert listed(idx.repo_map()) == ["alpha"]
        (root / "b.py").write_text("from a import alpha\n\ndef beta():\n    return alpha()\n")
        idx.update(embed=False)
        result = idx.repo_map()
        assert set(listed(result)) == {"alpha", "beta"} and ranked(result)[0] == "alpha"


def test_cli_map(index):
    root = str(index.root)
    out = run("map", "--budget", "2000", "--root", root, "--json")
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    assert data["files"] and {"path", "symbols"} <= set(data["files"][0])
    text = run("map", "--focus", "save_view", "--focus", "src/core/util.py", "--root", root).output
    assert "Focus: `save_view`, `src/core/util.py`" in text and "```" not in text
    small = run("map", "--budget", "200", "--root", root).output
    assert "`codesift map --offset" in small
    assert run("map", "--service", "nope", "--root", root).exit_code == 2


def test_cli_map_without_index_creates_nothing(tmp_path):
    result = run("map", "--no-update", "--root", str(tmp_path))
    assert result.exit_code == 1 and "no index here" in result.output
    assert not (tmp_path / ".codesift").exists()


def test_mcp_get_repo_map(index):
    from mcp import Client

    from codesift.server.service import IndexService
    from codesift.server.mcp import build_server

    service = IndexService(Index(index.root), embed=False)
    server = build_server(service)
    service.start()

    async def scenario():
        async with Client(server) as client:
            tools = {t.name: t for t in (await client.list_tools()).tools}
            small = await client.call_tool("get_repo_map", {"budget_tokens": 200})
            focused = await client.call_tool("get_repo_map", {"focus": ["save_view"], "service": "src"})
            huge = await client.call_tool("get_repo_map", {"budget_tokens": 10**9})
            return tools, small, focused, huge

    try:
        tools, small, focused, huge = anyio.run(scenario)
    finally:
        service.close()
    assert "instead of" in tools["get_repo_map"].description
    assert {"budget_tokens", "focus", "service", "offset"} <= set(tools["get_repo_map"].input_schema["properties"])
    text = "\n".join(b.text for b in small.content)
    assert not small.is_error and len(text) <= 800 and "call again with offset=" in text
    data = small.structured_content
    assert data["next_offset"] == data["shown"] and "signature" not in data["files"][0]["symbols"][0]
    assert not focused.is_error and focused.structured_content["focus_symbols"] == 1
    assert huge.structured_content["budget_tokens"] == 15_000


def test_graph_is_kept_in_the_index_folder(index, monkeypatch):
    from codesift.tools import refgraph

    first = index.repo_map(budget_tokens=2000)
    assert (index.folder / refgraph.GRAPH_FILE).is_file()

    def no_build(*args, **kwargs):
        raise AssertionError("the saved graph should have been used")

    monkeypatch.setattr(refgraph, "build_graph", no_build)
    with Index(index.root, create=False) as again:  # a new process, say: no graph in memory
        assert again.repo_map(budget_tokens=2000)["files"] == first["files"]
