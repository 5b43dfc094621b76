"""The ``codesift`` command: a thin shell over :class:`codesift.Index`.

Heavy modules (tantivy, onnxruntime, tree-sitter) are imported inside the commands so that ``--help``
and argument errors stay instant.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from .limits import MAX_SEARCH_LIMIT, MAX_USAGES_LIMIT

EXIT_USAGE = 2
EXIT_NO_INDEX = 1  # status, search/usages --no-update on a folder that has no index (nothing is created)
SERVICE_HELP = "Only this service (a top-level folder or a [[services]] name); repeatable, or comma-separated."


def _fail(message: str, code: int = EXIT_USAGE) -> None:
    click.echo(f"codesift: {message}", err=True)
    sys.exit(code)


def _text(value: str | None) -> str | None:
    """A command-line argument as valid Unicode: undecodable bytes (surrogate escapes) become U+FFFD."""
    if value is None:
        return None
    try:
        return value.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    except UnicodeEncodeError:  # a surrogate that is not an escaped byte
        return value.encode("utf-8", "replace").decode("utf-8")


def _services(values: tuple[str, ...] | str | None) -> list[str] | None:
    """Repeated (or comma-separated) ``--service`` values as one list; None when none was given."""
    if isinstance(values, str):
        values = (values,)
    out = [s.strip() for v in values or () for s in (_text(v) or "").split(",") if s.strip()]
    return out or None


def _checked(check, value: str | None) -> str:  # noqa: ANN001 - a codesift.limits check
    """A query or name passed through its ``codesift.limits`` check before any index is opened: the
    API's and MCP's words, as one line with exit code 2."""
    from .limits import InputError

    try:
        return check(value)
    except InputError as exc:
        _fail(str(exc))
        raise  # unreachable: _fail exits


def _open(root: str | None, *, for_search: bool = False, create: bool = True,  # noqa: ANN202 - lazy import
          reader: bool | None = None):
    """The Index of ``root``; with ``create=False`` a missing index raises NoIndexError (see ``_Group``);
    ``reader=False``: never a Qdrant reader (``index`` writes)."""
    from .api import Index, IndexMismatchError, find_root
    from .config import ConfigError

    try:
        if root is None:
            base = find_root(Path.cwd()) if for_search else Path.cwd()
        else:
            base = Path(root)
        return Index(base, create=create, reader=reader)
    except (FileNotFoundError, NotADirectoryError, ConfigError, IndexMismatchError) as exc:
        _fail(str(exc))
    except PermissionError as exc:
        _fail(f"permission denied: {exc.filename or exc}")


def _fresh_index(root: str | None, no_update: bool):  # noqa: ANN202 - codesift.Index, imported lazily
    """The index for a read command, brought up to date first unless ``no_update`` (keyword side only;
    with ``no_update`` nothing is created either)."""
    from .store.lock import IndexBusy

    idx = _open(root, for_search=True, create=not no_update)
    if not no_update:
        try:
            idx.update(embed=False, lock_timeout=0)
        except IndexBusy:
            click.echo("note: another process is updating the index; using it as it is", err=True)
    return idx


def _progress_printer(console):  # noqa: ANN001, ANN202 - rich objects
    from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn,
                               TimeElapsedColumn, TimeRemainingColumn)

    bar = Progress(
        TextColumn("{task.description:<8}"), BarColumn(), MofNCompleteColumn(),
        TextColumn("{task.fields[rate]}"), TimeElapsedColumn(), TimeRemainingColumn(),
        console=console, transient=False,
    )
    tasks: dict[str, int] = {}
    from .render import RateMeter

    meter = RateMeter()

    def update(stage: str, done: int, total: int) -> None:
        if stage not in tasks:
            if stage == "embed" and total:
                # Parsing is committed: searches work from here on, embedding only improves them.
                bar.console.print(f"keyword search is ready (`codesift search` works now); embedding {total:,} "
                                  "texts (chunks, then long definitions' windows) for semantic search — "
                                  "Ctrl-C keeps what is done")
            label = {"parse": "files", "embed": "embed"}.get(stage, stage)
            tasks[stage] = bar.add_task(label, total=total, rate="")
        unit = "files/s" if stage == "parse" else "texts/s"
        bar.update(tasks[stage], completed=done, total=total, rate=meter.text(stage, done, unit))

    return bar, update


class _Group(click.Group):
    """Index/model mismatches and bad settings can surface in any command: one line, exit 2."""

    def invoke(self, ctx: click.Context) -> object:
        from .api import IndexMismatchError, NoIndexError
        from .config import ConfigError
        from .store.qdrant import QdrantMissing, QdrantUnavailable

        try:
            return super().invoke(ctx)
        except (IndexMismatchError, ConfigError, QdrantMissing, QdrantUnavailable) as exc:
            click.echo(f"codesift: {exc}", err=True)
            ctx.exit(EXIT_USAGE)
        except NoIndexError as exc:  # a read-only command found nothing to read (and created nothing)
            click.echo(f"codesift: {exc}", err=True)
            ctx.exit(EXIT_NO_INDEX)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="codesift")
@click.option("--backend", type=click.Choice(["embedded", "qdrant"], case_sensitive=False),
              help="Where the search indexes live (default: codesift.toml's backend, else CODESIFT_BACKEND, else "
              "embedded).")
@click.option("--qdrant-url", help="Qdrant for --backend qdrant: http(s)://host:port, or a folder or :memory: for "
              "qdrant-client's local mode (default: CODESIFT_QDRANT_URL, else codesift.toml's qdrant_url).")
@click.option("--qdrant-service", help="The service to read or write in the collection (default: "
              "CODESIFT_QDRANT_SERVICE, else codesift.toml's qdrant_service, else the root folder's name); "
              "'*' reads every service (a reader: no local index).")
def main(backend: str | None, qdrant_url: str | None, qdrant_service: str | None) -> None:
    """Local hybrid (BM25 + dense) code search over symbols, for people and AI agents."""
    import os

    # Every command reads its settings through codesift.config, where these variables win over the file:
    # the options override both, for this process.
    if backend:
        os.environ["CODESIFT_BACKEND"] = backend.lower()
    if qdrant_url:
        os.environ["CODESIFT_QDRANT_URL"] = qdrant_url
    if qdrant_service:
        os.environ["CODESIFT_QDRANT_SERVICE"] = qdrant_service


# A query may itself start with "-" ("--cert option accepting a file"): unknown option-like words
# are taken as the query instead of failing as a bad option.
@main.command(context_settings={"ignore_unknown_options": True})
@click.argument("query")
@click.option("--limit", "-n", default=10, show_default=True, type=click.IntRange(1, MAX_SEARCH_LIMIT))
@click.option("--path", "path_filter", help="Path prefix or glob (e.g. src/ or '**/*.py').")
@click.option("--lang", "language", help="Language(s), comma-separated (python,go,...).")
@click.option("--kind", help="Symbol kind(s), comma-separated (function,method,class,...).")
@click.option("--mode", type=click.Choice(["hybrid", "keyword", "semantic"]), default="hybrid", show_default=True)
@click.option("--root", type=click.Path(), help="Indexed root (default: found from the current directory).")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON array of results.")
@click.option("--threshold", type=click.FloatRange(0, 1), help="Drop results scoring below this (0-1).")
@click.option("--explain", is_flag=True, help="Show each result's ranks, weights, bonuses and boosts.")
@click.option("--no-update", is_flag=True, help="Search the index as it is, without refreshing it first.")
@click.option("--service", "services", multiple=True, help=SERVICE_HELP)
def search(query: str, limit: int, path_filter: str | None, language: str | None, kind: str | None,
           mode: str, root: str | None, as_json: bool, threshold: float | None, explain: bool,
           no_update: bool, services: tuple[str, ...]) -> None:
    """Search the index for QUERY (updating it first when files changed)."""
    from .store.lock import IndexBusy

    from .limits import check_query

    query, path_filter, language, kind = _text(query), _text(path_filter), _text(language), _text(kind)
    query = _checked(check_query, query)
    idx = _open(root, for_search=True, create=not no_update)  # --no-update reads only: no index, no folder
    try:
        if not no_update:
            try:
                idx.update(embed=mode != "keyword", embed_threshold=idx.config.auto_embed_limit, lock_timeout=0)
            except IndexBusy:
                click.echo("note: another process is updating the index; searching it as it is", err=True)
        response = idx.search(query, limit=limit, mode=mode, path=path_filter, language=language, kind=kind,
                              threshold=threshold, service=_services(services))
    except ValueError as exc:
        _fail(str(exc))
    except KeyboardInterrupt:
        sys.exit(130)
    if as_json:
        keys = ["path", "start_line", "end_line", "score", "name", "qualified_name", "kind", "language",
                "snippet", "snippet_line", "label", "score_kind", "nearby"]
        if explain:
            keys += ["keyword_rank", "vector_rank", "explain"]
        click.echo(json.dumps([{k: getattr(r, k) for k in keys} for r in response.results], indent=1))
        for note in response.notes:
            click.echo(f"note: {note}", err=True)
        return
    from .render import print_results

    print_results(response, explain=explain)


@main.command(context_settings={"ignore_unknown_options": True})
@click.argument("name")
@click.option("--limit", "-n", default=500, show_default=True, type=click.IntRange(1, MAX_USAGES_LIMIT))
@click.option("--service", "service", multiple=True, help=SERVICE_HELP)
@click.option("--root", type=click.Path(), help="Indexed root (default: found from the current directory).")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON array of {path, line, kind, enclosing}.")
@click.option("--no-update", is_flag=True, help="Use the index as it is, without refreshing it first.")
def usages(name: str, limit: int, service: tuple[str, ...], root: str | None, as_json: bool, no_update: bool) -> None:
    """Find real references to NAME (calls, reads, imports, types, inheritance)."""
    from .limits import check_name

    name, services = _checked(check_name, _text(name)), _services(service)
    idx = _fresh_index(root, no_update)
    try:
        result = idx.find_usages(name, limit=limit, service=services)
    except ValueError as exc:
        _fail(str(exc))
    if as_json:
        keys = ("path", "line", "kind", "enclosing", "qualifier", "target", "test", "score", "context")
        click.echo(json.dumps([{k: u[k] for k in keys if k in u} for u in result["usages"]], indent=1))
        if result.get("note"):
            click.echo(f"note: {result['note']}", err=True)
    else:
        from .tools.markdown import render_usages

        payload = {**result, "symbol_name": name, "results": result["usages"], "offset": 0}
        click.echo(render_usages(payload, max_chars=10**9).text)
    if not result["usages"] or result.get("source") == "semantic_guess":
        sys.exit(1)  # as grep does: no reference found (semantic guesses are not references)


@main.command(context_settings={"ignore_unknown_options": True})
@click.argument("name")
@click.option("--kind", help="Symbol kind(s), comma-separated (function,method,class,...).")
@click.option("--limit", "-n", default=20, show_default=True, type=click.IntRange(1, 100))
@click.option("--service", "service", multiple=True, help=SERVICE_HELP)
@click.option("--exact", is_flag=True, help="Only exact (qualified) name matches.")
@click.option("--root", type=click.Path(), help="Indexed root (default: found from the current directory).")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON array of definitions.")
@click.option("--no-update", is_flag=True, help="Use the index as it is, without refreshing it first.")
def symbol(name: str, kind: str | None, limit: int, service: tuple[str, ...], exact: bool, root: str | None,
           as_json: bool, no_update: bool) -> None:
    """Find definitions by NAME: exact, then prefix, camel-hump (RCJ) and substring matches."""
    from .limits import check_name

    name, kind, services = _checked(check_name, _text(name)), _text(kind), _services(service)
    idx = _fresh_index(root, no_update)
    try:
        found = idx.find_symbol(name, kind=kind, exact=exact, service=services)
    except ValueError as exc:
        _fail(str(exc))
    click.echo(json.dumps(found[:limit], indent=1) if as_json else symbols_text(name, found, limit))
    if not found:
        sys.exit(1)  # as grep does: nothing found


def symbols_text(name: str, found: list[dict], limit: int) -> str:
    """find_symbol's answer for a terminal: one line per definition (location, name, kind, match), then
    its signature indented; says how many more matched past ``limit``."""
    if not found:
        return f"No definition matches {name!r}. Try a shorter part of the name, or `codesift search`."
    lines = []
    for s in found[:limit]:
        lines.append(f"{s['path']}:{s['start_line']}-{s['end_line']}  {s['qualified_name']} ({s['kind']})"
                     f"  {s['match']} match")
        if s.get("signature"):
            lines.append("    " + " ".join(str(s["signature"]).split()))
    if len(found) > limit:
        lines.append(f"… {len(found) - limit} more; raise --limit (up to 100) or narrow with --kind / --service")
    return "\n".join(lines)


@main.command()
@click.argument("path", required=False, type=click.Path(file_okay=True, dir_okay=True))
@click.option("--quiet", "-q", is_flag=True, help="Print nothing for each update.")
def watch(path: str | None, quiet: bool) -> None:
    """Index PATH, then keep the index fresh as files change (Ctrl-C to stop)."""
    from .store.lock import IndexBusy
    from .watch import watch as run_watch

    target = Path(path or ".")
    if not target.is_dir():
        _fail(f"not a directory: {target}" if target.exists() else f"no such directory: {target}")
    idx = _open(str(target))

    def report(stats) -> None:  # noqa: ANN001 - UpdateStats
        if not quiet and (stats.files_parsed or stats.files_deleted or stats.embedded):
            click.echo(f"updated: {stats.files_parsed} parsed, {stats.files_deleted} deleted, "
                       f"{stats.embedded} embedded", err=True)

    try:
        report(idx.update())
        click.echo(f"watching {idx.root} (Ctrl-C to stop)", err=True)
        run_watch(idx, on_update=report)
    except IndexBusy as exc:
        _fail(str(exc), 1)
    except KeyboardInterrupt:
        pass


@main.command()
@click.argument("path", required=False, type=click.Path())
@click.option("--json", "as_json", is_flag=True, help="Print status as JSON.")
def status(path: str | None, as_json: bool) -> None:
    """Show what is indexed: counts, languages, skipped files, model, embedding coverage.

    Exits 1 with "no index here" (and creates nothing) when PATH has no index.
    """
    from .api import NoIndexError

    try:
        idx = _open(path, for_search=path is None, create=False)
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
    from .render import print_status

    print_status(info)


@main.command()
@click.argument("path", required=False, type=click.Path())
@click.option("--http", is_flag=True, help="Serve streamable HTTP instead of stdio.")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to bind with --http.")
@click.option("--port", default=8765, show_default=True, type=click.IntRange(1, 65535), help="Port for --http.")
@click.option("--no-embed", is_flag=True, help="Don't embed new or changed chunks while serving; searches still use the vectors already stored.")
@click.option("--watch", "watch_files", is_flag=True, help="Apply file changes as they happen.")
def serve(path: str | None, http: bool, host: str, port: int, no_embed: bool, watch_files: bool) -> None:
    """Serve PATH (default: the current directory) to AI agents over MCP.

    stdio by default (the client starts this command); with --http, streamable HTTP on
    http://HOST:PORT/mcp. The index is refreshed at start; embedding continues in the background.
    """
    try:
        from .mcp_server import serve as run_server
    except ImportError as exc:
        _fail(f"the MCP server needs the `mcp` package ({exc.name} missing): pip install 'mcp>=2.3'")
    from .http_auth import UnsafeBind, check_bind, token_from_env

    token = token_from_env() if http else None
    if http:
        try:
            check_bind(host, token)  # before anything is opened or bound
        except UnsafeBind as exc:
            _fail(str(exc))
    idx = _open(path)
    if http:
        click.echo(f"codesift: serving {idx.root} on http://{host}:{port}/mcp (MCP) and http://{host}:{port}/ "
                   "(search page)", err=True)
    try:
        run_server(idx, http=http, host=host, port=port, embed=not no_embed, watch=watch_files, token=token)
    except KeyboardInterrupt:
        pass
    except OSError as exc:  # port in use, say
        _fail(f"cannot serve: {exc.strerror or exc}", code=1)


@main.command()
@click.argument("client")
@click.option("--print", "print_only", is_flag=True, help="Print the config instead of writing it.")
@click.option("--path", "root", default=".", type=click.Path(), show_default=True, help="The project to serve.")
@click.option("--config", "config_file", type=click.Path(dir_okay=False), help="Write this config file instead.")
@click.option("--instructions", is_flag=True, help="Also add a block saying when to use which codesift tool to the "
              "client's instruction file(s) (AGENTS.md; CLAUDE.md and a skill; a Cursor rule; "
              ".github/copilot-instructions.md); text outside the block is never changed.")
def init(client: str, print_only: bool, root: str, config_file: str | None, instructions: bool) -> None:
    """Register `codesift serve` for CLIENT (claude-code, claude-desktop, cursor, vscode, codex); with
    --instructions also tell the agent when to use which tool (CLIENT `generic`: only AGENTS.md)."""
    from . import init_instructions as guide
    from .init_clients import CLIENTS, InitError, install, snippet

    target = Path(root).expanduser()
    cfg = Path(config_file).expanduser() if config_file else None
    try:
        config = guide.wants_config(client, instructions, print_only)
        if not target.is_dir():
            _fail(f"no such directory: {root}" if not target.exists() else f"not a directory: {root}")
        target = target.resolve()
        if print_only:
            click.echo(guide.print_text(client, target, cfg) if instructions else snippet(client, target), nl=False)
            return
        planned = guide.plan(client, target) if instructions else []  # refused before anything is written
        result = install(client, target, cfg) if config else None
        guide.write(planned)
    except InitError as exc:
        _fail(str(exc))
    if result is not None:
        verb = "updated" if result.replaced else "added"
        click.echo(f"codesift: {verb} MCP server 'codesift' for {target} in {result.path}; "
                   f"restart {CLIENTS[client].label} to use it")
    for p in planned:
        click.echo(f"codesift: {p.said} {p.path}")


# Commands kept in their own modules join the group when these are imported.
from . import cli_doctor, cli_graph, cli_history, cli_index, cli_nav  # noqa: E402, F401
