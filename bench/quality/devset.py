"""Retrieval quality on the dev set: hand-written queries over twenty-two libraries nobody tuned codesift on.

    python bench/devset/fetch.py                       # once: the corpora, from Debian, npm and PyPI
    python bench/devset.py [--modes hybrid keyword semantic] [--corpora cobra zod] [--set KEY=VALUE ...]
                           [--json out.json] [--queries main|short|terse]

A second view beside the public bench (``bench/quality.py``): 430 queries over cobra, pflag, mux, logrus,
go-toml (Go), clap, indicatif, textwrap, globset (Rust), zod, TanStack's query-core, immer (TypeScript),
commander, koa, qs (JavaScript), httpx, attrs, packaging (Python), jsoup, picocli, jcommander and commons-csv
(Java), written from
the code alone, without looking at codesift's results, in the public set's style (``nl`` behaviour
descriptions, ``mixed``, ``identifier``). Same scorer and settings syntax as ``bench/quality.py``; indexes
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
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE / "devset"))

import quality  # noqa: E402
from fetch import CACHE, QUERY_SETS, corpora, query_file  # noqa: E402
from score import load_jsonl  # noqa: E402


def load_queries(names: list[str] | None, queries: str = "main") -> list[dict]:
    """The dev set's queries of the corpora ``names`` (all: None) in query set ``queries``."""
    out: list[dict] = []
    for c in corpora():
        path = query_file(c["name"], queries)
        if (not names or c["name"] in names) and path.is_file():
            out += load_jsonl(path)
    return out


def opener(cache: Path):  # noqa: ANN201 - the quality.run opener
    def open_dev(corpus: str, overrides: dict[str, object]):  # noqa: ANN202
        root = cache / corpus
        if not root.is_dir():
            raise SystemExit(f"{root} is missing: run python bench/devset/fetch.py first")
        return quality.open_index(corpus, overrides, root=root, index_name=f"dev-{corpus}")
    return open_dev


def table(report: dict, queries: list[dict]) -> None:
    """MRR@10 per mode, per language group and per corpus."""
    langs = {c["name"]: c["language"] for c in corpora()}
    groups = ["all", *sorted({langs[q["corpus"]] for q in queries}), *dict.fromkeys(q["corpus"] for q in queries)]
    print("| mode | " + " | ".join(groups) + " |")
    print("|---|" + "---|" * len(groups))
    for key, rep in report.items():
        per = rep["per_query"]
        cells = []
        for g in groups:
            rr = [per[q["id"]]["RR"] for q in queries if g in ("all", q["corpus"], langs[q["corpus"]])]
            cells.append(f"{sum(rr) / len(rr):.3f} ({len(rr)})")
        print(f"| {key} | " + " | ".join(cells) + " |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--modes", nargs="+", default=["hybrid"])
    ap.add_argument("--corpora", nargs="*")
    ap.add_argument("--set", dest="overrides", nargs="*", action="extend", default=[], metavar="KEY=VALUE")
    ap.add_argument("--json", type=Path)
    ap.add_argument("--cache", type=Path, default=CACHE)
    ap.add_argument("--queries", choices=sorted(QUERY_SETS), default="main",
                    help="main: the dev set; short: answers of 2–6 lines, mostly documented (a guard for stages "
                         "that demote short code, which the main set rarely asks for); terse: the main set's "
                         "sentences in 2-4 words")
    args = ap.parse_args()
    queries = load_queries(args.corpora, args.queries)
    report = quality.run({"dev": queries}, args.modes, quality.parse_overrides(args.overrides), opener(args.cache))
    table(report, queries)
    if args.json:
        args.json.write_text(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
