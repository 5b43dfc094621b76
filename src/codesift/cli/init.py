"""``codesift init CLIENT``: register ``codesift serve`` with an MCP client, and optionally its instructions."""

from __future__ import annotations

from pathlib import Path

import click

from codesift.cli.common import fail


@click.command()
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
    from codesift.init import instructions as guide
    from codesift.init.clients import CLIENTS, InitError, install, snippet

    target = Path(root).expanduser()
    cfg = Path(config_file).expanduser() if config_file else None
    try:
        config = guide.wants_config(client, instructions, print_only)
        if not target.is_dir():
            fail(f"no such directory: {root}" if not target.exists() else f"not a directory: {root}")
        target = target.resolve()
        if print_only:
            click.echo(guide.print_text(client, target, cfg) if instructions else snippet(client, target), nl=False)
            return
        planned = guide.plan(client, target) if instructions else []  # refused before anything is written
        result = install(client, target, cfg) if config else None
        guide.write(planned)
    except InitError as exc:
        fail(str(exc))
    if result is not None:
        verb = "updated" if result.replaced else "added"
        click.echo(f"codesift: {verb} MCP server 'codesift' for {target} in {result.path}; "
                   f"restart {CLIENTS[client].label} to use it")
    for p in planned:
        click.echo(f"codesift: {p.said} {p.path}")
