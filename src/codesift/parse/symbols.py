"""Definition extraction from a tree-sitter tree, driven by the per-language tables.

One query per language finds every candidate node (no Python recursion, so deeply nested code
is safe); a classifier turns a candidate into a :class:`~codesift.parse.base.Def`; nesting
(parent / qualified names) is then recovered from byte ranges with a stack.
"""

from __future__ import annotations

import inspect
import re
from bisect import bisect_left, bisect_right
from dataclasses import dataclass

from tree_sitter import Node, QueryCursor

from codesift.datatypes import Chunk
from codesift.parse import grammars
from codesift.parse.base import CLASS_LIKE, Def, LangSpec, collapse, last_row, name_of, text
from codesift.parse.lang_c import C_SPEC, CPP_SPEC
from codesift.parse.lang_dart import DART_SPEC
from codesift.parse.lang_elixir import ELIXIR_SPEC
from codesift.parse.lang_haskell import HASKELL_SPEC
from codesift.parse.lang_js import JS_SPEC, TS_SPEC
from codesift.parse.lang_julia import JULIA_SPEC
from codesift.parse.lang_misc import CSHARP_SPEC, GO_SPEC, JAVA_SPEC, KOTLIN_SPEC, PHP_SPEC
from codesift.parse.lang_ocaml import OCAML_SPEC
from codesift.parse.lang_python import PYTHON_SPEC
from codesift.parse.lang_ruby import RUBY_SPEC
from codesift.parse.lang_rust import RUST_SPEC
from codesift.parse.lang_scala import SCALA_SPEC
from codesift.parse.lang_script import LUA_SPEC, SHELL_SPEC
from codesift.parse.lang_swift import SWIFT_SPEC
from codesift.parse.lang_zig import ZIG_SPEC
from codesift.parse.routes import route_for, route_prefix

SPECS: dict[str, LangSpec] = {
    "python": PYTHON_SPEC,
    "javascript": JS_SPEC,
    "typescript": TS_SPEC,
    "tsx": TS_SPEC,
    "go": GO_SPEC,
    "java": JAVA_SPEC,
    "rust": RUST_SPEC,
    "c": C_SPEC,
    "cpp": CPP_SPEC,
    "c_sharp": CSHARP_SPEC,
    "ruby": RUBY_SPEC,
    "php": PHP_SPEC,
    "kotlin": KOTLIN_SPEC,
    "swift": SWIFT_SPEC,
    "scala": SCALA_SPEC,
    "lua": LUA_SPEC,
    "shell": SHELL_SPEC,
    "elixir": ELIXIR_SPEC,
    "dart": DART_SPEC,
    "haskell": HASKELL_SPEC,
    "zig": ZIG_SPEC,
    "ocaml": OCAML_SPEC,
    "ocaml_interface": OCAML_SPEC,
    "julia": JULIA_SPEC,
}

MAX_TEXT = 20_000
MAX_LINE = 1_000  # what a definition's text keeps of a line, when the text is over MAX_TEXT
MAX_DOC = 2_000
_SIG_SCAN = 2_000  # bytes of header looked at for a signature
_DIRECTIVE_LINE = re.compile(rb"^[ \t]*#[a-z].*$", re.M)
_MACROS_ONLY = re.compile(rb"[ \t]*(?:[A-Z][A-Z0-9_]{2,}[ \t]+)+")
_SIG_TAIL = re.compile(r"(?:\s*(?:\{|:|=>|=|;))+$")


@dataclass(slots=True)
class Symbol:
    """A definition chunk plus the lines it claims (its doc comment included)."""

    chunk: Chunk
    covers: tuple[int, int]  # 1-based inclusive


@dataclass(slots=True)
class _Located:
    d: Def
    outer: Node
    outer_start: int  # byte (sibling decorators included)
    outer_end: int  # byte
    start_row: int  # 0-based row of the outer start (decorators included)
    decorators: list[tuple[int, int]]  # byte ranges
    anchor: Node
    first_row: int | None = None  # 0-based row of the first overload signature, when there are some


@dataclass(slots=True)
class _Context:
    spec: LangSpec
    language: str
    src: bytes
    line_starts: list[int]
    comment_ends: dict[int, int]  # end byte -> start byte of every comment
    comment_starts: list[int]  # sorted start bytes of every comment
    comment_ends_by_start: dict[int, int]
    doc_comments: dict[int, tuple[int, Node]]  # see _index_comments

    def row_of(self, byte: int) -> int:
        """0-based row holding ``byte``."""
        return bisect_right(self.line_starts, byte) - 1


@dataclass(slots=True)
class _Scope:
    end: int
    name: str
    kind: str
    prefix: str | None


def _query_source(language: str, spec: LangSpec) -> str:
    types = sorted(t for t in {*spec.kinds, *spec.custom} if grammars.has_node_type(language, t))
    parts = ["[" + " ".join(f"({t})" for t in types) + "] @def"] if types else []
    comments = sorted(t for t in spec.comments if grammars.has_node_type(language, t))
    if comments:
        parts.append("[" + " ".join(f"({t})" for t in comments) + "] @comment")
    return "\n".join(parts)


def cap_text(text: str) -> str:
    """A definition's text cut to ``MAX_TEXT`` characters: lines over ``MAX_LINE`` first (a literal of data
    on one line keeps the code after it), then the tail."""
    if len(text) <= MAX_TEXT:
        return text
    lines = text.split("\n")
    if any(len(line) > MAX_LINE for line in lines):
        text = "\n".join(line[:MAX_LINE] for line in lines)
    return text[:MAX_TEXT]


def definition_rows(root: Node, language: str) -> list[int]:
    """The first rows of the nodes that may be definitions (the query's candidates, not classified): cheap
    enough to run before deciding to extract them."""
    spec = SPECS.get(language)
    query = grammars.get_query(language, _query_source(language, spec)) if spec is not None else None
    if query is None:
        return []
    return [n.start_point[0] for n in QueryCursor(query).captures(root).get("def", [])]


def extract_definitions(root: Node, src: bytes, language: str) -> list[Symbol]:
    """All definitions under ``root`` in source order."""
    spec = SPECS.get(language)
    if spec is None:
        return []
    query = grammars.get_query(language, _query_source(language, spec))
    if query is None:
        return []
    captures = QueryCursor(query).captures(root)
    candidates = sorted(captures.get("def", []), key=lambda n: n.start_byte)
    comment_nodes = captures.get("comment", [])
    ctx = _Context(
        spec=spec,
        language=language,
        src=src,
        line_starts=[0] + [m.end() for m in re.finditer(b"\n", src)],
        comment_ends={c.end_byte: c.start_byte for c in comment_nodes},
        comment_starts=sorted(c.start_byte for c in comment_nodes),
        comment_ends_by_start={c.start_byte: c.end_byte for c in comment_nodes},
        doc_comments=_index_comments(comment_nodes, src) if spec.comment_docs else {},
    )

    located: list[_Located] = []
    route_refs: dict[str, str] = {}
    for node in candidates:
        d = _classify(spec, node)
        if d is None or not d.name:
            continue
        if d.ref_only:
            if d.route:
                route_refs.setdefault(d.name, d.route)
            continue
        located.append(_locate(spec, d))
    located.sort(key=lambda x: (x.outer_start, -x.outer_end))

    symbols: list[Symbol] = []
    stack: list[_Scope] = []
    for loc in located:
        while stack and stack[-1].end < loc.outer_end:
            stack.pop()
        enclosing = stack[-1] if stack else None
        symbol, scope = _build(ctx, loc, enclosing)
        symbols.append(symbol)
        stack.append(scope)
    if route_refs:
        for symbol in symbols:
            chunk = symbol.chunk
            if chunk.route is None and chunk.name in route_refs:
                chunk.route = route_refs[chunk.name]
    return symbols


def _classify(spec: LangSpec, node: Node) -> Def | None:
    try:
        custom = spec.custom.get(node.type)
        if custom is not None:
            return custom(node)
        kind = spec.kinds.get(node.type)
        if kind is None:
            return None
        name = name_of(node, spec)
        return Def(node, kind, name) if name else None
    except Exception:  # one odd node must not lose the whole file
        return None


def _locate(spec: LangSpec, d: Def) -> _Located:
    """Find the statement owning ``d``, its decorators and the token its start line is on."""
    outer = d.outer or d.node
    anchor_base = outer
    chain = [d.node] if outer is d.node else [d.node, outer]
    while True:
        parent = outer.parent
        if parent is None:
            break
        if parent.type in spec.wrappers:
            outer = anchor_base = parent
        elif parent.type in spec.prefix_wrappers:
            outer = parent
        else:
            break
        chain.append(parent)

    decorators: list[tuple[int, int]] = []
    outer_start = outer.start_byte
    start_row = outer.start_point[0]
    if spec.sibling_decorators:
        sib = outer.prev_sibling
        skippable = spec.sibling_decorators | spec.comments
        while sib is not None and sib.type in skippable:
            if sib.type in spec.sibling_decorators:
                found = _sibling_decorators(spec, sib)
                if found is None:
                    break
                decorators.extend(reversed(found))
                outer_start, start_row = sib.start_byte, sib.start_point[0]
            sib = sib.prev_sibling
        decorators.reverse()
    if spec.decorators:
        own: list[Node] = []
        for holder in chain:
            for child in holder.children:
                if child.type in spec.decorators:
                    own.append(child)
                elif child.type in spec.modifiers:
                    own.extend(c for c in child.children if c.type in spec.decorators)
        own.sort(key=lambda n: n.start_byte)
        decorators.extend((n.start_byte, n.end_byte) for n in own)
    first_row = None
    if spec.overloads:
        sib = outer.prev_named_sibling
        while sib is not None and (sib.type in spec.comments or _overload_of(spec, sib, d.name)):
            if sib.type not in spec.comments:
                outer_start, start_row = sib.start_byte, sib.start_point[0]
                first_row = start_row
            sib = sib.prev_named_sibling
    if d.lead is not None and d.lead.start_byte < outer_start:
        outer_start, start_row = d.lead.start_byte, d.lead.start_point[0]
    outer_end = max(outer.end_byte, d.extent.end_byte) if d.extent is not None else outer.end_byte
    anchor = _first_token(spec, anchor_base)
    return _Located(d, outer, outer_start, outer_end, start_row, decorators, anchor, first_row)


def _overload_of(spec: LangSpec, node: Node, name: str) -> bool:
    """Whether ``node`` (or the declaration an ``export`` wraps) is an overload signature of ``name``."""
    if node.type in spec.wrappers:
        inner = node.child_by_field_name("declaration")
        node = inner if inner is not None else node
    return node.type in spec.overloads and text(node.child_by_field_name("name")) == name


def _sibling_decorators(spec: LangSpec, node: Node) -> list[tuple[int, int]] | None:
    """Byte ranges of the decorators in a preceding sibling; None if it holds anything else.

    Kotlin's grammar parses annotations on their own lines before a declaration that follows
    more code as nested ``annotated_expression``s, the arguments of the last one becoming a
    ``parenthesized_expression``.
    """
    if node.type in spec.decorators:
        return [(node.start_byte, node.end_byte)]
    found: list[tuple[int, int]] = []
    current: Node | None = node
    while current is not None:
        nested = None
        for child in current.named_children:
            if child.type in spec.decorators:
                found.append((child.start_byte, child.end_byte))
            elif child.type == node.type and nested is None:
                nested = child
            elif child.type == "parenthesized_expression" and found:
                found[-1] = (found[-1][0], child.end_byte)
            else:
                return None
        current = nested
    return found


def _first_token(spec: LangSpec, node: Node) -> Node:
    """First child that is not a decorator or comment (looking inside modifier lists)."""
    for child in node.children:
        kind = child.type
        if kind in spec.decorators or kind in spec.comments:
            continue
        if kind in spec.modifiers:
            for inner in child.children:
                if inner.type not in spec.decorators and inner.type not in spec.comments:
                    return inner
            continue
        return child
    return node


def _trim_trailing_comments(start: int, end: int, src: bytes, comment_ends: dict[int, int]) -> int:
    """End byte without comments trailing inside the node (Python blocks swallow them)."""
    while end in comment_ends and comment_ends[end] > start:
        end = comment_ends[end]
        while end > start and src[end - 1] in b" \t\r\n\f":
            end -= 1
    return end


def _build(ctx: _Context, loc: _Located, enclosing: _Scope | None) -> tuple[Symbol, _Scope]:
    d, src, spec = loc.d, ctx.src, ctx.spec
    parent = d.parent if d.parent is not None else (enclosing.name if enclosing else None)
    if d.namespace:
        parent = f"{parent}.{d.namespace}" if parent else d.namespace
    kind = d.kind
    if kind == "function" and (
        d.parent is not None or (enclosing is not None and enclosing.kind in CLASS_LIKE)
    ):
        kind = "method"
    qualified = d.qualified or (f"{parent}.{d.name}" if parent else d.name)

    end_byte = _trim_trailing_comments(loc.outer_start, loc.outer_end, src, ctx.comment_ends)
    # Scala's indented bodies end past the blank lines after them.
    while end_byte > loc.outer_start and src[end_byte - 1] in b" \t\r\n":
        end_byte -= 1
    end_row = ctx.row_of(max(end_byte - 1, loc.outer_start))
    start_row = loc.anchor.start_point[0] if loc.first_row is None else loc.first_row

    line_start = src.rfind(b"\n", 0, loc.outer_start) + 1
    head = src[line_start : loc.outer_start]
    # C/C++ export macros in front (``SPDLOG_INLINE void f()``) were blanked for the parser, not for the reader.
    macros = ctx.language in ("c", "cpp") and head.strip() and _MACROS_ONLY.fullmatch(head) is not None
    text_start = line_start if not head.strip() or macros else loc.outer_start
    text = cap_text(src[text_start:end_byte].decode("utf-8", "replace"))

    decorators = [src[a:b].decode("utf-8", "replace").strip() for a, b in loc.decorators]
    prefix = route_prefix(decorators) if kind in CLASS_LIKE else None
    route = d.route
    if route is None and decorators and kind not in CLASS_LIKE:
        route = route_for(decorators, enclosing.prefix if enclosing else None)

    if d.docstring is not None:
        docstring = d.docstring
        doc_row = loc.start_row
    elif spec.comment_docs:
        docstring, doc_row = _doc_comment(ctx.doc_comments, loc.start_row)
        if not docstring:
            docstring, doc_row = _doc_block_above_blank(ctx, loc)
        if docstring and spec.doc_clean is not None:
            docstring = spec.doc_clean(docstring)
    else:
        docstring, doc_row = "", loc.start_row

    chunk = Chunk(
        kind=kind,
        name=d.name,
        qualified_name=qualified,
        start_line=start_row + 1,
        end_line=max(end_row, start_row) + 1,
        text=text,
        language=ctx.language,
        parent=parent,
        signature=_signature(ctx, d, loc.anchor, line_start if macros else None),
        docstring=docstring[:MAX_DOC],
        decorators=decorators,
        route=route,
    )
    scope_prefix = prefix or (enclosing.prefix if enclosing and kind not in CLASS_LIKE else None)
    scope = _Scope(loc.outer_end, d.scope or qualified, kind, scope_prefix)
    # Lines trimmed off the end (trailing comments) still belong to it, not to module code.
    covered_end = max(chunk.end_line, last_row(d.extent if d.extent is not None else loc.outer) + 1)
    return Symbol(chunk, (doc_row + 1, covered_end)), scope


def _signature(ctx: _Context, d: Def, anchor: Node, start: int | None = None) -> str:
    """Header text from the start-line token (or ``start``) up to the body, comments removed."""
    node, spec, src = d.node, ctx.spec, ctx.src
    body = d.body or node.child_by_field_name("body")
    if body is None and spec.bodies:
        body = next((c for c in node.children if c.type in spec.bodies), None)
    start = anchor.start_byte if start is None else start
    if body is not None and body.start_byte > start:
        end = body.start_byte
    else:
        end = node.end_byte if d.outer is None else max(node.end_byte, d.outer.end_byte)
    end = min(end, start + _SIG_SCAN)
    pieces: list[bytes] = []
    pos = start
    i = bisect_left(ctx.comment_starts, start)
    while i < len(ctx.comment_starts) and ctx.comment_starts[i] < end:
        comment_start = ctx.comment_starts[i]
        pieces.append(src[pos:comment_start])
        pos = max(pos, ctx.comment_ends_by_start[comment_start])
        i += 1
    pieces.append(src[pos:end] if pos < end else b"")
    raw = b" ".join(pieces)
    if ctx.language == "c_sharp":  # `#pragma warning restore X` between a class header and its body
        raw = _DIRECTIVE_LINE.sub(b"", raw)
    sig = collapse(raw.decode("utf-8", "replace"))
    sig = _SIG_TAIL.sub("", sig)
    if ctx.language == "ruby":  # `def x; end` has no body node; `get '/x' do` opens a block
        sig = re.sub(r"(?:\s*;?\s*\bend|\s+do)$", "", sig)
    return sig.strip()


def _index_comments(nodes: list[Node], src: bytes) -> dict[int, tuple[int, Node]]:
    """last row -> (first row, comment) for comments that start their line."""
    index: dict[int, tuple[int, Node]] = {}
    for node in nodes:
        start = node.start_byte
        line_start = src.rfind(b"\n", 0, start) + 1
        if src[line_start:start].strip():
            continue  # trailing comment after code
        row = last_row(node)
        if row not in index:
            index[row] = (node.start_point[0], node)
    return index


def _doc_comment(comments: dict[int, tuple[int, Node]], start_row: int) -> tuple[str, int]:
    """The comment block ending right above ``start_row``; returns (text, first row)."""
    row = start_row - 1
    block: list[Node] = []
    first = start_row
    while row in comments and len(block) < 200:
        first, node = comments[row]
        block.append(node)
        row = first - 1
    if not block:
        return "", start_row
    block.reverse()
    return clean_comment("\n".join(text(n).rstrip() for n in block)), first


def _doc_block_above_blank(ctx: _Context, loc: _Located) -> tuple[str, int]:
    """A ``/** … */`` block one blank line above the definition, at its indentation (commander's style
    of JSDoc); returns (text, first row), or ("", start row) when there is none."""
    row = loc.start_row
    if row < 2 or row - 2 not in ctx.doc_comments:
        return "", row
    blank = ctx.src[ctx.line_starts[row - 1]:ctx.line_starts[row]]
    if blank.strip():
        return "", row
    first, node = ctx.doc_comments[row - 2]
    indent = loc.outer_start - ctx.line_starts[row]
    if not text(node).startswith("/**") or node.start_point[1] != indent:
        return "", row
    return clean_comment(text(node).rstrip()), first


_LINE_MARK = re.compile(r"^\s*(?:/\*+!?|\*+/|\*+(?!/)|///?!?|#!?)\s?")
_TAIL_MARK = re.compile(r"\s*\*+/\s*$")
_XML_TAG = re.compile(r"</?(?:summary|remarks|returns|para)>")


def clean_comment(raw: str) -> str:
    """Comment text without ``//``, ``/* */``, ``*``, ``#``, ``///`` markers."""
    lines = []
    for line in raw.splitlines():
        line = _TAIL_MARK.sub("", line)
        line = _LINE_MARK.sub("", line, count=1)
        lines.append(_XML_TAG.sub("", line).rstrip())
    return inspect.cleandoc("\n".join(lines)).strip()
