"""The frozen document side of query-tower training: sampled pairs and their vectors from codesift's base model.

codesift's indexes hold all-MiniLM-L6-v2 vectors of ``model_text.embed_text`` documents. A query tower is trained
against exactly those vectors, so they are computed once, with the model codesift ships (int8 ONNX, through
``codesift.embed.local``), and kept in a folder:

    python train/doc_pool.py --data ../shared/train --out /tmp/pool

``train.npy`` / ``train.jsonl.gz``: the sampled training pairs (``pairs.sample``) and their document vectors,
row for row; ``valid.*``: every pair of the held-out split; ``prose.*``: README-like sections
(``pairs.ProseSampler``) of the training sources, documentation negatives. Embedding ~130k documents takes
about 30 minutes on a 2-core CPU.
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
from pairs import LANGS, ProseSampler, document, read_pairs, sample  # noqa: E402

# Pairs per language (TypeScript has 6,805 in all). Seed 3 draws the same pairs on every machine.
QUOTA = {"python": 26000, "javascript": 19000, "typescript": 6805, "go": 22000, "rust": 22000, "java": 24000}
PROSE = 6000


def embed_all(texts: list[str], log: str) -> np.ndarray:
    """Vectors of ``texts`` from codesift's own base model, in order."""
    from codesift.embed.local import MiniLMEmbedder

    emb = MiniLMEmbedder(model="minilm", batch_size=32)
    start, out = time.time(), []
    for i in range(0, len(texts), 1024):
        out.append(emb.embed(texts[i : i + 1024]))
        print(f"{log}: {i + len(out[-1])}/{len(texts)} in {time.time() - start:.0f}s", flush=True)
    return np.concatenate(out).astype(np.float32) if out else np.zeros((0, emb.dim), np.float32)


def save(folder: Path, name: str, rows: list[dict], vectors: np.ndarray) -> None:
    np.save(folder / f"{name}.npy", vectors)
    with gzip.open(folder / f"{name}.jsonl.gz", "wt", encoding="utf-8") as fh:
        for row in rows:
            fh.write(json.dumps(row) + "\n")


def load(folder: Path, name: str) -> tuple[list[dict], np.ndarray]:
    """(rows, vectors) of one part of a pool folder."""
    with gzip.open(folder / f"{name}.jsonl.gz", "rt", encoding="utf-8") as fh:
        rows = [json.loads(line) for line in fh]
    vectors = np.load(folder / f"{name}.npy")
    if len(rows) != len(vectors):
        raise SystemExit(f"{folder}/{name}: {len(rows)} rows but {len(vectors)} vectors")
    return rows, vectors


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=Path("../shared/train"))
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--quota-scale", type=float, default=1.0)
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    quota = {lang: int(k * args.quota_scale) for lang, k in QUOTA.items()}
    train = sample(args.data, quota, args.seed)
    valid = [p for lang in LANGS for p in read_pairs(args.data, "valid", lang)]
    prose = ProseSampler(train, args.seed)
    picked = random.Random(args.seed + 1).sample(range(len(train)), min(PROSE, len(train)))
    sections = [{"lang": train[i]["lang"], "src": train[i]["src"], "text": prose.section(train[i])} for i in picked]
    save(args.out, "valid", valid, embed_all([document(p) for p in valid], "valid"))
    save(args.out, "prose", sections, embed_all([s["text"] for s in sections], "prose"))
    save(args.out, "train", train, embed_all([document(p) for p in train], "train"))
    (args.out / "pool-meta.json").write_text(json.dumps({"quota": quota, "seed": args.seed, "prose": len(sections)}))


if __name__ == "__main__":
    main()
