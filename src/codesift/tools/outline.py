"""outline: a file's symbols (kind, name, signature, line range, first doc line), nested, no bodies.

The symbols are the index's chunks of the file when the file is unchanged since it was indexed, else
the live file parsed the same way (the answer says which). Module blocks and text windows are not
symbols and are left out. Nesting follows line containment (a method inside its class) and, for
Markdown sections, the ``parent`` heading (a section does not contain its subsections' lines).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from codesift.rank.deprecation import deprecation_note
from codesift.text.doc_comments import description
from codesift.text.source import content_hash, decode_source
from codesift.languages import language_for
from codesift.tools.context import ContextError, safe_path
from codesift.tools.payloads import OutlineAnswer, OutlineItem, OutlineRow

if TYPE_CHECKING:  # pragma: no cover
    from codesift.tools.base import Workspace

NOT_SYMBOLS = ("module", "window")


def first_doc_line(doc: str | None) -> str:
    """The first non-empty line of the doc's description (block tags left out), stripped; for a doc of tags alone
    that marks the definition deprecated, ``Deprecated: <its note>`` (an outline has no field of its own for it)."""
    for line in description(doc or "").splitlines():
        if line.strip():
            return line.strip()
    note = deprecation_note(doc or "", ())
    return "" if note is None else f"Deprecated: {note}" if note else "Deprecated"


def _item(kind: str, name: str, qualified: str, parent: str | None, start: int, end: int, signature: str,
          doc: str) -> OutlineItem:
    return {"name": name, "qualified_name": qualified, "kind": kind, "start_line": start, "end_line": end,
            "signature": " ".join((signature or "").split()), "doc": first_doc_line(doc), "parent": parent,
            "children": []}


def nest(items: list[OutlineItem]) -> list[OutlineItem]:
    """Items (with ``children`` lists) as a tree, by line containment or the ``parent`` link; the pieces
    of one long section (same qualified name, back to back) become one item."""
    items = sorted(items, key=lambda i: (i["start_line"], -i["end_line"]))
    merged: list[OutlineItem] = []
    for item in items:
        last = merged[-1] if merged else None
        if (last is not None and item["kind"] == "section" and last["kind"] == "section"
                and last["qualified_name"] == item["qualified_name"] and item["start_line"] <= last["end_line"] + 1):
            last["end_line"] = max(last["end_line"], item["end_line"])
            continue
        merged.append(item)
    roots: list[OutlineItem] = []
    stack: list[OutlineItem] = []
    for item in merged:
        while stack and not _inside(item, stack[-1]):
            stack.pop()
        (stack[-1]["children"] if stack else roots).append(item)
        stack.append(item)
    for item in merged:
        item.pop("parent", None)
    return roots


def _inside(item: OutlineItem, outer: OutlineItem) -> bool:
    if item.get("parent") and item["parent"] == outer["qualified_name"]:
        return True
    return (outer["start_line"] <= item["start_line"] and item["end_line"] <= outer["end_line"]
            and (outer["start_line"], outer["end_line"]) != (item["start_line"], item["end_line"]))


def flatten(tree: list[OutlineItem], depth: int = 0) -> list[OutlineRow]:
    """The tree in reading order, each item with its ``depth`` and without ``children``."""
    out: list[OutlineRow] = []
    for item in tree:
        out.append({"name": item["name"], "qualified_name": item["qualified_name"], "kind": item["kind"],
                    "start_line": item["start_line"], "end_line": item["end_line"], "signature": item["signature"],
                    "doc": item["doc"], "depth": depth})
        out.extend(flatten(item["children"], depth + 1))
    return out


def outline(ws: "Workspace", file_path: str) -> OutlineAnswer:
    """The symbols of ``file_path`` (relative to the root, or absolute under it), nested, no bodies."""
    full, rel = safe_path(ws.root, file_path)
    if ws.sources is None and not full.is_file():
        raise ContextError(f"no such file in the indexed root: {rel}")
    try:
        data = ws.read(rel)
    except OSError as exc:
        raise ContextError(f"cannot read {rel}: {exc.strerror or exc}") from None
    row = ws.store.file_entry(rel)
    text, _ = decode_source(data)
    language = (row[2] if row else None) or language_for(rel) or "text"
    if row is not None and row[1] == content_hash(data):
        rows = ws.store.file_outline(row[0], NOT_SYMBOLS)
        items = [_item(*r) for r in rows]
        source = "index"
    else:
        from codesift.parse import extract_chunks

        items = [_item(c.kind, c.name, c.qualified_name, c.parent, c.start_line, c.end_line, c.signature,
                       c.docstring)
                 for c in extract_chunks(text, language, rel) if c.kind not in NOT_SYMBOLS]
        source = "live"
    notes: list[str] = []
    if source == "live":
        notes.append("the file changed since it was indexed: outline of its current content" if row is not None
                     else "the file is not in the index: outline parsed from the file as it is")
    symbols = nest(items)
    return {"path": rel, "language": language, "source": source, "changed_since_indexed": source == "live",
            "total_lines": text.count("\n") + (0 if text.endswith("\n") or not text else 1),
            "count": len(flatten(symbols)), "symbols": symbols, "notes": notes}
