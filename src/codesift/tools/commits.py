"""``search_commits`` and ``get_commit``: the indexed git history, searched like code (BM25 over the
commit's subject, body and changed paths, cosine over its embedded message, fused by weighted RRF) and one
commit read from git with its diff cut to a budget. Indexing is :func:`codesift.indexing.history.index_history`."""

from __future__ import annotations

import datetime as dt
import weakref
from pathlib import Path
from typing import cast

import numpy as np

from codesift.search.fusion import ranked, rrf
from codesift.indexing.history import NotAGitRepository, require_git, resolve, show_commit
from codesift.limits import check_limit, check_query
from codesift.store.keyword import normalise_path_filter
from codesift.text.tokens import tokenize
from codesift.tools.base import Workspace
from codesift.tools.payloads import Commit, CommitHit, CommitSearch

MAX_COMMIT_LIMIT = 100
MAX_PATHS_SHOWN = 20  # a result lists this many changed paths, and how many more there are
_VECTORS: "weakref.WeakKeyDictionary[Workspace, tuple[tuple[str | None, ...], np.ndarray, np.ndarray]]" = (
    weakref.WeakKeyDictionary())


def parse_since(since: str | None) -> int | None:
    """An ISO date or date-time (``2024-05-01``, ``2024-05-01T12:00:00+02:00``; UTC without a zone) as Unix
    seconds; ValueError in words otherwise."""
    if since is None or not since.strip():
        return None
    try:
        when = dt.datetime.fromisoformat(since.strip())
    except ValueError:
        raise ValueError(f"since must be an ISO date such as 2024-05-01, got {since!r}") from None
    if when.tzinfo is None:
        when = when.replace(tzinfo=dt.timezone.utc)
    return int(when.timestamp())


def _path_prefix(ws: Workspace, path: str | None) -> str | None:
    """A path filter as a prefix relative to the root (an absolute path under the root is made relative)."""
    if path is None or not path.strip():
        return None
    given = path.strip()
    if Path(given).is_absolute():
        try:
            given = Path(given).resolve().relative_to(ws.root).as_posix()
        except ValueError:
            raise ValueError(f"path {path!r} is outside the indexed root {ws.root}") from None
    return normalise_path_filter(given) or None


def _commit_vectors(ws: Workspace, dim: int) -> tuple[np.ndarray, np.ndarray]:
    """(commit ids, float32 matrix) of the embedded commits, cached until the history or vectors change."""
    key = (ws.store.get_meta("history_generation"), ws.store.get_meta("generation"), str(dim))
    cached = _VECTORS.get(ws)
    if cached is None or cached[0] != key:
        ids, mat = ws.store.history.vectors(dim)
        cached = _VECTORS[ws] = (key, ids, mat.astype(np.float32))
    return cached[1], cached[2]


def search_commits(ws: Workspace, query: str, *, path: str | None = None, since: str | None = None,
                   limit: int = 10) -> CommitSearch:
    """Commits by what their message says and the paths they changed, best first:
    ``{query, mode, results: [{sha, date, author, subject, paths, score}], commits, embedded, notes}``."""
    query = check_query(query)
    check_limit(limit, MAX_COMMIT_LIMIT)
    after, prefix = parse_since(since), _path_prefix(ws, path)
    history = ws.store.history
    total = history.count()
    out: CommitSearch = {"query": query, "mode": "keyword", "path": prefix, "since": since, "results": [],
                         "commits": total, "embedded": 0, "notes": []}
    notes = out["notes"]
    if not total:
        require_git(ws.root)  # a tree outside git says so; else the history is merely not indexed yet
        notes.append("the git history is not indexed here: run `codesift index --history` first")
        return out
    fetch = 2 * max(limit, 50)
    keyword = [cid for cid, _ in history.keyword_search(list(dict.fromkeys(tokenize(query))), fetch,
                                                        path=prefix, since=after)]
    rankings, weights = [keyword], [ws.config.keyword_weight]
    embedder = ws.embedder()
    if embedder is None:
        notes.append("semantic search unavailable: keyword results only")
    else:
        ids, mat = _commit_vectors(ws, embedder.dim)
        out["embedded"] = len(ids)
        if len(ids):
            if prefix or after is not None:
                keep = np.isin(ids, history.filtered_ids(prefix, after))
                ids, mat = ids[keep], mat[keep]
            sims = mat @ embedder.embed_query(query).astype(np.float32)
            top = np.argsort(-sims, kind="stable")[:fetch]
            rankings.append([int(ids[i]) for i in top])
            weights.append(ws.config.vector_weight)
            out["mode"] = "hybrid"
        if len(ids) < total:
            notes.append(f"{out['embedded']:,} of {total:,} commits embedded: run `codesift index --history` "
                         "to embed the rest")
    k = float(ws.config.rrf_k)
    best = sum(weights) / (k + 1)  # a commit first in every ranking
    hits = ranked(rrf(rankings, weights, k))[:limit]
    rows = history.rows([cid for cid, _ in hits])
    results: list[CommitHit] = []
    for cid, score in hits:
        row = rows[cid]
        paths = [p for p, _, _ in row.paths]
        results.append({"sha": row.sha, "date": row.date, "author": row.author, "subject": row.subject,
                        "paths": paths[:MAX_PATHS_SHOWN], "paths_total": len(paths),
                        "score": round(score / best, 4) if best else 0.0})
    out["results"] = results
    return out


def get_commit(ws: Workspace, sha: str) -> Commit:
    """One commit (full sha or a unique prefix): message, author, date, changed files with their status
    (A, M, D, R, C, T) and the diff cut to a budget (``diff_truncated`` says so). LookupError when unknown."""
    if not isinstance(sha, str):
        raise TypeError("sha must be a string")
    require_git(ws.root)
    full = resolve(ws.root, sha, lambda prefix: ws.store.history.by_prefix(prefix))
    info = cast(Commit, show_commit(ws.root, full))  # Commit's keys but ``indexed``, read from git below the tools
    info["indexed"] = bool(ws.store.history.by_prefix(full, 1))
    return info


__all__ = ["NotAGitRepository", "get_commit", "parse_since", "search_commits"]
