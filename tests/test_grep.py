"""grep: exact and regex search over the indexed files, on the API, the CLI and MCP (issue 13)."""

import json
import re
import shutil
import subprocess

import anyio
import pytest
from click.testing import CliRunner

from codesift import Index
from codesift.cli.app import main
from codesift.store import grams
from codesift.tools.grep import GrepError, matching_lines, required_literals

SESSIONS = "src/http/sessions.py"


@pytest.fixture
def idx(keyword_index):
    return keyword_index


def pairs(result):
    return [(h["path"], h["line"]) for h in result["results"]]


def test_literal_hits_carry_the_enclosing_symbol_and_come_from_few_files(idx):
    result = idx.grep("headers")
    assert pairs(result) == [(SESSIONS, 16), (SESSIONS, 17)]
    first = result["results"][0]
    assert first["enclosing"] == "SessionRedirectMixin.rebuild_auth" and first["enclosing_kind"] == "method"
    assert first["text"] == "        headers = prepared.headers" and first["column"] == 9
    assert result["strategy"] == "index" and result["literals"] == [["headers"]]
    assert result["files_read"] == 1 < result["indexed_files"] == 5  # the trigram index named one candidate
    assert result["total"] == 2 and not result["more"] and not result["notes"]
    top = idx.grep("import os")["results"]
    assert top == [{"path": SESSIONS, "line": 2, "column": 1, "text": "import os", "enclosing": None,
                    "enclosing_kind": None}]  # module level: no enclosing symbol
    assert idx.grep("Installing")["results"][0]["enclosing"] == "Guide > Installing"  # a Markdown section


def test_case_regex_context_and_filters(idx):
    assert pairs(idx.grep("authorization")) == []
    assert pairs(idx.grep("authorization", case_sensitive=False)) == [(SESSIONS, 9), (SESSIONS, 17)]
    found = idx.grep(r"def \w+_redirects?\(", regex=True)
    assert pairs(found) == [(SESSIONS, 8), ("tests/test_sessions.py", 1)]
    assert found["literals"] == [["def "], ["_redirect"]] and found["strategy"] == "index"
    assert found["results"][1]["enclosing"] == "test_resolve_redirects_follows_redirects"
    with_context = idx.grep("del headers", context_lines=2)["results"][0]
    assert with_context["before"] == ['        """Strip credentials when the redirect leaves the original host."""',
                                      "        headers = prepared.headers"]
    assert with_context["after"] == ["", ""]
    assert pairs(idx.grep("redirect", language="js")) == []
    assert {p for p, _ in pairs(idx.grep("redirect", path="tests/"))} == {"tests/test_sessions.py"}
    assert {p for p, _ in pairs(idx.grep("redirect", service="docs"))} == {"docs/guide.md"}
    assert pairs(idx.grep("parseJsonBody", language="javascript")) == [("web/server.js", 2), ("web/server.js", 7)]


def test_paging_is_a_slice_of_the_whole_answer(idx):
    everything = pairs(idx.grep("redirect", case_sensitive=False, limit=1000))
    assert len(everything) > 5
    page = idx.grep("redirect", case_sensitive=False, limit=2, offset=3)
    assert pairs(page) == everything[3:5] and page["more"] and page["total"] is None
    last = idx.grep("redirect", case_sensitive=False, limit=100, offset=len(everything) - 1)
    assert pairs(last) == everything[-1:] and not last["more"] and last["total"] == len(everything)


def test_without_a_usable_literal_every_file_is_read_and_the_answer_says_so(idx):
    short = idx.grep("os")
    assert short["strategy"] == "scan" and short["files_read"] == 5
    assert "cannot use the trigram index" in short["notes"][0]
    digits = idx.grep(r"\.\w+\(\w+\)", regex=True)
    assert digits["strategy"] == "scan" and "no literal of 3+ characters" in digits["notes"][0]
    assert (SESSIONS, 11) in pairs(digits)


def test_the_live_file_is_read_and_a_stale_index_is_named(idx, repo):
    path = repo / SESSIONS
    path.write_text("# a new first line\n" + path.read_text())
    result = idx.grep("del headers")
    assert pairs(result) == [(SESSIONS, 18)]  # the line as it is now, not as indexed (17)
    hit = result["results"][0]
    assert hit["stale"] and hit["enclosing"] == "SessionRedirectMixin.rebuild_auth"  # re-parsed live
    assert result["stale_files"] == [SESSIONS] and "index stale for 1 file" in result["notes"][0]
    (repo / "src/http/cookies.py").unlink()
    gone = idx.grep("RequestsCookieJar")
    assert gone["results"] == [] and "no longer exist" in gone["notes"][-1]


def test_the_index_follows_edits_and_deletions(idx, repo):
    (repo / "src/http/cookies.py").write_text("class FreshlyAddedTokenXyz:\n    pass\n")
    (repo / "web/server.js").unlink()
    idx.update(embed=False)
    assert pairs(idx.grep("FreshlyAddedTokenXyz")) == [("src/http/cookies.py", 1)]
    assert pairs(idx.grep("RequestsCookieJar")) == [] and pairs(idx.grep("parseJsonBody")) == []
    db = idx.store.db
    assert db.execute("SELECT count(*) FROM grep_text").fetchone()[0] == 4
    db.execute("INSERT INTO grep_grams(grep_grams, rank) VALUES('integrity-check', 0)")  # raises if corrupt
    assert grams.candidates(db, [["parseJsonBody"]]) == []


def test_files_without_indexed_text_are_still_searched(idx):
    """An index written without texts (an older codesift, a caller of replace_file without text)."""
    db = idx.store.db
    for (file_id,) in db.execute("SELECT id FROM files").fetchall():
        grams.remove_file(db, file_id)
    db.commit()
    assert pairs(idx.grep("headers")) == [(SESSIONS, 16), (SESSIONS, 17)]


def test_an_index_of_schema_2_is_migrated_and_re_parsed(repo, monkeypatch):
    monkeypatch.setenv("CODESIFT_EMBEDDER", "none")
    with Index(repo) as index:
        index.update(embed=False)
        index.store.db.executescript("DROP TABLE grep_text; DROP TABLE grep_grams;")
        index.store.set_meta("schema_version", "2")
        index.store.db.commit()
    with Index(repo) as index:
        assert index.store.get_meta("schema_version") == "3"
        assert index.update(embed=False).files_parsed == 5
        result = index.grep("headers")
        assert pairs(result) == [(SESSIONS, 16), (SESSIONS, 17)] and result["files_read"] == 1


def test_bad_patterns_are_refused_with_the_reason(idx):
    for pattern, regex, words in [("", False, "empty"), ("(unclosed", True, "invalid regex"),
                                  ("a\nb", False, "newline"), ("x" * 1001, False, "at most 1,000")]:
        with pytest.raises(GrepError, match=words):
            idx.grep(pattern, regex=regex)
    with pytest.raises(ValueError, match="unknown language"):
        idx.grep("headers", language="cobol2")


# -- matching and literal extraction --------------------------------------------------------------
def test_matching_is_per_line_like_ripgrep():
    text = "alpha beta\nbeta\r\ngamma alpha\n"
    compiled = re.compile(r"a\s+b", re.M)
    assert [n for n, _, _ in matching_lines(text, compiled)] == [1]  # "a\nb" across lines is no match
    assert [n for n, _, _ in matching_lines(text, re.compile("^", re.M))] == [1, 2, 3]  # nothing after the end
    assert matching_lines(text, re.compile(r"beta$", re.M)) == [(1, 7, "alpha beta")]  # "beta\r" is not "beta$"
    assert matching_lines(text, re.compile(r"alpha\s*$", re.M), None)[-1][0] == 3
    assert matching_lines("", re.compile("^", re.M)) == []
    assert matching_lines("x\nab", re.compile("ab"), "ab") == [(2, 1, "ab")]
    anchored = re.compile(r"^gamma \w+$|a\s+b", re.M)  # only lines holding the anchor are searched
    assert matching_lines(text, anchored, anchor="gamma ") == [(3, 1, "gamma alpha")]
    assert matching_lines(text, re.compile(r"alpha", re.M), anchor="alp") == [(1, 1, "alpha beta"),
                                                                            (3, 7, "gamma alpha")]


@pytest.mark.parametrize("pattern, expected", [
    (r"def \w+_queryset\(", [["def "], ["_queryset("]]),
    (r"raise (ValueError|TypeError)\(", [["raise "], ["TypeError", "ValueError"]]),
    (r"(TODO|FIXME|XXX)", [["FIXME", "TODO", "XXX"]]),
    (r"^from django\.db import models$", [["from django.db import models"]]),
    (r"foo(bar)+baz", [["foobar"], ["barbaz"]]),
    (r"foo(bar)*baz", [["foo"], ["baz"]]),
    (r"\d{4}-\d{2}", []), (r"ab|cd", []), (r"(?:abc|de)xyz", [["xyz"]]), (r"(unclosed", []),
])
def test_required_literals(pattern, expected):
    assert required_literals(pattern, regex=True) == expected


def test_required_literals_are_in_every_match():
    """Soundness: whatever a regex matches contains one string of every group (ignoring case)."""
    samples = ["def get_queryset(self):", "raise TypeError('x')", "foobarbarbaz", "FOOBAZ", "fooXYZ dexyz",
               "xx TODO yy", "class MyForm(forms.Form):", "a-b-c abc"]
    patterns = [r"def \w+_queryset\(", r"raise (ValueError|TypeError)\(", r"foo(bar)*baz", r"(?i)foobaz",
                r"(?:abc|de)xyz", r"(TODO|FIXME)", r"class \w+Form\b", r"a.b.c", r"foo(bar)+baz"]
    for pattern in patterns:
        groups = required_literals(pattern, regex=True)
        for text in samples:
            if re.search(pattern, text):
                assert all(any(s.lower() in text.lower() for s in g) for g in groups), (pattern, text)


@pytest.mark.skipif(shutil.which("rg") is None, reason="ripgrep is not installed")
@pytest.mark.parametrize("pattern, regex, icase", [
    ("redirect", False, False), ("Redirect", False, True), ("self", False, False),
    (r"def \w+\(", True, False), (r"^\s+return", True, False), (r"(get|set)\(", True, False),
    (r"\bresp\b", True, False), ("{", False, False),
])
def test_same_hits_as_ripgrep_on_the_same_files(idx, repo, pattern, regex, icase):
    files = [r[0] for r in idx.store.db.execute("SELECT path FROM files")]
    cmd = ["rg", "--no-config", "--null", "-n", "--no-heading", *(["-i"] if icase else []),
           *(["-e", pattern] if regex else ["-F", "-e", pattern]), "--", *files]
    out = subprocess.run(cmd, cwd=repo, capture_output=True).stdout
    expected = set()
    for line in out.split(b"\n"):
        if line:
            path, _, rest = line.partition(b"\0")
            expected.add((path.decode(), int(rest.split(b":", 1)[0])))
    assert set(pairs(idx.grep(pattern, regex=regex, case_sensitive=not icase, limit=10_000))) == expected


# -- the CLI ---------------------------------------------------------------------------------------
def cli(*args):
    return CliRunner().invoke(main, list(args))


def test_cli_prints_ripgrep_like_lines_grouped_by_file_and_symbol(idx, repo):
    result = cli("grep", "redirect", "--root", str(repo), "--no-update", "-i")
    assert result.exit_code == 0, result.output
    out = result.stdout.splitlines()
    assert "# in SessionRedirectMixin.resolve_redirects (method)" in out
    at = out.index("# in SessionRedirectMixin.resolve_redirects (method)")
    assert out[at + 1].startswith(f"{SESSIONS}:8:") and out[at + 2].startswith(f"{SESSIONS}:9:")
    assert "docs/guide.md:5:Run pip install to get started with the redirect helpers." in out
    assert "" in out  # files are apart
    assert "hits in" in result.stderr and "indexed files read" in result.stderr
    context = cli("grep", "del headers", "-C", "1", "--root", str(repo), "--no-update").stdout.splitlines()
    assert context == ["# in SessionRedirectMixin.rebuild_auth (method)",
                       f"{SESSIONS}-16-        headers = prepared.headers",
                       f'{SESSIONS}:17:        del headers["Authorization"]', f"{SESSIONS}-18-"]


def test_cli_json_contract_exit_codes_and_errors(idx, repo, tmp_path):
    result = cli("grep", r"def \w+_redirects?\(", "--regex", "--path", "src/", "--json", "--root", str(repo))
    assert result.exit_code == 0, result.output
    items = json.loads(result.stdout)
    assert [(i["path"], i["line"], i["enclosing"]) for i in items] == [
        (SESSIONS, 8, "SessionRedirectMixin.resolve_redirects")]
    assert set(items[0]) >= {"path", "line", "text", "enclosing"}
    assert items[0]["text"] == "    def resolve_redirects(self, resp, req):"
    none = cli("grep", "no_such_text_anywhere", "--json", "--root", str(repo), "--no-update")
    assert none.exit_code == 1 and json.loads(none.stdout) == []
    bad = cli("grep", "(x", "-e", "--root", str(repo))
    assert bad.exit_code == 2 and "invalid regex" in bad.output and len(bad.output.strip().splitlines()) == 1
    empty = tmp_path / "empty"
    empty.mkdir()
    missing = cli("grep", "x", "--root", str(empty), "--no-update")
    assert missing.exit_code == 1 and "no index here" in missing.output and not (empty / ".codesift").exists()
    limited = cli("grep", "redirect", "-i", "-n", "2", "--json", "--root", str(repo), "--no-update")
    assert len(json.loads(limited.stdout)) == 2 and "more past --limit 2" in limited.stderr


# -- MCP -------------------------------------------------------------------------------------------
def call_tools(repo, calls):
    from mcp import Client

    from codesift.server.service import IndexService
    from codesift.server.mcp import build_server

    service = IndexService(Index(repo), embed=False)
    server = build_server(service)
    service.start()

    async def scenario():
        async with Client(server) as client:
            listed = {t.name: t for t in (await client.list_tools()).tools}
            return listed, [await client.call_tool(name, args) for name, args in calls]

    try:
        return anyio.run(scenario)
    finally:
        service.close()


def text_of(result):
    return "\n".join(block.text for block in result.content if block.type == "text")


def test_mcp_grep_code(repo, monkeypatch):
    monkeypatch.setenv("CODESIFT_EMBEDDER", "none")
    listed, (hit, page, ctx, bad, nothing) = call_tools(repo, [
        ("grep_code", {"pattern": "headers"}),
        ("grep_code", {"pattern": "redirect", "case_sensitive": False, "limit": 2, "offset": 1}),
        ("grep_code", {"pattern": r"del \w+\[", "regex": True, "context_lines": 1}),
        ("grep_code", {"pattern": "([", "regex": True}),
        ("grep_code", {"pattern": "nothing_like_this_here"}),
    ])
    tool = listed["grep_code"]
    assert "instead of shell grep" in tool.description
    assert set(tool.input_schema["properties"]) >= {"pattern", "regex", "path", "language", "service",
                                                    "case_sensitive", "context_lines", "limit", "offset",
                                                    "max_chars"}
    body = text_of(hit)
    assert f"**{SESSIONS}**" in body and "- L16 in `SessionRedirectMixin.rebuild_auth`:" in body
    assert "get_code_context(file_path='src/http/sessions.py', symbol_name='SessionRedirectMixin.rebuild_auth')" in body
    data = hit.structured_content
    assert [(r["path"], r["line"]) for r in data["results"]] == [(SESSIONS, 16), (SESSIONS, 17)]
    assert "text" not in data["results"][0] and data["results"][0]["enclosing"]
    assert page.structured_content["truncated"] and page.structured_content["next_offset"] == 3
    assert "call again with offset=3" in text_of(page)
    assert "```python" in text_of(ctx) and '17> ' in text_of(ctx)
    assert "before" not in ctx.structured_content["results"][0]
    assert bad.is_error and "invalid regex" in text_of(bad) and "\n" not in text_of(bad).strip()
    assert not nothing.is_error and "No hits" in text_of(nothing)
