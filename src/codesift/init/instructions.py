"""``codesift init CLIENT --instructions``: tell the agent when to prefer which codesift tool.

Each client reads standing instructions from its own file: ``AGENTS.md`` (Codex, and the generic
convention many agents follow), a skill folder plus a short pointer to it in ``CLAUDE.md`` (Claude Code:
the guide is written once, in the skill, whose body is loaded only when used), a project rule
(Cursor), ``.github/copilot-instructions.md`` (VS Code). codesift's text goes into those files as one
block between ``<!-- codesift:start … -->`` and ``<!-- codesift:end -->``: appended to a file that has
no block, replaced inside the markers when it has one, the whole file created when missing. Text
outside the markers is never changed, and nothing is written unless ``--instructions`` is given.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from codesift.init.clients import CLIENTS, InitError, read_text_file, write_text_file, config_path, snippet, spec_for

GENERIC = "generic"  # not an MCP client codesift can configure: only AGENTS.md
START = ("<!-- codesift:start (written by `codesift init`: text between these markers is replaced when it runs "
         "again) -->")
END = "<!-- codesift:end -->"
_START_LINE = re.compile(r"^[ \t]*<!-- codesift:start\b.*$", re.M)
_END_LINE = re.compile(r"^[ \t]*<!-- codesift:end -->[ \t]*(?=\r?$)", re.M)

# What the agent reads, in every client: which tool for which question, and what it replaces. The tool
# names are the MCP server's (tests/test_init_instructions.py checks the list against build_server).
GUIDE = """\
## Code search and navigation: use codesift

This repository is indexed by codesift (MCP server `codesift`). Its tools answer from a local index with
`path:line`, the enclosing function or class, and answers bounded to about 2k tokens. Prefer them to
reading whole files, to `grep`/`rg`/`find` in a shell and to listing folders:

| to … | call | instead of |
|---|---|---|
| find where something is done, described in words | `search_code(query)`; `summarize_matches(query)` for one line per file, no code | grepping guessed words, opening candidate files |
| get the lay of an unfamiliar repository | `get_repo_map(focus=…)`; `list_sources` for the folders to pass as `service=` | listing folders, opening files one by one |
| find a definition by (part of) its name | `find_symbol(name)`: exact, prefix, camel-hump (`RCJ`), substring | `grep "def name"`, `grep "class Name"` |
| find exact text or a regex: identifier, error message, config key, TODO | `grep_code(pattern)` (`regex=true`): every hit with its enclosing symbol | shell `grep` / `rg` |
| see a file's structure | `get_file_outline(file_path)`: nested symbols, signatures, line ranges | reading the whole file |
| read one definition | `get_code_context(file_path, symbol_name)`: live source with line numbers | reading the whole file |
| see every real use of a symbol | `find_usages(name)`: calls, imports, type uses; no strings or comments; tests last | grepping the name |
| go up or down the call graph | `callers(name)` / `callees(name)` | grepping for calls, reading bodies |
| know what a change affects | `impact(name, depth=2)`: every definition and file that reaches it | chasing callers by hand |
| find code like a result, or the same concern in other files | `find_similar(result_id)` / `drill_down(result_id)`, with an ID from `search_code` or `find_symbol` | more searches with other words |
| find why or when something changed, or who changed a file | `search_commits(query, path=…)` (history indexed by `codesift index --history`), then `get_commit(sha)` for the diff | `git log`, `git show` in a shell |
| check why results look incomplete | `index_status`: skipped files, semantic coverage | assuming the code is not there |
| make every tool see many files you just changed (branch switch, generated code) | `reindex` (`full=true` re-parses every file) | running `codesift index` in a shell |

- Every answer ends with the next useful call; a long one names the `offset` (or `start_line`) of the next page.
- A search result's label says how often results like it are the answer: HIGH about 4 times in 5, GOOD 1 in 2,
  FAIR 1 in 6, LOW 1 in 14, WEAK rarely. The first result is the answer more often than its label says (about
  half the time even when LOW), and when the best label is FAIR or LOW one of the top 3 is still the answer
  about 3 times in 4: read them before searching again. Search again in the code's own words, or `grep_code` a
  name you know, when they are not it, or at once when the notes say nothing matches the query well.
- When several definitions share a name, pass `Type.name` to `find_usages`, `callers`, `callees` and `impact`.
- Open a file directly when you are about to edit it, or when codesift does not index it (`index_status`).
- Without the MCP server the same tools are commands: `codesift search "…"`, `codesift symbol NAME`,
  `codesift grep PATTERN`, `codesift outline FILE`, `codesift usages NAME`, `codesift callers NAME`,
  `codesift callees NAME`, `codesift impact NAME`, `codesift map`, `codesift commits "…"`,
  `codesift commit SHA` (`--json` for JSON).
"""

CLAUDE_NOTE = "In Claude Code these tools are named `mcp__codesift__<tool>` (`mcp__codesift__search_code`, …).\n"

# Claude Code loads CLAUDE.md every session but a skill's body only when it is used: the guide is written once,
# into the skill, and CLAUDE.md gets this pointer to it (the MCP server's own instructions say the same briefly).
CLAUDE_POINTER = """\
## Code search and navigation: use codesift

This repository is indexed by codesift (MCP server `codesift`; tools such as `mcp__codesift__search_code`).
Prefer them to reading whole files, to `grep`/`rg`/`find` in a shell and to listing folders: `search_code`
(described in words), `find_symbol`, `grep_code` (exact text or regex), `get_file_outline`, `get_code_context`,
`find_usages`, `callers` / `callees` / `impact`, `get_repo_map`. The `codesift` skill
(`.claude/skills/codesift/SKILL.md`) says which tool answers which question, with recipes.
"""

RECIPES = """\
### Recipes

1. **Unfamiliar repository**: `get_repo_map` → `get_file_outline` on a central file →
   `get_code_context(file_path, symbol_name)` for the definitions that matter.
2. **Fix a bug described in words**: `search_code("what goes wrong")` → `get_code_context` on the best hit →
   `callers` to see how it is reached → `drill_down(result_id)` for the same logic in other files.
3. **Change a function's signature or behaviour**: `find_symbol(name)` → `impact(name)` for what is affected →
   `find_usages(name)` for every call site, tests included → edit, then `find_usages` again.
4. **An error message or log line**: `grep_code("exact text")` → `get_code_context(file_path, symbol_name)`
   on the enclosing symbol it names → `callers` of that symbol.
"""

SKILL_FRONT = """\
---
name: codesift
description: Search and navigate this repository's code with the codesift MCP tools (search_code, find_symbol, grep_code, get_file_outline, get_code_context, find_usages, callers, callees, impact, get_repo_map). Use it to find where something is implemented, a definition or every use of a symbol, exact text or a regex, a file's structure, or what a change would affect, instead of grep, find or reading whole files.
---

"""

CURSOR_FRONT = """\
---
description: When to use the codesift MCP tools (code search, symbols, exact grep, outlines, usages, call graph) instead of reading files or grepping
globs:
alwaysApply: true
---

"""


@dataclass(frozen=True, slots=True)
class InstructionFile:
    """One file a client reads instructions from: where (relative to the project), the block's text, and
    what a new file starts with (front matter) before the block."""

    relpath: str
    body: str
    preamble: str = ""


def instruction_files(client: str) -> list[InstructionFile]:
    """The instruction files of ``client`` (Claude Desktop has none: its instructions live in the app)."""
    if client not in CLIENTS and client != GENERIC:
        raise InitError(f"unknown client {client!r}; choose one of: {', '.join([*CLIENTS, GENERIC])}")
    if client == "claude-code":
        return [InstructionFile("CLAUDE.md", CLAUDE_POINTER),
                InstructionFile(".claude/skills/codesift/SKILL.md", GUIDE + "\n" + CLAUDE_NOTE + "\n" + RECIPES,
                                SKILL_FRONT)]
    if client == "cursor":
        return [InstructionFile(".cursor/rules/codesift.mdc", GUIDE, CURSOR_FRONT)]
    if client == "vscode":
        return [InstructionFile(".github/copilot-instructions.md", GUIDE)]
    if client in ("codex", GENERIC):
        return [InstructionFile("AGENTS.md", GUIDE)]
    return []


def block(body: str) -> str:
    """``body`` between the markers, ending with a newline."""
    return f"{START}\n{body.rstrip()}\n{END}\n"


def merge_block(old: str | None, body: str, preamble: str = "", where: Path | str = "file") -> tuple[str, str]:
    """The new text of a file holding ``old`` (None: no such file) and the action taken on it:

    ``create`` (preamble + block), ``append`` (old text kept, a blank line, the block), ``replace`` (only
    what is between the markers changes) or ``unchanged``. A file with a start marker but no end
    marker after it, or with two blocks, is refused rather than guessed at."""
    new = block(body)
    if old is None:
        return preamble + new, "create"
    newline = "\r\n" if "\r\n" in old else "\n"
    if newline != "\n":
        new = new.replace("\n", newline)
    starts = list(_START_LINE.finditer(old))
    if not starts:
        if not old:  # an empty file: as if new, front matter included
            return preamble + new, "append"
        sep = "" if old.endswith(newline * 2) or not old.strip() else newline if old.endswith(newline) else newline * 2
        return old + sep + new, "append"
    if len(starts) > 1:
        raise InitError(f"{where} holds more than one codesift block; remove all but one and run again")
    end = _END_LINE.search(old, starts[0].end())
    if end is None:
        raise InitError(f"{where} has a codesift:start marker without codesift:end; fix it by hand or delete "
                        "the marker and run again")
    stop = end.end() + (len(newline) if old.startswith(newline, end.end()) else 0)
    text = old[: starts[0].start()] + new + old[stop:]
    return text, "unchanged" if text == old else "replace"


@dataclass(frozen=True, slots=True)
class Planned:
    """What ``--instructions`` does to one file: its path, the action and the file's new text."""

    path: Path
    action: str  # create | append | replace | unchanged
    text: str
    block: str  # the codesift block alone (what --print shows for an existing file)

    @property
    def said(self) -> str:
        return {"create": "created", "append": "appended the codesift block to", "replace":
                "updated the codesift block in", "unchanged": "already current:"}[self.action]


def plan(client: str, root: Path) -> list[Planned]:
    """What writing ``client``'s instruction files under ``root`` would do, without writing anything."""
    out = []
    for f in instruction_files(client):
        path = root / f.relpath
        if path.exists() and not path.is_file():
            raise InitError(f"{path} is not a file")
        old = read_text_file(path) if path.exists() else None
        text, action = merge_block(old, f.body, f.preamble, path)
        out.append(Planned(path, action, text, (f.preamble if not old else "") + block(f.body)))
    return out


def write(planned: list[Planned]) -> None:
    for p in planned:
        if p.action != "unchanged":
            write_text_file(p.path, p.text)


def wants_config(client: str, instructions: bool, print_only: bool) -> bool:
    """Whether ``init`` registers the MCP server (not for ``generic``); refuses what it cannot do."""
    if client == GENERIC:
        if not instructions:
            raise InitError("'generic' only writes AGENTS.md: pass --instructions (and register "
                            "`codesift serve PATH` with your agent by hand)")
        return False
    spec_for(client)
    if client == "claude-desktop" and instructions and not print_only:
        raise InitError("Claude Desktop reads no instruction file from a project: run with --instructions --print "
                        "and paste the text into a Project's instructions")
    return True


def print_text(client: str, root: Path, config_file: Path | None = None, portable: bool = False) -> str:
    """``--print --instructions``: the MCP entry (unless ``generic``), then each instruction file with what
    would happen to it and the text it would get."""
    parts = []
    if client != GENERIC:
        where = config_file or config_path(client, root)
        parts.append(f"==> {where} (the MCP server entry, merged into what is there) <==\n{snippet(client, root, portable)}")
    if client == "claude-desktop":
        parts.append("==> Claude Desktop reads no instruction file: paste this into a Project's instructions <==\n"
                     + GUIDE)
    for p in plan(client, root):
        what = {"create": "would be created", "append": "the block would be appended; the text above it is kept",
                "replace": "only the codesift block would be replaced", "unchanged": "already current; "
                "nothing would change"}[p.action]
        parts.append(f"==> {p.path} ({what}) <==\n{p.block}")
    return "\n".join(parts)
