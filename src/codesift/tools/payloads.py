"""What the agent tools answer: one ``TypedDict`` per payload, JSON-ready, read by the Markdown renderers
(:mod:`codesift.tools.markdown`), the MCP server, the page's JSON API and the CLI's ``--json``.

The dicts are built in the order their keys are declared here, and that order is the JSON's: the CLI's
``--json``, the MCP structured content and the page API print the keys as built. ``NotRequired`` marks a key
only some answers have (the comment says which).

Families, in the order of the tools' modules:

* symbols (:mod:`.symbols`, :mod:`.assigned`): :class:`Symbol`, :class:`FileSummary`, :data:`Source`;
* usages (:mod:`.usages`): :class:`Definition`, :class:`Usage`, :class:`UsageGroup`, :class:`UsagesAnswer`;
* the call graph (:mod:`.graph`): :class:`Caller`, :class:`Callee`, :class:`User`, :class:`ImpactFile`
  and the answers :class:`CallersAnswer`, :class:`CalleesAnswer`, :class:`ImpactAnswer`;
* the repository map (:mod:`.repomap`): :class:`RepoMap`;
* grep and outline (:mod:`.grep`, :mod:`.outline`): :class:`GrepAnswer`, :class:`OutlineAnswer`;
* get_code_context (:mod:`.context`): :class:`CodeContext`;
* the git history (:mod:`.commits`): :class:`CommitSearch`, :class:`Commit`;
* the prompts' data (:mod:`.prompts`): :class:`ServiceOverview`, :class:`SystemDesign`;
* ``Index.status()``: :class:`IndexStatus`;
* the pages the MCP tools render (a tool's answer cut to ``offset``/``limit``, with the request's
  arguments): :class:`SearchPage`, :class:`SymbolsPage`, :class:`SimilarPage`, :class:`SummaryPage`,
  :class:`SourcesPage`, :class:`UsagesPage`, :class:`CallersPage`, :class:`CalleesPage`,
  :class:`ImpactPage`, :class:`OutlinePage`.
"""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict

__all__ = [
    "Callee", "CalleesAnswer", "CalleesPage", "Caller", "CallersAnswer", "CallersPage", "CodeContext", "Commit",
    "CommitFile", "CommitHit", "CommitSearch", "ContextSymbol", "Definition", "DiffBudget", "EntryPoint",
    "FileSummary", "FolderSource", "GraphHead", "GrepAnswer", "GrepHit", "ImpactAnswer",
    "ImpactFile", "ImpactPage", "IndexStatus", "LocalSource", "MainModule", "MapFile", "MapSymbol", "ModuleSymbol",
    "OutlineAnswer", "OutlineItem", "OutlinePage", "OutlineRow", "QdrantInfo", "ReaderSource", "RepoMap",
    "Route", "SearchPage", "ServiceDesign", "ServiceOverview", "ServiceSource", "SimilarPage", "Source",
    "SourcesPage", "SummaryPage", "Symbol", "SymbolsPage", "SystemDesign", "Target", "Usage", "UsageGroup",
    "UsagesAnswer", "UsagesPage", "User", "WindowCounts",
]


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
    description: str  # the first docstring line (or signature, or snippet line) of its best match


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
    kind: str  # call, attribute, import, type, inherit, decorator, …; "guess" for a semantic guess
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
    suggestions: NotRequired[list[str]]  # source none: similar names


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
    resolution: str  # resolved, only definition, name only, ambiguous or outside the index
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
    doc: str  # the docstring's first line
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


# -- the git history ----------------------------------------------------------------------------------
class CommitHit(TypedDict):
    """search_commits: one commit."""

    sha: str
    date: str
    author: str
    subject: str
    paths: list[str]  # the first 20 changed paths
    paths_total: int
    score: float  # 1.0: first in every ranking


class CommitSearch(TypedDict):
    """search_commits: the indexed commits by message and changed paths, best first."""

    query: str
    mode: str  # keyword or hybrid
    path: str | None  # the path prefix asked
    since: str | None
    results: list[CommitHit]
    commits: int  # indexed commits
    embedded: int
    notes: list[str]


class CommitFile(TypedDict):
    path: str
    status: str  # A, M, D, R, C or T
    old_path: NotRequired[str]  # renamed or copied from


class DiffBudget(TypedDict):
    lines: int
    bytes: int


class Commit(TypedDict):
    """get_commit: one commit read from git (:func:`codesift.indexing.history.show_commit`)."""

    sha: str
    short: str
    author: str
    email: str
    date: str
    parents: list[str]
    subject: str
    body: str
    files: list[CommitFile]
    diff: str
    diff_lines: int
    diff_truncated: bool
    diff_budget: DiffBudget
    indexed: bool  # in the history index


# -- the prompts' data --------------------------------------------------------------------------------
class EntryPoint(TypedDict):
    path: str
    line: int
    name: str
    kind: str  # a definition's kind, module (a __main__ block) or file
    why: str
    signature: NotRequired[str]  # definitions and __main__ blocks


class Route(TypedDict):
    route: str
    path: str
    line: int
    handler: str


class ModuleSymbol(TypedDict):
    name: str
    kind: str
    line: int


class MainModule(TypedDict):
    path: str
    symbols: list[ModuleSymbol]


class ServiceOverview(TypedDict):
    """What the service_overview prompt shows of the tree, or of one folder."""

    root: str
    scope: str | None
    files: int
    languages: dict[str, int]
    sources: list[LocalSource]  # the whole tree only
    entry_points: list[EntryPoint]
    main_modules: list[MainModule]
    routes: list[Route]


class ServiceDesign(TypedDict, total=False):
    """system_design: one top-level folder (or configured service): its list_sources entry (a
    :class:`FolderSource` or :class:`ServiceSource`) with what the prompt adds."""

    root: str
    service: str
    name: str
    kind: str
    source: str
    ref: str | None
    files: int
    symbols: int
    languages: dict[str, int]  # a service's key, recounted here for every folder
    commit: str | None
    main_modules: list[MainModule]
    entry_points: list[EntryPoint]
    routes: list[Route]


class SystemDesign(TypedDict):
    """What the system_design prompt shows: each top-level folder."""

    root: str
    languages: dict[str, int]
    services: list[ServiceDesign]
    more_services: list[str]  # the folders past the first twelve, by name


# -- Index.status() ---------------------------------------------------------------------------------
class WindowCounts(TypedDict):
    total: int
    embedded: int


class QdrantInfo(TypedDict, total=False):
    url: str
    collection: str
    service: str
    services: list[str]  # a reader's
    points: int
    dense_points: int
    load_seconds: float
    meta: bool
    references: str


class IndexStatus(TypedDict, total=False):
    """index_status (``Index.status()``): counts, languages, skipped files, the model and how much is
    embedded. Every index has the keys up to ``reranker``; the rest are said when they apply."""

    indexed: bool
    root: str
    index_dir: str | None  # None on a Qdrant reader
    files: int
    chunks: int
    symbols: int
    embedded: int
    coverage: float  # embedded / chunks
    languages: dict[str, int]
    skipped: dict[str, int]  # reason → files
    skipped_files: dict[str, str]  # path → reason, the first 200
    model: str | None
    dim: int | None
    embedding_status: str  # ok or keyword_only
    last_update: float | None  # Unix time
    quarantined: dict[str, str]  # path → the error that made the indexer give it up
    grammar_errors: dict[str, dict[str, object]]  # language → {error, files}: its grammar failed, files as windows
    windows: WindowCounts  # long definitions' further vectors
    query_model: str  # a query tower over the base model's vectors
    embedding_reason: str  # keyword only: why
    embedding_fix: str
    embedding: str  # the semantic side in one phrase
    backend: str  # embedded or qdrant
    reranker: str  # ok, off or unavailable: <why>
    qdrant: QdrantInfo
    mode: str  # a Qdrant reader: "reader"
    background: str  # the MCP server: its background work
    embedding_rate: float  # the MCP server, while embedding: chunks per second
    embedding_eta_s: int


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
