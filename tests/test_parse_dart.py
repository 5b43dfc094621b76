"""Dart definition extraction."""

from codesift.parse import extract_chunks

SOURCE = """\
import 'dart:math';

/// A 2D point.
class Point {
  final double x, y;

  /// Creates a point.
  const Point(this.x, this.y);

  Point.origin() : x = 0, y = 0;

  /// Distance to [other].
  double distanceTo(Point other) {
    return sqrt((x - other.x) * (x - other.x));
  }

  @override
  String toString() => 'Point($x, $y)';

  double get length => sqrt(x * x + y * y);

  static Point parse(String s) => Point(0, 0);
}

abstract class Shape {
  double area();
}

mixin Named on Shape {
  String get name => 'shape';
}

enum Color { red, green }

extension PointOps on Point {
  Point doubled() => Point(x * 2, y * 2);
}

typedef Callback = void Function(int);

// Entry point.
void main(List<String> args) {
  print(Point(1, 2));
}

Future<int> fetch() async => 1;
"""


def test_dart_definitions():
    chunks = extract_chunks(SOURCE, "dart", "lib/src/point.dart")
    defs = {c.qualified_name: c for c in chunks if c.kind != "module"}
    got = {q: (c.kind, c.start_line, c.end_line, c.parent) for q, c in defs.items()}
    assert got == {
        "Point": ("class", 4, 23, None),
        "Point.Point": ("method", 8, 8, "Point"),
        "Point.origin": ("method", 10, 10, "Point"),
        "Point.distanceTo": ("method", 13, 15, "Point"),
        "Point.toString": ("method", 18, 18, "Point"),
        "Point.length": ("method", 20, 20, "Point"),
        "Point.parse": ("method", 22, 22, "Point"),
        "Shape": ("class", 25, 27, None),
        "Shape.area": ("method", 26, 26, "Shape"),
        "Named": ("trait", 29, 31, None),
        "Named.name": ("method", 30, 30, "Named"),
        "Color": ("enum", 33, 33, None),
        "extension PointOps on Point": ("impl", 35, 37, None),
        "Point.doubled": ("method", 36, 36, "Point"),
        "Callback": ("type", 39, 39, None),
        "main": ("function", 42, 44, None),
        "fetch": ("function", 46, 46, None),
    }
    assert defs["Point"].signature == "class Point"
    assert defs["Point.Point"].signature == "const Point(this.x, this.y)"
    assert defs["Point.origin"].signature == "Point.origin()"
    assert defs["Point.distanceTo"].signature == "double distanceTo(Point other)"
    assert defs["Point.toString"].signature == "String toString()"
    assert defs["Point.length"].signature == "double get length"
    assert defs["Point.parse"].signature == "static Point parse(String s)"
    assert defs["Shape"].signature == "abstract class Shape"
    assert defs["Shape.area"].signature == "double area()"
    assert defs["Named"].signature == "mixin Named on Shape"
    assert defs["Named.name"].signature == "String get name"
    assert defs["Color"].signature == "enum Color"
    assert defs["extension PointOps on Point"].signature == "extension PointOps on Point"
    assert defs["Point.doubled"].signature == "Point doubled()"
    assert defs["Callback"].signature == "typedef Callback = void Function(int)"
    assert defs["main"].signature == "void main(List<String> args)"
    assert defs["fetch"].signature == "Future<int> fetch()"
    assert defs["Point"].docstring == "A 2D point."
    assert defs["Point.Point"].docstring == "Creates a point."
    assert defs["Point.distanceTo"].docstring == "Distance to [other]."
    assert defs["main"].docstring == "Entry point."
    assert defs["Point.toString"].decorators == ["@override"]
    modules = [(c.start_line, c.end_line) for c in chunks if c.kind == "module"]
    assert modules == [(1, 1)]


def test_dart_body_beside_signature_belongs_to_it():
    defs = {c.qualified_name: c for c in extract_chunks(SOURCE, "dart", "lib/src/point.dart")}
    assert defs["Point.distanceTo"].text.endswith("return sqrt((x - other.x) * (x - other.x));\n  }")
    assert defs["main"].text.startswith("void main(List<String> args) {\n  print(Point(1, 2));")
