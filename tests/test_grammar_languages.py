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


BROKEN = {
    "swift": "func f(a: Int) -> Int { return a }\nfunc broken( { ))) \nlet zzqmark = 1\n",
    "scala": "def f(a: Int): Int = a\ndef broken( { ))) \nval zzqmark = 1\n",
    "lua": "function f(a) return a end\nfunction broken( ))) \nzzqmark = 1\n",
    "shell": "f() { echo a; }\nbroken() { ((( \nzzqmark=1\n",
    "elixir": "defmodule M do\n  def f(a), do: a\n  def broken( ))) \nend\nzzqmark = 1\n",
    "dart": "int f(int a) { return a; }\nvoid broken( { ))) \nvar zzqmark = 1;\n",
    "haskell": "f :: Int -> Int\nf a = a\nbroken ( = ))) \nzzqmark = 1\n",
    "zig": "fn f(a: i32) i32 { return a; }\nfn broken( { ))) \nconst zzqmark = 1;\n",
    "ocaml": "let f a = a\nlet broken ( = ))) \nlet zzqmark = 1\n",
    "ocaml_interface": "val f : int -> int\nval broken : ( ))) \nval zzqmark : int\n",
    "julia": "function f(a)\n    a\nend\nfunction broken( ))) \nzzqmark = 1\n",
}


@pytest.mark.parametrize("language", sorted(BROKEN))
def test_syntax_error_keeps_definitions_and_text(language):
    chunks = extract_chunks(BROKEN[language], language, "broken")
    assert any(c.name == "f" for c in chunks)
    assert any("zzqmark" in c.text for c in chunks)


DEEP = 2000


@pytest.mark.parametrize(
    ("language", "source"),
    [
        ("elixir", "defmodule M do\n" * DEEP + "def f, do: 1\n" + "end\n" * DEEP),
        ("julia", "module M\n" * DEEP + "f(x) = 1\n" + "end\n" * DEEP),
        ("ocaml", "module M = struct\n" * DEEP + "let f x = x\n" + "end\n" * DEEP),
        ("swift", "struct M {\n" * DEEP + "func f() {}\n" + "}\n" * DEEP),
        ("lua", "function f()\n" * DEEP + "end\n" * DEEP),
    ],
    ids=["elixir", "julia", "ocaml", "swift", "lua"],
)
def test_deep_nesting_is_parsed(language, source):
    chunks = extract_chunks(source, language, "deep")
    assert len([c for c in chunks if c.kind != "module"]) >= DEEP
