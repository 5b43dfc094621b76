"""Markdown for agents: one pure renderer per tool, each bounded by a character budget.

Every renderer takes the tool's JSON-ready payload and returns :class:`Rendered`: the Markdown text
and the payload trimmed to what the text shows (plus ``truncated`` / ``next_offset``), so the text
and the structured content an MCP client receives always agree. Items are rendered in order until
the budget is reached; the text then says how many were left out and how to get them.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

DEFAULT_MAX_CHARS = 60_000  # ≈ 15k tokens: well under the 25k-token cap some clients put on a tool result
MIN_MAX_CHARS = 1_000
_FOOTER_ROOM = 160  # kept free for the truncation line
_FENCE_LANG = {"c_sharp": "csharp", "objective_c": "objectivec", "shell": "bash", "text": "", "window": ""}

Payload = dict[str, Any]


@dataclass(frozen=True, slots=True)
class Rendered:
    """Markdown for the agent plus the payload cut to the same items (for structured content)."""

    text: str
    data: Payload


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


def _lines(start: int | None, end: int | None) -> str:
    if not start:
        return ""
    return f":{start}" if not end or end == start else f":{start}-{end}"


def _clip(block: str, room: int) -> str:
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


def _bounded(
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
    body: list[str] = []
    for block in blocks:
        room = budget - used - _FOOTER_ROOM
        if len(block) + len(sep) > room:
            if not body:  # never answer with nothing: clip the first block to fit
                body.append(_clip(block, room))
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


def _trim(payload: Payload, key: str, shown: int, offset: int | None) -> Payload:
    items = payload.get(key) or []
    data = {**payload, key: items[:shown], "truncated": shown < len(items)}
    data["next_offset"] = offset + shown if offset is not None and shown < len(items) else None
    return data


def _field(label: str, value: object) -> str:
    return f"**{label}:** {value}" if value not in (None, "", [], ()) else ""


def _symbol_lines(item: Payload) -> list[str]:
    """The per-definition fields shared by every list renderer (location, language, annotations…)."""
    decorators = item.get("decorators") or []
    return [
        _field("Location", f"{item.get('path')}{_lines(item.get('start_line'), item.get('end_line'))}"),
        _field("Language", item.get("language")),
        _field("Annotations", " ".join(inline(d) for d in decorators)),
        _field("Route", item.get("route")),
        _field("Signature", inline(item["signature"]) if item.get("signature") else ""),
        _field("ID", item.get("id")),
    ]


def _join(lines: Sequence[str]) -> str:
    return "\n".join(line for line in lines if line)


def _score(item: Payload, word: str = "score") -> str:
    score = item.get("score")
    if score is None:
        return ""
    label = f" {item['label']}" if item.get("label") else ""
    return f" — {word} {float(score):.2f}{label}"


# -- search_code ---------------------------------------------------------------------------------
def search_header(payload: Payload) -> list[str]:
    """The line(s) above the results: query, mode, embedding status, and coverage/notes when not ok."""
    offset = int(payload.get("offset") or 0)
    n = len(payload.get("results") or [])
    span = f"results {offset + 1}-{offset + n}" if n else "no results"
    line = f'Search {inline(payload.get("query", ""))} · mode: {payload.get("mode")} · ' \
           f'embedding: {payload.get("embedding_status", "ok")} · {span}'
    coverage = payload.get("coverage", 1.0)
    if payload.get("embedding_status", "ok") != "ok" or (coverage is not None and coverage < 1):
        line += f" · semantic coverage {float(coverage or 0):.0%}"
    return [line, *(f"> note: {note}" for note in payload.get("notes") or [])]


def search_block(n: int, r: Payload) -> str:
    """One result: heading, fields, then the snippet as fenced code."""
    title = f"### {n}. {r.get('qualified_name') or r.get('name')} ({r.get('kind')}){_score(r)}"
    code = fence(r["snippet"], r.get("language") or "") if r.get("snippet") else ""
    return _join([title, *_symbol_lines(r), code])


def render_search(payload: Payload, max_chars: int = DEFAULT_MAX_CHARS) -> Rendered:
    """search_code: header line, then one section per result, paged by ``offset``."""
    offset = int(payload.get("offset") or 0)
    results = payload.get("results") or []
    blocks = [search_block(offset + i, r) for i, r in enumerate(results, start=1)]
    tail: list[str] = []
    if not results:
        tail.append(f"No more matches past offset {offset}." if offset else
                    "No matches. Try other words, `find_symbol` for a name, or fewer filters.")
    elif payload.get("limit") and len(results) >= int(payload["limit"]):
        tail.append(f"More results may match: call again with offset={offset + len(results)}.")
    head = search_header(payload)
    text, shown = _bounded(head, blocks, max_chars, offset=offset, tail=tail)
    if shown < len(results):  # say in the header too that the budget cut the page short
        span = f"results {offset + 1}-{offset + len(results)}"
        text = text.replace(span, f"results {offset + 1}-{offset + shown} shown of {len(results)} found", 1)
    return Rendered(text, _trim(payload, "results", shown, offset))


# -- find_symbol / find_similar / drill_down ---------------------------------------------------------
def symbol_block(n: int, s: Payload, *, score_word: str = "score") -> str:
    """One definition without its body: heading, fields and the docstring's first paragraph."""
    how = f" — {s['match']} match" if s.get("match") else _score(s, score_word)
    title = f"### {n}. {s.get('qualified_name') or s.get('name')} ({s.get('kind')}){how}"
    doc = " ".join(str(s.get("docstring") or "").split())
    return _join([title, *_symbol_lines(s), f"> {doc}" if doc else ""])


def render_symbols(payload: Payload, max_chars: int = DEFAULT_MAX_CHARS) -> Rendered:
    """find_symbol: definitions, exact matches first; ``offset`` pages through them."""
    offset = int(payload.get("offset") or 0)
    results = payload.get("results") or []
    name = inline(payload.get("name", ""))
    head = [f"Definitions matching {name}: {len(results)} from #{offset + 1}" if results
            else f"No more definitions matching {name} past #{offset}." if offset
            else f"No definition matches {name}."]
    tail = [] if results else ["Try a shorter part of the name, or `search_code` to describe what it does."]
    blocks = [symbol_block(offset + i, s) for i, s in enumerate(results, start=1)]
    text, shown = _bounded(head, blocks, max_chars, offset=offset, tail=tail)
    return Rendered(text, _trim(payload, "results", shown, offset))


def render_similar(payload: Payload, max_chars: int = DEFAULT_MAX_CHARS) -> Rendered:
    """find_similar / drill_down: neighbours of one result, by embedding similarity."""
    offset = int(payload.get("offset") or 0)
    results = payload.get("results") or []
    what = "one per file (drill_down)" if payload.get("spread") else "nearest first"
    head = [f"Code similar to result {payload.get('result_id')}"
            + (f" ({payload['source']})" if payload.get("source") else "") + f": {what}"]
    blocks = [symbol_block(offset + i, s, score_word="similarity") for i, s in enumerate(results, start=1)]
    tail = [] if results else ["No similar code found."]
    text, shown = _bounded(head, blocks, max_chars, offset=offset, tail=tail)
    return Rendered(text, _trim(payload, "results", shown, offset))


# -- find_usages -----------------------------------------------------------------------------------
def _usage_line(u: Payload) -> str:
    line = u.get("line") or u.get("start_line")
    kind = u.get("kind") or u.get("ref_kind") or "use"
    where = u.get("enclosing") or u.get("in") or u.get("qualified_name") or u.get("symbol")
    code = u.get("text") or u.get("line_text") or u.get("snippet") or ""
    code = str(code).strip().splitlines()[0] if str(code).strip() else ""
    parts = [f"- `{u.get('path')}{_lines(line, u.get('end_line'))}` {kind}"]
    if u.get("qualifier"):
        parts.append(f"via {inline(u['qualifier'])}")
    if where:
        parts.append(f"in {inline(where)}")
    if u.get("target"):
        parts.append(f"→ {inline(u['target'])}")
    return " ".join(parts) + (f" — {inline(code)}" if code else "")


def render_usages(payload: Payload, max_chars: int = DEFAULT_MAX_CHARS) -> Rendered:
    """find_usages: one bullet per use (path:line, kind, enclosing definition, the code line)."""
    offset = int(payload.get("offset") or 0)
    results = payload.get("results") or []
    name = inline(payload.get("symbol_name", ""))
    head = [f"Usages of {name}: {len(results)} from #{offset + 1}" if results else f"No usages of {name} found"
            + (f" past #{offset}." if offset else ".")]
    if payload.get("note"):
        head.append(f"> note: {payload['note']}")
    blocks = [_usage_line(u) for u in results]
    tail: list[str] = []
    if payload.get("limit") and len(results) >= int(payload["limit"]):
        tail.append(f"More usages may exist: call again with offset={offset + len(results)}.")
    text, shown = _bounded(head, blocks, max_chars, noun="usages", offset=offset, tail=tail, sep="\n")
    return Rendered(text, _trim(payload, "results", shown, offset))


# -- get_code_context ------------------------------------------------------------------------------
def render_context(payload: Payload, max_chars: int = DEFAULT_MAX_CHARS, start_line: int | None = None) -> Rendered:
    """get_code_context: where the code is, then the lines with their numbers, paged by ``start_line``."""
    first, last = int(payload.get("start_line") or 1), int(payload.get("end_line") or 0)
    lines = str(payload.get("code") or "").split("\n") if payload.get("code") else []
    begin = max(first, start_line or first)
    sym = payload.get("symbol") or {}
    head = [_join([
        f"**File:** {payload.get('path')}{_lines(first, last)} (of {payload.get('total_lines')} lines)"
        + (f" at {inline(payload['ref'])}" if payload.get("ref") else ""),
        _field("Symbol", f"{sym.get('qualified_name')} ({sym.get('kind')}), lines "
                         f"{sym.get('start_line')}-{sym.get('end_line')}" if sym else ""),
        _field("Signature", inline(sym["signature"]) if sym.get("signature") else ""),
        _field("Language", payload.get("language")),
    ])]
    if payload.get("changed_since_indexed"):
        head.append("> note: the file changed since it was indexed; this is its current content")
    width = len(str(max(last, 1)))
    numbered = [f"{n:>{width}} | {text}" for n, text in enumerate(lines, start=first) if n >= begin]
    budget = max(MIN_MAX_CHARS, max_chars) - sum(len(h) + 2 for h in head) - _FOOTER_ROOM - 16
    kept, used = [], 0
    for row in numbered:
        if used + len(row) + 1 > budget and kept:
            break
        kept.append(row[: max(budget, 80)])
        used += len(row) + 1
    shown_end = begin + len(kept) - 1
    parts = [*head, fence("\n".join(kept), payload.get("language") or "")] if kept else [*head, "(no lines)"]
    next_line = shown_end + 1 if shown_end < last else None
    if next_line:
        parts.append(f"… truncated: lines {next_line}-{last} not shown; call again with start_line={next_line}")
    elif payload.get("truncated"):
        parts.append(f"… the file has {payload.get('total_lines')} lines and only {first}-{last} are served: "
                     "pass symbol_name to read a definition further down")
    code = "\n".join(lines[begin - first : begin - first + len(kept)])
    data = {**payload, "start_line": begin, "end_line": shown_end if kept else begin, "code": code,
            "truncated": bool(next_line) or bool(payload.get("truncated")), "next_start_line": next_line}
    return Rendered("\n\n".join(parts), data)


# -- summarize_matches -----------------------------------------------------------------------------
def render_summary(payload: Payload, max_chars: int = DEFAULT_MAX_CHARS) -> Rendered:
    """summarize_matches: one bullet per file (score, description, matching symbols), no code."""
    files = payload.get("results") or []
    head = [f"Files matching {inline(payload.get('query', ''))}: {len(files)}" if files
            else f"No files match {inline(payload.get('query', ''))}."]
    blocks = []
    for f in files:
        score = f" ({float(f['score']):.2f})" if f.get("score") is not None else ""
        desc = f" — {' '.join(str(f['description']).split())}" if f.get("description") else ""
        symbols = "; ".join(f.get("symbols") or [])
        blocks.append(f"- **{f.get('path')}**{score}{desc}" + (f"\n  symbols: {symbols}" if symbols else ""))
    text, shown = _bounded(head, blocks, max_chars, noun="files", narrow="pass service= or a lower limit", sep="\n")
    return Rendered(text, _trim(payload, "results", shown, None))


# -- index_status / list_sources -------------------------------------------------------------------
def _when(ts: object) -> str:
    if not ts:
        return "never"
    return dt.datetime.fromtimestamp(float(ts)).isoformat(timespec="seconds")  # type: ignore[arg-type]


def render_status(payload: Payload, max_chars: int = DEFAULT_MAX_CHARS) -> Rendered:
    """index_status: what is indexed and how complete the semantic side is."""
    langs = ", ".join(f"{k} {v}" for k, v in (payload.get("languages") or {}).items()) or "-"
    skipped = ", ".join(f"{n} {r}" for r, n in (payload.get("skipped") or {}).items()) or "none"
    coverage = float(payload.get("coverage") or 0)
    rows: list[tuple[str, object]] = [
        ("Root", payload.get("root")),
        ("Files", payload.get("files")),
        ("Symbols", f"{payload.get('symbols')} ({payload.get('chunks')} chunks)"),
        ("Languages", langs),
        ("Model", f"{payload.get('model') or '-'} (dim {payload.get('dim') or '-'})"),
        ("Embedding", f"{payload.get('embedding_status')}, semantic coverage {coverage:.0%}"),
        ("Background", payload.get("background")),
        ("Skipped", skipped),
        ("Last update", _when(payload.get("last_update"))),
    ]
    if payload.get("embedding_reason"):
        rows.append(("Why keyword-only", f"{payload['embedding_reason']}; fix: {payload.get('embedding_fix')}"))
    text = "## codesift index status\n\n" + "\n".join(f"- **{k}:** {v}" for k, v in rows if v not in (None, ""))
    return Rendered(text[: max(MIN_MAX_CHARS, max_chars)], payload)


def render_sources(payload: Payload, max_chars: int = DEFAULT_MAX_CHARS) -> Rendered:
    """list_sources: the root and its top-level folders as a table."""
    sources = payload.get("results") or []
    head = [f"Indexed root: `{payload.get('root')}`. Pass a folder as `service=` to narrow search_code, "
            "find_symbol, find_usages or summarize_matches."]
    rows = ["| service | files | symbols |\n|---|---:|---:|"]
    rows += [f"| {s.get('service')} | {s.get('files')} | {s.get('symbols')} |" for s in sources]
    text, shown = _bounded(head, rows, max_chars, noun="folders", narrow="use index_status for totals", sep="\n")
    return Rendered(text, _trim(payload, "results", max(0, shown - 1), None))

