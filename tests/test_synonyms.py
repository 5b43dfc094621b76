"""codesift.query.synonyms: the other words of a query word's group, for sentences only."""

from __future__ import annotations

from pathlib import Path

from codesift import Index
from codesift.config.settings import Config
from codesift.rank import RankSettings
from codesift.query.synonyms import synonyms
from codesift.text.tokens import tokenize


def test_a_sentence_gets_the_other_words_of_each_group() -> None:
    got = synonyms("parse the options given on the command line")
    assert set(tokenize("flag switch")) <= set(got)
    assert set(tokenize("strip drop delete discard")) <= set(synonyms("remove trailing blanks from each line"))


def test_words_already_in_the_query_and_short_queries_get_nothing() -> None:
    got = synonyms("remove or delete a flag from the set")
    assert not set(tokenize("remove delete flag")) & set(got)
    assert "strip" in got and "option" in got
    assert synonyms("remove flag") == []  # a name or a phrase: searched as typed
    assert synonyms("describe the weather in words") == []


def test_left_out_words_bring_nothing() -> None:
    # ``find`` and ``build`` are parts of too many names to stand for "search" and "create"
    assert not set(tokenize("find lookup locate")) & set(synonyms("search the tree for a name"))
    assert "build" not in synonyms("create the output folder first")


def test_a_phrase_brings_the_word_code_says_it_in() -> None:
    assert "short" in synonyms("handle a cluster of single-letter flags like -abc")
    assert "short" in synonyms("expand one letter options")
    assert "short" not in synonyms("a single option with a letter")  # the words, not the phrase
    assert "toggle" not in synonyms("parse the options given on the command line")  # a kind of switch


def test_keyword_search_finds_code_that_says_flag_for_option(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    root.mkdir()
    (root / "cli.go").write_text(
        "package cli\n\n"
        "func parseFlagValues(flags map[string]string) error {\n\treturn nil\n}\n\n"
        "func renderPage(page string) string {\n\treturn page\n}\n",
        encoding="utf-8")
    query = "collect every option the user set"
    found = {}
    for weight in (1.0, 0.0):
        with Index(root, config=Config(embedder="none", rank=RankSettings(synonym_weight=weight))) as index:
            index.update(embed=False)
            found[weight] = [r.name for r in index.search(query, mode="keyword").results]
    assert found[1.0][:1] == ["parseFlagValues"]
    assert "parseFlagValues" not in found[0.0]
