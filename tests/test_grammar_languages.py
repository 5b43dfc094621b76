"""The grammar languages beyond the first twelve: each extension maps to one, and its grammar loads."""

import pytest

from codesift.languages import GRAMMAR_LANGUAGES, language_for
from codesift.parse import extract_chunks, grammars

CASES = [
    ("App/View.swift", "swift", "func f() {}\n"),
    ("src/A.scala", "scala", "def f(): Int = 1\n"),
    ("init.lua", "lua", "function f() end\n"),
    ("run.sh", "shell", "f() { :; }\n"),
    ("lib/a.ex", "elixir", "defmodule A do\n  def f, do: 1\nend\n"),
    ("lib/a.dart", "dart", "void f() {}\n"),
    ("src/A.hs", "haskell", "f :: Int\nf = 1\n"),
    ("src/a.zig", "zig", "fn f() void {}\n"),
    ("lib/a.ml", "ocaml", "let f x = x\n"),
    ("lib/a.mli", "ocaml_interface", "val f : int -> int\n"),
    ("src/A.jl", "julia", "function f(x)\n    x\nend\n"),
]


def test_at_least_twenty_grammar_languages():
    assert len(GRAMMAR_LANGUAGES - {"tsx", "ocaml_interface"}) >= 20


@pytest.mark.parametrize(("path", "language", "source"), CASES)
def test_grammar_language_maps_loads_and_extracts(path, language, source):
    assert language_for(path) == language
    assert language in GRAMMAR_LANGUAGES
    assert grammars.get_parser(language) is not None, grammars.failure(language)
    chunks = extract_chunks(source, language, path)
    assert any(c.name == "f" and c.kind in ("function", "method") for c in chunks), chunks
