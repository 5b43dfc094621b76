"""find_symbol, find_similar / drill_down, summarize_matches and list_sources answers, and the targets a
reference may point at."""

from __future__ import annotations

from typing import NotRequired, TypedDict


# -- symbols: find_symbol, find_similar / drill_down, summarize_matches, list_sources ----------------
class Target(TypedDict):
    """What :class:`codesift.tools.targets.Resolver` reads of a candidate definition: a :class:`Symbol`, or
    the reference graph's node of one (``node`` added)."""

    path: str
    start_line: int
    qualified_name: str
    parent: str | None
    kind: str


class Symbol(TypedDict):
    """One definition without its body: find_symbol's (with ``match``) and find_similar's (with ``score``)."""

    id: int | None  # the chunk's id (search_code's result id); None for a declaration (tools.assigned)
    path: str
    start_line: int
    end_line: int
    name: str
    qualified_name: str
    kind: str  # function, method, class, …; constant or variable for a declaration
    language: str
    signature: str
    parent: str | None
    decorators: list[str]
    route: str | None
    docstring: str  # its first paragraph, at most 300 characters
    match: NotRequired[str]  # find_symbol: exact, prefix, camel_hump or substring
    test: NotRequired[bool]  # find_symbol: defined in a test file (listed after the others of its match)
    score: NotRequired[float]  # find_similar / drill_down: cosine similarity to the given result
    score_kind: NotRequired[str]  # find_similar / drill_down: "similar"


class FileSummary(TypedDict):
    """summarize_matches: one matching file."""

    path: str
    score: float  # its best result's
    symbols: list[str]  # "qualified_name (kind, start-end)" per matching definition
    description: str  # the first line of its best match's doc description (or signature, or snippet line)


class FolderSource(TypedDict):
    """list_sources of a plain index: one top-level folder ("." for the files at the root)."""

    root: str
    service: str
    files: int
    symbols: int


class ServiceSource(TypedDict):
    """list_sources of an index of configured services (``index --all``): one service."""

    root: str
    service: str
    name: str
    kind: str  # git or folder
    source: str  # its repository or folder
    ref: str | None  # a git service's ref
    files: int
    symbols: int
    languages: dict[str, int]
    commit: str | None  # the indexed commit, as recorded


class ReaderSource(TypedDict):
    """list_sources on a Qdrant reader: one service of the collection."""

    service: str
    collection: str
    chunks: int
    files: int | None  # as the service's meta point says (None without one)
    symbols: int | None
    model: str | None
    reading: bool  # this reader holds it


LocalSource = FolderSource | ServiceSource  # what the tools list (tools.symbols.list_sources)
Source = FolderSource | ServiceSource | ReaderSource
