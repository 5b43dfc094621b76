"""Whether the tree changed since the server last brought its index up to date, cheaply enough to ask
before every tool call: an agent edits a file, then searches for what it wrote.

A :class:`Snapshot` holds the stat of every indexed file and of every folder holding one (a file created
or removed changes its folder's mtime). Checking it is one ``stat`` per entry, a few milliseconds on a
mid-size tree, against the walk of the whole tree that an update costs. What it cannot see (a new file in a
folder that holds no indexed file yet, an ignore rule edited) waits for the server's periodic refresh.

A stat taken close to the update that preceded it is not trusted (a change in the same clock tick, or
on a file system with coarse timestamps, would look unchanged): such entries are recorded as changed,
so the next call refreshes once more.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

Stat = tuple[int, float]  # (size, mtime in seconds) of a file, as discovery compares them
UNTRUSTED: Stat = (-1, -1.0)  # recorded for a file stat'd too close to the update, or gone
UNTRUSTED_DIR = -1
SLACK_S = 2.0  # a stat this close to the update's start is not trusted (timestamp granularity)
SHOWN = 5  # changed paths named in a note


@dataclass(frozen=True)
class Snapshot:
    """Indexed files (path as indexed → stat) and the folders holding them (relative path, "" for the root,
    → ``st_mtime_ns``), as seen right after an update."""

    files: dict[str, Stat]
    dirs: dict[str, int] = field(default_factory=dict)


# -- pure logic ------------------------------------------------------------------------------------
def folders_of(paths: Iterable[str]) -> set[str]:
    """Every folder holding one of ``paths`` (relative, ``/``-separated), their ancestors and the root ("")."""
    out = {""}
    for path in paths:
        parts = path.split("/")[:-1]
        for i in range(1, len(parts) + 1):
            out.add("/".join(parts[:i]))
    return out


def trusted(files: Mapping[str, Stat | None], dirs: Mapping[str, int | None], since: float) -> Snapshot:
    """The snapshot to keep from stats taken after an update that started at ``since`` (wall clock, s):
    anything missing or modified from ``SLACK_S`` before that start on is recorded as changed."""
    limit = since - SLACK_S
    kept_files = {p: s if s is not None and s[1] < limit else UNTRUSTED for p, s in files.items()}
    kept_dirs = {d: m if m is not None and m / 1e9 < limit else UNTRUSTED_DIR for d, m in dirs.items()}
    return Snapshot(kept_files, kept_dirs)


def changed_paths(snap: Snapshot, files_now: Mapping[str, Stat], dirs_now: Mapping[str, int]) -> list[str]:
    """The files whose stat differs from ``snap`` (or gone), then the folders whose mtime does, as
    ``dir/`` (``./`` for the root)."""
    files = [p for p, s in snap.files.items() if files_now.get(p) != s or s == UNTRUSTED]
    dirs = [(d or ".") + "/" for d, m in snap.dirs.items() if dirs_now.get(d) != m or m == UNTRUSTED_DIR]
    return sorted(files) + sorted(dirs)


def describe(changed: list[str]) -> str:
    """``a.py``, ``b.py`` and files added or removed in ``src/`` (and N more), for a note."""
    files = [f"`{p}`" for p in changed if not p.endswith("/")][:SHOWN]
    dirs = [f"`{p}`" for p in changed if p.endswith("/")][:SHOWN - len(files)]
    parts = files + ([f"files added or removed in {', '.join(dirs)}"] if dirs else [])
    more = len(changed) - len(files) - len(dirs)
    if more:
        parts.append(f"{more} more")
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


# -- stats -----------------------------------------------------------------------------------------
def stat_files(root: str, paths: Iterable[str]) -> dict[str, Stat]:
    """(size, mtime) of each path that exists (of a symlink's target, as discovery keeps it)."""
    out: dict[str, Stat] = {}
    for path in paths:
        try:
            st = os.stat(os.path.join(root, path))
        except OSError:
            continue
        out[path] = (st.st_size, st.st_mtime)
    return out


def stat_dirs(root: str, dirs: Iterable[str]) -> dict[str, int]:
    out: dict[str, int] = {}
    for d in dirs:
        try:
            out[d] = os.stat(os.path.join(root, d) if d else root).st_mtime_ns
        except OSError:
            continue
    return out


def take(root: str, paths: Iterable[str], since: float) -> Snapshot:
    """The snapshot of ``paths`` (the indexed files) under ``root`` after an update started at ``since``."""
    paths = list(paths)
    dirs = folders_of(paths)
    files_now, dirs_now = stat_files(root, paths), stat_dirs(root, dirs)
    return trusted({p: files_now.get(p) for p in paths}, {d: dirs_now.get(d) for d in dirs}, since)


def changes(root: str, snap: Snapshot) -> list[str]:
    """What changed under ``root`` since ``snap`` was taken (see :func:`changed_paths`)."""
    return changed_paths(snap, stat_files(root, snap.files), stat_dirs(root, snap.dirs))


def now() -> float:
    """The wall clock that file timestamps are compared with."""
    return time.time()
