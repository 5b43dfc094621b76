"""The content index behind ``grep``: which files can contain a string, without reading any of them.

One FTS5 document per file (rowid = the file's id) over its decoded text, with the trigram tokenizer,
``detail=none`` (no positions: ~5 MB for django's 27 MB of text, against 54 MB with positions) and no
stored copy. A string is looked up as the AND of its trigrams, which names a superset of the files
holding it; ``codesift.tools.grep`` confirms every hit in the live file. The tokenizer folds case, so
one index serves case-sensitive and case-insensitive searches.

An FTS5 row without stored content can only be removed by handing FTS5 the same text again (SQLite
3.40 has no ``contentless_delete``), so each file's text is also kept zlib-compressed in ``grep_text``.
The store adds and removes both in the same transaction as the file's chunks.
"""

from __future__ import annotations

import sqlite3
import zlib
from collections.abc import Iterable

SCHEMA = """
CREATE TABLE IF NOT EXISTS grep_text (file_id INTEGER PRIMARY KEY, body BLOB NOT NULL);
CREATE VIRTUAL TABLE IF NOT EXISTS grep_grams
    USING fts5(body, tokenize='trigram', detail=none, content='', columnsize=0);
"""

MIN_LITERAL = 3  # a trigram index needs at least one whole trigram
MAX_GRAMS = 16  # trigrams looked up per string: spread over a long string, they are as selective as all


def install(db: sqlite3.Connection) -> bool:
    """Create the tables; True when they were not there before (an older index: its files need a re-parse)."""
    fresh = db.execute("SELECT 1 FROM sqlite_master WHERE name='grep_text'").fetchone() is None
    db.executescript(SCHEMA)
    return fresh


def _encode(text: str) -> bytes:
    return zlib.compress(text.encode("utf-8", "surrogatepass"), 1)


def add(db: sqlite3.Connection, file_id: int, text: str) -> None:
    """Index one file's text (the file must have no row yet: see :func:`remove_file`)."""
    db.execute("INSERT INTO grep_text(file_id, body) VALUES(?, ?)", (file_id, _encode(text)))
    db.execute("INSERT INTO grep_grams(rowid, body) VALUES(?, ?)", (file_id, text))


def remove_file(db: sqlite3.Connection, file_id: int) -> None:
    """Drop a file's text and its trigrams (FTS5's 'delete' needs the text that was indexed)."""
    row = db.execute("SELECT body FROM grep_text WHERE file_id = ?", (file_id,)).fetchone()
    if row is None:
        return
    text = zlib.decompress(row[0]).decode("utf-8", "surrogatepass")
    db.execute("INSERT INTO grep_grams(grep_grams, rowid, body) VALUES('delete', ?, ?)", (file_id, text))
    db.execute("DELETE FROM grep_text WHERE file_id = ?", (file_id,))


def _quoted(gram: str) -> str:
    return '"' + gram.replace('"', '""') + '"'


def grams_of(literal: str) -> list[str]:
    """The distinct trigrams of ``literal`` (case-folded by FTS5 itself), at most MAX_GRAMS, spread."""
    grams = list(dict.fromkeys(literal[i : i + 3] for i in range(len(literal) - 2)))
    if len(grams) > MAX_GRAMS:
        step = (len(grams) - 1) / (MAX_GRAMS - 1)
        grams = [grams[round(i * step)] for i in range(MAX_GRAMS)]
    return grams


def match_expression(required: Iterable[Iterable[str]]) -> str:
    """An FTS5 query for AND-ed groups of alternatives: ``[["foo"], ["bar", "baz"]]`` →
    ``("foo") AND (("bar") OR ("baz"))``, each string as the AND of its trigrams."""
    groups = []
    for alternatives in required:
        parts = ["(" + " AND ".join(_quoted(g) for g in grams_of(s)) + ")" for s in alternatives]
        groups.append(parts[0] if len(parts) == 1 else "(" + " OR ".join(parts) + ")")
    return " AND ".join(groups)


def candidates(db: sqlite3.Connection | sqlite3.Cursor, required: list[list[str]], where: str = "1",
               params: Iterable[object] = ()) -> list[tuple[int, str, str]]:
    """(id, path, hash) of the files that may hold every group of ``required`` and pass the files
    filter ``where``, by path. Every string must have at least MIN_LITERAL characters."""
    sql = ("SELECT id, path, hash FROM files WHERE id IN (SELECT rowid FROM grep_grams WHERE grep_grams MATCH ?) "
           f"AND {where} ORDER BY path")
    return db.execute(sql, [match_expression(required), *params]).fetchall()


def unindexed(db: sqlite3.Connection | sqlite3.Cursor, where: str = "1",
              params: Iterable[object] = ()) -> list[tuple[int, str, str]]:
    """(id, path, hash) of files that have no text in this index (written by an older codesift, or by a
    caller that gave none): grep reads them in full."""
    sql = (f"SELECT id, path, hash FROM files WHERE id NOT IN (SELECT file_id FROM grep_text) AND {where} "
           "ORDER BY path")
    return db.execute(sql, list(params)).fetchall()
