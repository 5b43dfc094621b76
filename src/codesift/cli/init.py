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
@click.option("--portable", is_flag=True, help="For a project config to commit (claude-code, cursor, vscode): run "
              "`codesift` from PATH on the project the client has open (${workspaceFolder}; Claude Code: "
              "${CLAUDE_PROJECT_DIR:-.}) instead of this checkout's absolute paths and virtualenv. Everyone "
              "using it needs `codesift` on PATH (pipx or uv tool install).")
@click.option("--instructions", is_flag=True, help="Also add a block saying when to use which codesift tool to the "
              "client's instruction file(s) (AGENTS.md; CLAUDE.md and a skill; a Cursor rule; "
              ".github/copilot-instructions.md); text outside the block is never changed.")
def init(client: str, print_only: bool, root: str, config_file: str | None, portable: bool,
         instructions: bool) -> None:
    """Register `codesift serve` for CLIENT (claude-code, claude-desktop, cursor, vscode, codex); with
    --instructions also tell the agent when to use which tool (CLIENT `generic`: only AGENTS.md).

    By default the entry names this installation's `codesift` and the project by absolute path, which
    suits a personal config; `.mcp.json`, `.cursor/mcp.json` and `.vscode/mcp.json` are project files
    often committed: --portable writes them so they work in any checkout. --print prints the entry and
    says (on stderr) which file it belongs in."""
    from codesift.init import instructions as guide
    from codesift.init.clients import CLIENTS, InitError, config_path, install, snippet, where_note

    target = Path(root).expanduser()
    cfg = Path(config_file).expanduser() if config_file else None
    try:
        config = guide.wants_config(client, instructions, print_only)
        if not target.is_dir():
            fail(f"no such directory: {root}" if not target.exists() else f"not a directory: {root}")
        target = target.resolve()
        if print_only:
            if instructions:
                click.echo(guide.print_text(client, target, cfg, portable), nl=False)
            else:
                click.echo(snippet(client, target, portable), nl=False)
                click.echo(f"codesift: {where_note(client, cfg or config_path(client, target), portable)}", err=True)
            return
        planned = guide.plan(client, target) if instructions else []  # refused before anything is written
        result = install(client, target, cfg, portable) if config else None
        guide.write(planned)
    except InitError as exc:
        fail(str(exc))
    if result is not None:
        verb = "updated" if result.replaced else "added"
        click.echo(f"codesift: {verb} MCP server 'codesift' for {target} in {result.path}; "
                   f"restart {CLIENTS[client].label} to use it")
        if CLIENTS[client].project and not portable:
            click.echo(f"codesift: {result.path.name} names this checkout's paths; to commit it, "
                       f"write it with --portable")
    for p in planned:
        click.echo(f"codesift: {p.said} {p.path}")
