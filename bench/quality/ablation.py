"""Ablation of the ranking pipeline on the public bench: one row per stage toggled from the defaults.

    python bench/quality/ablation.py [--sets handwritten docstring] [--mode hybrid] [--corpora ...] [--record]

Every row runs the same queries in the same process (see bench/quality/quality.py for the set-up); defaults
are chosen from this table. Prints MRR@10 / R@1 / R@10 per set and MRR per query kind. ``--record`` keeps each
row's MRR@10 per set in bench/results.jsonl.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import fields, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bench/: `import common` (bench/README.md)

import common  # noqa: E402

from codesift.config.rank import RankSettings  # noqa: E402

DEFAULTS = RankSettings()


def variants() -> list[tuple[str, RankSettings]]:
    """The full pipeline, then each boolean stage flipped, then a few parameter alternatives."""
    rows = [("full pipeline (defaults)", DEFAULTS)]
    for f in fields(RankSettings):
        value = getattr(DEFAULTS, f.name)
        if isinstance(value, bool):
            rows.append((f"{f.name} {'off' if value else 'on'}", replace(DEFAULTS, **{f.name: not value})))
    rows.append(("max_per_file 2", replace(DEFAULTS, max_per_file=2)))
    rows.append(("short_vector_penalty 0", replace(DEFAULTS, short_vector_penalty=0.0)))
    rows.append(("prose_vector_penalty 0 (documentation keeps its cosine)", replace(DEFAULTS, prose_vector_penalty=0.0)))
    rows.append(("sentence_name_match_weight 2.0", replace(DEFAULTS, sentence_name_match_weight=2.0)))
    rows.append(("namesake_factor 1.0 (no implementation preference)", replace(DEFAULTS, namesake_factor=1.0)))
    rows.append(("preamble_debias 0.4", replace(DEFAULTS, preamble_debias=0.4)))
    rows.append(("abbreviation_weight 0 (no abbreviations)", replace(DEFAULTS, abbreviation_weight=0.0)))
    rows.append(("import_penalty_factor 1.0 (import blocks not demoted)", replace(DEFAULTS, import_penalty_factor=1.0)))
    rows.append(("declaration_factor 1.0 (declarations not demoted in sentences)", replace(DEFAULTS, declaration_factor=1.0)))
    rows.append(("all stages off (plain RRF)", replace(
        DEFAULTS, **{f.name: False for f in fields(RankSettings) if isinstance(getattr(DEFAULTS, f.name), bool)})))
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sets", nargs="+", default=["handwritten", "docstring"])
    ap.add_argument("--mode", default="hybrid")
    ap.add_argument("--corpora", nargs="*")
    common.add_record_flag(ap)
    args = ap.parse_args()
    sets = common.load_sets(args.sets, args.corpora)
    head = "| variant | " + " | ".join(
        f"{s} MRR@10 | {s} R@1 | {s} R@10" + (" | MRR nl | MRR mixed | MRR ident" if s == "handwritten" else "")
        for s in args.sets) + " |"
    print(head)
    print("|" + "---|" * (head.count("|") - 1))
    kept: dict[str, float] = {}
    for label, settings in variants():
        report = common.run(sets, [args.mode], {"rank": settings})
        cells = []
        for s in args.sets:
            g = report[f"{s}/{args.mode}"]["groups"]
            a = g["all"]
            kept[f"{label}: {s} MRR@10"] = a["MRR@10"]
            cells += [f"{a['MRR@10']:.3f}", f"{a['Recall@1']:.3f}", f"{a['Recall@10']:.3f}"]
            if s == "handwritten":
                cells += [f"{g[k]['MRR@10']:.3f}" if k in g else "-" for k in ("kind=nl", "kind=mixed", "kind=identifier")]
        print(f"| {label} | " + " | ".join(cells) + " |", flush=True)
    common.record(__file__, args, kept)


if __name__ == "__main__":
    main()
