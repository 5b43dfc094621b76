"""Julia definition extraction."""

from codesift.parse import extract_chunks

SOURCE = '''\
module Shapes

using LinearAlgebra

export area

"""
    Shape

An abstract shape.
"""
abstract type Shape end

"A circle."
struct Circle <: Shape
    r::Float64
end

mutable struct Counter
    n::Int
end

"""
    area(c::Circle)

Area of a circle.
"""
function area(c::Circle)
    return pi * c.r^2
end

# Short form.
perimeter(c::Circle) = 2pi * c.r

macro twice(ex)
    quote $(esc(ex)); $(esc(ex)) end
end

function Base.show(io::IO, c::Circle)
    print(io, "Circle(", c.r, ")")
end

@inline scale(x::T, k) where {T<:Real} = x * k

const DEFAULT = Circle(1.0)

end # module
'''


def test_julia_definitions():
    chunks = extract_chunks(SOURCE, "julia", "src/Shapes.jl")
    defs = {c.qualified_name: c for c in chunks if c.kind != "module"}
    got = {q: (c.kind, c.start_line, c.end_line, c.parent) for q, c in defs.items()}
    assert got == {
        "Shapes": ("module_def", 1, 47, None),
        "Shapes.Shape": ("type", 12, 12, "Shapes"),
        "Shapes.Circle": ("struct", 15, 17, "Shapes"),
        "Shapes.Counter": ("struct", 19, 21, "Shapes"),
        "Shapes.area": ("method", 28, 30, "Shapes"),
        "Shapes.perimeter": ("method", 33, 33, "Shapes"),
        "Shapes.twice": ("method", 35, 37, "Shapes"),
        "Base.show": ("method", 39, 41, "Shapes"),
        "Shapes.scale": ("method", 43, 43, "Shapes"),
    }
    assert defs["Shapes"].signature == "module Shapes"
    assert defs["Shapes.Shape"].signature == "abstract type Shape"
    assert defs["Shapes.Circle"].signature == "struct Circle <: Shape"
    assert defs["Shapes.Counter"].signature == "mutable struct Counter"
    assert defs["Shapes.area"].signature == "function area(c::Circle)"
    assert defs["Shapes.perimeter"].signature == "perimeter(c::Circle)"
    assert defs["Shapes.twice"].signature == "macro twice(ex)"
    assert defs["Base.show"].signature == "function Base.show(io::IO, c::Circle)"
    assert defs["Shapes.scale"].signature == "scale(x::T, k) where {T<:Real}"
    assert defs["Shapes.Shape"].docstring == "Shape\n\nAn abstract shape."
    assert defs["Shapes.Circle"].docstring == "A circle."
    assert defs["Shapes.area"].docstring == "area(c::Circle)\n\nArea of a circle."
    assert defs["Shapes.perimeter"].docstring == "Short form."
    modules = [(c.start_line, c.end_line) for c in chunks if c.kind == "module"]
    assert modules == []


def test_julia_docstring_is_part_of_the_definition():
    defs = {c.qualified_name: c for c in extract_chunks(SOURCE, "julia", "src/Shapes.jl")}
    assert defs["Shapes.area"].text.startswith('"""\n    area(c::Circle)')
    assert defs["Shapes.area"].text.endswith("return pi * c.r^2\nend")
