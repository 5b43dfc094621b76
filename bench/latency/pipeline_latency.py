"""Query latency of the full ranking pipeline vs plain RRF, side by side in one run.

    python bench/pipeline_latency.py ROOT [--queries 200] [--stage learned_rerank] [--index-dir DIR]

ROOT must be indexed already (e.g. the django corpus after ``codesift index``). Queries alternate
between the two settings so machine noise hits both alike. Prints p50/p95 per setting and the ratio.
``--stage NAME`` compares the full pipeline with the same pipeline less that one switch instead of plain RRF.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from dataclasses import fields, replace
from pathlib import Path

from codesift import Index
from codesift.config.settings import Config
from codesift.config.rank import RankSettings

WORDS = ("request response middleware cache session user model query field form template url view test "
         "migration signal database connection transaction admin auth permission validate serialize").split()


def latency_queries(index: Index, n: int) -> list[str]:
    """``n`` queries, alternately a four-word phrase and the name of one of the index's functions."""
    rng = random.Random(3)
    names = [r[0] for r in index.store.db.execute("SELECT name FROM chunks WHERE kind='function' LIMIT 5000")]
    if not names:
        sys.exit(f"{index.root} holds no functions: index it first")
    return [rng.choice(names) if i % 2 else " ".join(rng.sample(WORDS, 4)) for i in range(n)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("root")
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--stage", help="a [rank] switch: compare with the pipeline less this stage")
    ap.add_argument("--index-dir", help="the index's folder, when not ROOT/.codesift (a bench index)")
    args = ap.parse_args()
    if not args.index_dir and not (Path(args.root) / ".codesift").is_dir():  # Index() would create one
        sys.exit(f"{args.root} is not indexed: run `codesift index {args.root}` first")
    index = Index(args.root, config=Config(index_dir=args.index_dir)) if args.index_dir else Index(args.root)
    if not index.store.counts()["chunks"]:
        sys.exit(f"{args.root} is not indexed: run `codesift index {args.root}` first")
    queries = latency_queries(index, args.queries)
    full = index.config.rank
    if args.stage:
        if not isinstance(getattr(full, args.stage, None), bool):
            sys.exit(f"{args.stage} is not a [rank] switch")
        other, label = replace(full, **{args.stage: False}), f"without {args.stage}"
    else:
        other, label = replace(full, **{f.name: False for f in fields(RankSettings)
                                        if isinstance(getattr(full, f.name), bool)}), "plain RRF"
    indexes = {"full pipeline": index, label: Index(args.root, config=replace(index.config, rank=other))}
    times: dict[str, list[float]] = {k: [] for k in indexes}
    for idx in indexes.values():
        idx.search("warm up")
    for q in queries:
        for label, idx in indexes.items():
            t = time.perf_counter()
            idx.search(q, limit=10)
            times[label].append((time.perf_counter() - t) * 1000)
    print(f"root: {index.root} ({index.store.counts()['chunks']} chunks), {len(queries)} queries, hybrid")
    print("| setting | p50 ms | p95 ms |\n|---|---|---|")
    for label, ts in times.items():
        ts.sort()
        print(f"| {label} | {statistics.median(ts):.1f} | {ts[int(len(ts) * 0.95) - 1]:.1f} |")
    ratio = statistics.median(times["full pipeline"]) / statistics.median(times[label])
    print(f"p50 ratio full / {label}: {ratio:.2f}")


if __name__ == "__main__":
    main()
