"""MCP search latency while ``codesift serve`` embeds a fresh tree in the background, against the same
server idle.

    python bench/latency/serve_while_embedding.py [--corpus requests] [--seconds 20] [--src path/to/other/src]
                                                  [--record]

Copies a bench corpus into a temporary folder, starts ``codesift serve`` over stdio with an empty
machine-wide vector cache (the model's optimized graph is reused, so only embedding is measured) and
calls ``search_code`` in a loop while the server embeds; then starts a ``--no-embed`` server on the
same index and repeats the calls. ``--src`` runs another checkout's code (e.g. a worktree of an older
commit) for a side-by-side comparison. Prints p50 / p95 / max of each phase; ``--record`` keeps them in
bench/results.jsonl.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bench/: `import common` (bench/README.md)

import common  # noqa: E402

CORPORA = common.CORPORA_CACHE
QUERIES = [
    "where are redirects followed", "parse the json body", "session cookies", "timeout handling",
    "build the url with query parameters", "authentication header", "retry on connection error",
    "encode multipart form data", "read the response content in chunks", "proxy settings from environment",
]


def _numbers(lat: list[float]) -> dict[str, float]:
    lat = sorted(lat)
    return {"p50 ms": statistics.median(lat), "p95 ms": lat[min(len(lat) - 1, int(0.95 * len(lat)))],
            "max ms": lat[-1], "calls": len(lat)}


def _stats(lat: list[float]) -> str:
    n = _numbers(lat)
    return f"{n['p50 ms']:.0f} | {n['p95 ms']:.0f} | {n['max ms']:.0f} | {n['calls']}"


def phase(root: Path, env: dict[str, str], seconds: float, *, embed: bool) -> tuple[list[float], str]:
    """Calls of search_code for ``seconds``; returns latencies in ms and the last index_status line."""
    import anyio
    from mcp import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    args = ["-m", "codesift", "serve", str(root)] + ([] if embed else ["--no-embed"])
    params = StdioServerParameters(command=sys.executable, args=args, env=env)
    lat: list[float] = []
    last = [""]

    async def scenario() -> None:
        with open(os.devnull, "w") as devnull:
            async with stdio_client(params, errlog=devnull) as (read, write), ClientSession(read, write) as session:
                await session.initialize()
                await session.call_tool("search_code", {"query": "warm up"})
                end = time.monotonic() + seconds
                i = 0
                while time.monotonic() < end:
                    t = time.perf_counter()
                    result = await session.call_tool("search_code", {"query": QUERIES[i % len(QUERIES)], "limit": 10})
                    lat.append((time.perf_counter() - t) * 1000)
                    assert not result.is_error, result
                    i += 1
                    await anyio.sleep(0.2)
                status = await session.call_tool("index_status", {})
                text = status.content[0].text if status.content else ""
                last[0] = next((ln for ln in text.splitlines() if "embed" in ln.lower()), "")

    anyio.run(scenario)
    return lat, last[0]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpus", default="requests")
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--src", type=Path, help="run the codesift package found under this folder instead")
    common.add_record_flag(ap)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="codesift-bench-") as tmp:
        root = Path(tmp) / args.corpus
        shutil.copytree(CORPORA / args.corpus, root)
        cache = Path(tmp) / "cache"
        cache.mkdir()
        models = Path(os.environ.get("CODESIFT_CACHE_DIR", Path.home() / ".cache" / "codesift")) / "models"
        if models.is_dir():
            (cache / "models").symlink_to(models)
        env = {**os.environ, "CODESIFT_CACHE_DIR": str(cache)}
        if args.src:
            env["PYTHONPATH"] = str(args.src.resolve())
        busy, busy_status = phase(root, env, args.seconds, embed=True)
        idle, _ = phase(root, env, args.seconds / 2, embed=False)
    print(f"corpus {args.corpus}; after the busy phase: {busy_status.strip()}")
    print("| phase | p50 ms | p95 ms | max ms | calls |")
    print("|---|---|---|---|---|")
    print(f"| while embedding | {_stats(busy)} |")
    print(f"| idle | {_stats(idle)} |")
    common.record(__file__, args, {**{f"while embedding {k}": v for k, v in _numbers(busy).items()},
                                   **{f"idle {k}": v for k, v in _numbers(idle).items()}})


if __name__ == "__main__":
    main()
