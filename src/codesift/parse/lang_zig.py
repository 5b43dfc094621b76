"""Zig: functions, ``test`` blocks, and the containers bound to constants (``const Point = struct {…}``: a
struct named ``Point``, its functions ``Point.length``)."""

from __future__ import annotations

from tree_sitter import Node

from codesift.parse.base import Def, LangSpec, child_of_type, text

_CONTAINERS = {"struct_declaration": "struct", "union_declaration": "struct", "enum_declaration": "enum",
               "opaque_declaration": "struct"}  # fmt: skip


def _container(node: Node) -> Def | None:
    """``pub const Point = struct { … };``: the declaration is the struct's definition."""
    value = next((c for c in node.named_children if c.type in _CONTAINERS), None)
    name = child_of_type(node, {"identifier"})
    if value is None or name is None:
        return None
    return Def(node, _CONTAINERS[value.type], text(name), body=child_of_type(value, {"{"}))


def _test(node: Node) -> Def | None:
    """``test "add works" { … }`` -> a function named ``add works``."""
    label = child_of_type(node, {"string", "identifier"})
    content = child_of_type(label, {"string_content"}) if label is not None and label.type == "string" else label
    name = text(content)
    return Def(node, "function", name, body=child_of_type(node, {"block"})) if name else None


ZIG_SPEC = LangSpec(
    kinds={"function_declaration": "function"},
    custom={"variable_declaration": _container, "test_declaration": _test},
)
