"""train/pairs.py (not part of the package; stdlib + codesift only): the query-side shaping of training pairs."""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path

_spec = importlib.util.spec_from_file_location("train_pairs",
                                               Path(__file__).resolve().parents[1] / "train" / "pairs.py")
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


def _pair(i: int, src: str = "lib@1") -> dict:
    return {"q": f"Sentence number {i} about the thing.", "code": f"func f{i}() {{}}", "lang": "go",
            "name": f"f{i}", "path": "pkg/flag_set.go", "src": src}


def test_a_prose_negative_is_a_markdown_section_of_its_own_source_sentences():
    data = [_pair(i) for i in range(6)] + [_pair(i, "other@2") for i in range(6, 12)]
    sampler = pairs.ProseSampler(data, seed=0, own_share=1.0)
    text = sampler.section(data[0])
    assert text.startswith("markdown section Flag set\n")  # the preamble codesift gives a README section
    assert "## Flag set" in text and "Sentence number 0 about" in text  # own sentence (own_share 1.0)
    numbers = {int(w) for w in text.split() if w.isdigit()}
    assert numbers <= set(range(6)) and len(numbers) >= 3  # only sentences of the same source
    never_own = pairs.ProseSampler(data, seed=0, own_share=0.0)
    assert all("number 0 " not in never_own.section(data[0]) for _ in range(20))


def test_a_hard_negative_is_from_the_same_file_and_never_an_overload():
    same = {"src": "lib@1", "path": "a.java", "lang": "java"}
    data = [
        {**same, "q": "Returns the type name.", "code": "TypeName get(Type t) {}", "name": "get"},
        {**same, "q": "Returns the type name.", "code": "TypeName get(TypeMirror m) {}", "name": "get"},
        {**same, "q": "Writes the file.", "code": "void writeTo(Path p) {}", "name": "writeTo"},
        {"src": "lib@1", "path": "b.java", "lang": "java", "q": "Parses it.", "code": "void parse() {}",
         "name": "parse"},
    ]
    sampler = pairs.NegativeSampler(data, seed=0)
    for _ in range(20):
        assert sampler.pick(data[0]) is data[2]  # the same file's other method, not the overload
    assert sampler.pick(data[3])["path"] == "a.java"  # alone in its file: the same source package


def test_sample_draws_the_asked_share_of_long_definitions(tmp_path):
    import gzip
    import json

    rows = [{"q": f"Does {i}.", "code": "x\n" * (40 if i % 4 == 0 else 3), "lang": "go", "name": f"f{i}",
             "path": "a.go", "src": "m@1"} for i in range(400)]
    with gzip.open(tmp_path / "pairs-go.jsonl.gz", "wt", encoding="utf-8") as fh:
        fh.write("\n".join(json.dumps(r) for r in rows))
    picked = pairs.sample(tmp_path, {"go": 80}, seed=1, long_share=0.5)
    assert len(picked) == 80 and len({p["name"] for p in picked}) == 80
    # a quarter of the data, half the sample
    assert sum(p["code"].count("\n") >= pairs.LONG_LINES for p in picked) == 40
    plain = pairs.sample(tmp_path, {"go": 80}, seed=1)
    assert sum(p["code"].count("\n") >= pairs.LONG_LINES for p in plain) < 35
