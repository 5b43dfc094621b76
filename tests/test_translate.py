"""codesift.query.translate: the shipped table of query words → code terms, and its use on the keyword side."""

from __future__ import annotations

from pathlib import Path

from codesift import Index
from codesift.config.settings import Config
from codesift.rank import RankSettings
from codesift.text.tokens import tokenize
from codesift.query.translate import TABLE_FILE, query_words, translations


def test_query_words_are_the_plain_words_as_index_terms() -> None:
    assert query_words("Parse the options of parseArgs and max_len in a CLI") == ["parse", "option", "cli"]
    assert query_words("the flags, the Flags") == ["flag"]  # once each, stemmed like the index
    assert query_words("to be or not") == ["not"]


def test_a_description_gets_the_terms_code_writes_it_with() -> None:
    got = translations("convert a glob into a regular expression")
    assert {"pattern", "regex"} <= set(got)
    assert "glob" not in got and "regular" not in got  # the query's own words are searched anyway


def test_names_and_unknown_words_get_nothing() -> None:
    assert translations("glob") == []  # one word is a name or a topic
    assert translations("parseGlob fnmatchCase") == []  # identifiers, not words
    assert translations("zzqx wibble") == []


def test_the_table_is_well_formed() -> None:
    from importlib.resources import files

    lines = files("codesift.query").joinpath(TABLE_FILE).read_text(encoding="utf-8").splitlines()
    rows = [line.split("\t") for line in lines if not line.startswith("#")]
    assert len(rows) > 1000 and all(len(r) == 2 for r in rows)
    for word, terms in rows:
        assert word.isalpha() and word.islower() and len(word) >= 3, word  # the stem of a plain word
        for term in terms.split():
            assert tokenize(term, keep_stop_words=True) == [term], term  # the keyword side finds it as written
            assert not (term.startswith(word) or word.startswith(term)), (word, term)
        assert 1 <= len(terms.split()) <= 3


def _repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    root.mkdir()
    # Both functions mention a glob once; only one is written with the words code uses for it.
    (root / "match.py").write_text(
        "def to_regex(glob):\n    pattern = fnmatch.translate(glob)\n    return re.compile(pattern)\n\n\n"
        "def describe(glob):\n    label = 'files: ' + glob\n    return label.upper()\n", encoding="utf-8")
    return root


def test_keyword_search_ranks_the_code_written_with_the_translations_first(tmp_path: Path) -> None:
    root = _repo(tmp_path)
    query = "turn a shell glob into something that can test names"
    assert {"pattern", "match"} & set(translations(query))
    with Index(root) as idx:
        idx.update(embed=False)
        hits = idx.search(query, mode="keyword").results
        assert [r.name for r in hits][:2] == ["to_regex", "describe"]
    off = Config(rank=RankSettings(translation_weight=0.0))
    with Index(root, config=off) as idx:
        names = [r.name for r in idx.search(query, mode="keyword").results]
        # without them the shorter body wins; and a lift term scores only what the query's words matched,
        # so no new result appears with it
        assert names == ["describe", "to_regex"]
