from codesift.rank.candidate import Candidate
from codesift.rank.deprecation import deprecation_note, is_deprecated, replacement_names
from codesift.rank.diversity import deprecated_yields

MARKED = [  # (doc, decorators) of definitions marked deprecated, one per language's way of saying it
    ("Returns the width.\n@deprecated Use {@link Layout#columnWidth(int)} instead.", ()),  # Javadoc / PHPDoc
    ("Opens the store.\n\nDeprecated: use OpenStore, which takes a context.", ()),  # Go
    ("", ("[Obsolete(\"Call ParseStrict instead\")]",)),  # C#
    ("", ("#[deprecated(since = \"2.0\", note = \"use `read_all`\")]",)),  # Rust
    ("", ("@Deprecated(\"Moved\", ReplaceWith(\"loadImage(request)\"))",)),  # Kotlin
    ("", ("@typing_extensions.deprecated(\"use fetch_all\")",)),  # Python (PEP 702)
    ("", ("#[cfg_attr(feature = \"deprecated\", deprecated(note = \"Replaced with `Arg::num_values`\"))]",)),
    ("Frees the buffer.\n\\deprecated see buffer_release()", ()),  # Doxygen
]
NOT_MARKED = [
    ("Adds an argument.", ("@click.argument(\"src\", deprecated=True)",)),  # an option named deprecated
    ("Copy with changes.\n\n.. deprecated:: 23.1\n   passing *inst* by keyword", ()),  # one parameter's deprecation
    ("Warns about deprecated options before parsing.", ()),
    ("", ("@Override",)),
]


def test_deprecation_marks_of_each_language():
    assert [is_deprecated(doc, decs) for doc, decs in MARKED] == [True] * len(MARKED)
    assert [is_deprecated(doc, decs) for doc, decs in NOT_MARKED] == [False] * len(NOT_MARKED)


def test_what_a_deprecation_says_on_one_line():
    assert deprecation_note(*MARKED[0]) == "Use {@link Layout#columnWidth(int)} instead."
    assert deprecation_note(*MARKED[2]) == "Call ParseStrict instead"
    assert deprecation_note("", ("@Deprecated",)) == ""  # marked without a word
    assert [deprecation_note(doc, decs) for doc, decs in NOT_MARKED] == [None] * len(NOT_MARKED)


def test_the_names_a_deprecation_note_points_to():
    names = [replacement_names(doc, decs, "old") for doc, decs in MARKED]
    assert names[0] == {"columnWidth"}  # ``Layout#columnWidth``: the last part
    assert names[1:] == [{"OpenStore"}, {"ParseStrict"}, {"read_all"}, {"loadImage"}, {"fetch_all"}, {"num_values"},
                         {"buffer_release"}]  # an annotation's own name (``Obsolete``, ``ReplaceWith``) is none
    # plain words are no names, nor the definition's own
    assert replacement_names("@deprecated Use the builder instead.", (), "withColumns") == frozenset()
    assert replacement_names("@deprecated Use {@link #withColumns()}.", (), "withColumns") == frozenset()


def _fn(cid: int, name: str, doc: str = "", decorators: tuple[str, ...] = (), score: float = 1.0) -> Candidate:
    return Candidate(cid, "Layout.java", name, f"Layout.{name}", "method", "java", cid * 10, cid * 10 + 5,
                     f"int {name}() {{ return 0; }}", decorators=decorators, doc=doc, score=score)


def test_a_deprecated_definition_follows_the_one_its_note_names():
    def ranked() -> list[Candidate]:
        return [_fn(0, "width", "@deprecated Use {@link #columnWidth(int)}", ("@Deprecated",), 0.9),
                _fn(1, "margin", score=0.8), _fn(2, "columnWidth", "The width of one column.", score=0.7),
                _fn(3, "padding", score=0.6)]

    out = deprecated_yields(ranked(), "how wide a column is drawn")
    assert [c.name for c in out] == ["margin", "columnWidth", "width", "padding"]
    assert [c.score for c in out] == [0.9, 0.8, 0.7, 0.6]  # each place keeps its score
    assert out[2].explain["deprecated_yields"] == 1.0
    # asked about deprecated code, or named by the query: left where it was
    assert [c.chunk_id for c in deprecated_yields(ranked(), "which deprecated width accessor")] == [0, 1, 2, 3]
    named = ranked()
    named[0].explain["name_match"] = 1.0
    assert [c.chunk_id for c in deprecated_yields(named, "width")] == [0, 1, 2, 3]
    # the replacement out of sight, or deprecated itself: nothing moves
    assert [c.chunk_id for c in deprecated_yields(ranked()[:2], "column width")] == [0, 1]
    stale = ranked()
    stale[2].doc = "@deprecated too"
    assert [c.chunk_id for c in deprecated_yields(stale, "column width")] == [0, 1, 2, 3]


GO = '''package store

import "context"

// OpenStore opens the store in a folder, creating it when missing.
func OpenStore(ctx context.Context, dir string) (*Store, error) {
	return openAt(ctx, dir)
}

// Open opens the key value store in a folder, creating the folder when missing.
//
// Deprecated: use OpenStore, which takes a context.
func Open(dir string) (*Store, error) {
	return OpenStore(context.Background(), dir)
}
'''
QUERY = "open the key value store in a folder, creating the folder when missing"


def _results(root, yields: bool):
    from codesift import Index
    from codesift.config.rank import RankSettings
    from codesift.config.settings import Config

    config = Config(embedder="none", rank=RankSettings(deprecated_yields=yields))
    with Index(root, config=config) as idx:
        idx.update(embed=False)
        return idx.search(QUERY, mode="keyword").results


def test_search_puts_the_current_api_first_and_says_what_is_deprecated(tmp_path):
    from codesift.tools.markdown import render_search

    (tmp_path / "store.go").write_text(GO)
    assert [r.name for r in _results(tmp_path, yields=False)][:2] == ["Open", "OpenStore"]  # more of the words
    results = _results(tmp_path, yields=True)
    assert [r.name for r in results][:2] == ["OpenStore", "Open"]
    assert results[0].score >= results[1].score
    assert results[1].deprecated == "use OpenStore, which takes a context." and results[0].deprecated is None
    page = render_search({"query": QUERY, "mode": "keyword", "results": [r.to_dict() for r in results]}).text
    assert "**Deprecated:** `use OpenStore, which takes a context.`" in page
