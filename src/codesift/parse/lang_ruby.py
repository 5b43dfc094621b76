"""Ruby: classes, modules (kind ``module_def``), methods, ``def self.x``, Sinatra routes."""

from __future__ import annotations

from tree_sitter import Node

from codesift.parse.base import Classifier, Def, LangSpec, text

_SINATRA_VERBS = frozenset({"get", "post", "put", "delete", "patch", "head", "options"})


def _class_like(kind: str) -> Classifier:
    def classify(node: Node) -> Def | None:
        name = text(node.child_by_field_name("name"))
        # class Foo::Bar -> Bar under Foo (a namespace, not a definition in this file); ::Bar is top-level
        scope, _, name = name.strip().lstrip(":").rpartition("::")
        namespace = ".".join(p for p in scope.split("::") if p) or None
        return Def(node, kind, name.strip(), namespace=namespace) if name.strip() else None

    return classify


def _singleton_method(node: Node) -> Def | None:
    name = text(node.child_by_field_name("name"))
    return Def(node, "function", name) if name else None


def _sinatra_route(node: Node) -> Def | None:
    """``get '/hi' do ... end`` at any level -> a function chunk named ``GET /hi``."""
    if node.child_by_field_name("receiver") is not None:
        return None
    verb = text(node.child_by_field_name("method"))
    block = node.child_by_field_name("block")
    args = node.child_by_field_name("arguments")
    if verb not in _SINATRA_VERBS or block is None or args is None or not args.named_child_count:
        return None
    first = args.named_children[0]
    if first.type != "string":
        return None
    path = text(first)[1:-1]
    if not path.startswith("/"):
        return None
    route = f"{verb.upper()} {path}"
    return Def(node, "function", route, route=route, body=block)


RUBY_SPEC = LangSpec(
    kinds={"method": "function"},
    custom={
        "class": _class_like("class"),
        "module": _class_like("module_def"),
        "singleton_method": _singleton_method,
        "call": _sinatra_route,
    },
)
