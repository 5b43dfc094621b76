"""Markdown for the repository map and the call graph (``get_repo_map``, ``callers``, ``callees``,
``impact``), bounded like the other answers (:mod:`codesift.tools.markdown.render`).

``cli=True`` phrases the next steps as commands (``codesift callees NAME``) instead of tool calls,
and leaves out the code fence around the map.
"""

from __future__ import annotations

from collections.abc import Sequence

from codesift.tools.markdown.common import (DEFAULT_MAX_CHARS, Payload, Rendered, bounded, count_of, trimmed, fence, inline, lean,
                                            not_resolved_to, unresolved_title)
from codesift.tools.payloads import CalleesPage, CallersPage, ImpactPage, RepoMap

MAX_LINES_LISTED = 8  # call lines listed per entry


def _where(d: Payload | None) -> str:
    if not d:
        return ""
    return f"{d['path']}:{d['start_line']}-{d['end_line']}"


def _lines_of(entry: Payload) -> str:
    lines = [int(n) for n in entry.get("lines") or []]
    if len(lines) <= 1:
        return ""
    shown = ", ".join(map(str, lines[:MAX_LINES_LISTED]))
    return f" (lines {shown}{', …' if len(lines) > MAX_LINES_LISTED else ''})"


def _more(payload: Payload, noun: str) -> list[str]:
    """The paging line when the page (``offset`` + ``results``) stops before ``total``."""
    offset, shown = int(payload.get("offset") or 0), len(payload.get("results") or [])
    left = int(payload.get("total") or 0) - offset - shown
    if left <= 0:
        return []
    how = f"call again with offset={offset + shown}" if "limit" in payload else "raise --limit"
    return [f"{left:,} more {noun}: {how}."]


def _next(cli: bool, tool: str, arg: str) -> str:
    return f"`codesift {tool} {arg}`" if cli else f"`{tool}({arg})`"


# -- get_repo_map ----------------------------------------------------------------------------------
def map_body(payload: RepoMap) -> list[str]:
    """The map itself: a path line per file, then one line per definition (line number, signature)."""
    out: list[str] = []
    for f in payload.get("files") or []:
        out.append(str(f["path"]))
        out.extend(f"  {s['text']}" for s in f["symbols"])
    return out


def render_map(payload: RepoMap, *, cli: bool = False) -> Rendered:
    """get_repo_map: what was ranked and how, the map, how to see more. Sized by the caller (the budget
    is in tokens, chosen before rendering); this only lays it out."""
    where = payload.get("service") or "the repository"
    shown, total, offset = int(payload.get("shown") or 0), int(payload.get("total") or 0), int(payload.get("offset") or 0)
    span = f"{shown} of {total:,} definitions" + (f" from #{offset + 1}" if offset else "")
    head = [f"Map of {where}: {span}, ranked by how much the rest of the code references them (PageRank over "
            f"{int(payload.get('references') or 0):,} static references)"
            f"{'; tests and examples left out' if payload.get('tests_left_out') else ''}. "
            f"≈{int(payload.get('tokens') or 0):,} tokens of {int(payload.get('budget_tokens') or 0):,} "
            f"(tokens ≈ characters / 4)."]
    focus = payload.get("focus") or []
    if focus:
        head.append(f"Focus: {', '.join(inline(f) for f in focus)} ({count_of(int(payload.get('focus_symbols') or 0), 'definition')}, "
                    "not listed): what they use and what uses them ranks first.")
    head.extend(f"> note: {n}" for n in payload.get("notes") or [])
    body = "\n".join(map_body(payload))
    tail: list[str] = []
    if payload.get("next_offset") is not None:
        left = total - offset - shown
        more = (f"`codesift map --offset {payload['next_offset']}`" if cli
                else f"offset={payload['next_offset']}")
        tail.append(f"… {left:,} more definitions: call again with {more} or a larger budget.")
    if shown:
        tail.append(f"Next: {_next(cli, 'callers', 'NAME')} / {_next(cli, 'callees', 'NAME')} to follow one, "
                    + ("`codesift symbol NAME`" if cli else "`get_code_context(file_path, symbol_name)`")
                    + " to read it.")
    else:
        tail.append("No definitions to map here.")
    parts = [*head, (body if cli else fence(body)) if body else "", *tail]
    text = "\n\n".join(p for p in parts if p)
    data = {k: v for k, v in payload.items() if k != "files"}
    data["files"] = [{"path": f["path"], "symbols": [lean(s) for s in f["symbols"]]} for f in payload.get("files") or []]
    return Rendered(text, data)


# -- callers / callees / impact --------------------------------------------------------------------
def _group_heading(target: object, groups: Sequence[Payload], count_key: str) -> str:
    info = next((g for g in groups if g.get("target") == target), {})
    if target == "unresolved":
        return unresolved_title(info.get(count_key, "?"), info.get("candidates"))
    where = f" — {info['path']}:{info['line']}" if info.get("path") else ""
    return f"#### → {inline(str(target))}{where}"


def _defined(payload: Payload) -> str:
    defs = payload.get("definitions") or []
    if len(defs) == 1:
        d = defs[0]
        return f"Defined at {_where(d)} ({d.get('kind')} {inline(d.get('qualified_name'))})."
    return ""


def _none_found(payload: Payload, what: str) -> list[str]:
    note = str(payload.get("note") or "")
    similar = ", ".join(inline(s) for s in payload.get("suggestions") or [])
    lines = [f"No {what} {inline(payload.get('symbol', ''))}" + (f": {note}." if note else ".")]
    if similar:
        lines.append(f"Similar names: {similar}.")
    return lines


def render_callers(payload: CallersPage, max_chars: int = DEFAULT_MAX_CHARS, *, cli: bool = False) -> Rendered:
    """callers: one line per calling definition (where, what, how many calls), grouped by target."""
    offset = int(payload.get("offset") or 0)
    results = payload.get("results") or []
    name = inline(payload.get("symbol", ""))
    total = int(payload.get("total") or 0)
    if not total:
        head = _none_found(payload, "calls to") if not payload.get("definitions") else [
            f"No calls to {name} in the index" + (f": {payload['note']}." if payload.get("note") else ".")
            + f" It may be used without a call: try {_next(cli, 'usages' if cli else 'find_usages', name.strip('`'))}."]
        return Rendered("\n\n".join(head), trimmed(payload, "results", 0, offset))
    tests = int(payload.get("in_tests") or 0)
    line = (f"Callers of {name}: {count_of(total, 'definition')} ({count_of(int(payload.get('calls') or 0), 'call')})"
            + (f", {tests} in tests (listed after the rest)" if tests else ""))
    head = [line + ".", _defined(payload)]
    groups = payload.get("groups") or []
    if groups:
        head.append("Several definitions share the name; callers are grouped by the likely target: "
                    + " · ".join(f"{inline(g['target']) if g['target'] != 'unresolved' else 'unresolved'} "
                                 f"{g.get('callers', 0)}" for g in groups) + ".")
        if none := not_resolved_to(payload, "call", "callers"):
            head.append(none)
    blocks = _entry_blocks(results, groups, "callers", lambda e: (
        f"- `{e['path']}:{e['line']}` in {inline(e['name'])} ({e['kind']}"
        + (f" {_where(e['definition']).split(':', 1)[1]}" if e.get("definition") else "")
        + f") — {count_of(int(e.get('calls') or 0), 'call')}{_lines_of(e)}"))
    tail = [*_more(payload, "callers"), f"Next: {_next(cli, 'callers', 'CALLER')} to go up a level, "
            f"{_next(cli, 'impact', name.strip('`'))} for everything that reaches it."]
    text, shown = bounded(head, blocks, max_chars, noun="callers", offset=offset, tail=tail, sep="\n")
    return Rendered(text, trimmed(payload, "results", shown, offset))


def _entry_blocks(results: Sequence[Payload], groups: Sequence[Payload], count_key: str, line_of) -> list[str]:  # noqa: ANN001
    blocks: list[str] = []
    previous: Payload | None = None
    for e in results:
        lead: list[str] = []
        new_group = bool(groups) and (previous is None or previous.get("target") != e.get("target"))
        if new_group:
            lead.append(("\n" if previous is not None else "") + _group_heading(e.get("target"), groups, count_key))
        if e.get("test") and (new_group or previous is None or not previous.get("test")):
            lead.append("_in tests:_")
        blocks.append("\n".join([*lead, line_of(e)]))
        previous = e
    return blocks


def _callee_line(e: Payload) -> str:
    called = f"{e['qualifier']}.{e['name']}" if e.get("qualifier") else str(e["name"])
    d = e.get("definition")
    how = e.get("resolution")
    if d:
        where = f"→ {inline(d['qualified_name'])} {_where(d)} ({d['kind']})"
        if how == "name only":
            where += " — by name only, the receiver's type is not known"
    elif how == "ambiguous":
        where = f"— unresolved: could be any of the {e.get('candidates')} definitions of the name"
    elif how == "local":
        where = "— a parameter or local of that name (e.g. bound by getattr): what it holds is not known"
    else:
        where = "— outside the index"
    calls = int(e.get("calls") or 0)
    times = f" ×{calls}{_lines_of(e)}" if calls > 1 else ""
    return f"- `{e['path']}:{e['line']}` {inline(called)}{times} {where}"


def render_callees(payload: CalleesPage, max_chars: int = DEFAULT_MAX_CHARS, *, cli: bool = False) -> Rendered:
    """callees: one line per called definition (or unresolved name), in body order."""
    offset = int(payload.get("offset") or 0)
    results = payload.get("results") or []
    name = inline(payload.get("symbol", ""))
    defs = payload.get("definitions") or []
    if not defs:
        return Rendered("\n\n".join(_none_found(payload, "definition named")), trimmed(payload, "results", 0, offset))
    total = int(payload.get("total") or 0)
    where = f" ({_where(defs[0])}, {defs[0]['kind']})" if len(defs) == 1 else f" ({len(defs)} definitions)"
    head = [f"Calls made by {name}{where}: {count_of(total, 'callee')}, "
            f"{int(payload.get('resolved') or 0)} of them defined in the index.",
            f"> note: {payload['note']}" if payload.get("note") else ""]
    blocks: list[str] = []
    previous = None
    for e in results:
        lead = f"#### from {inline(e['caller'])}\n" if e.get("caller") and e.get("caller") != previous else ""
        previous = e.get("caller")
        blocks.append(lead + _callee_line(e))
    tail = [] if results else [f"{name} calls nothing the index records."]
    tail += _more(payload, "callees")
    if results:
        tail.append(f"Next: {_next(cli, 'callees', 'NAME')} to go down a level, "
                    f"{_next(cli, 'callers', name.strip('`'))} for the other direction.")
    text, shown = bounded(head, blocks, max_chars, noun="callees", offset=offset, tail=tail, sep="\n")
    return Rendered(text, trimmed(payload, "results", shown, offset))


def _maybe(results: Sequence[Payload]) -> str:
    """The line saying how many of the definitions reached are reached through unresolved uses only."""
    n = sum(1 for e in results if e.get("target") == "unresolved")
    return (f"{count_of(n, 'definition')} of these {'is' if n == 1 else 'are'} reached through uses no one definition "
            "could be picked for: a guess, they may use another definition of the name." if n else "")


def render_impact(payload: ImpactPage, max_chars: int = DEFAULT_MAX_CHARS, *, cli: bool = False) -> Rendered:
    """impact: totals, the files reached, then the definitions by hop."""
    offset = int(payload.get("offset") or 0)
    results = payload.get("results") or []
    name = inline(payload.get("symbol", ""))
    total = int(payload.get("total") or 0)
    if not total:
        head = _none_found(payload, "uses of") if not payload.get("definitions") else [
            f"Nothing in the index uses {name}" + (f": {payload['note']}." if payload.get("note") else ".")]
        return Rendered("\n\n".join(head), trimmed(payload, "results", 0, offset))
    files = payload.get("files") or []
    tests = int(payload.get("in_tests") or 0)
    head = [f"Impact of {name}: {count_of(total, 'definition')} in {count_of(len(files), 'file')} reach it within "
            f"{payload.get('depth')} hops" + (f" ({tests} in tests)" if tests else "")
            + " over calls, type uses, inheritance, decorators and attribute reads (imports alone not followed).",
            _defined(payload), _maybe(results),
            "Files: " + ", ".join(f"{f['path']} ({f['symbols']})" for f in files[:30])
            + (f", … {len(files) - 30} more" if len(files) > 30 else ""),
            f"> note: {payload['note']}" if payload.get("note") else ""]
    blocks: list[str] = []
    hop = None
    for e in results:
        lead = f"#### hop {e['depth']}\n" if e.get("depth") != hop else ""
        hop = e.get("depth")
        via = f" via {inline(e['via'])}" if int(e.get("depth") or 1) > 1 else ""
        target = (" → unresolved (may use another definition of the name)" if e.get("target") == "unresolved"
                  else f" → {inline(e['target'])}" if e.get("target") else "")
        test = " (test)" if e.get("test") else ""
        blocks.append(f"{lead}- `{e['path']}:{e['line']}` {inline(e['name'])} ({e['kind']}){test}{via}{target}")
    tail = [*_more(payload, "definitions"), f"Next: {_next(cli, 'callers', 'NAME')} for one of these, or read one with "
            + ("`codesift symbol NAME`." if cli else "`get_code_context(file_path, symbol_name)`.")]
    text, shown = bounded(head, blocks, max_chars, noun="definitions", offset=offset, tail=tail, sep="\n")
    data = trimmed(payload, "results", shown, offset)
    return Rendered(text, data)
