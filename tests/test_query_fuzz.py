"""Hostile queries and filters against a real, small index, in every mode: each gets results or a clear
``ValueError`` from the API, and exit code 0 (results) or 2 (one usage error) from the CLI; never a
traceback. Hypothesis fuzzes ``Index.search`` and ``Index.find_symbol`` over arbitrary text.

The index (conftest's repo, embedded with the real model so hybrid and semantic run for real) is built
once per module.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from codesift import Index
from codesift.search.filters import normalise_kinds, normalise_languages
from codesift.limits import MAX_NAME_CHARS
from codesift.search.run import MODES

sys.path.insert(0, str(Path(__file__).parent))
from conftest import marks_users, write_repo  # noqa: E402

HOSTILE_QUERIES: dict[str, str] = {
    "NUL only": "\x00",
    "NUL inside a word": "rebuild\x00auth",
    "control characters": "\x01\x02\x1b[31m\x7f\x08",
    "10k-character word": "a" * 10_000,
    "10k characters of words": "redirect " * 1_111,
    "FTS star": "*",
    "lone double quote": '"',
    "unbalanced parenthesis": "(",
    "boolean operators only": "AND OR NOT",
    "backslash": "\\",
    "regex": "[a-z]+",
    "leading dash": "-x",
    "field syntax": "name:rebuild_auth path:*",
    "FTS NEAR": "NEAR(redirect auth, 2)",
    "SQL injection": "'; DROP TABLE chunks; --",
    "LIKE wildcards": "%_%",
    "glob": "**/*.py",
    "empty": "",
    "whitespace": " \t\n\r ",
    "emoji": "\U0001f642\U0001f525 redirect",
    "RTL text": "\u0645\u0631\u062d\u0628\u0627 \u0628\u0627\u0644\u0639\u0627\u0644\u0645",
    "bidi override": "\u202eredirect\u202c",
    "zero-width space": "re\u200bdirect",
    "combining accent": "cafe\u0301 cookie",
    "private use + noncharacter": "\ue000\uffff",
}
EMPTY_QUERIES = {"NUL only", "empty", "whitespace"}
LONG_QUERIES = {"10k-character word", "10k characters of words"}  # over limits.MAX_QUERY_CHARS
REFUSED_QUERIES = EMPTY_QUERIES | LONG_QUERIES  # a clear ValueError (API), exit 2 (CLI), a tool error (MCP)
ODD_PATHS = ["[", "[!", "]", "src/[a-", "**/*.py", "**", "*", "?", "\\", "'", '"', "(", "a{b,c}", "%",
             "\x00", " ", "..", "../", "/", "/etc/", "./src/", "src/http/sessions.py", "\U0001f642/", "-x"]
LIMIT = 10


@pytest.fixture(scope="module")
@marks_users("model")
def index(tmp_path_factory: pytest.TempPathFactory):
    root = write_repo(tmp_path_factory.mktemp("fuzz") / "repo")
    (root / "web" / "glob[x].js").write_text("// Render the bracket page.\nfunction renderBracketPage() {}\n")
    (root / "web" / "globx.js").write_text("// Render the plain page.\nfunction renderPlainPage() {}\n")
    with Index(root) as idx:
        idx.update()
        assert idx.status()["coverage"] == 1.0
        yield idx


@pytest.fixture(scope="module")
def indexed_paths(index: Index) -> set[str]:
    return {r[0] for r in index.store.db.execute("SELECT path FROM files")}


def check_response(index: Index, response, limit: int, paths: set[str]) -> None:
    """What every answer must satisfy, whatever the query."""
    assert response.mode in MODES and response.embedding_status in {"ok", "keyword_only"}
    assert 0 <= response.coverage <= 1
    assert len(response.results) <= limit
    keys = [(r.path, r.start_line, r.end_line) for r in response.results]
    assert len(keys) == len(set(keys))
    for r in response.results:
        assert r.path in paths and 1 <= r.start_line <= r.end_line
        assert 0 <= r.score <= 1 and r.kind and r.language
    scores = [r.score for r in response.results]
    assert scores == sorted(scores, reverse=True)


# --------------------------------------------------------------------------- hostile queries
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", list(HOSTILE_QUERIES))
def test_hostile_query(index: Index, indexed_paths: set[str], name: str, mode: str) -> None:
    if name in REFUSED_QUERIES:
        with pytest.raises(ValueError, match="the query is empty" if name in EMPTY_QUERIES else "at most 2,000"):
            index.search(HOSTILE_QUERIES[name], mode=mode, limit=LIMIT)
        return
    response = index.search(HOSTILE_QUERIES[name], mode=mode, limit=LIMIT)
    check_response(index, response, LIMIT, indexed_paths)


@pytest.mark.parametrize("query", ['"rebuild_auth"', "(rebuild_auth)", "rebuild_auth*", "NOT rebuild_auth",
                                   "-rebuild_auth", "rebuild_auth AND", "[rebuild_auth]", "rebuild_auth\\",
                                   "rebuild_auth\x00", "\x07rebuild_auth\x1b"])
@pytest.mark.parametrize("mode", ["keyword", "hybrid"])
def test_operators_are_plain_text(index: Index, query: str, mode: str) -> None:
    """FTS / regex / boolean syntax has no meaning: the identifier inside is still found first."""
    assert index.search(query, mode=mode).results[0].name == "rebuild_auth"


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("path", ODD_PATHS)
def test_odd_path_filters(index: Index, indexed_paths: set[str], path: str, mode: str) -> None:
    if path in ("/etc/", "..", "../"):  # a path outside the root names nothing there: refused, saying so
        with pytest.raises(ValueError, match="outside the indexed root"):
            index.search("redirect", mode=mode, path=path, limit=LIMIT)
        return
    for query in ("redirect", "*", "(("):
        response = index.search(query, mode=mode, path=path, limit=LIMIT)
        check_response(index, response, LIMIT, indexed_paths)
        if not any(c in path for c in "*?[") and path.strip("./") and "\x00" not in path:
            prefix = path.removeprefix("./")
            assert all(r.path.startswith(prefix) for r in response.results), (path, response.results)


@pytest.mark.parametrize("mode", MODES)
def test_unknown_language_and_kind_are_refused_saying_what_exists(index: Index, mode: str) -> None:
    for filters in ({"language": "klingon"}, {"kind": "widget"}, {"language": "python,klingon", "kind": "nope"},
                    {"language": "'; DROP TABLE chunks; --"}, {"kind": "\x00"}, {"language": ["py\x00thon"]},
                    {"language": "\U0001f642", "kind": "[a-z]+"}):
        with pytest.raises(ValueError, match="unknown (language|kind)") as err:
            index.search("redirect", mode=mode, **filters)
        assert "python" in str(err.value) or "function" in str(err.value), filters  # what exists
    # case and aliases are not unknown values
    results = index.search("redirect", mode=mode, language="Python,py").results
    assert results and {r.language for r in results} == {"python"}


@pytest.mark.parametrize("kwargs, message", [
    ({"mode": "fuzzy"}, "mode must be one of"),
    ({"mode": ""}, "mode must be one of"),
    ({"limit": 0}, "limit must be a whole number from 1 to 1,000"),
    ({"limit": -5}, "limit must be a whole number from 1 to 1,000"),
    ({"threshold": 1.5}, "threshold must be between 0 and 1"),
    ({"threshold": -0.1}, "threshold must be between 0 and 1"),
    ({"offset": -1}, "offset must be >= 0"),
    ({"service": "web", "path": "src/"}, "path and service disagree"),
])
def test_bad_arguments_are_clear_value_errors(index: Index, kwargs: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        index.search("redirect", **kwargs)


@pytest.mark.parametrize("name", [q for q in HOSTILE_QUERIES.values() if "\x00" not in q])
def test_find_symbol_and_usages_with_hostile_names(index: Index, indexed_paths: set[str], name: str) -> None:
    refused = not name.strip() or len(name.strip()) > MAX_NAME_CHARS  # the same refusal for both tools
    for kind in (None, "function", "widget", "'; --"):
        try:
            for hit in index.find_symbol(name, kind=kind):
                assert hit["path"] in indexed_paths and hit["match"] in {"exact", "prefix", "camel_hump", "substring"}
        except ValueError as exc:
            assert refused or "kind" in str(exc), exc
    try:
        usages = index.find_usages(name)
    except ValueError as exc:
        assert refused and ("the name is empty" in str(exc) or "at most 300" in str(exc))
    else:
        assert not refused and all(u["path"] in indexed_paths for u in usages["usages"])


# --------------------------------------------------------------------------- fuzzing
FUZZ = settings(max_examples=120, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
queries = st.one_of(
    st.text(max_size=200),
    st.lists(st.sampled_from(list('*"()[]{}\\-+:^~!?|&.,;/ \t\x00\x1b') + [" AND ", " OR ", " NOT ", "NEAR",
                                                                                "redirect", "auth_"]),
             max_size=20).map("".join),
    st.sampled_from(list(HOSTILE_QUERIES.values())),
)
filters_language = st.one_of(st.none(), st.sampled_from(["python", "javascript", "markdown", "python,javascript",
                                                         "klingon", "", ","]), st.text(max_size=10))
filters_kind = st.one_of(st.none(), st.sampled_from(["function", "method,class", "section", "widget"]),
                         st.text(max_size=10))
filters_path = st.one_of(st.none(), st.sampled_from(["src/", "src/http/", "web/", "docs/", "**/*.py", "*.md"]),
                         st.text(alphabet="ab/*?[]!.-_ \\{}", max_size=12))


@FUZZ
@given(query=queries, mode=st.sampled_from(MODES), limit=st.integers(1, 25), offset=st.integers(0, 5),
       path=filters_path, language=filters_language, kind=filters_kind)
def test_fuzz_search(index: Index, indexed_paths: set[str], query: str, mode: str, limit: int, offset: int,
                     path: str | None, language: str | None, kind: str | None) -> None:
    try:
        response = index.search(query, mode=mode, limit=limit, offset=offset, path=path, language=language,
                                kind=kind)
    except ValueError as exc:  # allowed, if it says what is wrong
        assert str(exc).strip()
        return
    check_response(index, response, limit, indexed_paths)
    languages, kinds = set(normalise_languages(language)), set(normalise_kinds(kind))  # aliases, case
    for r in response.results:
        assert not languages or r.language in languages
        assert not kinds or r.kind in kinds
        if path in {"src/", "src/http/", "web/", "docs/"}:
            assert r.path.startswith(path)


@FUZZ
@given(name=st.one_of(st.text(alphabet=st.characters(blacklist_characters="\x00", blacklist_categories=("Cs",)),
                              max_size=60),
                      st.sampled_from(["rebuild_auth", "RCJ", "Session.", "SessionRedirectMixin.rebuild_auth",
                                       "::", ".", "redirect", "_", "%", '"'])),
       kind=st.one_of(st.none(), st.sampled_from(["function", "method", "class", "widget"])),
       exact=st.booleans())
def test_fuzz_find_symbol(index: Index, indexed_paths: set[str], name: str, kind: str | None, exact: bool) -> None:
    try:
        hits = index.find_symbol(name, kind=kind, exact=exact)
    except ValueError as exc:
        assert not name.strip() or "kind" in str(exc), exc  # an empty name, or an unknown kind (which says so)
        return
    matches = [h["match"] for h in hits]
    assert set(matches) <= {"exact", "prefix", "camel_hump", "substring"}
    assert matches == sorted(matches, key=lambda m: m != "exact"), "exact matches come first"
    assert len({h["id"] for h in hits}) == len(hits)
    for h in hits:
        assert h["path"] in indexed_paths and (kind is None or h["kind"] == kind)
        if h["match"] == "exact":
            assert h["name"].lower() == name.strip().lower().replace("::", ".").rsplit(".", 1)[-1]
    if exact:
        assert set(matches) <= {"exact"}


# --------------------------------------------------------------------------- the command line
def cli(*args: str) -> tuple[int, str, str]:
    """``codesift ARGS`` in-process, keyword-only: (exit code, stdout, stderr + any escaped exception)."""
    from click.testing import CliRunner

    from codesift.cli.app import main

    result = CliRunner().invoke(main, list(args), env={"CODESIFT_EMBEDDER": "none", "COLUMNS": "200"})
    err = result.stderr
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        err += f"Traceback (in-process): {result.exception!r}"
    return result.exit_code, result.stdout, err


@pytest.mark.parametrize("name", list(HOSTILE_QUERIES))
def test_cli_hostile_query(index: Index, name: str) -> None:
    query = HOSTILE_QUERIES[name]
    args = ["search", "--json", "--no-update", "--root", str(index.root), "--"] + [query]
    code, out, err = cli(*args)
    if name in REFUSED_QUERIES:  # the API's words, one line, exit 2
        assert code == 2 and out == "" and err.count("\n") == 1 and err.startswith("codesift: the query is"), err
        return
    assert code == 0 and "Traceback" not in err, err
    assert isinstance(json.loads(out), list)
    code, out, err = cli(*args[:2], "--no-update", "--root", str(index.root), "--", query)  # human output
    assert code == 0 and "Traceback" not in out + err


@pytest.mark.parametrize("option", [["--path", "["], ["--path", "\\"], ["--path", "src/[a-"], ["--lang", "klingon"],
                                    ["--kind", "widget"], ["--lang", "\U0001f642"], ["--path", "\x00"]])
def test_cli_odd_filters(index: Index, option: list[str]) -> None:
    code, out, err = cli("search", "redirect", "--json", "--no-update", "--root", str(index.root), *option)
    assert "Traceback" not in err, err
    if option[0] in ("--lang", "--kind"):  # a value that names nothing: one line saying what exists, exit 2
        assert code == 2 and out == "" and err.count("\n") == 1 and err.startswith("codesift: unknown "), err
        return
    assert code == 0, err
    assert isinstance(json.loads(out), list)


@pytest.mark.parametrize("args", [
    ["--mode", "fuzzy"], ["--limit", "0"], ["--limit", "-1"], ["--limit", "x"], ["--threshold", "2"], ["-x"],
])
def test_cli_bad_options_are_usage_errors(index: Index, args: list[str]) -> None:
    code, out, err = cli("search", "redirect", "--no-update", "--root", str(index.root), *args)
    assert code == 2 and "Traceback" not in out + err
    errors = [line for line in err.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1, err


@pytest.mark.subprocess
def test_cli_undecodable_argument_bytes(index: Index) -> None:
    """Bytes that are not UTF-8 arrive as surrogate escapes: they are searched as U+FFFD, not a traceback."""
    env = dict(os.environ, CODESIFT_EMBEDDER="none")
    for args, code in ((["search", b"\xff\xfe redirect", "--json"], 0),
                       (["search", "redirect", "--path", b"\xff/", "--json"], 0),
                       (["usages", b"\xffname", "--json"], 1)):  # 1: no reference found, as grep's exit code
        argv = [sys.executable, "-m", "codesift", *args, "--no-update", "--root", str(index.root)]
        out = subprocess.run(argv, env=env, capture_output=True, timeout=60)
        assert out.returncode == code and b"Traceback" not in out.stderr, out.stderr
        assert isinstance(json.loads(out.stdout), list)


# --------------------------------------------------------------------------- known bugs elsewhere
# strict: these turn into failures once the bug is fixed, so the marker is removed with the fix.
def test_find_symbol_with_nul(index: Index) -> None:
    assert isinstance(index.find_symbol("rebuild\x00auth"), list)


def test_search_with_lone_surrogate(index: Index) -> None:
    assert index.search("redirect", mode="keyword").results
    index.search("redirect \udcff", mode="hybrid")


def test_find_symbol_with_lone_surrogate(index: Index) -> None:
    assert isinstance(index.find_symbol("rebuild\udcffauth"), list)


def test_path_filter_on_a_dot_directory(tmp_path: Path) -> None:
    root = tmp_path / "dot"
    (root / ".github/scripts").mkdir(parents=True)
    (root / ".github/scripts/ci.py").write_text("def ci_helper_fn():\n    pass\n")
    with Index(root, config=_keyword_only()) as idx:
        idx.update()
        assert [r.path for r in idx.search("ci_helper_fn", path=".github/").results] == [".github/scripts/ci.py"]


def test_bracket_path_filter_means_the_same_in_every_mode(index: Index) -> None:
    got = {mode: sorted({r.path for r in index.search("render page", mode=mode, path="web/glob[x].js").results})
           for mode in ("keyword", "semantic")}
    assert got["keyword"] == got["semantic"], got


@pytest.mark.subprocess
def test_huge_limit_does_not_abort_the_process(tmp_path: Path) -> None:
    root = write_repo(tmp_path / "repo")
    code = textwrap.dedent(f"""
        from codesift import Index
        idx = Index({str(root)!r})
        idx.update()
        try:
            idx.search("redirect", limit=10**12, mode="keyword")
        except ValueError:
            pass
        print("survived")
    """)
    env = dict(os.environ, CODESIFT_EMBEDDER="none")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and "survived" in out.stdout, out.stderr[-500:]


def _keyword_only():
    from codesift.config.settings import Config

    return Config(embedder="none")
