"""Bring an index up to date with its tree: discover → parse → store + keyword index → embed.

Keyword search works as soon as the parse phase has committed; embeddings are filled in afterwards by
resumable batches keyed by a hash of the embedded text, so an unchanged chunk is never embedded twice.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from codesift.config.settings import INDEX_DIR_NAME, Config
from codesift.text.source import content_hash
from codesift.indexing.prepare import Prepared, prepare_args, prepare_file
from codesift.indexing.workers import worker_pool
from codesift.indexing import grammar_status
from codesift.indexing.discover import Discovery, SourceFile, discover
from codesift.indexing.grammar_status import GRAMMAR_FAILED
from codesift.embed.base import Embedder, EmbeddingUnavailable
from codesift.datatypes import PARSER_VERSION
from codesift.text.model_input import embed_text, window_texts
from codesift.languages import is_example_path, is_test_path
from codesift.search.coverage import dominating

if TYPE_CHECKING:  # pragma: no cover - the parsers are imported when a file is parsed, not at start-up
    from codesift.config.services import ServiceSpec
from codesift.store.cache import EMBEDDINGS_FILE, EmbeddingCache
from codesift.store.keyword import KeywordDoc, KeywordIndex
from codesift.store.lock import IndexRemoved, IndexWriteError, check_held, folder_bytes, write_failure
from codesift.store.records import ChunkRecord
from codesift.store.sqlite import FileRow, MetaStore, StoreError

Progress = Callable[[str, int, int], None]  # (stage, done, total)
FILE_BATCH = 200
QUARANTINE_AFTER = 3  # failures in a row, with the file unchanged, before it is no longer retried
INDEX_PER_SOURCE_BYTE = 8.0  # index bytes per source byte (keyword side; measured ~8 on a small Python/JS/Go tree),
# for the space a failed write says it needs, while the index is too small to measure its own
WRITE_ERRORS = (OSError, StoreError, ValueError)  # what a failed write raises (``store.lock.write_failure``)
EMBEDDED_KEPT = "the index answers as it did, with the vectors embedded before the failure"


@dataclass(slots=True)
class UpdateStats:
    """What one ``update`` did."""

    files_seen: int = 0
    files_parsed: int = 0
    files_unchanged: int = 0
    files_deleted: int = 0
    chunks_added: int = 0
    embedded: int = 0
    embed_pending: int = 0
    skipped: dict[str, int] = field(default_factory=dict)
    warnings: dict[str, int] = field(default_factory=dict)
    warned_files: dict[str, str] = field(default_factory=dict)  # path (relative to the root) -> warning
    grammar_errors: dict[str, str] = field(default_factory=dict)  # language -> why its grammar did not load
    services: dict[str, dict[str, object]] = field(default_factory=dict)  # index --all: per service, what it did
    interrupted: bool = False
    parse_seconds: float = 0.0
    embed_seconds: float = 0.0


class Indexer:
    """Runs updates against one index (store + keyword index) for one root."""

    def __init__(self, root: Path, store: MetaStore, keyword: KeywordIndex, config: Config) -> None:
        self.root, self.store, self.keyword, self.config = root, store, keyword, config
        self.embed_error: EmbeddingUnavailable | None = None
        self.shared_cache = EmbeddingCache(config.env.cache_dir / EMBEDDINGS_FILE)
        self._failed_paths: dict[str, str] = {}  # this update's files that could not be read/parsed
        self._order: tuple[str, dict[str, int]] = ("", {})  # (files generation, embed_order)

    def ensure_keyword_consistent(self) -> bool:
        """Rebuild the keyword index from SQLite if a previous run died between the two commits."""
        if self.store.get_meta("keyword_dirty", "0") == "0":
            return False
        self.keyword.clear()
        for row in self.store.iter_chunks():
            self.keyword.add(_keyword_doc(row))
        self.keyword.commit()
        self.store.set_meta("keyword_dirty", "0")
        self.store.commit()
        return True

    def update(self, progress: Progress | None = None, *,
               services: "tuple[ServiceSpec, ...] | None" = None) -> UpdateStats:
        """Re-parse changed files, drop deleted ones; commits in batches so Ctrl-C keeps what is done.

        With ``services``, the index holds those services (``codesift.indexing.services``) instead of the tree."""
        stats = UpdateStats()
        t0 = time.perf_counter()
        self._failed_paths = {}
        with self.writing():
            self.ensure_keyword_consistent()
            if self.store.get_meta("parser_version", "1") != PARSER_VERSION:
                self.store.mark_all_changed()
                self.store.set_meta("parser_version", PARSER_VERSION)
                self.store.commit()
            grammar_status.recheck(self.store)  # files windowed while a grammar failed: re-parsed once it loads
        known = self.store.files()
        if services is not None:
            from codesift.indexing.services import update_services

            return update_services(self, services, known, stats, progress, t0)
        found = discover(
            self.root,
            max_file_size=self.config.max_file_size,
            extra_ignores=(*self.config.ignore, *self._index_dir_ignore()),
            index_dir_name=INDEX_DIR_NAME,
            known={path: (row.size, row.mtime) for path, row in known.items()},
            include=self.config.include,
        )
        return self.apply(found, known, stats, progress, t0)

    def apply(self, found: Discovery, known: dict, stats: UpdateStats, progress: Progress | None, t0: float,
              source: Callable[[SourceFile], str | bytes] | None = None) -> UpdateStats:
        """Bring the store in line with ``found``: parse what changed, delete what is gone.

        ``source`` gives a file's path or bytes (a git blob) to parse; default: its ``abspath``."""
        quarantined = self.store.quarantined(QUARANTINE_AFTER)
        if quarantined:
            keep = []
            for f in found.files:
                q = quarantined.get(f.path)
                if q is not None and q[0] == f.size and q[1] == f.mtime:
                    found.skipped[f.path] = "quarantined"
                else:
                    keep.append(f)
            found.files = keep
        for reason in found.skipped.values():
            stats.skipped[reason] = stats.skipped.get(reason, 0) + 1
        stats.files_seen = len(found.files)
        current = {f.path for f in found.files}
        changed = [
            f for f in found.files
            if (row := known.get(f.path)) is None or row.size != f.size or row.mtime != f.mtime
        ]
        deleted = [row for path, row in known.items() if path not in current]
        stats.files_unchanged = len(found.files) - len(changed)
        if not changed and not deleted:
            self._finish_scan(found.skipped)
            stats.parse_seconds = time.perf_counter() - t0
            return stats
        with self.writing():
            check_held(self.folder)
            self.store.set_meta("keyword_dirty", "1")
            self.store.commit()
        growth = self._growth_per_byte(known)
        pending_bytes = sum(f.size for f in changed)  # of the changed files not committed yet
        keyword_behind = False  # SQLite committed a batch the keyword index has not
        done = 0  # files this run committed
        try:
            for row in deleted:
                self.store.delete_file(row.id)
                self.keyword.delete_file(row.id)
                stats.files_deleted += 1
            if progress and changed:
                progress("parse", 0, len(changed))  # the stage's start: the bar shows, the rate has a base
            with worker_pool(len(changed), in_process=self.config.env.parse_in_process) as pool:
                read = source or (lambda f: f.abspath)

                def args(start: int) -> list[tuple[str, str | bytes, str | None]]:
                    return [(f.path, read(f), known[f.path].hash if f.path in known else None)
                            for f in changed[start : start + FILE_BATCH]]

                # Workers run one batch ahead of the writer: parsing overlaps the SQLite/tantivy writes,
                # and at most two batches of parsed files are held in memory.
                ahead = pool.map(prepare_args, args(0), chunksize=4) if pool else None
                for start in range(0, len(changed), FILE_BATCH):
                    batch = changed[start : start + FILE_BATCH]
                    if pool:
                        assert ahead is not None  # mapped one batch ahead, None only after the last
                        results, nxt = ahead, args(start + FILE_BATCH)
                        ahead = pool.map(prepare_args, nxt, chunksize=4) if nxt else None
                    else:
                        results = map(prepare_args, args(start))
                    for f, prepared in zip(batch, results):
                        self._index_file(f, known, stats, prepared)
                    check_held(self.folder)  # the folder deleted under this run: stop before writing into it
                    self.store.commit()
                    done = stats.files_parsed + stats.files_deleted
                    keyword_behind = True
                    self.keyword.commit(final=False)
                    keyword_behind = False
                    pending_bytes -= sum(f.size for f in batch)
                    if progress:
                        progress("parse", min(start + FILE_BATCH, len(changed)), len(changed))
        except KeyboardInterrupt:
            stats.interrupted = True
            self.store.commit()  # what is in SQLite is whole files only: each file is one unit
            self.keyword.rollback()
            self.ensure_keyword_consistent()
            raise
        except WRITE_ERRORS + (IndexRemoved,) as exc:
            failure = self._write_failed(exc, keyword_behind, int(growth * max(pending_bytes, 0)), done)
            if failure is exc:
                raise
            raise failure from exc
        with self.writing(keyword_behind=True, done=stats.files_parsed + stats.files_deleted):
            self.keyword.commit()
            # A file that could not be read or parsed is not in the index: `status` lists it as skipped.
            self._finish_scan({**found.skipped, **self._failed_paths})
            grammar_status.save(self.store, stats.grammar_errors)
            self.store.set_meta("keyword_dirty", "0")
            self.store.bump("generation")
            self.store.bump("files_generation")  # the files and chunks changed (embedding bumps only the other)
            self.store.commit()
        stats.parse_seconds = time.perf_counter() - t0
        return stats

    @property
    def folder(self) -> Path:
        """The index folder (the one whose write lock the caller holds)."""
        return self.store.path.parent

    @contextmanager
    def writing(self, *, keyword_behind: bool = False, done: int = 0, kept: str | None = None) -> Iterator[None]:
        """Writes that fail (disk full, permission, I/O) become one :class:`IndexWriteError`, rolled back
        (arguments: :meth:`_write_failed`'s). Nested, the innermost says what the index kept."""
        try:
            yield
        except IndexWriteError:
            raise
        except WRITE_ERRORS as exc:
            failure = self._write_failed(exc, keyword_behind, done=done, kept=kept)
            if failure is exc:
                raise
            raise failure from exc

    def _write_failed(self, exc: BaseException, keyword_behind: bool, needed: int | None = None,
                      done: int = 0, kept: str | None = None) -> BaseException:
        """Roll back what is not committed and return the error to raise (``exc`` itself when it is no
        failed write). ``keyword_behind``: SQLite committed a batch the keyword index could not; ``done``: the
        files this run committed before the failure; ``kept``: what the index holds, said instead."""
        kept = kept or ("the index answers as it did before this run" if not done else
                        f"the index answers as before, with {done} files of this run in it")
        failure = exc if isinstance(exc, IndexRemoved) else write_failure(exc, self.folder, needed, kept)
        if failure is None:
            return exc
        try:
            self.store.rollback()
        except StoreError:
            pass
        if isinstance(failure, IndexRemoved):
            return failure  # nothing more is written: the folder may be another writer's new index by now
        try:
            self.keyword.rollback()
        except ValueError:
            pass
        if not keyword_behind:  # SQLite and the keyword index hold the same batches: no rebuild needed
            try:
                self.store.set_meta("keyword_dirty", "0")
                self.store.bump("generation")
                self.store.bump("files_generation")
                self.store.commit()
            except StoreError:  # no room even for that: the next run rebuilds the keyword index
                try:
                    self.store.rollback()
                except StoreError:
                    pass
        return failure

    def _growth_per_byte(self, known: dict) -> float:
        """Index bytes per source byte, from the index as it is (for the space a failed write says it needs)."""
        source = sum(row.size for row in known.values())
        if source < 1 << 20:  # a small index is mostly its fixed overhead
            return INDEX_PER_SOURCE_BYTE
        return max(1.0, folder_bytes(self.folder) / source)

    def _index_dir_ignore(self) -> tuple[str, ...]:
        """A configured index folder inside the root is never indexed (``.codesift`` never is either,
        whoever made it: another configuration of the same tree may keep its index there)."""
        return index_dir_ignore(self.root, self.config)

    def _finish_scan(self, skipped: dict[str, str]) -> None:
        self.store.set_skipped(skipped)
        self.store.set_meta("last_update", time.time())
        self.store.commit()

    def _index_file(self, f: SourceFile, known: dict, stats: UpdateStats,
                    prepared: "Prepared | None" = None) -> None:
        old = known.get(f.path)
        if prepared is None:
            prepared = prepare_file(f.path, f.abspath, old.hash if old is not None else None)
        if prepared.status == "unreadable" or prepared.status == "parse_error":
            self._failed(f, old, stats, prepared.status, prepared.error)
            return
        if prepared.status == "skipped":  # a git blob found binary once read: skipped, not a failure
            reason = prepared.warning or "skipped"
            stats.skipped[reason] = stats.skipped.get(reason, 0) + 1
            self._failed_paths[f.path] = reason
            if old is not None:
                self.store.delete_file(old.id)
                self.keyword.delete_file(old.id)
            return
        if prepared.status == "unchanged":
            assert old is not None  # "unchanged" means: the stored hash matched
            self.store.touch_file(old.id, f.size, f.mtime)
            stats.files_unchanged += 1
            return
        warning, chunks = prepared.warning, prepared.chunks
        if warning:
            key = warning.split(":")[0]
            stats.warnings[key] = stats.warnings.get(key, 0) + 1
            stats.warned_files[f.path] = key
        if prepared.grammar_error:  # indexed, but as line windows: said in `index` and `status`
            stats.warnings[GRAMMAR_FAILED] = stats.warnings.get(GRAMMAR_FAILED, 0) + 1
            stats.warned_files[f.path] = GRAMMAR_FAILED
            stats.grammar_errors[prepared.language] = prepared.grammar_error
            warning = GRAMMAR_FAILED
        if old is not None:
            self.keyword.delete_file(old.id)
        file_id, ids = self.store.replace_file(
            f.path, f.size, f.mtime, prepared.digest, prepared.language, chunks, prepared.hashes, warning,
            prepared.references, prepared.text, prepared.window_hashes,
        )
        for chunk_id, chunk, fields in zip(ids, chunks, prepared.fields):
            self.keyword.add_fields(chunk_id, file_id, f.path, chunk.language, chunk.kind, fields)
        self.store.clear_failure(f.path)
        stats.files_parsed += 1
        stats.chunks_added += len(chunks)

    def _failed(self, f: SourceFile, old: FileRow | None, stats: UpdateStats, reason: str,
                exc: BaseException | None) -> None:
        """Count a failure: the file leaves the index and, after a few in a row, is quarantined."""
        stats.warnings[reason] = stats.warnings.get(reason, 0) + 1
        stats.warned_files[f.path] = reason
        stats.skipped[reason] = stats.skipped.get(reason, 0) + 1
        self._failed_paths[f.path] = reason
        if old is not None:
            self.store.delete_file(old.id)
            self.keyword.delete_file(old.id)
        self.store.record_failure(f.path, f.size, f.mtime, f"{reason}: {type(exc).__name__}: {exc}")

    def embed_pending(
        self, embedder: Embedder, *, limit: int | None = None, progress: Progress | None = None,
        pending: int | None = None, lock: AbstractContextManager | None = None,
    ) -> int:
        """Embed chunks whose text has no vector yet, batch by batch; return how many were embedded.

        ``pending`` is the caller's fresh count of such texts, if it has one (saves a scan). With
        ``lock``, the store is only touched while holding it and the model runs without it, so a
        server's searches never wait for a batch to be embedded.
        Stops early (setting ``embed_error``) when the provider becomes unavailable. The order serves search
        soonest (:func:`embed_order`): the tree's own code and documentation, then tests and examples, then the
        files that dominate the chunks."""
        guard = lock if lock is not None else nullcontext()
        self.embed_error = None
        with guard:
            total = (self.store.count_missing_embeddings(with_windows=self.config.embed_windows)
                     if pending is None else pending)
            later = self._embed_order() if total else {}
        if limit is not None:
            total = min(total, limit)
        done = 0
        batch = self.config.embed_batch
        if progress and total:
            progress("embed", 0, total)  # the stage's start: the bar shows, the rate has a base
        while done < total:
            with guard, self.writing(kept=EMBEDDED_KEPT):
                check_held(self.folder)  # the folder deleted under this run: stop before embedding into it
                pairs = self._missing_texts(min(batch, total - done), later)
                if not pairs:
                    break
                cached = self._take_cached(embedder.model_id, [h for h, _, _ in pairs], embedder.dim)
                todo = [(h, cid, seq) for h, cid, seq in pairs if h not in cached]
                rows = self.store.chunks_by_id(cid for _, cid, _ in todo) if todo else {}
                shaped = [_text_of(rows[cid], seq, h) for h, cid, seq in todo]
                todo = [p for p, t in zip(todo, shaped) if t is not None]
                texts = [t for t in shaped if t is not None]
                if not todo:
                    self.store.bump("generation")
                    self.store.commit()
            if todo:
                try:
                    vectors = embedder.embed(texts)
                except EmbeddingUnavailable as exc:
                    # Provider down mid-run: keep what is embedded; the rest is filled in by a later run.
                    self.embed_error = exc
                    with guard:
                        self.store.commit()
                    break
                with guard, self.writing(kept=EMBEDDED_KEPT):
                    check_held(self.folder)
                    # Vectors are keyed by text: one whose chunk changed meanwhile is kept for its text.
                    self.store.put_vectors([h for h, _, _ in todo], vectors)
                    self.shared_cache.put_many(embedder.model_id, [h for h, _, _ in todo], vectors)
                    self.store.bump("generation")
                    self.store.commit()
            done += len(pairs)
            if progress:
                progress("embed", done, total)
        return done

    def _embed_order(self) -> dict[str, int]:
        """:func:`embed_order` of the index's files, counted again only when the files changed."""
        files_gen = self.store.get_meta("files_generation", "0") or "0"
        if self._order[0] != files_gen:
            self._order = (files_gen, embed_order(self.store.chunk_counts()))
        return self._order[1]

    def _missing_texts(self, limit: int, later: dict[str, int] | None = None) -> list[tuple[str, int, int]]:
        """(hash, chunk id, window number) of texts to embed: every chunk's own text (window -1) before any
        window of a long chunk's (store/windows.py), so hybrid search is complete as early as before; the
        chunks of the files in ``later`` (path → rank) after the others'."""
        pairs = [(h, cid, -1) for h, cid in self.store.missing_embeddings(limit, later)]
        if len(pairs) < limit and self.config.embed_windows:
            pairs += self.store.missing_window_embeddings(limit - len(pairs))
        return pairs

    def fill_from_cache(self, model_id: str, dim: int) -> int:
        """Give pending chunks the vectors the machine-wide cache holds for their texts, without running
        the model (another index on this machine, a worktree or a clone of the same code, computed them);
        stops at the first batch of which the cache holds under half (the texts it lacks stay pending, first
        in the next batch). Returns how many texts were filled."""
        filled = 0
        with self.writing(kept=EMBEDDED_KEPT):
            while pairs := self._missing_texts(self.config.embed_batch):  # one per text
                found = len(self._take_cached(model_id, [h for h, _, _ in pairs], dim))
                filled += found
                if 2 * found < len(pairs):
                    break
            if filled:
                self.store.bump("generation")
                self.store.commit()
        return filled

    def _take_cached(self, model_id: str, hashes: list[str], dim: int) -> set[str]:
        """Store the vectors another index on this machine already computed for these texts with this model;
        returns the hashes it had."""
        cached = self.shared_cache.get_many(model_id, hashes, dim)
        found = [h for h in hashes if h in cached]
        if found:
            self.store.put_vectors(found, np.stack([cached[h] for h in found]))
        return set(found)


def embed_order(chunks_by_file: dict[str, int]) -> dict[str, int]:
    """path → rank of the files whose chunks are embedded after the others' (from each file's chunk count):
    tests' and examples' files 1, files that dominate the chunks (``search.coverage.dominating``: generated
    bulk, most likely) 2. What people search first is embedded first, and hybrid search, which judges its
    coverage without the dominating files, uses vectors as soon as the rest is embedded."""
    order = {path: 1 for path in chunks_by_file if is_test_path(path) or is_example_path(path)}
    order.update((path, 2) for path, _ in dominating(chunks_by_file))
    return order


def index_dir_ignore(root: Path, config: Config) -> tuple[str, ...]:
    """The ignore pattern that keeps a configured index folder inside ``root`` out of discovery."""
    if not config.index_dir:
        return ()
    try:
        rel = Path(config.index_dir).expanduser().resolve().relative_to(root.resolve())
    except ValueError:
        return ()
    return (f"/{rel.as_posix()}/",)


def _text_of(row: ChunkRecord, window: int, digest: str) -> str | None:
    """What the dense model reads of a chunk (``window`` -1) or of one of its windows. None for a window whose
    text this codesift cuts otherwise (not ``digest``): a vector is stored under its own text's hash only (the
    cache is content-addressed), so that window waits for its file's re-parse."""
    chunk = row.to_chunk()
    if window < 0:
        return embed_text(chunk, row.path)
    texts = window_texts(chunk, row.path)
    text = texts[window] if window < len(texts) else None
    return text if text is not None and content_hash(text) == digest else None


def _keyword_doc(row: ChunkRecord) -> KeywordDoc:
    return KeywordDoc(
        row.id, row.file_id, row.path, row.language, row.kind, row.name, row.qualified_name,
        row.signature, " ".join(row.decorators), row.docstring, row.text,
    )
