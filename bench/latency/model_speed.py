"""Embedding throughput and query latency of the local models, side by side in one process.

    python bench/latency/model_speed.py [--texts 400] [--rounds 5] [--models minilm /path/to/candidate.onnx] [--record]

Texts are codesift's own chunk texts (``model_text.embed_text`` of every symbol of ``src/codesift``), embedded
in the order ``embed`` uses; each round runs every model once (interleaved, so machine noise hits all
alike). A model is a name of ``LOCAL_MODELS`` or the path of an ONNX file of the same architecture (run as
``CODESIFT_MODEL_PATH`` would). Prints medians: document chunks per second and single-query milliseconds;
``--record`` keeps them in bench/results.jsonl.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bench/: `import common` (bench/README.md)

import common  # noqa: E402

from codesift.embed.local import MiniLMEmbedder  # noqa: E402
from codesift.parse.chunks import extract_chunks  # noqa: E402
from codesift.text.model_input import embed_text  # noqa: E402

QUERIES = ["where are redirects followed", "parse command line arguments", "rebuild_auth",
           "how is the keyword index committed", "merge adjacent chunks of one file"]


def sample_texts(limit: int) -> list[str]:
    root = common.REPO / "src" / "codesift"
    texts: list[str] = []
    for path in sorted(root.rglob("*.py")):
        rel = str(path.relative_to(root))
        for chunk in extract_chunks(path.read_text(encoding="utf-8"), "python", rel):
            texts.append(embed_text(chunk, rel))
    return texts[:limit]


def load(model: str) -> MiniLMEmbedder:
    """A named local model, or an ONNX file loaded as ``CODESIFT_MODEL_PATH`` would load it."""
    if not model.endswith(".onnx"):
        os.environ.pop("CODESIFT_MODEL_PATH", None)
        return MiniLMEmbedder(model=model)
    os.environ["CODESIFT_MODEL_PATH"] = model
    try:
        return MiniLMEmbedder()
    finally:
        os.environ.pop("CODESIFT_MODEL_PATH", None)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--texts", type=int, default=400)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--models", nargs="+", default=["minilm"])
    common.add_record_flag(ap)
    args = ap.parse_args()
    texts = sample_texts(args.texts)
    models = {name: load(name) for name in args.models}
    rate: dict[str, list[float]] = {n: [] for n in models}
    query_ms: dict[str, list[float]] = {n: [] for n in models}
    for name, emb in models.items():  # warm-up: sessions made, caches filled
        emb.embed(texts[:16])
        emb.embed_query("warm up")
    for _ in range(args.rounds):
        for name, emb in models.items():
            t0 = time.perf_counter()
            emb.embed(texts)
            rate[name].append(len(texts) / (time.perf_counter() - t0))
            for q in QUERIES:
                t0 = time.perf_counter()
                emb.embed_query(q)
                query_ms[name].append((time.perf_counter() - t0) * 1000)
    print(f"{len(texts)} chunk texts, {args.rounds} interleaved rounds")
    print(f"{'model':<8} {'model id':<36} {'chunks/s':>9} {'query ms':>9}")
    for name, emb in models.items():
        print(f"{Path(name).name:<8} {emb.model_id:<36} {statistics.median(rate[name]):9.1f} "
              f"{statistics.median(query_ms[name]):9.2f}")
    common.record(__file__, args, {k: v for name in models for k, v in (
        (f"{Path(name).name} chunks/s", statistics.median(rate[name])),
        (f"{Path(name).name} query ms", statistics.median(query_ms[name])))})


if __name__ == "__main__":
    main()
