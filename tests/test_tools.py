import subprocess

import pytest

from codesift.tools.context import ContextError


def test_find_symbol_exact_prefix_hump_substring(keyword_index):
    exact = keyword_index.find_symbol("rebuild_auth", exact=True)
    assert [(s["qualified_name"], s["start_line"], s["match"]) for s in exact] == [
        ("SessionRedirectMixin.rebuild_auth", 14, "exact")]
    assert keyword_index.find_symbol("SessionRedirectMixin.rebuild_auth", exact=True)[0]["name"] == "rebuild_auth"
    assert keyword_index.find_symbol("Mixin.rebuild_auth", exact=True) == []
    for spelled in ("SessionRedirectMixin::rebuild_auth", "SessionRedirectMixin#rebuild_auth",
                    "SessionRedirectMixin->rebuild_auth"):  # Rust/C++, Ruby, PHP qualifier syntax
        found = keyword_index.find_symbol(spelled, exact=True)
        assert found[0]["qualified_name"] == "SessionRedirectMixin.rebuild_auth"
    prefix = keyword_index.find_symbol("resolve_")
    assert prefix[0]["name"] == "resolve_redirects" and prefix[0]["match"] == "prefix"
    hump = keyword_index.find_symbol("RCJ")
    assert hump[0]["name"] == "RequestsCookieJar" and hump[0]["match"] == "camel_hump"
    sub = keyword_index.find_symbol("cookiejar")
    assert {s["name"] for s in sub} == {"RequestsCookieJar"} and sub[0]["match"] == "substring"
    assert keyword_index.find_symbol("get", kind="method")[0]["qualified_name"] == "RequestsCookieJar.get"
    assert keyword_index.find_symbol("get", kind="class") == []
    # case aside in the lookup, the spelling as typed first among the exact matches
    assert [s["name"] for s in keyword_index.find_symbol("requestscookiejar", exact=True)] == ["RequestsCookieJar"]
    with pytest.raises(ValueError, match="the name is empty"):  # as on the CLI and MCP (codesift.limits)
        keyword_index.find_symbol("")


def test_find_symbol_puts_the_spelling_as_typed_first(tmp_path, monkeypatch):
    from codesift import Index

    monkeypatch.setenv("CODESIFT_EMBEDDER", "none")
    (tmp_path / "sessions.py").write_text("class Session:\n    pass\n\n\ndef session():\n    return Session()\n")
    with Index(tmp_path) as idx:
        idx.update(embed=False)
        assert [s["kind"] for s in idx.find_symbol("session", exact=True)] == ["function", "class"]
        assert [s["kind"] for s in idx.find_symbol("Session", exact=True)] == ["class", "function"]


def test_find_symbol_lists_test_local_definitions_after_the_real_one_and_marks_them(tmp_path, monkeypatch):
    from codesift import Index
    from codesift.cli.search import symbols_text

    monkeypatch.setenv("CODESIFT_EMBEDDER", "none")
    for rel in ("a_tests/test_config.py", "pkg/tests/test_loader.py", "pkg/conftest.py"):  # sort before pkg/config.py
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("class Config:\n    pass\n")
    (tmp_path / "pkg" / "config.py").write_text("class Config:\n    \"\"\"The real one.\"\"\"\n")
    with Index(tmp_path) as idx:
        idx.update(embed=False)
        found = idx.find_symbol("Config", exact=True)
    assert [s["path"] for s in found][0] == "pkg/config.py"
    assert found[0]["test"] is False
    assert {s["path"] for s in found[1:]} == {"a_tests/test_config.py", "pkg/tests/test_loader.py", "pkg/conftest.py"}
    assert all(s["test"] and s["match"] == "exact" for s in found[1:])
    lines = [line for line in symbols_text("Config", found, 10).splitlines() if not line.startswith(" ")]
    assert lines[0].endswith("exact match") and lines[-1].endswith("exact match, in tests")


def test_find_symbol_offers_close_names_for_a_typo(keyword_index):
    got = keyword_index.find_symbol("rebuld_auth")
    assert [(s["name"], s["match"]) for s in got] == [("rebuild_auth", "similar")]
    assert keyword_index.find_symbol("RequestCookieJar")[0]["name"] == "RequestsCookieJar"
    assert keyword_index.find_symbol("rebuld_auth", exact=True) == []  # exact asks for the name only
    assert keyword_index.find_symbol("zzqqxxvv") == []
    notes = keyword_index.search("rebuld_auth", mode="keyword").notes
    assert any("close names: SessionRedirectMixin.rebuild_auth" in n for n in notes)
    assert not any("close names" in n for n in keyword_index.search("rebuild_auth", mode="keyword").notes)


def test_find_symbol_finds_a_short_name_with_a_typo_near_its_end(tmp_path, monkeypatch):
    from codesift import Index

    monkeypatch.setenv("CODESIFT_EMBEDDER", "none")
    (tmp_path / "term.py").write_text("class Console:\n    pass\n\n\ndef segment():\n    return 1\n\n\n"
                                      "class Table:\n    pass\n\n\ndef count():\n    return 0\n")
    with Index(tmp_path) as idx:
        idx.update(embed=False)
        # 'consle' keeps only the trigrams 'con' and 'ons' of 'console', 'segmnt' only 'seg' and 'egm',
        # 'tabel' only 'tab', 'conut' none of 'count'
        typos = (("consle", "Console"), ("Segmnt", "segment"), ("cnsole", "Console"), ("Consoel", "Console"),
                 ("Tabel", "Table"), ("conut", "count"))
        for typo, name in typos:
            assert [(s["name"], s["match"]) for s in idx.find_symbol(typo)] == [(name, "similar")], typo
        # a one-word search no indexed text holds says which names are close; one that is there does not
        assert "no indexed text contains 'consle'; close names: Console" in idx.search("consle", mode="keyword").notes
        assert not any("close names" in n for n in idx.search("console", mode="keyword").notes)
        assert not any("close names" in n for n in idx.search("consle table", mode="keyword").notes)


def test_find_symbol_follows_edits(keyword_index, repo):
    f = repo / "src/http/cookies.py"
    f.write_text(f.read_text().replace("RequestsCookieJar", "SessionCookieJar"))
    keyword_index.update()
    assert keyword_index.find_symbol("RequestsCookieJar", exact=True) == []
    assert keyword_index.find_symbol("SessionCookieJar", exact=True)[0]["start_line"] == 1


def test_get_code_context_symbol_and_file(keyword_index):
    ctx = keyword_index.get_code_context("src/http/sessions.py", "rebuild_auth")
    assert ctx["start_line"] == 14 and ctx["code"].startswith("    def rebuild_auth")
    assert ctx["changed_since_indexed"] is False
    whole = keyword_index.get_code_context("web/server.js")
    assert whole["start_line"] == 1 and whole["end_line"] == whole["total_lines"]
    ctx = keyword_index.get_code_context("src/http/sessions.py", "merge_settings", context_lines=2)
    assert ctx["start_line"] == 18 and ctx["symbol"]["start_line"] == 20


def test_get_code_context_is_live_and_flags_changes(keyword_index, repo):
    f = repo / "src/http/cookies.py"
    f.write_text("# edited\n" + f.read_text())
    ctx = keyword_index.get_code_context("src/http/cookies.py", "RequestsCookieJar")
    assert ctx["start_line"] == 2 and ctx["changed_since_indexed"] is True


def test_get_code_context_refuses_paths_outside_root(keyword_index, repo, tmp_path):
    (tmp_path / "secret.txt").write_text("no")
    (repo / "link").symlink_to(tmp_path / "secret.txt")
    for bad in ("../secret.txt", str(tmp_path / "secret.txt"), "link", "/etc/passwd"):
        with pytest.raises(ContextError, match="outside the indexed root"):
            keyword_index.get_code_context(bad)
    with pytest.raises(ContextError, match="no such file"):
        keyword_index.get_code_context("nope.py")
    with pytest.raises(ContextError, match="no symbol") as err:
        keyword_index.get_code_context("src/http/sessions.py", "nope")
    assert "did you mean" not in str(err.value)
    with pytest.raises(ContextError, match=r"no symbol 'rebuld_auth' in src/http/sessions.py; did you mean "
                                           r"SessionRedirectMixin.rebuild_auth\? Other symbols there: "):
        keyword_index.get_code_context("src/http/sessions.py", "rebuld_auth")


def test_get_code_context_at_git_ref(keyword_index, repo):
    git = ["git", "-c", "user.email=a@b", "-c", "user.name=t"]
    subprocess.run(["git", "init", "-q"], cwd=repo, check=True)
    subprocess.run(git + ["add", "-A"], cwd=repo, check=True)
    subprocess.run(git + ["commit", "-qm", "x"], cwd=repo, check=True)
    (repo / "web/server.js").write_text("// gone\n")
    ctx = keyword_index.get_code_context("web/server.js", "parseJsonBody", ref="HEAD")
    assert "JSON.parse" in ctx["code"]
    with pytest.raises(ContextError):
        keyword_index.get_code_context("web/server.js", ref="no-such-ref")


def test_find_similar_and_drill_down(shared_index):
    hit = shared_index.search("rebuild_auth").results[0]
    similar = shared_index.find_similar(hit.chunk_id, limit=3)
    assert similar and all(s["id"] != hit.chunk_id and s["score_kind"] == "similar" for s in similar)
    # neither a part of it nor what holds it (its class): other code
    assert len(similar) == 3 and not any(s["path"] == hit.path and s["start_line"] <= hit.end_line
                                         and hit.start_line <= s["end_line"]
                                         for s in shared_index.find_similar(hit.chunk_id))
    spread = shared_index.drill_down(hit.chunk_id, limit=5)
    paths = [s["path"] for s in spread]
    assert len(paths) == len(set(paths)) and hit.path not in paths
    with pytest.raises(LookupError):
        shared_index.find_similar(999_999)


def test_summarize_matches_one_entry_per_file(shared_index):
    summary = shared_index.summarize_matches("redirect")
    paths = [e["path"] for e in summary]
    assert len(paths) == len(set(paths)) and "src/http/sessions.py" in paths
    entry = next(e for e in summary if e["path"] == "src/http/sessions.py")
    assert any("resolve_redirects" in s for s in entry["symbols"]) and entry["description"]


def test_list_sources_and_paging(shared_index):
    sources = {s["service"]: s for s in shared_index.list_sources()}
    assert sources["src"]["files"] == 2 and sources["src"]["symbols"] >= 6
    page1 = shared_index.search("redirect", limit=2).results
    page2 = shared_index.search("redirect", limit=2, offset=2).results
    assert not {r.chunk_id for r in page1} & {r.chunk_id for r in page2}
    assert all(r.path.startswith("src/") for r in shared_index.search("redirect", service="src").results)


@pytest.mark.model
def test_list_sources_and_status_follow_changes_made_by_another_process(tmp_path):
    from conftest import write_repo

    from codesift import Index

    root = write_repo(tmp_path / "r", {"a/x.py": "def f():\n    pass\n"})
    with Index(root) as idx:
        idx.update(embed=False)
        assert [(s["service"], s["symbols"]) for s in idx.list_sources()] == [("a", 1)]
        assert idx.status()["symbols"] == 1 and idx.status()["embedded"] == 0
        (root / "b").mkdir()
        (root / "b" / "y.py").write_text("def g():\n    pass\n\n\ndef h():\n    pass\n")
        with Index(root) as other:  # another writer: this object's cached answers must not go stale
            other.update(embed=True)
        assert sorted((s["service"], s["symbols"]) for s in idx.list_sources()) == [("a", 1), ("b", 2)]
        status = idx.status()
        assert status["symbols"] == 3 and status["embedded"] == status["chunks"] == 3


def test_get_code_context_reads_a_long_file_page_by_page(keyword_index, repo):
    from codesift.tools.context import MAX_FILE_LINES, ContextError

    n = MAX_FILE_LINES + 500
    (repo / "big.txt").write_text("".join(f"line {i}\n" for i in range(1, n + 1)))
    first = keyword_index.get_code_context("big.txt")
    assert first["truncated"] and (first["start_line"], first["end_line"]) == (1, MAX_FILE_LINES)
    rest = keyword_index.get_code_context("big.txt", start_line=MAX_FILE_LINES + 1)
    assert (rest["start_line"], rest["end_line"], rest["truncated"]) == (MAX_FILE_LINES + 1, n, False)
    assert rest["code"].splitlines()[0] == f"line {MAX_FILE_LINES + 1}"
    # past the end: the last line
    assert keyword_index.get_code_context("big.txt", start_line=10 * n)["start_line"] == n
    with pytest.raises(ContextError):
        keyword_index.get_code_context("big.txt", start_line=0)
