"""JavaScript / TypeScript / TSX definitions.

Besides declarations this recognises the assignment forms JS code is full of:
``const f = () => ...``, ``exports.f = function``, ``Foo.prototype.f = function``, class fields
holding arrows, consts made by calling a plain function on a function (``const h =
defineEventHandler(async (event) => ...)``) or an imported module's function on one
(``core.$constructor("X", (inst) => ...)``), object-literal functions, Express-style
``app.get('/x', handler)`` routes, and module-level calls that define a property from a function
(``defineGetter(req, 'protocol', function protocol() {...})``, ``app.use(function logger(req, res,
next) {...})``).
"""

from __future__ import annotations

import re
from dataclasses import replace

from tree_sitter import Node

from codesift.parse.base import Def, LangSpec, text

FUNCTION_VALUES = frozenset(
    {"arrow_function", "function_expression", "function", "generator_function"}
)
_WRAPPING_CALLS = frozenset({"memo", "forwardRef", "React.memo", "React.forwardRef"})
_ROUTE_VERBS = {
    "get": "GET", "post": "POST", "put": "PUT", "delete": "DELETE", "patch": "PATCH",
    "head": "HEAD", "options": "OPTIONS", "all": "ANY", "use": "USE",
}  # fmt: skip
# Objects whose .get('/x', fn) is a server route, not an HTTP client call or jQuery.
_ROUTER_OBJECT = re.compile(r"(?:^|\.)(?:\w*(?:app|App|router|Router|server|Server|routes?)|api)$")


def _unwrap(value: Node | None) -> Node | None:
    """The function or class a declarator's value really is (``memo(() => ...)`` included)."""
    while value is not None and value.type in ("parenthesized_expression", "as_expression"):
        value = value.named_children[0] if value.named_child_count else None
    if value is not None and value.type == "call_expression":
        function = value.child_by_field_name("function")
        callee = text(function)
        args = value.child_by_field_name("arguments")
        if callee in _WRAPPING_CALLS and args is not None and args.named_child_count:
            return _unwrap(args.named_children[0])
        # ``defineEventHandler(async (event) => ...)``, ``debounce(function save() {...}, 100)``: a plain
        # function called on a function makes one (a method call such as ``items.map(fn)`` makes data).
        if function is not None and function.type == "identifier" and args is not None:
            return next((a for a in args.named_children if a.type in FUNCTION_VALUES), None)
        # The same through a module the file imports (``core.$constructor("X", (inst) => ...)`` in zod,
        # ``_.debounce(fn)``); a call on a variable (``items.map(fn)``) still makes data.
        if function is not None and function.type == "member_expression" and args is not None:
            owner = function.child_by_field_name("object")
            if owner is not None and owner.type == "identifier" and text(owner) in _imported_names(value):
                return next((a for a in args.named_children if a.type in FUNCTION_VALUES), None)
        return None
    return value


# Parse tree root's id → (the root, its imported names). Holding the root keeps its tree alive, so a later
# tree cannot be given the same id while the entry is here.
_IMPORTS: dict[int, tuple[Node, frozenset[str]]] = {}


def _imported_names(node: Node) -> frozenset[str]:
    """The names the file of ``node`` binds to imported modules (``import * as core``, ``import _``,
    ``import { z }``, a top-level ``const x = require(...)``); computed once per parse tree."""
    root = node
    while root.parent is not None:
        root = root.parent
    cached = _IMPORTS.get(root.id)
    if cached is not None:
        return cached[1]
    names: set[str] = set()
    for stmt in root.named_children:
        if stmt.type == "import_statement":
            clause = next((c for c in stmt.named_children if c.type == "import_clause"), None)
            stack = list(clause.named_children) if clause is not None else []
            while stack:
                n = stack.pop()
                if n.type == "identifier":
                    names.add(text(n))
                elif n.type in ("namespace_import", "named_imports"):
                    stack.extend(n.named_children)
                elif n.type == "import_specifier":
                    alias = n.child_by_field_name("alias") or n.child_by_field_name("name")
                    if alias is not None:
                        names.add(text(alias))
        elif stmt.type in ("lexical_declaration", "variable_declaration"):
            for d in stmt.named_children:
                value = d.child_by_field_name("value") if d.type == "variable_declarator" else None
                name = d.child_by_field_name("name") if d.type == "variable_declarator" else None
                if (value is not None and name is not None and name.type == "identifier"
                        and value.type == "call_expression"
                        and text(value.child_by_field_name("function")) == "require"):
                    names.add(text(name))
    if len(_IMPORTS) > 16:
        _IMPORTS.clear()
    found = frozenset(names)
    _IMPORTS[root.id] = (root, found)
    return found


def _value_def(node: Node, name: str, value: Node | None, *, outer: Node | None = None,
               parent: str | None = None) -> Def | None:
    value = _unwrap(value)
    if value is None or not name:
        return None
    if value.type in FUNCTION_VALUES:
        return Def(node, "function", name, body=value.child_by_field_name("body"), outer=outer, parent=parent)
    if value.type == "class":
        return Def(node, "class", name, body=value.child_by_field_name("body"), outer=outer, parent=parent)
    return None


def _declarator(node: Node) -> Def | None:
    name = node.child_by_field_name("name")
    if name is None or name.type != "identifier":
        return None  # destructuring patterns define no single symbol
    decl = node.parent
    outer = None
    if decl is not None and decl.type in ("lexical_declaration", "variable_declaration"):
        declarators = [c for c in decl.named_children if c.type == "variable_declarator"]
        if len(declarators) == 1:
            outer = decl
    return _value_def(node, text(name), node.child_by_field_name("value"), outer=outer)


def _assignment(node: Node) -> Def | None:
    left = node.child_by_field_name("left")
    right = node.child_by_field_name("right")
    if left is None or left.type not in ("identifier", "member_expression"):
        return None
    parts = [p.strip() for p in text(left).split(".")]
    if parts[:2] == ["module", "exports"]:
        parts = parts[2:]
    elif parts[:1] in (["exports"], ["this"]):
        parts = parts[1:]
    parts = [p for p in parts if p != "prototype"]
    if not parts:
        own = _unwrap(right)
        own_name = own.child_by_field_name("name") if own is not None else None
        parts = [text(own_name) or "module.exports"]
    if not all(re.fullmatch(r"[\w$]+", p) for p in parts):
        return None  # computed members, calls in the chain, ...
    stmt = node.parent
    outer = stmt if stmt is not None and stmt.type == "expression_statement" else None
    parent = ".".join(parts[:-1]) or None
    return _value_def(node, parts[-1], right, outer=outer, parent=parent)


def _field(node: Node) -> Def | None:
    name = node.child_by_field_name("property") or node.child_by_field_name("name")
    return _value_def(node, text(name), node.child_by_field_name("value"))


def _object_owner(obj: Node | None) -> str | None:
    """``api`` for the object literal in ``const api = {...}`` / ``exports.api = {...}``."""
    if obj is None or obj.type != "object" or obj.parent is None:
        return None
    holder = obj.parent
    if holder.type == "variable_declarator":
        name = holder.child_by_field_name("name")
        return text(name) if name is not None and name.type == "identifier" else None
    if holder.type == "assignment_expression":
        parts = [p.strip() for p in text(holder.child_by_field_name("left")).split(".")]
        parts = [p for p in parts if p not in ("module", "exports", "this", "prototype")]
        if parts and all(re.fullmatch(r"[\w$]+", p) for p in parts):
            return ".".join(parts)
    return None


def _pair(node: Node) -> Def | None:
    key = node.child_by_field_name("key")
    if key is None or key.type not in ("property_identifier", "string", "identifier"):
        return None
    name = text(key).strip("'\"")
    value = node.child_by_field_name("value")
    return _value_def(node, name, value, parent=_object_owner(node.parent))


def _method(node: Node) -> Def | None:
    name = text(node.child_by_field_name("name"))
    if not name:
        return None
    return Def(node, "function", name, parent=_object_owner(node.parent))


def _string_arg(node: Node) -> str | None:
    if node.type == "string":
        return text(node)[1:-1]
    if node.type == "template_string" and not any(
        c.type == "template_substitution" for c in node.named_children
    ):
        return text(node)[1:-1]
    return None


def _arg_values(call: Node) -> list[Node]:
    """A call's arguments, comments left out."""
    args = call.child_by_field_name("arguments")
    return [a for a in args.named_children if a.type != "comment"] if args is not None else []


def _express_route(node: Node) -> Def | None:
    """``app.get('/x', function (req, res) {...})`` -> a function chunk with ``route``."""
    callee = node.child_by_field_name("function")
    if callee is None or callee.type != "member_expression" or node.child_by_field_name("arguments") is None:
        return None
    verb = _ROUTE_VERBS.get(text(callee.child_by_field_name("property")))
    if verb is None or not _ROUTER_OBJECT.search(text(callee.child_by_field_name("object"))):
        return None
    values = _arg_values(node)
    if len(values) < 2:
        return None
    path = _string_arg(values[0])
    if path is None or not (path.startswith("/") or path == "*"):
        return None
    route = f"{verb} {path}"
    handler = values[-1]
    if handler.type in ("identifier", "member_expression"):
        name = text(handler).rsplit(".", 1)[-1]
        return Def(node, "function", name, route=route, ref_only=True)
    if handler.type not in FUNCTION_VALUES:
        return None
    stmt = node.parent
    outer = stmt if stmt is not None and stmt.type == "expression_statement" else None
    name = text(handler.child_by_field_name("name")) or route
    return Def(node, "function", name, body=handler.child_by_field_name("body"), outer=outer,
               route=route)  # fmt: skip


def _defining_call(node: Node) -> Def | None:
    """A statement-level call at module scope whose function argument defines something with a name:
    ``define(obj, 'name', function ...)`` is ``obj.name``; any other call's *named* function expression is
    that name. An anonymous callback after a string alone (``describe('x', () => ...)``,
    ``emitter.on('data', fn)``) defines nothing."""
    stmt = node.parent
    if stmt is None or stmt.type != "expression_statement" or stmt.parent is None or stmt.parent.type != "program":
        return None
    values = _arg_values(node)
    at = next((i for i in range(len(values) - 1, -1, -1) if values[i].type in FUNCTION_VALUES), None)
    if at is None:
        return None
    fn, before = values[at], values[:at]
    own = text(fn.child_by_field_name("name"))
    parent = None
    if len(before) >= 2 and before[-2].type in ("identifier", "member_expression"):
        key = _string_arg(before[-1]) or ""
        if re.fullmatch(r"[A-Za-z_$][\w$]*", key) and re.fullmatch(r"[\w$.]+", text(before[-2])):
            parent, own = text(before[-2]), key
    if not own:
        return None
    return Def(node, "function", own, body=fn.child_by_field_name("body"), outer=stmt, parent=parent)


def _call(node: Node) -> Def | None:
    """A route (:func:`_express_route`), else a defining call (:func:`_defining_call`)."""
    return _express_route(node) or _defining_call(node)


_KINDS = {
    "function_declaration": "function",
    "generator_function_declaration": "function",
    "class_declaration": "class",
    # TypeScript only (absent node types are skipped when the query is built)
    "abstract_class_declaration": "class",
    "interface_declaration": "interface",
    "type_alias_declaration": "type",
    "enum_declaration": "enum",
}
_CUSTOM = {
    "variable_declarator": _declarator,
    "assignment_expression": _assignment,
    "field_definition": _field,
    "public_field_definition": _field,
    "pair": _pair,
    "method_definition": _method,
    "call_expression": _call,
}

JS_SPEC = LangSpec(
    kinds=_KINDS,
    custom=_CUSTOM,
    wrappers=frozenset({"export_statement"}),
    decorators=frozenset({"decorator"}),
    sibling_decorators=frozenset({"decorator"}),
    comments=frozenset({"comment", "html_comment"}),
    name_types=frozenset({"identifier", "type_identifier", "property_identifier"}),
)
TS_SPEC = replace(JS_SPEC, overloads=frozenset({"function_signature", "method_signature"}))
