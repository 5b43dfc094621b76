"""What reading Rust macro arguments as code (``codesift.parse.macro_args``) costs at parse time.

    python bench/experiments/macro_args_cost.py [DIR ...] [--rounds 5] [--record]

Parses every ``.rs`` file under the folders (default: the Rust corpora of the public and dev benches, as
``../shared/bench/fetch_corpora.py`` and ``bench/quality/devset/fetch.py`` fetched them) into chunks and
references, once with macro arguments read again and once with their token trees left as they are, interleaved
so machine noise hits both alike. Prints the median seconds per round, the ratio, and the references each way.

Decided (2026-12-02, commit bf4c230): Rust macro arguments are read as code for references
(``assert_eq!(a.len(), 2)`` calls ``len`` on ``a``; PARSER_VERSION 15): Rust parse time ×1.06–1.10 for 13.5 % more
calls with a receiver, the public bench's results identical.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bench/: `import common` (bench/README.md)

import common  # noqa: E402

from codesift.parse import references  # noqa: E402
from codesift.parse.chunks import extract_chunks  # noqa: E402
from codesift.parse.references import Reference  # noqa: E402

DEFAULT_DIRS = (str(common.CORPORA_CACHE / "fd"),
                *(str(common.DEVSET_CACHE / name) for name in ("clap", "globset", "textwrap", "indicatif")))


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
    common.add_record_flag(ap)
    args = ap.parse_args()
    files = [p for d in args.dirs if Path(d).expanduser().is_dir() for p in Path(d).expanduser().rglob("*.rs")]
    sources = [(str(p), p.read_text(encoding="utf-8", errors="replace")) for p in files]
    if not sources:
        raise SystemExit("no .rs files under the given folders: fetch the corpora first (see bench/README.md)")
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
    common.record(__file__, args, {"files": len(sources), **{f"{name} median s": statistics.median(ts)
                                                             for name, ts in times.items()},
                                   "read as code / token trees": ratio})


if __name__ == "__main__":
    main()
