"""Embedding beside a serving process: the model runs outside the index lock, at lower CPU priority."""

from __future__ import annotations

import os
import sys
import threading

import numpy as np
import pytest

from codesift import Index
from codesift.config.settings import Config
from codesift.server.background import lower_thread_priority


class LockWatchingEmbedder:
    """A tiny deterministic embedder that records whether the lock was held while it ran."""

    model_id, dim, max_chars = "test-watch", 8, 1000

    def __init__(self, lock: threading.Lock) -> None:
        self.lock, self.held = lock, []

    def embed(self, texts: list[str]) -> np.ndarray:
        self.held.append(self.lock.locked())
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for i, t in enumerate(texts):
            out[i, hash(t) % self.dim] = 1.0
        return out

    def embed_query(self, text: str) -> np.ndarray:
        return self.embed([text])[0]


def test_the_model_runs_without_the_lock_and_everything_gets_embedded(repo):
    lock = threading.Lock()
    with Index(repo, config=Config(embedder="none", embed_batch=2)) as idx:
        idx.update(embed=False)
        pending = idx.store.count_missing_embeddings()
        embedder = LockWatchingEmbedder(lock)
        done = idx.indexer.embed_pending(embedder, lock=lock)
        assert done == pending > 2 and idx.store.count_missing_embeddings() == 0
        assert embedder.held and not any(embedder.held)  # several batches, none under the lock
        assert not lock.locked()


@pytest.mark.skipif(sys.platform != "linux", reason="per-thread nice values are a Linux feature")
def test_lowering_priority_touches_only_the_calling_thread():
    before = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
    seen: list[int] = []

    def work() -> None:
        assert lower_thread_priority(5)
        seen.append(os.getpriority(os.PRIO_PROCESS, threading.get_native_id()))

    t = threading.Thread(target=work)
    t.start()
    t.join()
    assert seen == [max(before, 5)] or seen[0] > before
    assert os.getpriority(os.PRIO_PROCESS, threading.get_native_id()) == before


def test_background_embedding_takes_the_write_lock_and_yields_to_another_writer(repo):
    from codesift.server.background import WriteGuard
    from codesift.store.lock import IndexBusy, WriteLock

    with Index(repo, config=Config(embedder="none")) as idx:
        idx.update(embed=False)
        lock = threading.Lock()
        with WriteGuard(lock, idx.folder):
            assert lock.locked()
            with pytest.raises(IndexBusy):  # `codesift index` in another process would wait or give up
                WriteLock(idx.folder, 0).acquire()
        assert not lock.locked()
        with WriteLock(idx.folder, 0):  # released: free again
            pass
        # Another writer holds the index: the guard gives up (and leaves the service lock free).
        holder = WriteLock(idx.folder, 0)
        holder.acquire()
        try:
            with pytest.raises(IndexBusy):
                with WriteGuard(lock, idx.folder, wait=0.2):
                    pass
            assert not lock.locked()
        finally:
            holder.release()
