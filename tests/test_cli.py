import json

import pytest
from conftest import run_cli


run = run_cli


@pytest.mark.model
def test_index_then_search_json_contract(repo):
    result = run("index", str(repo), "--json")
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)
    assert summary["files"] == 5 and summary["coverage"] == 1.0
    result = run("search", "rebuild_auth", "--json", "--limit", "3", cwd=repo / "src")
    assert result.exit_code == 0, result.output
    items = json.loads(result.stdout)
    assert 1 <= len(items) <= 3
    first = items[0]
    assert set(first) >= {"path", "start_line", "end_line", "score", "name", "qualified_name", "kind",
                          "language", "snippet", "label", "score_kind"}
    assert (first["path"], first["start_line"]) == ("src/http/sessions.py", 14)


@pytest.mark.model
def test_human_output_and_status(repo):
    assert run("index", str(repo), "-q").exit_code == 0
    result = run("search", "cookie jar", "--root", str(repo))
    assert result.exit_code == 0
    assert "src/http/cookies.py" in result.output and "RequestsCookieJar" in result.output
    result = run("status", str(repo), "--json")
    info = json.loads(result.output)
    assert info["files"] == 5 and info["embedding_status"] == "ok"
    total = info["windows"]["total"]
    assert total > 0 and info["windows"]["embedded"] == total
    human = run("status", str(repo))
    assert human.exit_code == 0 and f"{total} of {total} embedded" in human.output


def test_missing_path_and_file_give_one_line_and_exit_2(tmp_path):
    for args in (["index", str(tmp_path / "missing")], ["status", str(tmp_path / "missing")],
                 ["search", "x", "--root", str(tmp_path / "missing")]):
        result = run(*args)
        assert result.exit_code == 2, (args, result.output)
        assert len(result.output.strip().splitlines()) == 1
        assert "Traceback" not in result.output
    (tmp_path / "file.txt").write_text("x")
    result = run("index", str(tmp_path / "file.txt"))
    assert result.exit_code == 2 and "not a directory" in result.output


def test_bad_option_values_are_usage_errors(repo):
    assert run("search", "x", "--mode", "fuzzy", "--root", str(repo)).exit_code == 2
    assert run("search", "x", "--limit", "0", "--root", str(repo)).exit_code == 2


@pytest.mark.model
def test_search_explain_and_threshold(repo):
    assert run("index", str(repo), "-q").exit_code == 0
    result = run("search", "RequestsCookieJar", "--json", "--explain", "--root", str(repo))
    items = json.loads(result.stdout)
    first = items[0]
    assert first["qualified_name"] == "RequestsCookieJar" and first["label"] == "HIGH"  # named exactly
    assert first["explain"]["shape"] == "identifier" and "name_match" in first["explain"]
    assert first["keyword_rank"] is not None
    result = run("search", "RequestsCookieJar", "--explain", "--root", str(repo))
    assert "keyword_rank=" in result.output and "weights=" in result.output
    strict = json.loads(run("search", "cookie", "--json", "--threshold", "0.9", "--root", str(repo)).stdout)
    assert all(item["score"] >= 0.9 for item in strict)
    assert run("search", "x", "--threshold", "2", "--root", str(repo)).exit_code == 2


@pytest.mark.model
def test_an_index_of_another_model_searches_by_keywords_until_index_re_embeds_it(repo, monkeypatch):
    assert run("index", str(repo), "-q").exit_code == 0
    import sqlite3

    db = sqlite3.connect(repo / ".codesift" / "meta.db")
    db.execute("UPDATE meta SET value='another-model' WHERE key='model_id'")
    db.commit()
    db.close()
    # A search refresh embeds at most auto_embed_limit chunks: 0 here, so this one answers by keywords
    (repo / "codesift.toml").write_text("auto_embed_limit = 0\n")
    result = run("search", "where are redirects followed", "--root", str(repo))
    assert result.exit_code == 0 and "Traceback" not in result.output
    assert "codesift index" in result.output  # says why it is keyword-only and what fixes it
    assert run("index", str(repo), "-q").exit_code == 0
    status = json.loads(run("status", str(repo), "--json").stdout)
    assert status["model"] != "another-model" and status["coverage"] == 1.0


@pytest.mark.model
def test_query_starting_with_dashes_is_a_query(repo):
    assert run("index", str(repo), "-q").exit_code == 0
    result = run("search", "--cookie jar", "--json", "--root", str(repo))
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)[0]["path"] == "src/http/cookies.py"
    assert run("search", "x", "--limit", "0", "--root", str(repo)).exit_code == 2  # real options still checked


def test_symbol_finds_definitions_like_the_api(repo, monkeypatch):
    """`codesift symbol` is find_symbol on the command line: exact, prefix, camel-hump, substring."""
    monkeypatch.setenv("CODESIFT_EMBEDDER", "none")  # names only: no vectors needed
    assert run("index", str(repo), "-q", "--no-embed").exit_code == 0
    result = run("symbol", "RCJ", "--root", str(repo), "--no-update")
    assert result.exit_code == 0, result.output
    assert "src/http/cookies.py:" in result.output and "RequestsCookieJar (class)  camel_hump match" in result.output
    assert "    class RequestsCookieJar" in result.output  # the signature, indented under its line
    items = json.loads(run("symbol", "rebuild", "--json", "--root", str(repo)).stdout)
    assert items[0]["qualified_name"] == "SessionRedirectMixin.rebuild_auth" and items[0]["match"] == "prefix"
    from codesift import Index

    with Index(repo) as idx:
        assert [i["id"] for i in items] == [s["id"] for s in idx.find_symbol("rebuild")]
    methods = json.loads(run("symbol", "re", "--kind", "method", "--json", "--root", str(repo)).stdout)
    assert methods and {m["kind"] for m in methods} == {"method"}
    assert len(json.loads(run("symbol", "re", "--limit", "1", "--json", "--root", str(repo)).stdout)) == 1
    assert "more; raise --limit" in run("symbol", "re", "--limit", "1", "--root", str(repo)).output
    exact = json.loads(run("symbol", "rebuild", "--exact", "--json", "--root", str(repo)).stdout)
    assert exact == []
    none = run("symbol", "zzqqxx", "--root", str(repo))
    assert none.exit_code == 1 and "No definition matches 'zzqqxx'" in none.output  # as grep: nothing found


def test_empty_or_too_long_input_is_one_line_and_exit_2_everywhere(tmp_path):
    """The API's message (codesift.limits), before any index is opened or created."""
    from codesift.limits import MAX_NAME_CHARS, MAX_QUERY_CHARS, InputError, check_name, check_query

    cases = [(["usages", ""], check_name, ""), (["usages", "  \t"], check_name, "  \t"),
             (["symbol", ""], check_name, ""), (["symbol", "x" * (MAX_NAME_CHARS + 1)], check_name, "x" * 301),
             (["search", " "], check_query, " "), (["search", "q" * (MAX_QUERY_CHARS + 1)], check_query, "q" * 2001)]
    for args, check, value in cases:
        result = run(*args, "--root", str(tmp_path))
        try:
            check(value)
        except InputError as exc:
            expected = f"codesift: {exc}"
        assert result.exit_code == 2, (args, result.output)
        assert result.stderr.strip() == expected and "Traceback" not in result.output, args
    assert not (tmp_path / ".codesift").exists()


def test_an_error_codesift_raises_on_purpose_is_one_line_and_exit_1(tmp_path, monkeypatch):
    """The indexed folder moved away under `codesift watch` (or any other CodesiftError a command does not handle
    itself): its message on one line, exit 1, no traceback."""
    from codesift.api import Index, RootRemoved

    def gone(self, **_):
        raise RootRemoved(self.root)

    monkeypatch.setenv("CODESIFT_EMBEDDER", "none")
    (tmp_path / "a.py").write_text("def f():\n    pass\n")
    monkeypatch.setattr(Index, "update", gone)
    result = run_cli("watch", str(tmp_path))
    assert result.exit_code == 1
    assert result.output.strip() == (f"codesift: the indexed folder {tmp_path} no longer exists (moved or deleted?); "
                                     "index it where it is now with `codesift index PATH`")
    assert result.exception is None or isinstance(result.exception, SystemExit)
