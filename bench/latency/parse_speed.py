"""What parsing costs: the time ``extract_chunks`` takes over every file of some repositories, per language.

    python bench/latency/parse_speed.py ROOT [ROOT ...] [--languages c_sharp cpp] [--runs 5] [--rounds 3]
                                        [--other-src /path/to/other/src]

Each round times every file of the roots (in the languages asked for, or all that codesift parses) ``--runs``
times in a fresh process and keeps the median; with ``--other-src`` (another checkout's ``src``, one from before a
parser change) the rounds alternate between the two, so both see the same machine. Prints a Markdown table: one row
per language and source, with the files, the chunks and each round's median seconds.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

_TIME = r"""
import json, sys, time
from pathlib import Path
from codesift.languages import language_for
from codesift.parse import extract_chunks
roots, wanted, runs = json.loads(sys.argv[1]), set(json.loads(sys.argv[2])), int(sys.argv[3])
files = {}
for root in roots:
    for path in sorted(Path(root).rglob("*")):
        language = language_for(str(path))
        if path.is_file() and language and (not wanted or language in wanted):
            files.setdefault(language, []).append((path.read_text(errors="replace"), str(path)))
out = {}
for language, texts in sorted(files.items()):
    times, chunks = [], 0
    for _ in range(runs):
        start = time.perf_counter()
        chunks = sum(len(extract_chunks(text, language, path)) for text, path in texts)
        times.append(time.perf_counter() - start)
    out[language] = {"files": len(texts), "chunks": chunks, "seconds": sorted(times)[len(times) // 2]}
print(json.dumps(out))
"""


def _time(src: Path, roots: list[str], languages: list[str], runs: int) -> dict[str, dict[str, float]]:
    proc = subprocess.run([sys.executable, "-c", _TIME, json.dumps(roots), json.dumps(languages), str(runs)],
                          env={**os.environ, "PYTHONPATH": str(src)}, capture_output=True, text=True, check=False)
    if proc.returncode:
        raise SystemExit(f"timing with {src} failed:\n{proc.stderr.strip()}")
    return json.loads(proc.stdout)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("roots", nargs="+")
    ap.add_argument("--languages", nargs="*", default=[])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--other-src", type=Path)
    args = ap.parse_args()
    sources = {"this": Path(__file__).resolve().parents[2] / "src"}
    if args.other_src:
        sources["other"] = args.other_src.resolve()
    rounds: dict[str, list[dict[str, dict[str, float]]]] = {name: [] for name in sources}
    for _ in range(args.rounds):
        for name, src in sources.items():
            rounds[name].append(_time(src, args.roots, args.languages, args.runs))
    print("| language | source | files | chunks | seconds (median of each round) | median |")
    print("|---|---|---|---|---|---|")
    for language in sorted({lang for runs in rounds.values() for r in runs for lang in r}):
        for name, runs in rounds.items():
            cells = [r[language] for r in runs if language in r]
            if not cells:
                continue
            seconds = [c["seconds"] for c in cells]
            print(f"| {language} | {name} | {cells[0]['files']:.0f} | {cells[0]['chunks']:.0f} | "
                  f"{' / '.join(f'{s:.3f}' for s in seconds)} | {statistics.median(seconds):.3f} |")


if __name__ == "__main__":
    main()
