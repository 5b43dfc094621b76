"""The environment's settings: every ``CODESIFT_*`` variable is read here, and only here.

:func:`read_env` turns a mapping (``os.environ`` unless another is given) into an :class:`Environment`, a
frozen record. :func:`codesift.config.settings.load_config` reads it when it loads the configuration and
hands it on as ``Config.env``: whatever needs one of these settings (the embedding provider, the machine-wide
caches, the parser's worker processes, the chat model) is passed it, and never reads ``os.environ`` itself.
A ``Config()`` made in code takes this process's environment when it is made; ``codesift serve --http``
reads its token through :func:`read_env` before any index is opened.

Precedence, for the settings codesift.toml also has: a command-line option (``--backend``, ``--qdrant-url``,
``--qdrant-service``; see ``codesift.cli.app``) > the variable > codesift.toml > the default.

The variables, one a line: variable: field of ``Environment`` (what it wins over); default.

- CODESIFT_EMBEDDER: ``embedder``, local, none, ollama or openai (codesift.toml's ``embedder``); local
- CODESIFT_EMBED_URL: ``embed_url``, the ollama/openai server; http://127.0.0.1:11434 / http://127.0.0.1:8000/v1
- CODESIFT_EMBED_MODEL: ``embed_model``, the local model's name or the server's model; minilm / the provider's
- CODESIFT_EMBED_API_KEY: ``embed_api_key``, the openai provider's key; OPENAI_API_KEY, else none
- CODESIFT_MODEL_PATH: ``model_path``, another ONNX file run by the local provider; the bundled model's file
- CODESIFT_QUERY_MODEL_PATH: ``query_model_path``, an ONNX file that embeds queries only; the document model's
- CODESIFT_CHAT_MODEL: ``chat_model``, for query_expansion = "llm" (``expand_model``); none
- CODESIFT_CHAT_PROVIDER: ``chat_provider``, ollama or openai (``expand_provider``); the embedder's kind, else ollama
- CODESIFT_CHAT_URL: ``chat_url`` (``expand_url``); CODESIFT_EMBED_URL for the same provider, else its local port
- CODESIFT_CHAT_API_KEY: ``chat_api_key``; CODESIFT_EMBED_API_KEY, else OPENAI_API_KEY, else none
- CODESIFT_BACKEND: ``backend``, embedded or qdrant (``backend``); embedded
- CODESIFT_QDRANT_URL: ``qdrant_url`` (``qdrant_url``); none
- CODESIFT_QDRANT_API_KEY: ``qdrant_api_key`` (``qdrant_api_key``); none
- CODESIFT_QDRANT_COLLECTION: ``qdrant_collection`` (``qdrant_collection``); codesift
- CODESIFT_QDRANT_SERVICE: ``qdrant_service`` (``qdrant_service``); the root folder's name
- CODESIFT_CACHE_DIR: ``cache_dir``, the machine-wide vector, expansion and model caches; ~/.cache/codesift
- CODESIFT_WORKERS: ``parse_in_process``, "1" parses without worker processes; a pool for 400+ files on 2+ cores
- CODESIFT_TOKEN: ``token``, the bearer token ``serve --http`` asks for; none (loopback only)

``OPENAI_API_KEY``, the keys' last fallback, is read here too. The backend variables and the token are
stripped and ignored when blank (the backend is lowercased); the others are taken as they are, ignored when
empty; CODESIFT_WORKERS means something only as "1".
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

# The variables that win over codesift.toml's backend settings, and the Config field each sets.
ENV_SETTINGS = {"CODESIFT_BACKEND": "backend", "CODESIFT_QDRANT_URL": "qdrant_url",
                "CODESIFT_QDRANT_API_KEY": "qdrant_api_key", "CODESIFT_QDRANT_COLLECTION": "qdrant_collection",
                "CODESIFT_QDRANT_SERVICE": "qdrant_service"}


def default_cache_dir() -> Path:
    """Where the machine-wide caches live unless ``CODESIFT_CACHE_DIR`` says: ``~/.cache/codesift``."""
    return Path.home() / ".cache" / "codesift"


@dataclass(frozen=True, slots=True)
class Environment:
    """The ``CODESIFT_*`` settings of a process (the module docstring lists each variable). ``Environment()``
    is a process where none is set."""

    embedder: str | None = None
    embed_url: str | None = None
    embed_model: str | None = None
    embed_api_key: str | None = None
    model_path: Path | None = None
    query_model_path: Path | None = None
    chat_model: str | None = None
    chat_provider: str | None = None
    chat_url: str | None = None
    chat_api_key: str | None = None
    backend: str | None = None
    qdrant_url: str | None = None
    qdrant_api_key: str | None = None
    qdrant_collection: str | None = None
    qdrant_service: str | None = None
    cache_dir: Path = field(default_factory=default_cache_dir)
    parse_in_process: bool = False
    token: str | None = None

    def file_overrides(self) -> dict[str, str]:
        """The Config fields these settings override in codesift.toml (those that are set)."""
        changes = {name: getattr(self, name) for name in ENV_SETTINGS.values() if getattr(self, name) is not None}
        if self.embedder:
            changes["embedder"] = self.embedder
        return changes


def read_env(environ: Mapping[str, str] | None = None) -> Environment:
    """The settings ``environ`` (default: this process's ``os.environ``) holds."""
    env = os.environ if environ is None else environ

    def value(name: str) -> str | None:
        return env.get(name) or None

    def stripped(name: str) -> str | None:
        return env.get(name, "").strip() or None

    backend = stripped("CODESIFT_BACKEND")
    model_path, query_model_path = value("CODESIFT_MODEL_PATH"), value("CODESIFT_QUERY_MODEL_PATH")
    embed_key = value("CODESIFT_EMBED_API_KEY") or value("OPENAI_API_KEY")
    return Environment(
        embedder=value("CODESIFT_EMBEDDER"),
        embed_url=value("CODESIFT_EMBED_URL"),
        embed_model=value("CODESIFT_EMBED_MODEL"),
        embed_api_key=embed_key,
        model_path=Path(model_path) if model_path else None,
        query_model_path=Path(query_model_path) if query_model_path else None,
        chat_model=value("CODESIFT_CHAT_MODEL"),
        chat_provider=value("CODESIFT_CHAT_PROVIDER"),
        chat_url=value("CODESIFT_CHAT_URL"),
        chat_api_key=value("CODESIFT_CHAT_API_KEY") or embed_key,
        backend=backend.lower() if backend else None,
        qdrant_url=stripped("CODESIFT_QDRANT_URL"),
        qdrant_api_key=stripped("CODESIFT_QDRANT_API_KEY"),
        qdrant_collection=stripped("CODESIFT_QDRANT_COLLECTION"),
        qdrant_service=stripped("CODESIFT_QDRANT_SERVICE"),
        cache_dir=Path(value("CODESIFT_CACHE_DIR") or default_cache_dir()),
        parse_in_process=env.get("CODESIFT_WORKERS") == "1",
        token=stripped("CODESIFT_TOKEN"),
    )
