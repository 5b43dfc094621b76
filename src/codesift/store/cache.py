"""A machine-wide, content-addressed embedding cache shared by every index (branches, clones, rebuilds).

Keyed by (model id, hash of the embedded text); vectors are float16 blobs. It lives in
``$CODESIFT_CACHE_DIR`` (default ``~/.cache/codesift``; ``Config.env.cache_dir``, see
:mod:`codesift.config.env`). It is only a cache: any failure to open or write it is ignored and codesift
embeds as if it were empty.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import numpy as np

EMBEDDINGS_FILE = "embeddings.db"  # in the cache folder


def open_cache_db(path: Path, schema: str, *, timeout: float) -> sqlite3.Connection | None:
    """A machine-wide cache database (WAL, ``schema`` applied), or None when it cannot be had (read-only
    home, full disk, …): a cache is never a reason to fail."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(path, timeout=timeout, check_same_thread=False)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")
        db.execute(schema)
        db.commit()
        return db
    except (OSError, sqlite3.Error):
        return None


class EmbeddingCache:
    """get/put vectors by (model, text hash); safe to share between processes (SQLite WAL)."""

    def __init__(self, path: Path) -> None:
        """The cache in the file ``path`` (machine-wide: ``<cache folder>/EMBEDDINGS_FILE``)."""
        self.db = open_cache_db(path, timeout=10, schema=(
            "CREATE TABLE IF NOT EXISTS vectors (model TEXT NOT NULL, hash TEXT NOT NULL, "
            "vec BLOB NOT NULL, PRIMARY KEY (model, hash)) WITHOUT ROWID"))

    def get_many(self, model: str, hashes: list[str], dim: int) -> dict[str, np.ndarray]:
        if self.db is None or not hashes:
            return {}
        out: dict[str, np.ndarray] = {}
        try:
            for start in range(0, len(hashes), 900):
                part = hashes[start : start + 900]
                rows = self.db.execute(
                    f"SELECT hash, vec FROM vectors WHERE model = ? AND hash IN ({','.join('?' * len(part))})",
                    [model, *part],
                )
                for h, blob in rows:
                    vec = np.frombuffer(blob, dtype=np.float16)
                    if vec.shape == (dim,):
                        out[h] = vec
        except sqlite3.Error:
            return {}
        return out

    def put_many(self, model: str, hashes: list[str], vecs: np.ndarray) -> None:
        if self.db is None or not hashes:
            return
        data = vecs.astype(np.float16)
        try:
            self.db.executemany(
                "INSERT OR IGNORE INTO vectors(model, hash, vec) VALUES (?, ?, ?)",
                ((model, h, data[i].tobytes()) for i, h in enumerate(hashes)),
            )
            self.db.commit()
        except sqlite3.Error:
            pass

    def close(self) -> None:
        if self.db is not None:
            self.db.close()
