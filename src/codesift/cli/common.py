"""What every command shares: exit codes, argument clean-up, opening the index, the progress bar.

Heavy modules (tantivy, onnxruntime, tree-sitter) are imported inside the functions so that ``--help``
and argument errors stay instant.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn, overload

import click

if TYPE_CHECKING:
    from rich.console import Console
    from rich.progress import Progress

EXIT_USAGE = 2
EXIT_NO_INDEX = 1  # status, search/usages --no-update on a folder that has no index (nothing is created)
EXIT_DAMAGED = 1  # a read-only command found the index's database damaged (``codesift index`` rebuilds it)
EXIT_FAILED = 1  # an error codesift raised on purpose (a full disk, the indexed folder gone): its one line said
CONFIG_OVERRIDES = "config_overrides"  # key of click's context object: the global options as Config fields
SERVICE_HELP = "Only this service (a top-level folder or a [[services]] name); repeatable, or comma-separated."


def fail(message: str, code: int = EXIT_USAGE) -> NoReturn:
    click.echo(f"codesift: {message}", err=True)
    sys.exit(code)


def damaged_line(exc: BaseException) -> str:
    """One line for damage SQLite found in the index's database after it was opened."""
    return (f"the index database (meta.db) is damaged ({exc}): run `codesift index` to set it aside and rebuild "
            "the index from the tree")


@overload
def text_arg(value: str) -> str: ...
@overload
def text_arg(value: None) -> None: ...
def text_arg(value: str | None) -> str | None:
    """A command-line argument as valid Unicode: undecodable bytes (surrogate escapes) become U+FFFD."""
    if value is None:
        return None
    try:
        return value.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    except UnicodeEncodeError:  # a surrogate that is not an escaped byte
        return value.encode("utf-8", "replace").decode("utf-8")


def service_list(values: tuple[str, ...] | str | None) -> list[str] | None:
    """Repeated (or comma-separated) ``--service`` values as one list; None when none was given."""
    if isinstance(values, str):
        values = (values,)
    out = [s.strip() for v in values or () for s in (text_arg(v) or "").split(",") if s.strip()]
    return out or None


def checked(check: Callable[[object], str], value: str | None) -> str:
    """A query or name passed through its ``codesift.limits`` check before any index is opened: the
    API's and MCP's words, as one line with exit code 2."""
    from codesift.limits import InputError

    try:
        return check(value)
    except InputError as exc:
        fail(str(exc))
        raise  # unreachable: fail exits


def config_overrides() -> dict[str, str]:
    """The settings the global options (``--backend``, ``--qdrant-url``, ``--qdrant-service``) give, as Config
    fields: ``main`` put them in click's context object; they win over the environment and codesift.toml."""
    ctx = click.get_current_context(silent=True)
    obj = ctx.find_object(dict) if ctx is not None else None
    return dict(obj.get(CONFIG_OVERRIDES) or {}) if obj is not None else {}


# TODO: typed payloads. open_index and fresh_index return a codesift.Index, left unannotated until its answers
# are typed: annotated now, every command's read of a dict[str, object] answer fails mypy.
def open_index(root: str | None, *, for_search: bool = False, create: bool = True,
               reader: bool | None = None, check: bool = False):
    """The Index of ``root``; with ``create=False`` a missing index raises NoIndexError (see ``codesift.cli.app``);
    ``reader=False``: never a Qdrant reader (``index`` writes); ``check``: read every page of its database.

    A damaged database: with ``create`` it is set aside and rebuilt, said once on stderr; without, one line and
    exit 1."""
    from codesift.api import Index, IndexDamaged, IndexMismatchError, find_root
    from codesift.config.settings import ConfigError

    try:
        if root is None:
            base = find_root(Path.cwd()) if for_search else Path.cwd()
        else:
            base = Path(root)
        idx = Index(base, create=create, reader=reader, config_overrides=config_overrides(), check=check)
    except (FileNotFoundError, NotADirectoryError, ConfigError, IndexMismatchError) as exc:
        fail(str(exc))
    except IndexDamaged as exc:
        fail(str(exc), EXIT_DAMAGED)
    except PermissionError as exc:
        fail(f"permission denied: {exc.filename or exc}")
    for note in idx.repaired:
        click.echo(f"codesift: {note}", err=True)
    return idx


def fresh_index(root: str | None, no_update: bool):
    """The index for a read command, brought up to date first unless ``no_update`` (keyword side only;
    with ``no_update`` nothing is created either)."""
    from codesift.store.lock import IndexBusy, IndexWriteError

    idx = open_index(root, for_search=True, create=not no_update)
    if not no_update:
        try:
            idx = refreshed(idx, root, embed=False)
        except IndexBusy:
            click.echo("note: another process is updating the index; using it as it is", err=True)
        except IndexWriteError as exc:  # a full disk: the index as it was still answers
            click.echo(f"note: {exc}", err=True)
    return idx


def refreshed(idx, root: str | None, **update: object):  # noqa: ANN201 - a codesift.Index (see above)
    """``idx`` after ``idx.update(lock_timeout=0, **update)``; when the update reads a damaged page the open did not,
    the index reopened with every page read (so the damaged file is set aside and rebuilt, said on stderr) and
    updated again. Raises IndexBusy as ``update`` does."""
    from codesift.store.damage import IndexDamaged, is_damage
    from codesift.store.sqlite import StoreError

    try:
        idx.update(lock_timeout=0, **update)
    except (StoreError, IndexDamaged) as exc:
        if not is_damage(exc):
            raise
        idx.close()
        idx = open_index(root, for_search=True, check=True)
        idx.update(lock_timeout=0, **update)
    return idx


def progress_printer(console: Console) -> tuple[Progress, Callable[[str, int, int], None]]:
    from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TaskID, TextColumn,
                               TimeElapsedColumn, TimeRemainingColumn)

    bar = Progress(
        TextColumn("{task.description:<8}"), BarColumn(), MofNCompleteColumn(),
        TextColumn("{task.fields[rate]}"), TimeElapsedColumn(), TimeRemainingColumn(),
        console=console, transient=False,
    )
    tasks: dict[str, TaskID] = {}
    from codesift.cli.render import RateMeter

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
