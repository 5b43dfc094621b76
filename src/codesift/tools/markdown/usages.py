"""Markdown of find_usages answers: uses grouped by likely target, non-test code first, paged."""

from __future__ import annotations

from collections.abc import Sequence

from codesift.tools.payloads import UsagesPage
from codesift.tools.markdown.common import (DEFAULT_MAX_CHARS, Payload, Rendered, bounded, count_of, line_span, trimmed, inline, read_call,
                       not_resolved_to, unresolved_title)


# -- find_usages -----------------------------------------------------------------------------------
def _usage_line(u: Payload, *, grouped: bool = False) -> str:
    line = u.get("line") or u.get("start_line")
    kind = u.get("kind") or u.get("ref_kind") or "use"
    where = u.get("enclosing") or u.get("in") or u.get("qualified_name") or u.get("symbol")
    code = u.get("text") or u.get("line_text") or u.get("snippet") or ""
    code = str(code).strip().splitlines()[0] if str(code).strip() else ""
    parts = [f"- `{u.get('path')}{line_span(line, u.get('end_line'))}` {kind}"]
    if u.get("qualifier"):
        parts.append(f"via {inline(u['qualifier'])}")
    if where:
        parts.append(f"in {inline(where)}")
    if u.get("target") and not grouped:  # grouped: the group's heading names the target
        parts.append(f"→ {inline(u['target'])}")
    if u.get("score") is not None:
        parts.append(f"(score {float(u['score']):.2f})")
    return " ".join(parts) + (f" — {inline(code)}" if code else "")


def _group_title(target: str, groups: Sequence[Payload]) -> str:
    info = next((g for g in groups if g.get("target") == target), {})
    if target == "unresolved":
        return unresolved_title(info.get("uses", "?"), info.get("candidates"))
    where = f" — {info['path']}:{info['line']}" if info.get("path") else ""
    return f"#### → {inline(target)}{where} ({count_of(int(info.get('uses') or 0), 'use')})"


def _usages_head(payload: UsagesPage, name: str, results: Sequence[Payload], offset: int, *, cli: bool) -> list[str]:
    """Totals, where the name is defined (or that it is not) and how the list is ordered (``cli``: the
    commands named as commands)."""
    source = payload.get("source") or "static"
    defs = payload.get("definitions") or []
    if source == "none":
        note = str(payload.get("note") or f"no definition named {payload.get('symbol_name')!r}")
        similar = ", ".join(inline(s) for s in payload.get("suggestions") or [])
        return [note[:1].upper() + note[1:] + ".", f"Similar names: {similar}." if similar else
                "" if "defined as" in note else
                f"Check the spelling, or describe what it does with `{'codesift search' if cli else 'search_code'}`."]
    if source == "semantic_guess":
        return [f"No static references to {name}.", f"> note: {payload.get('note')}" if payload.get("note") else ""]
    total = int(payload.get("total") or offset + len(results))
    files, tests = payload.get("files"), payload.get("in_tests")
    if not results:
        return [f"No usages of {name}" + (f" past #{offset}." if offset else ".")]
    line = f"Usages of {name}: {total}" + (f" in {count_of(int(files), 'file')}" if files else "")
    if tests is not None:
        line += (" (none in tests)" if not tests else " (all in tests)" if tests >= total
                 else f" ({tests} in tests, listed after the rest)")
    if offset or offset + len(results) < total:
        line += f"; showing {offset + 1}-{offset + len(results)}"
    head = [line + "."]
    groups = payload.get("groups") or []
    if groups:
        summary = " · ".join(f"{inline(g['target'])} {g['uses']}" if g["target"] != "unresolved"
                             else f"unresolved {g['uses']}" for g in groups)
        head.append(f"Several definitions share the name; uses are grouped by likely target: {summary}.")
        if none := not_resolved_to(payload, "use"):
            head.append(none)
        if payload.get("left_out"):
            left = count_of(int(payload["left_out"]), "use")
            head.append(f"Left out: {left} resolving to other definitions of the name.")
    elif len(defs) == 1:
        d = defs[0]
        head.append(f"Defined at {d.get('path')}:{d.get('start_line')} "
                    f"({d.get('kind')} {inline(d.get('qualified_name'))}).")
    elif not defs and source == "static":
        head.append(f"No definition named {name} in the index: these uses refer to code outside it.")
    if payload.get("shadowed"):
        head.append(f"Left out: {count_of(int(payload['shadowed']), 'read')} of a parameter or local of the "
                    "same name (the name there is that, not the definition).")
    return head


def _usages_next(payload: UsagesPage, results: Sequence[Payload], *, cli: bool) -> str:
    """The next call after find_usages (``cli``: as commands): read a use in context and follow the call
    graph, or, where the index knows no reference, look for the text itself."""
    name = str(payload.get("symbol_name") or "")
    if payload.get("source") in ("none", "semantic_guess") or not results:
        grep = f"`codesift grep {name}`" if cli else f"grep_code({name!r})"
        return f"Next: {grep} finds the text anywhere, strings, comments and config included."
    if cli:
        return f"Next: `codesift callers {name}` lists the calling definitions, `codesift impact {name}` " \
               "everything that reaches it."
    first = results[0]
    use = {"path": first.get("path"), "qualified_name": first.get("enclosing"), "line": first.get("line")}
    return (f"Next: {read_call(use)} reads the first use in context; callers({name!r}) lists the calling "
            f"definitions, impact({name!r}) everything that reaches it.")


def render_usages(payload: UsagesPage, max_chars: int = DEFAULT_MAX_CHARS) -> Rendered:
    """find_usages: totals and definitions, then one bullet per use (path:line, kind, enclosing definition,
    the code line), under a heading per likely target when several definitions share the name; test uses
    follow the others under an "in tests" line."""
    offset = int(payload.get("offset") or 0)
    results = payload.get("results") or []
    name = inline(payload.get("symbol_name", ""))
    cli = "limit" not in payload  # the CLI's payload has no page size: it says --limit
    head = _usages_head(payload, name, results, offset, cli=cli)
    groups = payload.get("groups") or []
    blocks: list[str] = []
    previous: Payload | None = None
    for u in results:
        lead: list[str] = []
        new_group = bool(groups) and (previous is None or previous.get("target") != u.get("target"))
        if new_group:
            lead.append(("\n" if previous is not None else "") + _group_title(str(u.get("target")), groups))
        if u.get("test") and (new_group or previous is None or not previous.get("test")):
            lead.append("_in tests:_")
        blocks.append("\n".join([*lead, _usage_line(u, grouped=bool(groups))]))
        previous = u
    tail: list[str] = []
    total = int(payload.get("total") or 0)
    left = total - offset - len(results) if total else 0
    if left > 0 or (not total and payload.get("limit") and len(results) >= int(payload["limit"])):
        more = f"{left} more usages" if left > 0 else "More usages may exist"
        tail.append(f"{more} not shown: raise --limit." if cli
                    else f"{more}: call again with offset={offset + len(results)}.")
    tail.append(_usages_next(payload, results, cli=cli))
    text, shown = bounded(head, blocks, max_chars, noun="usages", offset=offset, tail=tail, sep="\n")
    return Rendered(text, trimmed(payload, "results", shown, offset))
