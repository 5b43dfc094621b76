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
    assert out.data["code"].splitlines()[-1] == f"line {nxt - 1}"
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
