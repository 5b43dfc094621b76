"""JavaScript and declaration files compiled from TypeScript sources that the same tree holds.

A published npm package often ships its TypeScript sources next to what the compiler made of them:
``src/v4/core/schemas.ts`` beside ``v4/core/schemas.js``, ``.cjs``, ``.d.ts`` and ``.d.cts``, or ``src/x.ts``
beside ``lib/x.js``, or ``x.ts`` beside ``x.js`` when the compiler wrote in place. Each function is then
indexed up to five times; the copies crowd the source out of the results (zod's ``.cjs`` copy ranked above
its ``.ts`` source) and multiply the indexing time. A file is such a copy when a TypeScript source has the
same path, ignoring the extension and the top folder on the sides where it is a conventional source or
output folder. A JavaScript file with no TypeScript twin is source, and kept.
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["compiled_copies"]

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


def compiled_copies(paths: Iterable[str]) -> set[str]:
    """The paths among ``paths`` ("/"-separated, relative) that are compiler output of a TypeScript
    source also among them."""
    paths = list(paths)
    sources: set[str] = set()
    for p in paths:
        if _stem(p, _OUTPUT_SUFFIXES[:3]) is None and (stem := _stem(p, _SOURCE_SUFFIXES)) is not None:
            sources.add(stem)  # ``x.ts`` in place
            if (inner := _drop_top(stem, SOURCE_DIRS)) is not None:
                sources.add(inner)  # ``src/x.ts`` -> ``x``
                sources.add("\0" + inner)  # matched only by an output folder's ``lib/x.js``
    if not sources:
        return set()
    out: set[str] = set()
    for p in paths:
        stem = _stem(p, _OUTPUT_SUFFIXES)
        if stem is None:
            continue
        inner = _drop_top(stem, OUTPUT_DIRS)
        if stem in sources or (inner is not None and ("\0" + inner in sources or inner in sources)):
            out.add(p)
    return out
