"""codesift: local hybrid code search over symbols, for people and AI coding agents.

Names are imported lazily so that ``codesift --help`` does not pay for tantivy or onnxruntime.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__all__ = [
    "Chunk",
    "CodesiftError",
    "Config",
    "ConfigError",
    "EmbeddingUnavailable",
    "Index",
    "IndexBusy",
    "IndexMismatchError",
    "InputError",
    "NoIndexError",
    "SearchResponse",
    "SearchResult",
]

_HOME = {
    "Chunk": ".datatypes",
    "CodesiftError": ".errors",
    "IndexBusy": ".store.lock",
    "InputError": ".limits",
    "Config": ".config.settings",
    "ConfigError": ".errors",
    "EmbeddingUnavailable": ".embed.base",
    "Index": ".api",
    "IndexMismatchError": ".api",
    "NoIndexError": ".api",
    "SearchResponse": ".search.run",
    "SearchResult": ".search.run",
}

if TYPE_CHECKING:  # pragma: no cover
    from codesift.api import Index, IndexMismatchError, NoIndexError
    from codesift.config.settings import Config
    from codesift.errors import CodesiftError, ConfigError
    from codesift.limits import InputError
    from codesift.store.lock import IndexBusy
    from codesift.embed.base import EmbeddingUnavailable
    from codesift.datatypes import Chunk
    from codesift.search.run import SearchResponse, SearchResult


def __getattr__(name: str) -> Any:
    if name in _HOME:
        return getattr(importlib.import_module(_HOME[name], __name__), name)
    raise AttributeError(f"module 'codesift' has no attribute {name!r}")
