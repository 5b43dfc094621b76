"""Retrieval quality on the public query sets of ../shared/bench, in-process through the Python API.

    python bench/quality.py [--modes keyword semantic hybrid] [--sets handwritten docstring]
                            [--corpora requests flask] [--set KEY=VALUE ...] [--json out.json]
                            [--coverage 0.25]

Same queries, corpora and scorer as ``run_tool.py --cli codesift`` (which drives the CLI, one process per
query); this runs them in one process so a full sweep takes seconds once the corpora are embedded.
Indexes live under ``$CODESIFT_BENCH_INDEX`` (default ``~/.cache/codesift-bench``) so embeddings are
reused across runs. ``--set`` overrides a ranking setting (``--set keyword_weight=1.5``).
``--coverage F`` searches as if only a share F of the chunks were embedded yet (a fixed pseudo-random
subset of chunk ids keeps its vectors), as while a first index is still embedding.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable
from dataclasses import fields
from pathlib import Path

import numpy as np

from codesift import Index
from codesift.store.vectors import VectorIndex
from codesift.config.settings import Config, rank_settings

BENCH = Path(os.environ.get("CODESIFT_SHARED_BENCH", Path(__file__).resolve().parents[2] / "shared" / "bench"))
sys.path.insert(0, str(BENCH))

from fetch_corpora import DEFAULT_CACHE, load_manifest  # noqa: E402
from make_docstring_set import load_docstring_queries  # noqa: E402
from score import evaluate, load_jsonl  # noqa: E402

INDEX_HOME = Path(os.environ.get("CODESIFT_BENCH_INDEX", Path.home() / ".cache" / "codesift-bench"))
FOLDERS = {"handwritten": "queries", "docstring": "docstring"}


def cap_coverage(share: float) -> None:
    """Make every vector snapshot hold only a fixed pseudo-random ``share`` of its chunks."""
    original = VectorIndex._set

    def _set(self, ids, mat):  # noqa: ANN001, ANN202 - patched method
        ids = np.asarray(ids)
        keep = ((ids.astype(np.uint64) * np.uint64(2654435761)) % np.uint64(1 << 32)) < np.uint64(share * (1 << 32))
        original(self, ids[keep], np.asarray(mat)[keep])

    VectorIndex._set = _set


def parse_overrides(pairs: list[str]) -> dict[str, object]:
    """``key=value`` pairs for :class:`Config`; ``rank.key=value`` for its ranking settings."""
    out: dict[str, object] = {}
    rank: dict[str, object] = {}
    for pair in pairs:
        key, _, raw = pair.partition("=")
        value = json.loads(raw)
        if key.startswith("rank."):
            rank[key[5:]] = value
        elif key in {f.name for f in fields(Config)}:
            out[key] = value
        else:
            raise SystemExit(f"unknown setting {key!r}")
    if rank:
        out["rank"] = rank_settings(rank)
    return out


def load_sets(sets: list[str], corpora: list[str] | None) -> dict[str, list[dict]]:
    cache = Path(DEFAULT_CACHE).expanduser()
    out: dict[str, list[dict]] = {}
    for qset in sets:
        queries: list[dict] = []
        for c in load_manifest(BENCH / "corpora.toml"):
            if c.get("role", "quality") != "quality" or (corpora and c["name"] not in corpora):
                continue
            f = BENCH / FOLDERS[qset] / f"{c['name']}.jsonl"
            if f.exists():
                queries += load_docstring_queries(BENCH, c["name"], cache) if qset == "docstring" else load_jsonl(f)
        out[qset] = queries
    return out


def open_index(corpus: str, overrides: dict[str, object], root: Path | None = None, index_name: str = "") -> Index:
    """The corpus's index, brought up to date (``root``/``index_name``: a corpus from elsewhere, bench/devset.py)."""
    root = root or Path(DEFAULT_CACHE).expanduser() / corpus
    cfg = Config(index_dir=str(INDEX_HOME / (index_name or corpus))).with_overrides(**overrides)
    index = Index(root, config=cfg)
    t = time.perf_counter()
    stats = index.update()
    if stats.files_parsed or stats.embedded:
        print(f"indexed {corpus}: {stats.files_parsed} files, {stats.embedded} embedded in "
              f"{time.perf_counter() - t:.1f}s", file=sys.stderr)
    return index


def run(sets: dict[str, list[dict]], modes: list[str], overrides: dict[str, object],
        opener: Callable[[str, dict[str, object]], Index] | None = None) -> dict:
    """Every query of every set in every mode, scored; ``opener(corpus, overrides)`` opens a corpus's index."""
    report: dict = {}
    indexes: dict[str, Index] = {}
    opener = opener or open_index
    for qset, queries in sets.items():
        for mode in modes:
            rows, lat = {}, []
            for q in queries:
                if q["corpus"] not in indexes:
                    indexes[q["corpus"]] = opener(q["corpus"], overrides)
                t = time.perf_counter()
                res = indexes[q["corpus"]].search(q["query"], limit=10, mode=mode)
                lat.append(time.perf_counter() - t)
                rows[q["id"]] = [{"path": r.path, "start_line": r.start_line, "end_line": r.end_line}
                                 for r in res.results]
            ev = evaluate(queries, rows)
            lat.sort()
            report[f"{qset}/{mode}"] = {"groups": ev["groups"], "p50_ms": 1000 * lat[len(lat) // 2],
                                        "per_query": ev["per_query"]}
    for index in indexes.values():
        index.close()
    return report


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


def corpus_languages() -> dict[str, str]:
    """corpus name → its main language (the language groups of the per-language table)."""
    return {c["name"]: c.get("language", "?") for c in load_manifest(BENCH / "corpora.toml")}


def group_table(report: dict, sets: dict[str, list[dict]], key: str = "handwritten/hybrid") -> None:
    """MRR@10 and identifier Hit@1 per language group and per corpus, for one set/mode."""
    if key not in report:
        return
    per = report[key]["per_query"]
    langs = corpus_languages()
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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--modes", nargs="+", default=["keyword", "semantic", "hybrid"])
    ap.add_argument("--sets", nargs="+", default=["handwritten", "docstring"], choices=list(FOLDERS))
    ap.add_argument("--corpora", nargs="*")
    ap.add_argument("--set", dest="overrides", nargs="*", action="extend", default=[], metavar="KEY=VALUE")
    ap.add_argument("--json", type=Path)
    ap.add_argument("--coverage", type=float, help="search as if only this share of chunks were embedded")
    args = ap.parse_args()
    if args.coverage is not None:
        cap_coverage(args.coverage)
    sets = load_sets(args.sets, args.corpora)
    report = run(sets, args.modes, parse_overrides(args.overrides))
    print_table(report)
    if "handwritten" in sets:
        group_table(report, sets)
    if args.json:
        args.json.write_text(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
