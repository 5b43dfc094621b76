"""Dense retrieval over the stored chunk vectors: exact search when small, usearch HNSW when large.

The vectors live in SQLite (the content-addressed cache, the source of truth). This module keeps a
derived snapshot beside it — ``vector_ids.npy`` + ``vectors.npy`` (float16, memory-mapped) and, above
the HNSW threshold, ``vectors.usearch`` — tagged with the generation it was built from. When the
generation moves, only the difference is applied: chunk ids are never reused, so the snapshot drops the
ids that disappeared and appends the new ones instead of re-reading every vector.
"""

from __future__ import annotations

import itertools
import json
import os
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from codesift.store.derived import mark_repaired

if TYPE_CHECKING:
    from usearch.index import Index

HNSW_THRESHOLD = 20_000  # below this, exact float32 dot products answer in a few ms

IdsFn = Callable[[], np.ndarray]  # the current ids of chunks that have a vector
VectorsFn = Callable[[np.ndarray], np.ndarray]  # float16 vectors for the given ids, same order


def _usearch_index() -> type[Index]:
    """usearch's ``Index`` class. onnxruntime is imported first when installed: loading usearch's
    native library before onnxruntime's crashes the process (seen with usearch 2.26 + onnxruntime
    1.32 on Linux x86_64), the other order works."""
    try:
        import onnxruntime  # noqa: F401
    except ImportError:
        pass
    from usearch.index import Index

    return Index


PART = "vectors"  # the repair record's name (store.derived)
# The HNSW graph file is checked against its checksum when no bigger than this: crc32 measured 83 ms for 128 MiB
# (warm page cache, 2-core box), so ~31 ms here, under 5 % of a warm CLI search (0.7 s keyword-only); about 55k
# vectors of 384 dims. A graph garbled behind a whole header crashes usearch's search (a segfault) otherwise.
HNSW_CHECK_MAX = 48 << 20
REBUILT = "snapshot rebuilt from the vectors in SQLite"


def _crc(array: np.ndarray) -> int:
    """A checksum of ``array``'s bytes (``zlib.crc32``, ~1 GB/s): a snapshot's data damaged behind a whole
    header is caught by it."""
    return zlib.crc32(np.ascontiguousarray(array).data)


def _file_crc(path: Path) -> dict[str, int]:
    """A file's size and ``zlib.crc32``, read in 16 MiB blocks."""
    crc = 0
    with path.open("rb") as f:
        while block := f.read(16 << 20):
            crc = zlib.crc32(block, crc)
    return {"size": path.stat().st_size, "crc": crc}


_SAVES = itertools.count()  # tells this process's temporary files apart


def _tmp_name(path: Path, suffix: str) -> Path:
    """A temporary file beside ``path`` that no other writer uses: two processes (a server and a CLI search)
    may rebuild one snapshot at once, and a shared name moved one's file from under the other."""
    return path.with_name(f"{path.name}.{os.getpid()}.{next(_SAVES)}{suffix}")


def _atomic_save(path: Path, array: np.ndarray) -> None:
    tmp = _tmp_name(path, ".tmp.npy")
    np.save(tmp, array)
    os.replace(tmp, path)


class VectorIndex:
    """Chunk-id → vector search. ``load`` is cheap when the on-disk snapshot is current."""

    def __init__(self, folder: Path, dim: int, model: str = "") -> None:
        self.folder = folder
        self.dim = dim
        self.model = model  # a snapshot of another model's vectors is never reused
        self.ids = np.zeros(0, dtype=np.int64)
        self.matrix = np.zeros((0, dim), dtype=np.float16)
        self._dense: np.ndarray | None = None  # float32 copy for exact search (small indexes only)
        self._hnsw: Index | None = None
        self._pos: dict[int, int] | None = None
        self._ids_path = folder / "vector_ids.npy"
        self._mat_path = folder / "vectors.npy"
        self._hnsw_path = folder / "vectors.usearch"
        self._tag_path = folder / "vectors.json"
        self._crc_path = folder / "vectors.usearch.json"  # the graph file's size and checksum

    def __len__(self) -> int:
        return len(self.ids)

    def _tag(self) -> dict[str, object]:
        try:
            tag = json.loads(self._tag_path.read_text())
        except (OSError, ValueError):
            return {}
        return tag if isinstance(tag, dict) else {}

    def load(self, generation: int, current_ids: IdsFn, vectors_for: VectorsFn) -> None:
        """Open the snapshot for ``generation``, bringing an older one up to date incrementally.

        A damaged snapshot (a file numpy cannot read, arrays of the wrong shape, data whose checksum is not the
        tag's, an unreadable tag) is rebuilt from SQLite's vectors on the spot, and the repair said once."""
        self.folder.mkdir(parents=True, exist_ok=True)
        tag = self._tag()
        damage = "vectors.json unreadable" if not tag and self._tag_path.exists() else None
        have = (tag.get("dim") == self.dim and tag.get("model", "") == self.model
                and self._ids_path.exists() and self._mat_path.exists())
        if have:
            try:
                ids = np.load(self._ids_path, mmap_mode="r")
                mat = np.load(self._mat_path, mmap_mode="r")
                have = len(ids) == len(mat) and mat.ndim == 2 and mat.shape[1:] == (self.dim,)
                damage = None if have else f"arrays of {len(ids)} ids and {mat.shape} vectors"
            except Exception as exc:  # noqa: BLE001 - numpy parses a garbled header into anything (SyntaxError, ...)
                have, damage = False, f"{type(exc).__name__}: {exc}"[:200]
        if have and (damage := self._checksum_damage(tag, ids, mat)) is not None:
            have = False
        if have and tag.get("generation") == generation:
            self._set(ids, mat)
            return
        hnsw = None
        if have:
            now = np.asarray(current_ids(), dtype=np.int64)
            keep = np.isin(ids, now)
            added = np.setdiff1d(now, ids, assume_unique=True)
            removed = np.asarray(ids)[~keep]
            new_ids = np.concatenate([np.asarray(ids)[keep], added])
            kept = np.asarray(mat)[keep]
            new_mat = np.concatenate([kept, vectors_for(added)]) if len(added) else kept
            if len(new_ids) >= HNSW_THRESHOLD and self._hnsw_path.exists():
                hnsw = self._patch_hnsw(removed, added, new_mat[len(new_ids) - len(added):])
        else:
            new_ids = np.asarray(current_ids(), dtype=np.int64)
            new_mat = vectors_for(new_ids)
        new_mat = new_mat.astype(np.float16)
        _atomic_save(self._ids_path, new_ids)
        _atomic_save(self._mat_path, new_mat)
        if hnsw is None:
            self._hnsw_path.unlink(missing_ok=True)
        self._tag_path.write_text(json.dumps({"generation": generation, "dim": self.dim, "model": self.model,
                                              "count": len(new_ids), "crc_ids": _crc(new_ids),
                                              "crc_vectors": _crc(new_mat)}))
        self._set(np.load(self._ids_path, mmap_mode="r"), np.load(self._mat_path, mmap_mode="r"))
        if damage is not None:
            mark_repaired(self.folder.parent, PART, f"{self.folder.name}: {damage}", REBUILT)

    @staticmethod
    def _checksum_damage(tag: dict[str, object], ids: np.ndarray, mat: np.ndarray) -> str | None:
        """Why the arrays are not the ones the tag was written with, or None. The ids are always checked (8
        bytes a vector); the vectors below ``HNSW_THRESHOLD``, where the search copies them whole anyway."""
        if tag.get("count") not in (None, len(ids)):
            return f"{len(ids)} ids for a snapshot of {tag.get('count')}"
        if "crc_ids" in tag and _crc(ids) != tag["crc_ids"]:
            return "vector_ids.npy does not match its checksum"
        if "crc_vectors" in tag and len(ids) < HNSW_THRESHOLD and _crc(mat) != tag["crc_vectors"]:
            return "vectors.npy does not match its checksum"
        return None

    def _set(self, ids: np.ndarray, mat: np.ndarray) -> None:
        self.ids, self.matrix = ids, mat
        self._pos = None
        self._dense = None
        self._hnsw = None
        if len(ids) >= HNSW_THRESHOLD:
            self._hnsw = self._open_hnsw()
        else:
            self._dense = np.asarray(mat, dtype=np.float32)

    def _patch_hnsw(self, removed: np.ndarray, added: np.ndarray, added_vecs: np.ndarray) -> Index | None:
        try:
            if not self._hnsw_whole():
                raise ValueError("it does not match its checksum")
            index = _usearch_index().restore(str(self._hnsw_path))
        except (RuntimeError, ValueError, OSError) as exc:  # damaged: built again from the vectors
            self._hnsw_damaged(exc)
            return None
        if index is None:
            return None
        if len(removed):
            index.remove(removed)
        if len(added):
            index.add(added, added_vecs.astype(np.float16), threads=os.cpu_count() or 1)
        self._save_hnsw(index)
        return index

    def _save_hnsw(self, index: Index) -> None:
        tmp = _tmp_name(self._hnsw_path, ".tmp")
        index.save(str(tmp))
        self._crc_path.write_text(json.dumps(_file_crc(tmp)))
        os.replace(tmp, self._hnsw_path)

    def _hnsw_whole(self) -> bool:
        """Whether the graph file matches the checksum saved with it (True when there is none to check, or the
        file is above ``HNSW_CHECK_MAX``)."""
        try:
            saved = json.loads(self._crc_path.read_text())
        except (OSError, ValueError):
            return True
        size = self._hnsw_path.stat().st_size
        if not isinstance(saved, dict) or size > HNSW_CHECK_MAX:
            return True
        return bool(saved == _file_crc(self._hnsw_path))

    def _open_hnsw(self) -> Index:
        index_class = _usearch_index()
        if self._hnsw_path.exists():
            try:
                if not self._hnsw_whole():
                    raise ValueError("it does not match its checksum")
                restored = index_class.restore(str(self._hnsw_path), view=True)
            except (RuntimeError, ValueError, OSError) as exc:  # damaged: built again from the vectors below
                self._hnsw_damaged(exc)
                restored = None
            if restored is not None and len(restored) == len(self.ids):
                return restored
        index = index_class(ndim=self.dim, metric="ip", dtype="f16", connectivity=16, expansion_add=64,
                            expansion_search=96)
        index.add(np.asarray(self.ids), np.asarray(self.matrix), threads=os.cpu_count() or 1)
        self._save_hnsw(index)
        return index_class.restore(str(self._hnsw_path), view=True) or index

    def _hnsw_damaged(self, exc: BaseException) -> None:
        self._hnsw_path.unlink(missing_ok=True)
        mark_repaired(self.folder.parent, PART, f"{self._hnsw_path.name}: {type(exc).__name__}: {exc}"[:200],
                      "HNSW graph rebuilt from the snapshot's vectors")

    def vector_of(self, chunk_id: int) -> np.ndarray | None:
        if self._pos is None:
            self._pos = {int(c): i for i, c in enumerate(self.ids)}
        pos = self._pos.get(int(chunk_id))
        return None if pos is None else np.asarray(self.matrix[pos], dtype=np.float32)

    def search(
        self, query: np.ndarray, limit: int, allowed: np.ndarray | None = None
    ) -> list[tuple[int, float]]:
        """Top ``limit`` (chunk id, cosine) pairs; ``allowed`` restricts to those chunk ids (pre-filter)."""
        if len(self.ids) == 0 or limit <= 0:
            return []
        query = np.asarray(query, dtype=np.float32)
        if allowed is None and self._hnsw is not None:
            matches = self._hnsw.search(query, limit)
            return [(int(k), float(1.0 - d)) for k, d in zip(matches.keys, matches.distances)]
        if allowed is not None:
            rows = np.flatnonzero(np.isin(self.ids, allowed))
            if len(rows) == 0:
                return []
            block = self._dense[rows] if self._dense is not None else np.asarray(self.matrix[rows], dtype=np.float32)
            scores = block @ query
            ids = np.asarray(self.ids)[rows]
        else:
            dense = self._dense if self._dense is not None else np.asarray(self.matrix, dtype=np.float32)
            scores = dense @ query
            ids = np.asarray(self.ids)
        k = min(limit, len(scores))
        top = np.argpartition(-scores, k - 1)[:k]
        top = top[np.argsort(-scores[top], kind="stable")]
        return [(int(ids[i]), float(scores[i])) for i in top]


class WindowedVectors:
    """Chunk-id → vector search where a long chunk's score is the best of its own vector and its windows'
    (``store/windows.py``): ``search`` answers as :meth:`VectorIndex.search` does, over both snapshots.

    The windows' list is fetched ``WINDOW_FETCH`` times deeper (a chunk has up to six windows). A chunk met only
    through a window scores that window's; one met only through its own vector keeps that one, since its windows
    scored below every window fetched (what a Qdrant multivector search answers too)."""

    WINDOW_FETCH = 2  # also the Qdrant backend's (qdrant.backend.QdrantSearch)

    def __init__(self, chunks: VectorIndex, windows: VectorIndex, owners: np.ndarray, margin: float = 0.0) -> None:
        self.chunks = chunks
        self.windows = windows
        self.margin = margin  # taken off a window's cosine: the best of many vectors is high by chance alone
        self.owners = np.asarray(owners, dtype=np.int64)  # the chunk id of each of ``windows.ids``
        self._owner = dict(zip(np.asarray(windows.ids).tolist(), self.owners.tolist()))

    def __len__(self) -> int:
        return len(self.chunks)

    def vector_of(self, chunk_id: int) -> np.ndarray | None:
        return self.chunks.vector_of(chunk_id)

    def search(
        self, query: np.ndarray, limit: int, allowed: np.ndarray | None = None
    ) -> list[tuple[int, float]]:
        """Top ``limit`` (chunk id, best cosine of its vectors) pairs; ``allowed`` restricts to those chunk ids."""
        own = self.chunks.search(query, limit, allowed)
        if limit <= 0 or len(self.windows) == 0:
            return own
        in_windows = None
        if allowed is not None:
            in_windows = np.asarray(self.windows.ids)[np.isin(self.owners, allowed)]
            if len(in_windows) == 0:
                return own
        hits = self.windows.search(query, self.WINDOW_FETCH * limit, in_windows)
        return best_of_vectors(own, [(self._owner.get(wid, -1), score) for wid, score in hits], self.margin, limit)


def best_of_vectors(own: list[tuple[int, float]], windows: list[tuple[int, float]], margin: float,
                    limit: int) -> list[tuple[int, float]]:
    """Each chunk's best score: its own vector's (``own``) or, less ``margin``, its best window's (``windows``:
    (chunk id, cosine), chunk id -1 for a window no longer there); the top ``limit``, ties by chunk id. The
    embedded store (:class:`WindowedVectors`) and the Qdrant backend merge their two lists alike."""
    best = dict(own)
    for cid, score in windows:
        if cid >= 0:
            best[cid] = max(best.get(cid, -np.inf), score - margin)
    return sorted(best.items(), key=lambda kv: (-kv[1], kv[0]))[:limit]


DenseIndex = VectorIndex | WindowedVectors  # what the vector retriever searches
