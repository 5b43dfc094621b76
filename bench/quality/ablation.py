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
from codesift.rank.pipeline import STAGES  # noqa: E402

DEFAULTS = RankSettings()


def variants() -> list[tuple[str, RankSettings]]:
    """The full pipeline, then each stage of the ranking pipeline (``codesift.rank.pipeline.STAGES``) switched
    off (or on, when off by default), then the other ``[rank]`` switches (retrieval, fusion, the re-ranker)
    flipped, then a few parameter alternatives."""
    rows = [("full pipeline (defaults)", DEFAULTS)]
    staged = set()
    for s in STAGES:
        if s.switch is None:
            continue
        staged.add(s.switch)
        if s.enabled(DEFAULTS):
            rows.append((f"stage {s.name} off", s.off(DEFAULTS)))
        else:
            rows.append((f"stage {s.name} on", replace(DEFAULTS, **{s.switch: 2 if s.switch == "max_per_file" else True})))
    for f in fields(RankSettings):
        value = getattr(DEFAULTS, f.name)
        if isinstance(value, bool) and f.name not in staged:
            rows.append((f"{f.name} {'off' if value else 'on'}", replace(DEFAULTS, **{f.name: not value})))
    rows.append(("short_vector_penalty 0", replace(DEFAULTS, short_vector_penalty=0.0)))
    rows.append(("prose_vector_penalty 0 (documentation keeps its cosine)", replace(DEFAULTS, prose_vector_penalty=0.0)))
    rows.append(("sentence_name_match_weight 2.0", replace(DEFAULTS, sentence_name_match_weight=2.0)))
    rows.append(("namesake_factor 1.0 (no implementation preference)", replace(DEFAULTS, namesake_factor=1.0)))
    rows.append(("preamble_debias 0.4", replace(DEFAULTS, preamble_debias=0.4)))
    rows.append(("abbreviation_weight 0 (no abbreviations)", replace(DEFAULTS, abbreviation_weight=0.0)))
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
