from codesift import Config, Index
from codesift.query.abbrev import abbreviations
from codesift.rank import RankSettings


def test_full_words_bring_their_abbreviations():
    assert {"arg", "argv"} <= set(abbreviations("parse the arguments"))
    assert "ctx" in abbreviations("pass the context along")


def test_abbreviations_bring_their_full_words():
    assert "context" in abbreviations("ctx")
    assert "configuration" in abbreviations("load cfg")


def test_phrases_and_words_already_asked_for():
    assert "stdin" in abbreviations("read from standard input")
    assert "stdin" not in abbreviations("input standard")  # a phrase, not two loose words
    assert "arg" not in abbreviations("arguments and args")  # already a query term
    assert abbreviations("") == [] and abbreviations("frobnicate the widget") == []


def _index(tmp_path, monkeypatch, weight: float) -> Index:
    monkeypatch.setenv("CODESIFT_EMBEDDER", "none")
    (tmp_path / "cli.py").write_text("def read_extra(argv):\n    return [a for a in argv if a != '--']\n")
    (tmp_path / "other.py").write_text("def describe_widget(widget):\n    return widget.name\n")
    cfg = Config().with_overrides(rank=RankSettings(abbreviation_weight=weight))
    index = Index(tmp_path, config=cfg)
    index.update(embed=False)
    return index


def test_keyword_search_finds_the_abbreviated_spelling(tmp_path, monkeypatch):
    with _index(tmp_path, monkeypatch, 0.3) as index:
        hits = index.search("extra command-line arguments", mode="keyword").results
        assert hits and hits[0].name == "read_extra"


def test_weight_zero_turns_it_off(tmp_path, monkeypatch):
    with _index(tmp_path, monkeypatch, 0.0) as index:
        hits = index.search("arguments", mode="keyword").results
        assert all(h.name != "read_extra" for h in hits)
