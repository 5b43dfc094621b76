"""The MCP server (``codesift serve``): the agent tools over stdio or streamable HTTP.

One :class:`IndexService` owns the :class:`~codesift.api.Index` for the served root. It brings the
keyword side up to date at start-up, then embeds in a background thread, so keyword search answers
at once and semantic results fill in (searches report the coverage meanwhile). The Index is not
thread-safe: every call takes the service's lock, and runs in a worker thread so the event loop
keeps serving. Each tool answers with Markdown (``tools/markdown.py``) plus the same data as
structured content; a bad argument or a failed lookup is a one-line tool error, never a traceback.
"""

from __future__ import annotations

import dataclasses
import logging
import threading
import time
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any, TypeVar

import anyio.to_thread
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.mcpserver.tools import Tool
from mcp_types import CallToolResult, TextContent, ToolAnnotations
from pydantic import ConfigDict, ValidationError

from .coverage import share
from .embed.base import release_batch
from .limits import MAX_USAGES_LIMIT, check_name, check_query
from .mcp_args import (ContextLines, Exact, FilePath, GitRef, Kind, Language, Limit, MaxChars, Mode, Name, Offset,
                       PathFilter, Query, ResultId, Service, SimilarLimit, StartLine, SymbolLimit, SymbolName,
                       SymbolType, Threshold, UsageLimit, UsedName)
from .mcp_text import DESCRIPTIONS, INSTRUCTIONS  # what the agent reads
from .background import WriteGuard, lower_thread_priority
from .store.lock import IndexBusy
from .tools import markdown as md

if TYPE_CHECKING:  # pragma: no cover
    from .api import Index

log = logging.getLogger("codesift.mcp")
T = TypeVar("T")

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8765
REFRESH_INTERVAL = 10.0  # seconds between re-scans of the tree on tool calls (cheap, but not free)
EMBED_SLICE = 128  # chunks embedded and committed at a time (the model runs outside the lock)


class ToolFailure(Exception):
    """A request the tool cannot answer; the message is what the agent reads."""


# -- the index behind the tools --------------------------------------------------------------------
class IndexService:
    """One Index shared by all tool calls: serialized, kept fresh, embedded in the background."""

    def __init__(self, index: "Index", *, embed: bool = True, refresh_interval: float = REFRESH_INTERVAL) -> None:
        self.index = index
        self.embed = embed
        self.refresh_interval = refresh_interval
        self.lock = threading.Lock()
        self._ready = threading.Event()  # set once the start-up (keyword) update is done
        self._stop = threading.Event()
        self._spawn_lock = threading.Lock()
        self._worker: threading.Thread | None = None
        self._last_refresh = 0.0
        self.state = "starting"
        self.error = ""
        self._embedded_since: tuple[float, int] | None = None  # (start, chunks embedded) of this run
        self.reindexing = threading.Lock()  # held by the one reindex (MCP tool or POST /reindex) running
        self._pause = threading.Event()  # asks the background worker to stop after its slice (a reindex takes over)

    # lifecycle
    def start(self) -> None:
        """Update the index (keyword side) and then embed, in a background thread."""
        self._spawn(initial=True)

    def close(self) -> None:
        self._stop.set()
        if self._worker is not None and self._worker is not threading.current_thread():
            self._worker.join(timeout=5)  # at most one embedding slice is in flight
        with self.lock:
            self.index.close()

    def wait_ready(self, timeout: float | None = None) -> bool:
        return self._ready.wait(timeout)

    def _spawn(self, *, initial: bool = False) -> None:
        with self._spawn_lock:
            if self._worker is not None and self._worker.is_alive():
                return
            self._worker = threading.Thread(target=self._background, args=(initial,), name="codesift-index",
                                            daemon=True)
            self._worker.start()

    def _background(self, initial: bool) -> None:
        try:
            if initial:
                with self.lock:
                    self.state = "indexing"
                    self.index.update(embed=False)
                    self._last_refresh = time.monotonic()
                self._ready.set()
            if self.embed:
                self._embed_pending()
            self.state = "idle"
        except Exception as exc:  # the server keeps serving what it has; index_status says why
            self.state, self.error = "failed", _one_line(f"{type(exc).__name__}: {exc}")
            log.warning("background indexing failed: %s", self.error)
        finally:
            self._ready.set()

    def take_over_worker(self) -> None:
        """Make the calling thread the background worker (a reindex): the running worker stops after its
        slice, and no other starts until the calling thread ends; one embedder at a time."""
        with self._spawn_lock:
            worker = self._worker
            if worker is not None and worker.is_alive() and worker is not threading.current_thread():
                self._pause.set()
                try:
                    worker.join()
                finally:
                    self._pause.clear()
            self._worker = threading.current_thread()

    def _embed_pending(self, on_slice: Callable[[int], None] | None = None) -> None:
        """Embed what is pending, a slice at a time, yielding to tool calls (``on_slice``: chunks per slice).

        The locks (the service's, then the index's write lock, as `codesift index` takes it) are held
        only to read texts and write vectors; the model runs without them, in a thread of lower CPU
        priority (the model's worker threads are created by it and inherit that), so a search embeds its
        query and answers at its normal speed while the tree is being embedded."""
        slice_size = min(EMBED_SLICE, self.index.config.embed_batch)
        self._embedded_since = (time.monotonic(), 0)
        lowered = lower_thread_priority()
        while not self._stop.is_set() and not self._pause.is_set():
            with self.lock:
                embedder = self.index.embedder()
                if embedder is None:
                    return
                if lowered:
                    # A document session made by another thread runs at its priority: make a new one here.
                    release_batch(embedder)
                    lowered = False
                self.state = "embedding"
            try:
                done = self.index.indexer.embed_pending(embedder, limit=slice_size,
                                                        lock=WriteGuard(self.lock, self.index.folder))
            except IndexBusy:  # `codesift index` is writing (and embedding the same texts): leave it to it
                log.info("another process is updating the index; background embedding stops")
                return
            if not done:
                with self.lock:
                    release_batch(embedder)
                if self.index.qdrant is not None:  # the new vectors join the Qdrant collection
                    with WriteGuard(self.lock, self.index.folder):
                        self.index.sync_backend()
                return
            self._embedded_since = (self._embedded_since[0], self._embedded_since[1] + done)
            if on_slice is not None:
                on_slice(done)

    def start_watching(self) -> None:
        """Apply file changes as they happen (keyword side under the lock, embedding in background)."""
        from .watch import watch

        def on_update(stats: Any) -> None:
            self._last_refresh = time.monotonic()
            if stats.embed_pending and self.embed and not self._stop.is_set():
                self._spawn()

        def run() -> None:
            self._ready.wait()
            try:
                watch(self.index, on_update=on_update, stop=self._stop, lock=self.lock, embed=False)
            except Exception as exc:  # a dead watcher must not take the server down
                log.warning("file watcher stopped: %s", _one_line(f"{type(exc).__name__}: {exc}"))

        threading.Thread(target=run, name="codesift-watch", daemon=True).start()

    @property
    def embedding_in_progress(self) -> bool:
        return self.state in ("indexing", "embedding") and self._worker is not None and self._worker.is_alive()

    # calls
    def call_sync(self, fn: Callable[["Index"], T], *, refresh: bool = False) -> T:
        """Run ``fn(index)`` under the lock (after a throttled refresh when ``refresh``)."""
        self._ready.wait()
        pending = 0
        with self.lock:
            if refresh and time.monotonic() - self._last_refresh > self.refresh_interval:
                try:
                    pending = self.index.update(embed=False, lock_timeout=0).embed_pending
                except IndexBusy:  # another process is writing: answer from the index as it is
                    pass
                self._last_refresh = time.monotonic()
            result = fn(self.index)
        if pending and self.embed and not self._stop.is_set():
            self._spawn()
        return result

    async def call(self, fn: Callable[["Index"], T], *, refresh: bool = False) -> T:
        """:meth:`call_sync` in a worker thread, so the event loop keeps serving."""
        return await anyio.to_thread.run_sync(partial(self.call_sync, fn, refresh=refresh))

    def status(self) -> dict[str, Any]:
        info = self.index.status()
        if self.state == "failed":
            info["background"] = f"failed: {self.error}"
        elif self.embedding_in_progress:
            info["background"] = f"{self.state} in progress"
            if self.state == "embedding" and info.get("embedding_status") == "ok":
                # The server is filling the vectors in itself: "run `codesift index`" would be wrong advice.
                info["embedding"] = (f"in progress: {int(info.get('embedded') or 0):,} of "
                                     f"{int(info.get('chunks') or 0):,} chunks embedded")
            rate = self.embedding_rate()
            if self.state == "embedding" and rate:
                left = max(0, int(info.get("chunks", 0)) - int(info.get("embedded", 0)))
                info["embedding_rate"] = round(rate, 1)
                info["embedding_eta_s"] = round(left / rate)
                info["background"] += f", {rate:.0f} chunks/s, about {_duration(left / rate)} left"
        return info

    def embedding_rate(self) -> float | None:
        """Chunks per second embedded by this run of the background worker, once it has a measure."""
        if self._embedded_since is None:
            return None
        start, done = self._embedded_since
        elapsed = time.monotonic() - start
        return done / elapsed if done and elapsed > 0 else None


# -- payloads --------------------------------------------------------------------------------------
def _duration(seconds: float) -> str:
    seconds = int(seconds)
    if seconds < 90:
        return f"{seconds} s"
    if seconds < 5400:
        return f"{round(seconds / 60)} min"
    return f"{seconds / 3600:.1f} h"


def _one_line(text: str, limit: int = 400) -> str:
    return " ".join(str(text).split())[:limit]


def search_payload(index: "Index", response: Any, *, offset: int, limit: int, background: bool) -> dict[str, Any]:
    """A SearchResponse as JSON-ready data, each result with its id, decorators and route."""
    results = []
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


def _as_dict(item: Any) -> dict[str, Any]:
    if isinstance(item, dict):
        return item
    if dataclasses.is_dataclass(item) and not isinstance(item, type):
        return dataclasses.asdict(item)
    if hasattr(item, "to_dict"):
        return dict(item.to_dict())
    return {"value": str(item)}


def usages_payload(found: Any, *, symbol_name: str, offset: int, limit: int) -> dict[str, Any]:
    """Whatever ``Index.find_usages`` returns (a list, or a dict holding one) as a payload."""
    extra: dict[str, Any] = {}
    items = found
    if isinstance(found, dict):
        key = next((k for k in ("usages", "results", "references") if isinstance(found.get(k), list)), None)
        items = found.get(key, []) if key else []
        extra = {k: v for k, v in found.items() if k != key}
    results = [_as_dict(i) for i in list(items or [])[offset:]]
    return {**extra, "symbol_name": symbol_name, "offset": offset, "limit": limit, "results": results}


def _source_label(index: "Index", result_id: int) -> str:
    row = index.store.chunks_by_id([result_id]).get(result_id)
    return f"{row.qualified_name} at {row.path}:{row.start_line}" if row is not None else ""


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
    return _one_line(f"{tool}: invalid arguments: " + "; ".join(problems), 600)


def strict(tool: Tool) -> Tool:
    """Reject unknown arguments: the SDK's argument models ignore extra fields by default."""
    base = tool.fn_metadata.arg_model
    model = type(base.__name__, (base,), {"model_config": ConfigDict(**base.model_config, extra="forbid"),
                                          "__module__": base.__module__})
    tool.fn_metadata.arg_model = model
    tool.parameters = model.model_json_schema(by_alias=True)
    return tool


def _ok(rendered: md.Rendered) -> CallToolResult:
    return CallToolResult(content=[TextContent(type="text", text=rendered.text)], structured_content=rendered.data)


def _error(message: str) -> CallToolResult:
    return CallToolResult(content=[TextContent(type="text", text=_one_line(message, 600))], is_error=True)


async def answer(tool: str, service: IndexService, work: Callable[["Index"], md.Rendered], *,
                 refresh: bool = False, check: Callable[[], object] | None = None) -> CallToolResult:
    """Run ``work`` against the index and turn expected failures into one-line tool errors.

    ``check`` validates the arguments first (codesift.limits), so a bad one is answered at once, even
    while the index is still being brought up to date."""
    from .api import IndexMismatchError

    try:
        if check is not None:
            check()
        return _ok(await service.call(work, refresh=refresh))
    except (ToolFailure, ValueError, LookupError, IndexMismatchError, OSError) as exc:
        return _error(f"{tool}: {exc}")
    except Exception as exc:  # a bug: the traceback goes to the server log, the agent gets one line
        log.exception("tool %s failed", tool)
        return _error(f"{tool}: internal error ({type(exc).__name__}: {exc})")


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
                return md.render_similar({"result_id": result_id, "source": _source_label(index, result_id),
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
    from . import mcp_graph, mcp_history, mcp_nav, mcp_prompts, mcp_reindex

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
    Over HTTP with ``token``, every request needs it (see :mod:`codesift.http_auth`).
    """
    service = IndexService(index, embed=embed)
    server = build_server(service)
    service.start()
    if watch:
        service.start_watching()
    try:
        if http:
            from .web import add_routes  # the page for people at / and its JSON API (codesift/web.py)

            add_routes(server, service, host=host)
            if token is None:
                server.run("streamable-http", host=host, port=port)
            else:
                import uvicorn

                from .http_auth import BearerTokenMiddleware

                app = BearerTokenMiddleware(server.streamable_http_app(host=host), token)
                uvicorn.run(app, host=host, port=port, log_level="warning")
        else:
            server.run("stdio")
    finally:
        service.close()
