"""Dense-only MRR@10 on the held-out split of ``../shared/train/``: the base model against a candidate,
per language, with a paired bootstrap 95 % interval of the difference.

Queries are embedded as codesift embeds a search (``"<lang> function: " + doc sentence``), documents as it
embeds chunks (``model_text.embed_text``); each query ranks the sampled documents of its language.

    python train/eval_heldout.py --candidate src/codesift/models/code-minilm-l6/model.onnx
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
from pairs import LANGS, document, read_pairs  # noqa: E402

from codesift.text.model_input import query_embed_text  # noqa: E402


def embedder_for(model_path: str | None):  # noqa: ANN201
    from codesift.embed.local import MiniLMEmbedder

    if model_path:
        os.environ["CODESIFT_MODEL_PATH"] = model_path
    else:
        os.environ.pop("CODESIFT_MODEL_PATH", None)
    return MiniLMEmbedder(model="minilm")


def reciprocal_ranks(emb, queries: list[str], docs: list[str]) -> np.ndarray:  # noqa: ANN001
    """1/rank of each query's own document among all ``docs`` (0 beyond rank 10)."""
    d = emb.embed(docs)
    q = np.stack([emb.embed_query(t) for t in queries])
    scores = q @ d.T
    own = scores[np.arange(len(queries)), np.arange(len(queries))]
    rank = (scores > own[:, None]).sum(axis=1) + 1
    return np.where(rank <= 10, 1.0 / rank, 0.0)


def bootstrap(diff: np.ndarray, seed: int = 7, n: int = 2000) -> tuple[float, float]:
    """Paired bootstrap 95 % interval of the mean of per-query differences."""
    rng = np.random.default_rng(seed)
    means = rng.choice(diff, size=(n, len(diff)), replace=True).mean(axis=1)
    return float(np.percentile(means, 2.5)), float(np.percentile(means, 97.5))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=Path("../shared/train"))
    ap.add_argument("--candidate", required=True, help="the candidate model.onnx")
    ap.add_argument("--per-lang", type=int, default=400)
    ap.add_argument("--json", type=Path, help="write the table here too")
    args = ap.parse_args()
    sets = {}
    for lang in LANGS:
        pairs = read_pairs(args.data, "valid", lang)
        random.Random(11).shuffle(pairs)
        pairs = pairs[: args.per_lang]
        sets[lang] = ([query_embed_text(f"{lang} function: ", p["q"]) for p in pairs], [document(p) for p in pairs])
    rr: dict[str, dict[str, np.ndarray]] = {"base": {}, "candidate": {}}
    for name, path in (("base", None), ("candidate", args.candidate)):
        emb = embedder_for(path)
        for lang, (queries, docs) in sets.items():
            rr[name][lang] = reciprocal_ranks(emb, queries, docs)
    rows = []
    print(f"{'language':<12} {'n':>5} {'base':>7} {'tuned':>7} {'diff':>7}  95% CI")
    for lang in [*LANGS, "all"]:
        b = rr["base"][lang] if lang != "all" else np.concatenate(list(rr["base"].values()))
        c = rr["candidate"][lang] if lang != "all" else np.concatenate(list(rr["candidate"].values()))
        lo, hi = bootstrap(c - b)
        rows.append({"language": lang, "n": len(b), "base": b.mean(), "tuned": c.mean(), "lo": lo, "hi": hi})
        print(f"{lang:<12} {len(b):>5} {b.mean():7.3f} {c.mean():7.3f} {c.mean() - b.mean():+7.3f}  [{lo:+.3f}, {hi:+.3f}]")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
