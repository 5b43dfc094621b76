"""What each tree-sitter grammar costs: installed size, and the time to import its wheel, load its ``Language``
and parse a first file (in fresh processes, medians of several runs); and whether ``codesift``'s start-up loads any.

    python bench/latency/grammar_cost.py [--runs 7] [--other-src /path/to/other/src]

Prints Markdown tables: one row per grammar wheel (a wheel serving two languages, typescript/tsx or
ocaml/ocaml_interface, is one row), the ten languages that went from line windows to symbols marked "new", with
totals. Import times are each wheel's own: ``tree_sitter`` and ``importlib.resources`` (which most wheels import,
about 10 ms) are imported first, as they are once per process by whichever grammar comes first. "First file" is
what the first file of a language costs beyond the load: the parser, the definition and reference queries
compiled, one line parsed and chunked. Start-up: the median wall time of ``python -m codesift --help`` and the
grammar modules imported by then (none: grammars load lazily, on the first file of their language);
``--other-src`` times another checkout's too (one from before the grammars were added), in turn with this one's.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import statistics
import subprocess
import sys
import time

NEW = frozenset({"swift", "scala", "lua", "shell", "elixir", "dart", "haskell", "zig", "ocaml", "ocaml_interface",
                 "julia"})  # fmt: skip

_LOAD = r"""
import importlib, importlib.resources, json, sys, time
import tree_sitter  # both imported once per process, by whichever grammar comes first: not this one's cost
from codesift.parse import extract_chunks
module, functions, languages = sys.argv[1], sys.argv[2].split(","), sys.argv[3].split(",")
t0 = time.perf_counter()
mod = importlib.import_module(module)
t1 = time.perf_counter()
for name in functions:
    tree_sitter.Language(getattr(mod, name)())
t2 = time.perf_counter()
for language in languages:  # parser, definition and reference queries compiled, one line parsed
    extract_chunks("x\n", language, "x", references=[])
t3 = time.perf_counter()
print(json.dumps({"import": (t1 - t0) * 1000, "language": (t2 - t1) * 1000, "first": (t3 - t2) * 1000}))
"""

_STARTUP = "import codesift.cli, sys; print(sorted(m for m in sys.modules if m.startswith('tree_sitter_')))"


def wheels() -> dict[str, tuple[list[str], list[str]]]:
    """module -> (languages, functions), for every grammar codesift registers."""
    from codesift.languages import GRAMMAR_LANGUAGES
    from codesift.parse import grammars

    out: dict[str, tuple[list[str], list[str]]] = {}
    for language in sorted(GRAMMAR_LANGUAGES):
        found = grammars.source(language)
        if found is None:
            continue
        module, function = found
        languages, functions = out.setdefault(module, ([], []))
        languages.append(language)
        functions.append(function)
    return out


def installed_bytes(module: str) -> int:
    """Disk use of the module's installed package folder (as ``du`` counts it: allocated blocks)."""
    spec = importlib.util.find_spec(module)
    if spec is None or not spec.submodule_search_locations:
        return 0
    total = 0
    for folder, _, files in os.walk(next(iter(spec.submodule_search_locations))):
        for name in files:
            total += os.lstat(os.path.join(folder, name)).st_blocks * 512
    return total


def load_ms(module: str, functions: list[str], languages: list[str], runs: int) -> tuple[float, float, float]:
    """Median (import ms, Language() ms, first-file ms) over ``runs`` fresh processes."""
    rows = []
    for _ in range(runs):
        done = subprocess.run([sys.executable, "-c", _LOAD, module, ",".join(functions), ",".join(languages)],
                              capture_output=True, text=True, check=True)
        rows.append(json.loads(done.stdout))
    return tuple(statistics.median(r[key] for r in rows) for key in ("import", "language", "first"))  # type: ignore[return-value]


def startup(sources: list[str | None], runs: int) -> list[tuple[float, list[str]]]:
    """Per checkout (None: this one): median ms of ``python -m codesift --help``, runs taken in turn so that
    machine noise hits all alike, and the grammar modules imported with the CLI."""
    envs = []
    for src in sources:
        env = dict(os.environ)
        if src:
            env["PYTHONPATH"] = src + os.pathsep + env.get("PYTHONPATH", "")
        envs.append(env)
    times: list[list[float]] = [[] for _ in envs]
    for _ in range(runs):
        for i, env in enumerate(envs):
            t = time.perf_counter()
            subprocess.run([sys.executable, "-m", "codesift", "--help"], env=env, capture_output=True, check=True)
            times[i].append((time.perf_counter() - t) * 1000)
    out = []
    for env, taken in zip(envs, times):
        done = subprocess.run([sys.executable, "-c", _STARTUP], env=env, capture_output=True, text=True, check=True)
        out.append((statistics.median(taken), json.loads(done.stdout.replace("'", '"'))))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=7, help="fresh processes per measurement (median)")
    parser.add_argument("--other-src", help="another checkout's src/ to time start-up against")
    args = parser.parse_args()

    print("| grammar wheel | languages | new | installed MB | import ms | Language() ms | first file ms |")
    print("|---|---|---|---:|---:|---:|---:|")
    totals = {"all": [0.0] * 4, "new": [0.0] * 4}
    for module, (languages, functions) in sorted(wheels().items()):
        row = (installed_bytes(module) / 1e6, *load_ms(module, functions, languages, args.runs))
        new = any(language in NEW for language in languages)
        for key in ("all", "new") if new else ("all",):
            totals[key] = [a + b for a, b in zip(totals[key], row)]
        size, imp, lang, first = row
        print(f"| {module} | {', '.join(languages)} | {'yes' if new else ''} | {size:.2f} | {imp:.1f} | {lang:.1f} "
              f"| {first:.1f} |")
    for key, label in (("new", "the new grammars"), ("all", "all grammars")):
        size, imp, lang, first = totals[key]
        print(f"| **total: {label}** | | | **{size:.2f}** | **{imp:.1f}** | **{lang:.1f}** | **{first:.1f}** |")

    print()
    print("| checkout | `codesift --help` ms (median) | grammar modules imported at start-up |")
    print("|---|---:|---|")
    sources: list[str | None] = [None, args.other_src] if args.other_src else [None]
    for src, (ms, loaded) in zip(sources, startup(sources, args.runs)):
        print(f"| {src or 'this one'} | {ms:.0f} | {', '.join(loaded) or 'none'} |")

if __name__ == "__main__":
    main()
