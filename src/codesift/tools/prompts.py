"""What the MCP prompts ``service_overview`` and ``system_design`` know of the indexed tree, as data.

Everything comes from the index: file languages, likely entry points (definitions named ``main``, CLI
commands, ``if __name__ == "__main__"`` blocks, files named main/app/server/cli, top-level package
``__init__`` files), the repository map's top files (:mod:`codesift.tools.repomap`) and the HTTP routes the
parsers found. The text is laid out by :mod:`codesift.tools.markdown.prompts`.
"""

from __future__ import annotations

import json
from pathlib import PurePosixPath
from typing import TYPE_CHECKING

from codesift.languages import CODE_LANGUAGES, is_ci_path, is_example_path, is_test_path
from codesift.tools.payloads import EntryPoint, MainModule, Route, ServiceDesign, ServiceOverview, SystemDesign
from codesift.tools.repomap import repo_map
from codesift.tools.symbols import list_sources

if TYPE_CHECKING:  # pragma: no cover
    from codesift.tools.base import Workspace

ENTRY_STEMS = frozenset({"main", "__main__", "app", "server", "cli", "manage", "wsgi", "asgi", "cmd"})
MAX_ENTRIES = 40  # entry points gathered before the text is cut to its bound
MAX_ROUTES = 200
MAP_FILES = 8  # main modules of a service_overview
MAP_SYMBOLS = 4  # symbols named per main module
SERVICE_FILES = 3  # key modules per folder in system_design
MAX_SERVICES = 12  # folders walked by system_design (the rest are listed by name)


def scope_prefix(ws: "Workspace", path: str | None) -> str:
    """``path`` (a folder or prefix, relative or absolute under the root) as a store prefix ('' = all);
    raises ValueError when no indexed file lies under it."""
    raw = (path or "").strip()
    root = str(ws.root).rstrip("/") + "/"
    rel = raw[len(root):] if raw.startswith(root) else raw.removeprefix("./")
    rel = rel.strip("/")
    if not rel or rel == ".":
        return ""
    prefix = rel + "/"
    if not any(p.startswith(prefix) for p, _ in ws.store.file_languages()):
        raise ValueError(f"no indexed file under {rel!r}: pass a folder that list_sources shows")
    return prefix


def languages(ws: "Workspace", prefix: str = "", *, root_only: bool = False) -> dict[str, int]:
    """language → indexed files under ``prefix`` (``root_only``: the files at the top of the tree), most first."""
    counts: dict[str, int] = {}
    for path, language in ws.store.file_languages():
        if path.startswith(prefix) and not (root_only and "/" in path):
            counts[language] = counts.get(language, 0) + 1
    return dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))


def _code(path: str) -> bool:
    return not (is_test_path(path) or is_example_path(path))


def entry_file(path: str, language: str | None) -> bool:
    """Whether ``path`` can hold an entry point: source code (by language: not markup, data, configuration
    or a template), outside tests, examples and CI configuration (``.github/``, ``.gitlab-ci.yml``)."""
    return language in CODE_LANGUAGES and _code(path) and not is_ci_path(path)


def entry_points(ws: "Workspace", prefix: str = "", *, root_only: bool = False) -> list[EntryPoint]:
    """Likely entry points under ``prefix``: ``main`` definitions, CLI commands, ``__main__`` blocks, then
    files named like one (main, app, server, cli, …) and top-level package ``__init__`` files; code files
    only (:func:`entry_file`)."""
    out: list[EntryPoint] = []
    seen: set[str] = set()
    language = dict(ws.store.file_languages())
    for path, line, kind, qualified, signature, decorators in ws.store.entry_rows(prefix, MAX_ENTRIES * 2):
        if not entry_file(path, language.get(path)) or (root_only and "/" in path):
            continue
        decos = [d for d in json.loads(decorators or "[]") if "command" in d or "group" in d or "Application" in d]
        if kind == "module":
            why = 'if __name__ == "__main__" block'
        elif decos:
            why = f"command {decos[0]}"
        else:
            why = "program entry"
        out.append({"path": path, "line": line, "name": qualified, "kind": kind, "why": why,
                    "signature": " ".join(signature.split())[:160]})
        seen.add(path)
    files = [p for p, lang in language.items() if p.startswith(prefix) and entry_file(p, lang)
             and not (root_only and "/" in p)]
    for path in files:
        pure = PurePosixPath(path)
        depth = len(pure.parts) - len(PurePosixPath(prefix).parts) if prefix else len(pure.parts)
        if path in seen:
            continue
        if pure.stem.lower() in ENTRY_STEMS and depth <= 4:
            out.append({"path": path, "line": 1, "name": pure.name, "kind": "file", "why": "file name"})
        elif pure.name == "__init__.py" and depth <= 3 and PurePosixPath(path).parent.name not in ("", "tests"):
            out.append({"path": path, "line": 1, "name": pure.parent.name, "kind": "file", "why": "package"})
    return out[:MAX_ENTRIES]


def routes(ws: "Workspace", prefix: str = "", *, root_only: bool = False) -> list[Route]:
    """The HTTP routes under ``prefix`` with the handler that serves each (tests left out)."""
    return [{"route": route, "path": path, "line": line, "handler": qualified}
            for path, line, qualified, route in ws.store.route_rows(prefix, MAX_ROUTES)
            if _code(path) and not (root_only and "/" in path)]


def main_modules(ws: "Workspace", prefix: str = "", *, files: int = MAP_FILES, symbols: int = MAP_SYMBOLS,
                 root_only: bool = False) -> list[MainModule]:
    """The repository map's best-ranked files under ``prefix`` with their best-ranked definitions."""
    try:
        found = repo_map(ws, budget_tokens=400 + 250 * files, service=prefix or None)
    except ValueError:  # a folder without definitions (only docs or data)
        return []
    out: list[MainModule] = []
    for f in found["files"]:
        path = f["path"]
        if root_only and "/" in path:
            continue
        best = sorted(f["symbols"], key=lambda s: -s["rank"])[:symbols]
        out.append({"path": path, "symbols": [{"name": s["qualified_name"], "kind": s["kind"], "line": s["line"]}
                                              for s in best]})
        if len(out) >= files:
            break
    return out


def service_overview(ws: "Workspace", path: str | None = None) -> ServiceOverview:
    """What the service_overview prompt shows of the tree (or of the folder ``path``)."""
    prefix = scope_prefix(ws, path)
    langs = languages(ws, prefix)
    return {"root": str(ws.root), "scope": prefix.rstrip("/") or None, "files": sum(langs.values()),
            "languages": langs, "sources": [] if prefix else list_sources(ws), "entry_points": entry_points(ws, prefix),
            "main_modules": main_modules(ws, prefix), "routes": routes(ws, prefix)}


def system_design(ws: "Workspace") -> SystemDesign:
    """What the system_design prompt shows: each top-level folder with its languages, counts, key modules,
    entry points and routes (the first :data:`MAX_SERVICES` folders by size; the rest by name)."""
    sources = list_sources(ws)
    services: list[ServiceDesign] = []
    for src in sources[:MAX_SERVICES]:
        name = src["service"]
        top = name == "."  # the files at the top of the tree
        prefix = "" if top else name + "/"
        services.append({**src, "languages": languages(ws, prefix, root_only=top),
                         "main_modules": main_modules(ws, prefix, files=SERVICE_FILES, symbols=3, root_only=top),
                         "entry_points": entry_points(ws, prefix, root_only=top),
                         "routes": routes(ws, prefix, root_only=top)})
    return {"root": str(ws.root), "languages": languages(ws), "services": services,
            "more_services": [s["service"] for s in sources[MAX_SERVICES:]]}
