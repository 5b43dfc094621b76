"""The repository map: the definitions the rest of the code leans on most, cut to a token budget.

Ranked by PageRank over the reference graph (:mod:`codesift.tools.refgraph`). ``focus`` personalises it:
the teleport mass goes to the focus definitions and, half as much, to the definitions that use them, so
what they use, and what uses them, rises. Tests, examples and functions' inner definitions are left out
of the map (they still count as users). Tokens are estimated as characters / 4.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import numpy as np

from codesift.search.filters import split_values
from codesift.datatypes import dotted
from codesift.languages import is_example_path, is_test_path
from codesift.tools.markdown.graph import render_map
from codesift.tools.payloads import MapFile, MapSymbol, RepoMap
from codesift.tools.refgraph import FUNCTION_KINDS, Graph, Node, graph_of, pagerank

if TYPE_CHECKING:  # pragma: no cover
    from codesift.tools.base import Workspace

CHARS_PER_TOKEN = 4
MIN_BUDGET = 200  # tokens: below this the header and paging lines leave no room for a map
FOCUS_SHARE = 0.85  # of the teleport mass when focus is given; the rest stays uniform
MAX_SIGNATURE = 160  # characters of a signature shown on its line


# -- the map ---------------------------------------------------------------------------------------
def _focus(ws: "Workspace", graph: Graph, focus: list[str]) -> tuple[set[int], dict[str, int]]:
    """The nodes that ``focus`` names (files, folders or symbol names) and how many definitions each item
    matched (-1: a file without definitions)."""
    chosen: set[int] = set()
    matched: dict[str, int] = {}
    root = str(ws.root).rstrip("/") + "/"
    for raw in focus:
        item = raw.strip()
        rel = item[len(root):] if item.startswith(root) else item.removeprefix("./")
        is_file = rel in graph.by_path or rel in graph.module_of
        hits: set[int] = set(graph.by_path.get(rel, []))
        if rel in graph.module_of:
            hits.add(graph.module_of[rel])
        folder = rel.strip("/") + "/"
        if not is_file and folder != "/":
            for path, members in graph.by_path.items():
                if path.startswith(folder):
                    hits.update(members)
        if not hits and not is_file:
            name = dotted(item)
            short = name.rsplit(".", 1)[-1]
            hits = {i for i, node in enumerate(graph.nodes)
                    if node.name == short and (name == short or dotted(node.qualified_name) == name
                                               or node.qualified_name.endswith("." + name))}
        defs = sum(1 for i in hits if i < len(graph.nodes))
        matched[raw] = defs or (-1 if hits or is_file else 0)
        chosen |= hits
    return chosen, matched


def _personal(graph: Graph, chosen: set[int]) -> np.ndarray:
    """Teleport mass: the focus nodes, half as much to the nodes that use them, a little everywhere."""
    p = np.zeros(graph.n)
    marks = np.zeros(graph.n, dtype=bool)
    marks[list(chosen)] = True
    users = np.unique(graph.src[marks[graph.dst]]) if len(graph.src) else np.zeros(0, dtype=np.int64)
    p[users] = 0.5
    p[list(chosen)] = 1.0
    p = FOCUS_SHARE * p / p.sum()
    return p + (1 - FOCUS_SHARE) / graph.n


def _tidy(signature: str) -> str:
    """A multi-line signature on one line: ``f( a, b, )`` → ``f(a, b)``."""
    return re.sub(r",?\s+([)\]])", r"\1", re.sub(r"([(\[])\s+", r"\1", signature))


def symbol_line(node: Node, nested: bool, owner_shown: bool) -> str:
    """One line of the map: the line number, the signature (cut), the owner when it is not shown."""
    sig = _tidy(node.signature) or f"{node.kind} {node.name}"
    if len(sig) > MAX_SIGNATURE:
        sig = sig[: MAX_SIGNATURE - 1] + "…"
    owner = node.parent if node.parent and not owner_shown and node.parent not in sig else ""
    owner = f"  [{owner}]" if owner else ""
    return f"{node.start}: {'  ' if nested else ''}{sig}{owner}"


def repo_map(ws: "Workspace", *, budget_tokens: int = 1000, focus: str | list[str] | None = None,
             service: str | list[str] | None = None, offset: int = 0) -> RepoMap:
    """The most referenced definitions (of ``service``: one folder or several), grouped by file, within
    ``budget_tokens``."""
    if offset < 0:
        raise ValueError("offset must be >= 0")
    budget = max(MIN_BUDGET, int(budget_tokens))
    items = [f for f in ([focus] if isinstance(focus, str) else focus or []) if f and f.strip()]
    graph = graph_of(ws)
    notes: list[str] = []
    chosen, matched = _focus(ws, graph, items) if items else (set(), {})
    for item, count in matched.items():
        if not count:
            notes.append(f"focus {item!r} matches no indexed file, folder or definition")
    matched = {item: max(0, count) for item, count in matched.items()}
    rank = graph.rank if graph.rank is not None else np.zeros(graph.n)
    if chosen:
        rank = pagerank(graph.src, graph.dst, graph.weight, graph.n, _personal(graph, chosen))
    prefixes = tuple(dict.fromkeys(s.strip("/") + "/" for s in split_values(service) if s.strip("/")))
    candidates = [i for i, node in enumerate(graph.nodes) if (not prefixes or node.path.startswith(prefixes))
                  and i not in chosen and not _inner(graph, node)]
    for prefix in prefixes:
        if not any(path.startswith(prefix) for path in graph.by_path):
            raise ValueError(f"no indexed file under {prefix!r}: pass a top-level folder that list_sources shows")
    tests_out = False
    if not (prefixes and all(is_test_path(p) or is_example_path(p) for p in prefixes)):  # see Node.test
        code = [i for i in candidates if not graph.nodes[i].test]
        tests_out, candidates = (len(code) < len(candidates), code) if code else (False, candidates)
    candidates.sort(key=lambda i: (-rank[i], -graph.uses[i], graph.nodes[i].path, graph.nodes[i].start))
    candidates = _one_per_name(graph, candidates)
    room = budget * CHARS_PER_TOKEN
    picked = _fit(graph, candidates[offset:], room - 300)
    mapped = ", ".join(p.rstrip("/") for p in prefixes) or None
    focus_symbols = sum(1 for i in chosen if i < len(graph.nodes))
    while True:  # drop the last ranked definitions until the rendered answer fits the budget
        shown, next_offset, files = _files(graph, picked, rank, offset, len(candidates))
        payload: RepoMap = {
            "root": str(ws.root), "budget_tokens": budget, "token_estimate": "characters / 4", "service": mapped,
            "focus": items, "focus_matched": matched, "focus_symbols": focus_symbols, "total": len(candidates),
            "offset": offset, "references": graph.references, "tests_left_out": tests_out, "notes": notes,
            "shown": shown, "next_offset": next_offset, "files": files, "tokens": 0}  # tokens: once rendered
        text = render_map(payload).text
        payload["tokens"] = -(-(len(text) + 8) // CHARS_PER_TOKEN)
        if len(text) + 8 <= room or len(picked) <= 1:
            break
        picked = picked[: len(picked) - max(1, (len(text) + 8 - room) // 60)]
    return payload


def _files(graph: Graph, picked: list[int], rank: np.ndarray, offset: int,
           total: int) -> tuple[int, int | None, list[MapFile]]:
    """(definitions shown, the next page's offset, the picked definitions grouped by file: files by their best
    rank, definitions by line)."""
    files: dict[str, list[int]] = {}
    for i in picked:
        files.setdefault(graph.nodes[i].path, []).append(i)
    shown_ids = set(picked)
    out_files: list[MapFile] = []
    for path, members in files.items():
        members.sort(key=lambda i: graph.nodes[i].start)
        symbols: list[MapSymbol] = []
        for i in members:
            node = graph.nodes[i]
            nested = node.container in shown_ids
            symbols.append({"name": node.name, "qualified_name": node.qualified_name, "kind": node.kind,
                            "line": node.start, "end_line": node.end, "signature": node.signature,
                            "parent": node.parent, "rank": round(float(rank[i]) * graph.n, 3),
                            "uses": int(graph.uses[i]), "text": symbol_line(node, nested, nested)})
        out_files.append({"path": path, "symbols": symbols})
    shown = len(picked)
    return shown, offset + shown if offset + shown < total else None, out_files


def _inner(graph: Graph, node: Node) -> bool:
    """A definition inside a function (a closure, a local class): an implementation detail, not mapped."""
    return node.container >= 0 and graph.nodes[node.container].kind in FUNCTION_KINDS


def _one_per_name(graph: Graph, ranked: list[int]) -> list[int]:
    """One line per name in a file (a property and its setter, overloads): the first definition, at the
    place of the best ranked one."""
    first: dict[tuple[str, str], int] = {}
    for i in ranked:
        key = (graph.nodes[i].path, graph.nodes[i].qualified_name)
        if key not in first or graph.nodes[i].start < graph.nodes[first[key]].start:
            first[key] = i
    seen: set[tuple[str, str]] = set()
    out = []
    for i in ranked:
        key = (graph.nodes[i].path, graph.nodes[i].qualified_name)
        if key not in seen:
            seen.add(key)
            out.append(first[key])
    return out


def _fit(graph: Graph, ranked: list[int], room: int) -> list[int]:
    """The longest prefix of ``ranked`` whose lines (and file headers) fit in ``room`` characters."""
    picked: list[int] = []
    seen_files: set[str] = set()
    used = 0
    for i in ranked:
        node = graph.nodes[i]
        cost = len(symbol_line(node, True, False)) + 3
        if node.path not in seen_files:
            cost += len(node.path) + 2
        if used + cost > room and picked:
            break
        picked.append(i)
        seen_files.add(node.path)
        used += cost
        if used >= room:
            break
    return picked
