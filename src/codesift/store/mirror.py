"""The rows a Qdrant collection mirrors, read from and written to the store in bulk: files, chunks, names and
references, so that the Qdrant backend (``codesift.qdrant``) holds no SQL."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from codesift.store import names

if TYPE_CHECKING:  # pragma: no cover
    from codesift.store.sqlite import MetaStore


def ref_rows(store: MetaStore, file_ids: list[int] | None = None) -> dict[int, list[list[str]]]:
    """file id → its ``refs`` rows ``[name, sites]``, in insertion order; every file's when ``file_ids`` is None."""
    out: dict[int, list[list[str]]] = {}
    if file_ids is None:
        for fid, name, sites in store.db.execute("SELECT file_id, name, sites FROM refs ORDER BY rowid"):
            out.setdefault(int(fid), []).append([name, sites])
        return out
    for start in range(0, len(file_ids), 900):
        part = file_ids[start : start + 900]
        for fid, name, sites in store.db.execute(
                f"SELECT file_id, name, sites FROM refs WHERE file_id IN ({','.join('?' * len(part))}) ORDER BY rowid",
                part):
            out.setdefault(int(fid), []).append([name, sites])
    return out


def file_hashes(store: MetaStore) -> dict[int, tuple[str, str]]:
    """file id → (path, content hash)."""
    return {int(fid): (path, fhash) for fid, path, fhash in store.db.execute("SELECT id, path, hash FROM files")}


def files_with_refs(store: MetaStore) -> set[int]:
    return {int(r[0]) for r in store.db.execute("SELECT DISTINCT file_id FROM refs")}


def file_ids(store: MetaStore) -> dict[str, int]:
    """path → file id."""
    return {str(path): int(fid) for fid, path in store.db.execute("SELECT id, path FROM files")}


def insert_files(store: MetaStore, rows: list[tuple[Any, ...]]) -> None:
    """``(id, path, size, mtime, hash, language, indexed_at, warning)`` rows."""
    store.db.executemany("INSERT INTO files(id, path, size, mtime, hash, language, indexed_at, warning) "
                         "VALUES(?,?,?,?,?,?,?,?)", rows)


def insert_chunks(store: MetaStore, rows: list[tuple[Any, ...]], symbols: list[tuple[int, str, str]]) -> None:
    """Chunk rows in the ``chunks`` table's column order, and ``(id, name, qualified name)`` of the symbols."""
    store.db.executemany("INSERT INTO chunks(id, file_id, path, kind, name, qualified_name, parent, language, "
                         "start_line, end_line, signature, docstring, decorators, route, text, embed_hash) "
                         "VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", rows)
    names.add(store.db, symbols)


def insert_refs(store: MetaStore, rows: list[tuple[int, str, str]]) -> None:
    """``(file id, name, sites)`` rows."""
    store.db.executemany("INSERT INTO refs(file_id, name, sites) VALUES(?,?,?)", rows)
