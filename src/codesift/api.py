"""The public Python API: ``Index(root)`` with ``update()``, ``search()``, ``status()`` and the agent tools.

The CLI, the MCP server and the search page are thin shells over this class.
"""

from __future__ import annotations

import time
from functools import cached_property, partial
from pathlib import Path
from typing import TYPE_CHECKING, Unpack


from codesift.config.settings import INDEX_DIR_NAME, Config, load_config
from codesift.search.coverage import describe_embedding
from codesift.embed.base import Embedder, release_batch
from codesift.errors import CodesiftError
from codesift.query.expand import Expander
from codesift.indexing.grammar_status import GRAMMAR_FAILED, grammar_failures
from codesift.indexing.folder import (  # noqa: F401 - re-exported
    GITIGNORE, NoIndexError, RootRemoved, find_root, ignore_in_git,
)
from codesift.indexing.indexer import QUARANTINE_AFTER, Indexer, Progress, UpdateStats
from codesift.limits import MAX_SEARCH_LIMIT, MAX_USAGES_LIMIT, check_limit, check_query
from codesift.qdrant.backend import open_backend, retrievers as qdrant_retrievers, sync_backend, unsupported_notes
from codesift.qdrant.reader import open_remote
from codesift.rank.learned import reranker_status
from codesift.search.run import MODES, SearchParams, SearchResponse
from codesift.store.derived import repairs
from codesift.store.keyword import KeywordIndex
from codesift.store.lock import IndexBusy, WriteLock
from codesift.store.health import open_meta, repaired as database_repairs
from codesift.store.damage import IndexDamaged  # noqa: F401 - re-exported
from codesift.store.schema import SCHEMA_VERSION
from codesift.store.sqlite import MetaStore
from codesift.store.vectors import DenseIndex
from codesift.indexing.sources import Sources, services_to_update
from codesift.search.filters import check_path_in_services
from codesift.tools.assigned import declared_by_query
from codesift.tools.base import SearchFilters, Workspace, weak_call
from codesift.tools.payloads import (CalleesAnswer, CallersAnswer, CodeContext, Commit, CommitSearch, FileSummary,
                                     GrepAnswer, ImpactAnswer, IndexStatus, LocalSource, OutlineAnswer, RepoMap,
                                     Source, Symbol, UsagesAnswer)
from codesift.search.dense import DenseSide
from codesift.search.engine import SearchEngine
from codesift.query.parsed import ParsedQuery, parse_query

if TYPE_CHECKING:  # pragma: no cover
    from collections.abc import Callable, Mapping
    from typing import Any

    from codesift.qdrant.collection import QdrantCollection
    from codesift.search.retrieve import Retriever
    from codesift.indexing.history import HistoryStats


MAX_RESULTS = 10_000  # engines allocate per requested result: an absurd limit must not abort the process


def _qdrant_retrievers(coll: QdrantCollection, store: MetaStore, params: SearchParams,
                       query_vector: Callable[[], Any] | None) -> tuple[tuple[Retriever, Retriever | None], list[str]]:
    """The Qdrant backend's two retrievers for one search, and notes on the settings it does not apply."""
    return qdrant_retrievers(coll, store, params, query_vector), unsupported_notes(params)


class IndexMismatchError(CodesiftError, RuntimeError):
    """The index on disk cannot be used as it is (schema or model mismatch); the message says the fix."""


class Index:
    """One on-disk index of one source tree."""

    def __init__(self, root: str | Path, *, config: Config | None = None, create: bool = True,
                 reader: bool | None = None, config_overrides: Mapping[str, object] | None = None,
                 check: bool = False) -> None:
        """Open the index of ``root``, creating it when ``create``; else raise :class:`NoIndexError`
        when there is none, so read-only callers (``status``, ``search --no-update``) leave no trace.

        Without ``config``, the configuration is loaded from ``root``'s codesift.toml and this process's
        environment, with ``config_overrides`` (Config fields: the CLI's global options) winning over both.

        Backend qdrant without a local index: a reader of the collection's service (``reader=None``: when
        the collection holds it; see ``codesift.qdrant.reader``), which writes nothing; ``reader=False``
        indexes this tree instead (``codesift index``).

        A damaged database raises :class:`IndexDamaged`; with ``create`` it is set aside and the index rebuilt
        from the tree by the next update instead, and ``repaired`` says so (store/health.py). ``check``: read
        every page of it first (``codesift index``), not only its header and schema."""
        root_path = Path(root).expanduser()
        if not root_path.exists():
            raise FileNotFoundError(f"no such directory: {root}")
        if not root_path.is_dir():
            raise NotADirectoryError(f"not a directory: {root}")
        self.root = root_path.resolve()
        self.config = config or load_config(self.root, overrides=config_overrides)
        self.folder = Path(self.config.index_dir).expanduser() if self.config.index_dir else self.root / INDEX_DIR_NAME
        local = (self.folder / "meta.db").is_file()
        if not create and not local and (reader is False or self.config.backend != "qdrant"):
            raise NoIndexError(self.root, self.folder)
        # The Qdrant backend is checked before anything is written: a bad URL leaves no trace.
        self.qdrant = open_backend(self.config, self.root)
        self.remote = open_remote(self.qdrant, self.root, self.folder, local, create, reader)
        if self.remote is not None:  # reader mode: no folder, the store lives in memory
            self.qdrant, self.store = self.remote.coll, self.remote.store
        elif create:
            self.folder.mkdir(parents=True, exist_ok=True)
            ignore_in_git(self.folder)
        self.repaired: list[str] = []  # what opening it repaired, one line each, for the caller to say once
        if self.remote is None:
            self.store, note = open_meta(self.folder, repair=create, thorough=check)
            self.repaired += [note] if note else []
        self._check_schema()
        self.keyword = KeywordIndex(self.folder / "keyword") if self.remote is None else None  # type: ignore[assignment]
        # An index replaced for an older schema, or lost (its folder deleted by hand): refilled from SQLite,
        # which holds every chunk's text. A writer marks the index dirty before it writes, so an empty
        # keyword index beside stored chunks is never one being filled.
        if self.keyword is not None and (self.keyword.recreated or (
                self.keyword.num_docs() == 0 and self.store.chunk_count() > 0)):
            self.store.set_meta("keyword_dirty", "1")
            self.store.commit()
        self.indexer = Indexer(self.root, self.store, self.keyword, self.config)
        self._count_cache: tuple[str | None, int] = (None, 0)
        self._sources: tuple[str | None, list[LocalSource]] = (None, [])
        self.dense = DenseSide(self.root, self.folder, self.config, self.store, self.remote)
        self.engine = SearchEngine(
            self.store, self.config, self.dense, Expander(self.config, self.store, self.folder),
            weak_call(self, "_keyword_index"), weak_call(self, "_chunk_count"), weak_call(self, "_declared"),
            partial(_qdrant_retrievers, self.qdrant, self.store) if self.qdrant is not None else None)

    # -- lifecycle ------------------------------------------------------------------------------
    def close(self) -> None:
        self.dense.close()
        if self.qdrant is not None:
            self.qdrant.close()
        self.store.close()

    def __enter__(self) -> "Index":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _check_schema(self) -> None:
        version = self.store.get_meta("schema_version")
        if version is None or (version != SCHEMA_VERSION and self.store.migrate_from(version)):
            self.store.set_meta("schema_version", SCHEMA_VERSION)
            self.store.commit()
        elif version != SCHEMA_VERSION:
            raise IndexMismatchError(
                f"the index at {self.folder} has schema {version}, this codesift needs {SCHEMA_VERSION}: "
                f"rebuild it with `codesift index --rebuild {self.root}`"
            )

    def _keyword_index(self) -> KeywordIndex | None:
        """The keyword index, rebuilt first if a writer died mid-update (a live writer is left alone); None
        for a Qdrant reader."""
        dirty = self.store.get_meta("keyword_dirty", "0") != "0"
        check = not dirty and self.keyword is not None and not self.__dict__.get("_keyword_checked")
        if dirty or check:
            try:
                with WriteLock(self.folder, 0):
                    # Once a process, with no writer about: its documents are then SQLite's chunks, one each.
                    self._keyword_checked = True
                    if check and self.keyword.check_count(self.store.chunk_count()):
                        self.store.set_meta("keyword_dirty", "1")
                        self.store.commit()
                    self.indexer.ensure_keyword_consistent()
            except IndexBusy:
                pass  # another process is updating right now: it will leave the index consistent
            except PermissionError:
                if dirty:
                    raise  # a read-only index: only the check is left out
        return self.keyword

    def _declared(self, query: ParsedQuery) -> tuple[str, frozenset[tuple[str, int]]]:
        return declared_by_query(self.workspace, query)

    def _chunk_count(self) -> int:
        gen = self.store.get_meta("generation", "0")
        if self._count_cache[0] != gen:
            self._count_cache = (gen, self.store.chunk_count())
        return self._count_cache[1]

    # -- operations -----------------------------------------------------------------------------
    def update(
        self, *, embed: bool = True, embed_limit: int | None = None, embed_threshold: int | None = None,
        progress: Progress | None = None, lock_timeout: float = 10.0, all_services: bool = False,
        on_wait: Callable[[str], None] | None = None,
    ) -> UpdateStats:
        """Bring the index up to date; then embed pending chunks (all, or at most ``embed_limit``).

        With ``embed_threshold``, nothing is embedded when more than that many chunks are pending: a
        search that refreshes the index first embeds a small edit at once but never stalls on a tree.

        One writer at a time: raises :class:`IndexBusy` when another process holds the write lock for
        longer than ``lock_timeout`` seconds; ``on_wait`` is told at once, in one line, when it has to wait for
        it. Searches never wait for the lock. ``all_services``: index every
        ``[[services]]`` of codesift.toml under ``<name>/`` (an index so built keeps refreshing them).
        """
        if self.remote is not None:  # a reader: the writer keeps the collection up to date
            return UpdateStats()
        if not self.root.is_dir():  # else every file would read as deleted, or the lock as the index's removal
            raise RootRemoved(self.root)
        with WriteLock(self.folder, lock_timeout, on_wait):
            self.dense.writing = True
            try:
                # Every write of the update, the bookkeeping between its stages too: a full disk is one clear error.
                with self.indexer.writing():
                    return self._update(embed, embed_limit, embed_threshold, progress, all_services)
            finally:
                self.dense.writing = False

    def _update(self, embed: bool, embed_limit: int | None, embed_threshold: int | None,
                progress: Progress | None, all_services: bool = False) -> UpdateStats:
        stats = self.indexer.update(progress, services=services_to_update(self.config, self.store, all_services))
        if stats.files_parsed or stats.files_deleted:
            self.store.prune_vectors()  # the vectors of texts edited away; an index never grows without bound
        if embed and self.dense.model_changed():
            self.embedder()  # adopts the configured model now: the old model's dropped vectors count below
        # One count per update (a scan of every chunk): the CLI runs an update before each search.
        pending = (self.store.count_missing_embeddings(with_windows=self.config.embed_windows)
                   if (embed or stats.files_parsed) else 0)
        if embed and embed_threshold is not None and pending > embed_threshold:
            embed = False
            # Too many to embed before a search, but what the machine-wide cache holds costs no model run.
            if (embedder := self.embedder()) is not None and (filled := self.indexer.fill_from_cache(
                    embedder.model_id, embedder.dim)):
                stats.embedded = filled
                self.dense.vector_index(embedder)
        if embed and pending and (embedder := self.embedder()) is not None:
            t0 = time.perf_counter()
            try:
                stats.embedded = self.indexer.embed_pending(embedder, limit=embed_limit, progress=progress,
                                                            pending=pending)
                release_batch(embedder)
                if stats.embedded:
                    # Build/patch the vector snapshot (and HNSW graph) now, not in the first search.
                    self.dense.vector_index(embedder)
                if self.indexer.embed_error is not None:
                    self.dense.unavailable(self.indexer.embed_error)
                    stats.warnings["embedding_unavailable"] = 1
            except KeyboardInterrupt:
                stats.interrupted = True
                raise
            finally:
                stats.embed_seconds = time.perf_counter() - t0
        stats.embed_pending = max(0, pending - stats.embedded)
        self.sync_backend()
        return stats

    def sync_backend(self) -> None:
        """Bring the Qdrant collection (backend qdrant) in line with the store; nothing for the embedded one."""
        if self.qdrant is not None and self.remote is None:
            sync_backend(self.qdrant, self.store, self.embedder)

    def search(
        self,
        query: str,
        *,
        limit: int = 10,
        mode: str = "hybrid",
        path: str | None = None,
        language: str | list[str] | None = None,
        kind: str | list[str] | None = None,
        threshold: float | None = None,
        offset: int = 0,
        service: str | list[str] | None = None,
    ) -> SearchResponse:
        """Hybrid (default), keyword or semantic search; degrades to keyword-only and says so.

        ``service``: one or several services (top-level folders, see :meth:`list_sources`), filtered inside
        both retrievers; ``offset`` skips that many results (paging).
        """
        if mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}, got {mode!r}")
        check_limit(limit, MAX_SEARCH_LIMIT)
        if threshold is not None and not 0 <= threshold <= 1:
            raise ValueError("threshold must be between 0 and 1")
        if offset < 0:
            raise ValueError("offset must be >= 0")
        filters = self.workspace.filters(path, language, kind, service)
        check_path_in_services(filters)
        if limit + offset > MAX_RESULTS:
            raise ValueError(f"limit + offset must be at most {MAX_RESULTS}")
        # Cleaned (NUL, lone surrogates) and refused when empty or too long, as on the CLI and MCP.
        typing = not (isinstance(query, str) and query[-1:].isspace())  # its last word may be unfinished
        parsed = parse_query(check_query(query), typing=typing)
        return self.engine.search(parsed, filters, limit=limit, offset=offset, mode=mode, threshold=threshold,
                                  notes=self.workspace.filter_notes(filters))

    def embedder(self) -> Embedder | None:
        """The embedding provider, loaded once; None (with the reason kept) when unavailable."""
        return self.dense.embedder()

    def current_vectors(self) -> DenseIndex | None:
        """The vector index of the current generation; None when no embedder is available."""
        return self.dense.current_vectors()

    # -- agent tools (see codesift.tools) --------------------------------------------------------
    @cached_property
    def workspace(self) -> Workspace:
        """What the tools work on (root, store, index folder, config, search, vectors), built once."""
        return Workspace(root=self.root, store=self.store, folder=self.folder, config=self.config,
                         search=weak_call(self, "search"), vectors=weak_call(self, "current_vectors"),
                         embedder=weak_call(self, "embedder"), remote=self.remote is not None,
                         sources=Sources(self.root, self.config.services, self.store)
                         if self.config.services and self.remote is None else None)

    def find_symbol(self, name: str, *, kind: str | list[str] | None = None, exact: bool = False,
                    service: str | list[str] | None = None) -> list[Symbol]:
        """Definitions by name: every exact match first, then prefix, camel-hump and substring (≤50), all indexed."""
        from codesift.tools.symbols import find_symbol

        return find_symbol(self.workspace, name, kind=kind, exact=exact, service=service)

    def find_usages(self, symbol_name: str, *, limit: int = 100,
                    service: str | list[str] | None = None) -> UsagesAnswer:
        """Static references to a symbol (calls, reads, imports, types, inheritance), definitions excluded."""
        from codesift.tools.usages import find_usages

        check_limit(limit, MAX_USAGES_LIMIT)
        result = find_usages(self.workspace, symbol_name, limit=limit, service=service)
        return self.remote.usages(result) if self.remote is not None else result

    def repo_map(self, *, budget_tokens: int = 1000, focus: str | list[str] | None = None,
                 service: str | list[str] | None = None, offset: int = 0) -> RepoMap:
        """The most referenced definitions (PageRank over the reference index; ``focus`` files or names
        pull their neighbours up), grouped by file with signatures, cut to ``budget_tokens`` (≈ chars/4)."""
        from codesift.tools.repomap import repo_map

        return repo_map(self.workspace, budget_tokens=budget_tokens, focus=focus, service=service, offset=offset)

    def callers(self, symbol_name: str, *, service: str | list[str] | None = None) -> CallersAnswer:
        """The definitions that call ``symbol_name``, one entry per caller, grouped by target as find_usages."""
        from codesift.tools.graph import callers

        return callers(self.workspace, symbol_name, service=service)

    def callees(self, symbol_name: str, *, service: str | list[str] | None = None) -> CalleesAnswer:
        """What the body of ``symbol_name`` calls, resolved to definitions where the index can."""
        from codesift.tools.graph import callees

        return callees(self.workspace, symbol_name, service=service)

    def impact(self, symbol_name: str, *, depth: int = 2, service: str | list[str] | None = None) -> ImpactAnswer:
        """The definitions and files that reach ``symbol_name`` within ``depth`` hops of uses."""
        from codesift.tools.graph import impact

        return impact(self.workspace, symbol_name, depth=depth, service=service)

    def get_code_context(self, file_path: str, symbol_name: str | None = None, *, ref: str | None = None,
                         context_lines: int = 0, start_line: int | None = None) -> CodeContext:
        """Live source of a file or one symbol (optionally at a git ``ref``), with line numbers; a long
        file is read from ``start_line`` on."""
        from codesift.tools.context import get_code_context

        return get_code_context(self.workspace, file_path, symbol_name, ref=ref, context_lines=context_lines,
                                start_line=start_line)

    def find_similar(self, result_id: int, *, limit: int = 10) -> list[Symbol]:
        """Chunks whose embeddings are nearest to result ``result_id``'s."""
        from codesift.tools.symbols import find_similar

        return find_similar(self.workspace, result_id, limit=limit)

    def drill_down(self, result_id: int, *, limit: int = 10) -> list[Symbol]:
        """Like :meth:`find_similar`, one result per file, to map a topic across the tree."""
        from codesift.tools.symbols import find_similar

        return find_similar(self.workspace, result_id, limit=limit, spread=True)

    def summarize_matches(self, query: str, *, limit: int = 30,
                          **filters: Unpack[SearchFilters]) -> list[FileSummary]:
        """One entry per matching file (path, symbols, one-line description), without code bodies."""
        from codesift.tools.symbols import summarize_matches

        return summarize_matches(self.workspace, query, limit=limit, **filters)

    def grep(self, pattern: str, *, regex: bool = False, path: str | None = None,
             language: str | list[str] | None = None, service: str | list[str] | None = None, case_sensitive: bool = True,
             context_lines: int = 0, limit: int = 100, offset: int = 0) -> GrepAnswer:
        """Lines matching a literal (or a regex) in the indexed files, with the enclosing symbol of each;
        candidate files come from the trigram index, every hit is read from the live file."""
        from codesift.tools.grep import grep

        return grep(self.workspace, pattern, regex=regex, path=path, language=language, service=service,
                    case_sensitive=case_sensitive, context_lines=context_lines, limit=limit, offset=offset)

    def outline(self, path: str) -> OutlineAnswer:
        """A file's symbols (kind, name, signature, line range, first doc line), nested, no bodies."""
        from codesift.tools.outline import outline

        return outline(self.workspace, path)

    def index_history(self, limit: int = 1000, *, embed: bool = True, progress: Progress | None = None,
                      lock_timeout: float = 10.0) -> "HistoryStats":
        """Index the newest ``limit`` commits of the tree's git repository not indexed yet (messages, changed
        paths; embedded when ``embed`` and a model is available); returns :class:`codesift.indexing.history.HistoryStats`."""
        from codesift.indexing.history import index_history

        embedder = self.embedder() if embed else None
        reason = "--no-embed" if not embed else self.dense.error.reason if self.dense.error else ""
        with WriteLock(self.folder, lock_timeout):
            return index_history(self.root, self.store, cache_dir=self.config.env.cache_dir, limit=limit,
                                 embedder=embedder, progress=progress, embed_reason=reason)

    def search_commits(self, query: str, *, path: str | None = None, since: str | None = None,
                       limit: int = 10) -> CommitSearch:
        """Indexed commits by message and changed paths (``path`` prefix, ``since`` ISO date), best first."""
        from codesift.tools.commits import search_commits

        return search_commits(self.workspace, query, path=path, since=since, limit=limit)

    def get_commit(self, sha: str) -> Commit:
        """One commit by full sha or unique prefix: message, author, date, files with status, diff (cut)."""
        from codesift.tools.commits import get_commit

        return get_commit(self.workspace, sha)

    def list_sources(self) -> list[Source]:
        """The indexed root's top-level folders, or its configured services (with languages and the indexed
        commit), with file and symbol counts."""
        from codesift.tools.symbols import list_sources

        if self.remote is not None:
            return [*self.remote.sources()]
        gen = self.store.get_meta("files_generation", "0")
        if self._sources[0] != gen:  # a GROUP BY over every chunk: recomputed only when files changed
            self._sources = (gen, list_sources(self.workspace))
        return [s.copy() for s in self._sources[1]]

    def status(self) -> IndexStatus:
        """Counts, languages, skipped files and why, model, embedding status, last update."""
        counts = self.store.counts(embedded=self.dense.embedded_count())
        skipped = self.store.skipped()
        reasons: dict[str, int] = {}
        for reason in skipped.values():
            reasons[reason] = reasons.get(reason, 0) + 1
        embedder = self.embedder()
        last = self.store.get_meta("last_update")
        quarantined = self.store.quarantined(QUARANTINE_AFTER)
        windows, embedded_windows = self.store.window_counts()
        status: IndexStatus = {
            "indexed": True,
            "root": str(self.root),
            "index_dir": str(self.folder),
            "files": counts["files"], "chunks": counts["chunks"], "symbols": counts["symbols"],
            "embedded": counts["embedded"],
            "coverage": round(counts["embedded"] / counts["chunks"], 4) if counts["chunks"] else 1.0,
            "languages": self.store.languages(),
            "skipped": reasons,
            "skipped_files": dict(sorted(skipped.items())[:200]),
            "model": self.store.get_meta("model_id"),
            "dim": int(self.store.get_meta("model_dim") or 0) or None,
            "embedding_status": "ok" if embedder is not None else "keyword_only",
            "last_update": float(last) if last else None,
            "quarantined": {path: err for path, (_, _, err) in sorted(quarantined.items())},
            # language -> {error, files}: grammars that failed to load, their files indexed as line windows
            "grammar_errors": grammar_failures(self.store),
            "windows": {"total": windows, "embedded": embedded_windows},  # long chunks' further vectors
        }
        as_windows = self.store.text_window_files(unless_warned=GRAMMAR_FAILED)  # those are in grammar_errors
        if as_windows:  # code files indexed as text windows (too big, minified, unparsable): no definitions
            status["text_windows"] = {"files": len(as_windows), "paths": as_windows[:20]}
        query_model = getattr(embedder, "query_model_id", None)
        if query_model and query_model != status.get("model"):  # a query tower over the base model's vectors
            status["query_model"] = query_model
        if embedder is None and self.dense.error is not None:
            status["embedding_reason"] = self.dense.error.reason
            status["embedding_fix"] = self.dense.error.fix
        status["embedding"] = describe_embedding(status)
        status["backend"] = self.config.backend
        # Parts rebuilt after damage: the derived ones from SQLite (store/derived.py), the database from the
        # tree (store/health.py); part → {reason, repaired, …}.
        repaired = repairs(self.folder) if self.remote is None else {}
        if self.remote is None and (notes := database_repairs(self.store)):
            repaired["database"] = {"part": "database", "repaired": "; ".join(notes)}
        if repaired:
            status["repaired"] = repaired
        status["reranker"] = reranker_status(self.config.rank.learned_rerank)
        if self.qdrant is not None:  # where the search indexes live (never the API key)
            status["qdrant"] = {"url": self.qdrant.url, "collection": self.qdrant.name, "service": self.qdrant.service}
        if self.remote is not None:
            status.update(self.remote.status())
        return status
