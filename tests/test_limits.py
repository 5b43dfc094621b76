"""codesift.limits: one set of input limits and messages for the API, the CLI and MCP (issue 14, item 10)."""

import pytest

from codesift import Index
from codesift.config.settings import Config
from codesift.limits import MAX_NAME_CHARS, MAX_QUERY_CHARS, InputError, check_name, check_query


def test_checks_clean_and_refuse():
    assert check_query("  a\x00b  ") == "a b"
    assert check_query("q" * MAX_QUERY_CHARS) == "q" * MAX_QUERY_CHARS
    assert check_name("\ud800x") == "?x"  # a lone surrogate cannot be encoded for SQLite or tantivy
    for bad in ("", " \t\n", "\x00", None):
        with pytest.raises(InputError, match="the query is empty"):
            check_query(bad)
        with pytest.raises(InputError, match="the name is empty"):
            check_name(bad)
    with pytest.raises(InputError, match=f"{MAX_QUERY_CHARS + 1:,} characters long; at most {MAX_QUERY_CHARS:,}"):
        check_query("q" * (MAX_QUERY_CHARS + 1))
    with pytest.raises(InputError, match=f"at most {MAX_NAME_CHARS}"):
        check_name("n" * (MAX_NAME_CHARS + 1))
    assert issubclass(InputError, ValueError)  # the API's callers catch ValueError, as for every bad argument


def test_the_api_raises_the_same_errors(repo):
    with Index(repo, config=Config(embedder="none")) as idx:
        idx.update()
        for call in (lambda q: idx.search(q), lambda q: idx.summarize_matches(q)):
            with pytest.raises(InputError, match="the query is empty"):
                call("   ")
            with pytest.raises(InputError, match="at most 2,000"):
                call("x " * 1_500)
        for call in (idx.find_symbol, idx.find_usages):
            with pytest.raises(InputError, match="the name is empty"):
                call("")
            with pytest.raises(InputError, match="at most 300"):
                call("n" * 301)
        with pytest.raises(InputError, match="ends without a name"):
            idx.find_usages("Session.")
        assert idx.search("redirect").results and idx.find_symbol("RCJ")[0]["name"] == "RequestsCookieJar"


def test_every_deliberate_error_shares_one_base_class():
    import codesift
    from codesift.errors import CodesiftError
    from codesift.search.filters import FilterError
    from codesift.tools.context import ContextError

    for name in ("ConfigError", "EmbeddingUnavailable", "IndexBusy", "IndexMismatchError", "InputError",
                 "NoIndexError"):
        assert issubclass(getattr(codesift, name), CodesiftError), name
    assert issubclass(FilterError, CodesiftError) and issubclass(ContextError, CodesiftError)
    assert issubclass(codesift.InputError, ValueError)  # and still the built-in callers catch


def test_result_limits_are_the_same_on_the_api_cli_and_mcp(repo):
    from click.testing import CliRunner

    from codesift.cli.app import main
    from codesift.limits import MAX_SEARCH_LIMIT, MAX_USAGES_LIMIT
    from codesift.server.args import Limit, UsageLimit

    with Index(repo, config=Config(embedder="none")) as idx:
        idx.update(embed=False)
        for bad in (0, MAX_SEARCH_LIMIT + 1):
            with pytest.raises(InputError, match=f"from 1 to {MAX_SEARCH_LIMIT:,}"):
                idx.search("redirect", limit=bad)
        with pytest.raises(InputError, match=f"from 1 to {MAX_USAGES_LIMIT:,}"):
            idx.find_usages("rebuild_auth", limit=MAX_USAGES_LIMIT + 1)
        assert idx.search("redirect", limit=MAX_SEARCH_LIMIT).results
    runner = CliRunner()
    out = runner.invoke(main, ["search", "redirect", "--root", str(repo), "-n", str(MAX_SEARCH_LIMIT + 1)])
    assert out.exit_code == 2
    out = runner.invoke(main, ["usages", "x", "--root", str(repo), "-n", str(MAX_USAGES_LIMIT + 1)])
    assert out.exit_code == 2
    bounds = {type(m).__name__: m for m in Limit.__metadata__[0].metadata}
    assert bounds["Le"].le == MAX_SEARCH_LIMIT and bounds["Ge"].ge == 1
    bounds = {type(m).__name__: m for m in UsageLimit.__metadata__[0].metadata}
    assert bounds["Le"].le == MAX_USAGES_LIMIT
