"""Lua and shell (the bash grammar): functions, Lua's ``M.f`` / ``M:f`` table members and function values."""

from __future__ import annotations

import inspect
import re

from tree_sitter import Node

from codesift.parse.base import Def, LangSpec, child_of_type, text

# --- Lua ------------------------------------------------------------------------------------

_LUA_MARK = re.compile(r"^\s*(?:--+(?:\[=*\[)?|\]=*\])\s?")


def _lua_doc(doc: str) -> str:
    """``--- Greets.`` / ``-- @param x`` / ``--[[ … ]]`` -> their text."""
    return inspect.cleandoc("\n".join(_LUA_MARK.sub("", line).rstrip() for line in doc.splitlines())).strip()


def _lua_name(node: Node | None) -> tuple[str, str | None]:
    """(name, table) of ``f``, ``M.f``, ``M:f``, ``a.b.f``."""
    if node is None:
        return "", None
    if node.type == "identifier":
        return text(node), None
    if node.type == "dot_index_expression":
        return text(node.child_by_field_name("field")), text(node.child_by_field_name("table")) or None
    if node.type == "method_index_expression":
        return text(node.child_by_field_name("method")), text(node.child_by_field_name("table")) or None
    return "", None


def _lua_body(node: Node) -> Node | None:
    """The body block, or for an empty function its ``end`` (so the signature stops before it)."""
    body = node.child_by_field_name("body")
    return body if body is not None else child_of_type(node, {"end"})


def _lua_function(node: Node) -> Def | None:
    name, table = _lua_name(node.child_by_field_name("name"))
    return Def(node, "function", name, body=_lua_body(node), parent=table) if name else None


def _lua_assignment(node: Node) -> Def | None:
    """``M.handler = function(req) … end`` and ``local cb = function() … end`` define ``handler`` and ``cb``."""
    variables = child_of_type(node, {"variable_list"})
    values = child_of_type(node, {"expression_list"})
    if variables is None or values is None or variables.named_child_count != 1 or values.named_child_count != 1:
        return None
    value = values.named_children[0]
    if value.type != "function_definition":
        return None
    name, table = _lua_name(variables.named_children[0])
    if not name:
        return None
    outer = node.parent if node.parent is not None and node.parent.type == "variable_declaration" else None
    return Def(node, "function", name, body=_lua_body(value), parent=table, outer=outer)


LUA_SPEC = LangSpec(
    custom={"function_declaration": _lua_function, "assignment_statement": _lua_assignment},
    doc_clean=_lua_doc,
)

# --- shell ----------------------------------------------------------------------------------

_SHEBANG = re.compile(r"^/\S*bin/\S*(?:[ \t][^\n]*)?\n?")


def _shell_doc(doc: str) -> str:
    """Without the ``#!/bin/sh`` line a script's first function sits under (the cleaning kept its path)."""
    return _SHEBANG.sub("", doc, count=1).strip()


SHELL_SPEC = LangSpec(
    kinds={"function_definition": "function"}, name_types=frozenset({"word"}), doc_clean=_shell_doc
)
