"""The call graph (callers, callees, impact) on small Python and Go repositories: API, CLI and MCP."""

import json

import anyio
import pytest

from codesift import Index
from conftest import write_repo
from test_cli import run

PY = {
    "src/app/core.py": '''
        class Store:
            def get(self, key):
                return self._load(key)

            def _load(self, key):
                return key


        def make_store() -> Store:
            return Store()
        ''',
    "src/app/api.py": '''
        from app.core import make_store


        def handler(req):
            store = make_store()
            return store.get(req)


        def other(req):
            return handler(req)
        ''',
    "src/app/cli.py": '''
        from app.api import handler

        def main():
            handler(1)
            handler(2)

        main()
        ''',
    "tests/test_api.py": '''
        from app.api import handler


        def test_handler():
            assert handler(1)
        ''',
}

GO = {
    "go.mod": "module example.com/app\n",
    "server/server.go": '''
        package server

        type Server struct{ name string }

        func NewServer(name string) *Server { return &Server{name: name} }

        func (s *Server) Start() error { return s.listen() }

        func (s *Server) listen() error { return nil }
        ''',
    "client/client.go": '''
        package client

        type Client struct{}

        func (c *Client) Start() error { return nil }

        func Run() {
            c := &Client{}
            c.Start()
        }
        ''',
    "main.go": '''
        package main

        import "example.com/app/server"

        func main() {
            srv := server.NewServer("x")
            srv.Start()
        }
        ''',
}


@pytest.fixture(scope="module")
def py(tmp_path_factory):
    root = write_repo(tmp_path_factory.mktemp("graph") / "py", PY)
    with Index(root) as idx:
        idx.update(embed=False)
        yield idx


@pytest.fixture(scope="module")
def go(tmp_path_factory):
    root = write_repo(tmp_path_factory.mktemp("graph") / "go", GO)
    with Index(root) as idx:
        idx.update(embed=False)
        yield idx


def names(result):
    return [(r["path"], r["name"]) for r in result["results"]]


def test_callers_are_the_enclosing_definitions_of_the_calls(py):
    result = py.callers("handler")
    assert names(result) == [("src/app/api.py", "other"), ("src/app/cli.py", "main"),
                             ("tests/test_api.py", "test_handler")]  # non-test first, tests last
    main = result["results"][1]
    assert main["calls"] == 2 and main["lines"] == [4, 5] and main["line"] == 4
    assert main["definition"] == {"path": "src/app/cli.py", "start_line": 3, "end_line": 5,
                                  "qualified_name": "main", "kind": "function"}
    assert result["results"][2]["test"] and result["in_tests"] == 1
    assert result["calls"] == 4 and not result["ambiguous"]


def test_module_level_calls_and_imports(py):
    result = py.callers("main")
    assert [(r["name"], r["kind"], r["line"], r["definition"]) for r in result["results"]] == [
        ("<module>", "module", 7, None)]
    # the import of handler is a use, not a call
    assert all(r["name"] != "<module>" for r in py.callers("handler")["results"])


def test_callees_resolve_to_definitions(py):
    result = py.callees("handler")
    by_name = {r["name"]: r for r in result["results"]}
    assert set(by_name) == {"make_store", "get"}
    assert by_name["make_store"]["definition"]["path"] == "src/app/core.py"
    assert by_name["make_store"]["resolution"] == "only definition"
    # ``store = make_store()`` and make_store says it returns Store: the receiver's type is known
    assert by_name["get"]["definition"]["qualified_name"] == "Store.get"
    assert by_name["get"]["resolution"] == "resolved"
    assert [r["line"] for r in result["results"]] == [5, 6]
    inner = py.callees("Store.get")["results"]
    assert [(r["name"], r["definition"]["qualified_name"]) for r in inner] == [("_load", "Store._load")]


def test_go_ambiguous_names_grouped_and_resolved(go):
    callees = go.callees("main")
    by_name = {r["name"]: r for r in callees["results"]}
    assert by_name["NewServer"]["definition"]["path"] == "server/server.go"
    assert by_name["Start"]["definition"]["qualified_name"] == "Server.Start"  # srv := server.NewServer(..)
    assert by_name["Start"]["candidates"] == 2
    callers = go.callers("Start")
    assert callers["ambiguous"]
    assert {(r["target"], r["name"]) for r in callers["results"]} == {("Server.Start", "main"),
                                                                      ("Client.Start", "Run")}
    assert {g["target"] for g in callers["groups"]} == {"Server.Start", "Client.Start"}
    only = go.callers("Client.Start")  # the qualified name keeps that definition's callers
    assert [r["name"] for r in only["results"]] == ["Run"]


def test_a_call_through_an_imported_package_is_not_the_index_method_of_that_name(tmp_path):
    files = {"chain.go": "package chi\n\ntype Chain struct{}\n\nfunc (c Chain) HandlerFunc() {}\n",
             "main.go": ('package chi\n\nimport "net/http"\n\nfunc wrap(c Chain) {\n'
                         '\thttp.HandlerFunc(nil)\n\tc.HandlerFunc()\n}\n')}
    with Index(write_repo(tmp_path / "go", files)) as idx:
        idx.update(embed=False)
        calls = [(r["qualifier"], r["resolution"]) for r in idx.callees("wrap")["results"]]
        assert calls == [("http", "outside the index"), ("c", "resolved")]


def test_reading_a_property_calls_it(tmp_path):
    files = {"resp.py": """
        import functools


        class Response:
            def __init__(self):
                self.raw = b""

            @property
            def content(self):
                return self.raw

            @content.setter
            def content(self, value):
                self.raw = value

            @functools.cached_property
            def text(self):
                return self.content.decode()


        def show(r: Response):
            print(r.text, r.raw)
        """,
             "size.ts": "class Box {\n  get size(): number { return 1; }\n}\n"
                        "function area(b: Box) { return b.size; }\n"}
    with Index(write_repo(tmp_path / "py", files)) as idx:
        idx.update(embed=False)
        assert names(idx.callers("Response.content")) == [("resp.py", "Response.text")]
        assert names(idx.callers("text")) == [("resp.py", "show")]
        assert names(idx.callers("size")) == [("size.ts", "area")]
        assert idx.callers("raw")["results"] == []  # a field: read, never called
        callees = {(r["name"], r["definition"]["qualified_name"] if r["definition"] else None)
                   for r in idx.callees("show")["results"]}
        assert ("text", "Response.text") in callees and not any(n == "raw" for n, _ in callees)
        assert {r["name"] for r in idx.callees("Response.text")["results"]} >= {"content"}


def test_callees_of_several_definitions_say_which_body(go):
    result = go.callees("Start")
    by_caller = {(r["caller"], r["name"]) for r in result["results"]}
    assert ("Server.Start (server/server.go:7)", "listen") in by_caller
    assert len(result["definitions"]) == 2


def test_impact_follows_hops(py):
    one = py.impact("_load", depth=1)
    assert [(r["name"], r["depth"]) for r in one["results"]] == [("Store.get", 1)]
    three = py.impact("_load", depth=3)
    got = {(r["name"], r["depth"]) for r in three["results"]}
    assert {("Store.get", 1), ("handler", 2), ("other", 3), ("main", 3), ("test_handler", 3)} <= got
    assert three["results"][-1]["test"]  # tests after the rest of their hop
    files = {f["path"]: f for f in three["files"]}
    assert files["src/app/api.py"]["symbols"] == 2 and "tests/test_api.py" in files
    assert not three["truncated"]
    with pytest.raises(ValueError):
        py.impact("_load", depth=0)


def test_unknown_and_empty_names(py):
    result = py.callees("handl")
    assert result["results"] == [] and "no definition" in result["note"] and "handler" in result["suggestions"]
    assert py.callers("handlr")["results"] == []
    unused = py.callers("other")  # defined, never referenced: no semantic guesses
    assert unused["results"] == [] and unused["definitions"][0]["qualified_name"] == "other"
    from codesift.tools.markdown.graph import render_callers

    assert render_callers({**unused, "offset": 0}).text.startswith("No calls to `other` in the index.")
    with pytest.raises(ValueError):
        py.callers("  ")


def test_cli_callers_callees_impact(py):
    root = str(py.root)
    out = run("callers", "handler", "--json", "--root", root)
    assert out.exit_code == 0, out.output
    items = json.loads(out.stdout)
    assert all({"path", "line", "name"} <= set(i) for i in items) and items[0]["name"] == "other"
    out = run("callees", "handler", "--json", "--root", root)
    assert {i["name"] for i in json.loads(out.stdout)} == {"make_store", "get"}
    text = run("callees", "handler", "--root", root).output
    assert "`make_store` → `make_store` src/app/core.py:9-10 (function)" in text
    text = run("callers", "handler", "--root", root).output
    assert "Callers of `handler`: 3 definitions (4 calls), 1 in tests" in text and "`codesift impact handler`" in text
    text = run("impact", "_load", "--depth", "3", "--root", root).output
    assert "#### hop 3" in text and "Files: " in text
    assert run("callers", " ", "--root", root).exit_code == 2
    for tool in ("callers", "callees", "impact"):  # nothing found: exit code 1, as grep's, with or without --json
        assert run(tool, "no_such_name", "--root", root).exit_code == 1
        assert run(tool, "no_such_name", "--json", "--root", root).exit_code == 1


def test_mcp_tools(py):
    from mcp import Client

    from codesift.server.service import IndexService
    from codesift.server.mcp import build_server

    service = IndexService(Index(py.root), embed=False)
    server = build_server(service)
    service.start()

    async def scenario():
        async with Client(server) as client:
            listed = {t.name: t for t in (await client.list_tools()).tools}
            calls = {"callers": ("callers", {"symbol_name": "handler", "limit": 1}),
                     "callees": ("callees", {"symbol_name": "handler"}),
                     "impact": ("impact", {"symbol_name": "_load", "depth": 3}),
                     "empty": ("callers", {"symbol_name": ""}),
                     "bad_depth": ("impact", {"symbol_name": "_load", "depth": 0})}
            return listed, {k: await client.call_tool(n, a) for k, (n, a) in calls.items()}

    try:
        listed, out = anyio.run(scenario)
    finally:
        service.close()
    assert {"callers", "callees", "impact"} <= set(listed)
    assert "instead of" in listed["callers"].description
    text = "\n".join(b.text for b in out["callers"].content)
    assert "src/app/api.py:10" in text and "2 more callers: call again with offset=1" in text
    assert out["callers"].structured_content["results"][0]["name"] == "other"
    assert "make_store" in "\n".join(b.text for b in out["callees"].content)
    assert out["impact"].structured_content["total"] >= 5
    assert out["empty"].is_error and out["bad_depth"].is_error


def test_a_php_callable_array_calls_the_method_of_its_own_class(tmp_path, monkeypatch):
    monkeypatch.setenv("CODESIFT_EMBEDDER", "none")
    parser = """<?php
        class {name}Parser
        {{
            public function parse(Stream $stream): Node
            {{
                return $this->parser->subparse([$this, 'decideEnd'], true);
            }}

            public function decideEnd(Token $token): bool
            {{
                return $token->test('end{name}');
            }}
        }}
        """
    files = {f"src/{name}Parser.php": parser.format(name=name) for name in ("For", "If")}
    with Index(write_repo(tmp_path / "php", files)) as idx:
        idx.update(embed=False)
        only = idx.callers("ForParser.decideEnd")
        assert [(r["name"], r["target"]) for r in only["results"]] == [("ForParser.parse", "ForParser.decideEnd")]
        assert only["results"][0]["path"] == "src/ForParser.php"
        callees = {r["name"]: r["definition"]["qualified_name"] for r in idx.callees("IfParser.parse")["results"]
                   if r.get("definition")}
        assert callees["decideEnd"] == "IfParser.decideEnd"


def test_overloads_are_one_target_and_the_enclosing_type_wins_over_a_namesake(tmp_path, monkeypatch):
    """Two nested types of one short name (CodeBlock.Builder, MethodSpec.Builder), each with two overloads of
    addStatement: a bare call inside CodeBlock.Builder resolves to CodeBlock.Builder's family, and neither of its
    overloads is said to have no caller."""
    monkeypatch.setenv("CODESIFT_EMBEDDER", "none")
    builder = """package demo;

        public final class {outer} {{
          public static final class Builder {{
            public Builder addStatement(String format, Object... args) {{
              return this;
            }}

            public Builder addStatement({outer} block) {{
              return addStatement("$L", block);
            }}
          }}
        }}
        """
    files = {f"src/demo/{outer}.java": builder.format(outer=outer) for outer in ("CodeBlock", "MethodSpec")}
    with Index(write_repo(tmp_path / "java", files)) as idx:
        idx.update(embed=False)
        result = idx.callers("CodeBlock.Builder.addStatement")
        assert [(r["name"], r["target"]) for r in result["results"]] == [
            ("CodeBlock.Builder.addStatement", "CodeBlock.Builder.addStatement")]
        assert [g["target"] for g in result["groups"]] == ["CodeBlock.Builder.addStatement"]
        out = run("callers", "CodeBlock.Builder.addStatement", "--root", str(idx.root))
        assert out.exit_code == 0 and "No call resolves" not in out.output and "unresolved" not in out.output


def test_impact_goes_on_through_an_overload_that_is_not_the_first(tmp_path, monkeypatch):
    """The overloads of one file share their group, which names the first: the hop through the second one keeps
    its callers."""
    monkeypatch.setenv("CODESIFT_EMBEDDER", "none")
    files = {"src/demo/Emitter.java": """package demo;

        public final class Emitter {
          public void emit(int code) {
          }

          public void emit(String text) {
            flush();
          }

          void flush() {
          }
        }
        """,
             "src/demo/Other.java": """package demo;

        public final class Other {
          public void emit(String text) {
          }
        }
        """,
             "src/demo/Main.java": """package demo;

        public final class Main {
          void run(Emitter emitter) {
            emitter.emit("hello");
          }
        }
        """}
    with Index(write_repo(tmp_path / "java", files)) as idx:
        idx.update(embed=False)
        got = {(r["name"], r["depth"]) for r in idx.impact("Emitter.flush", depth=2)["results"]}
        assert ("Emitter.emit", 1) in got and ("Main.run", 2) in got
