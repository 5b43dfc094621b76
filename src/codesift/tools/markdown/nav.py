"""Renderers for grep and outline: Markdown for agents (bounded, paged) and plain text for the CLI.

Same contract as ``tools/markdown.py``: each Markdown renderer returns :class:`Rendered`, the text plus
the payload cut to what the text shows, without the text itself (lines of code, signatures, docs).
"""

from __future__ import annotations

from codesift.languages import language_for
from codesift.tools.markdown.common import DEFAULT_MAX_CHARS, Data, Payload, Rendered, bounded, fence, inline, lean
from codesift.tools.payloads import GrepAnswer, OutlineAnswer, OutlineItem, OutlinePage

_TEXT_KEYS = ("before", "after", "doc", "signature")


def _plural(n: int, noun: str) -> str:
    return f"{n:,} {noun}" if n == 1 else f"{n:,} {noun}s"


def _lean(item: Payload) -> Data:
    return {k: v for k, v in lean(item).items() if k not in _TEXT_KEYS}


# -- grep ------------------------------------------------------------------------------------------
def grep_summary(payload: GrepAnswer) -> str:
    """``12 hits in 4 files · 7 of 1,234 files read (trigram index) · 3.1 ms``."""
    n = len(payload.get("results") or []) + int(payload.get("offset") or 0)
    hits = f"{n:,}+ hits" if payload.get("more") else _plural(n, "hit")
    how = ("candidates from the trigram index" if payload.get("strategy") == "index"
           else "no index narrowing")
    return (f"{hits} in {_plural(int(payload.get('files_with_hits') or 0), 'file')} · "
            f"{int(payload.get('files_read') or 0):,} of {int(payload.get('indexed_files') or 0):,} indexed files "
            f"read ({how}) · {payload.get('elapsed_ms')} ms")


def _grep_head(payload: GrepAnswer) -> list[str]:
    mode = "regex" if payload.get("regex") else "literal"
    case = "case-sensitive" if payload.get("case_sensitive", True) else "ignoring case"
    offset = int(payload.get("offset") or 0)
    results = payload.get("results") or []
    span = f" · hits {offset + 1}-{offset + len(results)}" if results and (offset or payload.get("more")) else ""
    line = f"grep {inline(payload.get('pattern', ''))} ({mode}, {case}) · {grep_summary(payload)}{span}"
    return [line, *(f"> note: {n}" for n in payload.get("notes") or [])]


def _hit_block(hit: Payload, context_lines: int) -> str:
    where = f" in {inline(hit['enclosing'])}" if hit.get("enclosing") else ""
    stale = " (live file; index stale)" if hit.get("stale") else ""
    if not context_lines:
        return f"- L{hit['line']}{where}{stale}: {inline(hit.get('text') or '')}"
    line = int(hit["line"])
    before, after = hit.get("before") or [], hit.get("after") or []
    first = line - len(before)
    rows = [*before, hit.get("text") or "", *after]
    width = len(str(line + len(after)))
    body = "\n".join(f"{n:>{width}}{'>' if n == line else ' '} {text}" for n, text in enumerate(rows, start=first))
    return f"- L{line}{where}{stale}:\n{fence(body, language_for(str(hit.get('path'))) or '')}"


def render_grep(payload: GrepAnswer, max_chars: int = DEFAULT_MAX_CHARS) -> Rendered:
    """grep_code: the search line and notes, then the hits under a bold heading per file, paged by offset."""
    offset = int(payload.get("offset") or 0)
    results = payload.get("results") or []
    context_lines = int(payload.get("context_lines") or 0)
    blocks: list[str] = []
    previous = None
    for hit in results:
        lead = f"**{hit['path']}**\n" if hit["path"] != previous else ""
        if lead and previous is not None:
            lead = "\n" + lead
        blocks.append(lead + _hit_block(hit, context_lines))
        previous = hit["path"]
    tail: list[str] = []
    if not results:
        tail.append(f"No more hits past offset {offset}." if offset else
                    "No hits. For behaviour described in words use search_code; for a name, find_symbol.")
    else:
        first = next((h for h in results if h.get("enclosing")), results[0])
        name = f", symbol_name={first['enclosing']!r}" if first.get("enclosing") else ""
        if payload.get("more"):
            tail.append(f"More hits: call again with offset={offset + len(results)}.")
        tail.append(f"Next: get_code_context(file_path={first['path']!r}{name}) reads a hit in full; "
                    "find_usages(name) lists the real references of a symbol.")
    text, shown = bounded(_grep_head(payload), blocks, max_chars, noun="hits", offset=offset, tail=tail,
                           sep="\n")
    data = {**{k: v for k, v in payload.items() if k != "results"},
            "results": [_lean(h) for h in results[:shown]]}
    cut = shown < len(results)
    data["truncated"] = cut or bool(payload.get("more"))
    data["next_offset"] = offset + shown if data["truncated"] else None
    return Rendered(text, data)


def grep_text(payload: GrepAnswer) -> str:
    """grep for a terminal, ripgrep-like: ``path:line:text`` (context ``path-line-text``, ``--`` between
    blocks), files apart, a ``# in Symbol (kind)`` line where the enclosing symbol changes."""
    files: dict[str, dict[int, tuple[bool, str, tuple[object, ...]]]] = {}  # path → line → (hit, text, symbol)
    for hit in payload.get("results") or []:
        rows = files.setdefault(hit["path"], {})
        line = int(hit["line"])
        before = hit.get("before") or []
        for n, text in [*enumerate(before, start=line - len(before)),
                        *enumerate(hit.get("after") or [], start=line + 1)]:
            rows.setdefault(n, (False, text, ()))
        rows[line] = (True, hit.get("text", ""), (hit.get("enclosing"), hit.get("enclosing_kind")))
    out: list[str] = []
    context = int(payload.get("context_lines") or 0)
    for path, rows in files.items():
        if out:
            out.append("")
        previous_symbol: tuple[object, ...] | None = None
        lines = sorted(rows)
        for i, n in enumerate(lines):
            is_hit, text, symbol = rows[n]
            new_block = i == 0 or n > lines[i - 1] + 1
            if context and new_block and i:
                out.append("--")
            if new_block:  # the block's first hit names its symbol above the block's context lines
                symbol = next(rows[m][2] for m in lines[i:] if rows[m][0])
            if (new_block or is_hit) and symbol != previous_symbol:
                if symbol[0] or previous_symbol is not None:  # a file without symbols gets no headers
                    out.append(f"# in {symbol[0]} ({symbol[1]})" if symbol[0] else "# at top level")
                previous_symbol = symbol
            out.append(f"{path}{':' if is_hit else '-'}{n}{':' if is_hit else '-'}{text}")
    return "\n".join(out)


# -- outline ---------------------------------------------------------------------------------------
def _outline_line(item: Payload) -> str:
    indent = "  " * int(item.get("depth") or 0)
    span = f"L{item['start_line']}" + (f"-{item['end_line']}" if item["end_line"] != item["start_line"] else "")
    label = item.get("qualified_name") if item.get("depth") == 0 or item.get("kind") == "section" else item.get("name")
    sig = f" · {inline(item['signature'])}" if item.get("signature") else ""
    doc = f" — {item['doc']}" if item.get("doc") else ""
    return f"{indent}- {span} {item.get('kind')} **{label}**{sig}{doc}"


def render_outline(payload: OutlinePage, max_chars: int = DEFAULT_MAX_CHARS) -> Rendered:
    """get_file_outline: one line per symbol (line range, kind, name, signature, first doc line), indented
    by nesting, paged by ``offset`` over the symbols in reading order."""
    from codesift.tools.outline import flatten

    offset = int(payload.get("offset") or 0)
    items = flatten(payload.get("symbols") or [])[offset:]
    count = int(payload.get("count") or 0)
    source = "from the index" if payload.get("source") == "index" else "parsed from the live file"
    head = [f"Outline of {inline(payload.get('path', ''))} ({payload.get('language')}, "
            f"{payload.get('total_lines')} lines) · {_plural(count, 'symbol')}"
            + (f" from #{offset + 1}" if offset else "") + f" · {source}",
            *(f"> note: {n}" for n in payload.get("notes") or [])]
    blocks = [_outline_line(i) for i in items]
    tail: list[str] = []
    if not items:
        tail.append(f"No symbols past #{offset}." if offset else
                    "No symbols here (module-level code or plain text only): read it with get_code_context.")
    else:
        first = next((i for i in items if i.get("kind") != "section"), items[0])
        tail.append(f"Next: get_code_context(file_path={payload.get('path')!r}, symbol_name="
                    f"{first.get('qualified_name')!r}) reads one symbol; find_usages(name) shows where it is used.")
    text, shown = bounded(head, blocks, max_chars, noun="symbols", offset=offset, tail=tail, sep="\n")
    data = {**{k: v for k, v in payload.items() if k != "symbols"},
            "results": [_lean(i) for i in items[:shown]], "offset": offset,
            "truncated": shown < len(items), "next_offset": offset + shown if shown < len(items) else None}
    return Rendered(text, data)


def outline_text(payload: OutlineAnswer) -> str:
    """The outline for a terminal: ``start-end  kind  name  signature  — doc``, indented by nesting."""
    from codesift.tools.outline import flatten

    lines = [f"{payload.get('path')} ({payload.get('language')}, {payload.get('total_lines')} lines, "
             f"{_plural(int(payload.get('count') or 0), 'symbol')})"]
    for item in flatten(payload.get("symbols") or []):
        indent = "  " * int(item["depth"])
        what = item["signature"] or item["name"]
        doc = f"  — {item['doc']}" if item.get("doc") else ""
        lines.append(f"{item['start_line']:>5}-{item['end_line']:<5} {indent}{item['kind']:<8} {what}{doc}")
    return "\n".join(lines)


def strip_outline(symbols: list[OutlineItem]) -> list[Data]:
    """The nested outline as the CLI's ``--json`` contract: name, kind, lines, signature, doc, children."""
    keys = ("name", "qualified_name", "kind", "start_line", "end_line", "signature", "doc")
    return [{**{k: s.get(k) for k in keys}, "children": strip_outline(s.get("children") or [])} for s in symbols]
