"""A reindex of the served tree, asked for over MCP (the ``reindex`` tool, :func:`tool`) or HTTP (``POST /reindex``).

It runs the update ``codesift index`` runs, through the server's own write path: the keyword side under
the service lock and the index's write lock (as every refresh does), then the embedding a slice at a time
with :class:`~codesift.server.background.WriteGuard`, in the place of the background worker (which stops after its
slice, so there is one embedder). One reindex at a time per server (``IndexService.reindexing``); another
process writing the index makes it fail with that process named. ``full`` re-parses every file (as after a
parser upgrade); vectors are keyed by text, so unchanged code is not embedded again.

Each run has its own thread; progress and the summary come back as events (dicts) on a queue that an async
caller reads with :meth:`ReindexJob.events`.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import AsyncIterator, Callable
from typing import TYPE_CHECKING, Annotated, Any

import anyio
from mcp.server.mcpserver import Context
from mcp.server.mcpserver.tools import Tool
from mcp_types import CallToolResult, TextContent, ToolAnnotations
from pydantic import Field

from codesift.search.coverage import share
from codesift.errors import CodesiftError
from codesift.server import freshness
from codesift.store.lock import IndexBusy, WriteLock

if TYPE_CHECKING:  # pragma: no cover
    from codesift.server.service import IndexService

log = logging.getLogger("codesift.server.reindex")

LOCK_WAIT = 10.0  # seconds to wait for another process's write lock, as `codesift index` does
POLL = 0.05  # seconds between looks at the event queue

Event = dict[str, Any]


class ReindexBusy(CodesiftError, RuntimeError):
    """A reindex is already running on this server."""


def run_reindex(svc: "IndexService", *, full: bool = False, emit: Callable[[Event], None] = lambda e: None) -> Event:
    """Update the served index (keyword side, then the embedding when the server embeds) in the calling
    thread, which becomes the service's worker; ``emit`` gets each progress event. Returns the summary."""
    t0 = time.perf_counter()
    index = svc.index

    def progress(phase: str, done: int, total: int) -> None:
        emit({"event": "progress", "phase": phase, "done": int(done), "total": int(total)})

    svc.wait_ready()
    svc.take_over_worker()
    try:
        with svc.lock:
            svc.state = "indexing"
            if full:
                with WriteLock(index.folder, LOCK_WAIT):
                    index.store.mark_all_changed()
                    index.store.commit()
            since = freshness.now()
            stats = index.update(embed=False, progress=progress, lock_timeout=LOCK_WAIT)
            svc.refreshed(since)
            # The embedder first: a changed model is adopted there and its dropped vectors count as pending.
            has_embedder = svc.embed and index.embedder() is not None
            pending = index.store.count_missing_embeddings(with_windows=index.config.embed_windows)
            can_embed = has_embedder and pending > 0
        embedded = 0
        t1 = time.perf_counter()
        if can_embed:
            progress("embed", 0, pending)

            def on_slice(done: int) -> None:
                nonlocal embedded
                embedded += done
                progress("embed", min(embedded, pending), pending)

            svc._embed_pending(on_slice=on_slice)
        embed_seconds = time.perf_counter() - t1
        with svc.lock:
            status = index.status()
    finally:
        svc.state = "idle"
    return {"root": str(index.root), "full": full, "files": status["files"], "symbols": status["symbols"],
            "chunks": status["chunks"], "parsed": stats.files_parsed, "unchanged": stats.files_unchanged,
            "deleted": stats.files_deleted, "chunks_added": stats.chunks_added, "embedded": embedded,
            "embed_pending": max(0, int(status["chunks"]) - int(status["embedded"])),
            "coverage": status["coverage"], "embedding_status": status["embedding_status"],
            "skipped": sum(stats.skipped.values()), "warnings": stats.warnings,
            "parse_seconds": round(stats.parse_seconds, 2), "embed_seconds": round(embed_seconds, 2),
            "seconds": round(time.perf_counter() - t0, 2)}


class ReindexJob:
    """One reindex in its own thread. Construct it to start it (raises :class:`ReindexBusy` while another
    runs); read its events with :meth:`events`: progress, then ``done`` (the summary) or ``error``."""

    def __init__(self, svc: "IndexService", *, full: bool = False) -> None:
        if not svc.reindexing.acquire(blocking=False):
            raise ReindexBusy("a reindex is already running on this server: wait for it to finish")
        self.svc, self.full = svc, full
        self._queue: queue.Queue[Event | None] = queue.Queue()
        try:
            self.thread = threading.Thread(target=self._run, name="codesift-reindex", daemon=True)
            self.thread.start()
        except BaseException:
            svc.reindexing.release()
            raise

    def _run(self) -> None:
        try:
            summary = run_reindex(self.svc, full=self.full, emit=self._queue.put)
            self._queue.put({"event": "done", **summary})
        except IndexBusy as exc:
            self._queue.put({"event": "error", "message": str(exc)})
        except Exception as exc:  # the server keeps serving; the caller reads one line
            log.exception("reindex failed")
            self._queue.put({"event": "error", "message": " ".join(f"{type(exc).__name__}: {exc}".split())[:600]})
        finally:
            self.svc.reindexing.release()
            self._queue.put(None)

    async def events(self) -> AsyncIterator[Event]:
        """The job's events as they come; the last is ``done`` or ``error``."""
        while True:
            try:
                event = self._queue.get_nowait()
            except queue.Empty:
                await anyio.sleep(POLL)
                continue
            if event is None:
                return
            yield event


def summary_line(summary: Event) -> str:
    """The summary in one sentence, as ``codesift index`` prints it."""
    if summary.get("embedding_status") == "ok":
        embedding = (f"embedded {summary['embedded']} chunks in {summary['embed_seconds']} s, semantic coverage "
                     f"{share(float(summary['coverage']))}")
    else:
        embedding = "keyword-only (no embedding model: see index_status)"
    return (f"{'re-parsed' if summary.get('full') else 'updated'} {summary['root']}: parsed {summary['parsed']}, "
            f"unchanged {summary['unchanged']}, deleted {summary['deleted']} files in {summary['parse_seconds']} s; "
            f"{embedding}; {summary['files']} files, {summary['symbols']} symbols ({summary['seconds']} s in all)")


# -- the MCP tool: the job's progress as progress notifications, its summary as the answer --------
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
            return tool_error(str(exc))
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
                return tool_error(event["message"])
            else:
                summary = {k: v for k, v in event.items() if k != "event"}
                text = summary_line(summary) + "\nNext: `index_status` for coverage and skipped files."
                return CallToolResult(content=[TextContent(type="text", text=text)], structured_content=summary)
        return tool_error("the reindex ended without a summary (see the server log)")

    annotations = ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=True,
                                  open_world_hint=False)
    return Tool.from_function(reindex, name="reindex", description=DESCRIPTION, annotations=annotations,
                              structured_output=False)


def tool_error(message: str) -> CallToolResult:
    text = "reindex: " + " ".join(message.split())[:600]
    return CallToolResult(content=[TextContent(type="text", text=text)], is_error=True)
