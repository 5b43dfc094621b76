"""Static reference extraction: where identifiers are *used* (called, read, imported, typed).

One tree-sitter query per language (tables in :mod:`codesift.parse.ref_tables`) tags identifier
nodes with what they are at that spot; a small driver resolves the tags into
:class:`Reference` records.  Capture names in the tables:

``@call`` ``@attribute`` ``@import`` ``@type`` ``@inherit`` ``@decorator`` ``@reference``
    an identifier used in that role (when one node gets several tags the most specific wins:
    decorator > inherit > import > call > type > attribute > reference);
``@skip``
    an identifier that is *not* a reference (a definition's own name, a parameter, a keyword
    argument's name, a variable being declared...): it beats every role but a direct
    ``@import`` capture (an imported name both refers to the module's symbol and binds a local
    one: ``const {a} = require("m")``);
``@<role>.member``
    a member access node (``a.b``, ``obj->f()``): its name child (``RefSpec.members``) gets the
    role; matching the name inside the query would be quadratic on long chains;
``@store``
    the target of an assignment: identifiers bound by it are skipped (walked in Python, so
    nested destructuring works), and so is the member written by ``obj.name = ...``, while the
    receiver ``obj`` still counts as read;
``@<role>.scope``
    a subtree (a type annotation) whose identifiers get at least that role (``@skip.scope``:
    none of its identifiers is a reference, e.g. a ``package`` header).

A name's qualifier is the text in front of it inside its member access or path
(``RefSpec.qualified_parents``: ``os.path`` for ``os.path.join``, ``self`` for ``self.x``), or for
an imported name the module it comes from (``RefSpec.import_sources``).

No recursion anywhere (queries plus explicit stacks), so deeply nested code is safe, and any
failure yields ``[]`` rather than an exception.
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_right
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache

from tree_sitter import Node, Query, QueryCursor

from codesift.parse import grammars
from codesift.parse.macro_args import macro_source
from codesift.parse.ref_tables import FIRST_CHILD, LAST_CHILD, REF_SPECS, RefSpec

__all__ = ["KINDS", "Reference", "extract_references", "references_in_tree"]

# Most specific first; ``_RANK`` maps a kind to its priority (lower wins).
KINDS: tuple[str, ...] = (
    "decorator", "inherit", "import", "call", "type", "attribute", "reference",
)  # fmt: skip
_RANK: dict[str, int] = {kind: i for i, kind in enumerate(KINDS)}

MAX_QUALIFIER = 120
_HEAD_BYTES = 4 * MAX_QUALIFIER  # receiver text looked at (long chains are cut, not copied)
_STORE_WALK_LIMIT = 10_000  # nodes looked at under one assignment target
_QUOTED = re.compile(r"""["'`<]([^"'`<>]+)["'`>]""")
_IMPORT_DEPTH = 5  # parents looked through from an imported name up to its import statement
_MEMBER_DEPTH = 4  # nested member wrappers looked through for a member's name
_SEPARATORS = " .:?&->\\"  # between a receiver and its member: . ?. :: -> ?-> &. \\


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


def references_in_tree(root: Node, src: bytes, language: str, _depth: int = 0) -> list[Reference]:
    """References under ``root`` of an already parsed tree (``src`` is its source)."""
    spec = REF_SPECS.get(language)
    if spec is None:
        return []
    query = _query(language)
    if query is None:
        return []
    caps = QueryCursor(query).captures(root)

    # start byte -> (rank, node); least specific roles first so the most specific one wins.
    best: dict[int, tuple[int, Node]] = {}
    members = spec.members
    for rank in range(len(KINDS) - 1, -1, -1):
        kind = KINDS[rank]
        for node in caps.get(kind, ()):
            best[node.start_byte] = (rank, node)
        for access in caps.get(kind + ".member", ()):
            member = _member_name(access, members)
            if member is not None:
                best[member.start_byte] = (rank, member)

    skipped = {node.start_byte for node in caps.get("skip", ())}
    imported = {node.start_byte for node in caps.get("import", ())}
    for target in caps.get("store", ()):
        _mark_store(target, spec, skipped)

    for capture, scope_nodes in caps.items():
        if not capture.endswith(".scope"):
            continue
        role = capture[: -len(".scope")]
        scope_rank = _RANK.get(role)
        if scope_rank is None and role != "skip":
            continue
        starts, ends = _merge([(n.start_byte, n.end_byte) for n in scope_nodes])
        for key, (current, node) in best.items():
            if scope_rank is None or scope_rank < current:
                i = bisect_right(starts, key) - 1
                if i >= 0 and key < ends[i]:
                    if scope_rank is None:
                        skipped.add(key)
                    else:
                        best[key] = (scope_rank, node)

    # name start byte -> (qualifying parent, the parent's child holding the name)
    holders: dict[int, tuple[Node, Node]] = {}
    wrappers = spec.member_wrappers
    for parent in caps.get("_qualified", ()):
        for child in parent.named_children:
            if wrappers and child.type in wrappers:
                for inner in child.named_children:
                    if inner.child_count == 0:
                        holders[inner.start_byte] = (parent, child)
            elif child.child_count == 0:  # a name token, not an argument list starting there
                holders[child.start_byte] = (parent, child)

    macros = caps.get("_macro_args", ())  # Rust macro arguments, read again as code
    reread = [(n, m) for n in macros if (m := macro_source(n, src, _depth)) is not None]
    m_starts, m_ends = _merge([(n.start_byte, n.end_byte) for n, _ in reread])

    out: list[Reference] = []
    seen: set[tuple[str, int, str]] = set()
    sources = spec.import_sources
    nfkc = spec.nfkc
    for key in sorted(best):
        rank, node = best[key]
        if key in skipped and key not in imported:  # an imported name also binds a local one
            continue
        if m_starts and (i := bisect_right(m_starts, key) - 1) >= 0 and key < m_ends[i]:
            continue  # inside a macro's arguments: the second reading below has it
        raw = node.text
        if not raw:
            continue
        name = raw.decode("utf-8", "replace").strip()
        if nfkc and not name.isascii():
            name = unicodedata.normalize("NFKC", name)
        kind = KINDS[rank]
        path_qualifier = ""
        if kind == "import" and not name.isidentifier():  # "net/http", <stdio.h>, 'lib/x'
            name = name.strip("\"'`<> ")
            path_qualifier, _, name = name.rpartition("/")
            if not name:
                continue
        line = node.start_point[0] + 1
        marker = (name, line, kind)
        if marker in seen:
            continue
        seen.add(marker)
        qualifier = ""
        holder = holders.get(key)
        if holder is not None and holder[0].start_byte < key:
            parent, child = holder
            head_end = min(child.start_byte, parent.start_byte + _HEAD_BYTES)
            qualifier = _qualifier(src[parent.start_byte : head_end])
        elif kind == "import" and sources:
            qualifier = _import_source(node.parent, key, sources)
        elif kind == "call" and spec.callable_pairs:
            qualifier = _pair_receiver(node, spec.callable_pairs)
        if kind == "import":
            quoted = _QUOTED.search(qualifier)  # ``'./m'``, ``require("m")``
            qualifier = quoted.group(1) if quoted else qualifier or path_qualifier
        out.append(Reference(name, line, kind, qualifier))
    if reread:
        parser = grammars.get_parser(language)
        if parser is not None:
            for _, (text, shift) in reread:
                out.extend(Reference(r.name, r.line + shift, r.kind, r.qualifier)
                           for r in references_in_tree(parser.parse(text).root_node, text, language, _depth + 1))
        out.sort(key=lambda r: r.line)
    return out


@lru_cache(maxsize=None)
def _query(language: str) -> Query | None:
    """The language's reference query, built from the table blocks that compile."""
    spec = REF_SPECS.get(language)
    if spec is None:
        return None
    blocks = [b for b in spec.query if grammars.get_query(language, b) is not None]
    if not blocks:
        return None
    # Parents that qualify a name are captured too: Node.parent is O(depth) in tree-sitter.
    parents = sorted(t for t in spec.qualified_parents if grammars.has_node_type(language, t))
    if parents:
        blocks.append("[" + " ".join(f"({t})" for t in parents) + "] @_qualified")
    return grammars.get_query(language, "\n".join(blocks))


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
        elif kind in spec.store_fields:
            child = node.child_by_field_name(spec.store_fields[kind])
            if child is not None:
                stack.append(child)
        elif kind in spec.members:
            member = _member_child(node, spec.members[kind])
            if member is not None:
                skipped.add(member.start_byte)


def _member_child(node: Node, field: str) -> Node | None:
    """The child of a member access holding its name (see ``RefSpec.members``)."""
    if field == LAST_CHILD or field == FIRST_CHILD:
        children = node.named_children
        if len(children) < (2 if field == LAST_CHILD else 1):
            return None  # a lone child is the receiver, not a member
        return children[-1] if field == LAST_CHILD else children[0]
    return node.child_by_field_name(field)


def _member_name(node: Node, members: Mapping[str, str]) -> Node | None:
    """The name token of a member access, through nested wrappers (``a::f<T>`` -> ``f``)."""
    for _ in range(_MEMBER_DEPTH):
        field = members.get(node.type)
        if field is None:
            break
        child = _member_child(node, field)
        if child is None:
            return None
        node = child
    return node if node.child_count == 0 else None


def _import_source(parent: Node | None, key: int, sources: Mapping[str, str]) -> str:
    """The module an imported name comes from (``x`` in ``from x import a``), or ""."""
    for _ in range(_IMPORT_DEPTH):
        if parent is None:
            return ""
        field = sources.get(parent.type)
        if field is not None:
            module = parent.child_by_field_name(field)
            if module is None or module.start_byte <= key < module.end_byte:
                return ""  # a component of the module path itself
            return _clean(module.text)
        parent = parent.parent
    return ""


def _pair_receiver(name: Node, pairs: frozenset[str]) -> str:
    """The receiver of a method named by a string in a callable pair (``$this`` in ``[$this, 'm']``, ``Foo`` in
    ``[Foo::class, 'm']``), or "" for a name elsewhere."""
    text = name.parent
    element = text.parent if text is not None else None
    if element is None or element.type not in pairs:
        return ""
    first = element.prev_named_sibling
    if first is None or first.type not in pairs:
        return ""
    return _clean(first.text).removesuffix("::class")


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


def _qualifier(head: bytes) -> str:
    """The receiver / path text in front of a member name, without the separator."""
    return _clean(head).rstrip(_SEPARATORS).rstrip()


def _clean(raw: bytes | None) -> str:
    """Decoded, whitespace-collapsed text, capped at MAX_QUALIFIER characters."""
    if not raw:
        return ""
    value = raw[:_HEAD_BYTES].decode("utf-8", "replace")
    value = " ".join(value.split())
    return value[:MAX_QUALIFIER]
