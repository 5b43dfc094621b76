"""The documentation: the generated references cover every CLI command, MCP tool and prompt, and configuration key
that the live registries hold; the pages that show them are in the site; the README stays a front page.

The references are built by ``docs/gen/reference.py``, the code the site's build hook runs (``mkdocs build``
in .ci/run), and compared here with the registries themselves: the click group, the MCP server as
``codesift serve`` builds it, the configuration dataclasses and ``config/env.py``. Each check is also run on a
reference with one entry cut out, to show it would catch a missing one.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from dataclasses import fields
from pathlib import Path

import click
import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
README = ROOT / "README.md"
README_MAX_LINES = 150


def _load_reference():
    spec = importlib.util.spec_from_file_location("codesift_docs_reference", DOCS / "gen" / "reference.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


ref = _load_reference()


# -- what the live registries hold -------------------------------------------------------------------------------
def live_commands(group: click.Group, prefix: str = "") -> dict[str, click.Command]:
    out: dict[str, click.Command] = {}
    for name, command in group.commands.items():
        if command.hidden:
            continue
        out[prefix + name] = command
        if isinstance(command, click.Group):
            out.update(live_commands(command, f"{prefix}{name} "))
    return out


def live_tools_and_prompts():
    """Names and argument names of the tools and prompts of the server ``codesift serve`` builds."""
    tools, prompts, _ = ref.mcp_listing()
    return ({t.name: sorted(t.input_schema.get("properties", {})) for t in tools},
            {p.name: [a.name for a in p.arguments or []] for p in prompts})


def live_config_keys() -> dict[str, list[str]]:
    from codesift.config.rank import RankSettings
    from codesift.config.services import SERVICE_KEYS
    from codesift.config.settings import Config

    return {"top": [f.name for f in fields(Config) if f.name not in ("env", "rank", "services")],
            "rank": [f.name for f in fields(RankSettings)], "services": list(SERVICE_KEYS)}


def live_env_variables() -> set[str]:
    """Every CODESIFT_* variable ``config/env.py`` reads (its code, not its docstring)."""
    import inspect

    from codesift.config import env

    return set(re.findall(r"\"(CODESIFT_\w+)\"", inspect.getsource(env.read_env)))


# -- the checks: what a reference lacks ----------------------------------------------------------------------------
def _sections(markdown: str, level: str = "## ") -> dict[str, str]:
    """Heading → the text under it, for headings of ``level``."""
    parts = re.split(rf"^{re.escape(level)}(.+)$", markdown, flags=re.M)
    return {parts[i].strip(): parts[i + 1] for i in range(1, len(parts) - 1, 2)}


def missing_from_cli(markdown: str) -> list[str]:
    from codesift.cli.app import main

    sections = _sections(markdown)
    missing = []
    for name, command in live_commands(main).items():
        body = sections.get(f"codesift {name}")
        if body is None:
            missing.append(f"command {name}")
            continue
        ctx = click.Context(command, info_name=f"codesift {name}")
        for param in command.get_params(ctx):
            if isinstance(param, click.Option) and not param.hidden and not any(o in body for o in param.opts):
                missing.append(f"option {param.opts[0]} of {name}")
    return missing


def missing_from_mcp(markdown: str) -> list[str]:
    tools, prompts = live_tools_and_prompts()
    sections = _sections(markdown)
    prompt_sections = _sections(sections.get("Prompts", ""), "### ")
    missing = []
    for name, args in tools.items():
        body = sections.get(name)
        if body is None:
            missing.append(f"tool {name}")
            continue
        missing += [f"argument {a} of {name}" for a in args if f"| `{a}` |" not in body]
        if "**Structured content**" not in body or "(not described)" in body:
            missing.append(f"structured content of {name}")
    for name, args in prompts.items():
        body = prompt_sections.get(name)
        if body is None:
            missing.append(f"prompt {name}")
            continue
        missing += [f"argument {a} of prompt {name}" for a in args if f"`{a}`" not in body]
    return missing


def missing_from_config(markdown: str) -> list[str]:
    sections = _sections(markdown)
    top = next((v for k, v in sections.items() if k.startswith("Top level")), "")
    rank = next((v for k, v in sections.items() if k.startswith("`[rank]`")), "")
    services = sections.get("`[[services]]`", "")
    env = sections.get("Environment variables", "")
    keys = live_config_keys()
    missing = [f"key {k}" for k in keys["top"] if not re.search(rf"^\| `{k}` \|", top, re.M)]
    missing += [f"[rank] key {k}" for k in keys["rank"] if not re.search(rf"^\| `{k}` \|", rank, re.M)]
    missing += [f"[[services]] key {k}" for k in keys["services"] if f"`{k}`" not in services]
    missing += [f"variable {v}" for v in sorted(live_env_variables()) if f"`{v}`" not in env]
    return missing


def _cut(markdown: str, heading: str) -> str:
    """``markdown`` without the section under ``heading`` (up to the next heading of its level)."""
    level = heading.split(" ")[0] + " "
    parts = re.split(rf"(?=^{re.escape(level)})", markdown, flags=re.M)
    kept = [p for p in parts if not p.startswith(heading + "\n")]
    assert len(kept) == len(parts) - 1, f"no section {heading!r}"
    return "".join(kept)


# -- the tests --------------------------------------------------------------------------------------------------
def test_cli_reference_has_every_command_and_option():
    assert missing_from_cli(ref.cli_markdown()) == []


def test_cli_check_catches_a_missing_command():
    markdown = ref.cli_markdown()
    assert missing_from_cli(_cut(markdown, "## codesift search")) == ["command search"]


def test_mcp_reference_has_every_tool_argument_prompt_and_structured_output():
    assert missing_from_mcp(ref.mcp_markdown()) == []


def test_mcp_check_catches_a_missing_tool_and_prompt():
    markdown = ref.mcp_markdown()
    assert missing_from_mcp(_cut(markdown, "## find_usages")) == ["tool find_usages"]
    assert missing_from_mcp(_cut(markdown, "### system_design")) == ["prompt system_design"]


def test_configuration_reference_has_every_key_and_variable():
    assert missing_from_config(ref.config_markdown()) == []


def test_configuration_check_catches_a_missing_key():
    markdown = ref.config_markdown()
    cut = "\n".join(line for line in markdown.splitlines() if not line.startswith("| `window_margin` |"))
    assert missing_from_config(cut) == ["[rank] key window_margin"]


def test_every_configuration_key_says_what_it_does():
    """The code's comment on each field is the reference's description: a key without one is undocumented."""
    bare = [r["key"] for r in ref.config_rows() if not r["what"].strip()]
    assert bare == [], f"comment these fields in codesift/config/ (one line of what, and why if tuned): {bare}"


def test_generated_pages_are_in_the_site():
    """Each generator's marker sits in a page the site's navigation lists, and the build hook expands it."""
    nav = (ROOT / "mkdocs.yml").read_text()
    assert "docs/gen/hooks.py" in nav
    for name, page in (("cli", "reference/cli.md"), ("mcp", "reference/mcp.md"),
                       ("config", "reference/configuration.md"), ("stages", "how-search-works.md")):
        assert f"<!-- codesift:generated {name} -->" in (DOCS / page).read_text(), page
        assert page in nav, page
    expanded = ref.expand("<!-- codesift:generated cli -->")
    assert "## codesift search" in expanded and "codesift:generated" not in expanded


def test_every_nav_page_exists_and_every_page_is_in_nav():
    nav = (ROOT / "mkdocs.yml").read_text()
    listed = set(re.findall(r":\s+([\w/-]+\.md)\s*$", nav, re.M))
    pages = {str(p.relative_to(DOCS)) for p in DOCS.rglob("*.md")}
    assert listed == pages


def test_readme_is_a_front_page():
    text = README.read_text()
    lines = len(text.splitlines())
    assert lines <= README_MAX_LINES, f"README.md has {lines} lines (at most {README_MAX_LINES}): move detail to docs/"
    for heading in ("Quick start", "Tests"):
        assert f"## {heading} (install and run on a fresh machine)" in text
    for command in ("index", "search", "serve", "init"):
        assert re.search(rf"codesift {command}\b", text), command
    for link in re.findall(r"\]\((docs/[^)#]+)", text):
        assert (ROOT / link).is_file(), link


def test_ci_runs_the_readme_test_command():
    """.ci/run runs the README's fresh-machine test command: the same install, the docs build, then pytest."""
    readme = README.read_text()
    block = readme.split("## Tests (install and run on a fresh machine)")[1].split("```bash")[1].split("```")[0]
    command = [line for line in block.splitlines() if "pip install" in line][0]
    ci = (ROOT / ".ci" / "run").read_text()
    extras = re.search(r"pip install [^&]*?(-e '\.\[[^\]]+\]')", command)
    assert extras and extras.group(1) in ci
    assert "mkdocs build --strict" in command and "mkdocs build --strict" in ci
    assert ci.index("mkdocs build --strict") < ci.rindex("\npytest")


@pytest.mark.parametrize("page", sorted(p.name for p in DOCS.glob("*.md")))
def test_pages_name_no_readme_anchor(page):
    """Pages moved out of the README link to pages, not to README anchors that no longer exist."""
    assert "README.md#" not in (DOCS / page).read_text()
