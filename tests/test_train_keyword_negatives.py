"""train/keyword_negatives.py (not part of the package): BM25-confusable negatives for fine-tuning."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

_TRAIN = Path(__file__).resolve().parents[1] / "train"


def _load():
    sys.path.insert(0, str(_TRAIN))  # keyword_negatives imports its sibling lexical.py
    try:
        spec = importlib.util.spec_from_file_location("train_keyword_negatives", _TRAIN / "keyword_negatives.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(_TRAIN))


def _pair(q: str, code: str, lang: str = "go") -> dict:
    return {"q": q, "code": code, "lang": lang, "name": code.split("(")[0].split()[-1]}


def test_the_negative_shares_the_querys_words_but_never_its_code_sentence_or_language():
    kn = _load()
    pairs = [
        _pair("parse the command line flags", "func parseFlags(args []string) error { flags := parse(args) }"),
        _pair("parse flags from the environment", "func envFlags() error { flags := parse(os.Environ()) }"),
        _pair("wrap a line of text", "func wrapLine(text string) string { return text }"),
        _pair("parse the command line flags", "func parseFlagsV2(args []string) error { flags := parse(args) }"),
        _pair("parse the command line flags", "fn parse_flags(args: &[String]) { let flags = parse(args); }", "rust"),
    ]
    sampler = kn.KeywordNegativeSampler(pairs, seed=1)
    picked = {id(sampler.pick(pairs[0])) for _ in range(40)}
    # never itself, the overload with the same sentence or the Rust twin; the env-flags parser (most
    # words shared) among the picks, wrapLine ("line") only as one of the top few
    assert picked <= {id(pairs[1]), id(pairs[2])} and id(pairs[1]) in picked


def test_a_pair_without_any_keyword_match_still_gets_some_other_pair():
    kn = _load()
    pairs = [_pair("zzz qqq", "func a() {}"), _pair("wrap text", "func wrapText(text string) {}")]
    neg = kn.KeywordNegativeSampler(pairs, seed=1).pick(pairs[0])
    assert neg is pairs[1]
