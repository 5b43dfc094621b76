"""The agent-facing Markdown renderers: format, budget and paging (pure, no index)."""

import re

from codesift.tools import markdown as md


def result(i=1, **extra):
    r = {"id": 100 + i, "path": "src/http/sessions.py", "start_line": 14, "end_line": 17, "score": 0.87,
         "label": "HIGH", "name": "rebuild_auth", "qualified_name": "SessionRedirectMixin.rebuild_auth",
         "kind": "method", "language": "python", "signature": "def rebuild_auth(self, prepared, response)",
         "snippet": "def rebuild_auth(self, prepared, response):\n    del headers['Authorization']",
         "decorators": [], "route": None}
    return {**r, **extra}


def search(results, **extra):
    return {"query": "rebuild auth", "mode": "hybrid", "embedding_status": "ok", "coverage": 1.0, "notes": [],
            "offset": 0, "limit": 10, "results": results, **extra}


def test_search_result_format():
    r = result(decorators=["@app.route('/x', methods=['GET'])"], route="GET /x")
    text = md.render_search(search([r])).text
    lines = text.splitlines()
    assert lines[0] == "Search `rebuild auth` · mode: hybrid · embedding: ok · results 1-1"
    i = lines.index("### 1. SessionRedirectMixin.rebuild_auth (method) — score 0.87 HIGH")
    assert lines[i + 1 : i + 8] == [
        "**Location:** src/http/sessions.py:14-17",
        "**Language:** python",
        "**Annotations:** `@app.route('/x', methods=['GET'])`",
        "**Route:** GET /x",
        "**Signature:** `def rebuild_auth(self, prepared, response)`",
        "**ID:** 101",
        "```python",
    ]
    assert "    del headers['Authorization']\n```" in text
    assert "truncated" not in text and "coverage" not in lines[0]


def test_search_header_reports_degraded_embedding_and_notes():
    payload = search([result()], embedding_status="keyword_only", coverage=0.4,
                     notes=["semantic search unavailable (no model): keyword results only"])
    text = md.render_search(payload).text
    assert "embedding: keyword_only" in text and "semantic coverage 40%" in text
    assert "> note: semantic search unavailable (no model)" in text
    empty = md.render_search(search([])).text
    assert "no results" in empty and "No matches" in empty


def test_search_budget_truncates_and_names_the_next_offset():
    results = [result(i, snippet="x = 1\n" * 40) for i in range(1, 41)]
    out = md.render_search(search(results, offset=20, limit=40), max_chars=3000)
    assert len(out.text) <= 3000
    shown = len(out.data["results"])
    assert 0 < shown < 40 and out.data["truncated"] and out.data["next_offset"] == 20 + shown
    assert f"… truncated: {40 - shown} more results; call again with offset={20 + shown}" in out.text
    assert out.text.count("### ") == shown and f"### {20 + shown}." in out.text  # numbering continues the page
    assert f"results 21-{20 + shown} shown of 40 found" in out.text.splitlines()[0]
    assert "No more matches past offset 40" in md.render_search(search([], offset=40)).text
    full = md.render_search(search(results[:3], limit=3))
    assert not full.data["truncated"] and full.data["next_offset"] is None
    assert "More results may match: call again with offset=3." in full.text


def test_oversized_first_result_is_clipped_with_its_fence_closed():
    out = md.render_search(search([result(snippet="y = 2\n" * 2000)]), max_chars=1500)
    assert len(out.text) <= 1500 and len(out.data["results"]) == 1
    assert out.text.count("```") % 2 == 0


def test_fence_outgrows_backticks_in_code():
    block = md.fence("s = '```'\n", "python")
    assert block.startswith("````python\n") and block.endswith("\n````")
    assert md.fence("x", "c_sharp").startswith("```csharp")
    assert md.inline("a`b") == "``a`b``"


def test_symbols_similar_and_usages():
    sym = {k: v for k, v in result().items() if k != "snippet"}
    text = md.render_symbols({"name": "RCJ", "offset": 0, "results": [
        {**sym, "match": "camel_hump", "docstring": "A cookie jar.\nWith a dict interface."}]}).text
    assert "### 1. SessionRedirectMixin.rebuild_auth (method) — camel_hump match" in text
    assert "> A cookie jar. With a dict interface." in text and "```" not in text
    assert "No definition matches `zz`" in md.render_symbols({"name": "zz", "results": []}).text
    similar = md.render_similar({"result_id": 7, "source": "f at a.py:1", "spread": True,
                                 "results": [{**sym, "score": 0.5}]}).text
    assert "one per file" in similar and "— similarity 0.50" in similar
    usages = [{"path": "src/a.py", "line": 3, "kind": "call", "enclosing": "main", "text": "  rebuild_auth(x)"},
              {"path": "src/b.py", "line": 9, "kind": "import"}]
    out = md.render_usages({"symbol_name": "rebuild_auth", "limit": 2, "results": usages})
    assert "- `src/a.py:3` call in `main` — `rebuild_auth(x)`" in out.text
    assert "- `src/b.py:9` import" in out.text and "offset=2" in out.text


def test_code_context_numbers_lines_and_pages_by_start_line():
    code = "\n".join(f"line {n}" for n in range(1, 401))
    payload = {"path": "a.py", "ref": None, "language": "python", "start_line": 1, "end_line": 400,
               "total_lines": 400, "symbol": None, "changed_since_indexed": True, "truncated": False, "code": code}
    out = md.render_context(payload, max_chars=2000)
    assert len(out.text) <= 2000 and "**File:** a.py:1-400 (of 400 lines)" in out.text
    assert "  1 | line 1\n" in out.text and "changed since it was indexed" in out.text
    nxt = out.data["next_start_line"]
    assert nxt and f"… truncated: lines {nxt}-400 not shown; call again with start_line={nxt}" in out.text
    assert out.data["end_line"] == nxt - 1 and "code" not in out.data  # the code is in the text only
    page2 = md.render_context(payload, max_chars=2000, start_line=nxt)
    assert f"{nxt} | line {nxt}" in page2.text and page2.data["start_line"] == nxt
    last = md.render_context(payload, start_line=390)
    assert "400 | line 400" in last.text and last.data["next_start_line"] is None


def test_summary_is_one_bullet_per_file_without_code():
    files = [{"path": f"src/f{i}.py", "score": 0.5, "symbols": ["a (function, 1-2)"], "description": "Does a."}
             for i in range(50)]
    out = md.render_summary({"query": "a", "results": files})
    assert len(re.findall(r"^- \*\*src/f\d+\.py\*\*", out.text, re.M)) == 50 and "```" not in out.text
    small = md.render_summary({"query": "a", "results": files}, max_chars=1200)
    assert len(small.text) <= 1200 and "more files; pass service=" in small.text


def test_status_and_sources():
    status = {"root": "/r", "files": 5, "symbols": 10, "chunks": 14, "languages": {"python": 3},
              "skipped": {"binary": 1}, "model": "m", "dim": 384, "embedding_status": "ok", "coverage": 0.5,
              "last_update": 0, "background": "embedding in progress"}
    text = md.render_status(status).text
    assert "- **Files:** 5" in text and "semantic coverage 50%" in text and "embedding in progress" in text
    out = md.render_sources({"root": "/r", "results": [{"service": "src", "files": 2, "symbols": 7}]})
    assert "| service | files | symbols |\n|---|---:|---:|\n| src | 2 | 7 |" in out.text
    assert out.data["results"] == [{"service": "src", "files": 2, "symbols": 7}]


def test_max_chars_is_clamped_into_range_not_refused():
    assert md.clamp_max_chars(800) == md.MIN_MAX_CHARS == 1_000
    assert md.clamp_max_chars(-5) == md.MIN_MAX_CHARS
    assert md.clamp_max_chars(10**9) == md.MAX_MAX_CHARS == 60_000
    assert md.clamp_max_chars(None) == md.DEFAULT_MAX_CHARS == 8_000
    assert md.clamp_max_chars(5_000) == 5_000
    results = [result(i, snippet="x = 1\n" * 40) for i in range(1, 41)]
    assert len(md.render_search(search(results, limit=40)).text) <= md.DEFAULT_MAX_CHARS


def test_structured_data_never_repeats_the_text():
    """Code, snippets, docstrings, signatures and usage lines are in the Markdown once, not in the JSON."""
    searched = md.render_search(search([result(i) for i in range(1, 4)]))
    assert "del headers['Authorization']" in searched.text and "def rebuild_auth(self" in searched.text
    for item in searched.data["results"]:
        assert not md.TEXT_FIELDS & set(item)
        assert {"id", "path", "start_line", "end_line", "kind", "qualified_name", "score"} <= set(item)
    sym = {**result(), "match": "exact", "docstring": "A cookie jar."}
    assert not md.TEXT_FIELDS & set(md.render_symbols({"name": "x", "results": [sym]}).data["results"][0])
    use = {"path": "a.py", "line": 3, "kind": "call", "enclosing": "main", "text": "f(x)", "context": "2: \n3: f(x)"}
    data = md.render_usages({"symbol_name": "f", "results": [use]}).data["results"][0]
    assert data == {"path": "a.py", "line": 3, "kind": "call", "enclosing": "main"}
    code = "\n".join(f"line {n}" for n in range(1, 11))
    ctx = md.render_context({"path": "a.py", "language": "python", "start_line": 1, "end_line": 10,
                             "total_lines": 10, "code": code,
                             "symbol": {"qualified_name": "f", "kind": "function", "start_line": 1, "end_line": 10,
                                        "signature": "def f()"}})
    assert "line 10" in ctx.text and "code" not in ctx.data and "signature" not in ctx.data["symbol"]
    assert ctx.data["symbol"]["qualified_name"] == "f" and ctx.data["end_line"] == 10
    summary = md.render_summary({"query": "a", "results": [{"path": "a.py", "score": 0.5, "symbols": ["f"],
                                                            "description": "Does a."}]})
    assert "Does a." in summary.text and "description" not in summary.data["results"][0]


def test_symbols_page_cut_by_the_limit_names_the_next_offset():
    syms = [{**result(i), "match": "prefix"} for i in range(1, 6)]
    out = md.render_symbols({"name": "re", "offset": 0, "limit": 5, "total": 12, "results": syms})
    assert out.text.startswith("Definitions matching `re`: 5 of 12 from #1")
    assert "7 more definitions match: call again with offset=5." in out.text
    assert out.data["truncated"] and out.data["next_offset"] == 5
    last = md.render_symbols({"name": "re", "offset": 10, "limit": 5, "total": 12, "results": syms[:2]})
    assert "more definitions" not in last.text and last.data["next_offset"] is None


def test_usages_read_as_totals_then_groups_with_tests_last():
    uses = [{"path": "src/a.go", "line": 3, "kind": "call", "qualifier": "s", "enclosing": "Run", "test": False,
             "target": "Server.Start", "text": "s.Start()"},
            {"path": "a_test.go", "line": 9, "kind": "call", "qualifier": "s", "enclosing": "TestA", "test": True,
             "target": "Server.Start"},
            {"path": "src/b.go", "line": 5, "kind": "call", "qualifier": "x", "enclosing": "f", "test": False,
             "target": "unresolved"}]
    payload = {"symbol_name": "Start", "results": uses, "total": 3, "files": 3, "in_tests": 1, "source": "static",
               "groups": [{"target": "Server.Start", "uses": 2, "path": "srv.go", "line": 7},
                          {"target": "unresolved", "uses": 1}],
               "definitions": [{"path": "srv.go", "start_line": 7, "qualified_name": "Server.Start"},
                               {"path": "cli.go", "start_line": 2, "qualified_name": "Client.Start"}]}
    text = md.render_usages(payload).text
    assert text.startswith("Usages of `Start`: 3 in 3 files (1 in tests, listed after the rest).")
    assert ("grouped by likely target: `Server.Start` 2 · unresolved 1.\n\n"
            "No use resolves to `Client.Start` (cli.go:2) for certain; 1 use could not be resolved (listed under "
            "unresolved) and may be its.") in text
    assert ("#### → `Server.Start` — srv.go:7 (2 uses)\n- `src/a.go:3` call via `s` in `Run` — `s.Start()`\n"
            "_in tests:_\n- `a_test.go:9` call") in text
    assert "#### unresolved (1)" in text and "→" not in text.split("#### unresolved")[1]
    page = md.render_usages({**payload, "results": uses[:1], "limit": 1}).text
    assert "showing 1-1" in page and "2 more usages: call again with offset=1." in page
    cli = md.render_usages({**payload, "results": uses[:1]}).text
    assert "2 more usages not shown: raise --limit." in cli


def test_usages_of_nothing_and_guesses_say_so():
    none = md.render_usages({"symbol_name": "Nope", "results": [], "source": "none", "suggestions": ["Nop"],
                             "note": "no definition named 'Nope' and no reference to it in the index"}).text
    assert none.startswith("No definition named 'Nope' and no reference to it in the index.")
    assert "Similar names: `Nop`." in none
    guess = md.render_usages({"symbol_name": "f", "source": "semantic_guess", "note": "these are semantic guesses",
                              "results": [{"path": "a.py", "line": 1, "kind": "guess", "enclosing": "g",
                                           "score": 0.5}]}).text
    assert guess.startswith("No static references to `f`.") and "> note: these are semantic guesses" in guess
    assert "- `a.py:1` guess in `g` (score 0.50)" in guess


def test_answers_end_with_the_next_useful_call():
    """Each answer names the call that usually comes next, with the values from its first item."""
    searched = md.render_search(search([result()])).text
    assert searched.endswith("Next: get_code_context(file_path='src/http/sessions.py', "
                             "symbol_name='SessionRedirectMixin.rebuild_auth') reads #1 in full; "
                             "find_usages('SessionRedirectMixin.rebuild_auth') its uses; "
                             "drill_down(result_id=101) the same concern in other files.")
    section = md.render_search(search([result(kind="section", language="markdown", start_line=40)],
                                      embedding_status="keyword_only", coverage=0.0)).text
    assert "get_code_context(file_path='src/http/sessions.py', start_line=40) reads #1" in section
    assert "find_usages" not in section.split("Next:")[1] and "drill_down" not in section  # no vectors yet
    assert "`grep_code` for exact text" in md.render_search(search([])).text
    sym = {k: v for k, v in result().items() if k != "snippet"}
    assert "get_code_context(file_path='src/http/sessions.py', symbol_name='SessionRedirectMixin.rebuild_auth') " \
           "reads #1's body" in md.render_symbols({"name": "re", "results": [sym]}).text
    similar = md.render_similar({"result_id": 7, "results": [{**sym, "score": 0.5}]}).text
    assert "Next: get_code_context(" in similar and "drill_down" in similar.split("Next:")[1]
    summary = md.render_summary({"query": "a", "results": [{"path": "a.py", "score": 0.5}]}).text
    assert "Next: get_file_outline(file_path='a.py')" in summary
    sources = md.render_sources({"root": "/r", "results": [{"service": ".", "files": 1, "symbols": 1},
                                                           {"service": "src", "files": 2, "symbols": 7}]}).text
    assert sources.endswith("Next: get_repo_map(service='src') lists a folder's most important definitions.")


def test_usages_and_context_point_to_the_call_graph():
    uses = [{"path": "src/a.py", "line": 3, "kind": "call", "enclosing": "main", "text": "f(x)"},
            {"path": "src/b.py", "line": 1, "kind": "import"}]
    mcp = md.render_usages({"symbol_name": "f", "limit": 5, "results": uses}).text
    assert mcp.endswith("Next: get_code_context(file_path='src/a.py', symbol_name='main') reads the first use in "
                        "context; callers('f') lists the calling definitions, impact('f') everything that reaches it.")
    top = md.render_usages({"symbol_name": "f", "limit": 5, "results": uses[1:]}).text
    assert "get_code_context(file_path='src/b.py', start_line=1)" in top  # a module-level use: by line
    cli = md.render_usages({"symbol_name": "f", "results": uses}).text  # the CLI's payload has no limit
    assert cli.endswith("Next: `codesift callers f` lists the calling definitions, `codesift impact f` everything "
                        "that reaches it.")
    nothing = md.render_usages({"symbol_name": "Nope", "limit": 5, "results": [], "source": "none"}).text
    assert "Next: grep_code('Nope') finds the text anywhere" in nothing
    code = "\n".join(f"line {n}" for n in range(1, 11))
    one = {"path": "a.py", "language": "python", "start_line": 1, "end_line": 10, "total_lines": 10, "code": code,
           "symbol": {"qualified_name": "C.f", "kind": "method", "start_line": 1, "end_line": 10}}
    assert md.render_context(one).text.endswith("Next: callers('C.f') / find_usages('C.f') show who uses it; "
                                                "callees('C.f') what it calls.")
    big = {**one, "symbol": None, "end_line": 400, "total_lines": 400,
           "code": "\n".join(f"line {n}" for n in range(1, 401))}
    cut = md.render_context(big, max_chars=2000).text
    assert len(cut) <= 2000 and cut.endswith(", or get_file_outline(file_path='a.py') to pick a definition")
    whole = md.render_context({**big, "end_line": 10, "total_lines": 10, "code": code}).text
    assert whole.endswith("Next: get_file_outline(file_path='a.py') lists its definitions in one screen.")


def test_a_long_next_line_still_fits_the_budget():
    long_name = "Very" * 60
    results = [result(i, qualified_name=long_name, path="src/" + "deep/" * 30 + "x.py", snippet="x = 1\n" * 5)
               for i in range(1, 10)]
    for budget in (1000, 1500, 3000):
        out = md.render_search(search(results, limit=9), max_chars=budget)
        assert len(out.text) <= budget, budget


def test_grouped_answers_name_the_definitions_nothing_resolves_to():
    from codesift.tools.markdown.graph import render_callers

    definitions = [{"path": "cells.py", "start_line": 98, "qualified_name": "cell_len", "kind": "function"},
                   {"path": "text.py", "start_line": 225, "qualified_name": "Text.cell_len", "kind": "method"}]
    call = {"path": "a.py", "line": 3, "name": "f", "kind": "function", "calls": 1, "target": "cell_len"}
    payload = {"symbol": "cell_len", "definitions": definitions, "total": 1, "calls": 1, "results": [call],
               "groups": [{"target": "cell_len", "path": "cells.py", "line": 98, "uses": 1, "callers": 1}]}
    assert "No call was resolved to `Text.cell_len` (text.py:225)." in render_callers(payload).text
    both = {**payload, "groups": [*payload["groups"], {"target": "Text.cell_len", "path": "text.py", "line": 225,
                                                        "uses": 1, "callers": 1}]}
    assert "resolved to" not in render_callers(both).text


def test_a_result_whose_snippet_hides_its_doc_shows_it_on_one_line():
    text = md.render_search(search([result(language="go", doc="Throttle limits requests in flight.")])).text
    assert "**Doc:** `Throttle limits requests in flight.`" in text
    assert "**Doc:**" not in md.render_search(search([result()])).text


def test_a_definition_in_tests_says_so_over_mcp() -> None:
    from codesift.tools.markdown import render_symbols

    found = [{"path": "pkg/config.py", "name": "Config", "qualified_name": "Config", "kind": "class", "start_line": 1,
              "end_line": 9, "match": "exact", "test": False},
             {"path": "tests/test_config.py", "name": "Config", "qualified_name": "Config", "kind": "class",
              "start_line": 3, "end_line": 5, "match": "exact", "test": True}]
    text = render_symbols({"name": "Config", "offset": 0, "limit": 20, "total": 2, "results": found}).text
    assert "(class) — exact match\n" in text and "(class) — exact match, in tests" in text
