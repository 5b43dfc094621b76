"""OCaml (``.ml``) and its interfaces (``.mli``): functions (``let`` bindings with parameters or a ``function``
body, ``val`` specifications, ``external``s), types, modules (kind ``module_def``), module types (kind
``interface``), classes and their methods.

Only bindings of a file or a module's ``struct … end`` count: ``let … in`` bindings stay in their function, and
so do values that are not functions (``let pi = 3.14``).
"""

from __future__ import annotations

import inspect
import re

from tree_sitter import Node

from codesift.parse.base import Classifier, Def, LangSpec, child_of_type, text

_TOP = frozenset({"compilation_unit", "structure"})
_FUNCTION_BODIES = frozenset({"function_expression", "fun_expression"})
_OPEN = re.compile(r"^\s*\(\*+\s?")
_CLOSE = re.compile(r"\s*\*+\)\s*$")


def _doc(doc: str) -> str:
    """``(** Area of a shape. *)`` -> ``Area of a shape.``"""
    lines = [_CLOSE.sub("", _OPEN.sub("", line)).rstrip() for line in doc.splitlines()]
    return inspect.cleandoc("\n".join(lines)).strip()


def _sole_child(binding: Node) -> Node | None:
    """The ``let`` / ``type`` / ``module`` statement around ``binding`` when it binds nothing else (its keyword
    line is the definition's)."""
    statement = binding.parent
    if statement is None:
        return None
    return statement if sum(1 for c in statement.named_children if c.type == binding.type) == 1 else None


def _let(node: Node) -> Def | None:
    statement = node.parent
    if statement is None or statement.type != "value_definition" or statement.parent is None:
        return None
    if statement.parent.type not in _TOP:
        return None
    pattern = node.child_by_field_name("pattern")
    body = node.child_by_field_name("body")
    if pattern is None or pattern.type != "value_name":
        return None
    is_function = child_of_type(node, {"parameter"}) is not None or (body is not None and body.type in _FUNCTION_BODIES)
    if not is_function:
        return None
    return Def(node, "function", text(pattern), body=body, outer=_sole_child(node))


def _named(kind: str, name_types: frozenset[str], owned: bool = True) -> Classifier:
    def classify(node: Node) -> Def | None:
        name_node = node.child_by_field_name("name") or child_of_type(node, name_types)
        name = text(name_node)
        if not name:
            return None
        body = node.child_by_field_name("body") or node.child_by_field_name("module_type")
        return Def(node, kind, name, body=body, outer=_sole_child(node) if owned else None)

    return classify


OCAML_SPEC = LangSpec(
    custom={
        "let_binding": _let,
        "type_binding": _named("type", frozenset({"type_constructor"})),
        "module_binding": _named("module_def", frozenset({"module_name"})),
        "module_type_definition": _named("interface", frozenset({"module_type_name"}), owned=False),
        "class_binding": _named("class", frozenset({"class_name"})),
        "method_definition": _named("function", frozenset({"method_name"}), owned=False),
        "value_specification": _named("function", frozenset({"value_name"}), owned=False),
        "external": _named("function", frozenset({"value_name"}), owned=False),
    },
    doc_clean=_doc,
)
