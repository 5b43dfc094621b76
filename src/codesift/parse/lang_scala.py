"""Scala (2 and 3): classes, case classes, objects, traits, enums, type aliases, ``def``s (abstract ones too).

An ``object`` is kind ``class``, as Kotlin's is: its members are ``Shapes.largest``.
"""

from __future__ import annotations

from codesift.parse.base import LangSpec

SCALA_SPEC = LangSpec(
    kinds={
        "class_definition": "class",
        "object_definition": "class",
        "trait_definition": "trait",
        "enum_definition": "enum",
        "type_definition": "type",
        "function_definition": "function",
        "function_declaration": "function",
    },
    decorators=frozenset({"annotation"}),
    modifiers=frozenset({"modifiers"}),
    comments=frozenset({"comment", "block_comment"}),
    name_types=frozenset({"identifier", "type_identifier"}),
)
