"""OCaml definition extraction."""

from codesift.parse import extract_chunks

SOURCE = """\
open Printf

(** A 2D point. *)
type point = { x : float; y : float }

type shape = Circle of float | Rect of float * float

(** Area of a shape. *)
let area = function
  | Circle r -> 3.14 *. r *. r
  | Rect (w, h) -> w *. h

let rec fact n = if n <= 1 then 1 else n * fact (n - 1)

let pi = 3.14

(* Geometry helpers. *)
module Geometry = struct
  let distance a b = sqrt ((a.x -. b.x) ** 2.)

  module Inner = struct
    let twice x = 2 * x
  end
end

module type SHAPE = sig
  val area : shape -> float
end

class counter = object
  val mutable n = 0
  method incr = n <- n + 1
end

let () = printf "%f\\n" (area (Circle 1.))
"""


def test_ocaml_definitions():
    chunks = extract_chunks(SOURCE, "ocaml", "lib/shape.ml")
    defs = {c.qualified_name: c for c in chunks if c.kind != "module"}
    got = {q: (c.kind, c.start_line, c.end_line, c.parent) for q, c in defs.items()}
    assert got == {
        "point": ("type", 4, 4, None),
        "shape": ("type", 6, 6, None),
        "area": ("function", 9, 11, None),
        "fact": ("function", 13, 13, None),
        "Geometry": ("module_def", 18, 24, None),
        "Geometry.distance": ("method", 19, 19, "Geometry"),
        "Geometry.Inner": ("module_def", 21, 23, "Geometry"),
        "Geometry.Inner.twice": ("method", 22, 22, "Geometry.Inner"),
        "SHAPE": ("interface", 26, 28, None),
        "SHAPE.area": ("method", 27, 27, "SHAPE"),
        "counter": ("class", 30, 33, None),
        "counter.incr": ("method", 32, 32, "counter"),
    }
    assert defs["point"].signature == "type point"
    assert defs["shape"].signature == "type shape"
    assert defs["area"].signature == "let area"
    assert defs["fact"].signature == "let rec fact n"
    assert defs["Geometry"].signature == "module Geometry"
    assert defs["Geometry.distance"].signature == "let distance a b"
    assert defs["Geometry.Inner"].signature == "module Inner"
    assert defs["Geometry.Inner.twice"].signature == "let twice x"
    assert defs["SHAPE"].signature == "module type SHAPE"
    assert defs["SHAPE.area"].signature == "val area : shape -> float"
    assert defs["counter"].signature == "class counter"
    assert defs["counter.incr"].signature == "method incr"
    assert defs["point"].docstring == "A 2D point."
    assert defs["area"].docstring == "Area of a shape."
    assert defs["Geometry"].docstring == "Geometry helpers."
    modules = [(c.start_line, c.end_line) for c in chunks if c.kind == "module"]
    assert modules == [(1, 1), (15, 15), (35, 35)]


INTERFACE = """\
(** A 2D point. *)
type point = { x : float; y : float }

(** Area of a shape. *)
val area : shape -> float

module Geometry : sig
  val distance : point -> point -> float
end
"""


def test_ocaml_interface_definitions():
    chunks = extract_chunks(INTERFACE, "ocaml_interface", "lib/shape.mli")
    defs = {c.qualified_name: c for c in chunks}
    got = {q: (c.kind, c.start_line, c.end_line, c.parent) for q, c in defs.items()}
    assert got == {
        "point": ("type", 2, 2, None),
        "area": ("function", 5, 5, None),
        "Geometry": ("module_def", 7, 9, None),
        "Geometry.distance": ("method", 8, 8, "Geometry"),
    }
    assert defs["area"].signature == "val area : shape -> float"
    assert defs["area"].docstring == "Area of a shape."
    assert defs["Geometry"].signature == "module Geometry"
