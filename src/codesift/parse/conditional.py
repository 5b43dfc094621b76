"""Conditional compilation read past where it breaks a parse: ``#if`` … ``#endif`` in C# and Swift.

tree-sitter parses a directive only where its grammar expects one (between members, between statements); one in a
base list (``class JToken : IJEnumerable<JToken>`` then ``#if !PORTABLE`` ``, ICloneable`` ``#endif``; Swift's
``class Session: NSObject`` then ``#if canImport(Combine)`` ``, ObservableObject``), an argument list or around a
function's header leaves an error that turns the rest of the class into loose functions and module code. The source
is given to the parser again with the directives blanked, every branch kept (:func:`all_branches`), or only each
conditional's first branch (:func:`first_branch`); offsets and lines are unchanged, so names and line numbers read
from either and the chunks' text still comes from the real source. C and C++ are left as parsed: their grammar
reads directives in more places, and a second parse cost more than it found (docs/design-decisions.md).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from tree_sitter import Node

__all__ = ["CONDITIONAL_LANGUAGES", "all_branches", "error_count", "first_branch", "has_conditionals"]

CONDITIONAL_LANGUAGES = frozenset({"c_sharp", "swift"})

_DIRECTIVE = re.compile(rb"[ \t]*#[ \t]*(\w+)")
_CONDITIONAL = re.compile(rb"^[ \t]*#[ \t]*if\b", re.M)


def has_conditionals(src: bytes) -> bool:
    return _CONDITIONAL.search(src) is not None


def _blank(line: bytes) -> bytes:
    return b" " * len(line)


def _rewrite(src: bytes, keep_other_branches: bool) -> bytes:
    out: list[bytes] = []
    skipping: list[bool] = []  # per open conditional: whether its current branch is left out
    for line in src.split(b"\n"):
        m = _DIRECTIVE.match(line)
        word = m.group(1) if m else None
        if word == b"if":
            skipping.append(False)
        elif word in (b"elif", b"elseif", b"else") and skipping:  # Swift spells it #elseif
            skipping[-1] = not keep_other_branches
        elif word == b"endif" and skipping:
            skipping.pop()
        elif not any(skipping):
            out.append(line)
            continue
        out.append(_blank(line))
    return b"\n".join(out)


def all_branches(src: bytes) -> bytes:
    """``src`` with its conditional directives blanked to spaces and every branch's code kept."""
    return _rewrite(src, keep_other_branches=True)


def first_branch(src: bytes) -> bytes:
    """``src`` with its conditional directives blanked and each conditional's ``#elif``/``#else`` branches too:
    for two branches that each open the same definition differently (``#if X`` ``void f(int a) {`` ``#else``
    ``void f(long a) {`` ``#endif``), which kept together parse as neither."""
    return _rewrite(src, keep_other_branches=False)


def error_count(root: Node) -> int:
    """How many error and missing nodes a tree holds (walking only the subtrees that have some)."""
    count, stack = 0, [root]
    while stack:
        node = stack.pop()
        count += node.is_error or node.is_missing
        if node.has_error:
            stack.extend(node.children)
    return count
