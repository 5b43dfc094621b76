"""``codesift index``, added to :data:`codesift.cli.app.main` by its command list: build or
update an index (``--rebuild``, ``--no-embed``, ``--dry-run``, ``--history``, ``--all``)."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import click

from codesift.cli.common import EXIT_NO_INDEX, config_overrides, fail, open_index, progress_printer
from codesift.search.coverage import share

LOCK_WAIT = 10.0  # seconds a second `codesift index` waits for the writer before it refuses (saying so at once)


@click.command()
@click.argument("path", required=False, type=click.Path(file_okay=True, dir_okay=True))
@click.option("--rebuild", is_flag=True, help="Delete the existing index first.")
@click.option("--no-embed", is_flag=True, help="Keyword index only; embed later with another `index`.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
@click.option("--dry-run", is_flag=True, help="Write nothing: say which files would be indexed, which skipped and "
              "why, and estimate chunks and embedding time (see also `codesift doctor`).")
@click.option("--history", "history", is_flag=False, flag_value="default", default=None, metavar="[N]",
              help="Also index the git history: messages and changed paths of the newest N commits (default "
              "1000) not indexed yet, for `codesift commits`.")
@click.option("--all", "all_services", is_flag=True, help="Index every [[services]] entry of PATH's codesift.toml "
              "into PATH's index, each under <name>/ (git services at their ref, without a checkout).")
def index(path: str | None, rebuild: bool, no_embed: bool, quiet: bool, as_json: bool, dry_run: bool,
          history: str | None, all_services: bool) -> None:
    """Index PATH (default: the current directory), incrementally."""
    from rich.markup import escape

    from codesift.cli.history import history_limit

    path, commits = history_limit(path, history)  # `--history .` is PATH, not N
    target = Path(path or ".")
    if not target.exists():
        fail(f"no such directory: {target}")
    if not target.is_dir():
        fail(f"not a directory: {target}")
    if commits and not dry_run:
        from codesift.indexing.history import NotAGitRepository, require_git

        try:
            require_git(target.resolve())  # before anything is written
        except NotAGitRepository as exc:
            fail(str(exc))
    if dry_run:  # before --rebuild: a dry run deletes nothing either
        from codesift.cli.doctor import dry_run_command

        dry_run_command(target, as_json=as_json, time_model=not no_embed, quiet=quiet)
        return
    if rebuild:
        from codesift.config.settings import INDEX_DIR_NAME, load_config

        cfg = load_config(target.resolve(), overrides=config_overrides())
        folder = Path(cfg.index_dir).expanduser() if cfg.index_dir else target.resolve() / INDEX_DIR_NAME
        shutil.rmtree(folder, ignore_errors=True)
    from codesift.errors import CodesiftError
    from codesift.store.lock import IndexBusy, IndexWriteError
    from codesift.store.sqlite import StoreError

    idx = open_index(str(target), reader=False, check=True)  # every page read: damage a search never reads too
    if rebuild and idx.qdrant is not None:
        idx.qdrant.delete_service()  # this tree's points; other services in the collection stay
    from codesift.cli.render import output_console, warnings_line

    console = output_console(stderr=True)
    bar, update = progress_printer(console)

    def waiting(message: str) -> None:
        click.echo(f"codesift: {message}", err=True)

    try:
        if quiet or as_json:
            stats = idx.update(embed=not no_embed, all_services=all_services, lock_timeout=LOCK_WAIT,
                               on_wait=waiting)
        else:
            with bar:
                stats = idx.update(embed=not no_embed, progress=update, all_services=all_services,
                                   lock_timeout=LOCK_WAIT, on_wait=waiting)
    except KeyboardInterrupt:
        console.print("[yellow]interrupted[/]: the index keeps what was committed; "
                      "run `codesift index` again to continue")
        sys.exit(130)
    except (IndexBusy, IndexWriteError) as exc:  # another writer; a failed write (a full disk, the folder removed)
        fail(str(exc), 1)
    except CodesiftError as exc:  # a service that cannot be read (missing folder, unknown ref, no git)
        fail(str(exc))
    except (OSError, StoreError) as exc:  # a write past the indexer's (vectors, pruning): the same one line
        from codesift.store.lock import write_failure

        failure = write_failure(exc, idx.folder)
        if failure is None:
            raise
        fail(str(failure), 1)
    status = idx.status()
    summary = {
        "root": str(idx.root), "files": status["files"], "symbols": status["symbols"],
        "chunks": status["chunks"], "parsed": stats.files_parsed, "unchanged": stats.files_unchanged,
        "deleted": stats.files_deleted, "embedded": stats.embedded, "embed_pending": stats.embed_pending,
        "coverage": status["coverage"], "skipped": stats.skipped, "warnings": stats.warnings,
        "warned_files": dict(sorted(stats.warned_files.items())[:200]),
        "parse_seconds": round(stats.parse_seconds, 2), "embed_seconds": round(stats.embed_seconds, 2),
        "embedding_status": status["embedding_status"], "grammar_errors": stats.grammar_errors,
        **({"services": stats.services} if stats.services else {}),
    }
    if commits:
        from codesift.cli.history import index_commits

        summary["history"] = index_commits(idx, commits, embed=not no_embed, console=None if quiet or as_json
                                           else console)
    if as_json:
        click.echo(json.dumps(summary, indent=2))
        return
    console.print(
        f"[bold]{summary['files']}[/] files, [bold]{summary['symbols']}[/] symbols "
        f"({summary['chunks']} chunks) in {escape(str(idx.root))}\n"
        f"parsed {stats.files_parsed}, unchanged {stats.files_unchanged}, deleted {stats.files_deleted} "
        f"in {stats.parse_seconds:.1f}s; embedded {stats.embedded} in {stats.embed_seconds:.1f}s; "
        f"semantic coverage {share(status['coverage'])}"
    )
    for name, svc in stats.services.items():
        console.print(escape(f"service {name}: {svc['files']} files ({svc['state']}"
                             + (f", commit {str(svc['commit'])[:12]}" if svc.get("commit") else "") + ")"))
    if stats.skipped:
        console.print("skipped: " + ", ".join(f"{n} {r}" for r, n in sorted(stats.skipped.items())))
    if stats.warnings:
        console.print(escape(warnings_line(stats.warnings, stats.warned_files)))
    for lang, error in sorted(stats.grammar_errors.items()):
        console.print(f"[yellow]{lang} grammar failed to load[/]: its files were indexed as line windows "
                      f"(no symbols, no usages): {escape(error)}")
    if status["embedding_status"] != "ok":
        console.print(f"[yellow]keyword-only[/]: {escape(str(status.get('embedding_reason')))}; "
                      f"fix: {escape(str(status.get('embedding_fix')))}")
    if commits:
        from codesift.cli.history import history_line

        console.print(escape(history_line(summary["history"])))


@click.command()
@click.argument("path", required=False, type=click.Path())
@click.option("--json", "as_json", is_flag=True, help="Print status as JSON.")
def status(path: str | None, as_json: bool) -> None:
    """Show what is indexed: counts, languages, skipped files, model, embedding coverage.

    Exits 1 with "no index here" (and creates nothing) when PATH has no index.
    """
    from codesift.api import NoIndexError

    try:
        idx = open_index(path, for_search=path is None, create=False)
    except NoIndexError as exc:  # an answer, not an error: on stdout, plain or as JSON
        if as_json:
            click.echo(json.dumps({"indexed": False, "root": str(exc.root), "index_dir": str(exc.folder),
                                   "message": str(exc)}, indent=2))
        else:
            click.echo(str(exc))
        sys.exit(EXIT_NO_INDEX)
    info = idx.status()
    if as_json:
        click.echo(json.dumps(info, indent=2))
        return
    from codesift.cli.render import print_status

    print_status(info)
