"""train/pairs.py (not part of the package; stdlib + codesift only): the query-side shaping of training pairs."""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path

_spec = importlib.util.spec_from_file_location("train_pairs", Path(__file__).resolve().parents[1] / "train" / "pairs.py")
pairs = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(pairs)

CODE = "func (c *Command) parseArgsFromStdin() ([]string, error) {\n\treturn readArgs(os.Stdin)\n}"


def test_code_words_hold_identifiers_and_their_parts():
    words = pairs.code_words(CODE)
    assert {"parseargsfromstdin", "parse", "args", "stdin", "command", "error"} <= words


def test_shared_words_are_dropped_stop_words_and_new_words_kept():
    q = "read the extra args from standard input, returning an error"
    out = pairs.drop_overlap(q, CODE, 1.0, random.Random(0))
    # read (readArgs), args and error are in the code; "from" is too, but it is a stop word
    assert out == "the extra from standard input, returning an"
    assert pairs.drop_overlap(q, CODE, 0.0, random.Random(0)) == q


def test_a_query_is_never_thinned_below_three_words():
    assert pairs.drop_overlap("parse args error", CODE, 1.0, random.Random(0)) == "parse args error"
