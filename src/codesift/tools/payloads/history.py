"""The git history: search_commits and get_commit."""

from __future__ import annotations

from typing import NotRequired, TypedDict


# -- the git history ----------------------------------------------------------------------------------
class CommitHit(TypedDict):
    """search_commits: one commit."""

    sha: str
    date: str
    author: str
    subject: str
    paths: list[str]  # the first 20 changed paths
    paths_total: int
    score: float  # 1.0: first in every ranking


class CommitSearch(TypedDict):
    """search_commits: the indexed commits by message and changed paths, best first."""

    query: str
    mode: str  # keyword or hybrid
    path: str | None  # the path prefix asked
    since: str | None
    results: list[CommitHit]
    commits: int  # indexed commits
    embedded: int
    notes: list[str]


class CommitFile(TypedDict):
    path: str
    status: str  # A, M, D, R, C or T
    old_path: NotRequired[str]  # renamed or copied from


class DiffBudget(TypedDict):
    lines: int
    bytes: int


class Commit(TypedDict):
    """get_commit: one commit read from git (:func:`codesift.indexing.history.show_commit`)."""

    sha: str
    short: str
    author: str
    email: str
    date: str
    parents: list[str]
    subject: str
    body: str
    files: list[CommitFile]
    diff: str
    diff_lines: int
    diff_truncated: bool
    diff_budget: DiffBudget
    indexed: bool  # in the history index
