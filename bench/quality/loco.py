"""Leave-one-corpus-out check of tuned ranking constants on the public hand-written set.

    python bench/quality/loco.py --grid rank.tiny_vector_penalty=0,0.02,0.04 --grid keyword_weight=0.8,1.0
                                 [--mode hybrid] [--devset] [--short] [--terse] [--json out.json] [--record]

Every combination of the grid values is scored on every corpus (in-process, like bench/quality/quality.py).
Then, for each corpus in turn, the combination with the best mean MRR@10 over the *other* corpora is
chosen and measured on the held-out one. A constant generalises when the held-out average stays close to
the in-sample average (issue 10: within 0.03) and the held-out scores beat the defaults'.
Corpora are weighted equally (the mean of per-corpus MRR@10), so the Python corpora do not decide alone.
``--devset`` adds the twenty-eight corpora of the dev set that tuning may read (bench/quality/devset.py; fetched by
bench/quality/devset/fetch.py): 42 folds with the public set's fourteen.
``--short`` adds the dev set's short-answer guard set (``devset.py --queries short``) as one more fold.
``--terse`` adds the dev set's queries said in 2–4 words (``devset.py --queries terse``), one fold per library
(``terse-<name>``; its code is also a dev fold's: held out in turn, not together).
``--record`` keeps the three means of the last table row and the two differences in bench/results.jsonl.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bench/: `import common` (bench/README.md)

import common  # noqa: E402
from common import devset_opener, load_devset_queries, load_sets, parse_overrides, run  # noqa: E402


def parse_grid(items: list[str]) -> list[tuple[str, list[str]]]:
    grid = []
    for item in items:
        key, _, values = item.partition("=")
        grid.append((key, [v for v in values.split(",") if v]))
    return grid


def per_corpus(report: dict, queries: list[dict], key: str) -> dict[str, float]:
    per = report[key]["per_query"]
    sums: dict[str, list[float]] = {}
    for q in queries:
        sums.setdefault(q["corpus"], []).append(per[q["id"]]["RR"])
    return {c: sum(v) / len(v) for c, v in sums.items()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--grid", action="append", default=[], metavar="KEY=V1,V2,...")
    ap.add_argument("--mode", default="hybrid")
    ap.add_argument("--devset", action="store_true", help="also hold out each corpus of the dev set")
    ap.add_argument("--short", action="store_true",
                    help="also hold out the dev set's short-answer guard set (devset.py --queries short) as one fold")
    ap.add_argument("--terse", action="store_true",
                    help="also hold out the dev set's 2-4-word queries (devset.py --queries terse), one fold a library")
    ap.add_argument("--json", type=Path)
    common.add_record_flag(ap)
    args = ap.parse_args()
    grid = parse_grid(args.grid)
    sets = load_sets(["handwritten"], None)
    queries = sets["handwritten"]
    key = f"handwritten/{args.mode}"
    dev = {"dev": load_devset_queries(None)} if args.devset else None
    short = {"dev": load_devset_queries(None, "short")} if args.short else None
    terse = {"dev": load_devset_queries(None, "terse")} if args.terse else None
    combos = [dict(zip([k for k, _ in grid], values)) for values in itertools.product(*[v for _, v in grid])]
    scores: list[tuple[dict, dict[str, float]]] = []
    for combo in combos:
        overrides = parse_overrides([f"{k}={v}" for k, v in combo.items()])
        report = run(sets, [args.mode], overrides)
        scores.append((combo, per_corpus(report, queries, key)))
        if dev is not None:
            dev_report = run(dev, [args.mode], overrides, devset_opener())
            scores[-1][1].update({f"dev-{c}": m for c, m in per_corpus(dev_report, dev["dev"], f"dev/{args.mode}").items()})
        if short is not None:  # one fold: ten queries a library are too few to hold out alone
            short_report = run(short, [args.mode], overrides, devset_opener())
            per = short_report[f"dev/{args.mode}"]["per_query"]
            scores[-1][1]["short"] = sum(per[q["id"]]["RR"] for q in short["dev"]) / len(short["dev"])
        if terse is not None:
            terse_report = run(terse, [args.mode], overrides, devset_opener())
            scores[-1][1].update({f"terse-{c}": m for c, m in
                                  per_corpus(terse_report, terse["dev"], f"dev/{args.mode}").items()})
        print(f"{combo}: " + " ".join(f"{c} {m:.3f}" for c, m in scores[-1][1].items()), file=sys.stderr)
    corpora = sorted(scores[0][1])
    default = scores[0][1]  # the first value of each grid entry is taken as the default
    print("| held out | chosen on the other corpora | in-sample mean | held-out | first-values setting on it |")
    print("|---|---|---|---|---|")
    ins, outs, base = [], [], []
    for held in corpora:
        others = [c for c in corpora if c != held]
        combo, sc = max(scores, key=lambda s: sum(s[1][c] for c in others) / len(others))
        in_sample = sum(sc[c] for c in others) / len(others)
        ins.append(in_sample)
        outs.append(sc[held])
        base.append(default[held])
        chosen = ", ".join(f"{k}={v}" for k, v in combo.items())
        print(f"| {held} | {chosen} | {in_sample:.3f} | {sc[held]:.3f} | {default[held]:.3f} |")
    n = len(corpora)
    print(f"| **mean** | | {sum(ins) / n:.3f} | {sum(outs) / n:.3f} | {sum(base) / n:.3f} |")
    print(f"\nheld-out minus in-sample: {sum(outs) / n - sum(ins) / n:+.3f}; "
          f"held-out minus first values: {sum(outs) / n - sum(base) / n:+.3f}")
    if args.json:
        args.json.write_text(json.dumps([{"setting": c, "per_corpus": s} for c, s in scores], indent=1))
    common.record(__file__, args, {"folds": n, "in-sample mean": sum(ins) / n, "held-out mean": sum(outs) / n,
                                   "first values mean": sum(base) / n,
                                   "held-out minus in-sample": sum(outs) / n - sum(ins) / n,
                                   "held-out minus first values": sum(outs) / n - sum(base) / n})


if __name__ == "__main__":
    main()
