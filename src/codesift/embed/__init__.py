"""Embedding providers behind one small interface (see :mod:`codesift.embed.base`)."""

from __future__ import annotations

import os

from .base import Embedder, EmbeddingUnavailable

__all__ = ["Embedder", "EmbeddingUnavailable", "load_embedder"]

DEFAULT_PROVIDER = "local"


def load_embedder(provider: str | None = None) -> Embedder:
    """Return the configured provider, or raise :class:`EmbeddingUnavailable` saying why and how to fix it.

    ``provider`` defaults to ``$CODESIFT_EMBEDDER`` or ``local``; ``none`` forces keyword-only search.
    """
    name = (provider or os.environ.get("CODESIFT_EMBEDDER") or DEFAULT_PROVIDER).lower()
    if name in {"none", "off", "keyword"}:
        raise EmbeddingUnavailable(
            "embeddings disabled by configuration (CODESIFT_EMBEDDER=none)",
            "unset CODESIFT_EMBEDDER to use the local model",
        )
    if name == "local":
        from .local import MiniLMEmbedder

        return MiniLMEmbedder()
    raise EmbeddingUnavailable(
        f"unknown embedding provider {name!r}", "set CODESIFT_EMBEDDER to 'local' or 'none'"
    )
