"""Go, Java, C#, Kotlin and PHP: mostly plain ``node type -> kind`` tables."""

from __future__ import annotations

import re

from tree_sitter import Node

from codesift.parse.base import Def, LangSpec, child_of_type, text, type_base_name

# --- Go -------------------------------------------------------------------------------------


def _go_method(node: Node) -> Def | None:
    name = text(node.child_by_field_name("name"))
    receiver = node.child_by_field_name("receiver")
    parent = None
    if receiver is not None:
        param = child_of_type(receiver, {"parameter_declaration"})
        if param is not None:
            parent = type_base_name(text(param.child_by_field_name("type"))) or None
    return Def(node, "function", name, parent=parent) if name else None


def _go_type(node: Node) -> Def | None:
    name = text(node.child_by_field_name("name"))
    if not name:
        return None
    value = node.child_by_field_name("type")
    kind = {"struct_type": "struct", "interface_type": "interface"}.get(
        value.type if value is not None else "", "type"
    )
    body = None
    if value is not None and kind != "type":
        body = next((c for c in value.children if c.type in ("{", "field_declaration_list")), None)
    decl = node.parent
    outer = None
    if decl is not None and decl.type == "type_declaration":
        specs = [c for c in decl.named_children if c.type in ("type_spec", "type_alias")]
        if len(specs) == 1:
            outer = decl  # `type X struct` owns the `type` keyword line
    return Def(node, kind, name, body=body, outer=outer)


def _go_var(node: Node) -> Def | None:
    """``var exit = func(code int) {...}`` at package level: a function under a variable's name (the
    Go way to make one replaceable, in tests say)."""
    decl = node.parent.parent if node.parent is not None and node.parent.type == "var_spec_list" else node.parent
    if decl is None or decl.type != "var_declaration" or decl.parent is None or decl.parent.type != "source_file":
        return None
    names = [c for c in node.children_by_field_name("name") if c.type == "identifier"]
    value = node.child_by_field_name("value")
    values = [c for c in value.named_children if c.type != "comment"] if value is not None else []
    if len(names) != 1 or len(values) != 1 or values[0].type != "func_literal":
        return None
    # `var f = func` owns the `var` line
    outer = decl if node.parent is not None and node.parent.type == "var_declaration" else None
    return Def(node, "function", text(names[0]), body=values[0].child_by_field_name("body"), outer=outer)


GO_SPEC = LangSpec(
    kinds={"function_declaration": "function"},
    custom={"method_declaration": _go_method, "type_spec": _go_type, "type_alias": _go_type,
            "var_spec": _go_var},
)

# --- Java -----------------------------------------------------------------------------------

def _java_enum_constant(node: Node) -> Def | None:
    """An enum constant with a body (``InBody { boolean process(...) {...} }``, a state machine's states) is a
    class of its own: its methods are ``HtmlTreeBuilderState.InBody.process``, not 25 namesakes
    ``HtmlTreeBuilderState.process``. A constant without a body is part of its enum."""
    body = node.child_by_field_name("body")
    name = text(node.child_by_field_name("name"))
    return Def(node, "class", name, body=body) if body is not None and name else None


JAVA_SPEC = LangSpec(
    custom={"enum_constant": _java_enum_constant},
    kinds={
        "class_declaration": "class",
        "interface_declaration": "interface",
        "enum_declaration": "enum",
        "record_declaration": "class",
        "annotation_type_declaration": "interface",
        "method_declaration": "function",
        "constructor_declaration": "function",
        "compact_constructor_declaration": "function",
    },
    decorators=frozenset({"marker_annotation", "annotation"}),
    modifiers=frozenset({"modifiers"}),
    comments=frozenset({"line_comment", "block_comment"}),
)

# --- C# -------------------------------------------------------------------------------------

def _csharp_record(node: Node) -> Def | None:
    """``record struct R(...)`` is a struct, ``record R(...)`` / ``record class R(...)`` a class."""
    name = text(node.child_by_field_name("name"))
    kind = "struct" if any(c.type == "struct" for c in node.children) else "class"
    return Def(node, kind, name) if name else None


def _csharp_property(node: Node) -> Def | None:
    """A property whose accessors run code (``get { ... }``, ``=> expr``) is a method under its own name; an
    auto-property (``{ get; set; }``) stores a value, as a field does, and stays part of its type."""
    return _csharp_accessors(node, text(node.child_by_field_name("name")))


def _csharp_indexer(node: Node) -> Def | None:
    """``public JToken this[object key] { get { … } }``: the indexer is ``this[]``, as an operator is named by
    its symbol."""
    return _csharp_accessors(node, "this[]")


def _csharp_accessors(node: Node, name: str) -> Def | None:
    accessors = node.child_by_field_name("accessors")
    value = node.child_by_field_name("value")
    arrow = value is not None and value.type == "arrow_expression_clause"
    bodies = accessors is not None and any(
        c.child_by_field_name("body") is not None or child_of_type(c, {"arrow_expression_clause"}) is not None
        for c in accessors.named_children
    )
    if not name or not (arrow or bodies):
        return None
    return Def(node, "function", name, body=accessors if accessors is not None else value)


def _csharp_operator(node: Node) -> Def | None:
    """``operator +(A a, A b)`` is ``operator+``, as C++ names it; ``explicit operator bool(JToken v)`` is
    ``operator bool``."""
    if node.type == "conversion_operator_declaration":
        name = f"operator {text(node.child_by_field_name('type')).strip()}"
    else:
        name = f"operator{text(node.child_by_field_name('operator')).strip()}"
    return Def(node, "function", name) if name.strip() != "operator" else None


CSHARP_SPEC = LangSpec(
    custom={"record_declaration": _csharp_record, "property_declaration": _csharp_property,
            "operator_declaration": _csharp_operator, "conversion_operator_declaration": _csharp_operator,
            "indexer_declaration": _csharp_indexer},
    kinds={
        "class_declaration": "class",
        "struct_declaration": "struct",
        "interface_declaration": "interface",
        "enum_declaration": "enum",
        "record_struct_declaration": "struct",
        "method_declaration": "function",
        "constructor_declaration": "function",
        "destructor_declaration": "function",
        "local_function_statement": "function",
    },
    decorators=frozenset({"attribute_list"}),
    comments=frozenset({"comment"}),
)

# --- Kotlin ---------------------------------------------------------------------------------


def _kotlin_class(node: Node) -> Def | None:
    name_node = node.child_by_field_name("name")
    name = text(name_node or child_of_type(node, {"identifier", "type_identifier"}))
    if not name:
        return None
    kind = "class"
    if any(c.type == "interface" for c in node.children):
        kind = "interface"
    else:
        modifiers = child_of_type(node, {"modifiers"})
        if modifiers is not None and any(
            text(c) == "enum" for c in modifiers.children if c.type == "class_modifier"
        ):
            kind = "enum"
    return Def(node, kind, name)


def _kotlin_enum_entry(node: Node) -> Def | None:
    """As in Java (:func:`_java_enum_constant`): an enum entry with a body is the scope of its methods."""
    body = child_of_type(node, {"class_body"})
    name = child_of_type(node, {"identifier", "simple_identifier"})
    return Def(node, "class", text(name), body=body) if body is not None and name is not None else None


def _kotlin_receiver(node: Node, name: Node) -> str | None:
    """``ImageRequest.Builder`` of ``fun ImageRequest.Builder.crossfade()``, ``Map`` of ``fun <K, V> Map<K, V>.x()``,
    ``Context`` of ``fun Context?.x()``: the type an extension function is called on, or None."""
    receiver = None
    for child in node.named_children:
        if child.start_byte >= name.start_byte:
            break
        if child.type in ("user_type", "nullable_type"):
            receiver = child
    if receiver is None:
        return None
    raw = text(receiver)
    while "<" in raw:  # generic arguments, innermost first
        stripped = re.sub(r"<[^<>]*>", "", raw)
        if stripped == raw:
            break
        raw = stripped
    raw = re.sub(r"\s+", "", raw).rstrip("?")
    return raw if re.fullmatch(r"[A-Za-z_][\w.]*", raw) else None


def _kotlin_function(node: Node) -> Def | None:
    """A top-level extension function (``fun Buffer.readUtf8()``) is its receiver type's: parent ``Buffer``,
    found as ``Buffer.readUtf8``. One declared in a class stays that class's member."""
    name_node = node.child_by_field_name("name") or child_of_type(node, {"identifier", "simple_identifier"})
    name = text(name_node)
    if name_node is None or not name:
        return None
    top_level = node.parent is not None and node.parent.type == "source_file"
    parent = _kotlin_receiver(node, name_node) if top_level else None
    return Def(node, "function", name, parent=parent)


KOTLIN_SPEC = LangSpec(
    kinds={"object_declaration": "class"},
    custom={"class_declaration": _kotlin_class, "enum_entry": _kotlin_enum_entry,
            "function_declaration": _kotlin_function},
    decorators=frozenset({"annotation"}),
    modifiers=frozenset({"modifiers"}),
    sibling_decorators=frozenset({"annotated_expression"}),
    bodies=frozenset({"class_body", "enum_class_body", "function_body"}),
    comments=frozenset({"line_comment", "block_comment", "comment"}),
    name_types=frozenset({"identifier", "simple_identifier", "type_identifier"}),
)

# --- PHP ------------------------------------------------------------------------------------

_PHP_CLOSURES = frozenset(
    {"anonymous_function", "anonymous_function_creation_expression", "arrow_function"}
)


def _php_closure(node: Node) -> Def | None:
    """``$handler = function (...) {...};`` defines ``handler``."""
    left = node.child_by_field_name("left")
    right = node.child_by_field_name("right")
    if left is None or right is None or left.type != "variable_name":
        return None
    if right.type not in _PHP_CLOSURES:
        return None
    stmt = node.parent
    outer = stmt if stmt is not None and stmt.type == "expression_statement" else None
    body = right.child_by_field_name("body")
    return Def(node, "function", text(left).lstrip("$"), body=body, outer=outer)


PHP_SPEC = LangSpec(
    kinds={
        "class_declaration": "class",
        "interface_declaration": "interface",
        "trait_declaration": "trait",
        "enum_declaration": "enum",
        "function_definition": "function",
        "method_declaration": "function",
    },
    custom={"assignment_expression": _php_closure},
    decorators=frozenset({"attribute_list"}),
    comments=frozenset({"comment"}),
    name_types=frozenset({"name"}),
)
