"""C and C++: function definitions, function-like macros, struct/union/enum/class specifiers with a body.

Prototypes and forward declarations are not definitions. ``int A::f() {}`` is a method of
``A``; namespaces are transparent (qualified names stay ``Class.method``; a lookup reads them from the file).
Export and inline macros (``SPDLOG_INLINE void f()``, ``class SPDLOG_API logger``) are blanked before parsing
(:func:`mask_macros`): tree-sitter cannot know they expand to nothing.
"""

from __future__ import annotations

import re

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
        if _is_conversion(decl):  # `operator bool() const`, `B::operator int()`: no function_declarator
            return decl
        if decl.type == "function_declarator":
            is_function = True
        elif decl.type not in _DECLARATOR_WRAPPERS:
            return decl if is_function else None
        inner = decl.child_by_field_name("declarator")
        if inner is None and decl.named_child_count:
            inner = decl.named_children[-1] if decl.type != "function_declarator" else None
        decl = inner
    return None


def _is_conversion(decl: Node) -> bool:
    while decl.type == "qualified_identifier":
        name = decl.child_by_field_name("name")
        if name is None:
            return False
        decl = name
    return decl.type == "operator_cast"


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
    if target.type == "operator_cast":
        return Def(node, "function", f"operator {text(target.child_by_field_name('type')).strip()}", parent=parent)
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


def _macro(node: Node) -> Def | None:
    """``#define luaL_checkint(L,n) ...``: a function-like macro is called like a function."""
    name = text(node.child_by_field_name("name")).strip()
    return Def(node, "function", name, body=node.child_by_field_name("value")) if name else None


_CUSTOM = {
    "function_definition": _function,
    "preproc_function_def": _macro,
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


# An all-caps word (3+ characters) is a macro when it stands where no type or name can.
_CAPS = rb"[A-Z][A-Z0-9_]{2,}"
# Leading the line of a declaration: ``SPDLOG_INLINE void f(``, ``LUA_API int g (``, ``SPDLOG_INLINE A::A(``.
_LEADING = re.compile(rb"^[ \t]*((?:" + _CAPS + rb"[ \t]+)+)([^\n;=()#]*?)\(", re.M)
# Between a class keyword and its name: ``class SPDLOG_API logger : public x {``.
_CLASS_MACRO = re.compile(
    rb"\b(?:class|struct|union)[ \t]+(" + _CAPS + rb")(?=[ \t]+\w+[ \t]*(?:final\b[ \t]*)?(?:[:{]|$))", re.M)
# After a parameter list: ``) const SPDLOG_NOEXCEPT {``.
_TRAILING = re.compile(rb"\)[ \t]*(?:const[ \t]+)?(" + _CAPS + rb")(?=[ \t]*(?:[{;:=]|$))", re.M)
_TOKEN = re.compile(rb"[\w:~]+")
# Alone on its line or before a block: a statement macro (``SPDLOG_TRY {`` … ``SPDLOG_CATCH_STD``) that
# otherwise breaks the parse of every function after it.
_BARE = re.compile(rb"^[ \t]*([A-Z][A-Z0-9]*_[A-Z0-9_]+)[ \t]*(?=\{|\n|$)", re.M)
# Between a return type and the name: ``void SPDLOG_INLINE thread_pool::post_log(``; an underscore tells the
# macro from an all-caps type (``static BOOL f(`` keeps ``BOOL``).
_MIDDLE = re.compile(rb"^[ \t]*[\w:<>,*&]+[^\n;=()#{}]*?[ \t*&]((?:[A-Z][A-Z0-9]*_[A-Z0-9_]+))[ \t]+[~\w:]+[ \t]*\(",
                     re.M)


def mask_macros(src: bytes) -> bytes:
    """``src`` with export/inline/noexcept macros blanked to spaces (offsets and lines unchanged). A leading
    run of them goes only while a return type or a ``Class::`` name is left before the ``(``: ``BOOL f(``
    keeps ``BOOL``, its return type."""
    if not re.search(_CAPS, src):
        return src
    out = bytearray(src)
    for m in _LEADING.finditer(src):
        words = list(re.finditer(_CAPS, m.group(1)))
        rest = m.group(2)
        typed = len(_TOKEN.findall(rest)) >= 2 or b"::" in rest or rest.rstrip().endswith((b"*", b"&"))
        keep = 0 if typed else 1
        for w in words[: len(words) - keep]:
            start = m.start(1) + w.start()
            out[start : start + len(w.group())] = b" " * len(w.group())
    for pattern in (_CLASS_MACRO, _TRAILING, _MIDDLE, _BARE):
        for m in pattern.finditer(src):
            out[m.start(1) : m.end(1)] = b" " * (m.end(1) - m.start(1))
    return bytes(out)
