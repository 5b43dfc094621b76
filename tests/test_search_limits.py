"""The ranking does not depend on how many results are asked for: ``-n k`` is the head of ``-n 50``."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from codesift import Index
from codesift.config.settings import Config

SRC = Path(__file__).resolve().parents[1] / "src" / "codesift"
BENCH_QUERIES = Path(__file__).resolve().parents[2] / "shared" / "bench" / "queries"
LIMITS = (1, 2, 3, 5, 10, 20)
FALLBACK_QUERIES = [
    "where are search results fused", "rrf", "tokenize camel case identifiers", "MetaStore",
    "parse python decorators", "find usages of a symbol", "keyword index tantivy", "embed query on a thread",
    "watch files and re-index", "markdown rendering with a budget", "gitignore rules", "HNSW vector index",
]


def _queries() -> list[str]:
    """The public bench's hand-written queries when ../shared is there, else a built-in list."""
    out = list(FALLBACK_QUERIES)
    for f in sorted(BENCH_QUERIES.glob("*.jsonl")) if BENCH_QUERIES.is_dir() else ():
        out += [json.loads(line)["query"] for line in f.read_text().splitlines() if line.strip()]
    return out


def _key(response) -> list[tuple]:  # SearchResponse
    return [(r.path, r.start_line, r.end_line, r.score, r.qualified_name, tuple(r.nearby)) for r in response.results]


def _assert_heads(idx: Index, query: str, mode: str) -> None:
    full = _key(idx.search(query, limit=50, mode=mode))
    for k in LIMITS:
        assert _key(idx.search(query, limit=k, mode=mode)) == full[:k], (query, mode, k)


@pytest.fixture(scope="module")
def source_index(tmp_path_factory):
    """codesift's own source (~60 files) as a realistic corpus, keyword index only."""
    root = tmp_path_factory.mktemp("src") / "codesift"
    shutil.copytree(SRC, root, ignore=shutil.ignore_patterns("__pycache__"))
    with Index(root, config=Config(embedder="none")) as idx:
        idx.update(embed=False)
        yield idx


@pytest.mark.slow  # with ../shared, its bench queries too (hundreds): ~20 s
def test_keyword_results_for_any_limit_are_the_head_of_fifty(source_index):
    for query in _queries():
        _assert_heads(source_index, query, "keyword")


def test_hybrid_results_for_any_limit_are_the_head_of_fifty(shared_index):
    for query in _queries()[:60]:
        _assert_heads(shared_index, query, "hybrid")


def test_merged_passages_name_the_main_symbol_and_count_the_nearby_ones(tmp_path):
    from codesift.config.settings import Config
    from codesift.config.rank import RankSettings

    root = tmp_path / "r"
    root.mkdir()
    (root / "m.py").write_text(
        "def parse_header(line):\n    return line.split(':')\n\n"
        "def parse_header_value(value):\n    return value.strip()\n"
    )
    with Index(root, config=Config(embedder="none", rank=RankSettings(name_match=False))) as idx:
        idx.update(embed=False)
        top = idx.search("parse header", mode="keyword").results[0]
    assert top.nearby and top.name in ("parse_header", "parse_header_value") and "+" not in top.qualified_name
    assert top.title == f"{top.qualified_name} +{len(top.nearby)} nearby"
    assert top.to_dict()["nearby"] == top.nearby


def test_a_merged_passage_numbers_its_snippet_from_the_main_symbol(tmp_path):
    from rich.console import Console

    from codesift.cli.render import print_results
    from codesift.config.rank import RankSettings
    from codesift.tools.markdown.render import search_block

    root = tmp_path / "r"
    root.mkdir()
    (root / "m.py").write_text("def split_line(line):\n    return line.split(':')\n\n"
                               "def parse_header_value(value):\n    return value.strip().split(':')\n")
    with Index(root, config=Config(embedder="none", rank=RankSettings(name_match=False))) as idx:
        idx.update(embed=False)
        response = idx.search("header value split", mode="keyword")
    top = response.results[0]
    assert (top.name, top.nearby, top.start_line, top.snippet_line) == ("parse_header_value", ["split_line"], 1, 4)
    assert top.snippet.startswith("def parse_header_value") and top.to_dict()["snippet_line"] == 4
    console = Console(record=True, width=120)
    print_results(response, console)
    assert "4 def parse_header_value" in console.export_text()  # not numbered from the passage's line 1
    block = search_block(1, top.to_dict())  # Location is the definition's, where the snippet starts
    assert "**Location:** m.py:4-5" in block and "**Passage:** lines 1-5 (with 1 nearby)" in block
    assert "Snippet from" not in block

