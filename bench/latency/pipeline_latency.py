"""Query latency of the full ranking pipeline vs plain RRF, side by side in one run.

    python bench/latency/pipeline_latency.py ROOT [--queries 200] [--stage learned_rerank] [--index-dir DIR] [--record]

ROOT must be indexed already (e.g. the django corpus after ``codesift index``). Queries alternate
between the two settings so machine noise hits both alike. Prints p50/p95 per setting and the ratio.
``--stage NAME`` compares the full pipeline with the same pipeline less that one switch instead of plain RRF.
``--record`` keeps both settings' p50/p95 and the ratio in bench/results.jsonl.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from dataclasses import fields, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bench/: `import common` (bench/README.md)

import common  # noqa: E402

from codesift import Index  # noqa: E402
from codesift.config.rank import RankSettings  # noqa: E402
from codesift.config.settings import Config  # noqa: E402
from codesift.rank.pipeline import stage  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("root")
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--stage", help="a stage of codesift.rank.pipeline.STAGES or another [rank] switch: compare "
                    "with the pipeline less it")
    ap.add_argument("--index-dir", help="the index's folder, when not ROOT/.codesift (a bench index)")
    common.add_record_flag(ap)
    args = ap.parse_args()
    if not args.index_dir and not (Path(args.root) / ".codesift").is_dir():  # Index() would create one
        sys.exit(f"{args.root} is not indexed: run `codesift index {args.root}` first")
    index = Index(args.root, config=Config(index_dir=args.index_dir)) if args.index_dir else Index(args.root)
    if not index.store.counts()["chunks"]:
        sys.exit(f"{args.root} is not indexed: run `codesift index {args.root}` first")
    queries = common.latency_queries(index, args.queries)
    full = index.config.rank
    if args.stage:
        try:  # a stage of the ranking pipeline, by name
            other = stage(args.stage).off(full)
        except (KeyError, ValueError) as exc:
            if not isinstance(getattr(full, args.stage, None), bool):  # or another [rank] switch
                sys.exit(f"{args.stage} is not a stage that can be switched off, nor a [rank] switch ({exc})")
            other = replace(full, **{args.stage: False})
        label = f"without {args.stage}"
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
    kept: dict[str, float] = {}
    for label, ts in times.items():
        ts.sort()
        print(f"| {label} | {statistics.median(ts):.1f} | {ts[int(len(ts) * 0.95) - 1]:.1f} |")
        kept |= {f"{label} p50 ms": statistics.median(ts), f"{label} p95 ms": ts[int(len(ts) * 0.95) - 1]}
    ratio = statistics.median(times["full pipeline"]) / statistics.median(times[label])
    print(f"p50 ratio full / {label}: {ratio:.2f}")
    common.record(__file__, args, {"chunks": index.store.counts()["chunks"], **kept, f"p50 full / {label}": ratio})


if __name__ == "__main__":
    main()
