"""What git says about a tree: its top, the files it lists, what it ignores. No git, or a git that
fails, answers None / nothing, and discovery walks the tree instead."""

from __future__ import annotations

import os
import shutil
import subprocess

GIT_TIMEOUT_S = 60.0
# Git reads these from the environment (e.g. inside a hook) and they would point it elsewhere.
GIT_ENV_DROP = ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_PREFIX", "GIT_COMMON_DIR")


def find_git_top(path: str) -> str | None:
    cur = path
    while True:
        if os.path.exists(os.path.join(cur, ".git")):
            return cur
        parent = os.path.dirname(cur)
        if parent == cur:
            return None
        cur = parent


def _git(root: str, *args: str) -> subprocess.CompletedProcess[bytes] | None:
    git = shutil.which("git")
    if git is None:
        return None
    env = {k: v for k, v in os.environ.items() if k not in GIT_ENV_DROP}
    try:
        return subprocess.run(
            [git, *args], cwd=root, env=env, capture_output=True, timeout=GIT_TIMEOUT_S, check=False
        )
    except (OSError, subprocess.SubprocessError):
        return None


def git_ls_files(root: str) -> list[str] | None:
    """Paths git knows under root (relative to it), or None when git is unusable here."""
    proc = _git(root, "ls-files", "-z", "--cached", "--others", "--exclude-standard")
    if proc is None or proc.returncode != 0:
        return None
    # Unmerged entries appear once per stage: dedupe.
    return list(dict.fromkeys(os.fsdecode(p) for p in proc.stdout.split(b"\0") if p))


def git_ignored(root: str) -> list[str]:
    """Untracked paths under root that git ignores, ignored folders collapsed to "dir/"."""
    proc = _git(root, "ls-files", "-z", "--others", "--ignored", "--exclude-standard", "--directory",
                "--no-empty-directory")
    if proc is None or proc.returncode != 0:
        return []
    return [os.fsdecode(p) for p in proc.stdout.split(b"\0") if p]


def git_ignores_root(root: str) -> bool:
    """True when root itself is git-ignored (e.g. a virtualenv or build dir inside a repo)."""
    proc = _git(root, "check-ignore", "-q", "--", root)
    return proc is not None and proc.returncode == 0
