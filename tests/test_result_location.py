"""Issue 44: where a result points, and what get_code_context refuses to read.

A result merged with the definitions beside it (``+N nearby``) returns the merged passage as
``start_line``/``end_line`` (the range ``search --json`` gives and the benchmark scores) and its own
definition as ``definition_start_line``/``definition_end_line``: the location the terminal, the page and
the MCP ``Location:`` show, with the passage as ``Passage:``. get_code_context refuses a binary file, and a
file the index skipped, with the reason.
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from rich.console import Console

from codesift import Index
from codesift.cli.app import main
from codesift.cli.render import print_results
from codesift.config.rank import RankSettings
from codesift.config.settings import Config
from codesift.tools.context import ContextError
from codesift.tools.markdown import render_search

# split_line (1-2) and parse_header_value (4-5) touch: a search for the second merges the first into its passage
MERGED = ("def split_line(line):\n    return line.split(':')\n\n"
          "def parse_header_value(value):\n    return value.strip().split(':')\n")
QUERY = "header value split"


@pytest.fixture
def merged_root(tmp_path):
    root = tmp_path / "r"
    root.mkdir()
    (root / "m.py").write_text(MERGED)
    return root


def _search(root):
    with Index(root, config=Config(embedder="none", rank=RankSettings(name_match=False))) as idx:
        idx.update(embed=False)
        return idx.search(QUERY, mode="keyword")


def _top(root):
    return _search(root).results[0]


def test_a_merged_result_gives_its_passage_and_its_definitions_lines(merged_root):
    top = _top(merged_root)
    assert (top.name, top.nearby) == ("parse_header_value", ["split_line"])
    assert (top.start_line, top.end_line) == (1, 5)  # the passage returned, split_line merged in
    assert (top.definition_start_line, top.definition_end_line) == (4, 5)  # parse_header_value's own lines
    assert top.snippet_line == 4 and top.snippet.startswith("def parse_header_value")
    d = top.to_dict()
    assert (d["start_line"], d["end_line"], d["definition_start_line"], d["definition_end_line"]) == (1, 5, 4, 5)


def test_an_unmerged_result_has_its_definition_equal_to_its_passage(merged_root):
    (merged_root / "m.py").write_text("def parse_header_value(value):\n    return value.strip().split(':')\n")
    top = _top(merged_root)
    assert not top.nearby
    assert (top.start_line, top.end_line, top.definition_start_line, top.definition_end_line) == (1, 2, 1, 2)


def test_search_json_gives_the_passage_and_the_definitions_lines(merged_root, monkeypatch):
    monkeypatch.setenv("CODESIFT_EMBEDDER", "none")
    assert CliRunner().invoke(main, ["index", str(merged_root), "-q"]).exit_code == 0
    result = CliRunner().invoke(main, ["search", QUERY, "--root", str(merged_root), "--mode", "keyword", "--json"])
    assert result.exit_code == 0, result.output
    top = json.loads(result.stdout)[0]
    assert (top["name"], top["nearby"]) == ("parse_header_value", ["split_line"])
    assert (top["start_line"], top["end_line"]) == (1, 5)
    assert (top["definition_start_line"], top["definition_end_line"]) == (4, 5)
    # the new fields come last: the keys existing consumers read keep their order
    assert list(top)[:3] == ["path", "start_line", "end_line"]
    assert list(top)[-3:] == ["definition_start_line", "definition_end_line", "deprecated"]


def test_markdown_location_is_the_definitions_and_passage_the_span(merged_root):
    top = _top(merged_root)
    payload = {"query": QUERY, "mode": "keyword", "results": [top.to_dict()]}
    rendered = render_search(payload)
    assert "**Location:** m.py:4-5" in rendered.text
    assert "**Passage:** lines 1-5 (with 1 nearby)" in rendered.text
    assert "Snippet from" not in rendered.text  # the snippet starts on the definition's line, as Location says
    item = rendered.data["results"][0]  # the structured content keeps both ranges as the API gives them
    assert (item["start_line"], item["end_line"], item["definition_start_line"], item["definition_end_line"]) \
        == (1, 5, 4, 5)
    single = {**top.to_dict(), "nearby": [], "start_line": 4, "end_line": 5}
    assert "Passage" not in render_search({"query": QUERY, "mode": "keyword", "results": [single]}).text


def test_the_terminal_shows_the_definitions_lines(merged_root):
    console = Console(record=True, width=160)
    print_results(_search(merged_root), console)
    text = console.export_text()
    assert "m.py:4-5" in text and "m.py:1-5" not in text


PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x10" + bytes(range(256)) * 4


def test_get_code_context_refuses_a_binary_file_with_the_reason(keyword_index, repo):
    (repo / "logo.png").write_bytes(PNG)
    (repo / "blob.dat").write_bytes(b"\x00\x01\x02 not text")  # no binary extension: the sniff finds it
    keyword_index.update(embed=False)
    with pytest.raises(ContextError, match=r"logo\.png is not indexed: binary"):
        keyword_index.get_code_context("logo.png")
    with pytest.raises(ContextError, match=r"blob\.dat is not indexed: binary"):
        keyword_index.get_code_context("blob.dat")


def test_get_code_context_refuses_a_binary_file_the_index_has_not_seen(keyword_index, repo):
    (repo / "new.bin").write_bytes(b"abc\x00def" * 100)  # added after the last update
    with pytest.raises(ContextError, match=r"new\.bin .*binary"):
        keyword_index.get_code_context("new.bin")


def test_get_code_context_refuses_a_file_skipped_for_another_reason(repo, monkeypatch):
    monkeypatch.setenv("CODESIFT_EMBEDDER", "none")
    (repo / "big.py").write_text("def big():\n" + "    x = 1\n" * 3000)
    (repo / "package-lock.json").write_text("{}\n")
    with Index(repo, config=Config(embedder="none", max_file_size=4096)) as idx:
        idx.update(embed=False)
        skipped = idx.store.skipped()
        assert skipped.get("big.py") == "too_large" and skipped.get("package-lock.json") == "lockfile"
        with pytest.raises(ContextError, match=r"big\.py is not indexed: too_large"):
            idx.get_code_context("big.py", "big")
        with pytest.raises(ContextError, match=r"package-lock\.json is not indexed: lockfile"):
            idx.get_code_context("package-lock.json")
        assert idx.get_code_context("src/http/sessions.py", "rebuild_auth")["code"]  # indexed files still read
