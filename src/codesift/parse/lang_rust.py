"""Rust: fns, structs, enums, unions, traits, type aliases, macro_rules and impl blocks.

An ``impl`` block is emitted as kind ``impl`` (qualified name = its header, e.g.
``impl Display for Point``) and its methods get ``parent`` = the implemented type.
"""

from __future__ import annotations

from tree_sitter import Node

from codesift.parse.base import Def, LangSpec, collapse, text, type_base_name


def _impl(node: Node) -> Def | None:
    target = node.child_by_field_name("type")
    if target is None:
        return None
    type_name = type_base_name(text(target))
    if not type_name:
        return None
    trait = node.child_by_field_name("trait")
    header = f"impl {collapse(text(trait), 120)} for {type_name}" if trait else f"impl {type_name}"
    return Def(node, "impl", type_name, qualified=header, scope=type_name)


RUST_SPEC = LangSpec(
    kinds={
        "function_item": "function",
        "struct_item": "struct",
        "union_item": "struct",
        "enum_item": "enum",
        "trait_item": "trait",
        "type_item": "type",
        "macro_definition": "function",
    },
    custom={"impl_item": _impl},
    decorators=frozenset({"attribute_item"}),
    sibling_decorators=frozenset({"attribute_item"}),
    comments=frozenset({"line_comment", "block_comment"}),
)
