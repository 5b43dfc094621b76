"""get_code_context on a Qdrant reader where the file is not here (or differs): the stored chunks' text.

The chunks of a file cover its lines but the blank ones between definitions; the answer lays each
chunk's text at its lines and leaves lines no chunk holds empty (and says so)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from codesift.search.run import Filters
from codesift.datatypes import NOT_DEFINITIONS, dotted
from codesift.tools.context.common import ContextError, answer_window, no_symbol, symbol_info
from codesift.tools.payloads import CodeContext, ContextSymbol

if TYPE_CHECKING:  # pragma: no cover
    from codesift.store.records import ChunkRecord
    from codesift.tools.base import Workspace

STORED = "qdrant (stored text)"
LIVE = "live file"


def _rows(ws: "Workspace", rel: str) -> list["ChunkRecord"]:
    ids = ws.store.filtered_ids(Filters(path=rel)).tolist()
    return sorted((r for r in ws.store.chunks_by_id(ids).values() if r.path == rel), key=lambda r: r.start_line)


def _symbol(rows: list["ChunkRecord"], rel: str, symbol_name: str) -> "ChunkRecord":
    defs = [r for r in rows if r.kind not in NOT_DEFINITIONS]
    want = dotted(symbol_name)
    matches = ([r for r in defs if r.qualified_name == want] or [r for r in defs if r.name == want]
               or [r for r in defs if r.qualified_name.endswith("." + want)])
    if not matches:
        raise no_symbol(symbol_name, rel, [r.qualified_name for r in defs])
    return matches[0]


def stored_context(ws: "Workspace", rel: str, symbol_name: str | None, context_lines: int,
                   start_line: int | None, why: str) -> CodeContext:
    """The answer of ``get_code_context`` built from the collection's stored text; ``why`` says why the
    live file was not used."""
    rows = _rows(ws, rel)
    if not rows:
        raise ContextError(f"no such file in the collection: {rel}")
    lines: dict[int, str] = {}
    for row in sorted(rows, key=lambda r: r.kind in NOT_DEFINITIONS):  # definitions first: they are whole
        for i, line in enumerate(row.text.split("\n")):
            lines.setdefault(row.text_start + i, line)
    total = max(max(lines), max(r.end_line for r in rows))
    start, end = 1, total
    symbol: ContextSymbol | None = None
    if symbol_name:
        sym = _symbol(rows, rel, symbol_name)
        start = max(1, sym.text_start - context_lines)
        end = min(total, sym.end_line + context_lines)
        symbol = symbol_info(sym)
    start, end, truncated = answer_window(start, end, start_line)
    gaps = sum(1 for n in range(start, end + 1) if n not in lines)
    out: CodeContext = {
        "path": rel, "ref": None, "source": STORED, "language": rows[0].language, "start_line": start,
        "end_line": end, "total_lines": total, "symbol": symbol, "changed_since_indexed": None,
        "truncated": truncated, "code": "\n".join(lines.get(n, "") for n in range(start, end + 1)),
        "note": f"{why}: the text stored in Qdrant at the last sync"
                + (f"; {gaps} line(s) no chunk holds are left blank" if gaps else ""),
    }
    return out
