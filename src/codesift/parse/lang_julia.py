"""Julia: modules, functions (``function f … end``, ``f(x) = …`` at the top of a file or module, macros),
structs and abstract / primitive types. The string literal right above a definition is its docstring (and
its lines its own); ``function Base.show(…)`` is ``show`` qualified ``Base.show``: Julia methods extend a
function, they belong to no type.
"""

from __future__ import annotations

import inspect
import re

from tree_sitter import Node

from codesift.parse.base import Classifier, Def, LangSpec, child_of_type, text

_TOP = frozenset({"source_file", "module_definition"})
_QUOTES = re.compile(r'^(?:"""|")|(?:"""|")$')
_WRAPPERS = frozenset({"where_expression", "typed_expression", "binary_expression", "parametrized_type_expression",
                       "call_expression", "type_head", "signature"})  # fmt: skip


def _head(node: Node | None) -> tuple[str, str | None]:
    """(name, qualifier) of a signature or type head: ``f(x)::T where T`` -> f; ``Base.show(io, x)`` -> (show,
    Base); ``Point{T} <: AbstractPoint`` -> Point."""
    while node is not None and node.type in _WRAPPERS:
        node = node.named_children[0] if node.named_child_count else None
    if node is None:
        return "", None
    if node.type == "field_expression":
        value = node.child_by_field_name("value")
        return text(node.named_children[-1]), text(value) or None
    return (text(node), None) if node.type in ("identifier", "operator") else ("", None)


def _docstring(node: Node) -> tuple[Node | None, str | None]:
    """The string literal right above ``node`` and its text, or (None, None)."""
    previous = node.prev_named_sibling
    if previous is None or previous.type != "string_literal" or previous.end_point[0] < node.start_point[0] - 1:
        return None, None
    return previous, inspect.cleandoc(_QUOTES.sub("", text(previous))).strip()


def _body(node: Node, head: Node | None) -> Node | None:
    """What follows the head, or the closing ``end`` of an empty definition (the signature stops there)."""
    following = head.next_named_sibling if head is not None else None
    return following if following is not None else child_of_type(node, {"end"})


def _definition(kind: str, head_type: str) -> Classifier:
    def classify(node: Node) -> Def | None:
        head = child_of_type(node, {head_type})
        name, qualifier = _head(head)
        if not name:
            return None
        lead, doc = _docstring(node)
        qualified = f"{qualifier}.{name}" if qualifier else None
        return Def(node, kind, name, body=_body(node, head), qualified=qualified, lead=lead, docstring=doc)

    return classify


def _module(node: Node) -> Def | None:
    name = node.child_by_field_name("name")
    if name is None:
        return None
    lead, doc = _docstring(node)
    return Def(node, "module_def", text(name), body=_body(node, name), lead=lead, docstring=doc)


def _short_function(node: Node) -> Def | None:
    """``perimeter(c::Circle) = 2pi * c.r`` in a file or module (not an assignment inside a function)."""
    holder = node.parent
    if holder is not None and holder.type == "macro_argument_list" and holder.parent is not None:
        holder = holder.parent.parent  # ``@inline f(x) = …``
    if holder is None or holder.type not in _TOP or not node.named_child_count:
        return None
    left = node.named_children[0]
    probe = left
    while probe.type in ("where_expression", "typed_expression") and probe.named_child_count:
        probe = probe.named_children[0]
    if probe.type != "call_expression":
        return None
    name, qualifier = _head(left)
    if not name:
        return None
    lead, doc = _docstring(node)
    qualified = f"{qualifier}.{name}" if qualifier else None
    return Def(node, "function", name, body=child_of_type(node, {"operator"}), qualified=qualified, lead=lead,
               docstring=doc)


JULIA_SPEC = LangSpec(
    custom={
        "module_definition": _module,
        "function_definition": _definition("function", "signature"),
        "macro_definition": _definition("function", "signature"),
        "struct_definition": _definition("struct", "type_head"),
        "abstract_definition": _definition("type", "type_head"),
        "primitive_definition": _definition("type", "type_head"),
        "assignment": _short_function,
    },
    comments=frozenset({"line_comment", "block_comment"}),
)
