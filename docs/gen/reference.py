"""The generated reference pages: the CLI, the MCP tools and prompts, and the configuration, read from the code.

Each ``*_markdown()`` function returns a page body in Markdown, built from the live registries (the click group,
the MCP server as ``codesift serve`` builds it, the configuration dataclasses), so the help texts, schemas,
defaults and comments in the code are the single source. ``docs/gen/hooks.py`` puts them into the pages at
build time (``mkdocs build``), and ``tests/test_docs.py`` checks them against the same registries.

This file lives outside the package on purpose: it imports from every layer (cli, server, config), which no
module inside ``codesift`` may do under the import-linter contract.
"""

from __future__ import annotations

import ast
import asyncio
import inspect
import io
import json
import re
import tokenize
import typing
from dataclasses import MISSING, fields
from typing import Any

import click

DESIGN_LINK = re.compile(r"docs/design-decisions\.md(#[\w-]+)?")


# -- shared ----------------------------------------------------------------------------------------------------
def prose(text: object) -> str:
    """``text`` with ``<`` and ``>`` escaped outside code spans (``<root>`` would read as an HTML tag)."""
    parts = re.split(r"(`+[^`]*`+)", str(text))
    return "".join(p if p.startswith("`") else p.replace("<", "&lt;").replace(">", "&gt;") for p in parts)


def cell(text: object) -> str:
    """``text`` as one Markdown table cell: one line, pipes and angle brackets escaped."""
    return prose(" ".join(str(text).split())).replace("|", "\\|")


def code(text: object) -> str:
    """``text`` as inline code in a table cell (a backtick inside widens the fence)."""
    s = str(text)
    fence = "``" if "`" in s else "`"
    pad = " " if s.startswith("`") or s.endswith("`") else ""
    return f"{fence}{pad}{s}{pad}{fence}".replace("|", "\\|")


def slug(text: str) -> str:
    """The anchor MkDocs' toc extension gives a heading of plain words."""
    return re.sub(r"\s+", "-", re.sub(r"[^\w\s-]", "", text.lower())).strip("-")


# -- the CLI -------------------------------------------------------------------------------------------------
def cli_group() -> click.Group:
    from codesift.cli.app import main

    return main


def cli_commands(group: click.Group | None = None) -> list[tuple[str, click.Command]]:
    """Every command of ``group`` (default: ``codesift``), nested groups' commands as ``group sub``."""
    group = group or cli_group()
    out: list[tuple[str, click.Command]] = []
    for name, command in group.commands.items():  # in the order they are registered (cli/app.py's COMMANDS)
        if command.hidden:
            continue
        out.append((name, command))
        if isinstance(command, click.Group):
            out.extend((f"{name} {sub}", c) for sub, c in cli_commands(command))
    return out


def _params_table(command: click.Command, ctx: click.Context) -> list[str]:
    rows = []
    for param in command.get_params(ctx):
        if isinstance(param, click.Argument):
            kind = "required" if param.required else "optional"
            metavar = param.make_metavar(ctx) if _metavar_takes_ctx() else param.make_metavar()  # type: ignore[call-arg]
            rows.append(f"| {code(metavar)} | argument, {kind} |")
            continue
        record = param.get_help_record(ctx)
        if record is None:
            continue
        opts, help_text = record
        rows.append(f"| {code(opts)} | {cell(help_text)} |")
    if not rows:
        return []
    return ["| option | what it does |", "|---|---|", *rows, ""]


def _metavar_takes_ctx() -> bool:
    return "ctx" in inspect.signature(click.Argument.make_metavar).parameters


def cli_markdown(group: click.Group | None = None) -> str:
    """One section per command: usage, the command's help text, its arguments and options (``--help``'s)."""
    group = group or cli_group()
    root = click.Context(group, info_name="codesift")
    lines = [f"Generated from `codesift --help` and each command's `--help` (codesift {_version()}).", ""]
    lines += ["## codesift", "", group.help or "", "", "```text", group.get_usage(root), "```", ""]
    lines += _params_table(group, root)
    for name, command in cli_commands(group):
        ctx = click.Context(command, info_name=f"codesift {name}", parent=None)
        lines += [f"## codesift {name}", "", "```text", command.get_usage(ctx), "```", ""]
        lines += [prose(inspect.cleandoc(command.help or command.short_help or "").replace("\b\n", "")), ""]
        lines += _params_table(command, ctx)
    return "\n".join(lines)


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("codesift")
    except PackageNotFoundError:  # pragma: no cover
        return "from source"


# -- MCP -------------------------------------------------------------------------------------------------------
class _NoService:
    """Stands in for the IndexService: building the server only binds the tools to it, no call is made."""


def mcp_server() -> Any:
    from codesift.server.mcp import build_server

    return build_server(_NoService())  # type: ignore[arg-type]


def mcp_listing() -> tuple[list[Any], list[Any], str]:
    """The tools and prompts ``codesift serve`` registers (as ``tools/list`` and ``prompts/list`` answer) and the
    server's instructions."""
    server = mcp_server()

    async def both() -> tuple[list[Any], list[Any]]:
        return await server.list_tools(), await server.list_prompts()

    tools, prompts = asyncio.run(both())
    from codesift.server.text import INSTRUCTIONS

    return tools, prompts, INSTRUCTIONS


def _schema_type(schema: dict[str, Any]) -> str:
    if "anyOf" in schema:
        return " or ".join(_schema_type(s) for s in schema["anyOf"])
    if "enum" in schema:
        return " \\| ".join(json.dumps(v) for v in schema["enum"])
    kind = schema.get("type", "any")
    if kind == "array":
        return f"list of {_schema_type(schema.get('items', {}))}"
    return "null" if kind == "null" else str(kind)


def _bounds(schema: dict[str, Any]) -> str:
    parts = []
    for key, word in (("minimum", "≥"), ("maximum", "≤"), ("minLength", "length ≥"), ("maxLength", "length ≤")):
        if key in schema:
            parts.append(f"{word} {schema[key]:,}" if isinstance(schema[key], int) else f"{word} {schema[key]}")
    for sub in schema.get("anyOf", []):
        parts.extend(p for p in [_bounds(sub)] if p)
    return ", ".join(parts)


def _renderer_payload(fn: Any) -> Any:
    """The payload type (a TypedDict of ``codesift.tools.payloads``) of the renderer a tool function calls:
    found by name in the function's code or among its closure's values."""
    from codesift.tools import markdown as md
    from codesift.tools.markdown import commits, graph, nav

    candidates: list[Any] = []
    for cellv in getattr(fn, "__closure__", None) or ():
        try:
            value = cellv.cell_contents
        except ValueError:
            continue
        if callable(value) and getattr(value, "__name__", "").startswith("render_"):
            candidates.append(value)
    try:
        source = inspect.getsource(fn)
    except (OSError, TypeError):
        source = ""
    for name in re.findall(r"\brender_\w+", source):
        for module in (md, graph, nav, commits):
            if hasattr(module, name):
                candidates.append(getattr(module, name))
                break
    for render in candidates:
        hints = typing.get_type_hints(render)
        payload = hints.get("payload")
        if payload is not None:
            return payload
    return None


# Tools whose structured content is not a payload TypedDict: where it is described instead.
STRUCTURED_ELSEWHERE = {
    "reindex": "the summary of the run: the fields of the `done` event of `POST /reindex` "
               "(see [Running at scale](../scale.md#reindex-from-ci)), without `event`.",
}


def _typed_dict_rows(td: Any, seen: set[str], out: list[str], depth: int = 0) -> None:
    """Rows for the keys of a TypedDict, nested TypedDicts after it."""
    if td.__name__ in seen:
        return
    seen.add(td.__name__)
    comments = field_comments(td)
    hints = typing.get_type_hints(td)
    optional = getattr(td, "__optional_keys__", frozenset())
    out += [f"**{td.__name__}**" + (f": {cell(inspect.getdoc(td) or '')}" if td.__doc__ else ""), "",
            "| key | type | notes |", "|---|---|---|"]
    nested: list[Any] = []
    for key, hint in hints.items():
        note = comments.get(key, "")
        if key in optional and "only" not in note:
            note = ("not always present. " + note).strip()
        out.append(f"| {code(key)} | {cell(_type_name(hint, nested))} | {cell(note)} |")
    out.append("")
    for sub in nested:
        _typed_dict_rows(sub, seen, out, depth + 1)


def _type_name(hint: Any, nested: list[Any]) -> str:
    origin = typing.get_origin(hint)
    if origin in (typing.NotRequired, typing.Required):
        return _type_name(typing.get_args(hint)[0], nested)
    if typing.is_typeddict(hint):
        nested.append(hint)
        return hint.__name__
    if origin is not None:
        args = [_type_name(a, nested) for a in typing.get_args(hint)]
        name = getattr(origin, "__name__", str(origin))
        if name in ("Union", "UnionType"):
            return " or ".join(args)
        return f"{name}[{', '.join(args)}]"
    if hint is type(None):
        return "None"
    return getattr(hint, "__name__", str(hint).replace("typing.", ""))


def mcp_markdown() -> str:
    """Each tool: description, annotations, arguments (type, default, bounds, description), structured content;
    then each prompt and the server's instructions."""
    tools, prompts, instructions = mcp_listing()
    server = mcp_server()
    functions = {t.name: t.fn for t in server._tool_manager.list_tools()} if hasattr(server, "_tool_manager") \
        else _tool_functions(server)
    lines = [f"Generated from the tools and prompts `codesift serve` registers (codesift {_version()}): what "
             "`tools/list` and `prompts/list` answer.", "",
             "| tool | read-only | first line |", "|---|---|---|"]
    for t in tools:
        ro = t.annotations.read_only_hint if t.annotations else None
        lines.append(f"| [`{t.name}`](#{slug(t.name)}) | {'yes' if ro else 'no'} | "
                     f"{cell((t.description or '').split('. ')[0])} |")
    lines += ["", "Every tool answers with Markdown text (bounded by `max_chars` where it has one) and the same data "
              "as structured content, less the text fields the Markdown shows (code, snippets, docstrings, "
              "signatures). A bad argument is a one-line tool error; unknown arguments are refused.", ""]
    for t in tools:
        schema = t.input_schema
        required = set(schema.get("required", []))
        lines += ["## " + t.name, "", prose(t.description or ""), ""]
        props = schema.get("properties", {})
        if props:
            lines += ["| argument | type | default | bounds | description |", "|---|---|---|---|---|"]
            for name, prop in props.items():
                default = "required" if name in required else code(json.dumps(prop.get("default")))
                lines.append(f"| {code(name)} | {cell(_schema_type(prop))} | {default} "
                             f"| {cell(_bounds(prop))} | {cell(prop.get('description', ''))} |")
            lines.append("")
        else:
            lines += ["No arguments.", ""]
        lines += ["**Structured content**", ""]
        payload = _renderer_payload(functions.get(t.name))
        if payload is not None:
            _typed_dict_rows(payload, set(), lines)
        else:
            lines += [STRUCTURED_ELSEWHERE.get(t.name, "(not described)"), ""]
    lines += ["## Prompts", ""]
    for p in prompts:
        args = ", ".join(a.name for a in p.arguments or [])
        lines += [f"### {p.name}", "", f"`{p.name}({args})`" + (f": {p.title}" if p.title else ""), "",
                  prose(p.description or ""), ""]
        for a in p.arguments or []:
            lines.append(f"- `{a.name}` ({'required' if a.required else 'optional'}): {prose(a.description or '')}")
        lines.append("")
    lines += ["## Server instructions", "", "Sent to the client when it connects:", "", "```text", instructions,
              "```", ""]
    return "\n".join(lines)


def _tool_functions(server: Any) -> dict[str, Any]:
    """The registered tools' Python functions, by name (the SDK keeps them in its tool manager)."""
    for value in vars(server).values():
        tools = getattr(value, "_tools", None)
        if isinstance(tools, dict):
            return {name: getattr(tool, "fn", None) for name, tool in tools.items()}
    return {}


# -- configuration ------------------------------------------------------------------------------------------------
def field_comments(cls: type) -> dict[str, str]:
    """The comments of each field of a class: the comment lines right above it and the one at its end, joined."""
    source = inspect.getsource(cls)
    comments: dict[int, str] = {}
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type == tokenize.COMMENT:
            comments[tok.start[0]] = tok.string.lstrip("#").strip()
    lines = source.splitlines()
    tree = ast.parse(inspect.cleandoc(source) if source[:1].isspace() else source)
    out: dict[str, str] = {}
    for node in tree.body[0].body:  # type: ignore[attr-defined]
        if not isinstance(node, ast.AnnAssign) or not isinstance(node.target, ast.Name):
            continue
        above: list[str] = []
        row = node.lineno - 1
        while row >= 1 and row in comments and lines[row - 1].strip().startswith("#"):
            above.insert(0, comments[row])
            row -= 1
        trailing = comments.get(node.lineno) if not lines[node.lineno - 1].strip().startswith("#") else None
        out[node.target.id] = " ".join([*above, *([trailing] if trailing else [])])
    return out


def _link_design(text: str) -> str:
    text = re.sub(r"(^|[.;] )why\b", lambda m: m.group(1) + "Why", text)
    return DESIGN_LINK.sub(lambda m: f"[design decisions](../design-decisions.md{m.group(1) or ''})", text)


def env_variables() -> list[tuple[str, str, str]]:
    """(variable, Environment field, what it sets; default) from ``codesift.config.env``'s list of variables."""
    from codesift.config import env

    out = []
    for line in (env.__doc__ or "").splitlines():
        m = re.match(r"- (CODESIFT_\w+): ``(\w+)``,? ?(.*)", line)
        if m:
            out.append((m.group(1), m.group(2), m.group(3)))
    return out


def env_for_keys() -> dict[str, str]:
    """codesift.toml key → the variable that wins over it."""
    from codesift.config.env import ENV_SETTINGS

    out = {key: var for var, key in ENV_SETTINGS.items()}
    for var, _field, text in env_variables():
        for key in re.findall(r"\((?:codesift\.toml's )?``(\w+)``\)", text):
            out.setdefault(key, var)
    return out


def _probe(check: Any, value: Any) -> str | None:
    from codesift.errors import ConfigError

    try:
        check(value)
    except ConfigError as exc:
        return str(exc)
    except (TypeError, ValueError):
        return None
    return None


def _accepts(check: Any, default: Any) -> str:
    """What a key accepts, found by trying values the check must refuse: the first refusal's words."""
    if isinstance(default, bool):
        probes: list[Any] = ["yes"]
    elif isinstance(default, (int, float)):
        probes = [-1, 2, 1e12, 0, 0.5, float("nan")]
        if isinstance(default, int):
            probes = [-1, 0, 2.5, 10**12]
    elif isinstance(default, str) or default is None:
        probes = ["not-a-value", ""]
    else:
        return ""
    said = []
    for value in probes:
        message = _probe(check, value)
        if message:
            words = re.sub(r",? got .*$", "", message)
            words = re.sub(r"^.*?(rank setting '\w+'|\w+) (must|needs)", r"\2", words)
            if words not in said:
                said.append(words)
    ranged = [w for w in said if "between" in w]  # "between 0 and 1" says what ">= 0" says, and more
    return "; ".join(ranged or said)


def config_rows() -> list[dict[str, Any]]:
    """One row per codesift.toml key: table, key, default, accepted values, description, variable."""
    from codesift.config.rank import RankSettings
    from codesift.config.settings import Config, rank_settings, validate

    env = env_for_keys()
    rows: list[dict[str, Any]] = []
    comments = field_comments(Config)
    for f in fields(Config):
        if f.name in ("env", "rank", "services"):
            continue
        default = f.default if f.default is not MISSING else (f.default_factory() if f.default_factory
                                                                is not MISSING else None)

        def check(value: Any, name: str = f.name) -> None:
            validate(Config(**{name: value}))  # type: ignore[arg-type]

        rows.append({"table": "", "key": f.name, "default": default, "accepts": _accepts(check, default),
                     "type": _type_of(f.type), "what": comments.get(f.name, ""), "env": env.get(f.name, "")})
    comments = field_comments(RankSettings)
    defaults = RankSettings()
    for f in fields(RankSettings):
        default = getattr(defaults, f.name)

        def rcheck(value: Any, name: str = f.name) -> None:
            rank_settings({name: value})

        rows.append({"table": "rank", "key": f.name, "default": default, "accepts": _accepts(rcheck, default),
                     "type": _type_of(f.type), "what": comments.get(f.name, ""), "env": ""})
    return rows


def _type_of(annotation: Any) -> str:
    text = annotation if isinstance(annotation, str) else getattr(annotation, "__name__", str(annotation))
    return {"tuple[str, ...]": "list of strings", "str | None": "string", "float": "number", "int": "integer",
            "bool": "true/false", "str": "string"}.get(text, text)


def _toml(value: Any) -> str:
    if value is None:
        return "(unset)"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple):
        return json.dumps(list(value))
    if isinstance(value, str):
        return json.dumps(value)
    return str(value)


def services_keys() -> tuple[str, ...]:
    from codesift.config.services import SERVICE_KEYS

    return SERVICE_KEYS


def config_markdown() -> str:
    """The keys of codesift.toml, each with its default, what it accepts, what it does and its variable."""
    rows = config_rows()
    lines = [f"Generated from `codesift.config.settings.Config`, `codesift.config.rank.RankSettings`, "
             f"`codesift.config.services` and `codesift.config.env` (codesift {_version()}): the defaults are the "
             "dataclasses', *accepts* is what the check that reads the file refuses (found by trying values), "
             "*what it does* is the code's comment on the field.", ""]
    for table, title in (("", "Top level (or a `[codesift]` table)"), ("rank", "`[rank]`: the ranking stages")):
        lines += [f"## {title}", "", "| key | default | accepts | what it does | variable |", "|---|---|---|---|---|"]
        for r in rows:
            if r["table"] != table:
                continue
            what = _link_design(cell(r["what"])) if r["what"] else ""
            accepts = cell(r["accepts"]) or cell(r["type"])
            lines.append(f"| {code(r['key'])} | {code(_toml(r['default']))} | {accepts} | {what} | "
                         f"{code(r['env']) if r['env'] else ''} |")
        lines.append("")
    keys = ", ".join(f"`{k}`" for k in services_keys())
    lines += ["## `[[services]]`", "", f"Keys of each entry: {keys}. What they mean: "
              "[Running at scale](../scale.md#many-services).", ""]
    lines += ["## Environment variables", "", "Read only by `codesift.config.env`; a variable wins over "
              "codesift.toml, a command-line option over both.", "", "| variable | what it sets | default |",
              "|---|---|---|"]
    for var, _field, text in env_variables():
        what, _, default = text.rpartition("; ")
        what = what.strip(" ,") or "the codesift.toml key named"
        lines.append(f"| {code(var)} | {cell(what.replace('``', '`'))} | {cell(default.replace('``', '`'))} |")
    lines.append("")
    return "\n".join(lines)


# -- the ranking stages -------------------------------------------------------------------------------------------
def _stage_doc(stage: Any) -> str:
    """The docstring of the function a stage runs: its own, the step it wraps, or the function of its name."""
    from codesift.rank import diversity, pipeline

    run = stage.run
    found = [run] + [c.cell_contents for c in (getattr(run, "__closure__", None) or ())]
    found += [getattr(m, stage.name, None) for m in (pipeline, diversity)]
    for fn in found:
        if callable(fn) and getattr(fn, "__doc__", None) and not isinstance(fn, type):
            return " ".join(inspect.getdoc(fn).split("\n\n")[0].split())  # type: ignore[union-attr]
    return ""


# Stages whose function has no docstring (rank/ is not edited from here).
UNDOCUMENTED_STAGES = {
    "order": "The candidates sorted by score (ties by chunk id), so the stages after it see the ranking"}


def stages_markdown() -> str:
    """``codesift.rank.pipeline.STAGES`` in order: name, the ``[rank]`` switch, what the stage does."""
    from codesift.config.rank import RankSettings
    from codesift.rank.pipeline import STAGES

    comments = field_comments(RankSettings)
    lines = ["| # | stage | `[rank]` switch | what it does |", "|---|---|---|---|"]
    for i, st in enumerate(STAGES, start=1):
        what = _stage_doc(st) or comments.get(st.switch or "", "") or UNDOCUMENTED_STAGES.get(st.name, "")
        switch = f"`{st.switch}`" if st.switch else "always on"
        lines.append(f"| {i} | `{st.name}` | {switch} | {cell(DESIGN_LINK.sub('', what)).rstrip(' .;:')}. |")
    return "\n".join(lines) + "\n"


GENERATORS = {"cli": cli_markdown, "mcp": mcp_markdown, "config": config_markdown, "stages": stages_markdown}
MARKER = re.compile(r"<!--\s*codesift:generated\s+(\w+)\s*-->")


def expand(markdown: str) -> str:
    """``markdown`` with every ``<!-- codesift:generated NAME -->`` marker replaced by that generator's page body."""
    return MARKER.sub(lambda m: GENERATORS[m.group(1)](), markdown)


if __name__ == "__main__":  # pragma: no cover - `python docs/gen/reference.py cli` prints one page body
    import sys

    print(GENERATORS[sys.argv[1] if len(sys.argv) > 1 else "cli"]())
