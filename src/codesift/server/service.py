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
from codesift.server.background import WriteGuard, lower_thread_priority
from codesift.store.lock import IndexBusy

if TYPE_CHECKING:  # pragma: no cover
    from codesift.api import Index
    from codesift.tools.payloads import IndexStatus

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



def _duration(seconds: float) -> str:
    seconds = int(seconds)
    if seconds < 90:
        return f"{seconds} s"
    if seconds < 5400:
        return f"{round(seconds / 60)} min"
    return f"{seconds / 3600:.1f} h"


def one_line(text: str, limit: int = 400) -> str:
    return " ".join(str(text).split())[:limit]

