"""How query cost grows with the index: synthetic symbols at 10k, 50k, 100k and 500k.

    python bench/query_scale.py [--sizes 10000 50000 100000 500000] [--vectors-up-to 100000]

Symbols are generated (realistic identifier names, signatures, docstrings and bodies) and written
straight into the store, the keyword index and the vector cache, so the parser is not part of the
measure (bench/index_scale.py times parsing on django). Vectors are random unit vectors: HNSW cost
depends on their count and dimension, not their meaning. Each size runs in a fresh subprocess so
peak RSS is per size. Prints: build seconds, hybrid/keyword query p50/p95, find_symbol p50/p95,
RSS after serving queries.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

WORDS = ("get set build parse render load save user session cookie token request response cache query "
         "model field form view url route auth password hash json file path stream buffer header body "
         "config settings handler middleware signal event queue worker task job retry timeout error").split()


def names(rng: random.Random, n: int) -> list[str]:
    out = []
    for i in range(n):
        parts = rng.sample(WORDS, rng.choice((2, 3, 4)))
        out.append("_".join(parts) + f"_{i}" if i % 3 else "".join(p.title() for p in parts) + str(i))
    return out


def child(size: int, with_vectors: bool, queries: int) -> dict:
    import numpy as np

    from codesift import Index
    from codesift.config import Config
    from codesift.model import Chunk
    from codesift.store.keyword import keyword_fields

    os.environ.setdefault("CODESIFT_EMBEDDER", "local")
    rng = random.Random(size)
    work = Path(tempfile.mkdtemp(prefix="codesift-scale-"))
    try:
        index = Index(work, config=Config())
        store, kw = index.store, index.keyword
        all_names = names(rng, size)
        t = time.perf_counter()
        per_file = 50
        dim = 384
        for f in range(0, size, per_file):
            chunks, hashes = [], []
            for j, name in enumerate(all_names[f : f + per_file]):
                doc = " ".join(rng.sample(WORDS, 8))
                body = f"def {name}(self, {rng.choice(WORDS)}):\n    \"\"\"{doc}.\"\"\"\n" + "\n".join(
                    f"    {rng.choice(WORDS)}_{k} = {rng.choice(WORDS)}({rng.choice(WORDS)})" for k in range(8))
                chunks.append(Chunk("function", name, f"Mod{f}.{name}", j * 12 + 1, j * 12 + 11, body, "python",
                                    signature=f"def {name}(self)", docstring=doc))
                hashes.append(f"h{f + j}")
            path = f"pkg/mod_{f // per_file}.py"
            file_id, ids = store.replace_file(path, 1, 1.0, f"d{f}", "python", chunks, hashes)
            for cid, c in zip(ids, chunks):
                kw.add_fields(cid, file_id, path, "python", "function",
                              keyword_fields(c.name, c.qualified_name, c.docstring, c.text, path))
            if with_vectors:
                vecs = np.random.default_rng(f).normal(size=(len(chunks), dim)).astype(np.float32)
                vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
                store.put_vectors(hashes, vecs)
        store.set_meta("model_id", "all-MiniLM-L6-v2-int8-onnx")
        store.set_meta("model_dim", dim)
        store.bump("generation")
        store.db.commit()
        kw.commit()
        build = time.perf_counter() - t
        qs = [rng.choice(all_names) if i % 2 else " ".join(rng.sample(WORDS, 4)) for i in range(queries)]
        modes = ("keyword", "hybrid") if with_vectors else ("keyword",)
        out = {"size": size, "build_s": round(build, 1), "vectors": with_vectors}
        for mode in modes:
            t = time.perf_counter()
            index.search("warm up", mode=mode)  # loads the model / builds the vector snapshot
            out[f"{mode}_first_s"] = round(time.perf_counter() - t, 2)
            lat = []
            for q in qs:
                t = time.perf_counter()
                index.search(q, mode=mode)
                lat.append((time.perf_counter() - t) * 1000)
            lat.sort()
            out[mode] = (round(statistics.median(lat), 1), round(lat[int(len(lat) * 0.95) - 1], 1))
        lat = []
        for q in qs:
            probe = q.split()[0][: rng.choice((3, 6, 40))]
            t = time.perf_counter()
            index.find_symbol(probe)
            lat.append((time.perf_counter() - t) * 1000)
        lat.sort()
        out["find_symbol"] = (round(statistics.median(lat), 2), round(lat[int(len(lat) * 0.95) - 1], 2))
        out["rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
        with open("/proc/self/status") as fh:  # Linux: RSS now, while serving (the peak includes the build)
            out["rss_now_mb"] = int(fh.read().split("VmRSS:")[1].split()[0]) // 1024
        index.close()
        return out
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", type=int, nargs="+", default=[10_000, 50_000, 100_000, 500_000])
    ap.add_argument("--vectors-up-to", type=int, default=100_000)
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--child", type=int, help=argparse.SUPPRESS)
    ap.add_argument("--with-vectors", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        print(json.dumps(child(args.child, args.with_vectors, args.queries)))
        return
    print("| symbols | vectors | build s | keyword p50/p95 ms | hybrid p50/p95 ms | first hybrid s | "
          "find_symbol p50/p95 ms | peak RSS MB (incl. build) | RSS serving MB |")
    print("|---|---|---|---|---|---|---|---|---|")
    for size in args.sizes:
        cmd = [sys.executable, __file__, "--child", str(size), "--queries", str(args.queries)]
        if size <= args.vectors_up_to:
            cmd.append("--with-vectors")
        res = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout.strip().splitlines()[-1])
        hy = res.get("hybrid")
        print(f"| {size:,} | {'yes' if res['vectors'] else 'no'} | {res['build_s']} | {res['keyword'][0]} / "
              f"{res['keyword'][1]} | {f'{hy[0]} / {hy[1]}' if hy else '-'} | {res.get('hybrid_first_s', '-')} | "
              f"{res['find_symbol'][0]} / {res['find_symbol'][1]} | {res['rss_mb']} | {res.get('rss_now_mb', '-')} |",
              flush=True)


if __name__ == "__main__":
    main()
