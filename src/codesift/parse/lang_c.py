"""C and C++: function definitions, struct/union/enum/class specifiers with a body.

Prototypes and forward declarations are not definitions. ``int A::f() {}`` is a method of
``A``; namespaces are transparent (qualified names stay ``Class.method``).
"""

from __future__ import annotations

from tree_sitter import Node

from codesift.parse.base import Classifier, Def, LangSpec, text

# Declarator wrappers between a function_definition and its function_declarator.
_DECLARATOR_WRAPPERS = frozenset(
    {"pointer_declarator", "reference_declarator", "parenthesized_declarator",
     "attributed_declarator"}
)  # fmt: skip


def _declared_name(node: Node) -> Node | None:
    """The name node a function_definition declares, through pointers / parentheses."""
    decl = node.child_by_field_name("declarator")
    is_function = False
    for _ in range(64):  # declarators nest shallowly; bound the walk anyway
        if decl is None:
            return None
        if decl.type == "function_declarator":
            is_function = True
        elif decl.type not in _DECLARATOR_WRAPPERS:
            return decl if is_function else None
        inner = decl.child_by_field_name("declarator")
        if inner is None and decl.named_child_count:
            inner = decl.named_children[-1] if decl.type != "function_declarator" else None
        decl = inner
    return None


def _function(node: Node) -> Def | None:
    target = _declared_name(node)
    if target is None:
        return None
    parent = None
    if target.type == "qualified_identifier":
        # ns::Widget::compute -> name "compute", parent "Widget"
        scopes: list[str] = []
        while target is not None and target.type == "qualified_identifier":
            scope = target.child_by_field_name("scope")
            if scope is not None:
                scopes.append(text(scope).split("<", 1)[0])
            target = target.child_by_field_name("name")
        if target is None:
            return None
        parent = scopes[-1] if scopes and scopes[-1] else None
    if target.type == "template_function":  # f<int>() specialisation: the name is `f`
        target = target.child_by_field_name("name") or target
    name = text(target).strip()
    if not name:
        return None
    return Def(node, "function", name, parent=parent)


def _record(kind: str) -> Classifier:
    def classify(node: Node) -> Def | None:
        body = node.child_by_field_name("body")
        if body is None:
            return None  # forward declaration or use as a type
        name = text(node.child_by_field_name("name"))
        outer = None
        holder = node.parent
        if holder is not None and holder.type == "type_definition":
            outer = holder  # typedef struct {...} name_t;
            if not name:
                name = text(holder.child_by_field_name("declarator"))
        if not name:
            return None
        return Def(node, kind, name.strip(), body=body, outer=outer)

    return classify


_CUSTOM = {
    "function_definition": _function,
    "struct_specifier": _record("struct"),
    "union_specifier": _record("struct"),
    "enum_specifier": _record("enum"),
}

C_SPEC = LangSpec(custom=_CUSTOM)
CPP_SPEC = LangSpec(
    custom={**_CUSTOM, "class_specifier": _record("class")},
    prefix_wrappers=frozenset({"template_declaration"}),
    decorators=frozenset({"attribute_declaration"}),
)
