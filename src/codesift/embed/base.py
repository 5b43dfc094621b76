"""The embedding provider interface: every provider turns texts into L2-normalised vectors."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

import numpy as np
from codesift.errors import CodesiftError


class EmbeddingUnavailable(CodesiftError, RuntimeError):
    """The configured embedding provider cannot be used; search degrades to keyword-only."""

    def __init__(self, reason: str, fix: str = "") -> None:
        super().__init__(reason)
        self.reason = reason
        self.fix = fix


@runtime_checkable
class Embedder(Protocol):
    """What the indexer and the searcher need from an embedding provider."""

    model_id: str  # stored in the index; a mismatch refuses the index
    dim: int
    max_chars: int  # input beyond this many characters is never read by the model

    def embed(self, texts: list[str]) -> np.ndarray:
        """Embed documents: float32 array of shape (len(texts), dim), rows L2-normalised."""
        ...

    def embed_query(self, text: str) -> np.ndarray:
        """Embed one query: float32 vector of shape (dim,), L2-normalised."""
        ...


def release_batch(embedder: object) -> None:
    """Free a provider's document-embedding resources when it has any (the local model's all-core
    session); the next batch makes them again. Called when a run of embedding ends."""
    release = getattr(embedder, "release_batch", None)
    if callable(release):
        release()
