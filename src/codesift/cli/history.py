"""CLI commands of the git-history tools, added to :data:`codesift.cli.app.main` by its command list:
``commits`` (search the indexed commits) and ``commit`` (one commit with its diff), plus the pieces of
``index --history``."""

from __future__ import annotations

import json
import sys
from typing import Any

import click

from codesift.cli.common import checked, fail, open_index, progress_printer, text_arg

DEFAULT_HISTORY = 1000  # codesift.indexing.history.DEFAULT_LIMIT, kept here so that --help imports nothing heavy


def history_limit(path: str | None, value: str | None) -> tuple[str | None, int | None]:
    """(PATH, N) from ``index``'s arguments: ``--history`` takes an optional N, so in ``--history .`` the
    word after it is PATH. None: no history wanted."""
    if value is None:
        return path, None
    if value == "default":
        return path, DEFAULT_HISTORY
    if value.isdigit():
        if int(value) > 0:
            return path, min(int(value), 1_000_000)
        fail("--history takes a number of commits of at least 1")
    if path is None:
        return value, DEFAULT_HISTORY
    fail(f"--history takes a number of commits, got {value!r}")
    raise AssertionError  # unreachable: fail exits


def index_commits(idx: Any, limit: int, *, embed: bool, console: Any = None) -> dict[str, Any]:
    """Run ``Index.index_history`` for ``index --history`` (a progress bar on ``console``); its summary."""
    from codesift.store.lock import IndexBusy

    try:
        if console is None:
            stats = idx.index_history(limit, embed=embed)
        else:
            bar, update = progress_printer(console)
            with bar:
                stats = idx.index_history(limit, embed=embed, progress=update)
    except KeyboardInterrupt:
        click.echo("interrupted: the history keeps what was committed; run `codesift index --history` again",
                   err=True)
        sys.exit(130)
    except IndexBusy as exc:
        fail(str(exc), 1)
    return {"limit": limit, "commits": stats.commits, "added": stats.added, "embedded": stats.embedded,
            "embed_pending": stats.embed_pending, "seconds": round(stats.seconds, 2),
            "embed_seconds": round(stats.embed_seconds, 2), "notes": stats.notes}


def history_line(h: dict[str, Any]) -> str:
    """``history: 12 new commits (1,000 indexed) in 0.4s; embedded 12 in 0.9s``, then the notes."""
    line = (f"history: {h['added']:,} new commits ({h['commits']:,} indexed) in {h['seconds']:.1f}s; "
            f"embedded {h['embedded']:,} in {h['embed_seconds']:.1f}s")
    return "\n".join([line, *(f"note: {n}" for n in h["notes"])])


@click.command(context_settings={"ignore_unknown_options": True})
@click.argument("query")
@click.option("--path", "path_filter", help="Only commits that changed this file or folder (a path prefix).")
@click.option("--since", help="Only commits authored on or after this ISO date (2024-05-01; UTC).")
@click.option("--limit", "-n", default=10, show_default=True, type=click.IntRange(1, 100))
@click.option("--root", type=click.Path(), help="Indexed root (default: found from the current directory).")
@click.option("--json", "as_json", is_flag=True,
              help="Print a JSON array of {sha, date, author, subject, paths, paths_total, score}.")
def commits(query: str, path_filter: str | None, since: str | None, limit: int, root: str | None,
            as_json: bool) -> None:
    """Search the indexed git history (`codesift index --history`) for QUERY: commit messages and the
    paths each commit changed, keyword and semantic, fused."""
    from codesift.limits import check_query

    query = checked(check_query, text_arg(query))
    idx = open_index(root, for_search=True, create=False)
    try:
        found = idx.search_commits(query, path=text_arg(path_filter), since=text_arg(since), limit=limit)
    except ValueError as exc:  # a bad filter, or not a git repository
        fail(str(exc))
    except OSError as exc:
        fail(str(exc), 1)
    from codesift.tools.markdown.commits import commits_text

    click.echo(json.dumps(found["results"], indent=1, ensure_ascii=False) if as_json else commits_text(found))
    for note in found["notes"]:
        click.echo(f"note: {note}", err=True)
    if not found["results"]:
        sys.exit(1)


@click.command()
@click.argument("sha")
@click.option("--root", type=click.Path(), help="The repository's indexed root (default: the current directory's).")
@click.option("--json", "as_json", is_flag=True,
              help="Print {sha, author, email, date, parents, subject, body, files, diff, diff_truncated, ...}.")
def commit(sha: str, root: str | None, as_json: bool) -> None:
    """Show commit SHA (full or a unique prefix): message, author, date, changed files (A/M/D/R) and its
    diff, cut at 400 lines / 40 kB."""
    idx = open_index(root, for_search=True, create=False)
    try:
        info = idx.get_commit(text_arg(sha) or "")
    except LookupError as exc:  # no such commit, or an ambiguous prefix
        fail(str(exc), 1)
    except ValueError as exc:  # not a git repository
        fail(str(exc))
    except OSError as exc:
        fail(str(exc), 1)
    from codesift.tools.markdown.commits import commit_text

    click.echo(json.dumps(info, indent=1, ensure_ascii=False) if as_json else commit_text(info))


COMMANDS = (commits, commit)
