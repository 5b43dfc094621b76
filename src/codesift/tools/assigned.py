"""Names bound by a declaration or an assignment at a file's top level: constants and variables.

The symbol index holds functions, classes and types, so ``DEFAULT_TIMEOUT = 30``, ``var ErrNotFound =
errors.New(…)``, ``export const union = …``, ``pub const MAX_LEN: usize`` or ``#define BUF_SIZE`` had no
definition: find_symbol answered "no definition" and find_usages that its uses "refer to code outside" the
index. When no definition has a name exactly, find_symbol asks grep's trigram index for the files holding it
and reads the lines that declare it in their language's syntax (:data:`_FORMS`).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING

from codesift.languages import language_for
from codesift.tools.grep import grep
from codesift.tools.payloads import ContextSymbol, Symbol

if TYPE_CHECKING:
    from codesift.query.parsed import ParsedQuery
    from codesift.tools.base import Workspace

__all__ = ["MAX_DECLARATIONS", "MAX_FILES", "MIN_NAME", "assigned", "declaration_in", "declared_by_query"]

MAX_DECLARATIONS = 20  # as many as find_symbol's exact matches
MIN_NAME = 3
MAX_FILES = 200  # files the trigram index says may hold the name, read at most
_SCAN_LIMIT = 500  # grep hits read looking for them (each a line matching one of the forms)
_IDENTIFIER = re.compile(r"[A-Za-z_$][\w$]*")
_TOP_LEVEL = frozenset({None, "module", "section", "window"})  # the chunk a grep hit sits in, at a file's top
_HOLDERS = frozenset({"class", "interface", "enum", "struct", "trait", "impl", "object", "module_def"})
_INDENTED_IN_HOLDER = frozenset({"python"})  # where an indented assignment declares only inside a class

# Per language, how a top-level declaration of NAME starts its line (NAME stands for the escaped name).
_FORMS: dict[str, tuple[str, ...]] = {
    "python": (r"^\s*NAME\s*(?::[^=\n]*)?=(?!=)",),  # indented: a class attribute (see _INDENTED_IN_HOLDER)
    "javascript": (r"^(?:export\s+)?(?:const|let|var)\s+NAME\b",),
    "typescript": (r"^(?:export\s+)?(?:declare\s+)?(?:const|let|var)\s+NAME\b",),
    "tsx": (r"^(?:export\s+)?(?:const|let|var)\s+NAME\b",),
    "go": (r"^(?:var|const)\s+NAME\b", r"^\s+NAME\b(?:\s*,\s*\w+)*(?:\s+[\w.*\[\]]+)?\s*=(?!=)"),
    "rust": (r"^\s*(?:pub(?:\s*\([^)]*\))?\s+)?(?:const|static)\s+(?:mut\s+)?NAME\s*:",),
    "java": (r"^\s*(?:(?:public|protected|private)\s+)?static\s+final\s+[\w<>\[\],.? ]+?\s+NAME\s*=",),
    "kotlin": (r"^(?:(?:public|internal|private)\s+)?(?:const\s+)?val\s+NAME\b",),
    "c": (r"^\s*#\s*define\s+NAME\b",),
    "cpp": (r"^\s*#\s*define\s+NAME\b", r"^\s*(?:inline\s+)?(?:constexpr|const)\s+[\w:<>]+\s+NAME\s*[={]"),
}
_CONSTANT_WORDS = re.compile(r"^\s*(?:export\s+)?(?:declare\s+)?(?:pub\S*\s+)?(?:const|static|#\s*define)\b|\bfinal\b")


def _kind(text: str, name: str) -> str:
    return "constant" if _CONSTANT_WORDS.search(text) or (name.isupper() and len(name) > 1) else "variable"


@lru_cache(maxsize=256)
def _forms_of(name: str) -> tuple[dict[str, list[re.Pattern[str]]], str]:
    """Per language, the compiled declaration forms of ``name``; and all of them as one pattern for grep, in
    plain groups without look-ahead, so that grep runs it only on the lines holding the name (its prefilter)."""
    escaped = re.escape(name)
    forms = {lang: [re.compile(f.replace("NAME", escaped)) for f in fs] for lang, fs in _FORMS.items()}
    pattern = "|".join(dict.fromkeys(f.replace("NAME", escaped).replace("(?:", "(").replace("(?!=)", "([^=]|$)")
                                     for fs in _FORMS.values() for f in fs))
    return forms, pattern


def _declares(name: str, language: str, line: str, enclosing_kind: object) -> bool:
    """``line`` declares ``name`` in ``language``'s syntax, at a file's top level or in the body of a type
    (``enclosing_kind``: the kind of the innermost definition around it, None or a module chunk's at the top)."""
    if enclosing_kind not in _TOP_LEVEL and enclosing_kind not in _HOLDERS:
        return False  # inside a function: a local, not the name's definition
    if language in _INDENTED_IN_HOLDER and line[:1].isspace() and enclosing_kind not in _HOLDERS:
        return False  # an indented assignment outside a class: a block's, not a definition
    return any(f.search(line) for f in _forms_of(name)[0].get(language, ()))


def assigned(ws: "Workspace", name: str, service: str | list[str] | None = None) -> list[Symbol]:
    """The top-level declarations of the bare identifier ``name``, as find_symbol dicts (``kind``
    ``constant`` or ``variable``, ``match`` ``exact``, the declaring line as the signature, no ``id``)."""
    if len(name) < MIN_NAME or not _IDENTIFIER.fullmatch(name):
        return []  # a shorter name has no trigram for grep's index to find its files by: every file is read
    holding = len(ws.store.grep_candidates([[name]], ws.filters(None, None, None, service)))
    if not holding or holding > MAX_FILES:  # nowhere, or trigrams everywhere: reading every file costs too much
        return []
    found = grep(ws, _forms_of(name)[1], regex=True, service=service, limit=_SCAN_LIMIT)
    out: list[Symbol] = []
    for hit in found["results"]:
        path, text = hit["path"], hit["text"]
        language = language_for(path) or ""
        enclosing, kind = hit.get("enclosing"), hit.get("enclosing_kind")
        if not _declares(name, language, text, kind):
            continue
        parent = str(enclosing) if kind in _HOLDERS and enclosing else None  # Java's static final field
        out.append({"id": None, "path": path, "start_line": hit["line"], "end_line": hit["line"], "name": name,
                    "qualified_name": f"{parent}.{name}" if parent else name, "kind": _kind(text, name),
                    "language": language, "signature": text.strip()[:200], "parent": parent, "decorators": [],
                    "route": None, "docstring": "", "match": "exact"})
        if len(out) >= MAX_DECLARATIONS:
            break
    return out


def declared_by_query(ws: "Workspace", query: ParsedQuery) -> tuple[str, frozenset[tuple[str, int]]]:
    """The one identifier ``query`` is (``ErrNotFound``) and the (path, line) of its top-level declarations,
    when no definition has that name; else ``("", frozenset())``. Search gives the chunks holding them the
    name match a definition would get, and shows them under that name."""
    from codesift.query.shape import QueryShape, bare_name

    idents = query.identifiers
    if len(idents) != 1 or query.shape != QueryShape.IDENTIFIER:
        return "", frozenset()
    name = bare_name(idents[0])
    if len(name) < MIN_NAME or ws.store.ids_by_name([name]):
        return "", frozenset()
    found = frozenset((d["path"], d["start_line"]) for d in assigned(ws, name))
    return (name if found else ""), found


_OPEN, _CLOSE = "([{", ")]}"
_MAX_SPAN = 200  # lines a declaration's value is followed through (a long literal table)


def _span_end(lines: list[str], start: int) -> int:
    """The last line (1-based) of the statement starting on line ``start``: where its brackets close."""
    depth = 0
    for n in range(start, min(len(lines), start + _MAX_SPAN) + 1):
        line = lines[n - 1]
        depth += sum(line.count(c) for c in _OPEN) - sum(line.count(c) for c in _CLOSE)
        if depth <= 0 and not line.rstrip().endswith(("\\", ",", "=", "+", "(", "[", "{")):
            return n
    return start


def declaration_in(text: str, language: str, name: str,
                   definitions: list[tuple[int, int, str, str]]) -> ContextSymbol | None:
    """Where one file's ``text`` declares ``name`` at its top level or in a class (``definitions``: the file's
    (start, end, kind, qualified name), to tell a class body from a function's), as a ``symbol`` of
    get_code_context (``start_line``/``end_line`` covering the value), or None."""
    if not _IDENTIFIER.fullmatch(name):
        return None
    lines = text.splitlines()
    for n, line in enumerate(lines, 1):
        if name not in line:
            continue
        around = [d for d in definitions if d[0] <= n <= d[1]]
        inner = min(around, key=lambda d: d[1] - d[0]) if around else None
        if not _declares(name, language, line, inner[2] if inner is not None else None):
            continue
        parent = inner[3] if inner is not None else None
        return {"name": name, "qualified_name": f"{parent}.{name}" if parent else name, "kind": _kind(line, name),
                "start_line": n, "end_line": _span_end(lines, n), "signature": line.strip()[:200]}
    return None
