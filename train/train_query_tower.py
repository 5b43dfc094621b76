"""Fine-tune a query tower: a copy of all-MiniLM-L6-v2 that embeds queries into the space of the base
model's document vectors, which stay frozen (``doc_pool.py`` computed them).

Because documents keep their base-model vectors, an index built with all-MiniLM-L6-v2 is searched with the
tower as it is: nothing is re-embedded, and indexing speed is the base model's. Training touches only short
queries (48 tokens), so an epoch of 120k pairs takes well under an hour on a 2-core CPU.

Loss: cross-entropy of each query over every document of its language in the pool (a full softmax, not
in-batch negatives), plus README-like sections as documentation negatives. ``--residual A`` adds A × the
query's BM25 scores (scaled to the best one) to the logits before the softmax, so the tower is trained on
what the keyword side gets wrong: a pair that BM25 already ranks first costs little, one it misses costs
the most (after Gao et al.'s CLEAR, a dense model trained on the lexical model's residual).
Checkpoints are chosen on the held-out split, never on the bench: by the fused MRR@10 of the tower with BM25
(``--select hybrid``, RRF with codesift's natural-language weights) or by the tower alone (``dense``).

    python train/train_query_tower.py --pool /tmp/pool --out /tmp/query-tower --residual 8
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F
from transformers import AutoModel, AutoTokenizer

sys.path.insert(0, str(Path(__file__).parent))
from doc_pool import load  # noqa: E402
from lexical import Lexical  # noqa: E402
from pairs import document, query_forms, query_text  # noqa: E402
from train_model import QUERY_TOKENS, base_model_dir, encode  # noqa: E402

from codesift.text.model_input import query_embed_text  # noqa: E402
from codesift.query.shape import DEFAULT_WEIGHTS, QueryShape  # noqa: E402

EVAL_PER_LANG = 400  # held-out pairs per language, ranked among each other (as eval_heldout.py)
RRF_K = 60.0


def reciprocal_rank(scores: torch.Tensor) -> torch.Tensor:
    """1/rank of each row's own column (the diagonal) among the row's scores, 0 beyond rank 10."""
    own = scores.diag()
    rank = (scores > own[:, None]).sum(1) + 1
    return torch.where(rank <= 10, 1.0 / rank, torch.zeros_like(own))


def ranks(scores: torch.Tensor) -> torch.Tensor:
    """1-based rank of every column within its row, best score first."""
    order = torch.argsort(-scores, dim=1)
    out = torch.empty_like(order)
    out.scatter_(1, order, torch.arange(1, scores.shape[1] + 1).expand_as(order))
    return out


class HeldOut:
    """Dense and fused (BM25 + tower, RRF) MRR@10 on the held-out split, per language."""

    def __init__(self, rows: list[dict], vectors: np.ndarray) -> None:
        self.sets: dict[str, tuple[list[str], torch.Tensor, torch.Tensor]] = {}
        by_lang: dict[str, list[int]] = {}
        for i, row in enumerate(rows):
            by_lang.setdefault(row["lang"], []).append(i)
        for lang, ids in sorted(by_lang.items()):
            random.Random(11).shuffle(ids)
            ids = ids[:EVAL_PER_LANG]
            lex = Lexical([document(rows[i]) for i in ids], [lang] * len(ids))
            bm25 = torch.tensor(lex.scores([rows[i]["q"] for i in ids], lang))
            queries = [query_embed_text(f"{lang} function: ", rows[i]["q"]) for i in ids]
            self.sets[lang] = (queries, torch.tensor(vectors[ids]), ranks(bm25).float())
        self.w_kw, self.w_vec = DEFAULT_WEIGHTS[QueryShape.NATURAL_LANGUAGE]

    def __call__(self, model, tok) -> dict[str, float]:  # noqa: ANN001
        model.eval()
        out: dict[str, float] = {}
        with torch.no_grad():
            for lang, (queries, docs, kw_ranks) in self.sets.items():
                q = torch.cat([encode(model, tok, queries[i : i + 128], QUERY_TOKENS, "cpu")
                               for i in range(0, len(queries), 128)])
                dense = q @ docs.T
                fused = self.w_kw / (RRF_K + kw_ranks) + self.w_vec / (RRF_K + ranks(dense).float())
                out[f"dense_{lang}"] = float(reciprocal_rank(dense).mean())
                out[f"hybrid_{lang}"] = float(reciprocal_rank(fused).mean())
        for kind in ("dense", "hybrid"):
            out[kind] = float(np.mean([v for k, v in out.items() if k.startswith(kind + "_")]))
        model.train()
        return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pool", type=Path, required=True, help="a doc_pool.py folder")
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--lr", type=float, default=2e-5)
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--scale", type=float, default=20.0, help="similarity scale (1/temperature)")
    ap.add_argument("--epochs", type=float, default=1.0)
    ap.add_argument("--minutes", type=float, default=0, help="stop after this wall time (0: no limit)")
    ap.add_argument("--residual", type=float, default=8.0, help="weight of the BM25 scores in the logits (0: off)")
    ap.add_argument("--prose", type=int, default=64, help="documentation negatives per batch")
    ap.add_argument("--overlap-drop", type=float, default=0.5,
                    help="half the queries have each word shared with the code dropped with this probability")
    ap.add_argument("--select", choices=("hybrid", "dense"), default="hybrid")
    ap.add_argument("--eval-every", type=int, default=150)
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--threads", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    rng = random.Random(args.seed)
    if args.threads:
        torch.set_num_threads(args.threads)
    train, train_vecs = load(args.pool, "train")
    prose, prose_vecs = load(args.pool, "prose")
    held_out = HeldOut(*load(args.pool, "valid"))
    docs = torch.tensor(train_vecs)
    prose_vecs = torch.tensor(prose_vecs)
    langs = [p["lang"] for p in train]
    lexical = Lexical([document(p) for p in train], langs) if args.residual else None
    by_lang = {lang: np.flatnonzero(np.asarray(langs) == lang) for lang in sorted(set(langs))}
    prose_by_lang = {lang: np.flatnonzero(np.asarray([s["lang"] for s in prose]) == lang) for lang in by_lang}
    share = np.array([len(by_lang[lang]) for lang in by_lang], float)
    share /= share.sum()

    base = base_model_dir()
    tok = AutoTokenizer.from_pretrained(base)
    model = AutoModel.from_pretrained(base)
    model.train()
    steps = int(args.epochs * len(train) / args.batch)
    warmup = max(1, steps // 20)
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=0.01)
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: min(1.0, (s + 1) / warmup) * max(0.0, 1 - s / steps))
    args.out.mkdir(parents=True, exist_ok=True)
    log = open(args.out / "train-log.jsonl", "w", encoding="utf-8")
    first = held_out(model, tok)
    log.write(json.dumps({"step": 0, **first}) + "\n")
    print("base", {k: round(v, 3) for k, v in first.items()}, flush=True)
    best, start, done = (first[args.select], 0), time.time(), 0
    nprng = np.random.default_rng(args.seed)
    for step in range(steps):
        lang = list(by_lang)[nprng.choice(len(by_lang), p=share)]
        pool = by_lang[lang]
        picked = nprng.choice(len(pool), args.batch, replace=False)
        batch = [train[i] for i in pool[picked]]
        texts = [query_text(p, rng, args.overlap_drop if rng.random() < 0.5 else 0.0) for p in batch]
        q = encode(model, tok, [query_embed_text(f"{lang} function: ", t) for t in texts], QUERY_TOKENS, "cpu")
        logits = args.scale * q @ docs[pool].T
        if lexical is not None:
            bm25 = torch.tensor(lexical.scores(texts, lang))
            logits = logits + args.residual * bm25 / bm25.max(1, keepdim=True).values.clamp(min=1e-6)
        if args.prose and len(prose_by_lang[lang]):
            neg = nprng.choice(prose_by_lang[lang], min(args.prose, len(prose_by_lang[lang])), replace=False)
            logits = torch.cat([logits, args.scale * q @ prose_vecs[neg].T], dim=1)
        loss = F.cross_entropy(logits, torch.tensor(picked))
        opt.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        sched.step()
        done = step + 1
        elapsed = time.time() - start
        if done % args.eval_every == 0 or done == steps:
            ev = held_out(model, tok)
            log.write(json.dumps({"step": done, "loss": round(loss.item(), 4), "s": round(elapsed), **ev}) + "\n")
            log.flush()
            print(done, f"{elapsed:.0f}s", {k: round(v, 3) for k, v in ev.items()}, flush=True)
            if ev[args.select] > best[0]:
                best = (ev[args.select], done)
                model.save_pretrained(args.out / "model")
                tok.save_pretrained(args.out / "model")
        if args.minutes and elapsed > args.minutes * 60:
            break
    meta = {"base": "sentence-transformers/all-MiniLM-L6-v2", "kind": "query tower", "steps": done,
            "planned_steps": steps, "chosen_step": best[1], "chosen_" + args.select: round(best[0], 4),
            "pairs": len(train), **{k: v for k, v in vars(args).items() if k not in ("pool", "out")},
            "minutes": round((time.time() - start) / 60, 1), "threads": torch.get_num_threads()}
    (args.out / "train-meta.json").write_text(json.dumps(meta, indent=1))
    print(meta)


if __name__ == "__main__":
    main()
