"""find_usages' answer: definitions, uses and their groups."""

from __future__ import annotations

from typing import NotRequired, TypedDict


# -- usages: find_usages -------------------------------------------------------------------------
class Definition(TypedDict):
    """Where a definition is: the definitions of a name, and the other end of a call-graph entry."""

    path: str
    start_line: int
    end_line: int
    qualified_name: str
    kind: str


class Usage(TypedDict):
    """One use of the name (or, when none is static, one semantic guess)."""

    path: str
    line: int
    kind: str  # call, attribute, import, type, inherit, decorator, …; with no static use, "string" / "symbol" for a
    # string literal / Ruby symbol that spells the name whole, then "guess" for a semantic guess
    qualifier: str  # the receiver or module path before the name ("srv" in srv.Start())
    enclosing: str | None  # the definition it sits in (None: module-level code)
    test: NotRequired[bool]  # static uses: in test code
    target: NotRequired[str]  # static uses of an ambiguous name: the label of the likely definition
    text: NotRequired[str]  # static uses, with context: the line
    context: NotRequired[str]  # static uses, with context: a few numbered lines around it
    score: NotRequired[float]  # semantic guesses: the search score


class UsageGroup(TypedDict):
    """The uses resolving to one of several same-named definitions (``unresolved``: to none)."""

    target: str
    uses: int
    path: NotRequired[str]  # the definition's, unless unresolved
    line: NotRequired[int]
    callers: NotRequired[int]  # callers: the calling definitions in the group
    candidates: NotRequired[int]  # unresolved: the definitions these uses could be of (or code outside the index)


class UsagesAnswer(TypedDict):
    """find_usages: the references to a name, the definition sites excluded."""

    symbol: str  # as asked (a name or Parent.name)
    definitions: list[Definition]
    ambiguous: bool  # several definitions share the name: uses are grouped by their likely target
    total: int
    files: int
    in_tests: int
    usages: list[Usage]
    source: str  # static, semantic_guess (defined, never referenced) or none (not defined either)
    groups: NotRequired[list[UsageGroup]]  # ambiguous: biggest group first, unresolved last
    note: NotRequired[str]
    left_out: NotRequired[int]  # Parent.name of an ambiguous name: the uses resolving to other definitions
    shadowed: NotRequired[int]  # reads of a parameter or local of the name, left out: not uses of a definition
    unresolved: NotRequired[int]  # ambiguous: the uses no one definition could be picked for (a guess, not none)
    suggestions: NotRequired[list[str]]  # source none: similar names
