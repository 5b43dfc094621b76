"""The MCP tool ``reindex``: :mod:`codesift.reindex` over MCP, its progress sent as progress notifications
(to a client that asked for them with a progress token), its summary as the answer."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

from mcp.server.mcpserver import Context
from mcp.server.mcpserver.tools import Tool
from mcp_types import CallToolResult, TextContent, ToolAnnotations
from pydantic import Field

from .reindex import ReindexBusy, ReindexJob, summary_line

if TYPE_CHECKING:  # pragma: no cover
    from .mcp_server import IndexService

DESCRIPTION = ("Bring the index up to date now, as `codesift index` does: re-parse changed files, drop deleted "
               "ones, embed new code (full=true re-parses every file). Use it when you changed many files (a "
               "branch switch, a generator, a refactor) and want every tool to see them at once, instead of "
               "waiting for the automatic refresh or running `codesift index` in a shell. Reports progress; "
               "returns files parsed/unchanged/deleted, chunks embedded and seconds.")

Full = Annotated[bool, Field(description="Re-parse every file, not only the changed ones (vectors are kept: "
                                         "unchanged code is not embedded again).")]


def tool(svc: "IndexService") -> Tool:
    """The reindex tool bound to ``svc`` (not read-only, unlike the others)."""

    async def reindex(ctx: Context, full: Full = False) -> CallToolResult:
        try:
            job = ReindexJob(svc, full=full)
        except ReindexBusy as exc:
            return _error(str(exc))
        base, last = 0, -1  # progress must grow across phases: parse counts files, then embed adds chunks
        async for event in job.events():
            if event["event"] == "progress":
                if event["phase"] == "embed" and event["done"] == 0:
                    base = max(last, 0)
                value, total = base + event["done"], base + event["total"]
                if value > last:
                    last = value
                    await ctx.report_progress(value, total, f"{event['phase']} {event['done']:,}/{event['total']:,}")
            elif event["event"] == "error":
                return _error(event["message"])
            else:
                summary = {k: v for k, v in event.items() if k != "event"}
                text = summary_line(summary) + "\nNext: `index_status` for coverage and skipped files."
                return CallToolResult(content=[TextContent(type="text", text=text)], structured_content=summary)
        return _error("the reindex ended without a summary (see the server log)")

    annotations = ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=True,
                                  open_world_hint=False)
    return Tool.from_function(reindex, name="reindex", description=DESCRIPTION, annotations=annotations,
                              structured_output=False)


def _error(message: str) -> CallToolResult:
    text = "reindex: " + " ".join(message.split())[:600]
    return CallToolResult(content=[TextContent(type="text", text=text)], is_error=True)
