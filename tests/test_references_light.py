"""References (calls, imports, inheritance) of the languages with light reference tables."""

import pytest

from codesift.parse.references import extract_references

CASES = [
    (
        "swift",
        "import Foundation\nlet p = Point(x: 1)\np.draw(in: ctx)\nfoo()\nclass A: B, C {}\n",
        [
            ("Foundation", 1, "import", ""),
            ("Point", 2, "call", ""),
            ("draw", 3, "call", "p"),
            ("foo", 4, "call", ""),
            ("B", 5, "inherit", ""),
            ("C", 5, "inherit", ""),
        ],
    ),
    (
        "scala",
        "import scala.math.sqrt\nval c = Circle(1)\nc.scale(2)\nfoo(1)\nnew Box(1)\nclass A extends B with C\n",
        [
            ("sqrt", 1, "import", ""),
            ("Circle", 2, "call", ""),
            ("scale", 3, "call", "c"),
            ("foo", 4, "call", ""),
            ("Box", 5, "call", ""),
            ("B", 6, "inherit", ""),
            ("C", 6, "inherit", ""),
        ],
    ),
    (
        "lua",
        'local json = require("json")\nM.greet("x")\nobj:render(1)\nfoo()\n',
        [
            ("require", 1, "call", ""),
            ("json", 1, "import", ""),
            ("greet", 2, "call", "M"),
            ("render", 3, "call", "obj"),
            ("foo", 4, "call", ""),
        ],
    ),
    (
        "shell",
        "source ./lib.sh\nbuild release\nmake -j4\n",
        [("source", 1, "call", ""), ("build", 2, "call", ""), ("make", 3, "call", "")],
    ),
    (
        "elixir",
        "defmodule A do\n  import Ecto.Query\n  alias MyApp.Repo\n  def f(x), do: Repo.get(User, x) |> g()\nend\n",
        [
            ("Ecto.Query", 2, "import", ""),
            ("MyApp.Repo", 3, "import", ""),
            ("get", 4, "call", "Repo"),
            ("g", 4, "call", ""),
        ],
    ),
    (
        "dart",
        "import 'dart:math';\nvoid f() { foo(1); p.distanceTo(q); Point(1, 2); }\n"
        "class A extends B with C implements D {}\n",
        [
            ("dart:math", 1, "import", ""),
            ("foo", 2, "call", ""),
            ("distanceTo", 2, "call", ""),
            ("Point", 2, "call", ""),
            ("B", 3, "inherit", ""),
            ("C", 3, "inherit", ""),
            ("D", 3, "inherit", ""),
        ],
    ),
    (
        "haskell",
        "import Data.List (sortBy)\nf x = g (h x) + Map.lookup k m\n",
        [("Data.List", 1, "import", ""), ("g", 2, "call", ""), ("h", 2, "call", ""), ("lookup", 2, "call", "Map")],
    ),
    (
        "zig",
        'const std = @import("std");\nfn f() void { foo(1); std.debug.print("x", .{}); }\n',
        [("std", 1, "import", ""), ("foo", 2, "call", ""), ("print", 2, "call", "std.debug")],
    ),
    (
        "ocaml",
        "open Printf\nlet f x = g (List.map h x)\n",
        [("Printf", 1, "import", ""), ("g", 2, "call", ""), ("map", 2, "call", "List")],
    ),
    (
        "julia",
        "using LinearAlgebra\nimport Base: show\nf(x) = g(x) + Base.h(x)\n",
        [("LinearAlgebra", 1, "import", ""), ("show", 2, "import", ""), ("g", 3, "call", ""), ("h", 3, "call", "Base")],
    ),
]


@pytest.mark.parametrize(("language", "source", "expected"), CASES, ids=[c[0] for c in CASES])
def test_light_references(language, source, expected):
    got = [(r.name, r.line, r.kind, r.qualifier) for r in extract_references(source, language)]
    assert got == expected


ELIXIR_DEFINITIONS = """\
defmodule A do
  @doc "Fetch."
  @spec fetch(integer) :: User.t()
  def fetch(id) when is_integer(id), do: Repo.get(User, id)
end
"""


def test_elixir_definition_heads_and_attributes_are_not_calls():
    got = [(r.name, r.kind, r.qualifier) for r in extract_references(ELIXIR_DEFINITIONS, "elixir")]
    assert got == [("is_integer", "call", ""), ("get", "call", "Repo")]


JULIA_DEFINITIONS = """\
function Base.show(io::IO, c::Circle)
    print(io, area(c))
end
area(c::Circle)::Float64 = pi * c.r^2
"""


def test_julia_definition_heads_are_not_calls():
    got = [(r.name, r.line, r.kind) for r in extract_references(JULIA_DEFINITIONS, "julia")]
    assert got == [("print", 2, "call"), ("area", 2, "call")]
