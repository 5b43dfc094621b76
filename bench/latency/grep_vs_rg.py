"""codesift grep against ripgrep on the same files: timing (median of runs) and equality of the hit sets.

    python bench/latency/grep_vs_rg.py [ROOT] [--runs 7] [--cli-runs 3] [--limit-page 50] [--record]

ROOT defaults to django from the benchmark corpora (``~/.cache/codesearch-bench/corpora/django``; fetch it
with ``python fetch_corpora.py --only django`` in ../shared/bench). ROOT is indexed first when it has no
index (keyword side only: CODESIFT_EMBEDDER=none; grep does not use embeddings). Per pattern:

- ``rg``: ripgrep over exactly the indexed files (passed as arguments, so both search the same files),
  a fresh process per run, as a shell user would run it;
- ``rg tree``: ripgrep over the whole tree with its own ignore rules (timing and hits only, for scale);
- ``api all``: ``Index.grep`` on a warm index, every hit (what an MCP server or a library caller pays);
- ``api page``: the same with ``limit`` = ``--limit-page`` (an agent's page: grep_code's default is 50);
- ``cli``: ``codesift grep --no-update --json`` as a fresh process (Python start-up included).

``same`` compares the (path, line) sets of ``rg`` and ``api all``. Times are medians in milliseconds.
``--record`` keeps, per pattern, the ``rg`` and ``api all`` times, and how many patterns' hit sets are equal, in
bench/results.jsonl.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bench/: `import common` (bench/README.md)

import common  # noqa: E402

DEFAULT_ROOT = common.CORPORA_CACHE / "django"

# (pattern, regex, ignore case)
PATTERNS: list[tuple[str, bool, bool]] = [
    ("select_related", False, False),
    ("def __init__(self", False, False),
    ("QuerySet", False, False),
    ("assertEqual(response.status_code, 200)", False, False),
    ("xyzzy_not_anywhere", False, False),
    ("queryset", False, True),
    (r"def \w+_queryset\(", True, False),
    (r"raise (ValueError|TypeError)\(", True, False),
    (r"class \w+Form\b", True, False),
    (r"(TODO|FIXME|XXX)", True, False),
    (r"^from django\.db import models$", True, False),
    (r"\d{4}-\d{2}-\d{2}", True, False),
]


def median_ms(fn, runs: int) -> tuple[float, object]:  # noqa: ANN001
    out = None
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        out = fn()
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times), out


def rg_hits(root: Path, pattern: str, regex: bool, icase: bool, files: list[str] | None) -> set[tuple[str, int]]:
    cmd = ["rg", "--no-config", "--null", "-n", "--no-heading", "--color", "never"]
    cmd += ["-i"] if icase else []
    cmd += ["-e", pattern] if regex else ["-F", "-e", pattern]
    cmd += ["--", *files] if files is not None else ["--", "."]
    proc = subprocess.run(cmd, cwd=root, capture_output=True)
    if proc.returncode not in (0, 1):
        raise RuntimeError(f"rg failed: {proc.stderr.decode(errors='replace')[:300]}")
    hits = set()
    for line in proc.stdout.split(b"\n"):
        if not line:
            continue
        path, _, rest = line.partition(b"\0")
        number = rest.split(b":", 1)[0]
        hits.add((path.decode(errors="replace").removeprefix("./"), int(number)))
    return hits


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("root", nargs="?", default=str(DEFAULT_ROOT))
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--cli-runs", type=int, default=3)
    parser.add_argument("--limit-page", type=int, default=50)
    common.add_record_flag(parser)
    args = parser.parse_args()
    if shutil.which("rg") is None:
        sys.exit("ripgrep (rg) is not installed: apt-get install ripgrep")
    root = Path(args.root).resolve()
    os.environ.setdefault("CODESIFT_EMBEDDER", "none")
    from codesift import Index

    with Index(root) as index:
        t0 = time.perf_counter()
        stats = index.update(embed=False)
        print(f"index update: {stats.files_parsed} files parsed in {time.perf_counter() - t0:.1f} s")
        files = [r[0] for r in index.store.db.execute("SELECT path FROM files ORDER BY path")]
        symbols = index.status()["symbols"]
        print(f"{root}: {len(files):,} indexed files, {symbols:,} symbols; {args.runs} runs "
              f"(cli: {args.cli_runs}); times are medians in ms\n")
        header = (f"{'pattern':<42} {'mode':<8} {'hits':>6} {'rg':>7} {'rg tree':>8} {'api all':>8} "
                  f"{'api page':>9} {'cli':>7} {'read/indexed':>13}  same")
        print(header)
        print("-" * len(header))
        all_same = True
        kept: dict[str, float] = {}
        for pattern, regex, icase in PATTERNS:
            mode = ("regex" if regex else "literal") + ("/i" if icase else "")
            rg_ms, expected = median_ms(lambda: rg_hits(root, pattern, regex, icase, files), args.runs)
            tree_ms, tree_hits = median_ms(lambda: rg_hits(root, pattern, regex, icase, None), args.runs)
            grep = lambda limit: index.grep(pattern, regex=regex, case_sensitive=not icase, limit=limit)  # noqa: E731
            grep(10**7)  # warm: the files and the index pages in the OS cache, as for rg
            api_ms, result = median_ms(lambda: grep(10**7), args.runs)
            page_ms, _ = median_ms(lambda: grep(args.limit_page), args.runs)
            cmd = [sys.executable, "-m", "codesift", "grep", pattern, "--no-update", "--json", "--limit", "10000000",
                   "--root", str(root)] + (["-e"] if regex else []) + (["-i"] if icase else [])
            cli_ms, _ = median_ms(lambda: subprocess.run(cmd, capture_output=True), args.cli_runs)
            got = {(h["path"], h["line"]) for h in result["results"]}
            same = got == expected
            all_same &= same
            kept |= {f"{pattern} rg ms": rg_ms, f"{pattern} api all ms": api_ms, f"{pattern} api page ms": page_ms}
            kept["patterns with equal hit sets"] = kept.get("patterns with equal hit sets", 0) + same
            diff = "" if same else f" (rg only {len(expected - got)}, codesift only {len(got - expected)})"
            read = f"{result['files_read']}/{result['indexed_files']}"
            shown = pattern if len(pattern) <= 40 else pattern[:39] + "…"
            print(f"{shown:<42} {mode:<8} {len(got):>6} {rg_ms:>7.1f} {tree_ms:>8.1f} {api_ms:>8.1f} {page_ms:>9.1f} "
                  f"{cli_ms:>7.0f} {read:>13}  {'yes' if same else 'NO'}{diff}")
            if not same:
                sample = sorted(expected ^ got)[:5]
                print(f"    differing (path, line): {json.dumps(sample)}")
        print(f"\nhit sets equal for every pattern: {'yes' if all_same else 'NO'}")
    common.record(__file__, args, {"patterns": len(PATTERNS), **kept})


if __name__ == "__main__":
    main()
