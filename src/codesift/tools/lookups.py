"""What the reference resolver (:mod:`codesift.tools.targets`) asks the index about types and functions.

Each lookup is a function of one name, memoised for one answer: a type's bases (the ones its signature
names), what its body mixes in (Ruby ``include``/``extend``/``prepend``, PHP ``use Trait;``), the types that
mix a module or trait in (where its methods run), and the one type a function is declared to return. A type
asked for by its qualified name (``Rack.Auth.Basic.Request``) is that definition, when the index has it; by its
short name, every definition of that name.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

from codesift.languages import language_for
from codesift.store.refs import ScopeRow
from codesift.tools.targets import TYPE_KINDS, base_names, last_name, return_type, ruby_superclass

if TYPE_CHECKING:  # pragma: no cover
    from codesift.tools.base import Workspace

_CLASS_KINDS = ("class", "struct", "interface", "trait", "module_def")  # what can have bases or mix others in
_MIXABLE = frozenset({"module_def", "trait"})  # what a body can mix in (Ruby modules, PHP traits)


def innermost_type(scopes: list[ScopeRow], line: int) -> ScopeRow | None:
    """The narrowest type definition (class, module, trait, …) of a file around ``line``."""
    around = [s for s in scopes if s[3] in TYPE_KINDS and s[0] <= line <= s[1]]
    return min(around, key=lambda s: s[1] - s[0], default=None)


def _span(scope: ScopeRow | None) -> tuple[int, int] | None:
    return (scope[0], scope[1]) if scope is not None else None


class _TypeDef(NamedTuple):
    qualified_name: str
    kind: str
    language: str
    signature: str
    path: str
    start: int
    end: int


class _Types:
    """The definitions of a type name and the files' scopes, read once per answer."""

    def __init__(self, ws: "Workspace") -> None:
        self.ws = ws
        self.scopes: dict[str, list[ScopeRow]] = {}
        self.named: dict[str, list[_TypeDef]] = {}

    def scopes_of(self, path: str) -> list[ScopeRow]:
        if path not in self.scopes:
            self.scopes[path] = self.ws.store.ref_scopes([path]).get(path, [])
        return self.scopes[path]

    def all_named(self, short: str) -> list[_TypeDef]:
        if short not in self.named:
            self.named[short] = [_TypeDef(q, kind, lang or "", sig or "", path, start, end)
                                 for name, q, kind, lang, sig, path, start, end
                                 in self.ws.store.spans_named(short, _CLASS_KINDS) if name == short]
        return self.named[short]

    def definitions(self, type_name: str) -> list[_TypeDef]:
        """The type's definitions: the one of that qualified name, if the index has it, else all of its name."""
        rows = self.all_named(last_name(type_name))
        exact = [r for r in rows if r.qualified_name == type_name] if "." in type_name else []
        return exact or rows

    def mixed_in(self, d: _TypeDef) -> list[str]:
        """What a type's body mixes in (``include Env``), in the order written: the references it inherits that
        its signature does not name and that no type nested in it holds, each as :meth:`named_in` gives it."""
        named = base_names(d.signature)
        return [t for ref, line, kind, qualifier in self.ws.store.ref_file_sites(d.path)
                if kind == "inherit" and d.start <= line <= d.end and ref not in named
                and _span(innermost_type(self.scopes_of(d.path), line)) == (d.start, d.end)
                for t in self.named_in(d, ref, qualifier, inside=True)]

    def bases(self, d: _TypeDef) -> list[str]:
        """The bases ``d``'s signature names, each as :meth:`named_in` gives it."""
        written = ruby_superclass(d.signature) if d.language == "ruby" else ""
        if not written:
            return base_names(d.signature)
        return self.named_in(d, last_name(written), written.rpartition("::")[0], inside=False)

    def named_in(self, d: _TypeDef, name: str, written: str, *, inside: bool) -> list[str]:
        """The type ``name`` as Ruby code of ``d`` means it (in its body, ``inside``, or in its signature; under
        the module path ``written``, ``Abstract`` in ``Abstract::Persisted``): the qualified names of the
        definitions a constant lookup from there can reach (``Document`` inside ``module Kramdown`` is not
        ``Jekyll::Document``), none when the index has others only. Elsewhere, and for a name the index does
        not define, the name itself."""
        found = self.all_named(name)
        if d.language != "ruby" or not found:
            return [name]
        around = d.qualified_name.split(".")[: None if inside else -1]
        path = written.replace("::", ".").strip(".")
        spaces = {".".join(p for p in [".".join(around[:i]), path] if p) for i in range(len(around) + 1)}
        return [t.qualified_name for t in found if t.qualified_name.rpartition(".")[0] in spaces]


def _bases_lookup(types: _Types) -> Callable[[str], list[str]]:
    """type name → the base types its definitions' signatures name (``class Sub(Base)``, ``class A < B``)."""
    memo: dict[str, list[str]] = {}

    def bases_of(type_name: str) -> list[str]:
        if type_name not in memo:
            memo[type_name] = list(dict.fromkeys(b for d in types.definitions(type_name) for b in types.bases(d)))
        return memo[type_name]

    return bases_of


def _mixins_lookup(types: _Types) -> Callable[[str], list[str]]:
    """type name → what its definitions' bodies mix in (``include Env``, ``use LoggerTrait;``), the last first:
    Ruby looks a method up in the module included last first."""
    memo: dict[str, list[str]] = {}

    def mixins_of(type_name: str) -> list[str]:
        if type_name not in memo:
            memo[type_name] = list(dict.fromkeys(m for d in types.definitions(type_name)
                                                 for m in reversed(types.mixed_in(d))))
        return memo[type_name]

    return mixins_of


def _includers_lookup(types: _Types) -> Callable[[str], list[str]]:
    """module or trait name → the qualified names of the types whose bodies mix it in (``include Helpers``
    inside ``class Request``): where its methods run, and so whose members a bare call inside it may reach. A
    base class named in a signature is not mixed in: its subclasses' members are not its own."""
    memo: dict[str, list[str]] = {}

    def includers_of(type_name: str) -> list[str]:
        if type_name not in memo:
            short = last_name(type_name)
            names: list[str] = []
            # only a module or a trait is mixed in (a class of the same short name is not: ``include Options``
            # inside ``EMHttp`` means its own module, not ``Faraday::Options``)
            wanted = [d for d in types.definitions(type_name) if d.kind in _MIXABLE]
            for _, path, line, kind, qualifier in types.ws.store.ref_sites(short) if wanted else []:
                inner = innermost_type(types.scopes_of(path), line) if kind == "inherit" else None
                if inner is None or short in base_names(inner[5] or "") or last_name(inner[2]) == short:
                    continue
                includer = _TypeDef(inner[2], inner[3], language_for(path) or "", inner[5] or "", path, *inner[:2])
                meant = types.named_in(includer, short, qualifier, inside=True)
                if any(d.qualified_name in meant for d in wanted) or short in meant:
                    names.append(inner[2])  # qualified: that type's own bases and mixins
            memo[type_name] = list(dict.fromkeys(names))
        return memo[type_name]

    return includers_of


def _returns_lookup(ws: "Workspace") -> Callable[[str], str]:
    """function name → the one type its definitions say they return ("" when none or several)."""
    memo: dict[str, str] = {}

    def returns_of(function: str) -> str:
        if function not in memo:
            rows = ws.store.signatures_named(function, ("function", "method"))
            types = {return_type(sig or "", lang or "", parent) for name, sig, parent, lang in rows if name == function}
            types.discard("")
            memo[function] = types.pop() if len(types) == 1 else ""
        return memo[function]

    return returns_of


class Lookups(NamedTuple):
    """The four lookups, sharing what they read: for one answer, or for a whole graph build."""

    bases_of: Callable[[str], list[str]]
    mixins_of: Callable[[str], list[str]]
    includers_of: Callable[[str], list[str]]
    returns_of: Callable[[str], str]


def type_lookups(ws: "Workspace") -> Lookups:
    """The lookups over ``ws``'s index, memoised for as long as the caller keeps them."""
    types = _Types(ws)
    return Lookups(_bases_lookup(types), _mixins_lookup(types), _includers_lookup(types), _returns_lookup(ws))
