"""Dense retrieval over the stored chunk vectors: exact search when small, usearch HNSW when large.

The vectors live in SQLite (the content-addressed cache). This module keeps a derived snapshot beside it
(``vectors.npy`` + ``vector_ids.npy``, memory-mapped, and ``vectors.usearch`` above the HNSW threshold),
tagged with the generation it was built from, and rebuilds it when the generation moved.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

import numpy as np

HNSW_THRESHOLD = 20_000  # below this, exact float32 dot products answer in a few ms


def _atomic_save(path: Path, array: np.ndarray) -> None:
    tmp = path.with_name(path.name + ".tmp.npy")
    np.save(tmp, array)
    os.replace(tmp, path)


class VectorIndex:
    """Chunk-id → vector search. ``load`` is cheap when the on-disk snapshot is current."""

    def __init__(self, folder: Path, dim: int) -> None:
        self.folder = folder
        self.dim = dim
        self.ids = np.zeros(0, dtype=np.int64)
        self.matrix = np.zeros((0, dim), dtype=np.float32)
        self._hnsw = None
        self._pos: dict[int, int] | None = None

    def __len__(self) -> int:
        return len(self.ids)

    def load(self, generation: int, rebuild: Callable[[], tuple[np.ndarray, np.ndarray]]) -> None:
        """Open the snapshot for ``generation``; else call ``rebuild`` for (ids, float16 matrix) and save it."""
        self.folder.mkdir(parents=True, exist_ok=True)
        tag_path = self.folder / "vectors.json"
        try:
            tag = json.loads(tag_path.read_text())
        except (OSError, ValueError):
            tag = {}
        ids_path, mat_path = self.folder / "vector_ids.npy", self.folder / "vectors.npy"
        hnsw_path = self.folder / "vectors.usearch"
        if tag.get("generation") == generation and tag.get("dim") == self.dim and ids_path.exists():
            ids = np.load(ids_path, mmap_mode="r")
            mat = np.load(mat_path, mmap_mode="r")
        else:
            ids, mat = rebuild()
            _atomic_save(ids_path, ids)
            _atomic_save(mat_path, mat)
            hnsw_path.unlink(missing_ok=True)
            tag_path.write_text(json.dumps({"generation": generation, "dim": self.dim, "count": len(ids)}))
        self.ids = np.asarray(ids)
        self.matrix = np.asarray(mat, dtype=np.float32)
        self._pos = None
        self._hnsw = None
        if len(self.ids) >= HNSW_THRESHOLD:
            self._hnsw = self._open_hnsw(hnsw_path)

    def _open_hnsw(self, path: Path):  # noqa: ANN202 - usearch type is optional at import time
        from usearch.index import Index

        if path.exists():
            index = Index.restore(str(path), view=True)
            if index is not None and len(index) == len(self.ids):
                return index
        index = Index(ndim=self.dim, metric="ip", dtype="f16", connectivity=16, expansion_add=64,
                      expansion_search=96)
        index.add(self.ids, self.matrix, threads=os.cpu_count() or 1)
        tmp = path.with_name(path.name + ".tmp")
        index.save(str(tmp))
        os.replace(tmp, path)
        return index

    def vector_of(self, chunk_id: int) -> np.ndarray | None:
        if self._pos is None:
            self._pos = {int(c): i for i, c in enumerate(self.ids)}
        pos = self._pos.get(int(chunk_id))
        return None if pos is None else self.matrix[pos]

    def search(
        self, query: np.ndarray, limit: int, allowed: np.ndarray | None = None
    ) -> list[tuple[int, float]]:
        """Top ``limit`` (chunk id, cosine) pairs; ``allowed`` restricts to those chunk ids (pre-filter)."""
        if len(self.ids) == 0 or limit <= 0:
            return []
        if allowed is None and self._hnsw is not None:
            matches = self._hnsw.search(query.astype(np.float32), limit)
            return [(int(k), float(1.0 - d)) for k, d in zip(matches.keys, matches.distances)]
        if allowed is not None:
            rows = np.flatnonzero(np.isin(self.ids, allowed))
            if len(rows) == 0:
                return []
            scores = self.matrix[rows] @ query
            ids = self.ids[rows]
        else:
            scores = self.matrix @ query
            ids = self.ids
        k = min(limit, len(scores))
        top = np.argpartition(-scores, k - 1)[:k]
        top = top[np.argsort(-scores[top], kind="stable")]
        return [(int(ids[i]), float(scores[i])) for i in top]
