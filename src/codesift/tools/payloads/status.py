"""``Index.status()``."""

from __future__ import annotations

from typing import TypedDict


# -- Index.status() ---------------------------------------------------------------------------------
class WindowCounts(TypedDict):
    total: int
    embedded: int


class TextWindowFiles(TypedDict):
    files: int
    paths: list[str]  # the first 20


class QdrantInfo(TypedDict, total=False):
    url: str
    collection: str
    service: str
    services: list[str]  # a reader's
    points: int
    dense_points: int
    load_seconds: float
    meta: bool
    references: str


class IndexStatus(TypedDict, total=False):
    """index_status (``Index.status()``): counts, languages, skipped files, the model and how much is
    embedded. Every index has the keys up to ``reranker``; the rest are said when they apply."""

    indexed: bool
    root: str
    index_dir: str | None  # None on a Qdrant reader
    files: int
    chunks: int
    symbols: int
    embedded: int
    coverage: float  # embedded / chunks
    languages: dict[str, int]
    skipped: dict[str, int]  # reason → files
    skipped_files: dict[str, str]  # path → reason, the first 200
    model: str | None
    dim: int | None
    embedding_status: str  # ok or keyword_only
    last_update: float | None  # Unix time
    quarantined: dict[str, str]  # path → the error that made the indexer give it up
    grammar_errors: dict[str, dict[str, object]]  # language → {error, files}: its grammar failed, files as windows
    windows: WindowCounts  # long definitions' further vectors
    text_windows: TextWindowFiles  # code files indexed as text windows, without definitions (when there are any)
    query_model: str  # a query tower over the base model's vectors
    embedding_reason: str  # keyword only: why
    embedding_fix: str
    embedding: str  # the semantic side in one phrase
    backend: str  # embedded or qdrant
    reranker: str  # ok, off or unavailable: <why>
    qdrant: QdrantInfo
    mode: str  # a Qdrant reader: "reader"
    # parts rebuilt after damage (keyword, vectors from SQLite; database from the tree) or still damaged
    repaired: dict[str, dict[str, object]]
    background: str  # the MCP server: its background work
    embedding_rate: float  # the MCP server, while embedding: chunks per second
    embedding_eta_s: int
