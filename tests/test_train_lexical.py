"""train/lexical.py (not part of the package): the BM25 side that query-tower training complements."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np

_TRAIN = Path(__file__).resolve().parents[1] / "train"
_spec = importlib.util.spec_from_file_location("train_lexical", _TRAIN / "lexical.py")
lexical = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(lexical)


def test_idf_falls_with_document_frequency_and_never_goes_negative():
    values = lexical.idf(np.array([1, 10, 50, 100]), 100)
    assert list(values) == sorted(values, reverse=True)
    assert values[-1] >= 0


def test_saturation_grows_with_tf_but_never_past_k1_plus_one_and_longer_documents_score_less():
    tf = np.array([1.0, 2.0, 10.0, 1000.0])
    s = lexical.saturate(tf, np.full(4, 100.0), 100.0)
    assert list(s) == sorted(s) and s[-1] < lexical.K1 + 1
    assert lexical.saturate(np.array([3.0]), np.array([400.0]), 100.0) < lexical.saturate(
        np.array([3.0]), np.array([50.0]), 100.0)


def test_queries_score_the_documents_of_their_language_that_share_their_rare_terms():
    texts = ["func parseFlags(args []string) error", "func wrapLine(text string, width int) string",
             "fn parse_flags(args: &[String])", "func readStdin() []string"]
    lex = lexical.Lexical(texts, ["go", "go", "rust", "go"])
    scores = lex.scores(["parse the flags", "wrap a line of text", "nothing shared"], "go")
    assert scores.shape == (3, 3)  # the three Go documents, in pool order
    assert scores[0].argmax() == 0 and scores[1].argmax() == 1 and not scores[2].any()
    only = lex.scores(["read standard input stdin"], "go", columns=np.array([2]))
    assert only.shape == (1, 1) and only[0, 0] > 0
