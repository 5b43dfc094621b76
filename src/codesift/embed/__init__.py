"""Embedding providers behind one small interface (see :mod:`codesift.embed.base`)."""

from __future__ import annotations

from codesift.config.env import Environment
from codesift.embed.base import Embedder, EmbeddingUnavailable

__all__ = ["Embedder", "EmbeddingUnavailable", "configured_model_id", "load_embedder"]

DEFAULT_PROVIDER = "local"


PROVIDERS = ("local", "ollama", "openai", "none")


def load_embedder(provider: str | None, env: Environment) -> Embedder:
    """Return the configured provider, or raise :class:`EmbeddingUnavailable` saying why and how to fix it.

    ``provider`` defaults to ``env.embedder`` (``CODESIFT_EMBEDDER``) or ``local``; ``none`` forces keyword-only
    search; ``ollama`` and ``openai`` (any OpenAI-compatible server) take ``env``'s ``CODESIFT_EMBED_URL``,
    ``CODESIFT_EMBED_MODEL`` and ``CODESIFT_EMBED_API_KEY``. HTTP providers sit behind a circuit breaker.
    """
    name = (provider or env.embedder or DEFAULT_PROVIDER).lower()
    if name in {"none", "off", "keyword"}:
        raise EmbeddingUnavailable(
            "embeddings disabled by configuration (CODESIFT_EMBEDDER=none)",
            "unset CODESIFT_EMBEDDER to use the local model",
        )
    if name == "local":
        from codesift.embed.local import MiniLMEmbedder

        return MiniLMEmbedder(env=env)
    if name in {"ollama", "openai"}:
        from codesift.embed.breaker import BreakerEmbedder
        from codesift.embed.http import from_env

        return BreakerEmbedder(from_env(name, env))
    raise EmbeddingUnavailable(
        f"unknown embedding provider {name!r}", f"set CODESIFT_EMBEDDER to one of {', '.join(PROVIDERS)}"
    )


def configured_model_id(provider: str | None, env: Environment) -> str | None:
    """The model id ``load_embedder(provider, env)`` would give, without loading the model or contacting a
    server; None when embeddings are off or the provider is unknown or not installed."""
    name = (provider or env.embedder or DEFAULT_PROVIDER).lower()
    try:
        if name == "local":
            from codesift.embed.local import configured_id

            return configured_id(None, env)
        if name in {"ollama", "openai"}:
            from codesift.embed.http import model_id_from_env

            return model_id_from_env(name, env)
    except (EmbeddingUnavailable, OSError):
        return None
    return None
