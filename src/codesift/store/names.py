"""The symbol-name index behind ``find_symbol``: exact, prefix, camel-hump and substring lookups.

Every lookup goes through a B-tree index or the FTS5 trigram index, never a scan over all symbols.
The store adds and removes a file's names in the same transaction as its chunks. (Triggers did this
once: a trigger makes every chunk insert run under a statement journal, ~4× the cost of these rows.)
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterable
from difflib import SequenceMatcher

from codesift.datatypes import NOT_DEFINITIONS, PATH_HEADS, dotted as dotted_name, module_parts

_HUMP = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")
NON_SYMBOL_KINDS = NOT_DEFINITIONS

SCHEMA = """
CREATE TABLE IF NOT EXISTS names (
    chunk_id INTEGER PRIMARY KEY,
    lname TEXT NOT NULL,
    lqual TEXT NOT NULL,
    humps TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS names_lname ON names(lname);
CREATE INDEX IF NOT EXISTS names_lqual ON names(lqual);
CREATE INDEX IF NOT EXISTS names_humps ON names(humps);
CREATE VIRTUAL TABLE IF NOT EXISTS name_trigrams USING fts5(lname, tokenize='trigram');
DROP TRIGGER IF EXISTS chunks_names_ins;
DROP TRIGGER IF EXISTS chunks_names_del;
"""


def humps(name: str) -> str:
    """Initials of a name's camel/snake parts, lower-cased: ``GetWebAuthnSession`` → ``gwas``."""
    return "".join(p[0] for piece in name.split("_") for p in _HUMP.findall(piece)).lower()


def install(db: sqlite3.Connection) -> None:
    """Register the SQL function, create the tables (dropping old triggers) and backfill an older index."""
    db.create_function("codesift_humps", 1, humps, deterministic=True)
    fresh = db.execute("SELECT 1 FROM sqlite_master WHERE name='names'").fetchone() is None
    db.executescript(SCHEMA)
    if fresh:
        db.execute(
            "INSERT INTO names(chunk_id, lname, lqual, humps) SELECT id, lower(name), lower(qualified_name), "
            "codesift_humps(name) FROM chunks WHERE kind NOT IN ('module','window','section')"
        )
        db.execute("INSERT INTO name_trigrams(rowid, lname) SELECT chunk_id, lname FROM names")
        db.commit()


def add(db: sqlite3.Connection, symbols: list[tuple[int, str, str]]) -> None:
    """Index (chunk id, name, qualified name) of new definition chunks."""
    rows = [(cid, name.lower(), qual.lower(), humps(name)) for cid, name, qual in symbols]
    db.executemany("INSERT INTO names(chunk_id, lname, lqual, humps) VALUES(?,?,?,?)", rows)
    db.executemany("INSERT INTO name_trigrams(rowid, lname) VALUES(?,?)", ((r[0], r[1]) for r in rows))


def remove_file(db: sqlite3.Connection, file_id: int) -> None:
    """Drop the names of a file's chunks (before the chunks themselves are deleted)."""
    ids = "SELECT id FROM chunks WHERE file_id = ?"
    db.execute(f"DELETE FROM names WHERE chunk_id IN ({ids})", (file_id,))
    db.execute(f"DELETE FROM name_trigrams WHERE rowid IN ({ids})", (file_id,))


def go_packages(db: sqlite3.Connection, paths: Iterable[str]) -> dict[str, str]:
    """The package each Go file of ``paths`` declares: Go code names a definition ``chi.URLParam`` after its
    file's ``package chi`` clause, whatever the folder is called (the repository's root, ``v5``, ``go-toml``).
    Files that are not Go are left out (:func:`namespaces`, Go's alone)."""
    return namespaces(db, paths, frozenset({"go"}))


# How a file names the namespace of its definitions, per language (read from its module chunks, in order).
_NAMESPACE_CLAUSES = {
    "go": re.compile(r"^package\s+([A-Za-z_]\w*)", re.M),
    "java": re.compile(r"^\s*package\s+([\w.]+)\s*;", re.M),
    "kotlin": re.compile(r"^\s*package\s+([\w.`]+)", re.M),
    "c_sharp": re.compile(r"^\s*namespace\s+([\w.]+)", re.M),
    "php": re.compile(r"^\s*namespace\s+([\w\\]+)\s*[;{]", re.M),
    "cpp": re.compile(r"^\s*(?:inline\s+)?namespace\s+([\w:]+)\s*\{", re.M),
}
_NAMESPACE_CLAUSES["c"] = _NAMESPACE_CLAUSES["cpp"]  # a C++ header indexed as C
NAMESPACED_LANGUAGES = frozenset(_NAMESPACE_CLAUSES)


def namespaces(db: sqlite3.Connection, paths: Iterable[str],
               languages: frozenset[str] = NAMESPACED_LANGUAGES) -> dict[str, str]:
    """The namespace each file of ``paths`` declares, dotted: Go's ``package chi``, Java's and Kotlin's
    ``package coil3.request``, C#'s ``namespace Polly.Retry``, PHP's ``namespace Monolog\\Handler``
    (``monolog.handler``), C++'s nested ``namespace spdlog { namespace details {`` (every one the file opens,
    in order: ``spdlog.details``). Code names a definition after it (``Polly.Retry.RetryHelper``,
    ``spdlog::details::os::now``) whatever its folder is called. Files of other ``languages`` are left out."""
    wanted = list(dict.fromkeys(paths))
    found: dict[str, list[str]] = {}
    for i in range(0, len(wanted), 500):
        batch = wanted[i:i + 500]
        rows = db.execute(
            "SELECT f.path, c.language, c.text FROM files f JOIN chunks c ON c.file_id = f.id "
            f"WHERE f.path IN ({','.join('?' * len(batch))}) AND c.kind = 'module' "
            "ORDER BY f.path, c.start_line", batch).fetchall()
        for path, language, text in rows:
            clause = _NAMESPACE_CLAUSES.get(language) if language in languages else None
            if clause is None or (language in ("go", "java", "kotlin", "c_sharp", "php") and path in found):
                continue  # one package / namespace clause per file in these
            for m in clause.finditer(text):
                names = found.setdefault(path, [])
                names.extend(p for p in re.split(r"::|\\|\.", m.group(1).strip("`\\")) if p and p not in names)
                if language != "cpp" and language != "c":
                    break
    return {path: ".".join(parts) for path, parts in found.items() if parts}


def _within(module: list[str], namespace: str) -> bool:
    """Whether ``module`` (lower-cased parts) is a run of the dotted ``namespace``'s parts."""
    parts = namespace.lower().split(".")
    n = len(module)
    return n > 0 and any(parts[i:i + n] == module for i in range(len(parts) - n + 1))


def _module_qualified(db: sqlite3.Connection, rows: list[tuple[int, str]], dotted: str) -> set[int]:
    """The chunk ids of ``rows`` (id, lower-cased qualified name) that ``dotted`` names with their module in
    front: the file (``validate.email`` for validate.py's ``Email``, ``marshmallow.fields.nested``), its
    folder (Go's ``middleware.logger``) or the package / namespace its file declares (``chi.urlparam``,
    ``chi.mux.handle`` for a repository whose root is ``package chi``; ``polly.retry.retryhelper.x``,
    ``os.create_dir`` in ``namespace spdlog { namespace details { namespace os {``)."""
    wanted = [(cid, lqual) for cid, lqual in rows if dotted.endswith("." + lqual)]
    if not wanted:
        return set()
    ids = [cid for cid, _ in wanted]
    info = {cid: (path, language) for cid, path, language in db.execute(
        f"SELECT id, path, language FROM chunks WHERE id IN ({','.join('?' * len(ids))})", ids)}
    packages = namespaces(db, [p for p, language in info.values() if language in NAMESPACED_LANGUAGES])
    out = set()
    for cid, lqual in wanted:
        path, language = info.get(cid, ("", ""))
        module = [p for p in dotted[: -len(lqual) - 1].split(".") if p not in PATH_HEADS]
        parts = module_parts(path)
        n = len(module)
        # A Go file is no module of its own: its package is its folder (``assert.Equal``, not ``assertions.Equal``).
        if module and ((parts[-n:] == module and language != "go") or parts[:-1][-n:] == module
                       or _within(module, packages.get(path, ""))):
            out.add(cid)
    return out


def _upper_bound(prefix: str) -> str:
    return prefix + "\U0010ffff"


def lookup(
    db: sqlite3.Connection, query: str, *, exact: bool, kinds: tuple[str, ...] = (), limit_exact: int | None = 20,
    limit_partial: int = 50, services: tuple[str, ...] = (),
) -> list[tuple[int, str]]:
    """(chunk id, match type) pairs, exact matches first (``limit_exact`` of them; None: all), then prefix,
    camel-hump and substring; with ``services``, only chunks under one of those folders. An exact match past
    ``limit_exact`` is left out, never listed again as a prefix match."""
    # NUL ends an FTS5 phrase and a lone surrogate cannot be encoded for SQLite: neither is a name.
    q = query.replace("\x00", " ").encode("utf-8", "replace").decode().strip().lower()
    if not q:
        return []
    kind_sql = ""
    kind_args: list[object] = []
    if kinds:
        kind_sql = f" AND c.kind IN ({','.join('?' * len(kinds))})"
        kind_args = list(kinds)
    if services:
        kind_sql += " AND (" + " OR ".join("substr(c.path, 1, ?) = ?" for _ in services) + ")"
        for name in services:
            kind_args += [len(name) + 1, name + "/"]
    # The chunks table is joined only to filter: each joined row is a random read of a wide row.
    join = " JOIN chunks c ON c.id = n.chunk_id" if kinds or services else ""
    base = f"SELECT n.chunk_id, n.lqual FROM names n{join} WHERE "
    order = " ORDER BY length(n.lqual), n.chunk_id LIMIT ?"
    out: list[tuple[int, str]] = []
    seen: set[int] = set()

    def add(rows: list[tuple[int, str]], match: str, cap: int) -> None:
        for cid, _ in rows:
            if cid not in seen and len(out) < cap:
                seen.add(cid)
                out.append((cid, match))

    dotted = dotted_name(q)
    last = dotted.rsplit(".", 1)[-1]
    everything = -1  # SQLite: no limit
    rows = db.execute(base + "n.lname = ?" + kind_sql + order,
                      [last, *kind_args, everything if limit_exact is None else limit_exact * 5]).fetchall()
    if last != dotted:  # `Session.send`: same last name, qualified name ending with the dotted query
        named = {r[0] for r in rows if r[1] == dotted or r[1].endswith("." + dotted)}
        by_module = _module_qualified(db, [r for r in rows if r[0] not in named], dotted)  # `validate.Email`
        rows = [r for r in rows if r[0] in named] + [r for r in rows if r[0] in by_module]
    add(rows, "exact", len(rows) if limit_exact is None else limit_exact)
    if exact:
        return out
    seen.update(cid for cid, _ in rows)  # past the cap: exact all the same, not a prefix match
    cap = len(out) + limit_partial
    # Range scans walk the B-tree in key order and stop at a bounded window, which is then ordered
    # shortest-first in Python: sorting every match in SQL costs O(matches) for short prefixes.
    window = " LIMIT ?"
    for column, match in (("n.lname", "prefix"), ("n.humps", "camel_hump")):
        if match == "camel_hump" and not (q.isalnum() and len(q) >= 2):
            continue
        rows = db.execute(base + f"{column} >= ? AND {column} < ?" + kind_sql + window,
                          [q, _upper_bound(q), *kind_args, limit_partial * 4]).fetchall()
        rows.sort(key=lambda r: (len(r[1]), r[0]))
        add(rows, match, cap)
    if len(q) >= 3:
        add([(cid, "") for cid in _substring_ids(db, q, kind_sql, kind_args, limit_partial * 4)], "substring", cap)
    if not out:  # a typo (``rebuld_auth``, ``RequestCookieJar``): the closest names
        add([(cid, "") for cid in _similar_ids(db, last, kind_sql, kind_args, SIMILAR_LIMIT)], "similar", cap)
    return out


SIMILAR_LIMIT = 5
SIMILAR_MIN = 0.8  # difflib's ratio: rebuld_auth ~ rebuild_auth 0.96, RequestCookieJar ~ RequestsCookieJar 0.97
_SIMILAR_CANDIDATES = 100  # per pair of trigrams
_SCAN_UP_TO = 12  # characters: a name this short may keep no trigram of the one meant
_SCAN_LIMIT = 5000  # names read by that scan


def _similar_ids(db: sqlite3.Connection, q: str, kind_sql: str, kind_args: list[object], limit: int) -> list[int]:
    """Ids of the names closest to ``q`` (one per name), kept when ``difflib`` finds them at least
    ``SIMILAR_MIN`` alike. Candidates come from the trigram index: names holding two of the query's
    trigrams far apart (first and last, second and second-to-last, first or last with the middle), so that
    a typo in between misses one of the pairs and each lookup is an intersection of two posting lists
    (ranking every name sharing a trigram took 20–70 ms at 100k symbols). A typo spoils the up to three
    trigrams around it, and a short name can keep none (``conut``: ``count`` shares no trigram; ``consle``
    keeps only ``con`` and ``ons`` of ``console``): when the pairs found no close name, a name of up to
    ``_SCAN_UP_TO`` characters is compared with the names of about its length that begin with its letter."""
    grams = list(dict.fromkeys(q[i : i + 3] for i in range(len(q) - 2)))
    if len(grams) < 2:
        return []
    join = " JOIN chunks c ON c.id = t.rowid" if kind_sql else ""
    # A typo changes the length by a character or two: longer and shorter names are not read.
    sql = (f"SELECT t.rowid, t.lname FROM name_trigrams t{join} WHERE name_trigrams MATCH ? "
           f"AND length(t.lname) BETWEEN ? AND ?{kind_sql} LIMIT ?")
    lengths = [len(q) - max(2, len(q) // 8), len(q) + max(2, len(q) // 8)]
    mid = len(grams) // 2
    pairs = [(grams[0], grams[-1]), (grams[1], grams[-2]), (grams[0], grams[mid]), (grams[mid], grams[-1])]
    scored: list[tuple[float, int, int, str]] = []
    read: set[int] = set()

    def score(rows: Iterable[tuple[int, str]]) -> None:
        for cid, lname in rows:
            if cid not in read:
                read.add(cid)
                alike = SequenceMatcher(None, q, lname)
                if alike.quick_ratio() >= SIMILAR_MIN:  # an upper bound of ratio(), and cheap
                    scored.append((alike.ratio(), len(lname), cid, lname))

    for a, b in {frozenset(p): p for p in pairs if p[0] != p[1]}.values():
        score(db.execute(sql, [f"{_fts_string(a)} AND {_fts_string(b)}", *lengths, *kind_args, _SIMILAR_CANDIDATES]))
    if len(q) <= _SCAN_UP_TO and not any(r[0] >= SIMILAR_MIN for r in scored):
        scan = (f"SELECT n.chunk_id, n.lname FROM names n{join.replace('t.rowid', 'n.chunk_id')} "
                f"WHERE n.lname >= ? AND n.lname < ? AND length(n.lname) BETWEEN ? AND ?{kind_sql} LIMIT ?")
        score(db.execute(scan, [q[0], _upper_bound(q[0]), *lengths, *kind_args, _SCAN_LIMIT]))
    scored.sort(key=lambda r: (-r[0], r[1], r[2]))
    out: list[int] = []
    seen: set[str] = set()
    for ratio, _, cid, lname in scored:
        if ratio < SIMILAR_MIN or len(out) >= limit:
            break
        if lname not in seen:
            seen.add(lname)
            out.append(cid)
    return out


_SPARSE_FROM = 13  # query length from which a few spread trigrams beat the full trigram phrase
_SPARSE_GRAMS = 4
_SPARSE_CANDIDATES = 1000


def _substring_ids(db: sqlite3.Connection, q: str, kind_sql: str, kind_args: list[object], limit: int) -> list[int]:
    """Ids of names containing ``q`` (≥ 3 characters), through the trigram index.

    A long query as one FTS5 phrase reads the posting list of every one of its trigrams (7 ms for a
    32-character name at 500k symbols). Above ``_SPARSE_FROM`` characters, four trigrams spread over
    the query are AND-ed instead (~1.5 ms) and the candidates checked for the real substring; if the
    candidate window fills up before enough are confirmed, the exact phrase query answers instead."""
    join = " JOIN chunks c ON c.id = t.rowid" if kind_sql else ""
    sql = f"SELECT t.rowid, t.lname FROM name_trigrams t{join} WHERE name_trigrams MATCH ?{kind_sql} LIMIT ?"
    if len(q) >= _SPARSE_FROM:
        n = len(q) - 2
        starts = sorted({round(i * (n - 1) / (_SPARSE_GRAMS - 1)) for i in range(_SPARSE_GRAMS)})
        match = " AND ".join(_fts_string(q[i : i + 3]) for i in starts)
        rows = db.execute(sql, [match, *kind_args, _SPARSE_CANDIDATES]).fetchall()
        hits = [cid for cid, lname in rows if q in lname]
        if len(rows) < _SPARSE_CANDIDATES or len(hits) >= limit:
            return hits[:limit]
    return [cid for cid, _ in db.execute(sql, [_fts_string(q), *kind_args, limit]).fetchall()]


def _fts_string(text: str) -> str:
    return '"' + text.replace('"', '""') + '"'
