"""JavaScript and declaration files compiled from TypeScript sources that the same tree holds.

A published npm package often ships its TypeScript sources next to what the compiler made of them:
``src/v4/core/schemas.ts`` beside ``v4/core/schemas.js``, ``.cjs``, ``.d.ts`` and ``.d.cts``, or ``src/x.ts``
beside ``lib/x.js``, or ``x.ts`` beside ``x.js`` when the compiler wrote in place. Each function is then
indexed up to five times; the copies crowd the source out of the results (zod's ``.cjs`` copy ranked above
its ``.ts`` source) and multiply the indexing time. A file is such a copy when a TypeScript source has the
same path, ignoring the extension and the top folder on the sides where it is a conventional source or
output folder. A JavaScript file with no TypeScript twin is source, and kept.

A package without its TypeScript sources often ships two builds of them side by side: CommonJS and ES
modules (io-ts: ``lib/Decoder.js`` and ``es6/Decoder.js``, each with its ``.d.ts``; elsewhere ``dist/cjs`` and
``dist/esm``, ``lib`` and ``es``). Every function is then found twice. When two sibling build folders hold the
same files (at least ``TWIN_MIN`` and half of the smaller one's), the ES-module build is kept: it is the
closer to the source (``export const union = …``, not ``exports.union = …``).
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["compiled_copies", "second_builds"]

# What tsc and the bundlers write (longest first: ``.d.ts`` before ``.ts``).
_OUTPUT_SUFFIXES = (".d.ts", ".d.cts", ".d.mts", ".js", ".cjs", ".mjs", ".jsx")
_SOURCE_SUFFIXES = (".ts", ".tsx", ".mts", ".cts")
# Top folders that hold the sources, and those the compiler writes to.
SOURCE_DIRS = frozenset({"src", "source", "sources", "ts"})
OUTPUT_DIRS = frozenset({"lib", "esm", "cjs", "es", "mjs", "umd", "out", "types", "typings", "dist", "build"})


def _stem(path: str, suffixes: tuple[str, ...]) -> str | None:
    low = path.lower()
    for suffix in suffixes:
        if low.endswith(suffix):
            return path[: -len(suffix)]
    return None


def _drop_top(stem: str, tops: frozenset[str]) -> str | None:
    top, sep, rest = stem.partition("/")
    return rest if sep and top in tops else None


# Build folders by preference: the first of two twins is kept.
BUILD_VARIANTS = ("esm", "es6", "es2015", "es2017", "es2020", "esnext", "es", "mjs", "lib", "cjs", "commonjs",
                  "umd")
TWIN_MIN = 3
_RANK = {name: i for i, name in enumerate(BUILD_VARIANTS)}


def second_builds(paths: Iterable[str]) -> set[str]:
    """The paths among ``paths`` in the less preferred of two sibling build folders (``lib/``, ``es6/``) whose
    output files (JavaScript and ``.d.ts``) are the same."""
    by_folder: dict[tuple[str, str], set[str]] = {}  # (parent, build folder) -> paths inside, relative to it
    for p in paths:
        if _stem(p, _OUTPUT_SUFFIXES) is None:
            continue
        parts = p.split("/")
        for i, part in enumerate(parts[:-1]):
            if part.lower() in _RANK:
                by_folder.setdefault(("/".join(parts[:i]), part), set()).add("/".join(parts[i + 1:]))
                break
    out: set[str] = set()
    folders = sorted(by_folder, key=lambda k: (k[0], _RANK[k[1].lower()]))
    for i, keep in enumerate(folders):
        for other in folders[i + 1:]:
            if other[0] != keep[0]:
                break
            same = by_folder[keep] & by_folder[other]
            if len(same) >= max(TWIN_MIN, min(len(by_folder[keep]), len(by_folder[other])) / 2):
                head = f"{other[0]}/{other[1]}/" if other[0] else f"{other[1]}/"
                out.update(head + rest for rest in same)
    return out


def compiled_copies(paths: Iterable[str]) -> set[str]:
    """The paths among ``paths`` ("/"-separated, relative) that are compiler output of a TypeScript
    source also among them, or the second build of files another build folder holds (:func:`second_builds`)."""
    paths = list(paths)
    twins = second_builds(paths)
    paths = [p for p in paths if p not in twins]
    sources: set[str] = set()
    for p in paths:
        if _stem(p, _OUTPUT_SUFFIXES[:3]) is None and (stem := _stem(p, _SOURCE_SUFFIXES)) is not None:
            sources.add(stem)  # ``x.ts`` in place
            if (inner := _drop_top(stem, SOURCE_DIRS)) is not None:
                sources.add(inner)  # ``src/x.ts`` -> ``x``
                sources.add("\0" + inner)  # matched only by an output folder's ``lib/x.js``
    if not sources:
        return twins
    out: set[str] = set(twins)
    for p in paths:
        stem = _stem(p, _OUTPUT_SUFFIXES)
        if stem is None:
            continue
        inner = _drop_top(stem, OUTPUT_DIRS)
        if stem in sources or (inner is not None and ("\0" + inner in sources or inner in sources)):
            out.add(p)
    return out
