"""search.penalise_short: the vector list's re-sort before fusion (short chunks, documentation)."""

from __future__ import annotations

from codesift.search.run import penalise_short
from codesift.store.records import ChunkRecord


def _row(cid: int, kind: str, language: str, lines: int, path: str = "src/a.py") -> ChunkRecord:
    return ChunkRecord(cid, 1, path, kind, f"n{cid}", f"n{cid}", None, language, 1, lines, "", "", (), None,
                       "x", "", 0.0)


ROWS = {1: _row(1, "section", "markdown", 30, "README.md"), 2: _row(2, "function", "python", 30),
        3: _row(3, "function", "python", 1), 4: _row(4, "window", "text", 30, "NOTES.txt")}


def test_documentation_loses_the_prose_penalty_and_code_moves_ahead():
    hits = [(1, 0.70), (4, 0.69), (2, 0.65)]
    assert [c for c, _ in penalise_short(hits, ROWS, 0.0, prose=0.1)] == [2, 1, 4]
    scores = dict(penalise_short(hits, ROWS, 0.0, prose=0.1))
    assert abs(scores[1] - 0.60) < 1e-9 and scores[2] == 0.65


def test_without_the_prose_penalty_documentation_keeps_its_cosine():
    hits = [(1, 0.70), (2, 0.65)]
    assert penalise_short(hits, ROWS, 0.0) == hits


def test_a_one_line_chunk_loses_the_whole_short_penalty():
    scores = dict(penalise_short([(3, 0.70), (2, 0.66)], ROWS, 0.06))
    assert abs(scores[3] - 0.64) < 1e-9 and scores[2] == 0.66


def test_doc_line_is_the_doc_the_snippet_does_not_show():
    from codesift.search.run import DOC_CHARS, doc_line

    go = "func Throttle(limit int) func(http.Handler) http.Handler {"
    assert (doc_line("Throttle limits the requests\nin flight.\n\nMore detail.", go)
            == "Throttle limits the requests in flight.")
    py = 'def get(self):\n    """Return the value.\n\n    Long."""'
    assert doc_line("Return the value.\n\nLong.", py) == ""  # a Python docstring is in the snippet already
    assert doc_line("", go) == ""
    long = "First sentence here. " + "word " * 80
    assert doc_line(long, go) == "First sentence here."
    assert len(doc_line("x" * 500, go)) == DOC_CHARS and doc_line("x" * 500, go).endswith("…")
