"""CLI commands of the nav tools, added to :data:`codesift.cli.app.main` by its command list:
``grep`` (exact and regex search over the indexed files) and ``outline`` (a file's symbols, nested)."""

from __future__ import annotations

import json
import sys

import click

from codesift.cli.common import SERVICE_HELP, fail, fresh_index, open_index, service_list, text_arg


@click.command(context_settings={"ignore_unknown_options": True})
@click.argument("pattern")
@click.option("--regex", "-e", "regex", is_flag=True, help="PATTERN is a (Python) regular expression.")
@click.option("--path", "path_filter", help="Path prefix or glob (e.g. src/ or '**/*.py').")
@click.option("--lang", "language", help="Language(s), comma-separated (python,go,...).")
@click.option("--service", "service", multiple=True, help=SERVICE_HELP)
@click.option("--ignore-case", "-i", is_flag=True, help="Ignore case.")
@click.option("--context", "-C", "context_lines", default=0, type=click.IntRange(0, 100),
              help="Show N lines before and after each hit.")
@click.option("--limit", "-n", default=1000, show_default=True, type=click.IntRange(1, 1_000_000))
@click.option("--root", type=click.Path(), help="Indexed root (default: found from the current directory).")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON array of {path, line, text, enclosing, ...}.")
@click.option("--no-update", is_flag=True, help="Use the index as it is, without refreshing it first.")
def grep(pattern: str, regex: bool, path_filter: str | None, language: str | None, service: tuple[str, ...],
         ignore_case: bool, context_lines: int, limit: int, root: str | None, as_json: bool,
         no_update: bool) -> None:
    """Find the lines holding PATTERN (exact text, or a regex with -e) in the indexed files, each with
    its enclosing symbol. Candidate files come from a trigram index; hits are read from the live files."""
    from codesift.tools.grep import GrepError, compile_pattern

    pattern, path_filter, language = text_arg(pattern), text_arg(path_filter), text_arg(language)
    services = service_list(service)
    try:
        compile_pattern(pattern, regex=regex, case_sensitive=not ignore_case)  # refuse before opening anything
    except GrepError as exc:
        fail(str(exc))
    idx = fresh_index(root, no_update)
    try:
        result = idx.grep(pattern, regex=regex, path=path_filter, language=language, service=services,
                          case_sensitive=not ignore_case, context_lines=context_lines, limit=limit)
    except ValueError as exc:
        fail(str(exc))
    from codesift.tools.markdown.nav import grep_summary, grep_text

    if as_json:
        click.echo(json.dumps(result["results"], indent=1, ensure_ascii=False))
    elif result["results"]:
        click.echo(grep_text(result))
    for note in result["notes"]:
        click.echo(f"note: {note}", err=True)
    more = f"; more past --limit {limit}" if result["more"] else ""
    click.echo(f"codesift grep: {grep_summary(result)}{more}", err=True)
    if not result["results"]:
        sys.exit(1)  # as grep and rg do: nothing found


@click.command()
@click.argument("file")
@click.option("--root", type=click.Path(), help="Indexed root (default: found from the current directory).")
@click.option("--json", "as_json", is_flag=True,
              help="Print the nested JSON [{name, kind, start_line, end_line, signature, doc, children}].")
def outline(file: str, root: str | None, as_json: bool) -> None:
    """Show FILE's symbols (kind, name, signature, line range, first doc line), nested, without bodies."""
    from pathlib import Path

    from codesift.api import find_root

    file = text_arg(file) or ""
    target = Path(file).expanduser()
    here = target if target.is_absolute() else Path.cwd() / target
    if root is None:  # the index that holds the file, not the one of the current directory
        root = str(find_root(here.parent if here.parent.is_dir() else Path.cwd()))
        file = str(here)
    elif not target.is_absolute() and not (Path(root) / target).exists() and here.exists():
        file = str(here)  # relative to the current directory rather than to --root
    idx = open_index(root, create=False)
    try:
        result = idx.outline(file)
    except ValueError as exc:
        fail(str(exc))
    from codesift.tools.markdown.nav import outline_text, strip_outline

    if as_json:
        click.echo(json.dumps(strip_outline(result["symbols"]), indent=1, ensure_ascii=False))
    else:
        click.echo(outline_text(result))
    for note in result["notes"]:
        click.echo(f"note: {note}", err=True)


COMMANDS = (grep, outline)
