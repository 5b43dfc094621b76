"""Scala definition extraction."""

from codesift.parse import extract_chunks

SOURCE = """\
package com.example.shapes

import scala.math.sqrt

/** A shape with an area. */
trait Shape {
  /** The area. */
  def area: Double
}

/** A circle. */
case class Circle(radius: Double) extends Shape {
  def area: Double = math.Pi * radius * radius

  def scale(factor: Double): Circle = copy(radius = radius * factor)
}

// Factory helpers.
object Shapes {
  val unit = Circle(1)

  def largest(shapes: Seq[Shape]): Shape = shapes.maxBy(_.area)
}

enum Color {
  case Red, Green
}

type Area = Double

def topLevel(x: Int): Int =
  x + 1

class Box[T](value: T) {
  def get(): T = value
}

/** Says hello.
  * Twice.
  */
@deprecated("use other", "1.0")
final class Greeter(name: String) {
  @inline private def greet(): String = s"hi $name"
}
"""


def test_scala_definitions():
    chunks = extract_chunks(SOURCE, "scala", "src/main/scala/Shapes.scala")
    defs = {c.qualified_name: c for c in chunks if c.kind != "module"}
    got = {q: (c.kind, c.start_line, c.end_line, c.parent) for q, c in defs.items()}
    assert got == {
        "Shape": ("trait", 6, 9, None),
        "Shape.area": ("method", 8, 8, "Shape"),
        "Circle": ("class", 12, 16, None),
        "Circle.area": ("method", 13, 13, "Circle"),
        "Circle.scale": ("method", 15, 15, "Circle"),
        "Shapes": ("class", 19, 23, None),
        "Shapes.largest": ("method", 22, 22, "Shapes"),
        "Color": ("enum", 25, 27, None),
        "Area": ("type", 29, 29, None),
        "topLevel": ("function", 31, 32, None),
        "Box": ("class", 34, 36, None),
        "Box.get": ("method", 35, 35, "Box"),
        "Greeter": ("class", 42, 44, None),
        "Greeter.greet": ("method", 43, 43, "Greeter"),
    }
    assert defs["Shape"].signature == "trait Shape"
    assert defs["Shape.area"].signature == "def area: Double"
    assert defs["Circle"].signature == "case class Circle(radius: Double) extends Shape"
    assert defs["Circle.area"].signature == "def area: Double"
    assert defs["Circle.scale"].signature == "def scale(factor: Double): Circle"
    assert defs["Shapes"].signature == "object Shapes"
    assert defs["Shapes.largest"].signature == "def largest(shapes: Seq[Shape]): Shape"
    assert defs["Color"].signature == "enum Color"
    assert defs["Area"].signature == "type Area = Double"
    assert defs["topLevel"].signature == "def topLevel(x: Int): Int"
    assert defs["Box"].signature == "class Box[T](value: T)"
    assert defs["Box.get"].signature == "def get(): T"
    assert defs["Greeter"].signature == "final class Greeter(name: String)"
    assert defs["Greeter.greet"].signature == "private def greet(): String"
    assert defs["Shape"].docstring == "A shape with an area."
    assert defs["Shape.area"].docstring == "The area."
    assert defs["Circle"].docstring == "A circle."
    assert defs["Shapes"].docstring == "Factory helpers."
    assert defs["Greeter"].docstring == "Says hello.\nTwice."
    assert defs["Greeter"].decorators == ['@deprecated("use other", "1.0")']
    assert defs["Greeter.greet"].decorators == ["@inline"]
    modules = [(c.start_line, c.end_line) for c in chunks if c.kind == "module"]
    assert modules == [(1, 1), (3, 3)]


EXTENSION = """\
extension (c: Circle)
  def circumference: Double = c.radius * 2
  def diameter: Double = c.radius * 2
"""


def test_scala_extension_methods_belong_to_the_extended_type():
    chunks = extract_chunks(EXTENSION, "scala", "src/main/scala/Ops.scala")
    got = {c.qualified_name: (c.kind, c.start_line, c.end_line, c.parent) for c in chunks}
    assert got == {
        "extension (c: Circle)": ("impl", 1, 3, None),
        "Circle.circumference": ("method", 2, 2, "Circle"),
        "Circle.diameter": ("method", 3, 3, "Circle"),
    }
