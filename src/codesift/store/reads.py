"""Named read queries of the metadata store, so that no SQL (and no row type) leaves ``store/``.

``ReadQueries`` is mixed into ``MetaStore``; it needs only ``self.db``. Every method answers with plain
tuples, strings and numbers; search filters arrive as the ``Filters`` object, not as SQL.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from typing import Any, Protocol

from codesift.datatypes import NOT_DEFINITIONS as _NOT_DEFINITION_KINDS
from codesift.languages import GRAMMAR_LANGUAGES
from codesift.store import grams, names, refs
from codesift.store.keyword import glob_to_regex, normalise_path_filter

NOT_DEFINITIONS = tuple(sorted(_NOT_DEFINITION_KINDS))  # as SQL parameters


class FilterLike(Protocol):
    """What the store reads of ``codesift.search.run.Filters``."""

    path: str | None
    languages: tuple[str, ...]
    kinds: tuple[str, ...]
    services: tuple[str, ...]


def filter_sql(filters: FilterLike | None) -> tuple[str, list[object]]:
    """An SQL WHERE clause over ``chunks`` or ``files`` equivalent to the keyword engine's filter."""
    where: list[str] = ["1"]
    params: list[object] = []
    if filters is None:
        return "1", params
    if filters.path:
        path = normalise_path_filter(filters.path)
        if any(c in path for c in "*?["):
            # The keyword engine's own regex, as an SQL function: both retrievers filter alike.
            where.append("codesift_path_match(path, ?)")
            params.append(glob_to_regex(path))
        else:
            where.append("substr(path, 1, ?) = ?")
            params += [len(path), path]
    services = getattr(filters, "services", ())
    if services:  # one of the services' folders: a prefix test per service, OR-ed
        where.append("(" + " OR ".join("substr(path, 1, ?) = ?" for _ in services) + ")")
        for name in services:
            params += [len(name) + 1, name + "/"]
    for column, values in (("language", filters.languages), ("kind", filters.kinds)):
        if values:
            where.append(f"{column} IN ({','.join('?' * len(values))})")
            params += list(values)
    return " AND ".join(where), params


def _marks(values: Iterable[object]) -> str:
    return ",".join("?" * len(list(values)))


class ReadQueries:
    """Small named queries for search, the tools, the web page and the query expansion."""

    db: sqlite3.Connection

    def _plain(self) -> sqlite3.Cursor:
        """A cursor answering plain tuples (the connection's rows are ``sqlite3.Row``)."""
        cur = self.db.cursor()
        cur.row_factory = None
        return cur

    def _tuples(self, sql: str, params: Iterable[object] = ()) -> list[tuple[Any, ...]]:
        return self._plain().execute(sql, list(params)).fetchall()

    # -- whole-index facts ----------------------------------------------------------------------
    def chunk_count(self) -> int:
        return int(self.db.execute("SELECT count(*) FROM chunks").fetchone()[0])

    def chunks_per_file(self) -> list[tuple[str, int, int]]:
        """(path, chunks, chunks with a vector) of every file with chunks: one probe of the vector table per
        chunk, as ``count_embedded``."""
        return [(str(r[0]), int(r[1]), int(r[2] or 0)) for r in self._tuples(
            "SELECT min(c.path), count(*), sum(EXISTS (SELECT 1 FROM vectors v WHERE v.hash = c.embed_hash)) "
            "FROM chunks c GROUP BY c.file_id")]

    def chunk_counts(self) -> dict[str, int]:
        """path → chunks, of every file with chunks (through the chunks' file index: no vector probes)."""
        return {str(r[0]): int(r[1]) for r in self._tuples("SELECT min(path), count(*) FROM chunks GROUP BY file_id")}

    def text_window_files(self, unless_warned: str = "") -> list[str]:
        """Code files (of a language with a grammar) indexed as text windows instead of definitions: too big,
        minified-looking, a parse that found nothing in a broken tree, or a grammar that did not load; not those
        whose warning is ``unless_warned`` (said elsewhere)."""
        langs = sorted(GRAMMAR_LANGUAGES)
        return [str(r[0]) for r in self._tuples(
            f"SELECT f.path FROM files f WHERE f.language IN ({_marks(langs)}) AND coalesce(f.warning, '') != ? "
            "AND EXISTS (SELECT 1 FROM chunks c WHERE c.file_id = f.id AND c.kind = 'window') ORDER BY f.path",
            [*langs, unless_warned])]

    def kinds(self) -> list[str]:
        """The distinct chunk kinds indexed."""
        return [r[0] for r in self.db.execute("SELECT DISTINCT kind FROM chunks")]

    def main_language(self) -> str:
        """The language most definitions are in ('' for an index without any)."""
        row = self.db.execute(
            f"SELECT language FROM chunks WHERE kind NOT IN ({_marks(NOT_DEFINITIONS)}) "
            "GROUP BY language ORDER BY count(*) DESC LIMIT 1", NOT_DEFINITIONS).fetchone()
        return row[0] if row else ""

    def service_counts(self) -> list[tuple[str, int, int]]:
        """(top-level folder or '.', files, symbols), most files first."""
        return self._tuples(
            "SELECT CASE WHEN instr(f.path, '/') > 0 THEN substr(f.path, 1, instr(f.path, '/') - 1) ELSE '.' END "
            "AS svc, count(DISTINCT f.id), count(c.id) FROM files f LEFT JOIN chunks c ON c.file_id = f.id "
            "AND c.kind NOT IN ('module','window','section') GROUP BY svc ORDER BY 2 DESC")

    def service_languages(self) -> dict[str, dict[str, int]]:
        """top-level folder → {language: files}, most files first."""
        out: dict[str, dict[str, int]] = {}
        for svc, language, n in self._tuples(
                "SELECT substr(path, 1, instr(path, '/') - 1) AS svc, language, count(*) FROM files "
                "WHERE instr(path, '/') > 0 GROUP BY svc, language ORDER BY svc, 3 DESC"):
            out.setdefault(svc, {})[language or "unknown"] = n
        return out

    def definition_names(self) -> list[tuple[str, str]]:
        """(qualified name, path) of every definition."""
        return self._tuples(f"SELECT qualified_name, path FROM chunks WHERE kind NOT IN ({_marks(NOT_DEFINITIONS)})",
                            NOT_DEFINITIONS)

    def chunk_keys(self) -> list[tuple[int, str, str, str, str]]:
        """(id, path, kind, qualified name, embed hash) of every chunk, by id (the Qdrant sync's diff)."""
        return self._tuples("SELECT id, path, kind, qualified_name, embed_hash FROM chunks ORDER BY id")

    # -- the overview prompts (tools/prompts.py) ---------------------------------------------------
    def file_languages(self) -> list[tuple[str, str]]:
        """(path, language or 'unknown') of every indexed file, by path."""
        return self._tuples("SELECT path, coalesce(language, 'unknown') FROM files ORDER BY path")

    def route_rows(self, prefix: str = "", limit: int = 500) -> list[tuple[str, int, str, str]]:
        """(path, start line, qualified name, route) of the definitions with an HTTP route, under ``prefix``."""
        return self._tuples("SELECT path, start_line, qualified_name, route FROM chunks WHERE route IS NOT NULL "
                            "AND substr(path, 1, ?) = ? ORDER BY path, start_line LIMIT ?",
                            (len(prefix), prefix, limit))

    def entry_rows(self, prefix: str = "", limit: int = 200) -> list[tuple[str, int, str, str, str, str]]:
        """(path, start line, kind, qualified name, signature, decorators JSON) of likely entry points under
        ``prefix``: definitions named main, CLI commands (decorators naming a command or group), and
        Python ``if __name__ == "__main__"`` blocks."""
        return self._tuples(
            "SELECT path, start_line, kind, qualified_name, signature, decorators FROM chunks "
            "WHERE substr(path, 1, ?) = ? AND ("
            "(name IN ('main', 'Main') AND kind NOT IN ('module', 'window', 'section')) "
            "OR decorators LIKE '%command%' OR decorators LIKE '%.group(%' "
            "OR decorators LIKE '%SpringBootApplication%' "
            "OR (kind = 'module' AND language = 'python' AND text LIKE '%\\_\\_name\\_\\_%' ESCAPE '\\' "
            "AND text LIKE '%\\_\\_main\\_\\_%' ESCAPE '\\')) ORDER BY path, start_line LIMIT ?",
            (len(prefix), prefix, limit))

    # -- files ----------------------------------------------------------------------------------
    def file_entry(self, path: str) -> tuple[int, str, str | None] | None:
        """(id, content hash, language) of the indexed file ``path``, None when it is not indexed."""
        row = self.db.execute("SELECT id, hash, language FROM files WHERE path = ?", (path,)).fetchone()
        return (row[0], row[1], row[2]) if row is not None else None

    def grammar_failed_counts(self, warning: str) -> dict[str, int]:
        """language → files held with ``warning`` (as line windows because the grammar failed)."""
        return dict(self._tuples("SELECT language, count(*) FROM files WHERE warning = ? GROUP BY language",
                                 (warning,)))

    def mark_language_changed(self, language: str, warning: str) -> None:
        """Mark the files of ``language`` held with ``warning`` as changed (the caller commits)."""
        self.db.execute("UPDATE files SET size = -1, hash = '' WHERE language = ? AND warning = ?",
                        (language, warning))

    def files_where(self, filters: FilterLike | None) -> list[tuple[int, str, str]]:
        """(id, path, hash) of the files passing ``filters``, by path."""
        where, params = filter_sql(filters)
        return self._tuples(f"SELECT id, path, hash FROM files WHERE {where} ORDER BY path", params)

    def count_files(self, filters: FilterLike | None) -> int:
        where, params = filter_sql(filters)
        return int(self.db.execute(f"SELECT count(*) FROM files WHERE {where}", params).fetchone()[0])

    def has_files(self, filters: FilterLike | None) -> bool:
        """Whether any indexed file passes ``filters`` (stops at the first)."""
        where, params = filter_sql(filters)
        return self.db.execute(f"SELECT 1 FROM files WHERE {where} LIMIT 1", params).fetchone() is not None

    def grep_candidates(self, required: list[list[str]], filters: FilterLike | None) -> list[tuple[int, str, str]]:
        """(id, path, hash) of the files the trigram index says may hold ``required``, by path."""
        return grams.candidates(self._plain(), required, *filter_sql(filters))

    def grep_unindexed(self, filters: FilterLike | None = None) -> list[tuple[int, str, str]]:
        """(id, path, hash) of the files without text in the trigram index, by path."""
        return grams.unindexed(self._plain(), *filter_sql(filters))

    # -- definitions ------------------------------------------------------------------------------
    def file_spans(self, file_id: int, exclude_kinds: tuple[str, ...]) -> list[tuple[int, int, str, str]]:
        """(start, end, qualified name, kind) of the file's chunks not of ``exclude_kinds``."""
        return self._tuples("SELECT start_line, end_line, qualified_name, kind FROM chunks WHERE file_id = ? "
                            f"AND kind NOT IN ({_marks(exclude_kinds)})", (file_id, *exclude_kinds))

    def nested_definition_counts(self, chunk_ids: Iterable[int]) -> dict[int, int]:
        """Per chunk id: how many definitions of its file lie inside it (a factory's closures, a class's methods)."""
        ids = list(dict.fromkeys(chunk_ids))
        if not ids:
            return {}
        rows = self._tuples(
            "SELECT e.id, COUNT(c.id) FROM chunks e JOIN chunks c ON c.file_id = e.file_id AND c.id != e.id "
            "AND c.start_line >= e.start_line AND c.end_line <= e.end_line "
            f"AND c.kind NOT IN ({_marks(NOT_DEFINITIONS)}) WHERE e.id IN ({_marks(ids)}) GROUP BY e.id",
            (*NOT_DEFINITIONS, *ids))
        return {int(cid): int(n) for cid, n in rows}

    def file_outline(self, file_id: int,
                     exclude_kinds: tuple[str, ...]) -> list[tuple[str, str, str, str | None, int, int, str, str]]:
        """(kind, name, qualified name, parent, start, end, signature, docstring) of the file's chunks not
        of ``exclude_kinds``."""
        return self._tuples(
            "SELECT kind, name, qualified_name, parent, start_line, end_line, signature, docstring FROM chunks "
            f"WHERE file_id = ? AND kind NOT IN ({_marks(exclude_kinds)})", (file_id, *exclude_kinds))

    def scopes_by_file(self, file_ids: Iterable[int]) -> list[tuple[int, int, int, str, str, str | None, str]]:
        """(file id, start, end, qualified name, kind, parent, signature) of the files' definitions."""
        ids = list(file_ids)
        out: list[tuple[int, int, int, str, str, str | None, str]] = []
        for start in range(0, len(ids), 900):
            part = ids[start : start + 900]
            out += self._tuples(
                "SELECT file_id, start_line, end_line, qualified_name, kind, parent, signature FROM chunks "
                f"WHERE file_id IN ({_marks(part)}) AND kind NOT IN ('module','window','section')", part)
        return out

    def signatures_named(self, name: str, kinds: tuple[str, ...],
                         limit: int = 20) -> list[tuple[str, str, str | None, str]]:
        """(name, signature, parent, language) of up to ``limit`` chunks of ``kinds`` named ``name``
        (case-insensitive, through the name index: the caller compares the exact name)."""
        return self._tuples(
            f"SELECT name, signature, parent, language FROM chunks WHERE name = ? COLLATE NOCASE "
            f"AND kind IN ({_marks(kinds)}) LIMIT ?", (name, *kinds, limit))

    def spans_named(self, name: str, kinds: tuple[str, ...],
                    limit: int = 20) -> list[tuple[str, str, str, str, str, str, int, int]]:
        """(name, qualified name, kind, language, signature, path, start, end) of up to ``limit`` chunks of
        ``kinds`` named ``name`` (case-insensitive, as :meth:`signatures_named`)."""
        return self._tuples(
            "SELECT name, qualified_name, kind, language, signature, path, start_line, end_line FROM chunks "
            f"WHERE name = ? COLLATE NOCASE AND kind IN ({_marks(kinds)}) LIMIT ?", (name, *kinds, limit))

    def defined_names(self, wanted: Iterable[str], exclude_kinds: tuple[str, ...]) -> set[str]:
        """Those of ``wanted`` that some chunk not of ``exclude_kinds`` is named."""
        names_ = sorted(wanted)
        out: set[str] = set()
        for start in range(0, len(names_), 900):
            part = names_[start : start + 900]
            rows = self.db.execute(
                f"SELECT DISTINCT name FROM chunks WHERE name IN ({_marks(part)}) "
                f"AND kind NOT IN ({_marks(exclude_kinds)})", [*part, *exclude_kinds])
            out.update(name for (name,) in rows)
        return out

    def lookup_names(self, query: str, *, exact: bool, kinds: tuple[str, ...] = (), limit_exact: int | None = 20,
                     limit_partial: int = 50, services: tuple[str, ...] = ()) -> list[tuple[int, str]]:
        """(chunk id, match type): exact, prefix, camel-hump, substring (see ``store.names.lookup``)."""
        return names.lookup(self.db, query, exact=exact, kinds=kinds, limit_exact=limit_exact,
                            limit_partial=limit_partial, services=services)

    def go_packages(self, paths: Iterable[str]) -> dict[str, str]:
        """Path → the package its Go file declares (see ``store.names.go_packages``)."""
        return names.go_packages(self.db, paths)

    def namespaces(self, paths: Iterable[str]) -> dict[str, str]:
        """Path → the package or namespace its file declares, dotted (see ``store.names.namespaces``)."""
        return names.namespaces(self.db, paths)

    # -- references (see store/refs.py) ---------------------------------------------------------
    def ref_definitions(self) -> list[refs.DefinitionRow]:
        return refs.definitions(self._plain())

    def ref_rows(self) -> list[tuple[int, str, str, str]]:
        return refs.all_rows(self._plain())

    def ref_sites(self, name: str,
                  path_prefix: str | tuple[str, ...] | None = None) -> list[tuple[int, str, int, str, str]]:
        return refs.sites_of(self.db, name, path_prefix)

    def ref_file_sites(self, path: str) -> list[tuple[str, int, str, str]]:
        return refs.file_sites(self.db, path)

    def ref_scopes(self, paths: Iterable[str]) -> dict[str, list[refs.ScopeRow]]:
        return refs.scopes_of(self.db, paths)

    def is_referenced(self, name: str, path_prefix: str | tuple[str, ...] | None = None) -> bool:
        return refs.is_referenced(self.db, name, path_prefix)
