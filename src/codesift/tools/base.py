"""What the agent tools work on: the tree's root, the store, the index folder and the config, with search
and the vector index as callables — so that no tool depends on :class:`codesift.api.Index`.

``Index`` builds one :class:`Workspace` (``Index.workspace``) and its tool methods pass it on; another
backend can build its own from whatever answers the same calls.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from ..config import Config
from ..filters import build_filters
from ..search import Filters, SearchResponse
from ..store.sqlite import MetaStore

if TYPE_CHECKING:  # pragma: no cover
    from ..embed.base import Embedder
    from ..store.vectors import VectorIndex


class SearchFn(Protocol):
    """``Index.search``'s signature: hybrid, keyword or semantic search with the user-typed filters."""

    def __call__(self, query: str, *, limit: int = 10, mode: str = "hybrid", path: str | None = None,
                 language: str | list[str] | None = None, kind: str | list[str] | None = None,
                 threshold: float | None = None, offset: int = 0,
                 service: str | None = None) -> SearchResponse: ...


@dataclass(frozen=True, eq=False)
class Workspace:
    """One indexed tree as the tools see it; compared and hashed by identity (it keys per-index caches)."""

    root: Path
    store: MetaStore
    folder: Path  # the index folder, for caches kept beside the index (graph.npz)
    config: Config
    search: SearchFn
    vectors: Callable[[], "VectorIndex | None"]  # the current vector index; None when embeddings are unavailable
    embedder: Callable[[], "Embedder | None"] = field(default=lambda: None)  # None: keyword-only

    def filters(self, path: str | None, language: str | list[str] | None,
                kind: str | list[str] | None) -> Filters:
        """User-typed filter values normalised (case, aliases, absolute paths); raises FilterError."""
        return build_filters(self.root, path, language, kind, indexed_languages=lambda: self.store.languages(),
                             indexed_kinds=self.store.kinds)


def weak_call(owner: object, method: str) -> Any:
    """A callable for ``owner.<method>``, looked up at each call through a weak reference, so that a
    workspace cached on its owner makes no reference cycle (the owner is freed as soon as it is unused)."""
    ref = weakref.ref(owner)

    def call(*args: Any, **kwargs: Any) -> Any:
        target = ref()
        if target is None:
            raise RuntimeError(f"the object behind this workspace's {method} is gone")
        return getattr(target, method)(*args, **kwargs)

    return call
