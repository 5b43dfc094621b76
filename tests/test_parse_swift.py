"""Swift definition extraction."""

from codesift.parse import extract_chunks

SOURCE = """\
import Foundation

/// A shape that can be drawn.
protocol Drawable {
    /// Draws into a context.
    func draw(in context: Context) -> Bool
}

/// A point in 2D.
struct Point: Equatable {
    var x: Double
    var y: Double

    /// Distance to another point.
    func distance(to other: Point) -> Double {
        return (x - other.x).magnitude
    }

    init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

/**
 Renders shapes.
 */
@MainActor
final class Renderer<T>: NSObject, Drawable {
    enum Mode { case fast, slow }

    @objc static func shared() -> Renderer { Renderer() }

    func draw(in context: Context) -> Bool { true }
}

extension Point: CustomStringConvertible {
    // The origin.
    func scaled(by f: Double) -> Point { Point(x: x * f, y: y * f) }
}

typealias Handler = (Int) -> Void

func main() throws {
    print("hi")
}
"""


def test_swift_definitions():
    chunks = extract_chunks(SOURCE, "swift", "Sources/App/Geometry.swift")
    defs = {c.qualified_name: c for c in chunks if c.kind != "module"}
    got = {q: (c.kind, c.start_line, c.end_line, c.parent) for q, c in defs.items()}
    assert got == {
        "Drawable": ("interface", 4, 7, None),
        "Drawable.draw": ("method", 6, 6, "Drawable"),
        "Point": ("struct", 10, 23, None),
        "Point.distance": ("method", 15, 17, "Point"),
        "Point.init": ("method", 19, 22, "Point"),
        "Renderer": ("class", 29, 35, None),
        "Renderer.Mode": ("enum", 30, 30, "Renderer"),
        "Renderer.shared": ("method", 32, 32, "Renderer"),
        "Renderer.draw": ("method", 34, 34, "Renderer"),
        "extension Point": ("impl", 37, 40, None),
        "Point.scaled": ("method", 39, 39, "Point"),
        "Handler": ("type", 42, 42, None),
        "main": ("function", 44, 46, None),
    }
    assert defs["Drawable"].signature == "protocol Drawable"
    assert defs["Drawable.draw"].signature == "func draw(in context: Context) -> Bool"
    assert defs["Point"].signature == "struct Point: Equatable"
    assert defs["Point.distance"].signature == "func distance(to other: Point) -> Double"
    assert defs["Point.init"].signature == "init(x: Double, y: Double)"
    assert defs["Renderer"].signature == "final class Renderer<T>: NSObject, Drawable"
    assert defs["Renderer.Mode"].signature == "enum Mode"
    assert defs["Renderer.shared"].signature == "static func shared() -> Renderer"
    assert defs["Renderer.draw"].signature == "func draw(in context: Context) -> Bool"
    assert defs["extension Point"].signature == "extension Point: CustomStringConvertible"
    assert defs["Point.scaled"].signature == "func scaled(by f: Double) -> Point"
    assert defs["Handler"].signature == "typealias Handler = (Int) -> Void"
    assert defs["main"].signature == "func main() throws"
    assert defs["Drawable"].docstring == "A shape that can be drawn."
    assert defs["Drawable.draw"].docstring == "Draws into a context."
    assert defs["Point"].docstring == "A point in 2D."
    assert defs["Point.distance"].docstring == "Distance to another point."
    assert defs["Renderer"].docstring == "Renders shapes."
    assert defs["Point.scaled"].docstring == "The origin."
    assert defs["Renderer"].decorators == ["@MainActor"]
    assert defs["Renderer.shared"].decorators == ["@objc"]
    modules = [(c.start_line, c.end_line) for c in chunks if c.kind == "module"]
    assert modules == [(1, 1)]


SWIFTUI = """\
struct ContentView: View {
    @State private var count = 0

    var body: some View {
        Text("hi")
    }

    subscript(index: Int) -> Int { index }
}
"""


def test_swift_computed_properties_and_subscripts_are_code():
    chunks = extract_chunks(SWIFTUI, "swift", "Sources/App/ContentView.swift")
    got = {c.qualified_name: (c.kind, c.start_line, c.end_line, c.signature) for c in chunks}
    assert got == {
        "ContentView": ("struct", 1, 9, "struct ContentView: View"),
        "ContentView.body": ("method", 4, 6, "var body: some View"),
        "ContentView.subscript": ("method", 8, 8, "subscript(index: Int) -> Int"),
    }


CONDITIONAL_CONFORMANCE = """\
public final class Session: NSObject
#if canImport(Combine)
, ObservableObject
#endif
{
    /// Sends a request.
    public func request(_ url: URL) -> Request {
        return Request(url)
    }

#if os(iOS)
    func background() -> Int { 1 }
#elseif os(macOS)
    func background() -> Int { 2 }
#endif
}
"""


def test_swift_conditional_conformance_keeps_the_class():
    # an #if in the inheritance clause left the class unparsed: `request` was module code, the rest loose functions
    chunks = extract_chunks(CONDITIONAL_CONFORMANCE, "swift", "Sources/Net/Session.swift")
    got = {(c.kind, c.qualified_name, c.start_line) for c in chunks if c.kind != "module"}
    assert got == {
        ("class", "Session", 1),
        ("method", "Session.request", 7),
        ("method", "Session.background", 12),
        ("method", "Session.background", 14),
    }
    assert next(c for c in chunks if c.name == "request").docstring == "Sends a request."
