"""The index behind the MCP tools and the page: one :class:`IndexService` owns the :class:`~codesift.api.Index`.

It brings the keyword side up to date at start-up, then embeds in a background thread, so keyword search
answers at once and semantic results fill in (searches report the coverage meanwhile). The Index is not
thread-safe: every call takes the service's lock, and runs in a worker thread so the event loop keeps serving.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any, TypeVar

import anyio.to_thread

from codesift.embed.base import release_batch
from codesift.indexing.sources import services_active
from codesift.server import freshness
from codesift.server.background import WriteGuard, lower_thread_priority
from codesift.store.lock import IndexBusy

if TYPE_CHECKING:  # pragma: no cover
    from codesift.api import Index
    from codesift.tools.payloads import IndexStatus

log = logging.getLogger("codesift.mcp")
T = TypeVar("T")

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8765
# Before each call that refreshes, the files indexed are stat'd (server/freshness.py) and the index updated
# when one changed; the full re-scan of the tree (which also finds a new file in a new folder) runs at most
# this often, on a call.
REFRESH_INTERVAL = 10.0
MAX_LISTED = 50  # changed paths listed in an answer's ``stale`` (a branch switch changes thousands)
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
        self._snapshot: freshness.Snapshot | None = None  # the tree as of the last refresh (None: not checked)
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
                    since = freshness.now()
                    self.index.update(embed=False)
                    self.refreshed(since)
                self._ready.set()
            if self.embed:
                self._embed_pending()
            self.state = "idle"
        except Exception as exc:  # the server keeps serving what it has; index_status says why
            self.state, self.error = "failed", one_line(f"{type(exc).__name__}: {exc}")
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
        from codesift.server.watch import watch

        def on_update(stats: Any) -> None:
            self._last_refresh = time.monotonic()
            if stats.embed_pending and self.embed and not self._stop.is_set():
                self._spawn()

        def run() -> None:
            self._ready.wait()
            try:
                watch(self.index, on_update=on_update, stop=self._stop, lock=self.lock, embed=False)
            except Exception as exc:  # a dead watcher must not take the server down
                log.warning("file watcher stopped: %s", one_line(f"{type(exc).__name__}: {exc}"))

        threading.Thread(target=run, name="codesift-watch", daemon=True).start()

    @property
    def embedding_in_progress(self) -> bool:
        return self.state in ("indexing", "embedding") and self._worker is not None and self._worker.is_alive()

    # calls
    def call_sync(self, fn: Callable[["Index"], T], *, refresh: bool = False) -> T:
        """Run ``fn(index)`` under the lock (after bringing the index up to date when ``refresh``)."""
        return self.call_noted_sync(fn, refresh=refresh)[0]

    def call_noted_sync(self, fn: Callable[["Index"], T], *, refresh: bool = False) -> tuple[T, Stale | None]:
        """:meth:`call_sync`, and why its answer may miss recent edits (None: it cannot)."""
        self._ready.wait()
        pending, stale = 0, None
        with self.lock:
            if refresh:
                pending, stale = self._refresh()
            result = fn(self.index)
        if pending and self.embed and not self._stop.is_set():
            self._spawn()
        return result, stale

    async def call(self, fn: Callable[["Index"], T], *, refresh: bool = False) -> T:
        """:meth:`call_sync` in a worker thread, so the event loop keeps serving."""
        return await anyio.to_thread.run_sync(partial(self.call_sync, fn, refresh=refresh))

    async def call_noted(self, fn: Callable[["Index"], T], *, refresh: bool = False) -> tuple[T, Stale | None]:
        """:meth:`call_noted_sync` in a worker thread."""
        return await anyio.to_thread.run_sync(partial(self.call_noted_sync, fn, refresh=refresh))

    def _refresh(self) -> tuple[int, Stale | None]:
        """Update the keyword side if a file changed since the last refresh (a stat of the indexed files
        and their folders) or the full re-scan is due; held under the lock. Returns the chunks left to
        embed and, when the index may still miss an edit, why."""
        due = time.monotonic() - self._last_refresh > self.refresh_interval
        snap = self._snapshot
        changed = freshness.changes(str(self.index.root), snap) if snap is not None else []
        # Configured services (or a failed start-up update): nothing to check between re-scans.
        blind = snap is None and self.index.remote is None
        if not changed and not due:
            return 0, unchecked(time.monotonic() - self._last_refresh, self.refresh_interval) if blind else None
        since = freshness.now()
        try:
            stats = self.index.update(embed=False, lock_timeout=0)
        except IndexBusy:  # another process is writing: answer from the index as it is, and say what it misses
            if changed:
                return 0, busy(changed)
            return 0, unchecked(time.monotonic() - self._last_refresh, self.refresh_interval) if blind else None
        self.refreshed(since)
        return stats.embed_pending, None

    def refreshed(self, since: float) -> None:
        """Record an update of the tree that started at ``since`` (wall clock); under the lock."""
        self._last_refresh = time.monotonic()
        self._snapshot = None
        index = self.index
        if index.remote is None and not services_active(index.store, index.config.services):
            self._snapshot = freshness.take(str(index.root), index.store.files(), since)

    def status(self) -> "IndexStatus":
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



Stale = dict[str, Any]  # why an answer may miss recent edits: reason, changed paths, note (the Markdown line)


def busy(changed: list[str]) -> Stale:
    return {"reason": "index_busy", "changed": changed[:MAX_LISTED], "changed_count": len(changed),
            "note": (f"The index may be stale: {freshness.describe(changed)} changed since it was last "
                     "updated, and another codesift process is updating it now, so this answer may miss "
                     "those edits; read the files with get_code_context, or ask again in a moment.")}


def unchecked(age: float, interval: float) -> Stale:
    return {"reason": "not_checked", "refreshed_s_ago": round(age, 1),
            "note": (f"The index may be stale: it was refreshed {_duration(age)} ago, and this index is not "
                     "checked for edits between refreshes (configured services are re-scanned every "
                     f"{_duration(interval)}).")}


def _duration(seconds: float) -> str:
    seconds = int(seconds)
    if seconds < 90:
        return f"{seconds} s"
    if seconds < 5400:
        return f"{round(seconds / 60)} min"
    return f"{seconds / 3600:.1f} h"


def one_line(text: str, limit: int = 400) -> str:
    return " ".join(str(text).split())[:limit]

