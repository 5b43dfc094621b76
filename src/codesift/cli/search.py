"""``codesift search``, ``codesift usages`` and ``codesift symbol``: the read commands over one index."""

from __future__ import annotations

import json
import sys

import click

from codesift.cli.common import (SERVICE_HELP, checked, fail, fresh_index, open_index, refreshed, service_list,
                                 text_arg)
from codesift.limits import MAX_SEARCH_LIMIT, MAX_USAGES_LIMIT


# A query may itself start with "-" ("--cert option accepting a file"): unknown option-like words
# are taken as the query instead of failing as a bad option.
@click.command(context_settings={"ignore_unknown_options": True})
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
    from codesift.store.lock import IndexBusy, IndexWriteError

    from codesift.limits import check_query

    query, path_filter, language, kind = text_arg(query), text_arg(path_filter), text_arg(language), text_arg(kind)
    query = checked(check_query, query)
    idx = open_index(root, for_search=True, create=not no_update)  # --no-update reads only: no index, no folder
    try:
        if not no_update:
            try:
                idx = refreshed(idx, root, embed=mode != "keyword", embed_threshold=idx.config.auto_embed_limit)
            except IndexBusy:
                click.echo("note: another process is updating the index; searching it as it is", err=True)
            except IndexWriteError as exc:  # a full disk: the index as it was still answers
                click.echo(f"note: {exc}; searching it as it is", err=True)
        response = idx.search(query, limit=limit, mode=mode, path=path_filter, language=language, kind=kind,
                              threshold=threshold, service=service_list(services))
    except ValueError as exc:
        fail(str(exc))
    except KeyboardInterrupt:
        sys.exit(130)
    if as_json:
        keys = ["path", "start_line", "end_line", "score", "name", "qualified_name", "kind", "language",
                "snippet", "snippet_line", "label", "score_kind", "nearby",
                "definition_start_line", "definition_end_line", "deprecated"]  # appended: earlier keys keep their order
        if explain:
            keys += ["keyword_rank", "vector_rank", "explain"]
        click.echo(json.dumps([{k: getattr(r, k) for k in keys} for r in response.results], indent=1))
        for note in response.notes:
            click.echo(f"note: {note}", err=True)
        return
    from codesift.cli.render import print_results, stages_line

    print_results(response, explain=explain, stages=stages_line(idx.config.rank))


@click.command(context_settings={"ignore_unknown_options": True})
@click.argument("name")
@click.option("--limit", "-n", default=500, show_default=True, type=click.IntRange(1, MAX_USAGES_LIMIT))
@click.option("--service", "service", multiple=True, help=SERVICE_HELP)
@click.option("--root", type=click.Path(), help="Indexed root (default: found from the current directory).")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON array of {path, line, kind, enclosing}.")
@click.option("--no-update", is_flag=True, help="Use the index as it is, without refreshing it first.")
def usages(name: str, limit: int, service: tuple[str, ...], root: str | None, as_json: bool, no_update: bool) -> None:
    """Find real references to NAME (calls, reads, imports, types, inheritance)."""
    from codesift.limits import check_name

    name, services = checked(check_name, text_arg(name)), service_list(service)
    idx = fresh_index(root, no_update)
    try:
        result = idx.find_usages(name, limit=limit, service=services)
    except ValueError as exc:
        fail(str(exc))
    if as_json:
        keys = ("path", "line", "kind", "enclosing", "qualifier", "target", "test", "score", "context")
        click.echo(json.dumps([{k: u[k] for k in keys if k in u} for u in result["usages"]], indent=1))
        if result.get("note"):
            click.echo(f"note: {result['note']}", err=True)
    else:
        from codesift.tools.markdown.usages import render_usages
        from codesift.tools.payloads import UsagesPage

        payload: UsagesPage = {**result, "symbol_name": name, "results": result["usages"], "offset": 0}
        click.echo(render_usages(payload, max_chars=10**9).text)
    if not result["usages"] or result.get("source") == "semantic_guess":
        sys.exit(1)  # as grep does: no reference found (semantic guesses are not references)


@click.command(context_settings={"ignore_unknown_options": True})
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
    from codesift.limits import check_name

    name, kind, services = checked(check_name, text_arg(name)), text_arg(kind), service_list(service)
    idx = fresh_index(root, no_update)
    try:
        found = idx.find_symbol(name, kind=kind, exact=exact, service=services)
    except ValueError as exc:
        fail(str(exc))
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
                     f"  {s['match']} match{', in tests' if s.get('test') else ''}")
        if s.get("signature"):
            lines.append("    " + " ".join(str(s["signature"]).split()))
    if len(found) > limit:
        lines.append(f"… {len(found) - limit} more; raise --limit (up to 100) or narrow with --kind / --service")
    return "\n".join(lines)
