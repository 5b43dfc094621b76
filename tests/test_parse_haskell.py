"""Haskell definition extraction."""

from codesift.parse import extract_chunks

SOURCE = """\
module Data.Shape
  ( Shape(..)
  , area
  ) where

import Data.List (sortBy)

-- | A geometric shape.
data Shape
  = Circle Double
  | Rect Double Double
  deriving (Show, Eq)

-- | Area of a shape.
area :: Shape -> Double
area (Circle r) = pi * r * r
area (Rect w h) = w * h

newtype Meters = Meters Double

type Name = String

-- | Things with a perimeter.
class HasPerimeter a where
  perimeter :: a -> Double

instance HasPerimeter Shape where
  perimeter (Circle r) = 2 * pi * r
  perimeter (Rect w h) = 2 * (w + h)

main :: IO ()
main = print (area (Circle 1))

{- | Sum the areas,
     strictly. -}
totalArea :: [Shape] -> Double
totalArea = foldr step 0
  where
    step s acc = area s + acc
"""


def test_haskell_definitions():
    chunks = extract_chunks(SOURCE, "haskell", "src/Data/Shape.hs")
    defs = {c.qualified_name: c for c in chunks if c.kind != "module"}
    got = {q: (c.kind, c.start_line, c.end_line, c.parent) for q, c in defs.items()}
    assert got == {
        "Shape": ("type", 9, 12, None),
        "area": ("function", 15, 17, None),
        "Meters": ("type", 19, 19, None),
        "Name": ("type", 21, 21, None),
        "HasPerimeter": ("trait", 24, 25, None),
        "HasPerimeter.perimeter": ("method", 25, 25, "HasPerimeter"),
        "instance HasPerimeter Shape": ("impl", 27, 29, None),
        "Shape.perimeter": ("method", 28, 29, "Shape"),
        "main": ("function", 31, 32, None),
        "totalArea": ("function", 36, 39, None),
    }
    assert defs["Shape"].signature == "data Shape"
    assert defs["area"].signature == "area :: Shape -> Double"
    assert defs["Meters"].signature == "newtype Meters"
    assert defs["Name"].signature == "type Name = String"
    assert defs["HasPerimeter"].signature == "class HasPerimeter a"
    assert defs["HasPerimeter.perimeter"].signature == "perimeter :: a -> Double"
    assert defs["instance HasPerimeter Shape"].signature == "instance HasPerimeter Shape"
    assert defs["Shape.perimeter"].signature == "perimeter (Circle r)"
    assert defs["main"].signature == "main :: IO ()"
    assert defs["totalArea"].signature == "totalArea :: [Shape] -> Double"
    assert defs["Shape"].docstring == "A geometric shape."
    assert defs["area"].docstring == "Area of a shape."
    assert defs["HasPerimeter"].docstring == "Things with a perimeter."
    assert defs["totalArea"].docstring == "Sum the areas,\nstrictly."
    modules = [(c.start_line, c.end_line) for c in chunks if c.kind == "module"]
    assert modules == [(1, 4), (6, 6)]


def test_haskell_signature_and_equations_are_one_definition():
    defs = {c.qualified_name: c for c in extract_chunks(SOURCE, "haskell", "src/Data/Shape.hs")}
    assert defs["area"].text == ("area :: Shape -> Double\narea (Circle r) = pi * r * r\narea (Rect w h) = w * h")
    assert "step" not in defs  # a `where` binding stays in its function
