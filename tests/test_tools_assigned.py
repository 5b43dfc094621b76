"""Top-level constants and variables found by name (``codesift.tools.assigned``), through find_symbol."""

import pytest

from codesift import Index
from conftest import write_repo

FILES = {
    "settings.py": """
        DEFAULT_TIMEOUT = 30
        retries: int = 3
        session_factory = make_factory(retries=3)


        def timeout():
            local_value = DEFAULT_TIMEOUT
            return local_value


        class Config:
            LIMIT = 5


        ROUTES = {
            "home": "/",
            "about": ["/about", "/info"],
        }
        """,
    "errors.go": """
        package store

        import "errors"

        var ErrNotFound = errors.New("not found")

        const MaxDepth = 10

        var (
        \tDefaultStore = &Store{}
        \terrClosed    = errors.New("closed")
        )

        type Store struct{}

        func (s *Store) Get() error {
        \tinFunction := 1
        \t_ = inFunction
        \treturn ErrNotFound
        }
        """,
    "limits.rs": "pub const MAX_LEN: usize = 10;\nstatic GLOBAL_COUNT: u8 = 0;\n",
    "schema.ts": "export const union = K.union(M);\nexport const DEFAULT_OPTIONS = { strict: true };\n",
    "Limits.java": "public class Limits {\n    public static final int MAX_ITEMS = 100;\n}\n",
    "buf.h": "#define BUF_SIZE 4096\n",
}


@pytest.fixture(scope="module")
def idx(tmp_path_factory):
    with Index(write_repo(tmp_path_factory.mktemp("assigned") / "repo", FILES)) as index:
        index.update(embed=False)
        yield index


@pytest.mark.parametrize("name, path, line, kind", [
    ("DEFAULT_TIMEOUT", "settings.py", 1, "constant"), ("retries", "settings.py", 2, "variable"),
    ("session_factory", "settings.py", 3, "variable"), ("ErrNotFound", "errors.go", 5, "variable"),
    ("MaxDepth", "errors.go", 7, "constant"), ("DefaultStore", "errors.go", 10, "variable"),
    ("errClosed", "errors.go", 11, "variable"), ("MAX_LEN", "limits.rs", 1, "constant"),
    ("GLOBAL_COUNT", "limits.rs", 2, "constant"), ("union", "schema.ts", 1, "constant"),
    ("DEFAULT_OPTIONS", "schema.ts", 2, "constant"), ("MAX_ITEMS", "Limits.java", 2, "constant"),
    ("BUF_SIZE", "buf.h", 1, "constant"),
])
def test_a_top_level_declaration_is_found_by_name(idx, name, path, line, kind):
    found = idx.find_symbol(name)
    assert [(s["path"], s["start_line"], s["kind"], s["match"]) for s in found[:1]] == [(path, line, kind, "exact")]
    assert name in str(found[0]["signature"])


def test_locals_and_defined_names_are_not_declarations(idx):
    assert idx.find_symbol("local_value") == []  # a function's local
    assert idx.find_symbol("inFunction") == []
    limit = idx.find_symbol("LIMIT")[0]  # a Python class attribute
    assert (limit["qualified_name"], limit["kind"], limit["start_line"]) == ("Config.LIMIT", "constant", 12)
    assert [s["kind"] for s in idx.find_symbol("timeout", exact=True)] == ["function"]  # a definition: as before
    assert idx.find_symbol("DEFAULT_TIMEOUT", kind="function") == []
    java = idx.find_symbol("MAX_ITEMS")[0]
    assert (java["qualified_name"], java["parent"]) == ("Limits.MAX_ITEMS", "Limits")


def test_usages_name_where_a_constant_is_set(idx):
    result = idx.find_usages("DEFAULT_TIMEOUT")
    assert [(d["path"], d["start_line"], d["kind"]) for d in result["definitions"]] == [
        ("settings.py", 1, "constant")]
    assert [(u["path"], u["line"]) for u in result["usages"]] == [("settings.py", 7)]
    assert "outside" not in str(result.get("note", ""))
    assert [r["name"] for r in idx.callers("ErrNotFound")["results"]] == []  # read, not called
    assert any(r["name"] == "Store.Get" for r in idx.impact("ErrNotFound")["results"])


def test_search_for_a_constants_name_puts_where_it_is_set_first(idx):
    for name, path, line in (("ErrNotFound", "errors.go", 5), ("DEFAULT_TIMEOUT", "settings.py", 1)):
        top = idx.search(name, mode="keyword").results[0]
        assert (top.path, top.start_line <= line <= top.end_line, top.label) == (path, True, "HIGH"), name
        assert (top.name, top.snippet_line) == (name, line) and name in top.snippet.splitlines()[0]
    # a name some definition has: found as a definition, the fallback not asked
    assert idx.search("timeout", mode="keyword").results[0].qualified_name == "timeout"


def test_get_code_context_reads_a_declaration_by_name(idx):
    from codesift.tools.context import ContextError

    ctx = idx.get_code_context("settings.py", "ROUTES")
    assert (ctx["start_line"], ctx["end_line"], ctx["symbol"]["kind"]) == (15, 18, "constant")
    assert ctx["code"].startswith("ROUTES = {") and ctx["code"].endswith("}")
    assert idx.get_code_context("settings.py", "Config.LIMIT")["code"].strip() == "LIMIT = 5"
    assert idx.get_code_context("errors.go", "errClosed")["symbol"]["start_line"] == 11
    with pytest.raises(ContextError, match="no symbol 'local_value'"):
        idx.get_code_context("settings.py", "local_value")  # a function's local
    with pytest.raises(ContextError):
        idx.get_code_context("settings.py", "Other.LIMIT")
