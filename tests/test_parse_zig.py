"""Zig definition extraction."""

from codesift.parse import extract_chunks

SOURCE = """\
const std = @import("std");

/// A 2D point.
pub const Point = struct {
    x: f32,
    y: f32,

    /// Distance to the origin.
    pub fn length(self: Point) f32 {
        return @sqrt(self.x * self.x + self.y * self.y);
    }
};

pub const Color = enum { red, green };

const Value = union(enum) { int: i64, float: f64 };

// Adds two numbers.
fn add(a: i32, b: i32) i32 {
    return a + b;
}

pub fn main() !void {
    std.debug.print("{}\\n", .{add(1, 2)});
}

test "add works" {
    try std.testing.expect(add(1, 2) == 3);
}
"""


def test_zig_definitions():
    chunks = extract_chunks(SOURCE, "zig", "src/point.zig")
    defs = {c.qualified_name: c for c in chunks if c.kind != "module"}
    got = {q: (c.kind, c.start_line, c.end_line, c.parent) for q, c in defs.items()}
    assert got == {
        "Point": ("struct", 4, 12, None),
        "Point.length": ("method", 9, 11, "Point"),
        "Color": ("enum", 14, 14, None),
        "Value": ("struct", 16, 16, None),
        "add": ("function", 19, 21, None),
        "main": ("function", 23, 25, None),
        "add works": ("function", 27, 29, None),
    }
    assert defs["Point"].signature == "pub const Point = struct"
    assert defs["Point.length"].signature == "pub fn length(self: Point) f32"
    assert defs["Color"].signature == "pub const Color = enum"
    assert defs["Value"].signature == "const Value = union(enum)"
    assert defs["add"].signature == "fn add(a: i32, b: i32) i32"
    assert defs["main"].signature == "pub fn main() !void"
    assert defs["add works"].signature == 'test "add works"'
    assert defs["Point"].docstring == "A 2D point."
    assert defs["Point.length"].docstring == "Distance to the origin."
    assert defs["add"].docstring == "Adds two numbers."
    modules = [(c.start_line, c.end_line) for c in chunks if c.kind == "module"]
    assert modules == [(1, 1)]
