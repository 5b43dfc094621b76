"""Normalising the search filters users and agents type: ``--lang Go``, ``--kind func``, ``--path /abs/x``.

One function, :func:`build_filters`, used by the API, so the CLI and the MCP server get the same
behaviour: names are case-insensitive, common aliases and file extensions map to the internal
names, an absolute path under the root becomes a relative prefix, and a value that names nothing
codesift knows raises :class:`FilterError` listing the values that exist (a silent empty result
was the old behaviour); a path that is well formed but matches no indexed file gets a note
(:func:`absent_path_notes`), as a language no indexed file has does.
"""

from __future__ import annotations

import os
import posixpath
from collections.abc import Callable, Iterable
from pathlib import Path

from codesift.languages import EXTENSIONS, FILENAMES, GRAMMAR_LANGUAGES
from codesift.limits import InputError
from codesift.search.run import Filters


class FilterError(InputError):
    """A filter value (language, kind or path) that cannot match anything; the message lists what can."""


# Every language name ``language_for`` can return.
KNOWN_LANGUAGES: frozenset[str] = frozenset(
    {*GRAMMAR_LANGUAGES, *EXTENSIONS.values(), *FILENAMES.values(), "dockerfile"}
)

# Every chunk kind the parsers emit (see ``model.Chunk.kind``).
KNOWN_KINDS: frozenset[str] = frozenset(
    {"function", "method", "class", "struct", "interface", "enum", "trait", "type", "impl",
     "namespace", "module_def", "module", "section", "window"}
)  # fmt: skip

LANGUAGE_ALIASES: dict[str, str] = {
    "golang": "go", "py": "python", "python3": "python", "py3": "python",
    "js": "javascript", "node": "javascript", "nodejs": "javascript", "ecmascript": "javascript",
    "ts": "typescript", "rs": "rust", "c++": "cpp", "cxx": "cpp", "cplusplus": "cpp",
    "c#": "c_sharp", "cs": "c_sharp", "csharp": "c_sharp", "dotnet": "c_sharp",
    "rb": "ruby", "kt": "kotlin", "objc": "objective_c", "objectivec": "objective_c",
    "objective-c": "objective_c", "sh": "shell", "bash": "shell", "zsh": "shell", "md": "markdown",
    "yml": "yaml", "docker": "dockerfile", "make": "makefile", "tf": "terraform",
}  # fmt: skip

KIND_ALIASES: dict[str, str] = {
    "func": "function", "fn": "function", "fun": "function", "def": "function",
    "proc": "function", "procedure": "function", "sub": "function", "subroutine": "function",
    "meth": "method", "cls": "class", "iface": "interface", "intf": "interface",
    "protocol": "interface", "typedef": "type", "alias": "type", "typealias": "type",
    "mod": "namespace", "heading": "section", "doc": "section",
    "extension": "impl", "instance": "impl", "mixin": "trait", "typeclass": "trait",
}  # fmt: skip


def split_values(value: str | Iterable[str] | None) -> list[str]:
    """A comma-separated string or a list of strings, as stripped non-empty items."""
    if value is None:
        return []
    items = value.split(",") if isinstance(value, str) else [str(v) for v in value]
    return [v.strip() for v in items if v and v.strip()]


def _unknown(what: str, raw: str, known: Iterable[str], hint: str = "") -> FilterError:
    names = ", ".join(sorted(known))
    return FilterError(f"unknown {what} {raw!r}: use one of {names}{hint}")


def normalise_languages(value: str | Iterable[str] | None,
                        indexed: Callable[[], Iterable[str]] = tuple) -> tuple[str, ...]:
    """Internal language names for ``value``: ``Go``, ``golang``, ``.go`` → ``go``.

    ``indexed`` (called only for a name not recognised) lists the languages of the index, which
    are accepted too and named in the error.
    """
    out: list[str] = []
    for raw in split_values(value):
        low = raw.strip().lower()
        name = LANGUAGE_ALIASES.get(low) or low.replace("-", "_")
        if name not in KNOWN_LANGUAGES:
            ext = "." + low.lstrip(".")
            name = EXTENSIONS.get(ext, name)  # "rs", ".py", "hpp": an extension names its language
        if name not in KNOWN_LANGUAGES:
            present = set(indexed())
            if low not in present:
                here = f" (this index has: {', '.join(sorted(present))})" if present else ""
                raise FilterError(f"unknown language {raw!r}{here}; aliases such as golang, py, ts, "
                                  f"c++, c# and file extensions work too")
            name = low
        if name not in out:
            out.append(name)
    return tuple(out)


def normalise_kinds(value: str | Iterable[str] | None,
                    indexed: Callable[[], Iterable[str]] = tuple) -> tuple[str, ...]:
    """Internal kind names for ``value``: ``func``/``fn``/``def`` → ``function``, ``Classes`` → ``class``."""
    out: list[str] = []
    for raw in split_values(value):
        low = raw.strip().lower().replace("-", "_")
        name = KIND_ALIASES.get(low, low)
        if name not in KNOWN_KINDS:
            for plural in ("es", "s"):  # functions, classes
                single = low[: -len(plural)] if low.endswith(plural) else ""
                if single and (single in KNOWN_KINDS or single in KIND_ALIASES):
                    name = KIND_ALIASES.get(single, single)
                    break
        if name not in KNOWN_KINDS:
            present = set(indexed())
            if low not in present:
                raise _unknown("kind", raw, KNOWN_KINDS | present, "; aliases such as func, fn, def, cls work too")
            name = low
        if name not in out:
            out.append(name)
    return tuple(out)


def normalise_path(path: str | None, root: Path) -> str | None:
    """``path`` relative to ``root``: an absolute path under the root becomes its relative prefix.

    A relative path (or a glob) is returned as given. A directory keeps a trailing ``/`` so ``src``
    does not match ``src2/``; one with ``..`` segments is normalised, and refused with :class:`FilterError`
    when it climbs out of the root (``../outside`` answered "no results" where the other commands refuse
    it). ``/src/`` has always meant the root's ``src/``: that reading is kept when
    the root has such an entry (and for ``/`` alone); any other absolute path outside the root raises
    :class:`FilterError`.
    """
    if not path:
        return None
    expanded = os.path.expanduser(path)
    if "\x00" in expanded:
        return path
    if not os.path.isabs(expanded):
        return _relative(path, root)
    # Resolve what exists (symlinks, ``..``) but keep a glob's wildcard tail as typed.
    cut = min((i for i, c in enumerate(expanded) if c in "*?["), default=len(expanded))
    head_end = expanded.rfind(os.sep, 0, cut) + 1 if cut < len(expanded) else len(expanded)
    head, tail = expanded[:head_end], expanded[head_end:]
    resolved = Path(head).resolve() if head else Path(os.sep)
    root = root.resolve()
    try:
        rel = resolved.relative_to(root).as_posix()
    except ValueError:
        legacy = head.lstrip("/\\")
        if not legacy or _exists(root / legacy):
            return path  # root-relative, as before: the leading slash is dropped downstream
        raise FilterError(f"path {path!r} is outside the indexed root {root}; give a path under it "
                          f"or one relative to it (e.g. src/)") from None
    rel = "" if rel == "." else rel
    if tail:
        return f"{rel}/{tail}" if rel else tail
    if resolved.is_dir() and rel:
        rel += "/"
    return rel or None  # the root itself: no restriction


def _relative(path: str, root: Path) -> str | None:
    """A relative path filter: as given unless it has ``..`` segments, which are folded in (``src/../lib/``
    is ``lib/``); one that climbs out of the root raises :class:`FilterError`."""
    slashed = path.replace("\\", "/")
    if ".." not in slashed.split("/"):
        return path
    folded = posixpath.normpath(slashed)
    if folded == ".." or folded.startswith("../"):
        raise FilterError(f"path {path!r} is outside the indexed root {root}; give a path under it "
                          f"or one relative to it (e.g. src/)")
    if folded == ".":
        return None  # the root itself: no restriction
    return folded + "/" if slashed.endswith("/") else folded


def _exists(path: Path) -> bool:
    try:
        return path.exists()
    except (OSError, ValueError):  # a name too long for the file system, say
        return False


def normalise_services(value: str | Iterable[str] | None, exists: Callable[[str], bool],
                       listed: Callable[[], Iterable[str]] = tuple) -> tuple[str, ...]:
    """Service names (top-level folders, or any folder prefix) from a name, a list or a comma-separated
    string; one that holds no indexed file raises :class:`FilterError` naming the services there are."""
    out: list[str] = []
    for raw in split_values(value):
        name = raw.strip().strip("/")
        while name.startswith("./"):
            name = name[2:]
        if name and name not in out:
            out.append(name)
    for name in out:
        if not exists(name):
            names = sorted(set(listed()) - {"."})
            raise FilterError(f"unknown service {name!r}: no indexed file is under {name}/ "
                              f"(services: {', '.join(names) or 'none'}; see list_sources)")
    return tuple(out)


def under(path: str, services: tuple[str, ...]) -> bool:
    """Whether ``path`` lies in one of ``services`` (folder prefixes); True when there are none."""
    return not services or path.startswith(tuple(s + "/" for s in services))


def absent_language_notes(languages: tuple[str, ...], present: Callable[[], Iterable[str]]) -> list[str]:
    """A note for a filtered language no indexed file has, so that the empty answer is explained."""
    if not languages:
        return []
    there = list(present())
    missing = [lang for lang in languages if lang not in there]
    if not missing:
        return []
    return [f"no {', '.join(missing)} files are indexed here (languages: {', '.join(there) or 'none'})"]


def absent_path_notes(path: str | None, matches: Callable[[str], bool],
                      folders: Callable[[], Iterable[str]] = tuple) -> list[str]:
    """A note for a path filter (prefix or glob, as normalised) that no indexed file matches, naming the
    top-level folders there are, so that the empty answer is explained (``--path scr/`` answered "no
    results" as if nothing there were relevant)."""
    if not path or matches(path):
        return []
    names = [f"{name}/" for name in folders() if name != "."][:12]
    there = f"; top-level folders: {', '.join(names)}" if names else ""
    return [f"no indexed file matches path {path!r}{there} (paths are relative to the indexed root: a prefix "
            f"such as src/ or a glob such as **/*.py)"]


def build_filters(root: Path, path: str | None, language: str | Iterable[str] | None,
                  kind: str | Iterable[str] | None, *,
                  indexed_languages: Callable[[], Iterable[str]] = tuple,
                  indexed_kinds: Callable[[], Iterable[str]] = tuple) -> Filters:
    """The :class:`Filters` for user-typed values (see the module docstring); raises :class:`FilterError`."""
    return Filters(path=normalise_path(path, root),
                   languages=normalise_languages(language, indexed_languages),
                   kinds=normalise_kinds(kind, indexed_kinds))


def check_path_in_services(filters: "Filters") -> None:
    """A plain path prefix must lie in one of the services filtered on; raises FilterError otherwise."""
    from codesift.store.keyword import normalise_path_filter

    path = normalise_path_filter(filters.path or "")
    if filters.services and path and not any(c in path for c in "*?[") and not under(path, filters.services):
        raise FilterError(f"path and service disagree: path {filters.path!r} is not in service "
                          f"{', '.join(filters.services)} (paths are relative to the root: <service>/...); "
                          "give one or the other")
