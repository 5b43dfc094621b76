"""Window vectors of long chunks: which further texts of a chunk the dense model reads, and their vectors.

A chunk longer than the model's window gets one vector of its head and vocabulary (``text.model_input.embed_text``)
and up to ``text.model_input.MAX_WINDOWS`` more, one per window of the code past the head
(``text.model_input.window_texts``). Each window is a row here, keyed by its text's hash like a chunk's main text,
so its vector lives in the same content-addressed ``vectors`` table and the machine-wide cache. Window ids
come from ``AUTOINCREMENT``: never reused, so the window vector snapshot is patched by id difference as the
chunks' is. The rows are added and removed in the same transaction as their file's chunks.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable

import numpy as np

SCHEMA = """
CREATE TABLE IF NOT EXISTS windows (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    file_id INTEGER NOT NULL,
    chunk_id INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    hash TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS windows_file ON windows(file_id);
CREATE INDEX IF NOT EXISTS windows_hash ON windows(hash);
"""


def install(db: sqlite3.Connection) -> None:
    """Create the table (an older index fills it in the re-parse PARSER_VERSION 20 asks for)."""
    db.executescript(SCHEMA)


def add(db: sqlite3.Connection, file_id: int, chunk_ids: Iterable[int], hashes: Iterable[list[str]]) -> None:
    """The windows of one file's chunks: ``hashes[i]`` are chunk ``chunk_ids[i]``'s window text hashes, in order."""
    db.executemany(
        "INSERT INTO windows(file_id, chunk_id, seq, hash) VALUES(?,?,?,?)",
        [(file_id, cid, seq, h) for cid, hs in zip(chunk_ids, hashes) for seq, h in enumerate(hs)],
    )


def remove_file(db: sqlite3.Connection, file_id: int) -> None:
    db.execute("DELETE FROM windows WHERE file_id=?", (file_id,))


def missing(db: sqlite3.Connection, limit: int) -> list[tuple[str, int, int]]:
    """(hash, chunk id, seq) of window texts with no stored vector yet, one per hash."""
    rows = db.execute(
        "SELECT hash, chunk_id, seq FROM windows WHERE id IN (SELECT min(w.id) FROM windows w "
        "WHERE NOT EXISTS (SELECT 1 FROM vectors v WHERE v.hash = w.hash) GROUP BY w.hash LIMIT ?)",
        (limit,),
    ).fetchall()
    return [(r[0], r[1], r[2]) for r in rows]


def count_missing(db: sqlite3.Connection) -> int:
    return int(db.execute(
        "SELECT count(DISTINCT hash) FROM windows w WHERE NOT EXISTS (SELECT 1 FROM vectors v WHERE v.hash = w.hash)"
    ).fetchone()[0])


def count(db: sqlite3.Connection) -> tuple[int, int]:
    """(windows, windows with a vector); (0, 0) for an index made before windows, opened read-only."""
    try:
        total = db.execute("SELECT count(*) FROM windows").fetchone()[0]
    except sqlite3.OperationalError:
        return 0, 0
    done = db.execute(
        "SELECT count(*) FROM windows w WHERE EXISTS (SELECT 1 FROM vectors v WHERE v.hash = w.hash)"
    ).fetchone()[0]
    return total, done


def embedded_ids(db: sqlite3.Connection) -> np.ndarray:
    """Ids of every window that has a vector, ascending."""
    rows = db.execute(
        "SELECT w.id FROM windows w WHERE EXISTS (SELECT 1 FROM vectors v WHERE v.hash = w.hash) ORDER BY w.id"
    ).fetchall()
    return np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows))


def vectors_for(db: sqlite3.Connection, ids: np.ndarray, dim: int) -> np.ndarray:
    """float16 vectors of the given window ids, in the same order (zeros where one is missing)."""
    out = np.zeros((len(ids), dim), dtype=np.float16)
    pos = {int(i): n for n, i in enumerate(ids)}
    for wid, blob in _rows_in(db, "SELECT w.id, v.vec FROM windows w JOIN vectors v ON v.hash = w.hash "
                                  "WHERE w.id IN ({})", list(pos)):
        out[pos[wid]] = np.frombuffer(blob, dtype=np.float16)
    return out


def owners(db: sqlite3.Connection, ids: np.ndarray) -> np.ndarray:
    """The chunk id of each window id, in the same order (-1 for a window no longer there)."""
    owner = dict(db.execute("SELECT id, chunk_id FROM windows").fetchall())
    return np.fromiter((owner.get(int(i), -1) for i in ids), dtype=np.int64, count=len(ids))


def _rows_in(db: sqlite3.Connection, sql: str, keys: list[int]) -> Iterable[tuple[int, bytes]]:
    """The (id, vector) rows of ``sql`` (its ``{}`` the IN list) for ``keys``, 900 at a time
    (SQLite's parameter limit)."""
    for start in range(0, len(keys), 900):
        part = keys[start : start + 900]
        yield from db.execute(sql.format(",".join("?" * len(part))), part)


def embedded_by_chunk(db: sqlite3.Connection) -> dict[int, int]:
    """chunk id → how many of its windows have a vector (chunks with none left out)."""
    rows = db.execute(
        "SELECT chunk_id, count(*) FROM windows w WHERE EXISTS (SELECT 1 FROM vectors v WHERE v.hash = w.hash) "
        "GROUP BY chunk_id"
    ).fetchall()
    return {r[0]: r[1] for r in rows}


def vectors_by_chunk(db: sqlite3.Connection, chunk_ids: Iterable[int], dim: int) -> dict[int, np.ndarray]:
    """chunk id → its embedded windows' float16 vectors, one row each in window order (chunks with none left out)."""
    found: dict[int, list[np.ndarray]] = {}
    for cid, blob in _rows_in(db, "SELECT w.chunk_id, v.vec FROM windows w JOIN vectors v ON v.hash = w.hash "
                                  "WHERE w.chunk_id IN ({}) ORDER BY w.chunk_id, w.seq", list(chunk_ids)):
        found.setdefault(cid, []).append(np.frombuffer(blob, dtype=np.float16))
    return {cid: np.stack(vecs).reshape(len(vecs), dim) for cid, vecs in found.items()}
