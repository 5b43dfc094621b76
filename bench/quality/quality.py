"""Retrieval quality on the public query sets of ../shared/bench, in-process through the Python API.

    python bench/quality/quality.py [--modes keyword semantic hybrid] [--sets handwritten docstring]
                                    [--corpora requests flask] [--set KEY=VALUE ...] [--json out.json]
                                    [--coverage 0.25] [--record]

Same queries, corpora and scorer as ``run_tool.py --cli codesift`` (which drives the CLI, one process per
query); this runs them in one process so a full sweep takes seconds once the corpora are embedded.
Indexes live under ``$CODESIFT_BENCH_INDEX`` (default ``~/.cache/codesift-bench``) so embeddings are
reused across runs. ``--set`` overrides a ranking setting (``--set keyword_weight=1.5``).
``--coverage F`` searches as if only a share F of the chunks were embedded yet (a fixed pseudo-random
subset of chunk ids keeps its vectors), as while a first index is still embedding.
``--record`` keeps MRR@10, R@1, R@10 and p50 of each set and mode in bench/results.jsonl.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bench/: `import common` (bench/README.md)

import common  # noqa: E402


def cap_coverage(share: float) -> None:
    """Make every vector snapshot hold only a fixed pseudo-random ``share`` of its chunks."""
    import numpy as np

    from codesift.store.vectors import VectorIndex

    original = VectorIndex._set

    def _set(self, ids, mat):  # noqa: ANN001, ANN202 - patched method
        ids = np.asarray(ids)
        keep = ((ids.astype(np.uint64) * np.uint64(2654435761)) % np.uint64(1 << 32)) < np.uint64(share * (1 << 32))
        original(self, ids[keep], np.asarray(mat)[keep])

    VectorIndex._set = _set


def print_table(report: dict) -> None:
    print("| set / mode | n | MRR@10 | R@1 | R@10 | MRR nl | MRR mixed | MRR ident | Hit@1 ident | p50 ms |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for key, rep in report.items():
        g = rep["groups"]
        a = g["all"]

        def m(group: str, metric: str = "MRR@10") -> str:
            return f"{g[group][metric]:.3f}" if group in g else "-"

        print(f"| {key} | {a['n']} | {a['MRR@10']:.3f} | {a['Recall@1']:.3f} | {a['Recall@10']:.3f} | {m('kind=nl')} | "
              f"{m('kind=mixed')} | {m('kind=identifier')} | {m('kind=identifier', 'Hit@1')} | {rep['p50_ms']:.1f} |")


def group_table(report: dict, sets: dict[str, list[dict]], key: str = "handwritten/hybrid") -> None:
    """MRR@10 and identifier Hit@1 per language group and per corpus, for one set/mode."""
    if key not in report:
        return
    per = report[key]["per_query"]
    langs = common.corpus_languages()
    qset = key.split("/")[0]
    rows: dict[str, list[tuple[dict, dict]]] = {}
    for q in sets[qset]:
        for g in (f"lang={langs.get(q['corpus'], '?')}", f"corpus={q['corpus']}"):
            rows.setdefault(g, []).append((q, per[q["id"]]))
    print(f"\n{key} by language and corpus\n")
    print("| group | n | MRR@10 | R@1 | Hit@10 | n ident | Hit@1 ident |")
    print("|---|---|---|---|---|---|---|")
    for g in sorted(rows, key=lambda g: (not g.startswith("lang="), g)):
        ms = [m for _, m in rows[g]]
        ident = [m for q, m in rows[g] if q["kind"] == "identifier"]
        hit1 = f"{sum(m['Hit@1'] for m in ident) / len(ident):.3f}" if ident else "-"
        print(f"| {g} | {len(ms)} | {sum(m['RR'] for m in ms) / len(ms):.3f} | "
              f"{sum(m['Recall@1'] for m in ms) / len(ms):.3f} | {sum(m['Hit@10'] for m in ms) / len(ms):.3f} | "
              f"{len(ident)} | {hit1} |")


def headline(report: dict) -> dict[str, float]:
    """MRR@10, R@1, R@10 and p50 ms of each set/mode."""
    out: dict[str, float] = {}
    for key, rep in report.items():
        a = rep["groups"]["all"]
        out |= {f"{key} MRR@10": a["MRR@10"], f"{key} R@1": a["Recall@1"], f"{key} R@10": a["Recall@10"],
                f"{key} p50 ms": rep["p50_ms"]}
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--modes", nargs="+", default=["keyword", "semantic", "hybrid"])
    ap.add_argument("--sets", nargs="+", default=["handwritten", "docstring"], choices=list(common.FOLDERS))
    ap.add_argument("--corpora", nargs="*")
    ap.add_argument("--set", dest="overrides", nargs="*", action="extend", default=[], metavar="KEY=VALUE")
    ap.add_argument("--json", type=Path)
    ap.add_argument("--coverage", type=float, help="search as if only this share of chunks were embedded")
    common.add_record_flag(ap)
    args = ap.parse_args()
    if args.coverage is not None:
        cap_coverage(args.coverage)
    sets = common.load_sets(args.sets, args.corpora)
    report = common.run(sets, args.modes, common.parse_overrides(args.overrides))
    print_table(report)
    if "handwritten" in sets:
        group_table(report, sets)
    if args.json:
        args.json.write_text(json.dumps(report, indent=1))
    common.record(__file__, args, headline(report))


if __name__ == "__main__":
    main()
