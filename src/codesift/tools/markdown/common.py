"""What every Markdown renderer shares: the character budget, :class:`Rendered`, and bounded lists.

Every renderer takes the tool's JSON-ready payload and returns :class:`Rendered`: the Markdown text
and the payload trimmed to what the text shows (plus ``truncated`` / ``next_offset``), so the text
and the structured content an MCP client receives always agree. Items are rendered in order until the
budget is reached; the text then says how many were left out and how to get them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from codesift.datatypes import NOT_DEFINITIONS

# An agent pays for every answer in context and usually makes many calls per task, so the default is
# one screen, not the whole thing: ~8k characters (≈2-2.5k tokens) holds a default search page (10
# results with 6-line snippets, ~5k on flask), a typical function in full (flask's 140-line
# make_response is 7.1k) or ~50 usage lines; anything longer pages (offset / start_line).
DEFAULT_MAX_CHARS = 8_000
MIN_MAX_CHARS = 1_000  # below this not even one result with its header fits
MAX_MAX_CHARS = 60_000  # ≈15-17k tokens: under the 25k-token cap clients such as Claude Code put on a result
# Text fields shown in the Markdown: left out of the structured content so no text is sent twice.
TEXT_FIELDS = frozenset({"snippet", "code", "text", "context", "docstring", "signature", "description"})
FOOTER_ROOM = 160  # kept free for the truncation line
_FENCE_LANG = {"c_sharp": "csharp", "objective_c": "objectivec", "shell": "bash", "text": "", "window": ""}

Payload = Mapping[str, Any]  # what a renderer reads: a tool's answer (codesift.tools.payloads), or a part of one
Data = dict[str, Any]  # what it hands back as structured content


def clamp_max_chars(max_chars: int | None) -> int:
    """``max_chars`` brought into [MIN_MAX_CHARS, MAX_MAX_CHARS]: a budget out of range is adjusted, not
    refused (an agent asking for 800 characters wants a short answer, not an error)."""
    if max_chars is None:
        return DEFAULT_MAX_CHARS
    return min(MAX_MAX_CHARS, max(MIN_MAX_CHARS, int(max_chars)))


def lean(item: Payload) -> Data:
    """``item`` without its text fields (TEXT_FIELDS), nested dicts included: the structured twin of a
    rendered item."""
    return {k: lean(v) if isinstance(v, dict) else v for k, v in item.items() if k not in TEXT_FIELDS}


@dataclass(frozen=True, slots=True)
class Rendered:
    """Markdown for the agent plus the payload cut to the same items (for structured content)."""

    text: str
    data: Data


# -- small pieces ----------------------------------------------------------------------------------
def fence(code: str, language: str = "") -> str:
    """A fenced block that survives backticks inside ``code`` (the fence is longer than any run)."""
    longest = max((len(m) for m in re.findall(r"`+", code)), default=0)
    marks = "`" * max(3, longest + 1)
    return f"{marks}{_FENCE_LANG.get(language, language)}\n{code.rstrip(chr(10))}\n{marks}"


def inline(text: str) -> str:
    """``text`` as inline code on one line, whatever backticks it holds."""
    text = " ".join(str(text).split())
    marks = "``" if "`" in text else "`"
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{marks}{pad}{text}{pad}{marks}"


def line_span(start: int | None, end: int | None) -> str:
    if not start:
        return ""
    return f":{start}" if not end or end == start else f":{start}-{end}"


def clip(block: str, room: int) -> str:
    """Cut ``block`` to ``room`` characters at a line boundary, closing a code fence left open."""
    out: list[str] = []
    used, open_fence = 0, ""
    for line in block.split("\n"):
        if used + len(line) + 1 > room - 8:
            break
        out.append(line)
        used += len(line) + 1
        marks = re.match(r"^(`{3,})", line)
        if marks and (not open_fence or line.strip() == open_fence):
            open_fence = "" if open_fence else marks.group(1)
    if open_fence:
        out.append(open_fence)
    return "\n".join(out + ["…"])


def bounded(
    head: Sequence[str],
    blocks: Sequence[str],
    max_chars: int,
    *,
    noun: str = "results",
    offset: int | None = None,
    narrow: str = "narrow the request",
    tail: Sequence[str] = (),
    sep: str = "\n\n",
) -> tuple[str, int]:
    """Join ``head`` and as many ``blocks`` (joined by ``sep``) as fit in ``max_chars``.

    Returns (text, blocks shown). With ``offset`` (the index of the first block in the full result
    list) the truncation line names the offset to call again with; without, it says how to narrow.
    """
    budget = max(MIN_MAX_CHARS, max_chars)
    head = [p for p in head if p]
    used = sum(len(p) + 2 for p in head)
    footer = max(FOOTER_ROOM, sum(len(t) + 2 for t in tail if t))  # the truncation line, or the tail
    body: list[str] = []
    for block in blocks:
        room = budget - used - footer
        if len(block) + len(sep) > room:
            if not body:  # never answer with nothing: clip the first block to fit
                body.append(clip(block, room))
            break
        body.append(block)
        used += len(block) + len(sep)
    shown = len(body)
    left = len(blocks) - shown
    end: list[str] = []
    if left:
        how = f"call again with offset={offset + shown}" if offset is not None else narrow
        end.append(f"… truncated: {left} more {noun}; {how}")
    else:
        end.extend(t for t in tail if t)
    parts = [*head, sep.join(body)] if body else list(head)
    return "\n\n".join(parts + end), shown


def trimmed(payload: Payload, key: str, shown: int, offset: int | None) -> Data:
    items = payload.get(key) or []
    data: Data = {**payload, key: [lean(i) if isinstance(i, dict) else i for i in items[:shown]],
            "truncated": shown < len(items)}
    data["next_offset"] = offset + shown if offset is not None and shown < len(items) else None
    return data



def read_call(item: Payload) -> str:
    """The get_code_context call that reads ``item`` (a result, a definition, a use) in full."""
    path, name = item.get("path"), item.get("qualified_name") or item.get("name")
    if name and item.get("kind") not in NOT_DEFINITIONS:
        return f"get_code_context(file_path={path!r}, symbol_name={name!r})"
    line = item.get("definition_start_line") or item.get("start_line") or item.get("line") or 1
    return f"get_code_context(file_path={path!r}, start_line={int(line)})"



def count_of(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def ungrouped(payload: Payload) -> str:
    """The definitions of a shared name that no group of ``payload`` resolves to, as ``Name`` (path:line)
    items: the grouped answer would otherwise not say that one of them has none."""
    grouped = {(g.get("path"), g.get("line")) for g in payload.get("groups") or []}
    return ", ".join(f"{inline(d.get('qualified_name'))} ({d.get('path')}:{d.get('start_line')})"
                     for d in payload.get("definitions") or [] if (d.get("path"), d.get("start_line")) not in grouped)


MAX_UNGROUPED = 5  # definitions named in the "no use resolves to" line


def not_resolved_to(payload: Payload, noun: str, count_key: str = "uses") -> str:
    """The line saying which definitions of a shared name no ``noun`` (use, call) resolves to, or "".
    Worded as what is known: with unresolved uses (group ``unresolved``, counted by ``count_key``) those
    may be theirs, so it says "not for certain", never "none"."""
    groups = payload.get("groups") or []
    grouped = {(g.get("path"), g.get("line")) for g in groups}
    targets = {g.get("target") for g in groups}  # an overload family's group stands for each of its definitions

    def in_group(d: Payload) -> bool:
        qn = d.get("qualified_name")
        return ((d.get("path"), d.get("start_line")) in grouped or qn in targets
                or f"{qn} ({d.get('path')})" in targets)

    missing = [d for d in payload.get("definitions") or [] if not in_group(d)]
    if not missing:
        return ""
    named = ungrouped({"definitions": missing[:MAX_UNGROUPED], "groups": groups})
    if len(missing) > MAX_UNGROUPED:
        named += f" and {len(missing) - MAX_UNGROUPED} more"
    open_ = next((int(g.get(count_key) or 0) for g in groups if g.get("target") == "unresolved"), 0)
    if not open_:
        return f"No {noun} was resolved to {named}."
    what = count_of(open_, noun) if count_key == "uses" else f"the calls of {count_of(open_, 'caller')}"
    return (f"No {noun} resolves to {named} for certain; {what} could not be resolved (listed under unresolved) "
            f"and may be {'theirs' if len(missing) > 1 else 'its'}.")


def unresolved_title(count: object, candidates: object) -> str:
    """What an ``unresolved`` group heading says: a guess among the definitions, not that there are none."""
    among = f"any of the {candidates} definitions of the name" if candidates else "any definition of the name"
    return f"#### unresolved ({count}): no one definition could be picked; could be {among}, or code outside the index"
