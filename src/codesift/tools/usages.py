"""find_usages: real references from the static index built at indexing time (tree-sitter).

Calls, attribute reads, imports, type references, inheritance and decorators are recorded per file;
strings, comments, definitions, parameters and assignment targets are not references, and a read of a
parameter or local of the name (``size`` inside ``fun maxSize(size: Long)``) is left out and counted: there the
name is that binding, not a definition (but a pytest fixture's parameter is its use).

Uses are ordered for reading: when several definitions share the name, grouped by their likely
target (:mod:`codesift.tools.targets`), biggest group first, ``unresolved`` last; within a group,
non-test code before tests, then by path and line. The order does not depend on ``limit``, so pages
are consistent. A name defined somewhere but never referenced falls back to the string literals (and, for Ruby,
the symbols) that spell it whole outside its definition (``'twig_escape_filter'``: a PHP callable, a ``getattr``,
``send(:name)``), then semantic guesses, each labelled as such; a
name defined nowhere and never referenced is answered as that, not guessed at.
"""

from __future__ import annotations

import os
import re
from collections import Counter, defaultdict
from typing import TYPE_CHECKING

from codesift.languages import language_for
from codesift.limits import InputError, check_name
from codesift.datatypes import dotted
from codesift.languages import is_test_path
from codesift.tools.context.common import read_cached
from codesift.tools.payloads import Definition, Symbol, Usage, UsageGroup, UsagesAnswer
from codesift.tools.symbols import find_symbol
from codesift.tools.lookups import type_lookups
from codesift.tools.targets import UNRESOLVED, Resolver, Scope, bound_locally, labels

if TYPE_CHECKING:  # pragma: no cover
    from codesift.tools.base import Workspace

CONTEXT_LINES = 2
LIVE_SCAN_LIMIT = 5_000  # above this many uses, local declarations are not read from the files
SUGGESTIONS = 5


def _enclosing(ws: "Workspace", file_ids: set[int]) -> dict[int, list[Scope]]:
    """Per file: its definitions (the scopes a reference can sit in)."""
    out: dict[int, list[Scope]] = defaultdict(list)
    for fid, s, e, q, kind, parent, signature in ws.store.scopes_by_file(file_ids):
        out[fid].append(Scope(s, e, q, kind, parent, signature or ""))
    return out


def scopes_around(defs: list[Scope], line: int) -> list[Scope]:
    """The definitions containing ``line``, innermost first."""
    return sorted((d for d in defs if d.start <= line <= d.end), key=lambda d: d.end - d.start)


def in_tests(path: str, scope: Scope | None) -> bool:
    """Test code: a test file or folder, or an in-file test module (Rust ``mod tests``)."""
    return is_test_path(path) or (scope is not None and scope.qualified_name.split(".", 1)[0] in ("tests", "test")
                                  and "." in scope.qualified_name)


def file_lines(root: "str | Workspace", path: str, cache: dict[str, list[str]]) -> list[str]:
    """The live lines of ``path`` (read once per call); ``root`` may be a workspace, which knows where a
    configured service's paths are read (its folder, or a git blob)."""
    if path not in cache:
        try:
            if not isinstance(root, str):
                data = root.read(path)
            else:
                full = os.path.join(root, path)
                st = os.stat(full)
                data = read_cached(full, st.st_mtime_ns, st.st_size)
            cache[path] = data.decode("utf-8", "replace").splitlines()
        except OSError:
            cache[path] = []
    return cache[path]


def _context(root: "str | Workspace", path: str, line: int, cache: dict[str, list[str]]) -> tuple[str, str]:
    """(the site's own line, a few numbered lines around it), read live from the working tree."""
    lines = file_lines(root, path, cache)
    lo, hi = max(1, line - CONTEXT_LINES), min(len(lines), line + CONTEXT_LINES)
    own = lines[line - 1].strip() if 0 < line <= len(lines) else ""
    return own, "\n".join(f"{n}: {lines[n - 1]}" for n in range(lo, hi + 1))


def source_reader(ws: "Workspace") -> "str | Workspace":
    """What ``file_lines`` reads through: the root (cached by stat), or the workspace when services are set."""
    return ws if ws.sources is not None else str(ws.root)


def service_prefixes(ws: "Workspace", service: str | list[str] | None) -> tuple[str, ...] | None:
    """The folder prefixes (``name/``) of ``service`` values, checked; None when there are none."""
    return tuple(s + "/" for s in ws.services(service)) or None


# The note a search gets when it asks for references (``who calls parse_args?``, ``rank.shape.usage_question``).


def find_usages(ws: "Workspace", symbol_name: str, *, limit: int = 100, service: str | list[str] | None = None,
                with_context: bool = True) -> UsagesAnswer:
    """References to ``symbol_name`` (a name or ``Parent.name``), the definition sites excluded."""
    symbol_name = check_name(symbol_name)  # empty or too long: the same error as on the CLI and MCP
    name = dotted(symbol_name).rsplit(".", 1)[-1].strip()
    if not name:
        raise InputError(f"{symbol_name!r} ends without a name: give one, e.g. 'rebuild_auth' or 'Session.get'")
    if limit <= 0:
        raise ValueError("limit must be a positive integer")
    qualified = name != symbol_name.strip()
    # Every definition of the name is a candidate target: spelt the same (references are case-sensitive,
    # the name index is not), and not a Rust ``impl Conn`` block, which uses ``Conn``.
    def defined(query: str) -> list[Symbol]:
        return [t for t in find_symbol(ws, query, exact=True) if t["name"] == name and t["kind"] != "impl"]

    targets = defined(name)
    wanted = defined(symbol_name) if qualified else targets
    result: UsagesAnswer = {"symbol": symbol_name, "definitions": [definition_of(t) for t in wanted],
                            "ambiguous": False, "total": 0, "files": 0, "in_tests": 0, "usages": [],
                            "source": "static"}
    if qualified and not wanted and targets:
        others = ", ".join(sorted({t["qualified_name"] for t in targets}))
        result["source"] = "none"
        result["note"] = f"no definition named {symbol_name!r}; {name!r} is defined as {others}"
        return result
    sites, ambiguous, shadowed = _sites(ws, name, targets, service)
    dropped = 0
    if qualified and ambiguous:  # ``Model.save``: only the uses that resolve to it (or to nothing known)
        chosen = {(t["path"], t["start_line"]) for t in wanted}
        keep = {label for t, label in zip(targets, labels(targets)) if (t["path"], t["start_line"]) in chosen}
        keep.add(UNRESOLVED)
        dropped = sum(1 for s in sites if s[3] not in keep)
        sites = [s for s in sites if s[3] in keep]
    counts = Counter(s[3] for s in sites)
    groups = sorted(counts, key=lambda t: (t == UNRESOLVED, -counts[t], str(t)))
    rank = {t: i for i, t in enumerate(groups)}
    sites.sort(key=lambda s: (rank[s[3]], s[2], s[0][1], s[0][2]))  # target, tests last, path, line
    root = source_reader(ws)
    cache: dict[str, list[str]] = {}  # path → its live lines
    usages: list[Usage] = []
    for (_, path, line, kind, qualifier), scope, test, target in sites[:limit]:
        item: Usage = {"path": path, "line": line, "kind": kind, "qualifier": qualifier,
                       "enclosing": scope.qualified_name if scope else None, "test": test}
        if ambiguous and target is not None:  # ambiguous: every use has a target (or unresolved)
            item["target"] = target
        if with_context:
            item["text"], item["context"] = _context(root, path, line, cache)
        usages.append(item)
    result["ambiguous"], result["total"] = ambiguous, len(sites)
    result["files"], result["in_tests"] = len({s[0][1] for s in sites}), sum(1 for s in sites if s[2])
    result["usages"] = usages
    if ambiguous:
        result["groups"] = _groups([t for t in groups if t is not None], counts, targets)
        result["unresolved"] = counts[UNRESOLVED]
        result["note"] = (f"{len(targets)} definitions are named {name!r}; uses are grouped by their likely "
                          f"target (receiver and parameter types, qualifier, imports, file)")
        if dropped:
            result["note"] += f"; {dropped} uses that resolve to other definitions are left out"
            result["left_out"] = dropped
    if not sites and not dropped:
        _without_references(ws, result, symbol_name, name, wanted, service, limit)
    if shadowed:
        result["shadowed"] = shadowed
        said = (f"{shadowed} read{'s' if shadowed != 1 else ''} of a parameter or local also named {name!r} "
                f"{'are' if shadowed != 1 else 'is'} left out")
        result["note"] = f"{result['note']}; {said}" if result.get("note") else said
    return result


def definition_of(t: Symbol) -> Definition:
    """Where the definition ``t`` is, as an answer lists the definitions of a name."""
    return {"path": t["path"], "start_line": t["start_line"], "end_line": t["end_line"],
            "qualified_name": t["qualified_name"], "kind": t["kind"]}


def _groups(order: list[str], counts: Counter[str | None], targets: list[Symbol]) -> list[UsageGroup]:
    """One group per likely target, in ``order``, with where its definition is (an overload family's first)."""
    where: dict[str, Symbol] = {}
    for label, t in zip(labels(targets), targets):
        where.setdefault(label, t)
    out: list[UsageGroup] = []
    for target in order:
        group: UsageGroup = {"target": target, "uses": counts[target]}
        if target in where:
            group["path"], group["line"] = where[target]["path"], where[target]["start_line"]
        elif target == UNRESOLVED:
            group["candidates"] = len(targets)
        out.append(group)
    return out


Site = tuple[tuple[int, str, int, str, str], "Scope | None", bool, "str | None"]  # row, scope, in tests, target


def _sites(ws: "Workspace", name: str, targets: list[Symbol],
           service: str | list[str] | None) -> tuple[list[Site], bool, int]:
    """Every static use of ``name`` (definition sites excluded) with its scope, test flag and likely target; and
    how many reads were left out as reads of a parameter or local of that name (lexical scope shadows it)."""
    def_sites = {(t["path"], t["start_line"]) for t in targets}
    prefix = service_prefixes(ws, service)
    rows = [r for r in ws.store.ref_sites(name, prefix) if (r[1], r[2]) not in def_sites]
    ambiguous = len(targets) > 1
    defs = _enclosing(ws, {r[0] for r in rows})
    root = source_reader(ws)
    cache: dict[str, list[str]] = {}  # path → its live lines
    lines_of = (lambda p: file_lines(root, p, cache)) if len(rows) <= LIVE_SCAN_LIMIT else None
    resolver = None
    if ambiguous:
        imports: dict[str, str] = {}
        for _, path, _, kind, qualifier in rows:
            if kind == "import" and qualifier:
                imports.setdefault(path, qualifier)
        lookups = type_lookups(ws)
        resolver = Resolver(targets, lines_of, imports, lookups.bases_of, lookups.returns_of,
                            ws.store.go_packages(t["path"] for t in targets), lookups.includers_of, lookups.mixins_of)
    out: list[Site] = []
    shadowed = 0
    # a pytest fixture is handed over by parameter name: a parameter of its name is where it is used
    injected = any(_is_fixture(t) for t in targets)
    for row in rows:
        _, path, line, kind, qualifier = row
        scopes = scopes_around(defs.get(row[0], []), line)
        scope = scopes[0] if scopes else None
        language = language_for(path) or ""
        if (not injected and kind == "reference" and not qualifier
                and bound_locally(name, lines_of, path, line, scopes, language, declared_only=True)):
            shadowed += 1  # ``require(size > 0)`` in ``fun maxSize(size: Long)``: the parameter, not the method
            continue
        target = resolver.resolve(path, line, qualifier, scopes, language) if resolver else None
        out.append((row, scope, in_tests(path, scope), target))
    return out, ambiguous, shadowed


def _is_fixture(t: Symbol) -> bool:
    """A pytest fixture (``@pytest.fixture``, ``@pytest.fixture(scope="module")``, ``@pytest_asyncio.fixture``)."""
    return any(re.match(r"@?(?:[\w.]+\.)?fixture\b", d.strip()) for d in t.get("decorators") or [])


def _without_references(ws: "Workspace", result: UsagesAnswer, symbol_name: str, name: str,
                        wanted: list[Symbol], service: str | list[str] | None, limit: int) -> None:
    """No static use: semantic guesses when the name is defined, else say that nothing is."""
    if not wanted:
        similar = [s["qualified_name"] for s in find_symbol(ws, name, service=service)]
        result["source"] = "none"
        result["suggestions"] = list(dict.fromkeys(similar))[:SUGGESTIONS]
        result["note"] = f"no definition named {symbol_name!r} and no reference to it in the index"
        return
    defined = {(t["path"], t["start_line"]) for t in wanted}
    at = ", ".join(f"{t['path']}:{t['start_line']}" for t in wanted[:3])
    strings = [u for u in _quoted(ws, name, service, limit, ruby=any(t["language"] == "ruby" for t in wanted))
               if not any(u["path"] == t["path"] and t["start_line"] <= u["line"] <= t["end_line"] for t in wanted)]
    response = ws.search(f"code that uses or references {symbol_name}", limit=min(limit, 10),
                            service=service)
    result["source"] = "semantic_guess"
    lines = f"{len(strings)}{'+' if len(strings) >= limit else ''} line{'s' if len(strings) != 1 else ''}"
    what = " or ".join(dict.fromkeys(u["kind"] for u in strings))
    said = (f"it is a whole {what} on {lines} (a callable, or a name looked up at run time?), listed first; the rest "
            f"are " if strings else "these are ")
    result["note"] = (f"{name!r} is defined ({at}) but no static reference to it was found; {said}semantic guesses, "
                      f"not references")
    result["usages"] = strings + [
        {"path": r.path, "line": r.definition_start_line, "kind": "guess", "qualifier": "",
         "enclosing": r.qualified_name, "score": r.score}
        for r in response.results if (r.path, r.definition_start_line) not in defined
    ][: max(0, limit - len(strings))]


def _quoted(ws: "Workspace", name: str, service: str | list[str] | None, limit: int, *, ruby: bool) -> list[Usage]:
    """The lines where ``name`` is a whole string literal (``'twig_escape_filter'``, ``"handle"``) or, for a name
    defined in Ruby, a symbol in a Ruby file (``send(:render)``, ``before_save :normalize``): how a name with no
    static reference is often used (PHP callables, ``getattr``, registries, hooks and callbacks)."""
    from codesift.tools.grep import grep

    shapes = [("string", f"([\"'`]){re.escape(name)}\\1", None)]
    if ruby:  # not ``Foo::name`` nor ``key:name`` (a word or a colon before it), not a longer name after it
        shapes.append(("symbol", f"(?<![\\w:]):{re.escape(name)}(?![\\w?!=])", "ruby"))
    found: dict[tuple[str, int], Usage] = {}
    for kind, pattern, language in shapes:
        for h in grep(ws, pattern, regex=True, language=language, service=service, limit=limit)["results"]:
            found.setdefault((h["path"], h["line"]), {"path": h["path"], "line": h["line"], "kind": kind,
                                                      "qualifier": "", "enclosing": h["enclosing"],
                                                      "text": h["text"].strip()})
    return [found[k] for k in sorted(found)][:limit]
