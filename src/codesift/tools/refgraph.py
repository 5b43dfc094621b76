"""The reference graph behind the repository map: definitions linked by the static references between them.

One node per definition plus one per file for its module-level code; an edge from the definition a
reference sits in (its innermost enclosing definition) to the definition the reference points at. When
several definitions share the name, or the use has a receiver, the target is picked as ``find_usages``
picks it (:class:`codesift.tools.targets.Resolver`, from the receiver, the qualifier and the imports,
without reading files); a use it cannot place is shared among the definitions of the name at a reduced
weight. Imports, bare reads and test code weigh less; repeated uses from one place grow as a square
root. :func:`pagerank` ranks the nodes (power iteration over the edge list with numpy).

Built once per files generation: kept in memory per :class:`~codesift.tools.base.Workspace` and in
``<index>/graph.npz`` (the edges; the nodes come from the definitions again), so a command line call on
a large tree does not rebuild it (django: ~1.2M references, several seconds to build).
"""

from __future__ import annotations

import json
import os
import re
import weakref
from collections import defaultdict
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np

from codesift.languages import language_for
from codesift.languages import is_example_path, is_test_path
from codesift.tools.lookups import Lookups, type_lookups
from codesift.tools.payloads import Target
from codesift.tools.targets import UNRESOLVED, Resolver, Scope

if TYPE_CHECKING:  # pragma: no cover
    from codesift.tools.base import Workspace

DAMPING = 0.85
# An import is followed by the uses that count; a bare read is often a same-named local. Other kinds: 1.
KIND_WEIGHT = {"import": 0.3, "reference": 0.5}
FUNCTION_KINDS = frozenset({"function", "method", "constructor"})
WEAK_KINDS = frozenset({"attribute", "reference"})  # reads: counted only where the target is picked
TEST_WEIGHT = 0.2  # tests reference everything: their uses count a fifth
UNPLACED_WEIGHT = 0.25  # a use no definition could be picked for, split among the definitions of the name


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
    test: bool  # test or example code: it uses the code, it is not what a map is about


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


_CACHE: "weakref.WeakKeyDictionary[Workspace, tuple[str, Graph]]" = weakref.WeakKeyDictionary()


GRAPH_FILE = "graph.npz"
GRAPH_VERSION = 5  # bump when the weights or the node order change


def graph_of(ws: "Workspace") -> Graph:
    """The reference graph of ``ws``'s index with its PageRank: built once per files generation, kept in
    memory and in the index folder."""
    gen = ws.store.get_meta("files_generation", "0") or "0"
    cached = _CACHE.get(ws)
    if cached is None or cached[0] != gen:
        found = _nodes(ws)
        stamp = {"version": GRAPH_VERSION, "generation": gen, "nodes": len(found.nodes),
                 "lines": sum(node.start + node.end for node in found.nodes)}
        graph = _load(ws.folder / GRAPH_FILE, found.nodes, stamp)
        if graph is None:
            graph = build_graph(ws, found)
            graph.rank = pagerank(graph.src, graph.dst, graph.weight, graph.n)
            _save(ws.folder / GRAPH_FILE, graph, stamp)
        _CACHE[ws] = cached = (gen, graph)
    return cached[1]


def _save(path: "os.PathLike[str]", graph: Graph, stamp: dict[str, object]) -> None:
    """Write the edges and the rank next to the index (atomically); a folder that cannot be written is no
    reason to fail."""
    modules = sorted(graph.module_of, key=graph.module_of.__getitem__)
    meta = json.dumps({**stamp, "modules": modules, "references": graph.references})
    tmp = f"{os.fspath(path)}.{os.getpid()}.tmp"
    try:
        with open(tmp, "wb") as fh:
            np.savez(fh, src=graph.src.astype(np.int32), dst=graph.dst.astype(np.int32), weight=graph.weight,
                     uses=graph.uses.astype(np.int32), rank=graph.rank,
                     meta=np.array(meta))
        os.replace(tmp, path)
    except OSError:
        try:
            os.unlink(tmp)
        except OSError:
            pass


def _load(path: "os.PathLike[str]", nodes: list[Node], stamp: dict[str, object]) -> Graph | None:
    """The saved graph when it was built from these very definitions, else None."""
    try:
        with np.load(path, allow_pickle=False) as data:
            meta = json.loads(str(data["meta"]))
            if any(meta.get(k) != v for k, v in stamp.items()):
                return None
            graph = _finish(nodes, data["src"], data["dst"], data["weight"], data["uses"], meta["modules"],
                            int(meta["references"]))
            graph.rank = data["rank"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return graph


def pagerank(src: np.ndarray, dst: np.ndarray, weight: np.ndarray, n: int,
             personal: np.ndarray | None = None, damping: float = DAMPING, iterations: int = 100,
             tol: float = 1e-10) -> np.ndarray:
    """PageRank by power iteration over a weighted edge list; what a node does not pass on goes back to
    ``personal`` (uniform by default)."""
    if n == 0:
        return np.zeros(0)
    p = np.full(n, 1.0 / n) if personal is None else personal / personal.sum()
    # A node passes on at most its out-weight, in units of one placed use: the rest of its rank goes back
    # to ``personal`` like a dangling node's, so one faint edge does not carry a node's whole rank.
    out = np.maximum(np.bincount(src, weights=weight, minlength=n), 1.0)
    share = weight / out[src] if len(src) else weight
    passed = np.bincount(src, weights=share, minlength=n) if len(src) else np.zeros(n)
    r = p.copy()
    for _ in range(iterations):
        new = damping * (np.bincount(dst, weights=r[src] * share, minlength=n) + (r * (1 - passed)).sum() * p)
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


def _ancestors(nodes: list[Node], i: int, memo: dict[int, frozenset[int]]) -> frozenset[int]:
    """Node ``i`` and the definitions around it."""
    if i not in memo:
        out, j = set(), i
        while j >= 0:
            out.add(j)
            j = nodes[j].container
        memo[i] = frozenset(out)
    return memo[i]


def _reaches(nodes: list[Node], src: int, dst: int, memo: dict[int, frozenset[int]]) -> bool:
    """Whether a use in ``src`` of ``dst`` is an edge: not within one definition (recursion, ``cls(...)``,
    a class naming its own members), and not to a function's inner definition from outside that function
    (that is a same-named local)."""
    if src < 0:
        return _ancestors(nodes, dst, memo) == {dst} or nodes[nodes[dst].container].kind not in FUNCTION_KINDS
    around = _ancestors(nodes, src, memo)
    if dst in around or src in _ancestors(nodes, dst, memo):
        return False
    local = nodes[dst].container
    return local < 0 or nodes[local].kind not in FUNCTION_KINDS or local in around


@dataclass
class _Nodes:
    """The definitions of the index as graph nodes, with what building the edges needs."""

    nodes: list[Node]
    by_name: dict[str, list[int]]
    paths: dict[int, str]  # file id → path
    lines: dict[int, list[int]]  # file id → line → innermost definition (-1: none)


def _nodes(ws: "Workspace") -> _Nodes:
    nodes: list[Node] = []
    by_name: dict[str, list[int]] = defaultdict(list)
    by_file: dict[int, list[int]] = defaultdict(list)
    paths: dict[int, str] = {}
    for fid, path, name, qn, kind, parent, start, end, sig, lang in ws.store.ref_definitions():
        i = len(nodes)
        nodes.append(Node(path, name, qn, kind, parent, start, end, " ".join((sig or "").split()), lang or "",
                          -1, is_test_path(path) or is_example_path(path)))
        by_name[name].append(i)
        by_file[fid].append(i)
        paths[fid] = path
    lines = {fid: _innermost(nodes, members).tolist() for fid, members in by_file.items()}
    return _Nodes(nodes, by_name, paths, lines)


def _finish(nodes: list[Node], src: np.ndarray, dst: np.ndarray, weight: np.ndarray, uses: np.ndarray,
            module_paths: list[str], references: int) -> Graph:
    graph = Graph(nodes, len(nodes) + len(module_paths), src, dst, weight, uses, references=references)
    for i, node in enumerate(nodes):
        graph.by_path.setdefault(node.path, []).append(i)
    graph.module_of = {path: len(nodes) + k for k, path in enumerate(module_paths)}
    return graph


def build_graph(ws: "Workspace", found: _Nodes | None = None) -> Graph:
    """Nodes from the definitions, edges from every static reference to a defined name."""
    found = found or _nodes(ws)
    nodes, by_name, paths, lines = found.nodes, found.by_name, dict(found.paths), found.lines
    module_of: dict[int, int] = {}
    edges: dict[tuple[int, int], float] = defaultdict(float)
    uses = defaultdict(int)
    scope_memo: dict[int, list[Scope]] = {}
    ancestors: dict[int, frozenset[int]] = {}
    total = 0
    rows = [r for r in ws.store.ref_rows() if r[1] in by_name]
    lookups = type_lookups(ws)  # one for every name: what they read is read once
    for fid, _, _, path in rows:
        paths.setdefault(fid, path)
    tests = {fid: is_test_path(path) for fid, path in paths.items()}
    start = 0
    while start < len(rows):  # one name at a time
        name = rows[start][1]
        stop = start
        while stop < len(rows) and rows[stop][1] == name:
            stop += 1
        targets = by_name[name]
        defined_at = {(nodes[t].path, nodes[t].start) for t in targets}
        sites = [(fid, line, kind, qualifier) for fid, _, packed, _ in rows[start:stop]
                 for line, kind, qualifier in json.loads(packed)]
        needed = len(targets) > 1 or nodes[targets[0]].kind == "method" or any(site[3] for site in sites)
        resolve = _resolver(ws, nodes, targets, sites, paths, lookups) if needed else None
        memo: dict[tuple, list[tuple[int, float]]] = {}
        placed, unplaced = 0, []
        imported = {site[0] for site in sites if site[2] == "import"}
        for fid, line, kind, qualifier in sites:
            path = paths.get(fid, "")
            if (path, line) in defined_at:
                continue  # the definition itself
            at = lines.get(fid)
            src = at[line] if at is not None and 0 <= line < len(at) else -1
            if src < 0:
                src = module_of.setdefault(fid, -1 - len(module_of))  # numbered after the definitions
            weak = kind in WEAK_KINDS
            key = (fid, src, qualifier, weak)
            hits = memo.get(key)
            if hits is None:
                if weak and not qualifier and (_parameter(nodes, src, name) or not any(
                        _visible(nodes[t].path, path, fid in imported) for t in targets)):
                    found = []  # a parameter or a local that shares the name: nothing imports or defines it here
                else:
                    found = _targets_of(resolve, nodes, targets, src, fid, line, qualifier, paths, scope_memo, weak)
                hits = memo[key] = [(dst, share) for dst, share in found if _reaches(nodes, src, dst, ancestors)]
            weight = KIND_WEIGHT.get(kind, 1.0) * (TEST_WEIGHT if tests.get(fid, False) else 1.0)
            for dst, share in hits:
                if share == 1.0:
                    edges[(src, dst)] += weight
                    uses[dst] += 1
                    placed += 1
                else:
                    unplaced.append((src, dst, weight * share))
                total += 1
        # Unplaced uses count as much as the name's uses are placed: a name mostly used where no definition
        # could be picked (``x.append``, ``s.join``) is mostly something else's.
        trust = (placed + 1) / (placed + len(unplaced) + 1)
        for s, d, w in unplaced:
            edges[(s, d)] += w * trust
        start = stop
    n_defs = len(nodes)
    keys = list(edges)
    src = np.array([s if s >= 0 else n_defs - 1 - s for s, _ in keys], dtype=np.int64)
    dst = np.array([d for _, d in keys], dtype=np.int64)
    weight = np.sqrt(np.array([edges[k] for k in keys], dtype=np.float64))
    use_counts = np.zeros(n_defs + len(module_of), dtype=np.int64)
    for i, c in uses.items():
        use_counts[i] = c
    module_paths = [paths[fid] for fid, _ in sorted(module_of.items(), key=lambda kv: -kv[1])]
    return _finish(nodes, src, dst, weight, use_counts, module_paths, total)


class _NodeTarget(Target):
    """A definition of the graph as the resolver reads it, with its node."""

    node: int


def _resolver(ws: "Workspace", nodes: list[Node], targets: list[int], sites: list[tuple],
              paths: dict[int, str], lookups: Lookups) -> Resolver[_NodeTarget]:
    """find_usages' resolver over the definitions of one name, reading no file."""
    imports: dict[str, str] = {}
    for fid, _, kind, qualifier in sites:
        if kind == "import" and qualifier:
            imports.setdefault(paths.get(fid, ""), qualifier)
    dicts: list[_NodeTarget] = [{"path": nodes[t].path, "start_line": nodes[t].start,
                                 "qualified_name": nodes[t].qualified_name, "parent": nodes[t].parent,
                                 "kind": nodes[t].kind, "node": t} for t in targets]
    return Resolver(dicts, None, imports, lookups.bases_of, lookups.returns_of,
                    ws.store.go_packages(d["path"] for d in dicts), lookups.includers_of, lookups.mixins_of)


@lru_cache(maxsize=65536)
def _language(path: str) -> str:
    return language_for(path) or ""


def _visible(target: str, path: str, imported: bool) -> bool:
    """Whether a bare name in ``path`` can be a definition in ``target``: the file imports the name, or the
    definition is in the same file or folder (a Go package, a C unit)."""
    return imported or target == path or target.rsplit("/", 1)[0] == path.rsplit("/", 1)[0]


def _parameter(nodes: list[Node], src: int, name: str) -> bool:
    """Whether ``name`` is a parameter of the function ``src`` or of one around it."""
    pattern = re.compile(rf"(?<![\w.]){re.escape(name)}\b")
    j = src
    while j >= 0:
        node = nodes[j]
        if node.kind in FUNCTION_KINDS and "(" in node.signature and pattern.search(node.signature,
                                                                                     node.signature.index("(")):
            return True
        j = node.container
    return False


def _targets_of(resolve: Resolver[_NodeTarget] | None, nodes: list[Node], targets: list[int], src: int, fid: int,
                line: int, qualifier: str, paths: dict[int, str], scope_memo: dict[int, list[Scope]],
                weak: bool) -> list[tuple[int, float]]:
    """(node, share of the use) for one reference: the only definition of a bare name, else the one the
    resolver picks, else all of them at a reduced weight: a fifth of that for what is no method (a
    qualified use that is not through its module is most likely something else, ``d.update()``), none
    for a read (``x.name``, ``name``: too often a field or a local of that name)."""
    if resolve is None or (len(targets) == 1 and not qualifier and nodes[targets[0]].kind != "method"):
        return [(targets[0], 1.0)]
    path = paths.get(fid, "")
    scopes = _scopes(nodes, src, scope_memo) if src >= 0 else []
    label = resolve.resolve(path, line, qualifier, scopes, _language(path))
    if label != UNRESOLVED:
        for t in resolve.targets:
            if resolve.labels[id(t)] == label:
                return [(t["node"], 1.0)]
    if weak:
        return []
    return [(t, UNPLACED_WEIGHT / len(targets) / (1 if nodes[t].kind == "method" else 5)) for t in targets]
