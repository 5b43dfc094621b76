"""Elixir: ``defmodule`` / ``defprotocol`` / ``defimpl`` scopes and ``def``-family functions, all ``call`` nodes.

A module's qualified name is its full alias path (nested ``defmodule User`` in ``MyApp.Accounts`` is
``MyApp.Accounts.User``; a nested dotted alias keeps its last part only); a function's clauses (``def fact(0)``,
``def fact(n)``) are one definition; the ``@doc`` / ``@spec`` attributes above a function belong to it and
``@doc``'s text is its docstring, as a module's ``@moduledoc`` is its own.
"""

from __future__ import annotations

import inspect
import re

from tree_sitter import Node

from codesift.parse.base import Def, LangSpec, child_of_type, text

_FUNCTIONS = frozenset(
    {"def", "defp", "defmacro", "defmacrop", "defguard", "defguardp", "defdelegate", "defn", "defnp"}
)
_SCOPES = {"defmodule": "module_def", "defprotocol": "interface", "defimpl": "impl"}
_STRING_QUOTES = re.compile(r'^(?:~[a-zA-Z])?(?:"""|\'\'\'|"|\')|(?:"""|\'\'\'|"|\')$')


def _target(node: Node) -> str:
    return text(node.child_by_field_name("target")) if node.type == "call" else ""


def _arguments(node: Node) -> list[Node]:
    args = child_of_type(node, {"arguments"})
    return [c for c in args.named_children if c.type != "comment"] if args is not None else []


def _head_name(head: Node) -> str:
    """``get(id)`` / ``get`` / ``get(id) when is_integer(id)`` -> ``get``."""
    while head.type == "binary_operator":  # the guard's ``when``
        left = head.child_by_field_name("left")
        if left is None:
            return ""
        head = left
    if head.type == "call":
        return _target(head)
    return text(head) if head.type == "identifier" else ""


def _function_name(node: Node) -> str:
    args = _arguments(node)
    return _head_name(args[0]) if args and _target(node) in _FUNCTIONS else ""


def _attribute(node: Node) -> str:
    """``moduledoc`` for ``@moduledoc "..."``, "" for anything else."""
    if node.type != "unary_operator" or not text(node).startswith("@"):
        return ""
    operand = node.child_by_field_name("operand")
    return _target(operand) if operand is not None else text(operand)


def _attribute_text(node: Node) -> str:
    """The docstring an ``@doc`` / ``@moduledoc`` holds ("" for ``@doc false``)."""
    operand = node.child_by_field_name("operand")
    args = _arguments(operand) if operand is not None else []
    if not args or args[0].type not in ("string", "sigil"):
        return ""
    raw = _STRING_QUOTES.sub("", text(args[0]).strip())
    return inspect.cleandoc(raw).strip()


def _inline_body(node: Node) -> Node | None:
    """The ``do`` block, or for ``def f(x), do: …`` the comma before ``do:`` (the signature stops there)."""
    block = child_of_type(node, {"do_block"})
    if block is not None:
        return block
    args = child_of_type(node, {"arguments"})
    if args is None:
        return None
    previous = None
    for child in args.children:
        if child.type == "keywords":
            return previous if previous is not None and previous.type == "," else child
        previous = child
    return None


def _enclosing_alias(node: Node) -> str:
    """The alias of the ``defmodule`` / ``defprotocol`` right around ``node`` ("" at the top of a file).

    Only the nearest: ``Node.parent`` costs the node's depth, and hostile nesting must stay linear."""
    block = node.parent
    holder = block.parent if block is not None and block.type == "do_block" else None
    if holder is None or holder.type != "call" or _target(holder) not in ("defmodule", "defprotocol"):
        return ""
    args = _arguments(holder)
    return text(args[0]) if args and args[0].type == "alias" else ""


def _scope(node: Node, keyword: str) -> Def | None:
    args = _arguments(node)
    if not args or args[0].type != "alias":
        return None
    alias = text(args[0])
    block = child_of_type(node, {"do_block"})
    if keyword == "defimpl":
        target = next((text(p.child_by_field_name("value")) for a in args[1:] if a.type == "keywords"
                       for p in a.named_children if text(p.child_by_field_name("key")).startswith("for")), "")
        target = target or _enclosing_alias(node)
        if not target:
            return None
        implementation = f"{alias}.{target}"
        return Def(node, "impl", target.rsplit(".", 1)[-1], body=block, qualified=implementation,
                   scope=implementation)
    # At the top of a file the alias is the full name; nested, the enclosing module's name comes first.
    top = node.parent is not None and node.parent.type == "source"
    qualified: str | None = alias if top else None
    docstring = None
    if block is not None:
        moduledoc = next((c for c in block.named_children if _attribute(c) == "moduledoc"), None)
        docstring = _attribute_text(moduledoc) if moduledoc is not None else None
    return Def(node, _SCOPES[keyword], alias.rsplit(".", 1)[-1], body=block, qualified=qualified,
               scope=qualified, docstring=docstring)


def _same_function(node: Node | None, name: str) -> bool:
    return node is not None and node.type == "call" and _function_name(node) == name


def _function(node: Node, name: str) -> Def | None:
    previous = node.prev_named_sibling
    while previous is not None and _attribute(previous) in ("spec", "impl"):
        previous = previous.prev_named_sibling
    if _same_function(previous, name):
        return None  # a later clause: part of the first one
    extent = node
    following = node.next_named_sibling
    while following is not None and (_same_function(following, name) or _attribute(following) in ("spec", "impl")):
        if _same_function(following, name):
            extent = following
        following = following.next_named_sibling
    lead = None
    docstring = None
    sibling = node.prev_named_sibling
    while sibling is not None and _attribute(sibling):  # @doc, @spec, @impl true…: the function's own
        lead = sibling
        if _attribute(sibling) == "doc":
            docstring = _attribute_text(sibling)
        sibling = sibling.prev_named_sibling
    return Def(node, "function", name, body=_inline_body(node), lead=lead,
               extent=extent if extent is not node else None, docstring=docstring)


def _call(node: Node) -> Def | None:
    keyword = _target(node)
    if keyword in _SCOPES:
        return _scope(node, keyword)
    name = _function_name(node)
    return _function(node, name) if name else None


ELIXIR_SPEC = LangSpec(custom={"call": _call})
