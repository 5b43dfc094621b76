"""Keep an index fresh while files change: debounced incremental updates driven by ``watchfiles``.

Every batch of events triggers the same incremental ``update`` as ``codesift index`` (unchanged files
cost a stat), so the ignore rules are exactly the indexer's. A change to ``.git/HEAD`` (a branch switch)
or an event overflow is handled the same way: the update re-scans the whole tree.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from codesift.api import Index
    from codesift.indexing.indexer import UpdateStats

DEBOUNCE_MS = 500


def relevant(root: Path, index_dir: Path, path: str) -> bool:
    """Whether a changed path can affect the index: not inside the index folder, not git internals
    other than HEAD (which moves on a branch switch)."""
    p = Path(path)
    try:
        p.relative_to(index_dir)
        return False
    except ValueError:
        pass
    try:
        parts = p.relative_to(root).parts
    except ValueError:
        return False
    if parts and parts[0] == ".git":
        return parts[-1] == "HEAD"
    return True


def watch(
    index: "Index",
    *,
    on_update: Callable[["UpdateStats"], None] | None = None,
    stop: threading.Event | None = None,
    lock: threading.Lock | None = None,
    debounce_ms: int = DEBOUNCE_MS,
    embed: bool = True,
) -> None:
    """Block, updating ``index`` after each debounced batch of relevant changes, until ``stop`` is set.

    ``lock`` serialises the updates with other users of the same Index (the MCP server's searches);
    with ``embed=False`` only the keyword side is updated (the caller embeds in the background).
    """
    from watchfiles import DefaultFilter, watch as fs_watch

    root, folder = index.root, index.folder.resolve()

    class _Filter(DefaultFilter):
        def __call__(self, change, path: str) -> bool:  # noqa: ANN001 - watchfiles.Change
            return relevant(root, folder, path) and (path.endswith("HEAD") or super().__call__(change, path))

    flt = _Filter(ignore_dirs=tuple(d for d in DefaultFilter.ignore_dirs if d != ".git"))
    for _changes in fs_watch(root, watch_filter=flt, debounce=debounce_ms, stop_event=stop,
                             raise_interrupt=False, ignore_permission_denied=True):
        if lock is None:
            stats = index.update(embed=embed)
        else:
            with lock:
                stats = index.update(embed=embed)
        if on_update is not None:
            on_update(stats)
