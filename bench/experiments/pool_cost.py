"""What the candidate pool costs: hybrid and keyword p50/p95 for several pool sizes on one index.

    python bench/experiments/pool_cost.py ROOT [--pools 30 150] [--queries 200] [--runs 3] [--record]

ROOT is an indexed tree (e.g. a ``bench/latency/query_scale.py --keep`` build with vectors). Each pool size is
set through ``overfetch`` (candidates per retriever = overfetch × max(limit, 50)); the sizes are
measured interleaved, query by query, in one process, so machine noise hits them alike. 30 is what
a search for 10 results fetched before the pool stopped depending on the limit.

Decided (2026-12-01, commit a3761d7): a candidate pool of 100 per retriever (``overfetch`` 2.0 × max(limit, 50)),
the same whatever the limit: at 100k symbols hybrid p50 14.8 → 18.6 ms against the old 30 for 10 results; 150
cost 6 ms more for +0.005 MRR@10 (bench/quality/quality.py).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bench/: `import common` (bench/README.md)

import common  # noqa: E402

from codesift import Index  # noqa: E402
from codesift.config.settings import load_config  # noqa: E402

WORDS = ("get set build parse render load save user session cookie token request response cache query "
         "model field form view url route auth password hash json file path stream buffer header").split()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("root", type=Path)
    ap.add_argument("--pools", type=int, nargs="+", default=[30, 150])
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--runs", type=int, default=3)
    common.add_record_flag(ap)
    args = ap.parse_args()
    rng = random.Random(7)
    qs = [" ".join(rng.choice(WORDS) for _ in range(4)) for _ in range(args.queries)]
    base = load_config(args.root)
    indexes = {p: Index(args.root, config=base.with_overrides(overfetch=p / 50)) for p in args.pools}
    for idx in indexes.values():
        idx.search("warm up", limit=10)
    lat: dict[tuple[int, str], list[float]] = {(p, m): [] for p in args.pools for m in ("keyword", "hybrid")}
    for _ in range(args.runs):
        for q in qs:
            for p, idx in indexes.items():
                for mode in ("keyword", "hybrid"):
                    t = time.perf_counter()
                    idx.search(q, limit=10, mode=mode)
                    lat[(p, mode)].append((time.perf_counter() - t) * 1000)
    print("| pool per retriever | keyword p50 / p95 ms | hybrid p50 / p95 ms |")
    print("|---|---|---|")
    kept: dict[str, float] = {}
    for p in args.pools:
        cells = []
        for mode in ("keyword", "hybrid"):
            xs = sorted(lat[(p, mode)])
            cells.append(f"{statistics.median(xs):.1f} / {xs[int(0.95 * (len(xs) - 1))]:.1f}")
            kept |= {f"pool {p} {mode} p50 ms": statistics.median(xs),
                     f"pool {p} {mode} p95 ms": xs[int(0.95 * (len(xs) - 1))]}
        print(f"| {p} | {' | '.join(cells)} |")
    for idx in indexes.values():
        idx.close()
    common.record(__file__, args, kept)


if __name__ == "__main__":
    main()
