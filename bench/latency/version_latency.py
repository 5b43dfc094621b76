"""Query latency of this checkout against another revision of codesift, on one index, side by side.

    python bench/latency/version_latency.py ROOT --rev 5eb0fe5 [--rounds 5] [--mode hybrid] [--index-dir DIR]
                                            [--record]
    python bench/latency/version_latency.py ROOT --other-src /path/to/other/src [...]

For a change meant to make search faster without changing results: each round runs the same queries (half
function names of the index, half four-word phrases: ``common.latency_queries``, as pipeline_latency.py's) in a
fresh process of each version, in turn, so machine noise hits both alike; prints the median over rounds of each
version's p50 (all queries, names, phrases) and the ratio. ``--rev`` checks the revision out into a temporary git
worktree (removed afterwards). ROOT must be indexed by a codesift both versions read (e.g. a
``bench/latency/query_scale.py --keep`` build at 100k symbols). ``--record`` keeps both versions' p50s and the
ratios in bench/results.jsonl.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bench/: `import common` (bench/README.md)

import common  # noqa: E402


def child(root: str, index_dir: str | None, mode: str, queries: int) -> dict:
    """One version's p50s (ms) over the queries, in this process (the version on ``sys.path`` first)."""
    import codesift
    from codesift import Config, Index  # the package root: the same names in every layout

    index = Index(root, config=Config(index_dir=index_dir)) if index_dir else Index(root)
    qs = common.latency_queries(index, queries)  # the same queries as pipeline_latency.py's
    index.search("warm up", mode=mode)
    lat = []
    for q in qs:
        t = time.perf_counter()
        index.search(q, mode=mode)
        lat.append((time.perf_counter() - t) * 1000)
    return {"src": str(Path(codesift.__file__).parent), "all": statistics.median(lat),
            "names": statistics.median(lat[1::2]), "phrases": statistics.median(lat[0::2])}


def run_version(src: str | None, args: argparse.Namespace) -> dict:
    env = dict(os.environ)
    if src:
        env["PYTHONPATH"] = src + os.pathsep + env.get("PYTHONPATH", "")
    cmd = [sys.executable, __file__, args.root, "--child", "--mode", args.mode, "--queries", str(args.queries)]
    if args.index_dir:
        cmd += ["--index-dir", args.index_dir]
    done = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no message"])[-1]
        sys.exit(f"the run with {src or 'this checkout'} failed: {last}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def compare(other_src: str, args: argparse.Namespace) -> None:
    """Both versions in turn, ``args.rounds`` times; prints their median p50s and ratios (and records them)."""
    rows: dict[str, list[dict]] = {"this checkout": [], "other": []}
    for _ in range(args.rounds):
        rows["other"].append(run_version(other_src, args))
        rows["this checkout"].append(run_version(None, args))
    print(f"root: {args.root}, {args.queries} queries × {args.rounds} rounds, {args.mode}; "
          f"other: {rows['other'][0]['src']}")
    print("| version | p50 ms | names p50 | phrases p50 |\n|---|---|---|---|")
    med = {label: {k: statistics.median(r[k] for r in runs) for k in ("all", "names", "phrases")}
           for label, runs in rows.items()}
    for label, m in med.items():
        print(f"| {label} | {m['all']:.2f} | {m['names']:.2f} | {m['phrases']:.2f} |")
    ratios = " ".join(f"{k} ×{med['this checkout'][k] / med['other'][k]:.3f}" for k in ("all", "names", "phrases"))
    print(f"this checkout / other: {ratios}")
    common.record(__file__, args, {**{f"{label} {k} p50 ms": m[k] for label, m in med.items() for k in m},
                                   **{f"this checkout / other {k}": med["this checkout"][k] / med["other"][k]
                                      for k in ("all", "names", "phrases")}})


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("root")
    which = ap.add_mutually_exclusive_group()
    which.add_argument("--rev", help="a git revision of this repository to compare with")
    which.add_argument("--other-src", help="the src/ folder of another codesift checkout")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--mode", default="hybrid", choices=("hybrid", "keyword", "semantic"))
    ap.add_argument("--index-dir", help="the index's folder, when not ROOT/.codesift")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    common.add_record_flag(ap)
    args = ap.parse_args()
    if args.child:
        print(json.dumps(child(args.root, args.index_dir, args.mode, args.queries)))
        return
    if not args.index_dir and not (Path(args.root) / ".codesift").is_dir():
        sys.exit(f"{args.root} is not indexed: run `codesift index {args.root}` first")
    if args.other_src:
        if not (Path(args.other_src) / "codesift").is_dir():
            sys.exit(f"{args.other_src} holds no codesift package")
        compare(str(Path(args.other_src).resolve()), args)
        return
    if not args.rev:
        sys.exit("give --rev REV or --other-src DIR")
    repo = common.REPO
    known = subprocess.run(["git", "-C", str(repo), "rev-parse", "--verify", "-q", f"{args.rev}^{{commit}}"],
                           capture_output=True)
    if known.returncode != 0:
        sys.exit(f"{args.rev} is no revision of {repo}")
    with tempfile.TemporaryDirectory(prefix="codesift-rev-") as tmp:
        tree = Path(tmp) / "tree"
        subprocess.run(["git", "-C", str(repo), "worktree", "add", "--detach", "-q", str(tree), args.rev], check=True)
        try:
            compare(str(tree / "src"), args)
        finally:
            subprocess.run(["git", "-C", str(repo), "worktree", "remove", "--force", str(tree)], check=False)


if __name__ == "__main__":
    main()
