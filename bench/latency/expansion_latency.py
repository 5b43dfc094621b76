"""Latency of the optional keyword-side stages: vocabulary expansion, NEAR and last-word prefix.

    python bench/latency/expansion_latency.py [--symbols 100000] [--index ROOT [--index-dir DIR]] [--queries 200]
                                              [--record]

Part 1 needs no index: the vocabulary expansion's co-occurrence table is built from ``--symbols`` real
symbol names (the qualified names of the public bench corpora, ``$CODESIFT_BENCH_INDEX``, repeated with
each class paired with another corpus's methods until there are enough), then ``suggest`` answers the
hand-written queries: build seconds, table size, and suggest p50/p95 (the budget: < 5 ms at 100k).

Part 2, with ``--index ROOT`` (an indexed tree; ``--index-dir`` when its index lives elsewhere): keyword
search p50/p95 through the Python API for the plain query compilation and with each stage switched on
(``rank.keyword_near``, ``rank.keyword_prefix``, ``query_expansion = "vocab"``), over ``--queries``
queries (half symbol names, half four-word phrases as bench/latency/query_scale.py asks when the tree is its
synthetic one, else the hand-written queries). Runs interleave the settings so load drifts hit all alike.
``--record`` keeps the build seconds and every p50/p95 in bench/results.jsonl.
"""

from __future__ import annotations

import argparse
import random
import sqlite3
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bench/: `import common` (bench/README.md)

import common  # noqa: E402
from common import INDEX_HOME  # noqa: E402

from codesift import Index  # noqa: E402
from codesift.config.rank import RankSettings  # noqa: E402
from codesift.config.settings import Config  # noqa: E402
from codesift.query.expand import Vocabulary  # noqa: E402
from codesift.text.tokens import tokenize  # noqa: E402

KEPT: dict[str, float] = {}  # the headline numbers, for --record


def ms(lat: list[float]) -> tuple[float, float]:
    """p50 and p95 of ``lat`` (seconds), in milliseconds."""
    lat = sorted(lat)
    return 1000 * statistics.median(lat), 1000 * lat[max(0, int(len(lat) * 0.95) - 1)]


def pct(lat: list[float]) -> str:
    return "{:.2f} / {:.2f}".format(*ms(lat))


def bench_queries() -> list[str]:
    try:
        return [q["query"] for q in common.load_sets(["handwritten"], None)["handwritten"]]
    except (Exception, SystemExit):  # noqa: BLE001 - the shared bench is optional here
        return ["where are redirects followed", "parse the cookie header into a jar",
                "stream the response body in chunks", "register a blueprint on the application"]


def real_names(n: int) -> list[str]:
    names: list[str] = []
    for corpus in common.QUALITY_CORPORA:
        db = INDEX_HOME / corpus / "meta.db"
        if db.is_file():
            con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
            names += [r[0] for r in con.execute(
                "SELECT qualified_name FROM chunks WHERE kind NOT IN ('module','window','section')")]
            con.close()
    if not names:
        raise SystemExit(f"no bench indexes under {INDEX_HOME}: run bench/quality/quality.py once")
    rng = random.Random(0)
    out = list(names)
    while len(out) < n:  # new names: one corpus's parent with another's member
        a, b = rng.choice(names), rng.choice(names)
        out.append(f"{a.rsplit('.', 1)[0]}.{b.rsplit('.', 1)[-1]}")
    return out[:n]


def part1(symbols: int) -> None:
    names = real_names(symbols)
    t = time.perf_counter()
    vocab = Vocabulary.from_names(names)
    build = time.perf_counter() - t
    queries = bench_queries()
    lat = []
    for q in queries * 3:
        words = tokenize(q)
        t = time.perf_counter()
        vocab.suggest(words)
        lat.append(time.perf_counter() - t)
    print(f"| vocabulary of {len(names):,} names | {len(vocab.parts):,} parts, {vocab.table.shape[0]:,} rows | "
          f"build {build:.2f} s | suggest p50/p95 {pct(lat)} ms ({len(lat)} calls) |")
    KEPT.update({"names": len(names), "vocabulary build s": build, "suggest p50 ms": ms(lat)[0],
                 "suggest p95 ms": ms(lat)[1]})


def part2(root: Path, index_dir: str | None, n: int) -> None:
    base = Config(index_dir=index_dir) if index_dir else None
    settings = {
        "plain": {},
        "near": {"rank": RankSettings(keyword_near=True)},
        "prefix": {"rank": RankSettings(keyword_prefix=True)},
        "vocab expansion": {"query_expansion": "vocab"},
    }
    indexes = {}
    for label, over in settings.items():
        cfg = base or Config()
        if "rank" in over:
            over = {**over, "rank": replace(cfg.rank, **{k: getattr(over["rank"], k)
                                                         for k in ("keyword_near", "keyword_prefix")})}
        indexes[label] = Index(root, config=replace(cfg, **over), create=False)
    try:
        count = indexes["plain"].store.db.execute("SELECT count(*) FROM chunks").fetchone()[0]
        queries = common.scale_queries(count, n) if (root / "pkg").is_dir() else bench_queries()[:n]
    except Exception:  # noqa: BLE001
        queries = bench_queries()[:n]
    for idx in indexes.values():  # warm: open the searchers, build/load the vocabulary
        idx.search(queries[1], mode="keyword")
    lat: dict[str, list[float]] = {k: [] for k in settings}
    for q in queries:
        for label, idx in indexes.items():
            t = time.perf_counter()
            idx.search(q, mode="keyword")
            lat[label].append(time.perf_counter() - t)
    print(f"\nkeyword search on {root} ({len(queries)} queries)\n")
    print("| setting | p50 / p95 ms |")
    print("|---|---|")
    for label, values in lat.items():
        print(f"| {label} | {pct(values)} |")
        KEPT.update({f"keyword {label} p50 ms": ms(values)[0], f"keyword {label} p95 ms": ms(values)[1]})
    for idx in indexes.values():
        idx.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--symbols", type=int, default=100_000)
    ap.add_argument("--index", type=Path)
    ap.add_argument("--index-dir")
    ap.add_argument("--queries", type=int, default=200)
    common.add_record_flag(ap)
    args = ap.parse_args()
    part1(args.symbols)
    if args.index:
        part2(args.index, args.index_dir, args.queries)
    common.record(__file__, args, KEPT)


if __name__ == "__main__":
    main()
