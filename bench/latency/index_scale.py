"""Index a large corpus cold, warm (nothing changed) and after touching one file; time queries.

    python bench/latency/index_scale.py [CORPUS_DIR] [--queries 200] [--embed-limit N] [--repeat 5] [--record]

CORPUS_DIR defaults to the django corpus of ../shared/bench (fetched by its fetch_corpora.py).
The corpus is copied to a temporary folder (the index lives inside the indexed root). ``--embed-limit``
caps the embedding phase (the full django embedding takes tens of minutes on 2 cores); the table
then extrapolates the full embedding time from the measured rate. The machine-wide caches (vectors,
optimized model graph) start empty, as on a new machine. Prints one table; ``--record`` keeps its numbers in
bench/results.jsonl.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bench/: `import common` (bench/README.md)

import common  # noqa: E402

from codesift import Index  # noqa: E402
from codesift.config.settings import Config  # noqa: E402

DEFAULT = common.CORPORA_CACHE / "django"
WORDS = ("request response middleware cache session user model query field form template url view "
         "test migration signal database connection transaction admin auth permission validate "
         "serialize render parse json file storage email log error handler").split()


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def spread(times: list[float]) -> str:
    return f"{statistics.median(times):.2f} ({min(times):.2f}–{max(times):.2f}, {len(times)} runs)"


def make_queries(index: Index, n: int, seed: int = 7) -> list[str]:
    """A mix of identifier queries (real symbol names) and natural-language word pairs/triples."""
    rng = random.Random(seed)
    names = [r[0] for r in index.store.db.execute(
        "SELECT name FROM chunks WHERE kind IN ('class','function','method') ORDER BY id")]
    out = []
    for i in range(n):
        if i % 2 == 0 and names:
            out.append(rng.choice(names))
        else:
            out.append(" ".join(rng.sample(WORDS, rng.choice((2, 3, 4)))))
    return out


def time_queries(index: Index, queries: list[str], mode: str) -> tuple[float, float]:
    times = []
    for q in queries:
        t = time.perf_counter()
        index.search(q, limit=10, mode=mode)
        times.append((time.perf_counter() - t) * 1000)
    times.sort()
    return statistics.median(times), times[int(len(times) * 0.95) - 1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("corpus", nargs="?", default=str(DEFAULT))
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--embed-limit", type=int, default=None, help="embed at most N chunks (default: all)")
    ap.add_argument("--repeat", type=int, default=5, help="runs of the warm and one-file measures")
    common.add_record_flag(ap)
    args = ap.parse_args()
    src = Path(args.corpus)
    if not src.is_dir():
        sys.exit(f"corpus not found: {src} (run ../shared/bench/fetch_corpora.py)")
    work = Path(tempfile.mkdtemp(prefix="codesift-bench-"))
    # A fresh machine-wide cache: vectors cached by an earlier run would make embedding look free.
    os.environ["CODESIFT_CACHE_DIR"] = str(work / "machine-cache")
    root = work / src.name
    shutil.copytree(src, root, symlinks=True)
    rows: list[tuple[str, str]] = []
    kept: dict[str, float] = {}  # the numbers of the rows, for --record
    try:
        index = Index(root, config=Config())
        t = time.perf_counter()
        stats = index.update(embed=False)
        t_kw = time.perf_counter() - t
        counts = index.store.counts()
        rows += [("files", f"{stats.files_seen}"), ("symbols", f"{counts['symbols']}"),
                 ("chunks", f"{counts['chunks']}"),
                 ("cold parse + keyword index s", f"{t_kw:.1f}"),
                 ("symbols/s (parse + keyword)", f"{counts['symbols'] / t_kw:,.0f}")]
        kept |= {"files": stats.files_seen, "symbols": counts["symbols"], "cold parse + keyword index s": t_kw}
        queries = make_queries(index, args.queries)
        p50, p95 = time_queries(index, queries, "keyword")
        rows.append(("keyword query p50 / p95 ms (keyword-only index)", f"{p50:.1f} / {p95:.1f}"))
        kept |= {"keyword-only index keyword p50 ms": p50, "keyword-only index keyword p95 ms": p95}
        t = time.perf_counter()
        done = index.update(embed=True, embed_limit=args.embed_limit).embedded
        t_emb = time.perf_counter() - t
        rate = done / t_emb if t_emb else 0.0
        rows.append(("embedded chunks / s", f"{done} in {t_emb:.1f} s = {rate:.1f}/s"))
        kept["embedded chunks/s"] = rate
        # The bare model on the same kind of text, side by side: tokenizer + ONNX only, no store.
        from itertools import islice

        from codesift.text.model_input import embed_text

        sample = [embed_text(r.to_chunk(), r.path) for r in islice(index.store.iter_chunks(), min(done, 500) or 500)]
        t = time.perf_counter()
        index.embedder().embed(sample)
        bare = len(sample) / (time.perf_counter() - t)
        rows.append(("bare model chunks / s (same texts, no store)", f"{bare:.1f} (codesift at {rate / bare:.0%} of it)"))
        kept["bare model chunks/s"] = bare
        pending = index.store.count_missing_embeddings()
        if pending:
            rows.append(("full embedding, extrapolated s", f"{(done + pending) / max(rate, 1e-9):,.0f}"))
        # With a capped embedding phase, later updates must not embed the backlog: embed_limit=0.
        cap = {"embed_limit": 0} if pending else {}
        warm_times, touch_times = [], []
        for _ in range(args.repeat):
            t = time.perf_counter()
            warm = index.update(**cap)
            warm_times.append(time.perf_counter() - t)
            assert warm.files_parsed == 0 and warm.embedded == 0, "warm re-index did work"
        rows.append(("warm re-index (nothing changed) s, median (min–max)", spread(warm_times)))
        kept["warm re-index s"] = statistics.median(warm_times)
        victims = [p for p in sorted(root.rglob("*.py")) if ".codesift" not in p.parts and p.stat().st_size > 2000]
        for i in range(args.repeat):
            victim = victims[i * 97 % len(victims)]
            victim.write_text(victim.read_text() + f"\n\ndef codesift_bench_touch_{i}():\n    return {i}\n")
            t = time.perf_counter()
            touched = index.update(embed=False)
            touch_times.append(time.perf_counter() - t)
            assert touched.files_parsed == 1, touched
        rows.append(("one file changed: keyword-searchable after s, median (min–max)", spread(touch_times)))
        kept["one file changed s"] = statistics.median(touch_times)
        for mode in ("keyword", "semantic", "hybrid"):
            index.search("warm up", mode=mode)
            p50, p95 = time_queries(index, queries, mode)
            rows.append((f"{mode} query p50 / p95 ms ({len(queries)} queries)", f"{p50:.1f} / {p95:.1f}"))
            kept |= {f"{mode} p50 ms": p50, f"{mode} p95 ms": p95}
        rows.append(("peak RSS MB", f"{peak_rss_mb():.0f}"))
        kept["peak RSS MB"] = peak_rss_mb()
        index.close()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    width = max(len(k) for k, _ in rows)
    print(f"corpus: {src}")
    print(f"| {'measure':<{width}} | value |\n|{'-' * (width + 2)}|-------|")
    for key, value in rows:
        print(f"| {key:<{width}} | {value} |")
    common.record(__file__, args, kept)


if __name__ == "__main__":
    main()
