"""``codesift serve`` (MCP over stdio or HTTP, and the page) and ``codesift watch``."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from codesift.cli.common import fail, open_index

if TYPE_CHECKING:
    from codesift.indexing.indexer import UpdateStats


@click.command()
@click.argument("path", required=False, type=click.Path(file_okay=True, dir_okay=True))
@click.option("--quiet", "-q", is_flag=True, help="Print nothing for each update.")
def watch(path: str | None, quiet: bool) -> None:
    """Index PATH, then keep the index fresh as files change (Ctrl-C to stop)."""
    from codesift.store.lock import IndexBusy
    from codesift.server.watch import watch as run_watch

    target = Path(path or ".")
    if not target.is_dir():
        fail(f"not a directory: {target}" if target.exists() else f"no such directory: {target}")
    idx = open_index(str(target))

    def report(stats: UpdateStats) -> None:
        if not quiet and (stats.files_parsed or stats.files_deleted or stats.embedded):
            click.echo(f"updated: {stats.files_parsed} parsed, {stats.files_deleted} deleted, "
                       f"{stats.embedded} embedded", err=True)

    try:
        report(idx.update())
        click.echo(f"watching {idx.root} (Ctrl-C to stop)", err=True)
        run_watch(idx, on_update=report)
    except IndexBusy as exc:
        fail(str(exc), 1)
    except KeyboardInterrupt:
        pass


@click.command()
@click.argument("path", required=False, type=click.Path())
@click.option("--http", is_flag=True, help="Serve streamable HTTP instead of stdio.")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to bind with --http.")
@click.option("--port", default=8765, show_default=True, type=click.IntRange(1, 65535), help="Port for --http.")
@click.option("--no-embed", is_flag=True,
              help="Don't embed new or changed chunks while serving; searches still use the vectors already stored.")
@click.option("--watch", "watch_files", is_flag=True, help="Apply file changes as they happen.")
def serve(path: str | None, http: bool, host: str, port: int, no_embed: bool, watch_files: bool) -> None:
    """Serve PATH (default: the current directory) to AI agents over MCP.

    stdio by default (the client starts this command); with --http, streamable HTTP on
    http://HOST:PORT/mcp. The index is refreshed at start; embedding continues in the background.
    """
    try:
        from codesift.server.mcp import serve as run_server
    except ImportError as exc:
        fail(f"the MCP server needs the `mcp` package ({exc.name} missing): pip install 'mcp>=2.3'")
    from codesift.config.env import read_env
    from codesift.server.auth import UnsafeBind, check_bind

    token = read_env().token if http else None  # CODESIFT_TOKEN
    if http:
        try:
            check_bind(host, token)  # before anything is opened or bound
        except UnsafeBind as exc:
            fail(str(exc))
    idx = open_index(path)
    if http:
        click.echo(f"codesift: serving {idx.root} on http://{host}:{port}/mcp (MCP) and http://{host}:{port}/ "
                   "(search page)", err=True)
    try:
        run_server(idx, http=http, host=host, port=port, embed=not no_embed, watch=watch_files, token=token)
    except KeyboardInterrupt:
        pass
    except OSError as exc:  # port in use, say
        fail(f"cannot serve: {exc.strerror or exc}", code=1)
