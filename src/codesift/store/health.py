"""Opening an index's database with its damage found and, for a writer, repaired.

SQLite is the source of truth (store/sqlite.py), but every row of it comes from the tree: a damaged database
(truncated, a zero-filled region, an overwritten header) is set aside as ``meta.db.damaged-<time>`` for a bug
report and replaced by an empty one, which the next update fills from the tree. The vectors come back from the
machine-wide cache (store/cache.py): nothing is embedded twice.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from codesift.store.lock import IndexBusy, WriteLock
from codesift.store.damage import IndexDamaged, set_aside
from codesift.store.sqlite import MetaStore

DB_NAME = "meta.db"
REPAIRED_KEY = "repaired"  # meta key: what was repaired, a JSON list of lines (Index.status()'s ``repaired``)
# Derived from the database and patched by chunk-id difference (store/vectors.py): a rebuilt database numbers
# its chunks from 1 again, so these go with it (the dense side rebuilds them from SQLite and the cache).
_ID_KEYED = ("dense", "dense-windows")
LOCK_WAIT = 10.0  # seconds a repair waits for another writer to finish before it gives up


def open_meta(folder: Path, *, repair: bool, thorough: bool = False) -> tuple[MetaStore, str | None]:
    """The database of the index in ``folder``, checked (see :class:`MetaStore`; ``thorough``: every page read),
    and a line saying what was repaired, None when nothing was.

    A damaged database raises :class:`IndexDamaged` unless ``repair``: then, under the write lock, it is set
    aside, the files numbered by its chunk ids are removed, and an empty database marked for a full refill
    takes its place (the keyword index is rebuilt from it; the next update re-parses the tree)."""
    path = folder / DB_NAME
    try:
        return MetaStore(path, thorough=thorough), None
    except IndexDamaged as exc:
        if not repair:
            raise
        damage = exc
    try:
        with WriteLock(folder, LOCK_WAIT):
            try:  # another writer may have repaired it while this one waited
                return MetaStore(path, thorough=thorough), None
            except IndexDamaged:
                pass
            kept = set_aside(path)
            for name in _ID_KEYED:
                shutil.rmtree(folder / name, ignore_errors=True)
            store = MetaStore(path)
            note = (f"the index database was damaged ({damage.reason}): it is kept as {kept} for a bug report, "
                    "and the index is rebuilt from the tree")
            store.set_meta(REPAIRED_KEY, json.dumps([note]))
            store.set_meta("keyword_dirty", "1")  # the keyword index still holds the old database's chunk ids
            store.commit()
            return store, note
    except IndexBusy:
        raise damage from None


def repaired(store: MetaStore) -> list[str]:
    """What was repaired when this index was last rebuilt from a damaged database ([] when never)."""
    raw = store.get_meta(REPAIRED_KEY)
    return list(json.loads(raw)) if raw else []
