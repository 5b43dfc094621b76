"""Shared building blocks for the per-language definition tables (``lang_*.py``)."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from tree_sitter import Node

from codesift.datatypes import CONTAINER_KINDS

# Kinds whose function members are methods.
CLASS_LIKE = CONTAINER_KINDS


@dataclass(slots=True)
class Def:
    """What a language classifier found; the driver in ``symbols.py`` fills in the rest."""

    node: Node
    kind: str
    name: str
    body: Node | None = None  # the signature stops where this starts
    outer: Node | None = None  # statement that owns the definition (``const f = ...;``)
    parent: str | None = None  # logical parent outside the tree nesting (Go receiver, C++ A::f)
    scope: str | None = None  # the parent name its members see (Rust ``impl``: the type)
    qualified: str | None = None  # explicit qualified name
    namespace: str | None = None  # scopes named between the enclosing definition and the name (Ruby ``class A::B``)
    route: str | None = None
    docstring: str | None = None  # explicit docstring (Python); None = use preceding comments
    ref_only: bool = False  # not a definition: ``route`` applies to the def called ``name``
    lead: Node | None = None  # a sibling before it that it owns (Julia's docstring, Elixir's ``@doc``)
    extent: Node | None = None  # the last sibling it spans (Dart's body after its signature, Haskell's equations)


Classifier = Callable[[Node], "Def | None"]


@dataclass(frozen=True)
class LangSpec:
    """How definitions look in one grammar."""

    kinds: Mapping[str, str] = field(default_factory=dict)  # node type -> kind (name field)
    custom: Mapping[str, Classifier] = field(default_factory=dict)  # node type -> classifier
    wrappers: frozenset[str] = frozenset()  # parents that own the def and its start line
    prefix_wrappers: frozenset[str] = frozenset()  # parents that only prepend (decorators)
    decorators: frozenset[str] = frozenset()  # decorator / annotation / attribute node types
    modifiers: frozenset[str] = frozenset()  # containers mixing decorators and keywords
    sibling_decorators: frozenset[str] = frozenset()  # decorators preceding as siblings
    bodies: frozenset[str] = frozenset()  # node types that start a body when no body field
    comments: frozenset[str] = frozenset({"comment"})
    name_types: frozenset[str] = frozenset({"identifier", "type_identifier", "name", "constant"})
    comment_docs: bool = True  # docstring = comment block right above the definition
    # Body-less declarations that the next definition of the same name implements (TypeScript's overload
    # signatures): they, and the doc comment above the first, belong to that definition.
    overloads: frozenset[str] = frozenset()
    # Markers the shared comment cleaning does not know (Lua's ``--``, OCaml's ``(* *)``), removed after it.
    doc_clean: Callable[[str], str] | None = None


def text(node: Node | None) -> str:
    """Source text of ``node`` (empty for None)."""
    if node is None:
        return ""
    raw = node.text
    return raw.decode("utf-8", "replace") if raw else ""


def last_row(node: Node) -> int:
    """0-based last line that holds part of ``node``.

    Some tokens (Rust ``///`` comments) swallow the newline and end at column 0 of the next line.
    """
    row, col = node.end_point
    if col == 0 and row > node.start_point[0]:
        return row - 1
    return row


def child_of_type(node: Node, types: frozenset[str] | set[str]) -> Node | None:
    """First direct child of ``node`` whose type is in ``types``."""
    for child in node.children:
        if child.type in types:
            return child
    return None


def name_of(node: Node, spec: LangSpec) -> str:
    """The definition's name: the ``name`` field, else the first identifier-like child."""
    name = node.child_by_field_name("name")
    if name is None:
        name = child_of_type(node, spec.name_types)
    return text(name).strip()


_WS = re.compile(r"\s+")


def collapse(s: str, limit: int = 300) -> str:
    """Whitespace-collapsed ``s``, cut to ``limit`` characters."""
    out = _WS.sub(" ", s).strip()
    return out if len(out) <= limit else out[: limit - 3].rstrip() + "..."


def type_base_name(s: str) -> str:
    """``&mut foo::Bar<T>``, ``&'a mut Bar<R>`` -> ``Bar``: the bare type name of a receiver / impl target."""
    s = s.strip()
    s = re.sub(r"^(?:[&*]|'\w+\b|\bmut\b|\bdyn\b|\bconst\b|\s)+", "", s)
    s = s.split("<", 1)[0].split("[", 1)[0]
    s = s.rsplit("::", 1)[-1].rsplit(".", 1)[-1]
    return s.strip(" *&()")
