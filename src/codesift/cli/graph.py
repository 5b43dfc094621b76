"""CLI commands of the graph tools, added to :data:`codesift.cli.app.main` by its command list:
``map``, ``callers``, ``callees`` and ``impact``."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable

import click

from codesift.cli.common import checked, fail, fresh_index, service_list, text_arg

ROOT_HELP = "Indexed root (default: found from the current directory)."


def _items(result: dict) -> None:
    """``--json`` of callers / callees / impact: the list of items, notes on stderr."""
    click.echo(json.dumps(result["results"], indent=1))
    if result.get("note"):
        click.echo(f"note: {result['note']}", err=True)


@click.command("map")
@click.option("--budget", default=1000, show_default=True, type=click.IntRange(1, None),
              help="Size of the map in tokens (estimated as characters / 4).")
@click.option("--focus", multiple=True, help="A file, folder or symbol name you are working on (repeatable): "
                                             "what it uses and what uses it rank first.")
@click.option("--service", "service", multiple=True, help="Map only this service (a top-level folder, a [[services]] "
              "name or any folder prefix); repeatable.")
@click.option("--offset", default=0, type=click.IntRange(0, None), help="Skip this many ranked definitions.")
@click.option("--root", type=click.Path(), help=ROOT_HELP)
@click.option("--json", "as_json", is_flag=True, help="Print the map as JSON (files with their ranked symbols).")
@click.option("--no-update", is_flag=True, help="Use the index as it is, without refreshing it first.")
def repo_map(budget: int, focus: tuple[str, ...], service: tuple[str, ...], offset: int, root: str | None,
             as_json: bool, no_update: bool) -> None:
    """The most referenced definitions of the repository, grouped by file with their signatures."""
    focus_items = [text_arg(f) or "" for f in focus]
    idx = fresh_index(root, no_update)
    try:
        result = idx.repo_map(budget_tokens=budget, focus=focus_items, service=service_list(service), offset=offset)
    except ValueError as exc:
        fail(str(exc))
    if as_json:
        click.echo(json.dumps(result, indent=1))
        return
    from codesift.tools.markdown.graph import render_map

    click.echo(render_map(result, cli=True).text)


def _name_command(name: str, help_text: str) -> Callable[[Callable[..., None]], click.Command]:
    """The options shared by callers / callees / impact."""
    def wrap(fn: Callable[..., None]) -> click.Command:
        fn = click.option("--no-update", is_flag=True, help="Use the index as it is, without refreshing it first.")(fn)
        fn = click.option("--json", "as_json", is_flag=True, help="Print a JSON array of {path, line, name, ...}.")(fn)
        fn = click.option("--root", type=click.Path(), help=ROOT_HELP)(fn)
        fn = click.option("--service", "service", multiple=True, help="Only this service (a top-level folder or a "
                          "[[services]] name); repeatable.")(fn)
        fn = click.argument("name")(fn)
        return click.command(name, help=help_text, context_settings={"ignore_unknown_options": True})(fn)
    return wrap


@_name_command("callers", "The definitions that call NAME (a name or Type.name), one line per caller.")
def callers(name: str, service: tuple[str, ...], root: str | None, as_json: bool, no_update: bool) -> None:
    _run("callers", name, service, root, as_json, no_update)


@_name_command("callees", "What the body of NAME calls, resolved to definitions where the index can.")
def callees(name: str, service: tuple[str, ...], root: str | None, as_json: bool, no_update: bool) -> None:
    _run("callees", name, service, root, as_json, no_update)


@_name_command("impact", "The definitions and files that reach NAME within --depth hops of uses.")
@click.option("--depth", default=2, show_default=True, type=click.IntRange(1, 10), help="Hops followed.")
def impact(name: str, depth: int, service: tuple[str, ...], root: str | None, as_json: bool, no_update: bool) -> None:
    _run("impact", name, service, root, as_json, no_update, depth=depth)


def _run(tool: str, name: str, service: tuple[str, ...], root: str | None, as_json: bool, no_update: bool,
         **extra: int) -> None:
    from codesift.limits import check_name
    from codesift.tools.markdown import graph as mdg

    name, services = checked(check_name, text_arg(name)), service_list(service)
    idx = fresh_index(root, no_update)
    try:
        result = getattr(idx, tool)(name, service=services, **extra)
    except ValueError as exc:
        fail(str(exc))
    if as_json:
        _items(result)
    else:
        renderers: dict[str, Callable[..., mdg.Rendered]] = {
            "callers": mdg.render_callers, "callees": mdg.render_callees, "impact": mdg.render_impact}
        click.echo(renderers[tool]({**result, "offset": 0}, 10**9, cli=True).text)
    if not result["results"]:
        sys.exit(1)  # as grep does: nothing found


COMMANDS = (repo_map, callers, callees, impact)
