"""The call graph from the static reference index: ``callers``, ``callees`` and ``impact``.

* callers(NAME): the definitions whose bodies call NAME: the enclosing symbols of the ``call`` uses
  that :func:`codesift.tools.usages.find_usages` finds, grouped by its likely target when several
  definitions share the name (its grouping and order, reused as they are).
* callees(NAME): the calls inside NAME's line range, each resolved to a definition where the index
  can: the only definition of the name, or the one the receiver, qualifier and imports point at
  (:class:`codesift.tools.targets.Resolver`); else ``ambiguous`` or ``outside the index``.
* impact(NAME, depth): the definitions (and files) that reach NAME within ``depth`` hops of uses:
  calls, type uses, inheritance, decorators and attribute reads (an import alone is not a use).

Every item has ``path``, ``line`` (the call or use) and ``name`` (the other end), plus the other end's
``definition`` (path, line range, kind) where the index has one.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from codesift.languages import language_for
from codesift.limits import InputError, check_name
from codesift.datatypes import dotted
from codesift.tools.payloads import (Callee, CalleesAnswer, Caller, CallersAnswer, Definition, GraphHead, ImpactAnswer,
                                     ImpactFile, Symbol, Usage, UsagesAnswer, User)
from codesift.tools.symbols import find_symbol
from codesift.tools.targets import UNRESOLVED, Resolver, Scope
from codesift.tools.lookups import type_lookups
from codesift.tools.usages import (scopes_around, definition_of, in_tests, file_lines, source_reader, find_usages,
                                   service_prefixes)

if TYPE_CHECKING:  # pragma: no cover
    from codesift.tools.base import Workspace

ALL = 1_000_000  # find_usages' limit when every use is wanted
MODULE = "<module>"  # the name of module-level code (no enclosing definition)
MAX_IMPACT = 300  # definitions an impact answer follows at most
MAX_DEFINITIONS = 20  # definitions of one name whose bodies callees reads


def _split(symbol_name: str) -> tuple[str, str]:
    """(the name as given, its last component): ``Session.send`` → ``send``."""
    symbol_name = check_name(symbol_name)
    name = dotted(symbol_name).rsplit(".", 1)[-1].strip()
    if not name:
        raise InputError(f"{symbol_name!r} ends without a name: give one, e.g. 'rebuild_auth' or 'Session.get'")
    return symbol_name, name


def definitions_named(ws: "Workspace", query: str, name: str, *, declarations: bool = True) -> list[Symbol]:
    """The definitions ``query`` names, spelt exactly ``name`` (not a Rust ``impl`` block), as find_usages
    takes them; ``declarations``: top-level constants and variables too, when no definition has the name."""
    return [t for t in find_symbol(ws, query, exact=True, declarations=declarations)
            if t["name"] == name and t["kind"] != "impl"]


def _scopes(ws: "Workspace", paths: Iterable[str]) -> dict[str, list[Scope]]:
    return {path: [Scope(*row) for row in rows] for path, rows in ws.store.ref_scopes(paths).items()}


def _definition(path: str, scope: Scope | None) -> Definition | None:
    if scope is None:
        return None
    return {"path": path, "start_line": scope.start, "end_line": scope.end, "qualified_name": scope.qualified_name,
            "kind": scope.kind}


_GETTER_DECORATOR = re.compile(r"@(?:[\w.]+\.)?(?:property|cached_property)\s*(?:\(\s*\))?")


def is_getter(d: Symbol) -> bool:
    """A definition that is read as an attribute and runs as a call: a Python ``@property`` or
    ``@cached_property``, a JavaScript/TypeScript ``get`` accessor."""
    decorators = d.get("decorators") or ()
    return (any(_GETTER_DECORATOR.fullmatch(str(x).strip()) for x in decorators)
            or re.match(r"(?:static\s+)?get\s+[\w$#]", str(d.get("signature") or "")) is not None)


Where = tuple[str | None, int | None]  # (path, line) of the definition a use resolves to; (None, None): not grouped
Keep = Callable[[Usage, Callable[[Usage], Where]], bool]


def _users(ws: "Workspace", symbol_name: str, service: str | list[str] | None, keep: Keep,
           at: tuple[str, int] | None = None) -> tuple[UsagesAnswer, list[User]]:
    """find_usages' answer for ``symbol_name`` and its uses that ``keep`` keeps, one entry per enclosing
    definition (per target when grouped), in find_usages' order. ``keep`` gets each use and a function
    giving the (path, line) of the definition it resolves to (``(None, None)`` when not grouped). With ``at``
    (path, line of one definition), only the uses resolving to that one (or to none) are kept."""
    _, name = _split(symbol_name)
    prefix = service_prefixes(ws, service)
    if not ws.store.is_referenced(name, prefix):  # find_usages would answer with semantic guesses
        defs = [definition_of(d) for d in definitions_named(ws, symbol_name, name)]
        note = "" if defs else f"no definition named {symbol_name!r} and no reference to it in the index"
        return {"symbol": symbol_name, "definitions": defs, "ambiguous": False, "total": 0, "files": 0, "in_tests": 0,
                "usages": [], "source": "static" if defs else "none", "note": note}, []
    found = find_usages(ws, symbol_name, limit=ALL, service=service, with_context=False)
    where: dict[str, Where] = {g["target"]: (g.get("path"), g.get("line")) for g in found.get("groups") or ()}

    def target_of(u: Usage) -> Where:
        return where.get(u["target"], (None, None)) if "target" in u else (None, None)

    uses = [u for u in found["usages"] if keep(u, target_of)] if found["source"] == "static" else []
    if at is not None and found.get("groups"):
        family = {symbol_name, f"{symbol_name} ({at[0]})"}  # the overloads of one file share one group
        own = {g["target"] for g in found["groups"]
               if (g.get("path"), g.get("line")) == at or (g.get("path") == at[0] and g["target"] in family)}
        uses = [u for u in uses if u.get("target") in own or u.get("target") == UNRESOLVED]
    scopes = _scopes(ws, {u["path"] for u in uses})
    entries: dict[tuple[str | None, str, int], User] = {}
    for u in uses:
        path, line = u["path"], u["line"]
        around = scopes_around(scopes.get(path, []), line)
        scope = around[0] if around else None
        key = (u.get("target"), path, scope.start if scope else 0)
        entry = entries.get(key)
        if entry is None:
            entry = {"path": path, "line": line, "name": scope.qualified_name if scope else MODULE,
                     "kind": scope.kind if scope else "module", "definition": _definition(path, scope),
                     "uses": 0, "lines": [], "test": bool(u.get("test"))}
            entries[key] = entry
            if "target" in u:
                entry["target"] = u["target"]
        entry["uses"] += 1
        entry["lines"].append(line)
    return found, list(entries.values())


def _base(found: UsagesAnswer, symbol_name: str) -> GraphHead:
    out: GraphHead = {"symbol": symbol_name, "definitions": found["definitions"], "ambiguous": found["ambiguous"]}
    if found.get("groups"):
        out["groups"] = found["groups"]
    if found.get("note"):
        out["note"] = found["note"]
    if found.get("suggestions"):
        out["suggestions"] = found["suggestions"]
    if found.get("source") == "semantic_guess":
        out["note"] = f"{symbol_name!r} is defined but no static reference to it was found"
    return out


def _as_caller(u: User) -> Caller:
    """A user of the name as callers lists it: its uses counted as ``calls``, last."""
    caller: Caller = {"path": u["path"], "line": u["line"], "name": u["name"], "kind": u["kind"],
                      "definition": u["definition"], "lines": u["lines"], "test": u["test"],
                      "target": u.get("target", ""), "calls": u["uses"]}
    if "target" not in u:  # only the entries of an ambiguous name have one
        del caller["target"]
    return caller


def callers(ws: "Workspace", symbol_name: str, *, service: str | list[str] | None = None) -> CallersAnswer:
    """The definitions that call ``symbol_name`` (a name or ``Type.name``), one entry per caller."""
    symbol_name, name = _split(symbol_name)
    # Reading a property runs it: ``r.content`` calls ``Response.content``.
    getters = {(d["path"], d["start_line"])  # a constant is no getter: no second declaration lookup
               for d in definitions_named(ws, symbol_name, name, declarations=False) if is_getter(d)}

    def keep(u: Usage, target_of: Callable[[Usage], Where]) -> bool:
        if u["kind"] == "call":
            return True
        if u["kind"] != "attribute" or not getters:
            return False
        path, line = target_of(u)
        return (str(path), line) in getters if path is not None else u.get("target") is None

    found, users = _users(ws, symbol_name, service, keep)
    entries = [_as_caller(u) for u in users]
    out: CallersAnswer = {**_base(found, symbol_name), "total": len(entries),
                          "calls": sum(e["calls"] for e in entries),
                          "in_tests": sum(1 for e in entries if e["test"]), "results": entries}
    if found.get("groups"):
        counts: dict[str | None, int] = {}
        for e in entries:
            counts[e.get("target")] = counts.get(e.get("target"), 0) + 1
        out["groups"] = [{**g, "callers": counts.get(g["target"], 0)} for g in found["groups"]
                         if counts.get(g["target"])]
    return out


def callees(ws: "Workspace", symbol_name: str, *, service: str | list[str] | None = None) -> CalleesAnswer:
    """What the body of ``symbol_name`` calls, each call resolved to a definition where the index can."""
    symbol_name, name = _split(symbol_name)
    defs = definitions_named(ws, symbol_name, name)
    if service:
        prefixes = service_prefixes(ws, service) or ()
        defs = [d for d in defs if d["path"].startswith(prefixes)]
    definitions = [definition_of(d) for d in defs]
    if not defs:
        similar = [s["qualified_name"] for s in find_symbol(ws, name, service=service)]
        return {"symbol": symbol_name, "definitions": definitions, "results": [], "total": 0,
                "note": f"no definition named {symbol_name!r} in the index",
                "suggestions": list(dict.fromkeys(similar))[:5]}
    note = ""
    if len(defs) > MAX_DEFINITIONS:
        note = f"{len(defs)} definitions are named {symbol_name!r}; the first {MAX_DEFINITIONS} are read"
        defs = defs[:MAX_DEFINITIONS]
    results: list[Callee] = []
    memo: dict[str, tuple[list[Symbol], dict[str, str]]] = {}  # name → its definitions, their Go packages
    lookups = type_lookups(ws)
    root = source_reader(ws)
    cache: dict[str, list[str]] = {}  # path → its live lines
    for d in defs:
        path = d["path"]
        start, end = d["start_line"], d["end_line"]
        in_file = ws.store.ref_file_sites(path)
        sites = [s for s in in_file if start <= s[1] <= end and s[2] in ("call", "attribute")]
        imports = {s[0]: s[3] for s in reversed(in_file) if s[2] == "import" and s[3]}  # the first one wins
        imported = {s[0] for s in in_file if s[2] == "import"}
        scopes = _scopes(ws, [path]).get(path, [])
        label = f"{d['qualified_name']} ({path}:{start})" if len(defs) > 1 else None
        entries: dict[tuple[str, str | int], Callee] = {}
        resolvers: dict[str, Resolver[Symbol]] = {}
        for called, line, kind, qualifier in sites:
            if called not in memo:
                found = definitions_named(ws, called, called, declarations=False)  # one grep a callee: too slow
                memo[called] = (found, ws.store.go_packages(t["path"] for t in found))
            targets, packages = memo[called]
            if kind == "attribute" and not any(is_getter(t) for t in targets):
                continue  # a field read, not a call: only reading a property runs code
            if called not in resolvers:
                resolvers[called] = Resolver(targets, lambda p: file_lines(root, p, cache),
                                             {path: imports[called]} if called in imports else {},
                                             lookups.bases_of, lookups.returns_of, packages, lookups.includers_of,
                                             lookups.mixins_of)
            target, how = _resolve(resolvers[called], targets, path, line, qualifier, scopes_around(scopes, line), imported)
            if kind == "attribute" and (target is None or not is_getter(target)):
                continue
            key = (target["path"], target["start_line"]) if target else (called, qualifier)
            entry = entries.get(key)
            if entry is None:
                entry = {"path": path, "line": line, "name": called, "qualifier": qualifier, "resolution": how,
                         "candidates": len(targets), "calls": 0, "lines": [],
                         "definition": definition_of(target) if target else None,
                         "test": in_tests(target["path"], None) if target else False}
                entries[key] = entry
                if label:
                    entry["caller"] = label
            entry["calls"] += 1
            entry["lines"].append(line)
        results.extend(entries.values())
    out: CalleesAnswer = {"symbol": symbol_name, "definitions": definitions, "results": results, "note": note,
                          "total": len(results), "resolved": sum(1 for r in results if r["definition"])}
    if not note:  # said only when more definitions have the name than are read
        del out["note"]
    return out


def _resolve(resolver: Resolver[Symbol], targets: list[Symbol], path: str, line: int, qualifier: str,
             scopes: list[Scope], imported: set[str]) -> tuple[Symbol | None, str]:
    """(the definition a call points at, how it was found): ``resolved`` by the receiver, qualifier or
    imports; ``only definition`` of a bare name; ``name only`` (the one method of that name, the
    receiver's type not known); ``ambiguous`` (several, none picked); ``outside the index``, also for a
    call through a name the file imports (``imported``) that none of the definitions answers to: Go's
    ``http.HandlerFunc(…)`` is net/http's, not the index's one method ``HandlerFunc``; ``local``: a bare name
    the function binds itself (a parameter, ``fn = getattr(obj, "fn")``), whatever that holds."""
    language = language_for(path) or ""
    if not qualifier and resolver.bound_locally(path, line, scopes, language):
        return None, "local"
    if not targets:
        return None, "outside the index"
    hit = resolver.resolve_target(path, line, qualifier, scopes, language)
    if hit is not None:
        return hit, "only definition" if len(targets) == 1 and not qualifier else "resolved"
    if qualifier in imported:
        return None, "outside the index"
    if len(targets) == 1 and targets[0]["kind"] == "method":  # a receiver of unknown type: maybe it
        return targets[0], "name only"
    # several and none picked; or a function reached through something that is not its module (``d.update()``)
    return None, "ambiguous" if len(targets) > 1 else "outside the index"


def impact(ws: "Workspace", symbol_name: str, *, depth: int = 2, service: str | list[str] | None = None,
           max_symbols: int = MAX_IMPACT) -> ImpactAnswer:
    """The definitions and files that reach ``symbol_name`` within ``depth`` hops of uses (calls, type
    uses, inheritance, decorators, attribute reads; imports alone are not followed)."""
    symbol_name, _ = _split(symbol_name)
    if not 1 <= depth <= 10:
        raise ValueError("depth must be between 1 and 10")

    def keep(u: Usage, _: object) -> bool:
        return u["kind"] != "import"

    found, first = _users(ws, symbol_name, service, keep)
    head = _base(found, symbol_name)
    seen: dict[tuple[str, str, int], User] = {}
    frontier: list[User] = []
    truncated = False

    def add(entries: list[User], hop: int, via: str) -> None:
        nonlocal truncated
        for e in entries:
            d = e["definition"]
            key = (e["path"], e["name"], d["start_line"] if d is not None else 0)
            if key in seen:
                continue
            if len(seen) >= max_symbols:
                truncated = True
                return
            e["depth"], e["via"] = hop, via
            seen[key] = e
            if d is not None:
                frontier.append(e)

    add(first, 1, symbol_name)
    for hop in range(2, depth + 1):
        current, frontier[:] = list(frontier), []
        for e in current:
            if truncated:
                break
            d = e["definition"]
            assert d is not None
            _, users = _users(ws, e["name"], service, keep, at=(d["path"], d["start_line"]))
            add(users, hop, e["name"])
    results = sorted(seen.values(), key=lambda e: (e["depth"], e["test"], e["path"], e["line"]))
    files: dict[str, ImpactFile] = {}
    for e in results:
        f = files.setdefault(e["path"], {"path": e["path"], "symbols": 0, "depth": e["depth"], "test": e["test"]})
        f["symbols"] += 1
    out: ImpactAnswer = {**head, "depth": depth, "total": len(results),
                         "in_tests": sum(1 for e in results if e["test"]), "files": list(files.values()),
                         "truncated": truncated, "results": results}
    if truncated:
        out["note"] = (f"stopped after {max_symbols} definitions, nearest first; lower the depth, narrow with "
                       f"service, or pass 'Type.name' for one of several definitions")
    return out
