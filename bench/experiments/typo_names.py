"""Typo recall of the name lookup (``find_symbol``'s ``similar`` match) and what it costs.

    python bench/experiments/typo_names.py [INDEX_FOLDER ...] [--per-index 40] [--seed 3] [--record]

Each INDEX_FOLDER is an index folder holding ``meta.db`` (default: every index under
``$CODESIFT_BENCH_INDEX``, ``~/.cache/codesift-bench``, that bench/quality/quality.py and bench/quality/devset.py
built). From
each, ``--per-index`` distinct definition names of 5 to 12 characters are drawn and given one typo (a
letter dropped, or two neighbours swapped, never the first letter) that is no name of the index itself.
A typo is found when the lookup (``store.names.lookup``, the exact/prefix/substring/similar cascade behind
``find_symbol``) returns the name it came from. Prints, per name length, how many were found and the
lookup's p50/p95 milliseconds.

A synthetic index built by ``bench/latency/query_scale.py --keep DIR`` (folder ``DIR/100000/.codesift``) shows
the cost at 100k symbols.

Decided (2026-12-02, commit ad751cf): find_symbol's typo round tries the far trigram pairs, then, for a name of
up to 12 characters, the names of about its length that begin with its letter: 1,305 typos from the 33 bench
indexes found 15/67/95 % (5–6/7–8/9–12 characters) → 98/99/100 %, p50 0.3–0.6 → 0.5–0.7 ms; at 100k
synthetic symbols p50 1.7 → 1.6 ms.
"""

from __future__ import annotations

import argparse
import random
import sqlite3
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bench/: `import common` (bench/README.md)

import common  # noqa: E402
from common import INDEX_HOME  # noqa: E402

from codesift.store import names  # noqa: E402
BUCKETS = ((5, 6), (7, 8), (9, 12))


def typo(name: str, rng: random.Random) -> str:
    """``name`` with one letter dropped or two neighbours swapped (the first letter kept)."""
    i = rng.randrange(1, len(name) - 1)
    if rng.random() < 0.5:
        return name[:i] + name[i + 1:]
    return name[:i] + name[i + 1] + name[i] + name[i + 2:]


def probes(db: sqlite3.Connection, n: int, rng: random.Random) -> list[tuple[str, str]]:
    """(typo, name) pairs: ``n`` names of 5–12 characters, each with a typo that is no name here."""
    rows = [r[0] for r in db.execute("SELECT DISTINCT lname FROM names WHERE length(lname) BETWEEN 5 AND 12 "
                                     "AND lname NOT LIKE '%.%' ORDER BY lname")]
    rng.shuffle(rows)
    out: list[tuple[str, str]] = []
    for name in rows:
        wrong = typo(name, rng)
        if wrong != name and not db.execute("SELECT 1 FROM names WHERE lname = ?", (wrong,)).fetchone():
            out.append((wrong, name))
        if len(out) >= n:
            break
    return out


def run(folder: Path, n: int, rng: random.Random) -> list[tuple[int, bool, float]]:
    """(name length, found, ms) per probe of one index."""
    db = sqlite3.connect(f"file:{folder / 'meta.db'}?mode=ro", uri=True)
    out = []
    for wrong, name in probes(db, n, rng):
        started = time.perf_counter()
        hits = names.lookup(db, wrong, exact=False, limit_partial=5)
        ms = (time.perf_counter() - started) * 1000
        ids = [cid for cid, _ in hits]
        found = bool(ids) and name in {
            r[0] for r in db.execute(f"SELECT lname FROM names WHERE chunk_id IN ({','.join('?' * len(ids))})", ids)}
        out.append((len(name), found, ms))
    db.close()
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folders", nargs="*", type=Path)
    ap.add_argument("--per-index", type=int, default=40)
    ap.add_argument("--seed", type=int, default=3)
    common.add_record_flag(ap)
    args = ap.parse_args()
    folders = args.folders or sorted(p.parent for p in INDEX_HOME.glob("*/meta.db"))
    if not folders:
        raise SystemExit(f"no index under {INDEX_HOME}: run bench/quality/quality.py first, or name index folders")
    rng = random.Random(args.seed)
    results = [r for folder in folders for r in run(folder, args.per_index, rng)]
    print(f"{len(folders)} indexes, {len(results)} typos (one letter dropped or two swapped)")
    print("| name length | typos | found | share | p50 ms | p95 ms |")
    print("|---|---|---|---|---|---|")
    kept: dict[str, float] = {"indexes": len(folders), "typos": len(results)}
    for low, high in BUCKETS:
        part = [r for r in results if low <= r[0] <= high]
        if not part:
            continue
        ms = sorted(r[2] for r in part)
        found = sum(r[1] for r in part)
        p95 = ms[min(len(ms) - 1, int(0.95 * len(ms)))]
        print(f"| {low}-{high} | {len(part)} | {found} | {found / len(part):.0%} | {statistics.median(ms):.2f} "
              f"| {p95:.2f} |")
        kept |= {f"{low}-{high} found": found / len(part), f"{low}-{high} p50 ms": statistics.median(ms),
                 f"{low}-{high} p95 ms": p95}
    common.record(__file__, args, kept)


if __name__ == "__main__":
    main()
