"""MCP prompts of ``codesift serve`` (``prompts/list``, ``prompts/get``): ``service_overview`` and
``system_design``, each a user message filled in from the index (:mod:`codesift.tools.prompts`, laid out by
:mod:`codesift.tools.markdown.prompts`) that tells the agent what to write and which tools verify it."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated

from mcp.server.mcpserver.prompts import Prompt
from mcp.shared.exceptions import MCPError
from mcp_types import INTERNAL_ERROR, INVALID_PARAMS
from pydantic import Field

if TYPE_CHECKING:  # pragma: no cover
    from codesift.api import Index
    from codesift.server.service import IndexService

OVERVIEW = ("An overview of the indexed code (or of one folder, path=): languages, entry points (main, CLI "
            "commands, __main__ blocks, main/app/server files), the most referenced modules and the HTTP routes, "
            "with the codesift tools to verify and go deeper.")
DESIGN = ("The system design of the indexed tree: each top-level folder with its languages, key modules, entry "
          "points and routes, and the task of describing how they fit together, verified with find_usages, "
          "callers and search_code.")

ScopePath = Annotated[str | None, Field(description="A folder (service) to describe, e.g. 'src' or 'services/api' "
                                                    "(list_sources shows them); default: the whole tree.")]


def prompts(svc: "IndexService") -> list[Prompt]:
    """The prompts, bound to ``svc`` (built under its lock, after a throttled refresh, like the tools)."""
    from codesift.server.common import stale_line
    from codesift.tools.markdown.prompts import render_service_overview, render_system_design
    from codesift.tools.prompts import service_overview as overview_data
    from codesift.tools.prompts import system_design as design_data

    async def run(name: str, work: Callable[["Index"], str]) -> str:
        try:
            text, stale = await svc.call_noted(work, refresh=True)
            return text if stale is None else f"{stale_line(stale)}\n\n{text}"
        except (ValueError, LookupError, OSError) as exc:  # an unknown folder: the agent reads why
            raise MCPError(INVALID_PARAMS, f"{name}: {' '.join(str(exc).split())[:600]}") from None
        except Exception as exc:  # a bug: one line, not a traceback
            raise MCPError(INTERNAL_ERROR, f"{name}: internal error ({type(exc).__name__}: {exc})") from None

    async def service_overview(path: ScopePath = None) -> str:
        return await run("service_overview",
                         lambda index: render_service_overview(overview_data(index.workspace, path)))

    async def system_design() -> str:
        return await run("system_design", lambda index: render_system_design(design_data(index.workspace)))

    return [Prompt.from_function(service_overview, title="Service overview", description=OVERVIEW),
            Prompt.from_function(system_design, title="System design", description=DESIGN)]
