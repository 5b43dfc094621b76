"""Python: functions, methods, classes (decorators kept, start line on ``def``/``class``)."""

from __future__ import annotations

import ast
import inspect
import re

from tree_sitter import Node

from codesift.parse.base import Classifier, Def, LangSpec, text

_STRING = re.compile(r"^[rRuUbBfF]{0,2}(\"\"\"|'''|\"|')(.*)\1$", re.S)


def docstring(body: Node | None) -> str:
    """The docstring of a ``block``: its first statement when that is a plain string."""
    if body is None:
        return ""
    for stmt in body.named_children:
        if stmt.type == "comment":
            continue
        if stmt.type != "expression_statement" or stmt.named_child_count != 1:
            return ""
        expr = stmt.named_children[0]
        if expr.type == "string":
            return _string_value(text(expr))
        if expr.type == "concatenated_string":
            parts = [s for s in expr.named_children if s.type == "string"]
            return "".join(_string_value(text(s)) for s in parts)
        return ""
    return ""


def _string_value(literal: str) -> str:
    if "\\" in literal:
        try:  # escapes: let Python decode them exactly as the docstring would be
            value = ast.literal_eval(literal)
            if isinstance(value, str):
                return inspect.cleandoc(value)
        except (ValueError, SyntaxError):
            pass
    match = _STRING.match(literal.strip())
    return inspect.cleandoc(match.group(2)) if match else ""


def _definition(kind: str) -> Classifier:
    def classify(node: Node) -> Def | None:
        name = text(node.child_by_field_name("name"))
        if not name:
            return None
        body = node.child_by_field_name("body")
        return Def(node, kind, name, body=body, docstring=docstring(body))

    return classify


PYTHON_SPEC = LangSpec(
    custom={
        "function_definition": _definition("function"),
        "class_definition": _definition("class"),
    },
    prefix_wrappers=frozenset({"decorated_definition"}),
    decorators=frozenset({"decorator"}),
    comment_docs=False,
)
