"""MCP tools of the git-history tools; :func:`build_server` adds what :func:`tools` returns:
``search_commits`` (the indexed commits by message and changed paths) and ``get_commit`` (one commit with
its diff, cut to a budget)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, Any

from pydantic import Field

from codesift.limits import check_query
from codesift.server.args import MaxChars, Query
from codesift.tools import markdown as md

if TYPE_CHECKING:
    from mcp_types import CallToolResult

    from codesift.api import Index
    from codesift.server.service import IndexService

SEARCH = ("Search the repository's git history: commit messages and the paths each commit changed (keyword and "
          "semantic, fused), newest history indexed by `codesift index --history`. Use it instead of running "
          "git log / git log -S in a shell to find why or when something changed, who changed a file, or the "
          "commit that introduced a behaviour; path= keeps commits that touched a file or folder, since= an ISO "
          "date. Returns sha, date, author, subject and changed paths; then get_commit(sha) for the diff.")
SHOW = ("One commit by full sha or unique prefix: author, date, full message, changed files with their status "
        "(A added, M modified, D deleted, R renamed) and the diff, cut to 400 lines / 40 kB (the answer says "
        "when). Use it instead of git show in a shell, after search_commits named the commit.")

CommitPath = Annotated[str | None, Field(description="Only commits that changed this file or folder, e.g. "
                                                     "'src/app.py' or 'src/' (a path prefix).")]
Since = Annotated[str | None, Field(description="Only commits authored on or after this ISO date, e.g. '2024-05-01'.")]
CommitLimit = Annotated[int, Field(ge=1, le=100, description="Maximum number of commits (1-100).")]
Sha = Annotated[str, Field(min_length=1, max_length=64, description="A commit sha, full or a unique prefix of 4+ "
                                                                    "hex digits, e.g. 'a1b2c3d'.")]


def tools(svc: "IndexService") -> dict[Callable[..., Any], str]:
    """Tool function → description, bound to svc."""
    from codesift.server.common import answer
    from codesift.tools.markdown.commits import render_commit, render_commits

    async def search_commits(query: Query, path: CommitPath = None, since: Since = None, limit: CommitLimit = 10,
                             max_chars: MaxChars = md.DEFAULT_MAX_CHARS) -> "CallToolResult":
        budget = md.clamp_max_chars(max_chars)

        def work(index: "Index") -> md.Rendered:
            return render_commits(index.search_commits(query, path=path, since=since, limit=limit), budget)
        return await answer("search_commits", svc, work, check=lambda: check_query(query))

    async def get_commit(sha: Sha, max_chars: MaxChars = md.DEFAULT_MAX_CHARS) -> "CallToolResult":
        budget = md.clamp_max_chars(max_chars)

        def work(index: "Index") -> md.Rendered:
            return render_commit(index.get_commit(sha), budget)
        return await answer("get_commit", svc, work)

    return {search_commits: SEARCH, get_commit: SHOW}
