"""The pages the MCP tools render: a tool's answer cut to ``offset``/``limit``, with the request's arguments."""

from __future__ import annotations

from typing import Any, TypedDict

from codesift.tools.payloads.files import OutlineAnswer
from codesift.tools.payloads.graph import CalleesAnswer, CallersAnswer, ImpactAnswer
from codesift.tools.payloads.symbols import FileSummary, Source, Symbol
from codesift.tools.payloads.usages import Definition, Usage, UsageGroup


# -- the pages the MCP tools render ------------------------------------------------------------------
class SearchPage(TypedDict):
    """search_code: a SearchResponse as data, each result with its id."""

    query: str
    mode: str
    embedding_status: str
    coverage: float
    notes: list[str]
    offset: int
    limit: int
    results: list[dict[str, Any]]  # SearchResult.to_dict() without explain, chunk_id as id


class SymbolsPage(TypedDict):
    name: str
    offset: int
    limit: int
    total: int
    results: list[Symbol]


class SimilarPage(TypedDict):
    result_id: int
    source: str  # the result's "qualified_name at path:line"
    spread: bool  # drill_down: one per file
    offset: int
    results: list[Symbol]


class SummaryPage(TypedDict):
    query: str
    limit: int
    results: list[FileSummary]


class SourcesPage(TypedDict):
    root: str
    results: list[Source]


class UsagesPage(TypedDict, total=False):
    """find_usages as rendered: the answer's keys, its uses from ``offset`` on as ``results``. The MCP
    page leaves ``usages`` out and has a ``limit``; the CLI's keeps ``usages`` and has none."""

    symbol: str
    definitions: list[Definition]
    ambiguous: bool
    total: int
    files: int
    in_tests: int
    usages: list[Usage]
    source: str
    groups: list[UsageGroup]
    note: str
    left_out: int
    shadowed: int
    unresolved: int
    suggestions: list[str]
    symbol_name: str
    offset: int
    limit: int
    results: list[Usage]


class CallersPage(CallersAnswer, total=False):
    offset: int
    limit: int  # the MCP tool's page size (the CLI passes none)


class CalleesPage(CalleesAnswer, total=False):
    offset: int
    limit: int


class ImpactPage(ImpactAnswer, total=False):
    offset: int
    limit: int


class OutlinePage(OutlineAnswer, total=False):
    offset: int
