"""Haskell: functions (their type signature and every equation as one definition), ``data`` / ``newtype`` /
``type`` declarations, type classes (kind ``trait``) and instances (kind ``impl``, named after the type).

Only declarations of a module, a class or an instance count: ``where`` / ``let`` bindings stay in their function.
"""

from __future__ import annotations

import inspect
import re

from tree_sitter import Node

from codesift.parse.base import Classifier, Def, LangSpec, child_of_type, collapse, text, type_base_name

_LEVELS = frozenset({"declarations", "class_declarations", "instance_declarations"})
_EQUATIONS = frozenset({"function", "bind"})
_MARK = re.compile(r"^\s*(?:\{-\s*[|^]?|-\}|--+\s?[|^]?)\s?")


def _doc(doc: str) -> str:
    """``-- | Area.`` / ``{- | … -}`` -> their text."""
    lines = [_MARK.sub("", line).removesuffix("-}").rstrip() for line in doc.splitlines()]
    return inspect.cleandoc("\n".join(lines)).strip()


def _name(node: Node | None) -> str:
    return text(node.child_by_field_name("name")).strip() if node is not None else ""


def _last_equation(node: Node, name: str) -> Node | None:
    """The last of the equations of ``name`` that follow ``node``, or None when none does."""
    last = None
    following = node.next_named_sibling
    while following is not None and following.type in _EQUATIONS and _name(following) == name:
        last = following
        following = following.next_named_sibling
    return last


def _signature(node: Node) -> Def | None:
    """``area :: Shape -> Double``: the function's definition, its equations below included."""
    if node.parent is None or node.parent.type not in _LEVELS:
        return None
    name = _name(node)
    return Def(node, "function", name, extent=_last_equation(node, name)) if name else None


def _equation(node: Node) -> Def | None:
    """The first equation of a function without a type signature; the others belong to it."""
    if node.parent is None or node.parent.type not in _LEVELS:
        return None
    name = _name(node)
    previous = node.prev_named_sibling
    if not name or (previous is not None and previous.type in (*_EQUATIONS, "signature") and _name(previous) == name):
        return None
    return Def(node, "function", name, body=node.child_by_field_name("match"), extent=_last_equation(node, name))


def _where(node: Node) -> Node | None:
    """The ``where`` keyword opening a class's or instance's body (the signature stops before it)."""
    return child_of_type(node, {"where"}) or node.child_by_field_name("declarations")


def _instance(node: Node) -> Def | None:
    """``instance Show Shape where``: kind ``impl`` named ``Shape``, its methods ``Shape.show``."""
    patterns = node.child_by_field_name("patterns")
    type_name = type_base_name(text(patterns).strip("() ").split(" ", 1)[0]) if patterns is not None else ""
    class_name = _name(node)
    if not type_name or not class_name:
        return None
    header = f"instance {class_name} {collapse(text(patterns), 120)}"
    return Def(node, "impl", type_name, body=_where(node), qualified=header, scope=type_name)


def _type(kind: str) -> Classifier:
    def classify(node: Node) -> Def | None:
        name = _name(node)
        body = _where(node) if node.type == "class" else next(
            (node.child_by_field_name(f) for f in ("constructors", "constructor") if node.child_by_field_name(f)),
            None)
        return Def(node, kind, name, body=body) if name else None

    return classify


HASKELL_SPEC = LangSpec(
    custom={
        "signature": _signature,
        "function": _equation,
        "bind": _equation,
        "data_type": _type("type"),
        "newtype": _type("type"),
        "type_synonym": _type("type"),
        "class": _type("trait"),
        "instance": _instance,
    },
    comments=frozenset({"comment", "haddock"}),
    doc_clean=_doc,
)
