"""What the MCP tool groups share: payloads built from the API's answers, and one way to answer a call."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from mcp_types import CallToolResult, TextContent

from codesift.errors import CodesiftError
from codesift.search.coverage import share
from codesift.server.service import IndexService, Stale, ToolFailure, one_line
from codesift.tools import markdown as md
from codesift.tools.payloads import SearchPage, UsagesAnswer, UsagesPage

if TYPE_CHECKING:  # pragma: no cover
    from codesift.api import Index
    from codesift.search.run import SearchResponse


log = logging.getLogger("codesift.mcp")


def search_payload(index: "Index", response: "SearchResponse", *, offset: int, limit: int,
                   background: bool) -> SearchPage:
    """A SearchResponse as JSON-ready data, each result with its id, decorators and route."""
    results: list[dict[str, Any]] = []
    for r in response.results:
        item = {k: v for k, v in r.to_dict().items() if k not in ("explain", "chunk_id")}
        item["id"] = r.chunk_id
        results.append(item)
    notes = list(response.notes)
    if background and response.coverage < 1:
        # Index.search suggests `codesift index`; here the server is already embedding
        notes = [n for n in notes if "chunks embedded" not in n] + [
            f"{share(response.coverage)} of chunks embedded so far: embedding continues in the background, "
            "keyword matching already covers everything"]
    return {"query": response.query, "mode": response.mode, "embedding_status": response.embedding_status,
            "coverage": response.coverage, "notes": notes, "offset": offset, "limit": limit, "results": results}


def usages_payload(found: UsagesAnswer, *, symbol_name: str, offset: int, limit: int) -> UsagesPage:
    """``Index.find_usages``' answer as the find_usages tool renders it: its uses from ``offset`` on, as
    ``results`` after the answer's other keys and the request's."""
    page: UsagesPage = {**found, "symbol_name": symbol_name, "offset": offset, "limit": limit,
                        "results": found["usages"][offset:]}
    del page["usages"]  # listed as results
    return page


def source_label(index: "Index", result_id: int) -> str:
    row = index.store.chunks_by_id([result_id]).get(result_id)
    return f"{row.qualified_name} at {row.path}:{row.start_line}" if row is not None else ""



def noted(rendered: md.Rendered, stale: Stale | None) -> md.Rendered:
    """``rendered`` with the staleness note first in the Markdown and as ``stale`` in the structured content."""
    if stale is None:
        return rendered
    return md.Rendered(f"{stale_line(stale)}\n\n{rendered.text}", {**rendered.data, "stale": stale})


def stale_line(stale: Stale) -> str:
    """The staleness note as the first line of a Markdown answer."""
    return f"> **Note:** {stale['note']}"


def ok(rendered: md.Rendered) -> CallToolResult:
    return CallToolResult(content=[TextContent(type="text", text=rendered.text)], structured_content=rendered.data)


def error(message: str) -> CallToolResult:
    return CallToolResult(content=[TextContent(type="text", text=one_line(message, 600))], is_error=True)


async def answer(tool: str, service: IndexService, work: Callable[["Index"], md.Rendered], *,
                 refresh: bool = False, check: Callable[[], object] | None = None) -> CallToolResult:
    """Run ``work`` against the index and turn expected failures into one-line tool errors.

    ``check`` validates the arguments first (codesift.limits), so a bad one is answered at once, even
    while the index is still being brought up to date."""
    try:
        if check is not None:
            check()
        rendered, stale = await service.call_noted(work, refresh=refresh)
        return ok(noted(rendered, stale))
    except (ToolFailure, CodesiftError, ValueError, LookupError, OSError) as exc:
        return error(f"{tool}: {exc}")  # an expected failure, whose message says what to do
    except Exception as exc:  # a bug: the traceback goes to the server log, the agent gets one line
        log.exception("tool %s failed", tool)
        return error(f"{tool}: internal error ({type(exc).__name__}: {exc})")


