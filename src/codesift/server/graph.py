"""MCP tools of the graph tools; :func:`build_server` adds what :func:`tools` returns:
``get_repo_map``, ``callers``, ``callees`` and ``impact``."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Annotated, Any

from pydantic import Field

from codesift.limits import check_name
from codesift.server.args import MaxChars, Offset, Service, UsedName
from codesift.tools import markdown as md
from codesift.tools.markdown import graph as mdg

if TYPE_CHECKING:
    from mcp_types import CallToolResult

    from codesift.api import Index
    from codesift.server.service import IndexService

MAX_BUDGET_TOKENS = md.MAX_MAX_CHARS // 4  # the largest answer any tool gives

BudgetTokens = Annotated[int, Field(description=f"Size of the map in tokens (estimated as characters / 4; default "
                                                f"1,000, at most {MAX_BUDGET_TOKENS:,}: larger values are brought "
                                                "down to it).")]
Focus = Annotated[str | list[str] | None, Field(description="Files, folders or symbol names you are working on "
                                                           "('src/app.py', 'Session.send'): what they use and what "
                                                           "uses them rank first.")]
Depth = Annotated[int, Field(ge=1, le=10, description="Hops of uses followed (1-10; default 2).")]
GraphLimit = Annotated[int, Field(ge=1, le=500, description="Maximum number of entries (1-500).")]


def _page(result: Mapping[str, Any], offset: int, limit: int) -> dict[str, Any]:
    """A callers or callees answer cut to ``offset``/``limit``, which say so (a CallersPage or CalleesPage)."""
    return {**result, "offset": offset, "limit": limit, "results": result["results"][offset : offset + limit]}


def tools(svc: "IndexService") -> dict[Callable[..., Any], str]:
    """Tool function → description, bound to svc."""
    from codesift.server.common import answer

    async def get_repo_map(budget_tokens: BudgetTokens = 1000, focus: Focus = None, service: Service = None,
                           offset: Offset = 0) -> "CallToolResult":
        budget = min(MAX_BUDGET_TOKENS, max(1, budget_tokens))

        def work(index: "Index") -> md.Rendered:
            return mdg.render_map(index.repo_map(budget_tokens=budget, focus=focus, service=service, offset=offset))
        return await answer("get_repo_map", svc, work, refresh=True)

    def graph_tool(tool: str, render: Callable[..., md.Rendered]) -> Callable[..., Any]:
        async def run(symbol_name: UsedName, service: Service = None, limit: GraphLimit = 50, offset: Offset = 0,
                      max_chars: MaxChars = md.DEFAULT_MAX_CHARS) -> "CallToolResult":
            budget = md.clamp_max_chars(max_chars)

            def work(index: "Index") -> md.Rendered:
                return render(_page(getattr(index, tool)(symbol_name, service=service), offset, limit), budget)
            return await answer(tool, svc, work, refresh=True, check=lambda: check_name(symbol_name))
        run.__name__ = tool
        return run

    async def impact(symbol_name: UsedName, depth: Depth = 2, service: Service = None, limit: GraphLimit = 100,
                     offset: Offset = 0, max_chars: MaxChars = md.DEFAULT_MAX_CHARS) -> "CallToolResult":
        budget = md.clamp_max_chars(max_chars)

        def work(index: "Index") -> md.Rendered:
            found = index.impact(symbol_name, depth=depth, service=service)
            return mdg.render_impact({**found, "offset": offset, "limit": limit,
                                      "results": found["results"][offset : offset + limit]}, budget)
        return await answer("impact", svc, work, refresh=True, check=lambda: check_name(symbol_name))

    return {
        get_repo_map: "A map of the repository in one call: its most important definitions (ranked by how much the "
                      "rest of the code references them, PageRank over the static reference index), grouped by "
                      "file with one-line signatures, cut to budget_tokens. Use it first in an unfamiliar repository "
                      "instead of listing and opening files; pass focus (the files or symbols you are working on) "
                      "to rank their neighbours first, service for one folder, offset for the next ranks.",
        graph_tool("callers", mdg.render_callers): "The definitions that call a function or method, one line each "
                   "(where, which definition, how many calls), grouped by likely target when several definitions "
                   "share the name (pass 'Type.name' for one). Use it instead of grepping for the name to go up the "
                   "call graph; find_usages lists every kind of use, impact follows several hops.",
        graph_tool("callees", mdg.render_callees): "What a function's or method's body calls, each call resolved to "
                   "the definition it reaches (path:lines) where the index can, else marked ambiguous or outside "
                   "the index. Use it instead of reading the body to go down the call graph.",
        impact: "Everything that would be affected by changing a symbol: the definitions and files that reach it "
                "within depth hops of calls, type uses, inheritance, decorators and attribute reads (tests marked). "
                "Use it before changing a signature or behaviour, instead of chasing callers by hand.",
    }
