"""The reference table behind ``find_usages``: one row per (file, name), its sites packed as JSON.

A row per site (≈ 600k for django) made the B-tree inserts a fifth of a cold index; grouped by name
within a file there are ~5× fewer rows, and a lookup by name still goes through an index.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable
from typing import Protocol

SCHEMA = """
CREATE TABLE IF NOT EXISTS refs (
    file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    sites TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS refs_name ON refs(name);
CREATE INDEX IF NOT EXISTS refs_file ON refs(file_id);
"""


class _Ref(Protocol):
    @property
    def name(self) -> str: ...
    @property
    def line(self) -> int: ...
    @property
    def kind(self) -> str: ...
    @property
    def qualifier(self) -> str: ...


Packed = list[tuple[str, str]]  # (name, JSON list of [line, kind, qualifier])


def pack(references: Iterable[_Ref]) -> Packed:
    """Group one file's references by name, in source order within each name."""
    groups: dict[str, list[tuple[int, str, str]]] = {}
    for r in references:
        groups.setdefault(r.name, []).append((r.line, r.kind, r.qualifier))
    return [(name, json.dumps(sites, ensure_ascii=False, separators=(",", ":"))) for name, sites in groups.items()]


def insert(db: sqlite3.Connection, file_id: int, packed: Packed) -> None:
    db.executemany("INSERT INTO refs(file_id, name, sites) VALUES(?,?,?)",
                   ((file_id, name, sites) for name, sites in packed))


def _prefix_sql(path_prefix: str | tuple[str, ...] | None) -> tuple[str, list[object]]:
    """`` AND (path starts with one of them)`` for one prefix or several (none: no clause)."""
    prefixes = (path_prefix,) if isinstance(path_prefix, str) else tuple(path_prefix or ())
    prefixes = tuple(p for p in prefixes if p)
    if not prefixes:
        return "", []
    params: list[object] = []
    for p in prefixes:
        params += [len(p), p]
    return " AND (" + " OR ".join("substr(f.path, 1, ?) = ?" for _ in prefixes) + ")", params


def sites_of(db: sqlite3.Connection, name: str,
             path_prefix: str | tuple[str, ...] | None = None) -> list[tuple[int, str, int, str, str]]:
    """(file id, path, line, kind, qualifier) of every reference to ``name`` (under one of ``path_prefix``),
    ordered by path and line."""
    sql = "SELECT f.id, f.path, r.sites FROM refs r JOIN files f ON f.id = r.file_id WHERE r.name = ?"
    clause, extra = _prefix_sql(path_prefix)
    sql += clause
    params: list[object] = [name, *extra]
    out = [(fid, path, line, kind, qualifier)
           for fid, path, sites in db.execute(sql, params)
           for line, kind, qualifier in json.loads(sites)]
    out.sort(key=lambda s: (s[1], s[2]))
    return out


def is_old_layout(db: sqlite3.Connection) -> bool:
    """True for an index made before schema 2 (a row per site)."""
    return any(row[1] == "line" for row in db.execute("PRAGMA table_info(refs)"))


# -- the reference graph (repository map, callers / callees / impact) ---------------------------------
NOT_SYMBOLS = ("module", "window", "section", "impl")  # chunks that are no definition a reference points at


# (file id, path, name, qualified name, kind, parent, start, end, signature, language)
DefinitionRow = tuple[int, str, str, str, str, str | None, int, int, str, str]
# (start, end, qualified name, kind, parent, signature)
ScopeRow = tuple[int, int, str, str, str | None, str]
# A connection, or a cursor of one (``ReadQueries._plain``: plain tuples where the connection makes Rows).
Queryable = sqlite3.Connection | sqlite3.Cursor


def definitions(db: Queryable) -> list[DefinitionRow]:
    """Every definition: (file id, path, name, qualified name, kind, parent, start, end, signature, language),
    by file and line, the outer of two that start on the same line first."""
    return db.execute(
        "SELECT file_id, path, name, qualified_name, kind, parent, start_line, end_line, signature, language "
        f"FROM chunks WHERE kind NOT IN ({','.join('?' * len(NOT_SYMBOLS))}) "
        "ORDER BY file_id, start_line, end_line DESC, id", NOT_SYMBOLS).fetchall()


def all_rows(db: Queryable) -> list[tuple[int, str, str, str]]:
    """(file id, name, packed sites, path) of every reference row, grouped by name."""
    return db.execute("SELECT r.file_id, r.name, r.sites, f.path FROM refs r JOIN files f ON f.id = r.file_id "
                      "ORDER BY r.name").fetchall()


def file_sites(db: sqlite3.Connection, path: str) -> list[tuple[str, int, str, str]]:
    """(name, line, kind, qualifier) of every reference in the file ``path``, by line."""
    rows = db.execute("SELECT r.name, r.sites FROM refs r JOIN files f ON f.id = r.file_id WHERE f.path = ?", [path])
    out = [(name, line, kind, qualifier) for name, sites in rows for line, kind, qualifier in json.loads(sites)]
    out.sort(key=lambda s: s[1])
    return out


def scopes_of(db: sqlite3.Connection, paths: Iterable[str]) -> dict[str, list[ScopeRow]]:
    """Per path: (start, end, qualified name, kind, parent, signature) of its definitions."""
    out: dict[str, list[ScopeRow]] = {}
    wanted = sorted(set(paths))
    for start in range(0, len(wanted), 900):
        part = wanted[start : start + 900]
        rows = db.execute(
            "SELECT f.path, c.start_line, c.end_line, c.qualified_name, c.kind, c.parent, c.signature "
            "FROM chunks c JOIN files f ON f.id = c.file_id "
            f"WHERE f.path IN ({','.join('?' * len(part))}) AND c.kind NOT IN ('module','window','section')", part)
        for path, start_line, end_line, qualified_name, kind, parent, signature in rows:
            out.setdefault(path, []).append((start_line, end_line, qualified_name, kind, parent, signature))
    return out


def is_referenced(db: sqlite3.Connection, name: str, path_prefix: str | tuple[str, ...] | None = None) -> bool:
    """Whether any file (under one of ``path_prefix``) references ``name``."""
    clause, extra = _prefix_sql(path_prefix)
    sql, params = "SELECT 1 FROM refs r JOIN files f ON f.id = r.file_id WHERE r.name = ?" + clause, [name, *extra]
    return db.execute(sql + " LIMIT 1", params).fetchone() is not None
