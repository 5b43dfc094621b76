"""Rust definition extraction."""

from codesift.parse import extract_chunks

SOURCE = """\
use std::fmt;

/// A point in 2D space.
/// Coordinates are integers.
#[derive(Debug, Clone)]
pub struct Point {
    x: i32,
    y: i32,
}

pub enum Shape {
    Circle(f64),
    Square(f64),
}

/// Things with an area.
pub trait Area {
    fn area(&self) -> f64;
    fn describe(&self) -> String {
        format!("area {}", self.area())
    }
}

impl Point {
    /// Creates a point.
    pub fn new(x: i32, y: i32) -> Self {
        Point { x, y }
    }
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {})", self.x, self.y)
    }
}

#[get("/hello/<name>")]
fn hello(name: &str) -> String {
    format!("Hello, {}!", name)
}

type Grid = Vec<Vec<Point>>;
"""


def test_rust_definitions():
    chunks = extract_chunks(SOURCE, "rust", "src/geometry.rs")
    defs = {c.qualified_name: c for c in chunks if c.kind != "module"}
    got = {q: (c.kind, c.name, c.start_line, c.end_line, c.parent) for q, c in defs.items()}
    assert got == {
        "Point": ("struct", "Point", 6, 9, None),
        "Shape": ("enum", "Shape", 11, 14, None),
        "Area": ("trait", "Area", 17, 22, None),
        "Area.describe": ("method", "describe", 19, 21, "Area"),
        "impl Point": ("impl", "Point", 24, 29, None),
        "Point.new": ("method", "new", 26, 28, "Point"),
        "impl fmt::Display for Point": ("impl", "Point", 31, 35, None),
        "Point.fmt": ("method", "fmt", 32, 34, "Point"),
        "hello": ("function", "hello", 38, 40, None),
        "Grid": ("type", "Grid", 42, 42, None),
    }
    point = defs["Point"]
    assert point.decorators == ["#[derive(Debug, Clone)]"]
    assert point.docstring == "A point in 2D space.\nCoordinates are integers."
    assert point.signature == "pub struct Point"
    assert point.text.startswith("#[derive(Debug, Clone)]\npub struct Point {")
    assert defs["Point.new"].signature == "pub fn new(x: i32, y: i32) -> Self"
    assert defs["Point.new"].docstring == "Creates a point."
    assert defs["Area"].docstring == "Things with an area."
    assert defs["hello"].route == "GET /hello/<name>"
    assert defs["Point.fmt"].signature == (
        "fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result"
    )


def test_inline_module_is_a_scope_and_declarations_are_not_definitions():
    src = (
        "mod other;\n"
        "pub fn add(a: i32) -> i32 { a }\n"
        "#[cfg(test)]\n"
        "mod tests {\n"
        "    #[test]\n"
        "    fn adds() { assert_eq!(super::add(1), 1); }\n"
        "}\n"
    )
    chunks = {c.qualified_name: c for c in extract_chunks(src, "rust", "src/lib.rs")}
    assert chunks["tests"].kind == "namespace"
    assert chunks["tests"].decorators == ["#[cfg(test)]"]
    adds = chunks["tests.adds"]
    assert (adds.kind, adds.parent, adds.start_line) == ("function", "tests", 6)
    assert "other" not in chunks


def test_an_impl_for_a_reference_with_a_lifetime_is_the_types():
    src = ("pub struct Deserializer<R> { r: R }\n"
           "impl<'de, 'a, R> de::Deserializer<'de> for &'a mut Deserializer<R> {\n"
           "    fn deserialize_any(self) {}\n"
           "}\n")
    chunks = {c.qualified_name: c for c in extract_chunks(src, "rust", "src/de.rs")}
    assert chunks["Deserializer.deserialize_any"].parent == "Deserializer"
    assert "impl de::Deserializer<'de> for Deserializer" in chunks
