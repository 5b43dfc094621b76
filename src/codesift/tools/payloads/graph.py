"""The call graph (callers, callees, impact) and the repository map."""

from __future__ import annotations

from typing import NotRequired, TypedDict

from codesift.tools.payloads.usages import Definition, UsageGroup


# -- the call graph: callers, callees, impact ------------------------------------------------------
class Caller(TypedDict):
    """callers: one definition (or module-level code) calling the name."""

    path: str
    line: int  # its first call
    name: str  # its qualified name, or <module>
    kind: str
    definition: Definition | None  # None for module-level code
    lines: list[int]  # every call's line
    test: bool
    target: NotRequired[str]  # an ambiguous name: the definition the calls resolve to
    calls: int


class User(TypedDict):
    """impact: one definition (or module-level code) reaching the name."""

    path: str
    line: int  # its first use
    name: str  # its qualified name, or <module>
    kind: str
    definition: Definition | None
    uses: int
    lines: list[int]
    test: bool
    target: NotRequired[str]  # an ambiguous name: the definition the uses resolve to
    depth: NotRequired[int]  # the hop it was found at (set by impact)
    via: NotRequired[str]  # the name it uses at that hop (set by impact)


class Callee(TypedDict):
    """callees: one definition (or unresolved name) the body calls."""

    path: str  # the caller's file
    line: int  # the first call
    name: str  # the called name
    qualifier: str
    resolution: str  # resolved, only definition, name only, ambiguous (unresolved among several), local
    # (a parameter or local variable of that name, e.g. bound by getattr) or outside the index
    candidates: int  # definitions sharing the called name
    calls: int
    lines: list[int]
    definition: Definition | None  # the definition reached (None: ambiguous or outside the index)
    test: bool  # that definition is test code
    caller: NotRequired[str]  # several definitions named so: which one's body ("Name (path:line)")


class ImpactFile(TypedDict):
    """impact: one file reached, with the definitions in it and its nearest hop."""

    path: str
    symbols: int
    depth: int
    test: bool


class GraphHead(TypedDict):
    """What callers and impact answer first: the name, its definitions and find_usages' grouping."""

    symbol: str
    definitions: list[Definition]
    ambiguous: bool
    groups: NotRequired[list[UsageGroup]]
    note: NotRequired[str]
    suggestions: NotRequired[list[str]]


class CallersAnswer(GraphHead):
    """callers: the definitions calling the name, one entry each, in find_usages' order."""

    total: int  # calling definitions
    calls: int
    in_tests: int
    results: list[Caller]


class CalleesAnswer(TypedDict):
    """callees: what the bodies of the name's definitions call."""

    symbol: str
    definitions: list[Definition]
    results: list[Callee]
    note: NotRequired[str]  # no definition, or more than are read
    total: int
    resolved: NotRequired[int]  # callees defined in the index (absent without a definition)
    suggestions: NotRequired[list[str]]  # no definition: similar names


class ImpactAnswer(GraphHead):
    """impact: the definitions and files reaching the name within ``depth`` hops, nearest first."""

    depth: int
    total: int
    in_tests: int
    files: list[ImpactFile]
    truncated: bool  # stopped after the most definitions an answer follows
    results: list[User]


# -- the repository map ------------------------------------------------------------------------------
class MapSymbol(TypedDict):
    """One definition on the map."""

    name: str
    qualified_name: str
    kind: str
    line: int
    end_line: int
    signature: str
    parent: str | None
    rank: float  # PageRank × nodes (1.0: an average definition)
    uses: int  # static uses pointing at it
    text: str  # its line of the map


class MapFile(TypedDict):
    path: str
    symbols: list[MapSymbol]  # by line


class RepoMap(TypedDict):
    """get_repo_map: the most referenced definitions grouped by file, cut to a token budget."""

    root: str
    budget_tokens: int
    token_estimate: str  # how tokens are counted: "characters / 4"
    service: str | None  # the folders mapped, comma-separated
    focus: list[str]
    focus_matched: dict[str, int]  # per focus item: the definitions it names
    focus_symbols: int
    total: int  # definitions ranked
    offset: int
    references: int  # static references in the graph
    tests_left_out: bool
    notes: list[str]
    shown: int
    next_offset: int | None
    files: list[MapFile]
    tokens: int  # the rendered map's estimate
