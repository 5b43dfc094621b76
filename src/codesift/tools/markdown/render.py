"""Markdown for agents: one pure renderer per tool of the search and symbol family, each bounded by a budget.

Every renderer takes the tool's JSON-ready payload and returns :class:`Rendered`: the Markdown text
and the payload trimmed to what the text shows (plus ``truncated`` / ``next_offset``), so the text
and the structured content an MCP client receives always agree. The structured side carries where
and what (paths, lines, names, kinds, scores, ids, paging), never the text itself (code, snippets,
docstrings, signatures): those are in the Markdown once, not repeated in the JSON. Items are rendered
in order until the budget is reached; the text then says how many were left out and how to get them.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from codesift.search.coverage import share
from codesift.datatypes import NOT_DEFINITIONS
from codesift.tools.markdown.common import (FOOTER_ROOM, DEFAULT_MAX_CHARS, MIN_MAX_CHARS, Payload, Rendered, bounded, fence, inline, lean, line_span, read_call, trimmed)
from codesift.tools.payloads import (CodeContext, IndexStatus, SearchPage, SimilarPage, SourcesPage, SummaryPage,
                                     SymbolsPage)

def _field(label: str, value: object) -> str:
    return f"**{label}:** {value}" if value not in (None, "", [], ()) else ""


def location(item: Payload) -> tuple[object, object]:
    """The lines to show as an item's Location: a search result's own definition (``definition_start_line``
    -``definition_end_line``; its ``start_line``-``end_line`` is the passage it returns), else its lines."""
    if item.get("definition_start_line"):
        return item.get("definition_start_line"), item.get("definition_end_line")
    return item.get("start_line"), item.get("end_line")


def _symbol_lines(item: Payload) -> list[str]:
    """The per-definition fields shared by every list renderer (location, language, annotations…)."""
    decorators = item.get("decorators") or []
    return [
        _field("Location", f"{item.get('path')}{line_span(*location(item))}"),
        _field("Language", item.get("language")),
        _field("Annotations", " ".join(inline(d) for d in decorators)),
        _field("Route", item.get("route")),
        _field("Signature", inline(item["signature"]) if item.get("signature") else ""),
        _field("ID", item.get("id")),
    ]


def _join(lines: Sequence[str]) -> str:
    return "\n".join(line for line in lines if line)




def _uses_call(item: Payload) -> str:
    """``; find_usages('Type.name') …`` for a definition, nothing for a doc section or a passage."""
    name = item.get("qualified_name") or item.get("name")
    return f"; find_usages({name!r}) its uses" if name and item.get("kind") not in NOT_DEFINITIONS \
        else ""


def _score(item: Payload, word: str = "score") -> str:
    score = item.get("score")
    if score is None:
        return ""
    label = f" {item['label']}" if item.get("label") else ""
    return f" — {word} {float(score):.2f}{label}"


# -- search_code ---------------------------------------------------------------------------------
def search_header(payload: SearchPage) -> list[str]:
    """The line(s) above the results: query, mode, embedding status, and coverage/notes when not ok."""
    offset = int(payload.get("offset") or 0)
    n = len(payload.get("results") or [])
    span = f"results {offset + 1}-{offset + n}" if n else "no results"
    line = f'Search {inline(payload.get("query", ""))} · mode: {payload.get("mode")} · ' \
           f'embedding: {payload.get("embedding_status", "ok")} · {span}'
    coverage = payload.get("coverage", 1.0)
    if payload.get("embedding_status", "ok") != "ok" or (coverage is not None and coverage < 1):
        line += f" · semantic coverage {share(float(coverage or 0))}"
    return [line, *(f"> note: {note}" for note in payload.get("notes") or [])]


def search_block(n: int, r: Payload) -> str:
    """One result: heading, fields, then the snippet as fenced code."""
    nearby = f" +{len(r['nearby'])} nearby" if r.get("nearby") else ""
    title = f"### {n}. {r.get('qualified_name') or r.get('name')}{nearby} ({r.get('kind')}){_score(r)}"
    code = fence(r["snippet"], r.get("language") or "") if r.get("snippet") else ""
    also = _field("Also defined", "; ".join(inline(a) for a in r.get("also_defined") or []))
    doc = _field("Doc", inline(r["doc"])) if r.get("doc") else ""
    deprecated = r.get("deprecated")
    old = _field("Deprecated", inline(str(deprecated)) if deprecated else "yes") if deprecated is not None else ""
    # The snippet starts on the definition's line (Location); a constant's, where the query names one, below it.
    first = r.get("snippet_line")
    shown = _field("Snippet from", f"line {first}") if code and first and first != location(r)[0] else ""
    return _join([title, *_symbol_lines(r), passage_line(r), doc, old, also, shown, code])


def passage_line(r: Payload) -> str:
    """``**Passage:** lines 226-290 (with 2 nearby)`` for a result merged with the definitions beside it: the
    span its passage covers (``start_line``-``end_line``), wider than its own Location; nothing when the two
    are the same."""
    begin, end = r.get("start_line"), r.get("end_line")
    if not begin or not end or (begin, end) == location(r):
        return ""
    nearby = len(r.get("nearby") or [])
    return _field("Passage", f"lines {begin}-{end}" + (f" (with {nearby} nearby)" if nearby else ""))


def render_search(payload: SearchPage, max_chars: int = DEFAULT_MAX_CHARS) -> Rendered:
    """search_code: header line, then one section per result, paged by ``offset``."""
    offset = int(payload.get("offset") or 0)
    results = payload.get("results") or []
    blocks = [search_block(offset + i, r) for i, r in enumerate(results, start=1)]
    tail: list[str] = []
    if not results:
        tail.append(f"No more matches past offset {offset}." if offset else
                    "No matches. Try other words, `find_symbol` for a name, `grep_code` for exact text, "
                    "or fewer filters.")
    else:
        if payload.get("limit") and len(results) >= int(payload["limit"]):
            tail.append(f"More results may match: call again with offset={offset + len(results)}.")
        first = results[0]
        similar = (f"; drill_down(result_id={first['id']}) the same concern in other files"
                   if first.get("id") is not None and payload.get("embedding_status", "ok") == "ok" else "")
        tail.append(f"Next: {read_call(first)} reads #{offset + 1} in full{_uses_call(first)}{similar}.")
    head = search_header(payload)
    text, shown = bounded(head, blocks, max_chars, offset=offset, tail=tail)
    if shown < len(results):  # say in the header too that the budget cut the page short
        span = f"results {offset + 1}-{offset + len(results)}"
        text = text.replace(span, f"results {offset + 1}-{offset + shown} shown of {len(results)} found", 1)
    return Rendered(text, trimmed(payload, "results", shown, offset))


# -- find_symbol / find_similar / drill_down ---------------------------------------------------------
def symbol_block(n: int, s: Payload, *, score_word: str = "score") -> str:
    """One definition without its body: heading, fields and the docstring's first paragraph."""
    how = f" — {s['match']} match" if s.get("match") else _score(s, score_word)
    if s.get("test"):  # find_symbol lists a name's definitions in tests after the others
        how += ", in tests"
    title = f"### {n}. {s.get('qualified_name') or s.get('name')} ({s.get('kind')}){how}"
    doc = " ".join(str(s.get("docstring") or "").split())
    return _join([title, *_symbol_lines(s), f"> {doc}" if doc else ""])


def render_symbols(payload: SymbolsPage, max_chars: int = DEFAULT_MAX_CHARS) -> Rendered:
    """find_symbol: definitions, exact matches first; ``offset`` pages through them."""
    offset = int(payload.get("offset") or 0)
    results = payload.get("results") or []
    name = inline(payload.get("name", ""))
    total = int(payload.get("total") or 0)  # all matches, when the caller knows (a page is ``results``)
    of = f" of {total}" if total > offset + len(results) else ""
    head = [f"Definitions matching {name}: {len(results)}{of} from #{offset + 1}" if results
            else f"No more definitions matching {name} past #{offset}." if offset
            else f"No definition matches {name}."]
    tail = [] if results else ["Try a shorter part of the name, `grep_code` for the exact text, or `search_code` "
                               "to describe what it does."]
    if of:  # the page was cut by the limit (the budget's cut is said by bounded)
        tail.append(f"{total - offset - len(results)} more definitions match: "
                    f"call again with offset={offset + len(results)}.")
    if results:
        tail.append(f"Next: {read_call(results[0])} reads #{offset + 1}'s body{_uses_call(results[0])}.")
    blocks = [symbol_block(offset + i, s) for i, s in enumerate(results, start=1)]
    text, shown = bounded(head, blocks, max_chars, offset=offset, tail=tail)
    data = trimmed(payload, "results", shown, offset)
    if of and shown == len(results):
        data["truncated"], data["next_offset"] = True, offset + shown
    return Rendered(text, data)


def render_similar(payload: SimilarPage, max_chars: int = DEFAULT_MAX_CHARS) -> Rendered:
    """find_similar / drill_down: neighbours of one result, by embedding similarity."""
    offset = int(payload.get("offset") or 0)
    results = payload.get("results") or []
    what = "one per file (drill_down)" if payload.get("spread") else "nearest first"
    head = [f"Code similar to result {payload.get('result_id')}"
            + (f" ({payload['source']})" if payload.get("source") else "") + f": {what}"]
    blocks = [symbol_block(offset + i, s, score_word="similarity") for i, s in enumerate(results, start=1)]
    tail = [f"Next: {read_call(results[0])} reads #{offset + 1} in full; pass another result's ID to "
            "find_similar or drill_down."] if results else ["No similar code found."]
    text, shown = bounded(head, blocks, max_chars, offset=offset, tail=tail)
    return Rendered(text, trimmed(payload, "results", shown, offset))



# -- get_code_context ------------------------------------------------------------------------------
def render_context(payload: CodeContext, max_chars: int = DEFAULT_MAX_CHARS,
                   start_line: int | None = None) -> Rendered:
    """get_code_context: where the code is, then the lines with their numbers, paged by ``start_line``."""
    first, last = int(payload.get("start_line") or 1), int(payload.get("end_line") or 0)
    lines = str(payload.get("code") or "").split("\n") if payload.get("code") else []
    begin = max(first, start_line or first)
    sym: Payload = payload.get("symbol") or {}
    ref = payload.get("ref")
    head = [_join([
        f"**File:** {payload.get('path')}{line_span(first, last)} (of {payload.get('total_lines')} lines)"
        + (f" at {inline(ref)}" if ref else ""),
        _field("Source", inline(str(payload["source"])) if payload.get("source") else ""),
        _field("Symbol", f"{sym.get('qualified_name')} ({sym.get('kind')}), lines "
                         f"{sym.get('start_line')}-{sym.get('end_line')}" if sym else ""),
        _field("Signature", inline(sym["signature"]) if sym.get("signature") else ""),
        _field("Language", payload.get("language")),
    ])]
    if payload.get("changed_since_indexed"):
        head.append("> note: the file changed since it was indexed; this is its current content")
    if payload.get("note"):  # a Qdrant reader's stored text: why, and what it lacks
        head.append(f"> note: {payload['note']}")
    width = len(str(max(last, 1)))
    numbered = [f"{n:>{width}} | {text}" for n, text in enumerate(lines, start=first) if n >= begin]
    hint = _context_next(payload)
    outline = "" if sym else f", or get_file_outline(file_path={payload.get('path')!r}) to pick a definition"
    footer = max(FOOTER_ROOM + len(outline), len(hint) + 2)  # the truncation line, or the next-call line
    budget = max(MIN_MAX_CHARS, max_chars) - sum(len(h) + 2 for h in head) - footer - 16
    kept: list[str] = []
    used = 0
    for row in numbered:
        if used + len(row) + 1 > budget and kept:
            break
        kept.append(row[: max(budget, 80)])
        used += len(row) + 1
    shown_end = begin + len(kept) - 1
    parts = [*head, fence("\n".join(kept), payload.get("language") or "")] if kept else [*head, "(no lines)"]
    next_line = shown_end + 1 if shown_end < last else None
    if next_line:
        parts.append(f"… truncated: lines {next_line}-{last} not shown; call again with start_line={next_line}"
                     + outline)
    elif payload.get("truncated"):
        parts.append(f"… the file has {payload.get('total_lines')} lines and only {first}-{last} are served: "
                     "pass symbol_name to read a definition further down")
    elif hint:
        parts.append(hint)
    data = {**lean(payload), "start_line": begin, "end_line": shown_end if kept else begin,
            "truncated": bool(next_line) or bool(payload.get("truncated")), "next_start_line": next_line}
    return Rendered("\n\n".join(parts), data)


def _context_next(payload: CodeContext) -> str:
    """After reading a definition: who uses it and what it calls; after a whole file: its outline."""
    sym: Payload = payload.get("symbol") or {}
    if payload.get("ref"):
        return ""
    if not sym:
        return f"Next: get_file_outline(file_path={payload.get('path')!r}) lists its definitions in one screen."
    name = sym.get("qualified_name") or sym.get("name")
    if sym.get("kind") in ("class", "struct", "interface", "trait", "enum", "impl", "type"):
        return (f"Next: find_usages({name!r}) shows where it is used; "
                f"get_file_outline(file_path={payload.get('path')!r}) lists its members.")
    return f"Next: callers({name!r}) / find_usages({name!r}) show who uses it; callees({name!r}) what it calls."


# -- summarize_matches -----------------------------------------------------------------------------
def render_summary(payload: SummaryPage, max_chars: int = DEFAULT_MAX_CHARS) -> Rendered:
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
    tail = [f"Next: get_file_outline(file_path={files[0].get('path')!r}) shows a file's definitions; "
            f"search_code(query, path={files[0].get('path')!r}) its matching code."] if files else \
        ["Try other words, or `grep_code` for exact text."]
    text, shown = bounded(head, blocks, max_chars, noun="files", narrow="pass service= or a lower limit", tail=tail,
                           sep="\n")
    return Rendered(text, trimmed(payload, "results", shown, None))


# -- index_status / list_sources -------------------------------------------------------------------
def _when(ts: float | None) -> str:
    if not ts:
        return "never"
    return dt.datetime.fromtimestamp(float(ts)).isoformat(timespec="seconds")


def render_status(payload: IndexStatus, max_chars: int = DEFAULT_MAX_CHARS) -> Rendered:
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
        ("Embedding", payload.get("embedding")  # Index.status() words it from the counts
         or f"{payload.get('embedding_status')}, semantic coverage {share(coverage)}"),
        ("Background", payload.get("background")),
        ("Skipped", skipped),
        ("Last update", _when(payload.get("last_update"))),
    ]
    if payload.get("embedding_reason"):
        rows.append(("Why keyword-only", f"{payload['embedding_reason']}; fix: {payload.get('embedding_fix')}"))
    for lang, err in (payload.get("grammar_errors") or {}).items():  # no symbols or usages for these files
        rows.append((f"Grammar failed ({lang})", f"{err.get('files')} files indexed as line windows, without "
                     f"symbols or references: {err.get('error')}"))
    as_windows = payload.get("text_windows")
    if as_windows:  # too big, minified or unparsable: searchable by their text only
        rows.append(("Indexed as text windows", f"{as_windows['files']} code file(s), without definitions: "
                     + ", ".join(as_windows["paths"][:5]) + (" …" if as_windows["files"] > 5 else "")))
    text = "## codesift index status\n\n" + "\n".join(f"- **{k}:** {v}" for k, v in rows if v not in (None, ""))
    return Rendered(text[: max(MIN_MAX_CHARS, max_chars)], dict(payload))


def render_sources(payload: SourcesPage, max_chars: int = DEFAULT_MAX_CHARS) -> Rendered:
    """list_sources: the root and its top-level folders as a table."""
    sources: Sequence[Payload] = payload.get("results") or []
    head = [f"Indexed root: `{payload.get('root')}`. Pass a folder as `service=` to narrow search_code, "
            "find_symbol, find_usages, grep_code, summarize_matches, get_repo_map or the call graph."]
    if any("kind" in s for s in sources):  # configured services ([[services]]): kind, languages, commit too
        rows = ["| service | kind | files | symbols | languages | commit |\n|---|---|---:|---:|---|---|"]
        rows += [f"| {s.get('service')} | {s.get('kind')} | {s.get('files')} | {s.get('symbols')} | "
                 f"{', '.join(dict(s.get('languages') or {}))} | {str(s.get('commit') or '')[:12]} |" for s in sources]
    else:
        rows = ["| service | files | symbols |\n|---|---:|---:|"]
        rows += [f"| {s.get('service')} | {s.get('files')} | {s.get('symbols')} |" for s in sources]
    folder = next((s.get("service") for s in sources if s.get("service") not in (None, ".")), None)
    tail = [f"Next: get_repo_map(service={folder!r}) lists a folder's most important definitions."] if folder else []
    text, shown = bounded(head, rows, max_chars, noun="folders", narrow="use index_status for totals", tail=tail,
                           sep="\n")
    return Rendered(text, trimmed(payload, "results", max(0, shown - 1), None))


# find_usages answers live in their own module; imported last (it uses the pieces above).
