"""Train ``src/codesift/rank/reranker.json``, the learned re-ranker (``codesift.rank.learned``).

    python train/reranker.py collect --out /tmp/rerank.pkl     # run the bench queries (needs their indexes)
    python train/reranker.py collect --out /tmp/m.pkl --set rank.window_margin=0.04   # a variant's rows
    python train/reranker.py loco --data /tmp/rerank.pkl      # leave-one-repository-out table
    python train/reranker.py loco --data /tmp/rerank.pkl --seed 2 --balance 1   # another seed; repositories alike
    python train/reranker.py loco --data /tmp/rerank.pkl --extra probe.py:share --param num_leaves=7   # a probe
    python train/reranker.py fit --data /tmp/rerank.pkl --out src/codesift/rank/reranker.json

``collect`` searches every query of the public bench (hand-written and docstring sets, ``bench/quality/quality.py``)
and of the dev set (main, short and terse, ``bench/quality/devset.py``; not the corpora it holds back, ``train =
false``) in hybrid mode with the re-ranker off, and keeps for the first ``DEPTH`` results what the re-ranker reads of
them (``RerankRow``) and whether each hits a target: the exact rows the re-ranker sees at search time. ``loco`` and
``fit`` compute :func:`codesift.rank.learned.features` from those rows as the code stands, so a change to the features
needs no new collection (a change to the pipeline does). ``loco`` trains without one of the 42 repositories and
measures MRR@10 of its queries, for each, per query set (and the in-sample score of the model trained on all beside
it). ``loco --extra FILE:FUNCTION`` measures a candidate feature without touching the package: ``FUNCTION(rows,
query)`` gives one number per row, appended as a further column; ``--param KEY=VALUE`` overrides a LightGBM setting.
``fit`` trains on all of them and writes the trees. Needs ``pip install lightgbm`` (training only; codesift evaluates
the trees itself). Deterministic for a given collection.

Why these settings (5 leaves, 300 trees), the held-out table per query set and language, and the features
measured and left out: docs/design-decisions.md#the-learned-re-ranker.
"""

from __future__ import annotations

import argparse
import collections
import importlib.util
import json
import pickle
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "bench"))  # `import common`: the bench's query sets and indexes (bench/README.md)

from codesift.rank.learned import DEPTH, FEATURES, RerankRow, Trees, features  # noqa: E402

PARAMS = dict(objective="lambdarank", learning_rate=0.05, num_leaves=5, min_data_in_leaf=100, verbose=-1,
              lambdarank_truncation_level=10, feature_fraction=0.8, bagging_fraction=0.8, bagging_freq=1, seed=1,
              num_threads=2, deterministic=True, force_row_wise=True)
ROUNDS = 300
BALANCE = 0.0  # query weight n ** -BALANCE for a repository's n queries (query_weights); --balance sets it
SETS = ("pub", "dev", "docstring", "short", "terse")


def query_sets() -> dict[str, list[tuple[dict, bool]]]:
    """Each query set's queries, with whether the query's corpus is a dev-set one."""
    import common

    public = common.load_sets(["handwritten", "docstring"], None)
    out = {"pub": [(q, False) for q in public["handwritten"]], "docstring": [(q, False) for q in public["docstring"]]}
    for name, kind in (("dev", "main"), ("short", "short"), ("terse", "terse")):
        out[name] = [(q, True) for q in common.load_devset_queries(None, kind)]
    return out


def collect(out: Path, settings: list[str] = ()) -> None:
    """Features and labels of every query's first ``DEPTH`` results, pickled to ``out``; ``settings`` are
    ``bench/quality/quality.py --set`` overrides (``rank.window_margin=0.03``) to collect a variant with."""
    import common
    from common import hits

    overrides = common.parse_overrides([*settings, "rank.learned_rerank=false"])
    indexes: dict[str, object] = {}
    groups = []
    for set_name, queries in query_sets().items():
        for q, dev in queries:
            if q["corpus"] not in indexes:
                opener = common.devset_opener() if dev else common.open_index
                indexes[q["corpus"]] = opener(q["corpus"], overrides)
            index = indexes[q["corpus"]]
            results = index.search(q["query"], limit=DEPTH, mode="hybrid", threshold=0.0).results
            if not results:
                continue
            stored = index.store.chunks_by_id([r.chunk_id for r in results])
            rows = [RerankRow(r.score, r.keyword_rank, r.vector_rank, r.explain.get("cosine"), r.kind,
                              stored[r.chunk_id].qualified_name, stored[r.chunk_id].text,
                              stored[r.chunk_id].docstring or "") for r in results]
            label = [any(hits({"path": r.path, "start_line": r.start_line, "end_line": r.end_line}, t)
                         for t in q["targets"]) for r in results]
            groups.append({"set": set_name, "id": q["id"], "corpus": q["corpus"], "kind": q["kind"],
                           "query": q["query"], "rows": rows, "y": np.array(label)})
        print(f"{set_name}: {len(queries)} queries", file=sys.stderr)
    out.write_bytes(pickle.dumps({"groups": groups}))


def load(path: Path, extra: Sequence[str] = ()) -> list[dict]:
    """The collected groups, each with ``x``: :data:`FEATURES` as the code computes them now, then one column per
    ``extra`` probe (``FILE:FUNCTION``, see :func:`probe`)."""
    if not path.is_file():
        raise SystemExit(f"{path}: no collection there (python train/reranker.py collect --out {path})")
    groups = pickle.loads(path.read_bytes())["groups"]
    if any("rows" not in g for g in groups):
        raise SystemExit(f"{path} holds no result rows (collected before they were kept): collect again")
    probes = [probe(spec) for spec in extra]
    for g in groups:
        columns = [features(g["rows"], g["query"])]
        for spec, f in zip(extra, probes):
            column = np.asarray(f(g["rows"], g["query"]), dtype=float)
            if column.shape != (len(g["rows"]),):
                raise SystemExit(f"--extra {spec}: gave shape {column.shape} for {g['id']}'s {len(g['rows'])} rows")
            columns.append(column.reshape(-1, 1))
        g["x"] = np.hstack(columns)
    return groups


def probe(spec: str) -> Callable[[Sequence[RerankRow], str], Sequence[float]]:
    """``FILE:FUNCTION`` loaded: a candidate feature, one number per row of a query's results."""
    file, _, name = spec.rpartition(":")
    if not file or not Path(file).is_file():
        raise SystemExit(f"--extra {spec!r}: expected FILE:FUNCTION, with FILE a Python file")
    module_spec = importlib.util.spec_from_file_location(Path(file).stem, file)
    module = importlib.util.module_from_spec(module_spec)
    module_spec.loader.exec_module(module)
    if not callable(getattr(module, name, None)):
        raise SystemExit(f"--extra {spec!r}: {file} defines no function {name!r}")
    return getattr(module, name)


def lightgbm_param(text: str) -> tuple[str, object]:
    """``KEY=VALUE`` with VALUE read as JSON where it parses (``7``, ``true``, ``0.5``), else as a string (``dart``)."""
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise argparse.ArgumentTypeError(f"expected KEY=VALUE, got {text!r}")
    try:
        return key, json.loads(value)
    except json.JSONDecodeError:
        return key, value


def query_weights(groups: list[dict], power: float) -> np.ndarray:
    """Each query's training weight: ``n ** -power`` for the ``n`` queries of its repository, scaled to a mean of 1
    (``power`` 1: every repository weighs the same in all; 0: every query does)."""
    counts = collections.Counter(code_base(g["corpus"]) for g in groups)
    w = np.array([counts[code_base(g["corpus"])] ** -power for g in groups], dtype=float)
    return w / w.mean() if len(w) else w


def train(groups: list[dict]):  # noqa: ANN201 - a lightgbm Booster
    try:
        import lightgbm
    except ImportError as exc:
        raise SystemExit("training the re-ranker needs LightGBM: pip install lightgbm") from exc
    usable = [g for g in groups if g["y"].any()]  # a query with no hit in the list teaches no order
    weights = query_weights(usable, BALANCE)
    data = lightgbm.Dataset(np.vstack([g["x"] for g in usable]), np.concatenate([g["y"].astype(int) for g in usable]),
                            group=[len(g["y"]) for g in usable],
                            weight=np.concatenate([np.full(len(g["y"]), w) for g, w in zip(usable, weights)]))
    return lightgbm.train(PARAMS, data, num_boost_round=ROUNDS)


def rr_at_10(y: np.ndarray, order: np.ndarray) -> float:
    for place, i in enumerate(order[:10], start=1):
        if y[i]:
            return 1.0 / place
    return 0.0


def reordered(trees: Trees, x: np.ndarray) -> np.ndarray:
    """The order the re-ranker gives (ties: the pipeline's, as ``rank.learned.rerank`` breaks them)."""
    learned = trees.predict(x)
    return np.array(sorted(range(len(x)), key=lambda i: (-learned[i], i)))


def to_json(booster, names: Sequence[str] = FEATURES) -> dict:  # noqa: ANN001 - a lightgbm Booster
    """The booster's trees in ``rank.learned.Trees.from_json``'s format (breadth-first, node 0 the root)."""
    trees = []
    for info in booster.dump_model()["tree_info"]:
        nodes = [info["tree_structure"]]
        feature, threshold, left, right, value = [], [], [], [], []
        i = 0
        while i < len(nodes):
            node = nodes[i]
            if "leaf_value" in node:
                feature.append(0)
                threshold.append(0.0)
                left.append(i)
                right.append(i)
                value.append(node["leaf_value"])
            else:
                if node["decision_type"] != "<=":
                    raise SystemExit(f"unsupported split {node['decision_type']!r}")
                feature.append(node["split_feature"])
                threshold.append(node["threshold"])
                left.append(len(nodes))
                right.append(len(nodes) + 1)
                value.append(0.0)
                nodes += [node["left_child"], node["right_child"]]
            i += 1
        trees.append({"feature": feature, "threshold": threshold, "left": left, "right": right, "value": value})
    return {"features": list(names), "trees": trees}


def code_base(corpus: str) -> str:
    """The repository a corpus is made of: the docstring set's ``click-nodoc`` is ``click`` without its docs."""
    return corpus.removesuffix("-nodoc")


def loco(groups: list[dict], names: Sequence[str] = FEATURES) -> None:
    """Held-out MRR@10 per query set, each repository scored by a model trained without it."""
    import common

    languages = common.corpus_languages()
    base, held, inside = (collections.defaultdict(list) for _ in range(3))
    per_corpus: dict[str, list[tuple[float, float]]] = collections.defaultdict(list)
    everything = Trees.from_json(to_json(train(groups), names))
    for corpus in sorted({code_base(g["corpus"]) for g in groups}):
        trees = Trees.from_json(to_json(train([g for g in groups if code_base(g["corpus"]) != corpus]), names))
        for g in (g for g in groups if code_base(g["corpus"]) == corpus):
            b = rr_at_10(g["y"], np.arange(len(g["y"])))
            h = rr_at_10(g["y"], reordered(trees, g["x"]))
            base[g["set"]].append(b)
            held[g["set"]].append(h)
            i = rr_at_10(g["y"], reordered(everything, g["x"]))
            inside[g["set"]].append(i)
            per_corpus[corpus].append((b, h))
            if g["set"] == "pub":
                lang = f"pub {languages.get(g['corpus'], '?')}"
                base[lang].append(b)
                held[lang].append(h)
                inside[lang].append(i)
    print("| set | n | pipeline | held out | in-sample |\n|---|---|---|---|---|")
    for s in [*SETS, *sorted(k for k in base if k.startswith("pub "))]:
        if s in base:
            means = " | ".join(f"{np.mean(column[s]):.4f}" for column in (base, held, inside))
            print(f"| {s} | {len(base[s])} | {means} |")
    print("\n| held-out corpus | n | pipeline | re-ranked |\n|---|---|---|---|")
    for corpus, pairs in per_corpus.items():
        pipeline, reranked = np.mean([b for b, _ in pairs]), np.mean([h for _, h in pairs])
        print(f"| {corpus} | {len(pairs)} | {pipeline:.3f} | {reranked:.3f} |")


def fit(groups: list[dict], out: Path) -> None:
    booster = train(groups)
    model = to_json(booster)
    trees = Trees.from_json(model)
    x = np.vstack([g["x"] for g in groups])
    gap = float(np.abs(trees.predict(x) - booster.predict(x)).max())
    if gap > 1e-6:
        raise SystemExit(f"the exported trees score differently from LightGBM's (max difference {gap})")
    out.write_text(json.dumps(model, separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"{out}: {len(model['trees'])} trees, {out.stat().st_size} bytes", file=sys.stderr)


def main() -> None:
    global BALANCE
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("step", choices=["collect", "loco", "fit"])
    ap.add_argument("--data", type=Path, default=Path("/tmp/rerank.pkl"))
    ap.add_argument("--out", type=Path)
    ap.add_argument("--set", dest="settings", action="append", default=[], metavar="KEY=VALUE",
                    help="collect: a ranking setting to collect with, as bench/quality/quality.py --set takes it")
    ap.add_argument("--seed", type=int, default=PARAMS["seed"], help="LightGBM's seed")
    ap.add_argument("--balance", type=float, default=BALANCE,
                    help="weigh a repository's n queries n ** -BALANCE each (1: every repository alike)")
    ap.add_argument("--extra", action="append", default=[], metavar="FILE:FUNCTION",
                    help="loco: a candidate feature, FUNCTION(rows, query) -> one number per row, as a further column")
    ap.add_argument("--param", dest="params", action="append", default=[], type=lightgbm_param, metavar="KEY=VALUE",
                    help="a LightGBM setting instead of PARAMS' (num_leaves=7, extra_trees=true)")
    args = ap.parse_args()
    PARAMS["seed"], BALANCE = args.seed, args.balance
    PARAMS.update(args.params)
    if args.extra and args.step != "loco":
        raise SystemExit("--extra is for loco: codesift cannot compute a probe's column at search time")
    if args.step == "collect":
        collect(args.out or args.data, args.settings)
    elif args.step == "loco":
        loco(load(args.data, args.extra), [*FEATURES, *(spec.rpartition(":")[2] for spec in args.extra)])
    else:
        fit(load(args.data), args.out or HERE.parent / "src" / "codesift" / "rank" / "reranker.json")


if __name__ == "__main__":
    main()
