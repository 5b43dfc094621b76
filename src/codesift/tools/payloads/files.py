"""Answers read from files: grep hits, a file's outline, get_code_context."""

from __future__ import annotations

from typing import NotRequired, TypedDict


# -- grep and outline ----------------------------------------------------------------------------------
class GrepHit(TypedDict):
    """One line holding a match, read from the live file."""

    path: str
    line: int
    column: int  # of the match, 1-based
    text: str  # the line (cut at 1,000 characters)
    enclosing: str | None  # the innermost definition around it
    enclosing_kind: str | None
    stale: NotRequired[bool]  # the file changed since it was indexed (always True when present)
    before: NotRequired[list[str]]  # with context_lines: the lines above
    after: NotRequired[list[str]]  # with context_lines: the lines below


class GrepAnswer(TypedDict):
    """grep_code: the hits of one page, how the files were found and what was read."""

    pattern: str
    regex: bool
    case_sensitive: bool
    context_lines: int
    offset: int
    limit: int
    results: list[GrepHit]
    more: bool  # hits past this page
    total: int | None  # None when there are more
    files_with_hits: int
    strategy: str  # index (trigram candidates) or scan (every file passing the filters)
    literals: list[list[str]]  # the strings a match needs: AND of ORs
    candidate_files: int
    files_read: int
    indexed_files: int
    stale_files: list[str]
    missing_files: list[str]
    notes: list[str]
    elapsed_ms: float


class OutlineItem(TypedDict):
    """One symbol of a file's outline, with the symbols nested in it."""

    name: str
    qualified_name: str
    kind: str
    start_line: int
    end_line: int
    signature: str  # on one line
    doc: str  # the first line of the doc's description (block tags left out)
    parent: NotRequired[str | None]  # before nesting only: the parent named by the parser
    children: list[OutlineItem]


class OutlineRow(TypedDict):
    """One symbol of an outline in reading order (:func:`codesift.tools.outline.flatten`)."""

    name: str
    qualified_name: str
    kind: str
    start_line: int
    end_line: int
    signature: str
    doc: str
    depth: int


class OutlineAnswer(TypedDict):
    """get_file_outline: a file's symbols, nested, without bodies."""

    path: str
    language: str
    source: str  # index (the file is unchanged) or live (parsed now)
    changed_since_indexed: bool
    total_lines: int
    count: int  # symbols, nested ones included
    symbols: list[OutlineItem]
    notes: list[str]


# -- get_code_context ------------------------------------------------------------------------------------
class ContextSymbol(TypedDict):
    """The definition a context answer shows (or a top-level declaration: kind constant or variable)."""

    name: str
    qualified_name: str
    kind: str
    start_line: int
    end_line: int
    signature: str


class CodeContext(TypedDict):
    """get_code_context: numbered lines of a file, or of one symbol of it."""

    path: str
    ref: str | None  # the git revision read, when asked
    source: NotRequired[str]  # where the text comes from, for a configured service or a Qdrant reader
    language: str
    start_line: int
    end_line: int
    total_lines: int
    symbol: ContextSymbol | None
    changed_since_indexed: bool | None  # None: a Qdrant reader's stored text
    truncated: bool  # cut to MAX_FILE_LINES
    code: str
    note: NotRequired[str]  # a Qdrant reader's stored text: why, and the lines left blank
