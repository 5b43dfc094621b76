"""Dart: classes, mixins, enums, extensions, typedefs, functions, methods, getters/setters and constructors.

The grammar puts a function's body beside its signature (``function_signature`` or ``method_signature``, then
``function_body``), so a definition spans both (``Def.extent``). A named extension (``extension PointOps on
Point``) is kind ``impl`` named after the extended type, its members ``Point.member``.
"""

from __future__ import annotations

import re

from tree_sitter import Node

from codesift.parse.base import Def, LangSpec, child_of_type, collapse, text, type_base_name

_SIGNATURES = frozenset(
    {"function_signature", "getter_signature", "setter_signature", "operator_signature", "constructor_signature",
     "constant_constructor_signature", "factory_constructor_signature",
     "redirecting_factory_constructor_signature"}
)  # fmt: skip
_OPERATOR = re.compile(r"\boperator\s*([^\s(]+)")


def _signature_name(node: Node) -> str:
    """``distanceTo``; a named constructor ``Point.origin`` -> ``origin``; ``operator +`` -> ``operator+``."""
    if node.type == "operator_signature":
        match = _OPERATOR.search(text(node))
        return f"operator{match.group(1)}" if match else ""
    names = node.children_by_field_name("name") or [c for c in node.children if c.type == "identifier"]
    return text(names[-1]) if names else ""


def _body_after(node: Node) -> Node | None:
    following = node.next_named_sibling
    return following if following is not None and following.type == "function_body" else None


def _member(node: Node) -> Def | None:
    """``method_signature`` (its body follows it) or ``declaration`` (abstract, or a constructor without body)."""
    inner = child_of_type(node, _SIGNATURES)
    if inner is None:
        return None
    name = _signature_name(inner)
    if not name:
        return None
    extent = _body_after(node) if node.type == "method_signature" else None
    initializers = child_of_type(node, {"initializers", "redirection"})
    return Def(node, "function", name, body=initializers, extent=extent)


def _top_function(node: Node) -> Def | None:
    """A top-level function; signatures inside a method or a declaration are those's."""
    if node.parent is None or node.parent.type != "program":
        return None
    name = _signature_name(node)
    return Def(node, "function", name, extent=_body_after(node)) if name else None


def _extension(node: Node) -> Def | None:
    target = text(node.child_by_field_name("class"))
    type_name = type_base_name(target)
    if not type_name:
        return None
    name = text(node.child_by_field_name("name"))
    header = f"extension {name} on {collapse(target, 120)}" if name else f"extension on {collapse(target, 120)}"
    return Def(node, "impl", type_name, qualified=header, scope=type_name)


DART_SPEC = LangSpec(
    kinds={
        "class_definition": "class",
        "mixin_declaration": "trait",
        "enum_declaration": "enum",
        "extension_type_declaration": "class",
        "type_alias": "type",
    },
    custom={
        "method_signature": _member,
        "declaration": _member,
        "function_signature": _top_function,
        "getter_signature": _top_function,
        "setter_signature": _top_function,
        "extension_declaration": _extension,
    },
    decorators=frozenset({"annotation"}),
    sibling_decorators=frozenset({"annotation"}),
    bodies=frozenset({"class_body", "enum_body", "extension_body"}),
    comments=frozenset({"comment", "documentation_comment"}),
)
