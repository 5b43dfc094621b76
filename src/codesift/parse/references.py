"""Static reference extraction: where identifiers are *used* (called, read, imported, typed).

One tree-sitter query per language (tables in :mod:`codesift.parse.ref_tables`) tags identifier
nodes with what they are at that spot; a small driver resolves the tags into
:class:`Reference` records.  Capture names in the tables:

``@call`` ``@attribute`` ``@import`` ``@type`` ``@inherit`` ``@decorator`` ``@reference``
    an identifier used in that role (when one node gets several tags the most specific wins:
    decorator > inherit > import > call > type > attribute > reference);
``@qualifier``
    in the same match as a role capture: the receiver / module / path text before the name;
``@skip``
    an identifier that is *not* a reference (a definition's own name, a parameter, a keyword
    argument's name, a variable being declared...): it beats every role;
``@store``
    the target of an assignment: identifiers bound by it are skipped (walked in Python, so
    nested destructuring works), and so is the member written by ``obj.name = ...``, while the
    receiver ``obj`` still counts as read;
``@<role>.scope``
    a subtree (a type annotation) whose identifiers get at least that role.

No recursion anywhere (queries plus explicit stacks), so deeply nested code is safe, and any
failure yields ``[]`` rather than an exception.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass

from tree_sitter import Node, QueryCursor

from codesift.parse import grammars
from codesift.parse.ref_tables import REF_SPECS, RefSpec

__all__ = ["KINDS", "Reference", "extract_references", "references_in_tree"]

# Most specific first; ``_RANK`` maps a kind to its priority (lower wins).
KINDS: tuple[str, ...] = (
    "decorator", "inherit", "import", "call", "type", "attribute", "reference",
)  # fmt: skip
_RANK: dict[str, int] = {kind: i for i, kind in enumerate(KINDS)}
_NONE = len(KINDS)

MAX_QUALIFIER = 120
_STORE_WALK_LIMIT = 10_000  # nodes looked at under one assignment target


@dataclass(slots=True, frozen=True)
class Reference:
    """One use of an identifier."""

    name: str  # the identifier as written (the last component: ``c`` for ``a.b.c()``)
    line: int  # 1-based line of the identifier
    kind: str  # one of KINDS
    qualifier: str  # receiver / module text before the name (``self``, ``os.path``), or ""


def extract_references(source: str | bytes, language: str) -> list[Reference]:
    """Every reference in ``source`` (a file in ``language``), in source order.

    Returns ``[]`` for a language without a table, a missing grammar, or any failure.
    """
    try:
        spec = REF_SPECS.get(language)
        parser = grammars.get_parser(language)
        if spec is None or parser is None:
            return []
        src = source if isinstance(source, bytes) else source.encode("utf-8", "surrogatepass")
        tree = parser.parse(src)
        return references_in_tree(tree.root_node, src, language)
    except Exception:  # never let one odd file break indexing
        return []


def references_in_tree(root: Node, src: bytes, language: str) -> list[Reference]:
    """References under ``root`` of an already parsed tree (``src`` is its source)."""
    spec = REF_SPECS.get(language)
    if spec is None:
        return []
    query = grammars.get_query(language, spec.query)
    if query is None:
        return []
    matches = QueryCursor(query).matches(root)

    best: dict[int, int] = {}  # start byte -> rank of the best role so far
    nodes: dict[int, Node] = {}
    qualifiers: dict[int, str] = {}
    skipped: set[int] = set()
    stores: list[Node] = []
    scopes: dict[str, list[tuple[int, int]]] = {}

    for _pattern, caps in matches:
        qual_nodes = caps.get("qualifier")
        qualifier = _clean(qual_nodes[0].text) if qual_nodes else ""
        for capture, captured in caps.items():
            if capture == "qualifier":
                continue
            rank = _RANK.get(capture)
            if rank is not None:
                for node in captured:
                    key = node.start_byte
                    if rank < best.get(key, _NONE):
                        best[key] = rank
                        nodes[key] = node
                    if qualifier:
                        qualifiers.setdefault(key, qualifier)
            elif capture == "skip":
                skipped.update(node.start_byte for node in captured)
            elif capture == "store":
                stores.extend(captured)
            elif capture.endswith(".scope"):
                ranges = scopes.setdefault(capture[: -len(".scope")], [])
                ranges.extend((node.start_byte, node.end_byte) for node in captured)

    for target in stores:
        _mark_store(target, spec, skipped)

    for kind, ranges in scopes.items():
        rank = _RANK.get(kind)
        if rank is None:
            continue
        starts, ends = _merge(ranges)
        for key, current in best.items():
            if rank < current:
                i = bisect_right(starts, key) - 1
                if i >= 0 and key < ends[i]:
                    best[key] = rank

    out: list[Reference] = []
    seen: set[tuple[str, int, str]] = set()
    for key in sorted(best):
        if key in skipped:
            continue
        node = nodes[key]
        name = _clean(node.text)
        if not name:
            continue
        kind = KINDS[best[key]]
        line = node.start_point[0] + 1
        marker = (name, line, kind)
        if marker in seen:
            continue
        seen.add(marker)
        qualifier = qualifiers.get(key)
        if qualifier is None:
            qualifier = _dotted_qualifier(node, src, spec)
        out.append(Reference(name, line, kind, qualifier))
    return out


def _mark_store(target: Node, spec: RefSpec, skipped: set[int]) -> None:
    """Skip the identifiers an assignment target binds, and the member it writes."""
    stack = [target]
    budget = _STORE_WALK_LIMIT
    while stack and budget > 0:
        budget -= 1
        node = stack.pop()
        kind = node.type
        if kind in spec.store_names:
            skipped.add(node.start_byte)
        elif kind in spec.store_containers:
            stack.extend(node.named_children)
        elif kind in spec.store_members:
            member = node.child_by_field_name(spec.store_members[kind])
            if member is not None:
                skipped.add(member.start_byte)


def _merge(ranges: list[tuple[int, int]]) -> tuple[list[int], list[int]]:
    """Disjoint (starts, ends) covering ``ranges``."""
    starts: list[int] = []
    ends: list[int] = []
    for start, end in sorted(ranges):
        if ends and start <= ends[-1]:
            ends[-1] = max(ends[-1], end)
        else:
            starts.append(start)
            ends.append(end)
    return starts, ends


def _dotted_qualifier(node: Node, src: bytes, spec: RefSpec) -> str:
    """For a component of a flat dotted path (``a.b.c`` as one node): the text before it."""
    parent = node.parent
    if parent is None or parent.type not in spec.dotted:
        return ""
    head = src[parent.start_byte : node.start_byte]
    return _clean(head).rstrip(".:\\->").rstrip()


def _clean(raw: bytes | None) -> str:
    """Decoded, whitespace-collapsed text, capped at MAX_QUALIFIER characters."""
    if not raw:
        return ""
    value = raw.decode("utf-8", "replace")
    if len(value) > 4 * MAX_QUALIFIER:
        value = value[: 4 * MAX_QUALIFIER]
    value = " ".join(value.split())
    return value[:MAX_QUALIFIER]
