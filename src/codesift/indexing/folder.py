"""Where an index lives: finding it from a working directory, refusing to invent one for a read, and
keeping it out of ``git status``."""

from __future__ import annotations

import shlex
import subprocess
from pathlib import Path

from codesift.config.settings import INDEX_DIR_NAME
from codesift.errors import CodesiftError


class RootRemoved(CodesiftError, FileNotFoundError):
    """The indexed folder is gone (moved or deleted) under a long-lived process: nothing left to bring up to date."""

    def __init__(self, root: Path) -> None:
        self.root = root
        super().__init__(f"the indexed folder {root} no longer exists (moved or deleted?); index it where it is "
                         f"now with `codesift index PATH`")


class NoIndexError(CodesiftError, LookupError):
    """``Index(root, create=False)`` found no index for ``root``; the message says how to build one."""

    def __init__(self, root: Path, folder: Path) -> None:
        self.root, self.folder = root, folder
        super().__init__(f"no index here ({root}); run `codesift index {shlex.quote(str(root))}`")


GITIGNORE = "# written by codesift: the index is local to this machine and rebuilt by `codesift index`\n*\n"


def ignore_in_git(folder: Path) -> None:
    """Give the index folder a ``.gitignore`` of ``*`` so it never shows in ``git status``.

    An existing file is left as it is (``index_dir`` may point at a folder the user manages), and a
    folder that cannot be written is no reason to fail: the index works without it.
    """
    try:
        with open(folder / ".gitignore", "x", encoding="utf-8") as fh:
            fh.write(GITIGNORE)
    except OSError:  # FileExistsError included
        pass


def find_root(start: Path) -> Path:
    """The root to use for ``start``: the nearest ancestor holding an index, else the git top, else start."""
    start = start.resolve()
    for folder in (start, *start.parents):
        if (folder / INDEX_DIR_NAME / "meta.db").exists():
            return folder
    try:
        top = subprocess.run(
            ["git", "rev-parse", "--show-toplevel"], cwd=start, capture_output=True, text=True, timeout=5
        )
        if top.returncode == 0 and top.stdout.strip():
            return Path(top.stdout.strip())
    except (OSError, subprocess.SubprocessError):
        pass
    return start
