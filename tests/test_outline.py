"""outline: a file's symbols, nested, without bodies, on the API, the CLI and MCP (issue 13)."""

import json

import pytest
from conftest import run_cli

from codesift.tools.context import ContextError
from codesift.tools.outline import nest

SESSIONS = "src/http/sessions.py"


@pytest.fixture
def idx(keyword_index):
    return keyword_index


def shape(symbols):
    return [(s["name"], s["kind"], s["start_line"], s["end_line"], shape(s["children"])) for s in symbols]


def test_symbols_are_nested_with_signature_and_first_doc_line(idx):
    result = idx.outline(SESSIONS)
    assert result["source"] == "index" and not result["changed_since_indexed"] and not result["notes"]
    assert shape(result["symbols"]) == [
        ("SessionRedirectMixin", "class", 5, 17, [
            ("resolve_redirects", "method", 8, 12, []),
            ("rebuild_auth", "method", 14, 17, []),
        ]),
        ("merge_settings", "function", 20, 22, []),
    ]
    cls = result["symbols"][0]
    assert cls["signature"] == "class SessionRedirectMixin" and cls["doc"] == "Mixin that follows redirects."
    method = cls["children"][1]
    assert method["qualified_name"] == "SessionRedirectMixin.rebuild_auth"
    assert method["signature"] == "def rebuild_auth(self, prepared, response)"
    assert method["doc"] == "Strip credentials when the redirect leaves the original host."
    assert "del headers" not in json.dumps(result)  # no bodies
    assert result["count"] == 4 and result["language"] == "python" and result["total_lines"] == 22


def test_markdown_sections_nest_under_their_heading(idx):
    result = idx.outline("docs/guide.md")
    assert shape(result["symbols"]) == [("Guide", "section", 1, 1, [("Installing", "section", 3, 5, [])])]


def test_long_sections_split_in_pieces_are_one_item():
    pieces = [{"name": "A", "qualified_name": "A", "kind": "section", "start_line": s, "end_line": e,
               "parent": None, "children": []} for s, e in ((1, 60), (61, 120))]
    child = {"name": "B", "qualified_name": "A > B", "kind": "section", "start_line": 121, "end_line": 130,
             "parent": "A", "children": []}
    tree = nest([*pieces, child])
    assert shape(tree) == [("A", "section", 1, 120, [("B", "section", 121, 130, [])])]


def test_a_changed_or_unindexed_file_is_parsed_live_and_says_so(idx, repo):
    path = repo / SESSIONS
    path.write_text(path.read_text() + "\n\ndef added_later():\n    return 1\n")
    result = idx.outline(SESSIONS)
    assert result["source"] == "live" and "changed since it was indexed" in result["notes"][0]
    assert result["symbols"][-1]["name"] == "added_later" and result["symbols"][-1]["start_line"] == 25
    (repo / "src/new.py").write_text("class Fresh:\n    def go(self):\n        pass\n")
    fresh = idx.outline(str(repo / "src/new.py"))  # an absolute path under the root works too
    assert shape(fresh["symbols"]) == [("Fresh", "class", 1, 3, [("go", "method", 2, 3, [])])]
    assert "not in the index" in fresh["notes"][0]


def test_bad_paths_are_refused(idx, repo):
    with pytest.raises(ContextError, match="outside the indexed root"):
        idx.outline("../elsewhere.py")
    with pytest.raises(ContextError, match="no such file"):
        idx.outline("src/missing.py")


cli = run_cli


def test_cli_json_contract_and_text(idx, repo):
    result = cli("outline", SESSIONS, "--json", "--root", str(repo))
    assert result.exit_code == 0, result.output
    tree = json.loads(result.stdout)
    assert set(tree[0]) >= {"name", "kind", "start_line", "end_line", "signature", "doc", "children"}
    assert [c["name"] for c in tree[0]["children"]] == ["resolve_redirects", "rebuild_auth"]
    text = cli("outline", "http/sessions.py", cwd=repo / "src")  # relative to the current directory
    assert text.exit_code == 0, text.output
    lines = text.stdout.splitlines()
    assert lines[0] == "src/http/sessions.py (python, 22 lines, 4 symbols)"
    assert lines[1].split() == ["5-17", "class", "class", "SessionRedirectMixin", "—", "Mixin", "that", "follows",
                                "redirects."]
    assert lines[3].startswith("   14-17      method   def rebuild_auth(self, prepared, response)")
    bad = cli("outline", "nope.py", "--root", str(repo))
    assert bad.exit_code == 2 and "no such file" in bad.output


def test_mcp_get_file_outline(repo, monkeypatch):
    from test_grep import call_tools, text_of

    monkeypatch.setenv("CODESIFT_EMBEDDER", "none")
    listed, (whole, paged, missing) = call_tools(repo, [
        ("get_file_outline", {"file_path": SESSIONS}),
        ("get_file_outline", {"file_path": SESSIONS, "offset": 2}),
        ("get_file_outline", {"file_path": "src/missing.py"}),
    ])
    assert "instead of reading a whole file" in listed["get_file_outline"].description
    body = text_of(whole)
    assert "Outline of `src/http/sessions.py` (python, 22 lines) · 4 symbols · from the index" in body
    assert ("- L5-17 class **SessionRedirectMixin** · `class SessionRedirectMixin` — Mixin that follows redirects."
            in body)
    assert "  - L14-17 method **rebuild_auth** · `def rebuild_auth(self, prepared, response)`" in body
    assert "get_code_context(file_path='src/http/sessions.py', symbol_name='SessionRedirectMixin')" in body
    items = whole.structured_content["results"]
    assert [(i["qualified_name"], i["depth"]) for i in items] == [
        ("SessionRedirectMixin", 0), ("SessionRedirectMixin.resolve_redirects", 1),
        ("SessionRedirectMixin.rebuild_auth", 1), ("merge_settings", 0)]
    assert not {"signature", "doc"} & set(items[0])
    assert [i["name"] for i in paged.structured_content["results"]] == ["rebuild_auth", "merge_settings"]
    assert missing.is_error and "no such file" in text_of(missing)
