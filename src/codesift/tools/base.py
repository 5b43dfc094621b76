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
from typing import TYPE_CHECKING, Any, Protocol, TypedDict

from codesift.config.settings import Config
from codesift.search.filters import absent_language_notes, absent_path_notes, build_filters, normalise_services
from codesift.search.run import Filters, SearchResponse
from codesift.store.sqlite import MetaStore

if TYPE_CHECKING:  # pragma: no cover
    from codesift.embed.base import Embedder
    from codesift.indexing.sources import Sources
    from codesift.store.vectors import VectorIndex


class SearchFn(Protocol):
    """``Index.search``'s signature: hybrid, keyword or semantic search with the user-typed filters."""

    def __call__(self, query: str, *, limit: int = 10, mode: str = "hybrid", path: str | None = None,
                 language: str | list[str] | None = None, kind: str | list[str] | None = None,
                 threshold: float | None = None, offset: int = 0,
                 service: str | list[str] | None = None) -> SearchResponse: ...


class SearchFilters(TypedDict, total=False):
    """The keyword arguments of :class:`SearchFn` but ``limit``, as a tool passes them on to search."""

    mode: str
    path: str | None
    language: str | list[str] | None
    kind: str | list[str] | None
    threshold: float | None
    offset: int
    service: str | list[str] | None


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
    sources: "Sources | None" = None  # where indexed paths are read (configured services); None: the root
    remote: bool = False  # a Qdrant reader: files may be missing here, their stored text stands in

    def filters(self, path: str | None, language: str | list[str] | None,
                kind: str | list[str] | None, service: str | list[str] | None = None) -> Filters:
        """User-typed filter values normalised (case, aliases, absolute paths); raises FilterError."""
        filters = build_filters(self.root, path, language, kind, indexed_languages=lambda: self.store.languages(),
                                indexed_kinds=self.store.kinds)
        filters.services = self.services(service)
        return filters

    def filter_notes(self, filters: Filters) -> list[str]:
        """Notes explaining an empty answer: a filtered language or path no indexed file has."""
        return [*absent_language_notes(filters.languages, self.store.languages),
                *absent_path_notes(filters.path, lambda path: self.store.has_files(Filters(path=path)),
                                   self._top_folders)]

    def _top_folders(self) -> list[str]:
        """The indexed tree's top-level folders (``.`` for files at the root), most files first."""
        return [row[0] for row in self.store.service_counts()]

    def services(self, value: str | list[str] | None) -> tuple[str, ...]:
        """``service=`` values as folder names, each checked to hold indexed files; raises FilterError."""
        if not value:
            return ()
        return normalise_services(value, lambda name: self.store.count_files(Filters(services=(name,))) > 0,
                                  self._top_folders)

    def read(self, rel: str) -> bytes:
        """The bytes of the indexed path ``rel`` as they are now: the live file, or a git service's blob at
        its indexed commit; raises OSError."""
        if self.sources is not None:
            return self.sources.read(rel)
        with open(self.root / rel, "rb") as fh:
            return fh.read()


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
