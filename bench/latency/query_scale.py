"""How query cost grows with the index: synthetic symbols at 10k, 50k, 100k and 500k.

    python bench/latency/query_scale.py [--sizes 10000 50000 100000 500000] [--vectors-up-to 100000]
                                        [--mcp-up-to 100000] [--keep DIR] [--runs 3] [--record]

Symbols are generated (realistic identifier names, signatures, docstrings and bodies), written as real
files and straight into the store, the keyword index and the vector cache, so the parser is not part
of the measure (bench/latency/index_scale.py times parsing on django). Vectors are random unit vectors: HNSW
cost depends on their count and dimension, not their meaning; 17.5 % of the symbols also get 1-3 window vectors
(store/windows.py), the bench corpora's 0.35 a chunk. Per size, three fresh processes:

- build: writes the files and the index (build seconds);
- serve: opens the index like a server would and answers queries through the Python API (the first
  hybrid query loads the model and the vector index; then p50/p95 of keyword, hybrid and find_symbol
  over ``--queries`` queries, repeated ``--runs`` times: the median run's percentiles are printed)
  — its peak RSS is the serving peak;
- mcp: ``codesift serve`` over stdio, driven by the official MCP client: search_code p50/p95 and the
  server process's peak RSS.

``--keep DIR`` keeps the built indexes there and reuses them on the next run (one built by another parser
version, or before builds recorded theirs, is built again). ``--record`` keeps each size's row in
bench/results.jsonl.
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

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bench/: `import common` (bench/README.md)

import common  # noqa: E402
from common import SCALE_WORDS as WORDS  # noqa: E402 - the generated names, docstrings and bodies use them

PER_FILE = 50
DIM = 384


def build(size: int, root: Path, with_vectors: bool) -> dict:
    import numpy as np

    from codesift import Index
    from codesift.config.settings import Config
    from codesift.datatypes import PARSER_VERSION, Chunk
    from codesift.store.keyword import keyword_fields

    rng = random.Random(size)
    wrng = random.Random(-size)  # the windows' own, so that the symbols are those of earlier builds
    index = Index(root, config=Config())
    store, kw = index.store, index.keyword
    all_names = common.scale_names(rng, size)
    t = time.perf_counter()
    for f in range(0, size, PER_FILE):
        chunks, hashes, bodies = [], [], []
        for j, name in enumerate(all_names[f : f + PER_FILE]):
            doc = " ".join(rng.sample(WORDS, 8))
            body = f"def {name}(self, {rng.choice(WORDS)}):\n    \"\"\"{doc}.\"\"\"\n" + "\n".join(
                f"    {rng.choice(WORDS)}_{k} = {rng.choice(WORDS)}({rng.choice(WORDS)})" for k in range(8))
            chunks.append(Chunk("function", name, name, j * 12 + 1, j * 12 + 10, body, "python",
                                signature=f"def {name}(self)", docstring=doc))
            hashes.append(f"h{f + j}")
            bodies.append(body + "\n\n")  # 10 lines of body + 2 blank lines: chunk j starts at 12j+1
        path = f"pkg/mod_{f // PER_FILE}.py"
        file = root / path
        file.parent.mkdir(parents=True, exist_ok=True)
        file.write_text("".join(bodies))
        st = file.stat()
        # long chunks' window vectors (store/windows.py) at the bench corpora's density: 0.35 a chunk there (long
        # definitions outside tests and examples); the generated bodies are all short, so 17.5 % of the symbols get
        # 1-3 windows (0.35 a chunk) - their count is what a vector search costs, not their text
        windows = [[f"w{f + j}.{n}" for n in range(wrng.randint(1, 3) if wrng.random() < 0.175 else 0)]
                   for j in range(len(chunks))]
        file_id, ids = store.replace_file(path, st.st_size, st.st_mtime, f"d{f}", "python", chunks, hashes,
                                          window_hashes=windows)
        for cid, c in zip(ids, chunks):
            kw.add_fields(cid, file_id, path, "python", "function",
                          keyword_fields(c.name, c.qualified_name, c.docstring, c.text, path))
        if with_vectors:
            vecs = np.random.default_rng(f).normal(size=(len(chunks), DIM)).astype(np.float32)
            vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
            store.put_vectors(hashes, vecs)
            flat = [h for hs in windows for h in hs]
            if flat:
                wvecs = np.random.default_rng(size + f).normal(size=(len(flat), DIM)).astype(np.float32)
                store.put_vectors(flat, wvecs / np.linalg.norm(wvecs, axis=1, keepdims=True))
    # Written like the indexer's own: ``codesift serve`` (the MCP phase) refreshes the index at start and
    # would otherwise re-parse every file and drop the vectors of a --keep build for the next run.
    store.set_meta("parser_version", PARSER_VERSION)
    store.set_meta("model_id", "all-MiniLM-L6-v2-int8-onnx")
    store.set_meta("model_dim", DIM)
    store.set_meta("last_update", time.time())
    store.bump("generation")
    store.db.commit()
    kw.commit()
    build_s = time.perf_counter() - t
    t = time.perf_counter()
    if with_vectors:  # the vector snapshot (and HNSW graph above 20k) is part of building
        index.dense.vector_index(index.embedder())
    print(f"{size} symbols: {store.window_counts()[0]} window vectors", file=sys.stderr)
    index.close()
    return {"build_s": round(build_s, 1), "vector_index_s": round(time.perf_counter() - t, 1),
            "parser_version": PARSER_VERSION}


def _percentiles(lat: list[float]) -> tuple[float, float]:
    lat = sorted(lat)
    return statistics.median(lat), lat[max(0, int(len(lat) * 0.95) - 1)]


def _median_run(runs: list[tuple[float, float]]) -> tuple[float, float]:
    return sorted(runs)[len(runs) // 2]


def serve(size: int, root: Path, with_vectors: bool, n: int, runs: int) -> dict:
    from codesift import Index

    qs = common.scale_queries(size, n)
    out: dict = {}
    t = time.perf_counter()
    index = Index(root)
    modes = ("keyword", "hybrid") if with_vectors else ("keyword",)
    for mode in modes:
        t = time.perf_counter()
        index.search("warm up", mode=mode)  # loads the model / opens the vector index
        out[f"{mode}_first_s"] = round(time.perf_counter() - t, 2)
        per_run = []
        for _ in range(runs):
            lat = []
            for q in qs:
                t = time.perf_counter()
                index.search(q, mode=mode)
                lat.append((time.perf_counter() - t) * 1000)
            per_run.append(_percentiles(lat))
        out[mode] = _median_run(per_run)
    rng = random.Random(size + 2)
    probes = [q.split()[0][: rng.choice((3, 6, 40))] for q in qs]
    per_run = []
    for _ in range(runs):
        lat = []
        for probe in probes:
            t = time.perf_counter()
            index.find_symbol(probe)
            lat.append((time.perf_counter() - t) * 1000)
        per_run.append(_percentiles(lat))
    out["find_symbol"] = _median_run(per_run)
    out["rss_peak_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
    with open("/proc/self/status") as fh:
        out["rss_now_mb"] = int(fh.read().split("VmRSS:")[1].split()[0]) // 1024
    index.close()
    return out


def mcp(size: int, root: Path, n: int, runs: int) -> dict:
    """search_code through ``codesift serve`` over stdio with the MCP SDK client."""
    import anyio
    from mcp import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    qs = common.scale_queries(size, n)
    params = StdioServerParameters(command=sys.executable, args=["-m", "codesift", "serve", "--no-embed", str(root)],
                                   env={**os.environ})
    out: dict = {}

    async def scenario() -> None:
        with open(os.devnull, "w") as devnull:
            async with stdio_client(params, errlog=devnull) as (read, write), ClientSession(read, write) as session:
                await session.initialize()
                t = time.perf_counter()
                await session.call_tool("search_code", {"query": "warm up"})
                out["first_s"] = round(time.perf_counter() - t, 2)
                per_run = []
                for _ in range(runs):
                    lat = []
                    for q in qs:
                        t = time.perf_counter()
                        result = await session.call_tool("search_code", {"query": q, "limit": 10})
                        lat.append((time.perf_counter() - t) * 1000)
                        assert not result.is_error, result
                    per_run.append(_percentiles(lat))
                out["search_code"] = _median_run(per_run)
                out["server_rss_peak_mb"] = _server_peak_rss(root)

    anyio.run(scenario)
    return out


def _server_peak_rss(root: Path) -> int | None:
    """VmHWM of the ``codesift serve`` process serving ``root`` (found through /proc)."""
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            cmd = (proc / "cmdline").read_bytes().split(b"\0")
            if b"serve" in cmd and str(root).encode() in cmd:
                status = (proc / "status").read_text()
                return int(status.split("VmHWM:")[1].split()[0]) // 1024
        except (OSError, IndexError):
            continue
    return None


def _child(args: list[str]) -> dict:
    res = subprocess.run([sys.executable, __file__, *args], check=True, capture_output=True, text=True)
    return json.loads(res.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", type=int, nargs="+", default=[10_000, 50_000, 100_000, 500_000])
    ap.add_argument("--vectors-up-to", type=int, default=100_000)
    ap.add_argument("--mcp-up-to", type=int, default=100_000)
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--keep", help="keep built indexes in this folder and reuse them")
    ap.add_argument("--phase", choices=("build", "serve", "mcp"), help=argparse.SUPPRESS)
    ap.add_argument("--size", type=int, help=argparse.SUPPRESS)
    ap.add_argument("--root", help=argparse.SUPPRESS)
    ap.add_argument("--with-vectors", action="store_true", help=argparse.SUPPRESS)
    common.add_record_flag(ap)
    args = ap.parse_args()
    if args.phase:
        root = Path(args.root)
        if args.phase == "build":
            res = build(args.size, root, args.with_vectors)
        elif args.phase == "serve":
            res = serve(args.size, root, args.with_vectors, args.queries, args.runs)
        else:
            res = mcp(args.size, root, args.queries, args.runs)
        print(json.dumps(res))
        return
    from codesift.datatypes import PARSER_VERSION  # a kept build of another parser version is built again

    keep = Path(args.keep) if args.keep else None
    print(f"{args.queries} queries (half symbol names, half 4-word phrases) × {args.runs} runs; "
          "p50/p95 of the median run; RSS in MB")
    print("| symbols | vectors | build s | vector index s | keyword p50/p95 ms | hybrid p50/p95 ms | "
          "first hybrid s | find_symbol p50/p95 ms | serving peak RSS | MCP search_code p50/p95 ms | "
          "MCP server peak RSS |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    kept: dict[str, float | None] = {}
    for size in args.sizes:
        vec = size <= args.vectors_up_to
        base = keep or Path(tempfile.mkdtemp(prefix="codesift-scale-"))
        root = base / f"{size}{'-v' if vec else ''}"
        done = root / ".codesift" / "bench-built.json"
        try:
            built = json.loads(done.read_text()) if done.exists() else {}
            if built.get("parser_version") != PARSER_VERSION:  # none yet, or another parser's
                shutil.rmtree(root, ignore_errors=True)
                root.mkdir(parents=True)
                built = _child(["--phase", "build", "--size", str(size), "--root", str(root),
                                *(["--with-vectors"] if vec else [])])
                done.write_text(json.dumps(built))
            shared_args = ["--size", str(size), "--root", str(root), "--queries", str(args.queries),
                           "--runs", str(args.runs)]
            served = _child(["--phase", "serve", *shared_args, *(["--with-vectors"] if vec else [])])
            over_mcp = _child(["--phase", "mcp", *shared_args]) if size <= args.mcp_up_to else {}
        finally:
            if keep is None:
                shutil.rmtree(base, ignore_errors=True)
        fmt = lambda pair: f"{pair[0]:.1f} / {pair[1]:.1f}" if pair else "-"  # noqa: E731
        print(f"| {size:,} | {'yes' if vec else 'no'} | {built['build_s']} | {built['vector_index_s'] if vec else '-'} | "
              f"{fmt(served['keyword'])} | {fmt(served.get('hybrid'))} | {served.get('hybrid_first_s', '-')} | "
              f"{served['find_symbol'][0]:.2f} / {served['find_symbol'][1]:.2f} | {served['rss_peak_mb']} | "
              f"{fmt(over_mcp.get('search_code'))} | {over_mcp.get('server_rss_peak_mb', '-')} |", flush=True)
        kept |= {f"{size} build s": built["build_s"], f"{size} keyword p50 ms": served["keyword"][0],
                 f"{size} keyword p95 ms": served["keyword"][1], f"{size} find_symbol p50 ms": served["find_symbol"][0],
                 f"{size} serving peak RSS MB": served["rss_peak_mb"]}
        if served.get("hybrid"):
            kept |= {f"{size} hybrid p50 ms": served["hybrid"][0], f"{size} hybrid p95 ms": served["hybrid"][1]}
        if over_mcp.get("search_code"):
            kept |= {f"{size} MCP search_code p50 ms": over_mcp["search_code"][0],
                     f"{size} MCP server peak RSS MB": over_mcp.get("server_rss_peak_mb")}
    common.record(__file__, args, kept)


if __name__ == "__main__":
    main()
