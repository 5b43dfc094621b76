"""Git history in the index: commit messages and changed paths, for ``search_commits`` and ``get_commit``.

Three tables beside the code's: ``commits`` (one row per commit, keyed by sha), ``commit_paths`` (the
paths each commit changed, with git's status letter) and ``commit_terms``, an FTS5 table over the
commit's subject, body and paths as codesift's own tokenizer splits them (``getAuthToken`` →
``getauthtoken get auth token``), ranked by FTS5's BM25. FTS5 rather than a second tantivy index: the
terms are written in the same transaction as their commit, so there is no second writer, lock, commit
or crash repair to keep in step, and a few thousand short messages need nothing faster. The dense side
reuses the ``vectors`` table (content-addressed by the hash of the embedded text, like chunk vectors).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

SCHEMA = """
CREATE TABLE IF NOT EXISTS commits (
    id INTEGER PRIMARY KEY,
    sha TEXT NOT NULL UNIQUE,
    time INTEGER NOT NULL,
    date TEXT NOT NULL,
    author TEXT NOT NULL,
    email TEXT NOT NULL,
    subject TEXT NOT NULL,
    body TEXT NOT NULL,
    embed_hash TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS commits_time ON commits(time);
CREATE TABLE IF NOT EXISTS commit_paths (
    commit_id INTEGER NOT NULL, path TEXT NOT NULL, status TEXT NOT NULL, old_path TEXT,
    PRIMARY KEY (commit_id, path)
) WITHOUT ROWID;
CREATE VIRTUAL TABLE IF NOT EXISTS commit_terms USING fts5(
    subject, body, paths, tokenize='unicode61 remove_diacritics 0', content=''
);
"""

# BM25 column weights (subject, body, paths): the subject says what a commit does in a few words.
WEIGHTS = (2.0, 1.0, 0.5)


@dataclass(frozen=True, slots=True)
class CommitRow:
    """One indexed commit; ``paths`` are (path, status, old path) triples: status A, M, D, R (renamed from
    the old path), C (copied from it), T (type changed); the old path is None unless R or C."""

    id: int
    sha: str
    time: int
    date: str
    author: str
    email: str
    subject: str
    body: str
    paths: tuple[tuple[str, str, str | None], ...] = ()


@dataclass(frozen=True, slots=True)
class NewCommit:
    """A commit to index: its metadata, changed paths, embedding hash and tokenized fields."""

    sha: str
    time: int
    date: str
    author: str
    email: str
    subject: str
    body: str
    paths: tuple[tuple[str, str, str | None], ...]
    embed_hash: str
    terms: tuple[str, str, str]  # subject, body, paths as whitespace-joined index terms


def _filter_sql(path: str | None, since: int | None) -> tuple[str, list[object]]:
    """WHERE clause over ``commits c``: touches a path prefix (a file or a folder), not older than ``since``."""
    where: list[str] = ["1"]
    params: list[object] = []
    if path:
        folder = path.rstrip("/") + "/"
        touches = "(p.{0} = ? OR (p.{0} >= ? AND p.{0} < ?))"
        where.append(f"EXISTS (SELECT 1 FROM commit_paths p WHERE p.commit_id = c.id AND "
                     f"({touches.format('path')} OR {touches.format('old_path')}))")
        params += [path.rstrip("/"), folder, folder + "\U0010ffff"] * 2
    if since is not None:
        where.append("c.time >= ?")
        params.append(since)
    return " AND ".join(where), params


def _match(terms: Iterable[str], op: str) -> str:
    return f" {op} ".join('"' + t.replace('"', '""') + '"' for t in terms)


class CommitStore:
    """The history tables of one index database (the store's connection; the caller commits)."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db
        if db.execute("SELECT 1 FROM sqlite_master WHERE name = 'commits'").fetchone() is None:
            db.executescript(SCHEMA)

    def known_shas(self) -> set[str]:
        return {r[0] for r in self.db.execute("SELECT sha FROM commits")}

    def count(self) -> int:
        return int(self.db.execute("SELECT count(*) FROM commits").fetchone()[0])

    def add(self, commits: Sequence[NewCommit]) -> None:
        """Insert commits (shas not yet indexed), their paths and their terms; the caller commits."""
        for c in commits:
            cur = self.db.execute(
                "INSERT INTO commits(sha, time, date, author, email, subject, body, embed_hash) "
                "VALUES(?,?,?,?,?,?,?,?)",
                (c.sha, c.time, c.date, c.author, c.email, c.subject, c.body, c.embed_hash))
            cid = int(cur.lastrowid or 0)
            self.db.executemany("INSERT OR IGNORE INTO commit_paths(commit_id, path, status, old_path) "
                                "VALUES(?,?,?,?)", [(cid, *p) for p in c.paths])
            self.db.execute("INSERT INTO commit_terms(rowid, subject, body, paths) VALUES(?,?,?,?)",
                            (cid, *c.terms))

    def keyword_search(self, terms: Sequence[str], limit: int, *, path: str | None = None,
                       since: int | None = None) -> list[tuple[int, float]]:
        """(commit id, BM25 score) best first: commits holding every term first, then any term."""
        if not terms:
            return []
        where, params = _filter_sql(path, since)
        sql = (f"SELECT c.id, -bm25(commit_terms, {', '.join(map(str, WEIGHTS))}) AS score FROM commit_terms "
               f"JOIN commits c ON c.id = commit_terms.rowid WHERE commit_terms MATCH ? AND {where} "
               "ORDER BY score DESC, c.time DESC LIMIT ?")
        out: list[tuple[int, float]] = []
        for op in (("AND", "OR") if len(terms) > 1 else ("OR",)):
            seen = {cid for cid, _ in out}
            rows = self.db.execute(sql, [_match(terms, op), *params, limit]).fetchall()
            out += [(int(r[0]), float(r[1])) for r in rows if r[0] not in seen]
            if len(out) >= limit:
                break
        return out[:limit]

    def filtered_ids(self, path: str | None, since: int | None) -> np.ndarray:
        where, params = _filter_sql(path, since)
        rows = self.db.execute(f"SELECT c.id FROM commits c WHERE {where}", params).fetchall()
        return np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows))

    def rows(self, ids: Sequence[int]) -> dict[int, CommitRow]:
        """Commits by id, with their paths."""
        out: dict[int, CommitRow] = {}
        for start in range(0, len(ids), 500):
            part = list(ids[start : start + 500])
            marks = ",".join("?" * len(part))
            paths: dict[int, list[tuple[str, str, str | None]]] = {}
            for cid, p, s, old in self.db.execute(
                    f"SELECT commit_id, path, status, old_path FROM commit_paths WHERE commit_id IN ({marks})", part):
                paths.setdefault(cid, []).append((p, s, old))
            for cid, sha, time, date, author, email, subject, body in self.db.execute(
                    "SELECT id, sha, time, date, author, email, subject, body FROM commits "
                    f"WHERE id IN ({marks})", part):
                out[cid] = CommitRow(cid, sha, time, date, author, email, subject, body,
                                     paths=tuple(sorted(paths.get(cid, []))))
        return out

    def by_prefix(self, prefix: str, limit: int = 5) -> list[str]:
        """Indexed shas beginning with ``prefix`` (lower-case hex)."""
        sql = "SELECT sha FROM commits WHERE sha >= ? AND sha < ? ORDER BY sha LIMIT ?"
        return [r[0] for r in self.db.execute(sql, (prefix, prefix + "g", limit))]

    def unembedded(self) -> list[tuple[str, str, str]]:
        """(embed hash, subject, body) of commits whose text has no vector yet, newest first, one per hash."""
        return [(r[0], r[1], r[2]) for r in self.db.execute(
            "SELECT embed_hash, subject, body FROM commits c WHERE NOT EXISTS "
            "(SELECT 1 FROM vectors v WHERE v.hash = c.embed_hash) GROUP BY embed_hash ORDER BY max(time) DESC")]

    def count_embedded(self) -> int:
        return int(self.db.execute("SELECT count(*) FROM commits c WHERE EXISTS "
                                   "(SELECT 1 FROM vectors v WHERE v.hash = c.embed_hash)").fetchone()[0])

    def vectors(self, dim: int) -> tuple[np.ndarray, np.ndarray]:
        """(commit ids, float16 matrix) of every embedded commit."""
        found = [(r[0], r[1]) for r in self.db.execute(
            "SELECT c.id, v.vec FROM commits c JOIN vectors v ON v.hash = c.embed_hash ORDER BY c.id")
            if len(r[1]) == 2 * dim]
        ids = np.fromiter((cid for cid, _ in found), dtype=np.int64, count=len(found))
        mat = np.frombuffer(b"".join(blob for _, blob in found), dtype=np.float16).reshape(len(found), dim)
        return ids, mat
