"""The MCP server (``codesift serve``): the agent tools over stdio or streamable HTTP.

One :class:`IndexService` owns the :class:`~codesift.api.Index` for the served root. It brings the
keyword side up to date at start-up, then embeds in a background thread, so keyword search answers
at once and semantic results fill in (searches report the coverage meanwhile). The Index is not
thread-safe: every call takes the service's lock, and runs in a worker thread so the event loop
keeps serving. Each tool answers with Markdown (``tools/markdown.py``) plus the same data as
structured content; a bad argument or a failed lookup is a one-line tool error, never a traceback.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.mcpserver.tools import Tool
from mcp_types import CallToolResult, ToolAnnotations
from pydantic import ConfigDict, ValidationError

from codesift.limits import MAX_USAGES_LIMIT, check_name, check_query
from codesift.server.args import (ContextLines, Exact, FilePath, GitRef, Kind, Language, Limit, MaxChars, Mode, Name, Offset,
                       PathFilter, Query, ResultId, Service, SimilarLimit, StartLine, SymbolLimit, SymbolName,
                       SymbolType, Threshold, UsageLimit, UsedName)
from codesift.server.text import DESCRIPTIONS, INSTRUCTIONS  # what the agent reads
from codesift.server import graph as mcp_graph
from codesift.server import history as mcp_history
from codesift.server import nav as mcp_nav
from codesift.server import prompts as mcp_prompts
from codesift.server import reindex as mcp_reindex
from codesift.server.common import answer, search_payload, source_label, usages_payload
from codesift.server.service import IndexService, one_line
from codesift.tools import markdown as md

if TYPE_CHECKING:  # pragma: no cover
    from codesift.api import Index


DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8765


# -- the server ------------------------------------------------------------------------------------
class CodesiftMCP(MCPServer):
    """MCPServer whose argument errors read as one line (the SDK's are pydantic's multi-line dumps)."""

    def __init__(self, *args: Any, tools: list[Tool], **kwargs: Any) -> None:
        super().__init__(*args, tools=tools, **kwargs)
        self.accepted = {t.name: sorted(t.parameters.get("properties", {})) for t in tools}

    async def call_tool(self, name: str, arguments: dict[str, Any], context: Any = None) -> Any:
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as exc:
            if isinstance(exc.__cause__, ValidationError):
                raise ToolError(argument_error(name, exc.__cause__, self.accepted.get(name, []))) from None
            raise


def argument_error(tool: str, exc: ValidationError, accepted: list[str]) -> str:
    """``search_code: invalid arguments: limit: Input should be ≤ 100; foo: unknown argument (accepted: …)``."""
    problems = []
    for err in exc.errors():
        where = ".".join(str(p) for p in err["loc"]) or "arguments"
        if err["type"] == "extra_forbidden":
            problems.append(f"{where}: unknown argument (accepted: {', '.join(accepted)})")
        else:
            problems.append(f"{where}: {err['msg']}")
    return one_line(f"{tool}: invalid arguments: " + "; ".join(problems), 600)


def strict(tool: Tool) -> Tool:
    """Reject unknown arguments: the SDK's argument models ignore extra fields by default."""
    base = tool.fn_metadata.arg_model
    model = type(base.__name__, (base,), {"model_config": ConfigDict(**base.model_config, extra="forbid"),
                                          "__module__": base.__module__})
    tool.fn_metadata.arg_model = model
    tool.parameters = model.model_json_schema(by_alias=True)
    return tool




def build_server(service: IndexService) -> CodesiftMCP:
    """The MCP server with the nine codesift tools bound to ``service``."""
    svc = service  # the tools have a parameter called ``service`` (a folder): keep the two apart

    async def search_code(query: Query, limit: Limit = 10, service: Service = None, path: PathFilter = None,
                          language: Language = None, kind: Kind = None, threshold: Threshold = None,
                          offset: Offset = 0, mode: Mode = "hybrid",
                          max_chars: MaxChars = md.DEFAULT_MAX_CHARS) -> CallToolResult:
        max_chars = md.clamp_max_chars(max_chars)

        def work(index: "Index") -> md.Rendered:
            response = index.search(query, limit=limit, mode=mode, path=path, language=language, kind=kind,
                                    threshold=threshold, offset=offset, service=service)
            payload = search_payload(index, response, offset=offset, limit=limit,
                                     background=svc.embedding_in_progress)
            return md.render_search(payload, max_chars)
        return await answer("search_code", svc, work, refresh=True, check=lambda: check_query(query))

    async def find_symbol(name: Name, symbol_type: SymbolType = None, service: Service = None,
                          exact: Exact = False, limit: SymbolLimit = 20, offset: Offset = 0,
                          max_chars: MaxChars = md.DEFAULT_MAX_CHARS) -> CallToolResult:
        max_chars = md.clamp_max_chars(max_chars)

        def work(index: "Index") -> md.Rendered:
            found = index.find_symbol(name, kind=symbol_type, exact=exact, service=service)
            return md.render_symbols({"name": name, "offset": offset, "limit": limit, "total": len(found),
                                      "results": found[offset : offset + limit]}, max_chars)
        return await answer("find_symbol", svc, work, refresh=True, check=lambda: check_name(name))

    async def find_usages(symbol_name: UsedName, service: Service = None, limit: UsageLimit = 50,
                          offset: Offset = 0, max_chars: MaxChars = md.DEFAULT_MAX_CHARS) -> CallToolResult:
        max_chars = md.clamp_max_chars(max_chars)

        def work(index: "Index") -> md.Rendered:
            found = index.find_usages(symbol_name, limit=min(limit + offset, MAX_USAGES_LIMIT), service=service)
            return md.render_usages(usages_payload(found, symbol_name=symbol_name, offset=offset, limit=limit),
                                    max_chars)
        return await answer("find_usages", svc, work, refresh=True, check=lambda: check_name(symbol_name))

    async def get_code_context(file_path: FilePath, symbol_name: SymbolName = None, ref: GitRef = None,
                               context_lines: ContextLines = 0, start_line: StartLine = None,
                               max_chars: MaxChars = md.DEFAULT_MAX_CHARS) -> CallToolResult:
        max_chars = md.clamp_max_chars(max_chars)

        def work(index: "Index") -> md.Rendered:
            payload = index.get_code_context(file_path, symbol_name, ref=ref, context_lines=context_lines,
                                             start_line=start_line)
            return md.render_context(payload, max_chars, start_line)
        return await answer("get_code_context", svc, work)

    def similar_tool(tool: str, spread: bool) -> Callable[..., Any]:
        async def similar(result_id: ResultId, limit: SimilarLimit = 10, offset: Offset = 0,
                          max_chars: MaxChars = md.DEFAULT_MAX_CHARS) -> CallToolResult:
            budget = md.clamp_max_chars(max_chars)

            def work(index: "Index") -> md.Rendered:
                method = index.drill_down if spread else index.find_similar
                found = method(result_id, limit=limit + offset)
                return md.render_similar({"result_id": result_id, "source": source_label(index, result_id),
                                          "spread": spread, "offset": offset, "results": found[offset:]}, budget)
            return await answer(tool, svc, work)
        similar.__name__ = tool
        return similar

    async def summarize_matches(query: Query, limit: Limit = 30, service: Service = None,
                                max_chars: MaxChars = md.DEFAULT_MAX_CHARS) -> CallToolResult:
        max_chars = md.clamp_max_chars(max_chars)

        def work(index: "Index") -> md.Rendered:
            files = index.summarize_matches(query, limit=limit, service=service)
            return md.render_summary({"query": query, "limit": limit, "results": files}, max_chars)
        return await answer("summarize_matches", svc, work, refresh=True, check=lambda: check_query(query))

    async def index_status() -> CallToolResult:
        return await answer("index_status", svc, lambda index: md.render_status(svc.status()), refresh=True)

    async def list_sources() -> CallToolResult:
        def work(index: "Index") -> md.Rendered:
            return md.render_sources({"root": str(index.root), "results": index.list_sources()})
        return await answer("list_sources", svc, work, refresh=True)

    descriptions = {fn: DESCRIPTIONS[fn.__name__] for fn in (
        search_code, find_symbol, find_usages, get_code_context, similar_tool("find_similar", False),
        similar_tool("drill_down", True), summarize_matches, index_status, list_sources)}
    descriptions.update(mcp_nav.tools(svc))
    descriptions.update(mcp_graph.tools(svc))
    descriptions.update(mcp_history.tools(svc))
    read_only = ToolAnnotations(read_only_hint=True, idempotent_hint=True, open_world_hint=False)
    tools = [strict(Tool.from_function(fn, name=fn.__name__, description=text, annotations=read_only,
                                       structured_output=False))
             for fn, text in descriptions.items()]
    tools.append(strict(mcp_reindex.tool(svc)))  # the one tool that writes
    server = CodesiftMCP("codesift", instructions=INSTRUCTIONS, version=_version("codesift"), tools=tools,
                         log_level="WARNING")
    for prompt in mcp_prompts.prompts(svc):
        server.add_prompt(prompt)
    return server


def _version(package: str) -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(package)
    except PackageNotFoundError:  # pragma: no cover - running from a source tree
        return "0"


def serve(index: "Index", *, http: bool = False, host: str = DEFAULT_HOST, port: int = DEFAULT_PORT,
          embed: bool = True, watch: bool = False, token: str | None = None) -> None:
    """Serve ``index`` until the client disconnects (stdio) or the process is stopped (HTTP).

    With ``watch``, file changes are applied as they happen (debounced), not only on the next call.
    Over HTTP with ``token``, every request needs it (see :mod:`codesift.server.auth`).
    """
    service = IndexService(index, embed=embed)
    server = build_server(service)
    service.start()
    if watch:
        service.start_watching()
    try:
        if http:
            from codesift.server.web import add_routes  # the page for people at / and its JSON API (codesift/web.py)

            add_routes(server, service, host=host)
            if token is None:
                server.run("streamable-http", host=host, port=port)
            else:
                import uvicorn

                from codesift.server.auth import BearerTokenMiddleware

                app = BearerTokenMiddleware(server.streamable_http_app(host=host), token)
                uvicorn.run(app, host=host, port=port, log_level="warning")
        else:
            server.run("stdio")
    finally:
        service.close()

