"""Everything issue 10 asks to see, in one command: quality per language and corpus, the
leave-one-corpus-out table of the tuned constants, the ablation, and the latency of the pool.

    python bench/suite.py [--skip quality devset names loco labels ablation latency] [--scale-root DIR] [--record]

Runs the other bench scripts one after another (each in its own process, so one's memory does not
weigh on the next) and prints their tables under one heading each:

- quality: ``quality/quality.py`` (hand-written and docstring sets, keyword / semantic / hybrid, then per
  language group and corpus);
- devset: ``quality/devset.py`` (hand-written queries over thirty-four libraries nobody tuned on, keyword / semantic /
  hybrid per language group and corpus), its short-answer guard set (``--queries short``) and its terse set
  (``--queries terse``: the same queries in 2–4 words), when ``bench/quality/devset/fetch.py`` has fetched them;
- names: ``quality/name_probe.py`` on the eight quality corpora (sampled definitions searched by their own name,
  as ``kind name`` and as ``Parent.name``: the identifier lookup the hand-written set samples only a few
  times per corpus);
- loco: ``quality/loco.py`` (with the twenty-eight dev-set corpora tuning may read, its short-answer set and its
  terse queries of each library too, once fetched: 65 folds) over the tuned constants,
  around today's defaults (keyword side
  ×0.8/×1/×1.25 × short-chunk vector penalty 0/0.06/0.12 × name bonus inside sentences 0/1; then on its
  own each of: the abbreviations' and the synonyms' weights, the import-block factor, members-first,
  implementation-first, the
  declaration, module-code and used-definition factors);
- labels: ``quality/labels.py`` (how often each result label is an answer, and its floors fitted leave-one-corpus-out;
  with the dev set's sets once fetched);
- ablation: ``quality/ablation.py`` (each ranking stage toggled from the defaults);
- latency: ``experiments/pool_cost.py`` on ``--scale-root`` (a ``latency/query_scale.py --keep`` build with
  vectors), when given.

A full run takes about half an hour on two cores once the corpora are embedded, without the dev set; with it
each leave-one-out grid runs both sets (here ~20 s a setting instead of ~10 s). ``--record`` passes ``--record`` on
to every script it runs, so that each keeps its headline numbers in bench/results.jsonl (bench/report.py prints
them).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

import common

# Each grid is checked on its own (a product of all of them would take hours); today's value comes first.
LOCO_GRIDS = [
    ["keyword_weight=1.0,0.8,1.25", "rank.short_vector_penalty=0.06,0,0.12", "rank.sentence_name_match_weight=0,1.0"],
    ["rank.abbreviation_weight=0.3,0,0.6,1.0"],
    ["rank.synonym_weight=1.0,0,0.5,1.5"],
    ["rank.import_penalty_factor=0.4,1.0,0.7"],
    ["rank.members_first=true,false"],
    ["rank.implementation_first=true,false"],
    ["rank.prose_vector_penalty=0.1,0,0.03,0.2"],
    ["rank.declaration_factor=0.8,1.0,0.9,0.6"],
    ["rank.module_factor=0.8,1.0,0.6"],
    ["rank.used_definition_factor=0.5,1.0,0.3,0.8"],
]


RECORD: list[str] = []  # ["--record"] under --record: passed on to every script


def section(title: str, args: list[str]) -> int:
    """Run one bench script and print its output under ``title``; returns its exit status."""
    args = [*args, *RECORD]
    print(f"\n## {title}\n\n`python {' '.join(args)}`\n", flush=True)
    t = time.perf_counter()
    proc = subprocess.run([sys.executable, *args], cwd=common.REPO, stdout=subprocess.PIPE, text=True)
    print(proc.stdout, flush=True)
    print(f"({time.perf_counter() - t:.0f} s)", flush=True)
    return proc.returncode


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--skip", nargs="*", default=[],
                    choices=["quality", "devset", "names", "loco", "labels", "ablation", "latency"])
    ap.add_argument("--scale-root", type=Path, help="an indexed 100k build for the latency table")
    ap.add_argument("--record", action="store_true", help="pass --record on to every script (bench/results.jsonl)")
    args = ap.parse_args()
    RECORD[:] = ["--record"] if args.record else []
    failed = 0
    fetched = common.devset_fetched()
    if "quality" not in args.skip:
        failed |= section("Quality per set, mode, language group and corpus", ["bench/quality/quality.py"])
    if "devset" not in args.skip:
        if fetched:
            modes = ["--modes", "keyword", "semantic", "hybrid"]
            failed |= section("Quality on the dev set", ["bench/quality/devset.py", *modes])
            failed |= section("Quality on the dev set's short answers (functions of 2-6 lines)",
                              ["bench/quality/devset.py", "--queries", "short", *modes])
            failed |= section("Quality on the dev set's queries said in 2-4 words (terse)",
                              ["bench/quality/devset.py", "--queries", "terse", *modes])
        else:
            print("\n## Quality on the dev set\n\nnot fetched: run `python bench/quality/devset/fetch.py` first",
                  flush=True)
    if "names" not in args.skip:
        failed |= section("Name lookup on every corpus", ["bench/quality/name_probe.py", *common.QUALITY_CORPORA])
    if "loco" not in args.skip:
        for grids in LOCO_GRIDS:
            grid = [a for g in grids for a in ("--grid", g)] + (["--devset", "--short", "--terse"] if fetched else [])
            failed |= section(f"Leave one corpus out: {', '.join(g.split('=')[0] for g in grids)}",
                              ["bench/quality/loco.py", *grid])
    if "labels" not in args.skip:
        failed |= section("What the result labels say",
                          ["bench/quality/labels.py", *([] if fetched else ["--no-devset"])])
    if "ablation" not in args.skip:
        failed |= section("Ablation of the ranking stages", ["bench/quality/ablation.py"])
    if "latency" not in args.skip and args.scale_root:
        failed |= section("Latency of the candidate pool", ["bench/experiments/pool_cost.py", str(args.scale_root),
                                                            "--pools", "30", "100", "150"])
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
