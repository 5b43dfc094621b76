"""A circuit breaker around an embedding provider.

After ``failures`` consecutive errors the circuit opens: calls fail at once (searches run keyword-only)
instead of each waiting for a timeout. After ``reset_after`` seconds one trial call is let through
(half-open); its success closes the circuit, its failure opens it again.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

import numpy as np

from codesift.embed.base import Embedder, EmbeddingUnavailable


class CircuitOpen(EmbeddingUnavailable):
    """The provider failed too often recently; it is not being called for now."""


class BreakerEmbedder:
    """Wraps any :class:`Embedder`, same interface, with closed / open / half-open states."""

    def __init__(self, inner: Embedder, failures: int = 5, reset_after: float = 30.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.inner = inner
        self.model_id, self.dim, self.max_chars = inner.model_id, inner.dim, inner.max_chars
        self.failures, self.reset_after, self.clock = failures, reset_after, clock
        self._consecutive = 0
        self._opened_at: float | None = None
        self._lock = threading.Lock()

    @property
    def state(self) -> str:
        if self._opened_at is None:
            return "closed"
        return "half_open" if self.clock() - self._opened_at >= self.reset_after else "open"

    def _guard(self, call: Callable[[], np.ndarray]) -> np.ndarray:
        with self._lock:
            if self.state == "open":
                raise CircuitOpen(
                    f"embedding provider {self.model_id} failed {self._consecutive} times in a row; "
                    f"retrying in {self.reset_after - (self.clock() - (self._opened_at or 0)):.0f}s",
                    "check the embedding server; searches are keyword-only meanwhile",
                )
        try:
            result = call()
        except Exception as exc:
            with self._lock:
                self._consecutive += 1
                if self._consecutive >= self.failures or self._opened_at is not None:
                    self._opened_at = self.clock()
            raise EmbeddingUnavailable(f"embedding provider call failed: {exc}",
                                       "check the embedding server") from exc
        with self._lock:
            self._consecutive = 0
            self._opened_at = None
        return result

    def embed(self, texts: list[str]) -> np.ndarray:
        return self._guard(lambda: self.inner.embed(texts))

    def embed_query(self, text: str) -> np.ndarray:
        return self._guard(lambda: self.inner.embed_query(text))
