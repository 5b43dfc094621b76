"""Rust: fns, structs, enums, unions, traits, type aliases, macro_rules, impl blocks and inline modules.

An ``impl`` block is emitted as kind ``impl`` (qualified name = its header, e.g.
``impl Display for Point``) and its methods get ``parent`` = the implemented type. An inline
``mod name { … }`` is a ``namespace`` scope (its fns stay functions), so ``#[cfg(test)] mod tests`` functions are
``tests.name`` (and ranked as tests); ``mod name;`` declarations are not definitions.
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


def _mod(node: Node) -> Def | None:
    name = node.child_by_field_name("name")
    if node.child_by_field_name("body") is None or name is None:
        return None
    return Def(node, "namespace", text(name))


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
    custom={"impl_item": _impl, "mod_item": _mod},
    decorators=frozenset({"attribute_item"}),
    sibling_decorators=frozenset({"attribute_item"}),
    comments=frozenset({"line_comment", "block_comment"}),
)
