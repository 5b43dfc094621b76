"""What reading Rust macro arguments as code (``codesift.parse.macro_args``) costs at parse time.

    python bench/macro_args_cost.py [DIR ...] [--rounds 5]

Parses every ``.rs`` file under the folders (default: the Rust corpora of the public and dev benches, as
``bench/quality.py`` and ``bench/devset.py`` fetched them) into chunks and references, once with macro
arguments read again and once with their token trees left as they are, interleaved so machine noise hits
both alike. Prints the median seconds per round, the ratio, and the references each way.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path
from unittest import mock

from codesift.parse import references
from codesift.parse.chunks import extract_chunks
from codesift.parse.references import Reference

DEFAULT_DIRS = ("~/.cache/codesearch-bench/corpora/fd", "~/.cache/codesift-devset/clap", "~/.cache/codesift-devset/globset",
                "~/.cache/codesift-devset/textwrap", "~/.cache/codesift-devset/indicatif")


def parse_all(sources: list[tuple[str, str]]) -> tuple[float, list[Reference]]:
    refs: list[Reference] = []
    start = time.perf_counter()
    for path, text in sources:
        extract_chunks(text, "rust", path, refs)
    return time.perf_counter() - start, refs


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dirs", nargs="*", default=list(DEFAULT_DIRS))
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    files = [p for d in args.dirs if Path(d).expanduser().is_dir() for p in Path(d).expanduser().rglob("*.rs")]
    sources = [(str(p), p.read_text(encoding="utf-8", errors="replace")) for p in files]
    if not sources:
        raise SystemExit("no .rs files under the given folders: fetch the corpora first (see bench/README)")
    times: dict[str, list[float]] = {"token trees": [], "read as code": []}
    found: dict[str, list[Reference]] = {}
    for _ in range(args.rounds):
        with mock.patch.object(references, "macro_source", lambda *a: None):
            dt, found["token trees"] = parse_all(sources)
        times["token trees"].append(dt)
        dt, found["read as code"] = parse_all(sources)
        times["read as code"].append(dt)
    kib = sum(len(t) for _, t in sources) // 1024
    print(f"{len(sources)} Rust files, {kib} KiB, {args.rounds} rounds\n")
    print("| macro arguments | median s | calls with a receiver | references |")
    print("|---|---|---|---|")
    for name, ts in times.items():
        refs = found[name]
        calls = sum(1 for r in refs if r.kind == "call" and r.qualifier)
        print(f"| {name} | {statistics.median(ts):.3f} | {calls} | {len(refs)} |")
    ratio = statistics.median(times["read as code"]) / statistics.median(times["token trees"])
    print(f"\nratio read as code / token trees: {ratio:.3f}")


if __name__ == "__main__":
    main()
