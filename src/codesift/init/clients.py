"""``codesift init <client>``: register ``codesift serve <root>`` in an MCP client's config file.

Each client keeps its servers in a different file and shape; this module knows where and how, and
merges the ``codesift`` entry into what is there without touching the other servers. JSON files are
rewritten with their other keys intact; Codex's TOML is edited as text (only the
``[mcp_servers.codesift]`` table is replaced) and the result is checked with :mod:`tomllib`.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import sys
import tempfile
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from codesift.errors import CodesiftError

SERVER_NAME = "codesift"


class InitError(CodesiftError, ValueError):
    """The config cannot be written as asked (unknown client, unreadable file); the message says why."""


@dataclass(frozen=True, slots=True)
class ClientSpec:
    """Where a client keeps its MCP servers and how an entry looks there."""

    label: str
    servers_key: str  # the JSON object holding the servers ("mcpServers", "servers", "mcp_servers")
    fmt: str  # "json" | "toml"
    entry_type: str | None = None  # a "type" field some clients want ("stdio")
    project: bool = False  # the config lives in the project (root) rather than in the home folder


CLIENTS: dict[str, ClientSpec] = {
    "claude-code": ClientSpec("Claude Code", "mcpServers", "json", entry_type="stdio", project=True),
    "claude-desktop": ClientSpec("Claude Desktop", "mcpServers", "json"),
    "cursor": ClientSpec("Cursor", "mcpServers", "json", project=True),
    "vscode": ClientSpec("VS Code", "servers", "json", entry_type="stdio", project=True),
    "codex": ClientSpec("Codex", "mcp_servers", "toml"),
}


@dataclass(frozen=True, slots=True)
class InitResult:
    path: Path
    replaced: bool  # an older codesift entry was updated rather than added


def where_note(client: str, path: Path, portable: bool) -> str:
    """``--print``'s line (for stderr) naming the file the snippet belongs in, and for a project file
    holding this checkout's absolute paths, the ``--portable`` form that can be committed."""
    spec = spec_for(client)
    note = f"this belongs in {path} (under {spec.servers_key!r}, beside any other servers)"
    if spec.project and not portable:
        note += "; it names this checkout's paths: --portable gives a form to commit"
    return note


def spec_for(client: str) -> ClientSpec:
    try:
        return CLIENTS[client]
    except KeyError:
        raise InitError(f"unknown client {client!r}; choose one of: {', '.join(CLIENTS)}") from None


def config_path(client: str, root: Path, *, home: Path | None = None, platform: str | None = None,
                env: Mapping[str, str] | None = None) -> Path:
    """The config file ``client`` reads for a project at ``root`` (home/platform/env for tests)."""
    spec_for(client)
    home = home or Path.home()
    platform = platform or sys.platform
    env = os.environ if env is None else env
    if client == "claude-code":
        return root / ".mcp.json"
    if client == "cursor":
        return root / ".cursor" / "mcp.json"
    if client == "vscode":
        return root / ".vscode" / "mcp.json"
    if client == "codex":
        return Path(env["CODEX_HOME"]) / "config.toml" if env.get("CODEX_HOME") else home / ".codex" / "config.toml"
    # claude-desktop: the OS's per-user application-support folder
    if platform == "darwin":
        base = home / "Library" / "Application Support"
    elif platform.startswith("win"):
        base = Path(env["APPDATA"]) if env.get("APPDATA") else home / "AppData" / "Roaming"
    else:
        base = Path(env["XDG_CONFIG_HOME"]) if env.get("XDG_CONFIG_HOME") else home / ".config"
    return base / "Claude" / "claude_desktop_config.json"


# ``--portable``: the root as each client names the project itself, so the file can be committed
PORTABLE_ROOT = {"claude-code": "${CLAUDE_PROJECT_DIR:-.}", "cursor": "${workspaceFolder}",
                 "vscode": "${workspaceFolder}"}


def server_command(root: Path) -> tuple[str, list[str]]:
    """The command that serves ``root``: this installation's ``codesift`` script, by absolute path.

    An absolute path matters for GUI clients (Claude Desktop), which do not see a virtualenv's PATH;
    the script next to this interpreter is preferred over whichever ``codesift`` PATH finds first.
    """
    sibling = Path(sys.executable).with_name("codesift.exe" if sys.platform == "win32" else "codesift")
    exe = str(sibling) if sibling.is_file() else shutil.which("codesift")
    if exe:
        return str(Path(exe).absolute()), ["serve", str(root)]
    return sys.executable, ["-m", "codesift", "serve", str(root)]


def server_entry(client: str, root: Path, portable: bool = False) -> dict[str, Any]:
    """The ``codesift`` server entry; ``portable``: ``codesift`` from PATH serving the project the client
    has open (``${workspaceFolder}``; Claude Code's ``${CLAUDE_PROJECT_DIR:-.}``, its working folder),
    for a project config file meant to be committed, with no path of this checkout or its virtualenv."""
    spec = spec_for(client)
    if portable and client not in PORTABLE_ROOT:
        raise InitError(f"--portable is for a config kept in the project ({', '.join(PORTABLE_ROOT)}); "
                        f"{spec.label}'s lives in your home folder, so it keeps absolute paths")
    command, args = ("codesift", ["serve", PORTABLE_ROOT[client]]) if portable else server_command(root)
    entry: dict[str, Any] = {"type": spec.entry_type} if spec.entry_type else {}
    entry.update(command=command, args=args)
    return entry


def snippet(client: str, root: Path, portable: bool = False) -> str:
    """The config to add, as the client's file would hold it (for ``--print``)."""
    spec = spec_for(client)
    entry = server_entry(client, root, portable)
    if spec.fmt == "toml":
        return toml_table(entry)
    return json.dumps({spec.servers_key: {SERVER_NAME: entry}}, indent=2) + "\n"


def install(client: str, root: Path, config_file: Path | None = None, portable: bool = False) -> InitResult:
    """Merge the codesift entry into the client's config file (created when missing)."""
    spec = spec_for(client)
    path = config_file or config_path(client, root)
    entry = server_entry(client, root, portable)
    old = read_text_file(path)
    if spec.fmt == "toml":
        text, replaced = merge_toml(old, entry, path)
    else:
        text, replaced = merge_json(old, spec.servers_key, entry, path)
    write_text_file(path, text)
    return InitResult(path, replaced)


# -- JSON ------------------------------------------------------------------------------------------
def merge_json(old: str, servers_key: str, entry: dict[str, Any], path: Path | str = "config") -> tuple[str, bool]:
    """``old`` (a JSON document, possibly empty) with ``entry`` set as ``servers_key.codesift``."""
    try:
        doc = json.loads(old) if old.strip() else {}
    except json.JSONDecodeError as exc:
        raise InitError(f"{path} is not valid JSON ({exc.msg} at line {exc.lineno}); fix it or pass --print") from None
    if not isinstance(doc, dict):
        raise InitError(f"{path} does not hold a JSON object; fix it or pass --print")
    servers = doc.setdefault(servers_key, {})
    if not isinstance(servers, dict):
        raise InitError(f"{path}: {servers_key!r} is not an object; fix it or pass --print")
    replaced = SERVER_NAME in servers
    servers[SERVER_NAME] = entry
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n", replaced


# -- TOML (Codex) ----------------------------------------------------------------------------------
def _toml_value(value: object) -> str:
    if isinstance(value, str):
        return json.dumps(value)  # a JSON string is a valid TOML basic string
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    raise TypeError(f"unsupported TOML value {value!r}")


def toml_table(entry: dict[str, Any]) -> str:
    lines = [f"[mcp_servers.{SERVER_NAME}]"] + [f"{k} = {_toml_value(v)}" for k, v in entry.items()]
    return "\n".join(lines) + "\n"


_OUR_HEADER = re.compile(rf'^\s*\[\s*mcp_servers\s*\.\s*"?{SERVER_NAME}"?\s*(\.[^\]]*)?\]\s*(#.*)?$')
_ANY_HEADER = re.compile(r"^\s*\[")


def merge_toml(old: str, entry: dict[str, Any], path: Path | str = "config") -> tuple[str, bool]:
    """``old`` with its ``[mcp_servers.codesift]`` table (and sub-tables) replaced by ``entry``."""
    try:
        before = tomllib.loads(old)
    except tomllib.TOMLDecodeError as exc:
        raise InitError(f"{path} is not valid TOML ({exc}); fix it or pass --print") from None
    replaced = SERVER_NAME in (before.get("mcp_servers") or {})
    kept, skipping = [], False
    for line in old.splitlines():
        if _OUR_HEADER.match(line):
            skipping = True
            continue
        if skipping and _ANY_HEADER.match(line):
            skipping = False
        if not skipping:
            kept.append(line)
    body = "\n".join(kept).rstrip()
    text = (body + "\n\n" if body else "") + toml_table(entry)
    try:
        after = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        after = None
    # the edit must change our table and nothing else
    ok = (after is not None and after.get("mcp_servers", {}).get(SERVER_NAME) == entry
          and _without(after["mcp_servers"], SERVER_NAME) == _without(before.get("mcp_servers") or {}, SERVER_NAME)
          and _without(after, "mcp_servers") == _without(before, "mcp_servers"))
    if not ok:  # codesift defined some other way (inline table, dotted keys): don't guess
        raise InitError(f"could not merge into {path} safely; add this by hand:\n{toml_table(entry)}")
    return text, replaced


def _without(doc: dict[str, Any], key: str) -> dict[str, Any]:
    return {k: v for k, v in doc.items() if k != key}


# -- files -----------------------------------------------------------------------------------------
def read_text_file(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return ""
    except (OSError, UnicodeDecodeError) as exc:
        raise InitError(f"cannot read {path}: {exc}") from None


def write_text_file(path: Path, text: str) -> None:
    """Write atomically (a crash never leaves a half-written config) and keep the file's mode."""
    tmp = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        mode = path.stat().st_mode & 0o777 if path.exists() else 0o666 & ~_umask()
        fd, tmp = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=path.parent)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.chmod(tmp, mode)
        os.replace(tmp, path)
        tmp = None
    except OSError as exc:
        raise InitError(f"cannot write {path}: {exc}") from None
    finally:
        if tmp is not None:
            Path(tmp).unlink(missing_ok=True)


def _umask() -> int:
    current = os.umask(0o022)
    os.umask(current)
    return current
