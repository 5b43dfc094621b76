import json

import pytest

from codesift import Index
from test_cli import run

USES = {
    "src/app/models.py": '''
        from app.base import Model


        class User(Model):
            """A user. Model is mentioned in this docstring but that is not a reference."""

            def save(self):
                # Model.save would be a comment, not a reference
                return Model.save(self)
        ''',
    "src/app/base.py": '''
        class Model:
            def save(self):
                return "Model"


        def make(kind=Model):
            return kind()
        ''',
    "src/app/other.py": '''
        class Cache:
            def save(self):
                pass


        def flush(c: Cache):
            c.save()
        ''',
}


@pytest.fixture
def index(tmp_path):
    from conftest import write_repo

    root = write_repo(tmp_path / "r", USES)
    with Index(root) as idx:
        idx.update(embed=False)
        yield idx


def test_static_usages_exclude_definitions_strings_and_comments(index):
    result = index.find_usages("Model")
    sites = {(u["path"], u["line"], u["kind"]) for u in result["usages"]}
    assert sites == {
        ("src/app/models.py", 1, "import"),
        ("src/app/models.py", 4, "inherit"),
        ("src/app/models.py", 9, "reference"),
        ("src/app/base.py", 6, "reference"),
    }
    assert result["source"] == "static" and not result["ambiguous"]
    line9 = next(u for u in result["usages"] if u["line"] == 9)
    assert line9["enclosing"] == "User.save" and "Model.save(self)" in line9["text"]
    assert result["definitions"][0]["path"] == "src/app/base.py"


def test_ambiguous_names_are_grouped_by_target(index):
    result = index.find_usages("save")
    assert result["ambiguous"] and "definitions" in result["note"]
    by_line = {(u["path"], u["line"]): u for u in result["usages"]}
    assert by_line[("src/app/models.py", 9)]["target"] == "Model.save"
    assert by_line[("src/app/other.py", 7)]["kind"] == "call"


def test_usages_follow_edits(index):
    f = index.root / "src/app/base.py"
    f.write_text(f.read_text().replace("kind=Model", "kind=None"))
    index.update(embed=False)
    assert ("src/app/base.py", 6) not in {(u["path"], u["line"]) for u in index.find_usages("Model")["usages"]}


@pytest.mark.model
def test_no_static_reference_falls_back_to_labelled_guesses(index):
    result = index.find_usages("flush")
    assert result["source"] == "semantic_guess" and "guesses" in result["note"]
    assert all(u["kind"] == "guess" for u in result["usages"])
    out = run("usages", "flush", "--root", str(index.root))
    assert out.exit_code == 1 and "semantic guesses" in out.output  # guesses shown, but no reference found
    assert run("usages", "Model", "--root", str(index.root)).exit_code == 0


def test_bad_arguments(index):
    with pytest.raises(ValueError):
        index.find_usages("  ")
    with pytest.raises(ValueError):
        index.find_usages("Model", limit=0)


def test_cli_usages_json_contract(index):
    result = run("usages", "Model", "--json", "--root", str(index.root))
    assert result.exit_code == 0, result.output
    items = json.loads(result.stdout)
    assert {(i["path"], i["line"]) for i in items} >= {("src/app/models.py", 4), ("src/app/base.py", 6)}
    assert all({"path", "line", "kind", "enclosing", "test"} <= set(i) for i in items)
    human = run("usages", "save", "--root", str(index.root))
    assert "src/app/other.py:7" in human.output
    assert "Usages of `save`: 2 in 2 files (none in tests)." in human.output  # not "2 from #1"
    assert "#### → `Cache.save` — src/app/other.py:2 (1 use)" in human.output  # groups are shown


GO = {
    "server/server.go": """
        package server

        type Server struct{ addr string }

        func NewServer(addr string) *Server { return &Server{addr: addr} }

        func (s *Server) Start() error {
        \ts.listen()
        \treturn nil
        }

        func (s *Server) listen() {}
        """,
    "client/client.go": """
        package client

        import "example.com/app/server"

        type Client struct{}

        func (c *Client) Start() error { return nil }

        func Run(srv *server.Server, c *Client) {
        \tsrv.Start()
        \tc.Start()
        \ts2 := server.NewServer(":80")
        \ts2.Start()
        \tother := &Client{}
        \tother.Start()
        }
        """,
    "client/a_test.go": """
        package client

        func TestRun(t *testing.T) {
        \tc := &Client{}
        \tc.Start()
        }
        """,
}

RUST = {
    "src/net/mod.rs": """
        pub struct Conn { id: u32 }

        impl Conn {
            pub fn new(id: u32) -> Self { Conn { id } }

            pub fn close(&self) {
                self.flush();
            }

            fn flush(&self) {}
        }
        """,
    "src/file.rs": """
        pub struct File;

        impl File {
            pub fn new() -> File { File }
            pub fn close(&self) {}
        }
        """,
    "src/main.rs": """
        mod file;
        mod net;

        use crate::file::File;
        use crate::net::Conn;

        fn main() {
            let c = Conn::new(1);
            c.close();
            let f = File::new();
            f.close();
            net::Conn::new(2).close();
        }

        #[cfg(test)]
        mod tests {
            use super::*;

            #[test]
            fn closes() {
                let c = Conn::new(3);
                c.close();
            }
        }
        """,
}


def _indexed(tmp_path, files):
    from conftest import write_repo

    idx = Index(write_repo(tmp_path / "repo", files))
    idx.update(embed=False)
    return idx


def _targets(result):
    return {(u["path"], u["line"]): u.get("target") for u in result["usages"]}


def test_go_receivers_resolve_by_receiver_parameter_and_local_types(tmp_path):
    with _indexed(tmp_path, GO) as idx:
        result = idx.find_usages("Start")
        assert result["ambiguous"] and _targets(result) == {
            ("client/client.go", 10): "Server.Start",  # srv *server.Server
            ("client/client.go", 11): "Client.Start",  # c *Client
            ("client/client.go", 13): "Server.Start",  # s2 := server.NewServer(...)
            ("client/client.go", 15): "Client.Start",  # other := &Client{}
            ("client/a_test.go", 5): "Client.Start",
        }
        # grouped by target, biggest group first; the test file last in its group
        assert [(u["target"], u["path"], u["test"]) for u in result["usages"]] == [
            ("Client.Start", "client/client.go", False), ("Client.Start", "client/client.go", False),
            ("Client.Start", "client/a_test.go", True),
            ("Server.Start", "client/client.go", False), ("Server.Start", "client/client.go", False)]
        assert [(g["target"], g["uses"]) for g in result["groups"]] == [("Client.Start", 3), ("Server.Start", 2)]
        assert result["total"] == 5 and result["files"] == 2 and result["in_tests"] == 1


def test_rust_paths_impl_blocks_and_in_file_tests(tmp_path):
    with _indexed(tmp_path, RUST) as idx:
        close = idx.find_usages("close")
        assert _targets(close) == {
            ("src/main.rs", 9): "Conn.close",  # let c = Conn::new(1)
            ("src/main.rs", 11): "File.close",  # let f = File::new()
            ("src/main.rs", 12): "Conn.close",  # net::Conn::new(2).close()
            ("src/main.rs", 22): "Conn.close",  # in #[cfg(test)] mod tests
        }
        assert [u["test"] for u in close["usages"] if u["target"] == "Conn.close"] == [False, False, True]
        new = idx.find_usages("new")
        assert set(_targets(new).values()) == {"Conn.new", "File.new"}
        assert _targets(new)[("src/main.rs", 12)] == "Conn.new"  # net::Conn::new
        flush = idx.find_usages("flush")  # one definition: no grouping needed
        assert [(u["line"], u["enclosing"]) for u in flush["usages"]] == [(7, "Conn.close")]
        # a qualified name keeps the uses that resolve to it (an impl block is not a definition of Conn)
        only = idx.find_usages("Conn.close")
        assert {u["target"] for u in only["usages"]} == {"Conn.close"} and only["left_out"] == 1
        conn = idx.find_usages("Conn")
        assert not conn["ambiguous"] and [d["kind"] for d in conn["definitions"]] == ["struct"]


def test_non_test_code_comes_first_whatever_the_alphabet(tmp_path):
    files = {"aaa/tests/test_m.py": "from zzz.m import helper\n\nhelper()\n",
             "zzz/m.py": "def helper():\n    pass\n\n\ndef main():\n    helper()\n"}
    with _indexed(tmp_path, files) as idx:
        result = idx.find_usages("helper")
        assert [(u["path"], u["test"]) for u in result["usages"]] == [
            ("zzz/m.py", False), ("aaa/tests/test_m.py", True), ("aaa/tests/test_m.py", True)]
        # the order does not depend on the limit: a page is the start of the full list
        assert idx.find_usages("helper", limit=1)["usages"] == result["usages"][:1]
        assert idx.find_usages("helper", limit=1)["total"] == 3


def test_a_name_defined_nowhere_is_said_so_not_guessed(index):
    result = index.find_usages("NoSuchThing")
    assert result["source"] == "none" and result["usages"] == []
    assert "no definition named 'NoSuchThing'" in result["note"]
    similar = index.find_usages("Cach")  # a prefix of a real name: suggested
    assert similar["source"] == "none" and "Cache" in similar["suggestions"]
    wrong_owner = index.find_usages("Nope.save")
    assert wrong_owner["source"] == "none" and "Model.save" in wrong_owner["note"]
    out = run("usages", "NoSuchThing", "--root", str(index.root))
    assert out.exit_code == 1 and "No definition named 'NoSuchThing'" in out.output and "guess" not in out.output


RUST_MODULES = {
    "src/util.rs": "pub fn helper() -> u32 { 1 }\npub fn other() {}\n",
    "src/extra.rs": ("pub fn helper() -> u32 { 2 }\npub struct Pool;\nimpl Pool {\n"
                     "    pub fn get(&self) -> u32 { Self::helper() }\n    fn helper() -> u32 { 3 }\n}\n"),
    "src/lib.rs": ("mod util;\nmod extra;\nuse crate::util::{helper, other};\n\n"
                   "pub fn run() -> u32 {\n    other();\n    let a = helper();\n    a + extra::helper()\n}\n"),
}


GO_ROOT_PACKAGE = {  # a module whose root folder is package chi: its callers write chi.URLParam
    "go.mod": "module example.com/chi/v5\n",
    "context.go": ("// Package chi routes.\npackage chi\n\nfunc URLParam(key string) string { return key }\n\n"
                   "type Context struct{}\n\nfunc (x *Context) URLParam(key string) string { return key }\n\n"
                   "func RouteContext(key string) *Context { return nil }\n\n"
                   "func Param(key string) string {\n\tif rctx := RouteContext(key); rctx != nil {\n"
                   "\t\treturn rctx.URLParam(key)\n\t}\n\treturn \"\"\n}\n"),
    "examples/main.go": ('package main\n\nimport "example.com/chi/v5"\n\n'
                         'func handler() string {\n\treturn chi.URLParam("id")\n}\n'),
}


def test_go_package_qualifier_is_the_package_clause_not_the_folder(tmp_path):
    with _indexed(tmp_path, GO_ROOT_PACKAGE) as idx:
        assert [(s["qualified_name"], s["match"]) for s in idx.find_symbol("chi.URLParam")] == [("URLParam", "exact")]
        assert [s["qualified_name"] for s in idx.find_symbol("chi.Context.URLParam")] == ["Context.URLParam"]
        assert all(s["match"] != "exact" for s in idx.find_symbol("other.URLParam"))
        targets = _targets(idx.find_usages("URLParam"))
        assert targets[("examples/main.go", 6)] == "URLParam"
        assert targets[("context.go", 14)] == "Context.URLParam"  # rctx: what RouteContext returns, not a type
        assert [c["name"] for c in idx.callers("chi.URLParam")["results"]] == ["handler"]
        top = idx.search("chi.URLParam", mode="keyword").results[0]
        assert (top.qualified_name, top.label) == ("URLParam", "HIGH")


def test_a_module_qualifier_picks_that_files_definition(tmp_path):
    files = {"pkg/__init__.py": "", "pkg/validate.py": "class Email:\n    pass\n",
             "pkg/fields.py": "class Email:\n    pass\n",
             "app.py": "from pkg import validate\n\n\ndef check():\n    return validate.Email()\n"}
    with _indexed(tmp_path, files) as idx:
        def exact(name):
            return [s["path"] for s in idx.find_symbol(name) if s["match"] == "exact"]

        assert exact("validate.Email") == ["pkg/validate.py"]
        assert exact("pkg.fields.Email") == ["pkg/fields.py"]
        assert exact("other.Email") == []
        result = idx.find_usages("validate.Email")
        assert [d["path"] for d in result["definitions"]] == ["pkg/validate.py"]
        assert ("app.py", 5) in {(u["path"], u["line"]) for u in result["usages"]}


def test_a_go_file_is_no_module_but_its_folder_is(tmp_path):
    # testify: assert/assertions.go has ``func Equal`` and assert/assertion_forward.go ``(a *Assertions) Equal``
    files = {"assert/assertions.go": "package assert\n\nfunc Equal(a, b int) bool { return a == b }\n",
             "assert/forward.go": "package assert\n\ntype Assertions struct{}\n\n"
                                  "func (a *Assertions) Equal(x, y int) bool { return Equal(x, y) }\n"}
    with _indexed(tmp_path, files) as idx:
        found = [(s["qualified_name"], s["match"]) for s in idx.find_symbol("Assertions.Equal")]
        assert found[0] == ("Assertions.Equal", "exact")
        assert ("Equal", "exact") not in found  # the file assertions.go is not a package ``assertions``
        assert [s["qualified_name"] for s in idx.find_symbol("assert.Equal") if s["match"] == "exact"] == ["Equal"]


def test_rust_use_lists_module_paths_and_self(tmp_path):
    with _indexed(tmp_path, RUST_MODULES) as idx:
        result = idx.find_usages("helper")
        # two free functions share the qualified name ``helper``: their labels carry the path
        assert _targets(result) == {
            ("src/lib.rs", 3): "helper (src/util.rs)",  # the use declaration
            ("src/lib.rs", 7): "helper (src/util.rs)",  # bare, imported by ``use crate::util::{helper…}``
            ("src/lib.rs", 8): "helper (src/extra.rs)",  # extra::helper(): the module's function, not Pool's
            ("src/extra.rs", 4): "Pool.helper",  # Self::helper()
        }
        assert [(g["target"], g.get("path"), g["uses"]) for g in result["groups"]] == [
            ("helper (src/util.rs)", "src/util.rs", 2), ("Pool.helper", "src/extra.rs", 1),
            ("helper (src/extra.rs)", "src/extra.rs", 1)]


def test_a_name_used_only_as_a_string_lists_those_strings_first(tmp_path, monkeypatch):
    """No static reference, but the name is a whole string literal (a PHP callable, getattr): those lines come
    first, labelled ``string``, before the semantic guesses; quoted as part of a longer string they do not count."""
    from conftest import write_repo

    monkeypatch.setenv("CODESIFT_EMBEDDER", "none")
    files = {
        "src/filters.php": """<?php
            function twig_escape_filter($env, $string) { return $string; }

            function filters(): array {
                return [new TwigFilter('escape', 'twig_escape_filter'), new TwigFilter('e', "twig_escape_filter")];
            }
            """,
        "src/hooks.py": """
            def run(obj):
                return getattr(obj, "twig_escape_filter_is_safe")(1)
            """,
        "src/notes.py": """
            MESSAGE = "call twig_escape_filter when in doubt"
            """,
        "lib/site.rb": """
            class Site
              def site_data
                @cache[:site_data] ||= load
              end
            end

            class SiteDrop
              delegate_method_as :site_data, :data
              LABEL = "site_data: the site's data"
            end
            """,
    }
    with Index(write_repo(tmp_path / "repo", files)) as idx:
        idx.update(embed=False)
        result = idx.find_usages("twig_escape_filter")
        strings = [(u["path"], u["line"], u["enclosing"]) for u in result["usages"] if u["kind"] == "string"]
        assert strings == [("src/filters.php", 5, "filters")]  # one line, holding it twice
        assert result["usages"][0]["kind"] == "string"
        assert result["source"] == "semantic_guess" and "it is a whole string on 1 line" in result["note"]
        assert "TwigFilter('escape', 'twig_escape_filter')" in result["usages"][0]["text"]
        out = run("usages", "twig_escape_filter", "--root", str(idx.root))
        assert out.exit_code == 1  # still no static reference
        assert "`src/filters.php:5` string in `filters`" in out.output
        # a Ruby method: its symbol too, but not inside its own definition nor as part of a longer string
        symbols = [(u["path"], u["line"], u["kind"]) for u in idx.find_usages("site_data")["usages"]
                   if u["kind"] != "guess"]
        assert symbols == [("lib/site.rb", 8, "symbol")]


def test_reads_of_a_parameter_or_local_of_the_name_are_left_out(tmp_path, monkeypatch):
    """Lexical scope: ``size`` inside ``fun maxSize(size: Long)`` is the parameter, not the method ``size``, and a
    Kotlin ``val`` or Python local of the name likewise; the count is said. A pytest fixture is handed over by
    parameter name, so there the parameter is its use."""
    monkeypatch.setenv("CODESIFT_EMBEDDER", "none")
    files = {
        "src/Builder.kt": """
            class Builder {
                private var maxSize = 0L

                fun size(): Long = maxSize

                fun maxSize(size: Long): Builder {
                    require(size > 0) { "size must be > 0" }
                    this.maxSize = size
                    return this
                }

                fun grow(): Long {
                    val size = size() * 2
                    return size
                }

                fun wait(timeout: Long): Long = timeout * 2
            }
            """,
        "tests/conftest.py": """
            import pytest


            @pytest.fixture
            def app():
                return object()
            """,
        "tests/test_app.py": """
            def test_app(app):
                assert app is not None
            """,
    }
    idx = _indexed(tmp_path, files)
    with idx:
        result = idx.find_usages("size")
        lines = sorted(u["line"] for u in result["usages"])
        assert lines == [13]  # the call in grow(); not lines 7, 8 (the parameter) nor 14 (the val)
        assert result["shadowed"] == 3 and "3 reads of a parameter or local also named 'size'" in result["note"]
        out = run("usages", "size", "--root", str(idx.root))
        assert out.exit_code == 0 and "Left out: 3 reads of a parameter or local" in out.output
        # a name nothing defines: its parameter's reads are no uses of outside code either
        outside = idx.find_usages("timeout")
        assert outside["usages"] == [] and outside["shadowed"] == 1 and outside["source"] == "none"
        fixture = idx.find_usages("app")
        assert [(u["path"], u["line"]) for u in fixture["usages"]] == [("tests/test_app.py", 2)]
        assert "shadowed" not in fixture


def test_a_local_is_a_declaration_where_the_language_declares_it(tmp_path, monkeypatch):
    """Java's ``String label = …`` declares a local (its reads are left out); a plain ``total = …`` in Kotlin or
    Java assigns the property or field, whose reads stay uses; Ruby's ``path =~ /x/`` binds nothing."""
    monkeypatch.setenv("CODESIFT_EMBEDDER", "none")
    files = {
        "src/Label.java": """
            class Label {
                String label() { return "x"; }

                void print() {
                    String label = label();
                    System.out.println(label);
                }
            }
            """,
        "src/Counter.kt": """
            class Counter {
                var total = 0

                fun bump(): Int {
                    total = total + 1
                    return total
                }
            }
            """,
        "lib/page.rb": """
            class Page
              def path
                @path
              end

              def dated?
                path =~ /[0-9]{4}/
                path.start_with?("_posts")
              end
            end
            """,
    }
    with _indexed(tmp_path, files) as idx:
        label = idx.find_usages("label")
        assert [u["line"] for u in label["usages"]] == [5] and label["shadowed"] == 1  # the call, not the local
        total = idx.find_usages("total")
        assert sorted(u["line"] for u in total["usages"]) == [5, 6] and "shadowed" not in total
        path = idx.find_usages("path")
        assert sorted(u["line"] for u in path["usages"]) == [7, 8] and "shadowed" not in path
