"""Retrieval quality on the dev set: hand-written queries over thirty-four libraries nobody tuned codesift on.

    python bench/quality/devset/fetch.py               # once: the corpora, from Debian, npm and PyPI
    python bench/quality/devset.py [--modes hybrid keyword semantic] [--corpora cobra zod] [--set KEY=VALUE ...]
                                   [--json out.json] [--queries main|short|terse] [--record]

A second view beside the public bench (``bench/quality/quality.py``): 550 queries over cobra, pflag, mux, logrus,
go-toml (Go), clap, indicatif, textwrap, globset (Rust), zod, TanStack's query-core, immer (TypeScript),
commander, koa, qs (JavaScript), httpx, attrs, packaging (Python), jsoup, picocli, jcommander, commons-csv
(Java), jansson (C), CLI11 (C++), Newtonsoft.Json (C#), react-native-gesture-handler's Android code (Kotlin),
league/commonmark (PHP) and rack (Ruby), and 120 more over six held back from all training and tuning (libyaml
in C, yaml-cpp in C++, NUnit's framework in C#, react-native-screens' Android code in Kotlin, Symfony Console in
PHP, thor in Ruby: ``train = false`` in ``devset/corpora.toml``, their own "held back" column), written from the
code alone, without looking at codesift's results, in the public set's style (``nl`` behaviour descriptions,
``mixed``, ``identifier``). Same scorer and settings syntax as ``bench/quality/quality.py``; indexes
live under ``$CODESIFT_BENCH_INDEX/dev-<name>``. A ranking change should hold on both sets: they were
written by different hands, and a gain on one that is a loss on the other is not a gain.

``--queries short`` runs a second, smaller set instead (``devset/queries-short/``): sentences whose answer is a
function of 2–6 lines, most of them documented. The main set (like the public one) almost never asks for one
(4 of its 387 sentence targets are under 5 lines), so a stage that demotes short code looks free on it; this
set is what it costs.

``--queries terse`` runs the sentence queries of the main and short sets said in 2–4 plain words
(``devset/queries-terse/``: 323 ``-tNN`` from the main set, 60 ``-tsNN`` from the short one, same targets), the way
people type into a search box ("strip auth header redirect"): every other natural-language query of both benches
is a sentence of eight words or more. Written from the sentences (and the targets' code), without running any
search.

``--record`` keeps MRR@10 of each mode (all queries and per language group) in bench/results.jsonl.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bench/: `import common` (bench/README.md)

import common  # noqa: E402


HELD_BACK = "held back"  # the corpora no training or tuning has read (``train = false`` in the manifest)


def groups(queries: list[dict]) -> list[str]:
    """``all``, the held-back corpora together, the language groups, then the corpora, as the table's columns."""
    langs = {c["name"]: c["language"] for c in common.devset_corpora()}
    held = [HELD_BACK] if any(q["corpus"] in _held_back() for q in queries) else []
    return ["all", *held, *sorted({langs[q["corpus"]] for q in queries}), *dict.fromkeys(q["corpus"] for q in queries)]


def _held_back() -> set[str]:
    return {c["name"] for c in common.devset_corpora() if not c.get("train", True)}


def mean_rr(rep: dict, queries: list[dict], group: str) -> tuple[float, int]:
    """MRR@10 and query count of one column (``all``, the held-back corpora, a language or a corpus) of one
    set/mode."""
    langs = {c["name"]: c["language"] for c in common.devset_corpora()}
    held = _held_back()
    rr = [rep["per_query"][q["id"]]["RR"] for q in queries
          if group in ("all", q["corpus"], langs[q["corpus"]]) or (group == HELD_BACK and q["corpus"] in held)]
    return (sum(rr) / len(rr) if rr else 0.0), len(rr)


def table(report: dict, queries: list[dict]) -> None:
    """MRR@10 per mode, per language group and per corpus."""
    cols = groups(queries)
    print("| mode | " + " | ".join(cols) + " |")
    print("|---|" + "---|" * len(cols))
    for key, rep in report.items():
        cells = [f"{m:.3f} ({n})" for m, n in (mean_rr(rep, queries, g) for g in cols)]
        print(f"| {key} | " + " | ".join(cells) + " |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--modes", nargs="+", default=["hybrid"])
    ap.add_argument("--corpora", nargs="*")
    ap.add_argument("--set", dest="overrides", nargs="*", action="extend", default=[], metavar="KEY=VALUE")
    ap.add_argument("--json", type=Path)
    ap.add_argument("--cache", type=Path, default=common.DEVSET_CACHE)
    ap.add_argument("--queries", choices=sorted(common.DEVSET_QUERY_SETS), default="main",
                    help="main: the dev set; short: answers of 2–6 lines, mostly documented (a guard for stages "
                         "that demote short code, which the main set rarely asks for); terse: the main set's "
                         "sentences in 2-4 words")
    common.add_record_flag(ap)
    args = ap.parse_args()
    queries = common.load_devset_queries(args.corpora, args.queries, held_back=True)
    report = common.run({"dev": queries}, args.modes, common.parse_overrides(args.overrides),
                        common.devset_opener(args.cache))
    table(report, queries)
    if args.json:
        args.json.write_text(json.dumps(report, indent=1))
    langs = [g for g in groups(queries)
             if g in ("all", HELD_BACK) or g in {c["language"] for c in common.devset_corpora()}]
    common.record(__file__, args, {f"{args.queries}/{key.split('/')[1]} MRR@10 {g}": mean_rr(rep, queries, g)[0]
                                   for key, rep in report.items() for g in langs})


if __name__ == "__main__":
    main()
