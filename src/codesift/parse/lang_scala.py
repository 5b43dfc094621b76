"""Scala (2 and 3): classes, case classes, objects, traits, enums, type aliases, ``def``s (abstract ones too),
extensions.

An ``object`` is kind ``class``, as Kotlin's is: its members are ``Shapes.largest``.
"""

from __future__ import annotations

from tree_sitter import Node

from codesift.parse.base import Def, LangSpec, child_of_type, collapse, text, type_base_name


def _extension(node: Node) -> Def | None:
    """Scala 3's ``extension (c: Circle)``: kind ``impl`` named after the extended type, its methods
    ``Circle.area`` (as Kotlin's ``fun Circle.area()`` reads)."""
    parameters = node.child_by_field_name("parameters")
    parameter = child_of_type(parameters, {"parameter"}) if parameters is not None else None
    type_name = type_base_name(text(parameter.child_by_field_name("type"))) if parameter is not None else ""
    if not type_name or parameters is None:
        return None
    header = f"extension {collapse(text(parameters), 120)}"
    return Def(node, "impl", type_name, body=node.child_by_field_name("body"), qualified=header, scope=type_name)


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
    custom={"extension_definition": _extension},
    decorators=frozenset({"annotation"}),
    modifiers=frozenset({"modifiers"}),
    comments=frozenset({"comment", "block_comment"}),
    name_types=frozenset({"identifier", "type_identifier"}),
)
