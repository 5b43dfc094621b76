"""`codesift init CLIENT --instructions`: the instruction-file block (created, appended, replaced inside its
markers, never touching other text), per-client files, --print, and the text naming the real MCP tools."""

import json
import re

import anyio
import pytest
from click.testing import CliRunner

from codesift import Index
from codesift.cli.app import main
from codesift.init.clients import InitError
from codesift.init.instructions import END, GUIDE, START, instruction_files, merge_block
from codesift.server.text import INSTRUCTIONS


def run(*args):
    return CliRunner().invoke(main, list(args))


def front_matter(text: str) -> dict:
    yaml = pytest.importorskip("yaml")
    assert text.startswith("---\n")
    return yaml.safe_load(text.split("---\n")[1])


# -- the block ------------------------------------------------------------------------------------
def test_new_file_gets_preamble_and_block():
    text, action = merge_block(None, "body", "---\nname: x\n---\n\n")
    assert action == "create" and text == f"---\nname: x\n---\n\n{START}\nbody\n{END}\n"


def test_existing_text_is_kept_and_the_block_appended_then_replaced_in_place():
    mine = "# Project\n\nRun `make test`.\n"
    first, action = merge_block(mine, "v1", "---\nignored: front matter\n---\n")
    assert action == "append" and first.startswith(mine + "\n" + START) and first.endswith(END + "\n")
    assert "ignored" not in first  # front matter only goes into a file codesift creates
    later = first + "\n## Notes added after the block\n"
    second, action = merge_block(later, "v2")
    assert action == "replace" and second == later.replace("\nv1\n", "\nv2\n")
    assert merge_block(second, "v2") == (second, "unchanged")
    assert merge_block("no newline at end", "b")[0] == f"no newline at end\n\n{START}\nb\n{END}\n"


def test_edits_inside_the_block_are_replaced_outside_kept_and_crlf_preserved():
    old = f"top\r\n{START}\r\nhand edit\r\n{END}\r\nbottom\r\n"
    text, action = merge_block(old, "fresh\ntext")
    assert action == "replace" and text == f"top\r\n{START}\r\nfresh\r\ntext\r\n{END}\r\nbottom\r\n"


def test_markers_are_only_recognised_on_their_own_line_and_broken_blocks_are_refused():
    doc = "The block starts with `<!-- codesift:start -->` (see docs).\n"
    assert merge_block(doc, "b")[1] == "append"
    with pytest.raises(InitError, match="without codesift:end"):
        merge_block(f"x\n{START}\nhalf\n", "b")
    with pytest.raises(InitError, match="more than one"):
        merge_block(f"{START}\na\n{END}\n{START}\nb\n{END}\n", "b")


def test_each_client_has_its_files():
    files = {c: [f.relpath for f in instruction_files(c)] for c in ("claude-code", "cursor", "vscode", "codex",
                                                                    "generic", "claude-desktop")}
    assert files == {"claude-code": ["CLAUDE.md", ".claude/skills/codesift/SKILL.md"],
                     "cursor": [".cursor/rules/codesift.mdc"], "vscode": [".github/copilot-instructions.md"],
                     "codex": ["AGENTS.md"], "generic": ["AGENTS.md"], "claude-desktop": []}
    with pytest.raises(InitError, match="choose one of"):
        instruction_files("emacs")


# -- the command ----------------------------------------------------------------------------------
def test_claude_code_writes_config_claude_md_and_a_skill_then_changes_nothing(repo):
    (repo / "CLAUDE.md").write_text("# House rules\n\nNever push to main.\n")
    result = run("init", "claude-code", "--instructions", "--path", str(repo))
    assert result.exit_code == 0, result.output
    assert "codesift" in json.loads((repo / ".mcp.json").read_text())["mcpServers"]
    claude = (repo / "CLAUDE.md").read_text()
    assert claude.startswith("# House rules\n\nNever push to main.\n\n" + START) and claude.endswith(END + "\n")
    assert "mcp__codesift__search_code" in claude
    skill = (repo / ".claude/skills/codesift/SKILL.md").read_text()
    meta = front_matter(skill)
    assert meta["name"] == "codesift" and re.fullmatch(r"[a-z0-9-]{1,64}", meta["name"])
    assert "instead of grep" in meta["description"] and len(meta["description"]) <= 1024
    assert "### Recipes" in skill and skill.count(START) == 1
    # the guide is written once, in the skill (loaded when needed); CLAUDE.md (loaded every session) points to it
    table = "| to … | call | instead of |"
    assert table in GUIDE and table in skill and table not in claude
    assert ".claude/skills/codesift/SKILL.md" in claude and len(claude.split(START)[1]) < 1200
    assert f"appended the codesift block to {repo.resolve() / 'CLAUDE.md'}" in result.output
    assert f"created {repo.resolve() / '.claude/skills/codesift/SKILL.md'}" in result.output
    before = {p: p.read_bytes() for p in (repo / "CLAUDE.md", repo / ".claude/skills/codesift/SKILL.md")}
    again = run("init", "claude-code", "--instructions", "--path", str(repo))
    assert again.exit_code == 0 and again.output.count("already current:") == 2
    assert {p: p.read_bytes() for p in before} == before


def test_without_the_flag_no_instruction_file_is_written(repo):
    assert run("init", "cursor", "--path", str(repo)).exit_code == 0
    assert (repo / ".cursor/mcp.json").exists() and not (repo / ".cursor/rules").exists()
    assert not (repo / "AGENTS.md").exists() and not (repo / "CLAUDE.md").exists()


@pytest.mark.parametrize("client, relpath", [("cursor", ".cursor/rules/codesift.mdc"),
                                             ("vscode", ".github/copilot-instructions.md")])
def test_cursor_rule_and_copilot_instructions(repo, client, relpath):
    result = run("init", client, "--instructions", "--path", str(repo))
    assert result.exit_code == 0, result.output
    text = (repo / relpath).read_text()
    if client == "cursor":
        meta = front_matter(text)
        assert meta["alwaysApply"] is True and "codesift" in meta["description"]
    else:
        assert text.startswith(START)
    assert "grep_code(pattern)" in text and text.count(END) == 1


def test_codex_and_generic_write_agents_md(tmp_path, repo):
    cfg = tmp_path / "codex.toml"
    assert run("init", "codex", "--instructions", "--path", str(repo), "--config", str(cfg)).exit_code == 0
    assert cfg.exists() and (repo / "AGENTS.md").read_text().startswith(START)
    other = tmp_path / "other"
    other.mkdir()
    result = run("init", "generic", "--instructions", "--path", str(other))
    assert result.exit_code == 0, result.output
    assert [p.name for p in other.iterdir()] == ["AGENTS.md"]  # no MCP config for a generic agent
    refused = run("init", "generic", "--path", str(other))
    assert refused.exit_code == 2 and "--instructions" in refused.output


def test_print_shows_every_file_and_writes_nothing(repo):
    (repo / "AGENTS.md").write_text("mine\n")
    out = run("init", "codex", "--instructions", "--print", "--path", str(repo), "--config", str(repo / "c.toml"))
    assert out.exit_code == 0, out.output
    assert f"==> {repo / 'c.toml'} (the MCP server entry" in out.output and "[mcp_servers.codesift]" in out.output
    assert f"==> {repo.resolve() / 'AGENTS.md'} (the block would be appended; the text above it is kept) <==" \
        in out.output
    assert START in out.output and (repo / "AGENTS.md").read_text() == "mine\n" and not (repo / "c.toml").exists()
    skill = run("init", "claude-code", "--instructions", "--print", "--path", str(repo)).output
    assert "SKILL.md (would be created) <==\n---\nname: codesift\n" in skill and not (repo / ".claude").exists()
    desktop = run("init", "claude-desktop", "--instructions", "--print", "--path", str(repo))
    assert desktop.exit_code == 0 and "paste this into a Project's instructions" in desktop.output
    assert run("init", "claude-desktop", "--instructions", "--path", str(repo)).exit_code == 2


def test_a_broken_block_is_refused_before_anything_is_written(repo):
    (repo / "CLAUDE.md").write_text(f"notes\n{START}\nno end marker\n")
    result = run("init", "claude-code", "--instructions", "--path", str(repo))
    assert result.exit_code == 2 and "codesift:end" in result.output
    assert not (repo / ".mcp.json").exists() and not (repo / ".claude").exists()
    assert (repo / "CLAUDE.md").read_text() == f"notes\n{START}\nno end marker\n"


# -- the text names the real tools ------------------------------------------------------------------
def test_guide_and_server_instructions_name_every_tool_and_descriptions_say_when(tmp_path):
    from codesift.server.service import IndexService
    from codesift.server.mcp import build_server

    service = IndexService(Index(tmp_path), embed=False)
    try:
        server = build_server(service)
        tools = anyio.run(server.list_tools)
    finally:
        service.index.close()
    names = {t.name for t in tools}
    assert len(names) >= 15
    for name in names:
        assert f"`{name}" in GUIDE, name
        assert re.search(rf"\b{name}\b", INSTRUCTIONS), name
    for tool in tools:  # when to use it instead of reading files or grepping
        assert "instead of" in tool.description or "Use it when" in tool.description, tool.name
    assert server.instructions == INSTRUCTIONS
