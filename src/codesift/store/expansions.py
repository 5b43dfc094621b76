"""The query-expansion cache: an in-memory LRU in front of a small SQLite table shared by every index."""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections import OrderedDict
from pathlib import Path

from codesift.store.cache import open_cache_db

MEMORY_ENTRIES = 512
EXPANSIONS_FILE = "expansions.db"  # in the cache folder


class ExpansionCache:
    """Expansions by key: an in-memory LRU in front of a small SQLite table shared by every index."""

    def __init__(self, path: Path) -> None:
        """The cache in the file ``path`` (machine-wide: ``<cache folder>/EXPANSIONS_FILE``)."""
        self.path = path
        self.memory: OrderedDict[str, list[str]] = OrderedDict()
        self._db: sqlite3.Connection | None = None
        self._opened = False
        self._lock = threading.Lock()

    def _conn(self) -> sqlite3.Connection | None:
        if not self._opened:
            self._opened = True
            self._db = open_cache_db(self.path, timeout=2, schema=(  # None: memory only
                "CREATE TABLE IF NOT EXISTS expansions (key TEXT PRIMARY KEY, terms TEXT NOT NULL, "
                "created REAL NOT NULL) WITHOUT ROWID"))
        return self._db

    def get(self, key: str) -> list[str] | None:
        with self._lock:
            if key in self.memory:
                self.memory.move_to_end(key)
                return self.memory[key]
            db = self._conn()
            row = None
            if db is not None:
                try:
                    row = db.execute("SELECT terms FROM expansions WHERE key = ?", (key,)).fetchone()
                except sqlite3.Error:
                    row = None
            if row is None:
                return None
            try:
                terms = [str(t) for t in json.loads(row[0])]
            except (ValueError, TypeError):
                return None
            self._remember(key, terms)
            return terms

    def put(self, key: str, terms: list[str]) -> None:
        with self._lock:
            self._remember(key, terms)
            db = self._conn()
            if db is not None:
                try:
                    db.execute("INSERT OR REPLACE INTO expansions(key, terms, created) VALUES(?,?,?)",
                               (key, json.dumps(terms), time.time()))
                    db.commit()
                except sqlite3.Error:
                    pass

    def _remember(self, key: str, terms: list[str]) -> None:
        self.memory[key] = terms
        self.memory.move_to_end(key)
        while len(self.memory) > MEMORY_ENTRIES:
            self.memory.popitem(last=False)
