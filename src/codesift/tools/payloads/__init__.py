"""What the agent tools answer: one ``TypedDict`` per payload, JSON-ready, read by the Markdown renderers
(:mod:`codesift.tools.markdown`), the MCP server, the page's JSON API and the CLI's ``--json``.

The dicts are built in the order their keys are declared here, and that order is the JSON's: the CLI's
``--json``, the MCP structured content and the page API print the keys as built. ``NotRequired`` marks a key
only some answers have (the comment says which).

One module per family (``payloads/<family>.py``), in the order of the tools' modules:

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

from codesift.tools.payloads.files import (CodeContext, ContextSymbol, GrepAnswer, GrepHit, OutlineAnswer, OutlineItem,
                                           OutlineRow)
from codesift.tools.payloads.graph import (Callee, CalleesAnswer, Caller, CallersAnswer, GraphHead, ImpactAnswer,
                                           ImpactFile, MapFile, MapSymbol, RepoMap, User)
from codesift.tools.payloads.history import Commit, CommitFile, CommitHit, CommitSearch, DiffBudget
from codesift.tools.payloads.pages import (CalleesPage, CallersPage, ImpactPage, OutlinePage, SearchPage, SimilarPage,
                                           SourcesPage, SummaryPage, SymbolsPage, UsagesPage)
from codesift.tools.payloads.prompts import (EntryPoint, MainModule, ModuleSymbol, Route, ServiceDesign,
                                             ServiceOverview, SystemDesign)
from codesift.tools.payloads.status import IndexStatus, QdrantInfo, TextWindowFiles, WindowCounts
from codesift.tools.payloads.symbols import (FileSummary, FolderSource, LocalSource, ReaderSource, ServiceSource,
                                             Source, Symbol, Target)
from codesift.tools.payloads.usages import Definition, Usage, UsageGroup, UsagesAnswer

__all__ = [
    "Callee", "CalleesAnswer", "CalleesPage", "Caller", "CallersAnswer", "CallersPage", "CodeContext", "Commit",
    "CommitFile", "CommitHit", "CommitSearch", "ContextSymbol", "Definition", "DiffBudget", "EntryPoint",
    "FileSummary", "FolderSource", "GraphHead", "GrepAnswer", "GrepHit", "ImpactAnswer", "ImpactFile", "ImpactPage",
    "IndexStatus", "LocalSource", "MainModule", "MapFile", "MapSymbol", "ModuleSymbol", "OutlineAnswer",
    "OutlineItem", "OutlinePage", "OutlineRow", "QdrantInfo", "ReaderSource", "RepoMap", "Route", "SearchPage",
    "ServiceDesign", "ServiceOverview", "ServiceSource", "SimilarPage", "Source", "SourcesPage", "SummaryPage",
    "Symbol", "SymbolsPage", "SystemDesign", "Target", "TextWindowFiles", "Usage", "UsageGroup", "UsagesAnswer",
    "UsagesPage", "User", "WindowCounts"
]
