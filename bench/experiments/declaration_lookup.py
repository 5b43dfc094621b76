"""What find_symbol's constants-and-variables fallback (``codesift.tools.assigned``) costs on a miss.

    python bench/experiments/declaration_lookup.py [CORPUS ...] [--rounds 5] [--names 40] [--record]

For each bench corpus (default: the eight public ones, indexed as ``bench/quality/quality.py`` indexes them), the
names find_symbol has no exact definition for: each definition name with a letter dropped (a typo) and the
module-level names the corpus assigns (``grep``ped from its Python/JS/TS/Go/Rust/Java files). Each name is
looked up with and without the fallback, interleaved; prints p50/p95 ms per corpus and how many of the
assigned names the fallback finds.

Decided (2026-12-03, commit 8c841b2): find_symbol keeps the fallback on (``declarations=True``), reading no file
when the trigram index says no file or over 200 files hold the name and letting grep prefilter lines by it: on a
miss p50 +2–9 ms, p95 10–54 ms over the eight public corpora, for 241 of 251 assigned names found.
"""

from __future__ import annotations

import argparse
import random
import re
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bench/: `import common` (bench/README.md)

import common  # noqa: E402

from codesift.tools.symbols import find_symbol  # noqa: E402

_ASSIGNED = re.compile(r"^(?:export\s+)?(?:(?:const|let|var|pub\s+const|const)\s+)?([A-Za-z_]\w{2,})\s*(?::[^=\n]*)?=[^=]",
                       re.M)


def _pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("corpora", nargs="*", default=list(common.QUALITY_CORPORA))
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--names", type=int, default=40)
    common.add_record_flag(ap)
    args = ap.parse_args()
    rng = random.Random(0)
    print("| corpus | names | plain p50 / p95 ms | with fallback p50 / p95 ms | assigned names found |")
    print("|---|---|---|---|---|")
    kept: dict[str, float] = {}
    for corpus in args.corpora:
        idx = common.open_index(corpus, {})
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
        kept |= {f"{corpus} plain p50 ms": statistics.median(times[False]),
                 f"{corpus} with fallback p50 ms": statistics.median(times[True]),
                 f"{corpus} with fallback p95 ms": _pct(times[True], 0.95),
                 f"{corpus} assigned names found": found / max(1, len(sample))}
        idx.close()
    common.record(__file__, args, kept)


if __name__ == "__main__":
    main()
