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
    "Chunk": ".model",
    "CodesiftError": ".errors",
    "IndexBusy": ".store.lock",
    "InputError": ".limits",
    "Config": ".config",
    "ConfigError": ".config",
    "EmbeddingUnavailable": ".embed.base",
    "Index": ".api",
    "IndexMismatchError": ".api",
    "NoIndexError": ".api",
    "SearchResponse": ".search",
    "SearchResult": ".search",
}

if TYPE_CHECKING:  # pragma: no cover
    from .api import Index, IndexMismatchError, NoIndexError
    from .config import Config, ConfigError
    from .errors import CodesiftError
    from .limits import InputError
    from .store.lock import IndexBusy
    from .embed.base import EmbeddingUnavailable
    from .model import Chunk
    from .search import SearchResponse, SearchResult


def __getattr__(name: str) -> Any:
    if name in _HOME:
        return getattr(importlib.import_module(_HOME[name], __name__), name)
    raise AttributeError(f"module 'codesift' has no attribute {name!r}")
