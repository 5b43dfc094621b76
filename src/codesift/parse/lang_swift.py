"""Swift: classes, structs, enums, actors, protocols, extensions, functions, initialisers, subscripts, computed
properties (kind ``function``), type aliases.

The grammar parses ``class``, ``struct``, ``enum``, ``actor`` and ``extension`` alike (``class_declaration``);
the keyword (field ``declaration_kind``) tells them apart. An ``extension Point`` is kind ``impl`` named after
the extended type, its members ``Point.member``, as Rust's ``impl`` blocks are.
"""

from __future__ import annotations

from tree_sitter import Node

from codesift.parse.base import Def, LangSpec, collapse, text, type_base_name

_KEYWORD_KINDS = {"class": "class", "struct": "struct", "enum": "enum", "actor": "class"}


def _type_declaration(node: Node) -> Def | None:
    keyword = text(node.child_by_field_name("declaration_kind"))
    name = text(node.child_by_field_name("name"))
    if not name:
        return None
    if keyword == "extension":
        type_name = type_base_name(name)
        return Def(node, "impl", type_name, qualified=f"extension {collapse(name, 120)}", scope=type_name)
    return Def(node, _KEYWORD_KINDS.get(keyword, "class"), name)


def _computed_property(node: Node) -> Def | None:
    """``var body: some View { … }``: a property with a getter is code (SwiftUI's views are such); a stored one
    is not a definition."""
    value = node.child_by_field_name("computed_value")
    pattern = node.child_by_field_name("name")
    if value is None or pattern is None:
        return None
    name = text(pattern.child_by_field_name("bound_identifier") or pattern)
    return Def(node, "function", name, body=value) if name else None


def _subscript(node: Node) -> Def | None:
    body = next((c for c in node.children if c.type == "computed_property"), None)
    return Def(node, "function", "subscript", body=body)


def _init(node: Node) -> Def | None:
    """``init(...)`` / ``deinit``: the keyword is the name (``init?`` stays ``init``)."""
    return Def(node, "function", "deinit" if node.type == "deinit_declaration" else "init")


SWIFT_SPEC = LangSpec(
    kinds={
        "protocol_declaration": "interface",
        "function_declaration": "function",
        "protocol_function_declaration": "function",
        "typealias_declaration": "type",
    },
    custom={"class_declaration": _type_declaration, "init_declaration": _init, "deinit_declaration": _init,
            "property_declaration": _computed_property, "subscript_declaration": _subscript},
    decorators=frozenset({"attribute"}),
    modifiers=frozenset({"modifiers"}),
    comments=frozenset({"comment", "multiline_comment"}),
    name_types=frozenset({"simple_identifier", "type_identifier"}),
)
