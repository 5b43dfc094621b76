"""What the window vectors of long chunks (``store/windows.py``) cost at indexing: texts embedded and seconds,
with ``embed_windows`` on and off, each from a fresh vector cache so that nothing is reused.

    python bench/experiments/window_cost.py ROOT [ROOT ...] [--rounds 1] [--record]

Per root and round, the two settings run one after the other in fresh processes (off first, then on), each
indexing the tree into a temporary folder: parse seconds, embed seconds, texts embedded and windows. Prints the
medians and the on/off ratios. Keyword search is ready after the parse either way, and hybrid search once every
chunk has its own vector: the windows are embedded after those.

Decided (2026-12-04, commits 7098c11 and d6d25e4): long chunks get window vectors by default
(``embed_windows = true``). With every long chunk windowed (7098c11) the texts doubled and embedding took
×1.7–2.3; once windows were limited to definitions outside tests and examples (e009dc6, bda274f: 0.35 a chunk),
embedding takes ×1.08–1.52 on cli, flask and requests (d6d25e4).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bench/: `import common` (bench/README.md)

import common  # noqa: E402

CHILD = """
import json, sys, time
from codesift import Index
from codesift.config.settings import Config
root, folder, windows = sys.argv[1], sys.argv[2], sys.argv[3] == "1"
with Index(root, config=Config(index_dir=folder, embed_windows=windows)) as index:
    stats = index.update()
    total, embedded = index.store.window_counts()
    print(json.dumps({"parse_s": stats.parse_seconds, "embed_s": stats.embed_seconds, "texts": stats.embedded,
                      "chunks": index.store.chunk_count(), "windows": embedded}))
"""


def run(root: Path, windows: bool) -> dict:
    with tempfile.TemporaryDirectory(prefix="codesift-window-cost-") as tmp:
        env = {**os.environ, "CODESIFT_CACHE_DIR": str(Path(tmp) / "cache")}
        args = [sys.executable, "-c", CHILD, str(root), str(Path(tmp) / "index"), "1" if windows else "0"]
        proc = subprocess.run(args, capture_output=True, text=True, env=env)
        if proc.returncode != 0:
            raise SystemExit(f"indexing {root} failed: {proc.stderr.strip().splitlines()[-1:]}")
        return json.loads(proc.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("roots", nargs="+", type=Path)
    ap.add_argument("--rounds", type=int, default=1)
    common.add_record_flag(ap)
    args = ap.parse_args()
    print("| tree | chunks | windows | texts off / on | parse s off / on | embed s off / on | embed ×on/off |")
    print("|---|---|---|---|---|---|---|")
    kept: dict[str, float] = {}
    for root in args.roots:
        if not root.is_dir():
            raise SystemExit(f"{root} is not a folder")
        runs: dict[bool, list[dict]] = {False: [], True: []}
        for _ in range(args.rounds):
            for windows in (False, True):
                runs[windows].append(run(root, windows))

        def med(windows: bool, key: str) -> float:
            return statistics.median(r[key] for r in runs[windows])

        print(f"| {root.name} | {med(True, 'chunks'):.0f} | {med(True, 'windows'):.0f} | "
              f"{med(False, 'texts'):.0f} / {med(True, 'texts'):.0f} | "
              f"{med(False, 'parse_s'):.1f} / {med(True, 'parse_s'):.1f} | "
              f"{med(False, 'embed_s'):.1f} / {med(True, 'embed_s'):.1f} | "
              f"×{med(True, 'embed_s') / max(med(False, 'embed_s'), 1e-9):.2f} |")
        kept |= {f"{root.name} windows": med(True, "windows"), f"{root.name} texts off": med(False, "texts"),
                 f"{root.name} texts on": med(True, "texts"), f"{root.name} embed s off": med(False, "embed_s"),
                 f"{root.name} embed s on": med(True, "embed_s")}
    common.record(__file__, args, kept)


if __name__ == "__main__":
    main()
