"""The repository map: the symbols the rest of the code leans on most, cut to a token budget.

A graph over the static reference index (:mod:`codesift.store.refs`): one node per definition plus one
per file for its module-level code; an edge from the definition a reference sits in (its innermost
enclosing definition) to the definition the reference points at. When several definitions share the
name, the target is picked as ``find_usages`` picks it (:class:`codesift.tools.targets.Resolver`, from
the receiver, the qualifier and the imports, without reading files); a use it cannot place is shared
among them at half weight. Edges are weighted (imports and test code count less, repeated uses from one
place grow as a square root) and ranked by PageRank (power iteration over the edge list with numpy).
``focus`` personalises the PageRank: the teleport mass goes to the focus definitions and to the
definitions that use them, so what they use, and what uses them, rises.

Tokens are estimated as characters / 4.
"""

from __future__ import annotations

import json
import math
import weakref
from collections import defaultdict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from ..languages import language_for
from ..rank.boosts import is_test_path
from ..store import refs
from .targets import UNRESOLVED, Resolver, Scope

if TYPE_CHECKING:  # pragma: no cover
    from ..api import Index

CHARS_PER_TOKEN = 4
MIN_BUDGET = 100  # tokens: below this not even the header fits
DAMPING = 0.85
KIND_WEIGHT = {"import": 0.3}  # an import is followed by the uses that count; every other kind: 1
TEST_WEIGHT = 0.2  # tests reference everything: their uses count a fifth
UNPLACED_WEIGHT = 0.5  # a use of a shared name no definition could be picked for, split among them
FOCUS_SHARE = 0.85  # of the teleport mass when focus is given; the rest stays uniform
MAX_SIGNATURE = 160  # characters of a signature shown on its line


@dataclass(slots=True)
class Node:
    """One definition of the graph."""

    path: str
    name: str
    qualified_name: str
    kind: str
    parent: str | None
    start: int
    end: int
    signature: str
    language: str
    container: int  # the node of the definition around this one, -1 at the top of the file
    test: bool


@dataclass
class Graph:
    """The reference graph of one index generation, with the global PageRank."""

    nodes: list[Node]
    n: int  # nodes + one module node per file
    src: np.ndarray
    dst: np.ndarray
    weight: np.ndarray
    uses: np.ndarray  # static uses pointing at each node (sites, before weighting)
    by_path: dict[str, list[int]] = field(default_factory=dict)
    module_of: dict[str, int] = field(default_factory=dict)
    rank: np.ndarray | None = None
    references: int = 0


_CACHE: "weakref.WeakKeyDictionary[Index, tuple[str, Graph]]" = weakref.WeakKeyDictionary()


def graph_of(index: "Index") -> Graph:
    """The reference graph of ``index``, built once per files generation."""
    gen = index.store.get_meta("files_generation", "0") or "0"
    cached = _CACHE.get(index)
    if cached is None or cached[0] != gen:
        graph = build_graph(index)
        graph.rank = pagerank(graph.src, graph.dst, graph.weight, graph.n)
        _CACHE[index] = cached = (gen, graph)
    return cached[1]


def pagerank(src: np.ndarray, dst: np.ndarray, weight: np.ndarray, n: int,
             personal: np.ndarray | None = None, damping: float = DAMPING, iterations: int = 100,
             tol: float = 1e-10) -> np.ndarray:
    """PageRank by power iteration over a weighted edge list; dangling mass goes back to ``personal``."""
    if n == 0:
        return np.zeros(0)
    p = np.full(n, 1.0 / n) if personal is None else personal / personal.sum()
    out = np.bincount(src, weights=weight, minlength=n)
    share = weight / out[src] if len(src) else weight
    dangling = out == 0
    r = p.copy()
    for _ in range(iterations):
        new = damping * (np.bincount(dst, weights=r[src] * share, minlength=n) + r[dangling].sum() * p)
        new += (1 - damping) * p
        done = np.abs(new - r).sum() < tol
        r = new
        if done:
            break
    return r


def _innermost(nodes: list[Node], members: list[int]) -> np.ndarray:
    """Line → the innermost definition of one file (-1 outside every one); sets each node's container."""
    last = max(nodes[i].end for i in members)
    at = np.full(last + 2, -1, dtype=np.int64)
    for i in members:  # by start line, outer first: a later one lies inside, or after, the earlier ones
        node = nodes[i]
        node.container = int(at[node.start])
        at[node.start : node.end + 1] = i
    return at


def _scopes(nodes: list[Node], i: int, memo: dict[int, list[Scope]]) -> list[Scope]:
    """The definitions around node ``i`` (itself first), as :class:`Scope` for the resolver."""
    if i not in memo:
        out, j = [], i
        while j >= 0:
            d = nodes[j]
            out.append(Scope(d.start, d.end, d.qualified_name, d.kind, d.parent, d.signature))
            j = d.container
        memo[i] = out
    return memo[i]


def _ancestors(nodes: list[Node], i: int) -> set[int]:
    out, j = set(), i
    while j >= 0:
        out.add(j)
        j = nodes[j].container
    return out


def build_graph(index: "Index") -> Graph:
    """Nodes from the definitions, edges from every static reference to a defined name."""
    db = index.store.db
    nodes: list[Node] = []
    by_name: dict[str, list[int]] = defaultdict(list)
    by_file: dict[int, list[int]] = defaultdict(list)
    paths: dict[int, str] = {}
    for fid, path, name, qn, kind, parent, start, end, sig, lang in refs.definitions(db):
        i = len(nodes)
        nodes.append(Node(path, name, qn, kind, parent, start, end, " ".join((sig or "").split()), lang or "",
                          -1, is_test_path(path)))
        by_name[name].append(i)
        by_file[fid].append(i)
        paths[fid] = path
    lines = {fid: _innermost(nodes, members) for fid, members in by_file.items()}
    module_of: dict[int, int] = {}
    edges: dict[tuple[int, int], float] = defaultdict(float)
    uses = defaultdict(int)
    scope_memo: dict[int, list[Scope]] = {}
    total = 0
    rows = [r for r in refs.all_rows(db) if r[1] in by_name]
    tests = {fid: is_test_path(path) for fid, path in paths.items()}
    start = 0
    while start < len(rows):  # one name at a time
        name = rows[start][1]
        stop = start
        while stop < len(rows) and rows[stop][1] == name:
            stop += 1
        targets = by_name[name]
        defined_at = {(nodes[t].path, nodes[t].start) for t in targets}
        sites = [(fid, line, kind, qualifier) for fid, _, packed in rows[start:stop]
                 for line, kind, qualifier in json.loads(packed)]
        resolve = _resolver(index, nodes, targets, sites, paths) if len(targets) > 1 else None
        memo: dict[tuple, list[tuple[int, float]]] = {}
        for fid, line, kind, qualifier in sites:
            path = paths.get(fid, "")
            if (path, line) in defined_at:
                continue  # the definition itself
            at = lines.get(fid)
            src = int(at[line]) if at is not None and 0 <= line < len(at) else -1
            if src < 0:
                src = module_of.setdefault(fid, -1 - len(module_of))  # numbered after the definitions
            key = (fid, src, qualifier)
            if key not in memo:
                memo[key] = _targets_of(resolve, nodes, targets, src, fid, line, qualifier, paths, scope_memo)
            weight = KIND_WEIGHT.get(kind, 1.0) * (TEST_WEIGHT if tests.get(fid, False) else 1.0)
            skip = _ancestors(nodes, src) if src >= 0 else set()
            for dst, share in memo[key]:
                if dst in skip:
                    continue  # a definition using itself or what holds it (recursion, ``cls(...)``)
                edges[(src, dst)] += weight * share
                if share == 1.0:
                    uses[dst] += 1
                total += 1
        start = stop
    n_defs = len(nodes)
    n = n_defs + len(module_of)
    keys = list(edges)
    src = np.array([s if s >= 0 else n_defs - 1 - s for s, _ in keys], dtype=np.int64)
    dst = np.array([d for _, d in keys], dtype=np.int64)
    weight = np.sqrt(np.array([edges[k] for k in keys], dtype=np.float64))
    use_counts = np.zeros(n, dtype=np.int64)
    for i, c in uses.items():
        use_counts[i] = c
    graph = Graph(nodes, n, src, dst, weight, use_counts, references=total)
    for i, node in enumerate(nodes):
        graph.by_path.setdefault(node.path, []).append(i)
    graph.module_of = {paths[fid]: n_defs - 1 - m for fid, m in module_of.items()}
    return graph


def _resolver(index: "Index", nodes: list[Node], targets: list[int], sites: list[tuple],
              paths: dict[int, str]) -> Resolver:
    """find_usages' resolver over the definitions of one name, reading no file."""
    from .usages import _bases_lookup, _returns_lookup

    imports: dict[str, str] = {}
    for fid, _, kind, qualifier in sites:
        if kind == "import" and qualifier:
            imports.setdefault(paths.get(fid, ""), qualifier)
    dicts = [{"path": nodes[t].path, "start_line": nodes[t].start, "qualified_name": nodes[t].qualified_name,
              "parent": nodes[t].parent, "kind": nodes[t].kind, "node": t} for t in targets]
    return Resolver(dicts, None, imports, _bases_lookup(index), _returns_lookup(index))


def _targets_of(resolve: Resolver | None, nodes: list[Node], targets: list[int], src: int, fid: int, line: int,
                qualifier: str, paths: dict[int, str], scope_memo: dict[int, list[Scope]]) -> list[tuple[int, float]]:
    """(node, share of the use) for one reference: its one target, else the picked one, else all at half."""
    if resolve is None:
        return [(targets[0], 1.0)]
    path = paths.get(fid, "")
    scopes = _scopes(nodes, src, scope_memo) if src >= 0 else []
    label = resolve.resolve(path, line, qualifier, scopes, language_for(path) or "")
    if label != UNRESOLVED:
        for t in resolve.targets:
            if resolve.labels[id(t)] == label:
                return [(int(t["node"]), 1.0)]  # type: ignore[call-overload]
    return [(t, UNPLACED_WEIGHT / len(targets)) for t in targets]


# -- the map ---------------------------------------------------------------------------------------
def _focus(index: "Index", graph: Graph, focus: list[str]) -> tuple[set[int], dict[str, int]]:
    """The nodes that ``focus`` names (files, folders or symbol names) and how many each item matched."""
    chosen: set[int] = set()
    matched: dict[str, int] = {}
    root = str(index.root).rstrip("/") + "/"
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
            name = item.replace("::", ".")
            short = name.rsplit(".", 1)[-1]
            hits = {i for i, node in enumerate(graph.nodes)
                    if node.name == short and (name == short or node.qualified_name.replace("::", ".") == name
                                               or node.qualified_name.endswith("." + name))}
        matched[raw] = len(hits) or int(is_file)
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


def symbol_line(node: Node, nested: bool, owner_shown: bool) -> str:
    """One line of the map: the line number, the signature (cut), the owner when it is not shown."""
    sig = node.signature or f"{node.kind} {node.name}"
    if len(sig) > MAX_SIGNATURE:
        sig = sig[: MAX_SIGNATURE - 1] + "…"
    owner = f"  [{node.parent}]" if node.parent and not owner_shown else ""
    return f"{node.start}: {'  ' if nested else ''}{sig}{owner}"


def repo_map(index: "Index", *, budget_tokens: int = 1000, focus: str | list[str] | None = None,
             service: str | None = None, offset: int = 0) -> dict[str, object]:
    """The most referenced definitions (of ``service``, a folder), grouped by file, within ``budget_tokens``."""
    if offset < 0:
        raise ValueError("offset must be >= 0")
    budget = max(MIN_BUDGET, int(budget_tokens))
    items = [f for f in ([focus] if isinstance(focus, str) else focus or []) if f and f.strip()]
    graph = graph_of(index)
    notes: list[str] = []
    chosen, matched = _focus(index, graph, items) if items else (set(), {})
    for item, count in matched.items():
        if not count:
            notes.append(f"focus {item!r} matches no indexed file, folder or definition")
    rank = graph.rank if graph.rank is not None else np.zeros(graph.n)
    if chosen:
        rank = pagerank(graph.src, graph.dst, graph.weight, graph.n, _personal(graph, chosen))
    prefix = service.strip().strip("/") + "/" if service and service.strip().strip("/") else ""
    candidates = [i for i, node in enumerate(graph.nodes) if node.path.startswith(prefix) and i not in chosen]
    if prefix and not any(path.startswith(prefix) for path in graph.by_path):
        raise ValueError(f"no indexed file under {prefix!r}: pass a top-level folder that list_sources shows")
    if not (prefix and is_test_path(prefix)):  # tests use the code, they are not what a map is about
        candidates = [i for i in candidates if not graph.nodes[i].test] or candidates
    candidates.sort(key=lambda i: (-rank[i], -graph.uses[i], graph.nodes[i].path, graph.nodes[i].start))
    picked = _fit(graph, candidates[offset:], budget * CHARS_PER_TOKEN - 400)
    files: dict[str, list[int]] = {}
    for i in picked:
        files.setdefault(graph.nodes[i].path, []).append(i)
    shown_ids = set(picked)
    out_files = []
    for path, members in files.items():
        members.sort(key=lambda i: graph.nodes[i].start)
        symbols = []
        for i in members:
            node = graph.nodes[i]
            nested = node.container in shown_ids
            symbols.append({"name": node.name, "qualified_name": node.qualified_name, "kind": node.kind,
                            "line": node.start, "end_line": node.end, "signature": node.signature,
                            "parent": node.parent, "rank": round(float(rank[i]) * graph.n, 3),
                            "uses": int(graph.uses[i]), "nested": nested,
                            "text": symbol_line(node, nested, node.container in shown_ids)})
        out_files.append({"path": path, "symbols": symbols})
    shown = len(picked)
    return {"root": str(index.root), "budget_tokens": budget, "token_estimate": "characters / 4",
            "service": prefix.rstrip("/") or None, "focus": items, "focus_matched": matched,
            "focus_symbols": len(chosen), "total": len(candidates), "offset": offset, "shown": shown,
            "next_offset": offset + shown if offset + shown < len(candidates) else None,
            "references": graph.references, "notes": notes, "files": out_files}


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
