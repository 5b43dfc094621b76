"""SQLite metadata store: files, chunks, the content-addressed vector cache, skip reasons, settings.

SQLite is the source of truth. The keyword and vector indexes are derived from it and rebuilt from it
whenever their recorded generation disagrees (after a crash between the two commits, say).
"""

from __future__ import annotations

import functools
import json
import re
import sqlite3
import time
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path

import numpy as np

from codesift.datatypes import Chunk
from codesift.store import grams, names, refs, windows
from codesift.store.commits import CommitStore
from codesift.store.schema import TABLES
from codesift.store.damage import IndexDamaged, header_problem, is_damage
from codesift.store.reads import FilterLike, ReadQueries, filter_sql
from codesift.store.records import ChunkRecord, chunk_record

StoreError = sqlite3.Error  # what a failed store query raises, for callers outside store/


CHUNK_COLUMNS = (
    "id, file_id, path, kind, name, qualified_name, parent, language, start_line, end_line, "
    "signature, docstring, decorators, route, text, embed_hash"
)
_CHUNK_SELECT = (
    "SELECT c.id, c.file_id, c.path, c.kind, c.name, c.qualified_name, c.parent, c.language, "
    "c.start_line, c.end_line, c.signature, c.docstring, c.decorators, c.route, c.text, c.embed_hash, "
    "f.mtime FROM chunks c JOIN files f ON f.id = c.file_id"
)


@functools.lru_cache(maxsize=64)
def _compiled(regex: str) -> re.Pattern[str]:
    return re.compile(regex)


def _path_match(path: str, regex: str) -> int:
    """SQL function: the keyword engine's full-match path regex, so both retrievers filter alike."""
    return 1 if _compiled(regex).fullmatch(path) else 0


class FileRow:
    """What the indexer needs to know about a file it indexed before."""

    __slots__ = ("id", "path", "size", "mtime", "hash")

    def __init__(self, id: int, path: str, size: int, mtime: float, hash: str) -> None:
        self.id, self.path, self.size, self.mtime, self.hash = id, path, size, mtime, hash


class MetaStore(ReadQueries):
    """Thin typed wrapper over the index's SQLite database (WAL mode: readers never block the writer)."""

    def __init__(self, path: Path, *, readonly: bool = False, thorough: bool = False) -> None:
        """Open (or create) the database at ``path``; raise :class:`IndexDamaged` when it is damaged: its header
        is checked first (microseconds), then SQLite reads its schema. ``thorough``: also run SQLite's
        ``quick_check`` (reads every page: ~10 ms for flask's 10 MB, linear in the size)."""
        self.path = path
        problem = header_problem(path)
        if problem:
            raise IndexDamaged(path, problem)
        try:
            self._open(path, readonly)
            self.db.execute("SELECT count(*) FROM sqlite_master").fetchone()  # SQLite's own header and schema checks
            if not readonly:
                self.get_meta("schema_version")  # the settings' page: what every open reads next
            problem = self.quick_check() if thorough else None
        except sqlite3.DatabaseError as exc:
            self._close_quietly()
            if is_damage(exc):
                raise IndexDamaged(path, str(exc)) from exc
            raise
        if problem:
            self._close_quietly()
            raise IndexDamaged(path, problem)
        self._next_chunk_id: int | None = None

    def _close_quietly(self) -> None:
        db = getattr(self, "db", None)
        if db is not None:
            try:
                db.close()
            except sqlite3.Error:
                pass

    def quick_check(self) -> str | None:
        """SQLite's ``PRAGMA quick_check`` (every page read, indexes not matched against their tables): None when
        the database is whole, else its first complaints."""
        return self._check("quick_check")

    def integrity_check(self) -> str | None:
        """SQLite's thorough ``PRAGMA integrity_check`` (``codesift doctor``): None when whole, else what is wrong."""
        return self._check("integrity_check")

    def _check(self, pragma: str) -> str | None:
        try:
            rows = [str(r[0]) for r in self.db.execute(f"PRAGMA {pragma}(3)").fetchall()]
        except sqlite3.DatabaseError as exc:
            if not is_damage(exc):
                raise
            return str(exc)
        if rows == ["ok"]:
            return None
        said = [ln for row in rows for ln in row.splitlines() if ln.strip() and not ln.startswith("***")]
        return "; ".join(said)[:300] or "SQLite's check failed"  # one line: "Page 24: btreeInitPage() ..."

    def _open(self, path: Path, readonly: bool) -> None:
        if readonly:
            uri = f"file:{path}?mode=ro"
            self.db = sqlite3.connect(uri, uri=True, check_same_thread=False, timeout=30)
        else:
            self.db = sqlite3.connect(path, check_same_thread=False, timeout=30)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
            # Checkpoint every ~32 MB of WAL instead of 4 MB: a cold index rewrites the same B-tree pages
            # less often (measured ~1 s of 26 on django); the file is cut back to 32 MB afterwards.
            self.db.execute("PRAGMA wal_autocheckpoint=8192")
            self.db.execute("PRAGMA journal_size_limit=33554432")
            self.db.executescript(TABLES)
            if not refs.is_old_layout(self.db):
                self.db.executescript(refs.SCHEMA)
            names.install(self.db)
            grams.install(self.db)
            windows.install(self.db)
        self.db.execute("PRAGMA foreign_keys=ON")
        self.db.create_function("codesift_path_match", 2, _path_match, deterministic=True)
        self.db.row_factory = sqlite3.Row

    def close(self) -> None:
        self.db.close()

    @functools.cached_property
    def history(self) -> CommitStore:
        """The git-history tables (``store/commits.py``), created on first use."""
        return CommitStore(self.db)

    def commit(self) -> None:
        self.db.commit()

    def rollback(self) -> None:
        """Drop what this connection wrote since its last commit (a failed write's batch)."""
        self.db.rollback()

    # -- settings -------------------------------------------------------------------------------
    def get_meta(self, key: str, default: str | None = None) -> str | None:
        row = self.db.execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone()
        return row[0] if row else default

    def set_meta(self, key: str, value: object) -> None:
        self.db.execute(
            "INSERT INTO meta(key, value) VALUES(?, ?) ON CONFLICT(key) DO UPDATE SET value=excluded.value",
            (key, str(value)),
        )

    def bump(self, key: str) -> int:
        """Increment an integer generation counter and return its new value."""
        value = int(self.get_meta(key, "0") or 0) + 1
        self.set_meta(key, value)
        return value

    # -- files ----------------------------------------------------------------------------------
    def files(self) -> dict[str, FileRow]:
        rows = self.db.execute("SELECT id, path, size, mtime, hash FROM files")
        return {r[1]: FileRow(*r) for r in rows}

    def touch_file(self, file_id: int, size: int, mtime: float) -> None:
        self.db.execute("UPDATE files SET size=?, mtime=? WHERE id=?", (size, mtime, file_id))

    def delete_file(self, file_id: int) -> None:
        self._delete_contents(file_id)
        self.db.execute("DELETE FROM files WHERE id=?", (file_id,))

    def _delete_contents(self, file_id: int) -> None:
        self.db.execute("DELETE FROM refs WHERE file_id=?", (file_id,))
        names.remove_file(self.db, file_id)
        grams.remove_file(self.db, file_id)
        windows.remove_file(self.db, file_id)
        self.db.execute("DELETE FROM chunks WHERE file_id=?", (file_id,))

    def migrate_from(self, version: str) -> bool:
        """Bring an index of an older schema up to date; False when ``version`` is not known.

        1 → 2: the references table changed layout. It is recreated empty and every file is marked
        changed, so the next update re-parses the tree (vectors are kept: they are keyed by text).
        2 → 3: file texts for grep (store/grams.py), filled in by that same re-parse."""
        if version not in ("1", "2"):
            return False
        if version == "1" and refs.is_old_layout(self.db):
            self.db.execute("DROP TABLE refs")
        self.db.executescript(refs.SCHEMA)
        self.mark_all_changed()
        return True

    def mark_all_changed(self) -> None:
        """Make the next update re-parse every file (its content hash no longer matches)."""
        self.db.execute("UPDATE files SET size = -1, hash = ''")

    def replace_file(
        self,
        path: str,
        size: int,
        mtime: float,
        digest: str,
        language: str | None,
        chunks: list[Chunk],
        embed_hashes: list[str],
        warning: str | None = None,
        references: refs.Packed | None = None,
        text: str | None = None,
        window_hashes: list[list[str]] | None = None,
    ) -> tuple[int, list[int]]:
        """Insert or replace a file, its chunks, their names, their windows' text hashes (store/windows.py) and
        the file's references (as packed by :func:`codesift.store.refs.pack`); return (file_id, chunk ids)."""
        row = self.db.execute("SELECT id FROM files WHERE path=?", (path,)).fetchone()
        now = time.time()
        if row:
            file_id = row[0]
            self._delete_contents(file_id)
            self.db.execute(
                "UPDATE files SET size=?, mtime=?, hash=?, language=?, indexed_at=?, warning=? WHERE id=?",
                (size, mtime, digest, language, now, warning, file_id),
            )
        else:
            cur = self.db.execute(
                "INSERT INTO files(path, size, mtime, hash, language, indexed_at, warning) "
                "VALUES(?,?,?,?,?,?,?)",
                (path, size, mtime, digest, language, now, warning),
            )
            file_id = int(cur.lastrowid or 0)
        first = self._take_chunk_ids(len(chunks))
        ids = list(range(first, first + len(chunks)))
        self.db.executemany(
            "INSERT INTO chunks(id, file_id, path, kind, name, qualified_name, parent, language, "
            "start_line, end_line, signature, docstring, decorators, route, text, embed_hash) "
            "VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            [
                (
                    cid, file_id, path, chunk.kind, chunk.name, chunk.qualified_name, chunk.parent,
                    chunk.language, chunk.start_line, chunk.end_line, chunk.signature,
                    chunk.docstring, json.dumps(chunk.decorators), chunk.route, chunk.text, eh,
                )
                for cid, chunk, eh in zip(ids, chunks, embed_hashes)
            ],
        )
        names.add(self.db, [(cid, c.name, c.qualified_name) for cid, c in zip(ids, chunks)
                            if c.kind not in names.NON_SYMBOL_KINDS])
        if window_hashes:
            windows.add(self.db, file_id, ids, window_hashes)
        if references:
            refs.insert(self.db, file_id, references)
        if text is not None:  # the file's decoded text, for grep's trigram index
            grams.add(self.db, file_id, text)
        return file_id, ids

    def _take_chunk_ids(self, n: int) -> int:
        """Reserve ``n`` fresh chunk ids. Ids are never reused, not even after the highest is deleted:
        the vector snapshot is patched by id difference and relies on it."""
        if self._next_chunk_id is None:
            stored = int(self.get_meta("next_chunk_id", "1") or 1)
            top = self.db.execute("SELECT coalesce(max(id), 0) + 1 FROM chunks").fetchone()[0]
            self._next_chunk_id = max(stored, top)
        first = self._next_chunk_id
        self._next_chunk_id += n
        self.set_meta("next_chunk_id", self._next_chunk_id)
        return first

    def set_skipped(self, skipped: dict[str, str]) -> None:
        self.db.execute("DELETE FROM skipped")
        self.db.executemany("INSERT INTO skipped(path, reason) VALUES(?, ?)", skipped.items())

    def record_failure(self, path: str, size: int, mtime: float, error: str) -> int:
        """Count one more failure of ``path`` (reset when the file changed); return the new count."""
        row = self.db.execute("SELECT count, size, mtime FROM failures WHERE path=?", (path,)).fetchone()
        count = row[0] + 1 if row and row[1] == size and row[2] == mtime else 1
        self.db.execute(
            "INSERT OR REPLACE INTO failures(path, count, size, mtime, error) VALUES(?,?,?,?,?)",
            (path, count, size, mtime, error[:500]),
        )
        return count

    def clear_failure(self, path: str) -> None:
        self.db.execute("DELETE FROM failures WHERE path=?", (path,))

    def quarantined(self, threshold: int) -> dict[str, tuple[int, float, str]]:
        """path → (size, mtime, error) for files that failed ``threshold`` times in a row unchanged."""
        rows = self.db.execute("SELECT path, size, mtime, error FROM failures WHERE count >= ?", (threshold,))
        return {r[0]: (r[1], r[2], r[3]) for r in rows}

    def skipped(self) -> dict[str, str]:
        return dict(self.db.execute("SELECT path, reason FROM skipped").fetchall())

    def skip_reason(self, path: str) -> str | None:
        """Why the last update left the file ``path`` out (``binary``, ``too_large``…), None when it did not
        list it (indexed, new since, or plainly ignored)."""
        row = self.db.execute("SELECT reason FROM skipped WHERE path=?", (path,)).fetchone()
        return str(row[0]) if row else None

    # -- chunks ---------------------------------------------------------------------------------
    def chunks_by_id(self, ids: Iterable[int], *, with_text: bool = True) -> dict[int, ChunkRecord]:
        """Chunk records (with the file's mtime) by id; ``with_text=False`` leaves the body out (as '')."""
        ids = list(ids)
        out: dict[int, ChunkRecord] = {}
        select = _CHUNK_SELECT if with_text else _CHUNK_SELECT.replace("c.text,", "'' AS text,")
        cur = self.db.cursor()
        cur.row_factory = chunk_record
        for start in range(0, len(ids), 500):
            part = ids[start : start + 500]
            marks = ",".join("?" * len(part))
            for rec in cur.execute(f"{select} WHERE c.id IN ({marks})", part):
                out[rec.id] = rec
        return out

    def iter_chunks(self, batch: int = 2000) -> Iterator[ChunkRecord]:
        """Every chunk, in id order, streamed without holding the table in memory (``mtime`` is 0.0)."""
        last = 0
        cur = self.db.cursor()
        cur.row_factory = chunk_record
        while True:
            rows = cur.execute(
                f"SELECT {CHUNK_COLUMNS}, 0.0 AS mtime FROM chunks WHERE id > ? ORDER BY id LIMIT ?", (last, batch)
            ).fetchall()
            if not rows:
                return
            yield from rows
            last = rows[-1].id

    def count_embedded(self) -> int:
        """Chunks that have a vector: one probe of the vector table per chunk (~150 ms at 100k)."""
        return int(self.db.execute(
            "SELECT count(*) FROM chunks c WHERE EXISTS (SELECT 1 FROM vectors v WHERE v.hash=c.embed_hash)"
        ).fetchone()[0])

    def counts(self, *, embedded: int | None = None) -> dict[str, int]:
        """Files, chunks, symbols and embedded chunks; pass ``embedded`` when the caller already knows it."""
        q = self.db.execute
        if embedded is None:
            embedded = self.count_embedded()
        return {
            "files": q("SELECT count(*) FROM files").fetchone()[0],
            "chunks": q("SELECT count(*) FROM chunks").fetchone()[0],
            "symbols": q("SELECT count(*) FROM names").fetchone()[0],  # one names row per definition chunk
            "embedded": embedded,
        }

    def languages(self) -> dict[str, int]:
        rows = self.db.execute("SELECT language, count(*) FROM files GROUP BY language ORDER BY 2 DESC")
        return {r[0] or "unknown": r[1] for r in rows}

    def ids_by_name(self, names: list[str], filters: FilterLike | None = None) -> list[int]:
        """Definition chunks passing ``filters`` whose name equals one of ``names`` (case-insensitive),
        through the index."""
        where, params = filter_sql(filters)
        out: list[int] = []
        for name in dict.fromkeys(n.rsplit(".", 1)[-1] for n in names if n):
            rows = self.db.execute(
                f"SELECT id FROM chunks WHERE name = ? COLLATE NOCASE AND kind NOT IN ('module','window','section') "
                f"AND {where} LIMIT 50",
                [name, *(params or [])],
            )
            out += [r[0] for r in rows]
        return out

    def filtered_ids(self, filters: FilterLike) -> np.ndarray:
        """Chunk ids passing ``filters`` (path, language, kind), as the keyword engine filters them."""
        where, params = filter_sql(filters)
        rows = self.db.execute(f"SELECT id FROM chunks WHERE {where}", params).fetchall()
        return np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows))

    # -- vectors --------------------------------------------------------------------------------
    def missing_embeddings(self, limit: int, later: Mapping[str, int] | None = None) -> list[tuple[str, int]]:
        """(embed_hash, chunk id) pairs for chunk texts with no stored vector yet, one per hash.

        ``later``: path → rank (1, 2, …) of the files whose chunks come after every other file's, lower ranks
        first, each rank in chunk id order (the order the files were parsed in); without it, in no order. Each
        rank is read in id order and stops at ``limit``: no sort of every missing chunk per batch."""
        missing = "NOT EXISTS (SELECT 1 FROM vectors v WHERE v.hash = c.embed_hash)"
        if not later:
            rows = self.db.execute(f"SELECT c.embed_hash, min(c.id) FROM chunks c WHERE {missing} "
                                   "GROUP BY c.embed_hash LIMIT ?", (limit,)).fetchall()
            return [(r[0], r[1]) for r in rows]
        out: dict[str, int] = {}
        tiers = [("NOT IN", sorted(later))]
        tiers += [("IN", sorted(p for p, r in later.items() if r == rank)) for rank in sorted(set(later.values()))]
        for op, paths in tiers:
            found = self.db.execute(
                f"SELECT c.embed_hash, c.id FROM chunks c WHERE c.path {op} (SELECT value FROM json_each(?)) "
                f"AND {missing} ORDER BY c.id LIMIT ?", (json.dumps(paths), limit - len(out)))
            for digest, cid in found:
                out.setdefault(digest, cid)  # one per text: the first chunk that has it
            if len(out) >= limit:
                break
        return list(out.items())

    def count_missing_embeddings(self, *, with_windows: bool = True) -> int:
        """Texts with no stored vector yet: chunks' and, ``with_windows``, their windows' (store/windows.py)."""
        chunks = int(self.db.execute(
            "SELECT count(DISTINCT embed_hash) FROM chunks c "
            "WHERE NOT EXISTS (SELECT 1 FROM vectors v WHERE v.hash = c.embed_hash)"
        ).fetchone()[0])
        return chunks + (windows.count_missing(self.db) if with_windows else 0)

    def missing_window_embeddings(self, limit: int) -> list[tuple[str, int, int]]:
        """(hash, chunk id, window number) of window texts with no stored vector yet, one per hash."""
        return windows.missing(self.db, limit)

    def window_counts(self) -> tuple[int, int]:
        """(windows, windows with a vector)."""
        return windows.count(self.db)

    def embedded_window_ids(self) -> np.ndarray:
        return windows.embedded_ids(self.db)

    def window_vectors_for(self, ids: np.ndarray, dim: int) -> np.ndarray:
        return windows.vectors_for(self.db, ids, dim)

    def embedded_windows_by_chunk(self) -> dict[int, int]:
        """chunk id → how many of its windows have a vector."""
        return windows.embedded_by_chunk(self.db)

    def window_vectors_by_chunk(self, chunk_ids: Iterable[int], dim: int) -> dict[int, np.ndarray]:
        """chunk id → its embedded windows' vectors (rows, in window order)."""
        return windows.vectors_by_chunk(self.db, chunk_ids, dim)

    def window_owners(self, ids: np.ndarray) -> np.ndarray:
        """The chunk id of each window id (-1: gone)."""
        return windows.owners(self.db, ids)

    def reset_vectors(self, model_id: str, dim: int) -> None:
        """Forget every vector (another model made them) and record the model that makes the next ones;
        committed at once. The machine-wide cache keeps the old ones under their model's id."""
        self.db.execute("DELETE FROM vectors")
        self.set_meta("model_id", model_id)
        self.set_meta("model_dim", dim)
        self.bump("generation")
        self.db.commit()

    def prune_vectors(self) -> int:
        """Delete the vectors no chunk (nor indexed commit) uses any more — texts that were edited away —
        and return how many; committed. The machine-wide cache still holds them."""
        keep = "SELECT embed_hash FROM chunks UNION SELECT hash FROM windows"
        if self.db.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name='commits'").fetchone():
            keep += " UNION SELECT embed_hash FROM commits"
        removed = self.db.execute(f"DELETE FROM vectors WHERE hash NOT IN ({keep})").rowcount
        self.db.commit()
        return removed

    def put_vectors(self, hashes: list[str], vecs: np.ndarray) -> None:
        data = vecs.astype(np.float16)
        self.db.executemany(
            "INSERT OR REPLACE INTO vectors(hash, vec) VALUES(?, ?)",
            ((h, data[i].tobytes()) for i, h in enumerate(hashes)),
        )

    def embedded_chunk_ids(self) -> np.ndarray:
        """Ids of every chunk that has a vector, ascending."""
        rows = self.db.execute(
            "SELECT c.id FROM chunks c WHERE EXISTS (SELECT 1 FROM vectors v WHERE v.hash = c.embed_hash) ORDER BY c.id"
        ).fetchall()
        return np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows))

    def vectors_for(self, ids: np.ndarray, dim: int) -> np.ndarray:
        """float16 vectors of the given chunk ids, in the same order (zeros where one is missing)."""
        out = np.zeros((len(ids), dim), dtype=np.float16)
        pos = {int(cid): i for i, cid in enumerate(ids)}
        keys = list(pos)
        for start in range(0, len(keys), 900):
            part = keys[start : start + 900]
            marks = ",".join("?" * len(part))
            for cid, blob in self.db.execute(
                "SELECT c.id, v.vec FROM chunks c JOIN vectors v ON v.hash = c.embed_hash "
                f"WHERE c.id IN ({marks})", part
            ):
                out[pos[cid]] = np.frombuffer(blob, dtype=np.float16)
        return out
