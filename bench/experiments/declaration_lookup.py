"""What find_symbol's constants-and-variables fallback (``codesift.tools.assigned``) costs on a miss.

    python bench/declaration_lookup.py [CORPUS ...] [--rounds 5]

For each bench corpus (default: the eight public ones, indexed as ``bench/quality.py`` indexes them), the
names find_symbol has no exact definition for: each definition name with a letter dropped (a typo) and the
module-level names the corpus assigns (``grep``ped from its Python/JS/TS/Go/Rust/Java files). Each name is
looked up with and without the fallback, interleaved; prints p50/p95 ms per corpus and how many of the
assigned names the fallback finds.
"""

from __future__ import annotations

import argparse
import random
import re
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import quality  # noqa: E402

from codesift.tools.symbols import find_symbol  # noqa: E402

DEFAULT = ("requests", "flask", "click", "express", "cli", "fd", "javapoet", "h3")
_ASSIGNED = re.compile(r"^(?:export\s+)?(?:(?:const|let|var|pub\s+const|const)\s+)?([A-Za-z_]\w{2,})\s*(?::[^=\n]*)?=[^=]",
                       re.M)


def _pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("corpora", nargs="*", default=list(DEFAULT))
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--names", type=int, default=40)
    args = ap.parse_args()
    rng = random.Random(0)
    print("| corpus | names | plain p50 / p95 ms | with fallback p50 / p95 ms | assigned names found |")
    print("|---|---|---|---|---|")
    for corpus in args.corpora:
        idx = quality.open_index(corpus, {})
        ws = idx.workspace
        defined = sorted({r.name for r in ws.store.chunks_by_id(range(1, 20_000), with_text=False).values()
                          if len(r.name) > 4})
        typos = [n[:i] + n[i + 1:] for n in rng.sample(defined, min(args.names, len(defined)))
                 for i in [rng.randrange(1, len(n) - 1)]]
        assigned_names: set[str] = set()
        for f in sorted(ws.root.rglob("*"))[:3000]:
            if f.suffix in (".py", ".js", ".ts", ".go", ".rs") and f.is_file():
                assigned_names.update(_ASSIGNED.findall(f.read_text(errors="replace")))
        assigned_names -= set(defined)
        sample = rng.sample(sorted(assigned_names), min(args.names, len(assigned_names)))
        names = [n for n in typos + sample if not any(s["match"] == "exact"
                                                      for s in find_symbol(ws, n, declarations=False))]
        times: dict[bool, list[float]] = {False: [], True: []}
        for _ in range(args.rounds):
            for n in names:
                for flag in (False, True):
                    t = time.perf_counter()
                    find_symbol(ws, n, declarations=flag)
                    times[flag].append((time.perf_counter() - t) * 1000)
        found = sum(1 for n in sample if any(s["kind"] in ("constant", "variable") for s in find_symbol(ws, n)))
        print(f"| {corpus} | {len(names)} | {statistics.median(times[False]):.2f} / {_pct(times[False], 0.95):.2f} "
              f"| {statistics.median(times[True]):.2f} / {_pct(times[True], 0.95):.2f} | {found}/{len(sample)} |")
        idx.close()


if __name__ == "__main__":
    main()
