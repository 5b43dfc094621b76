"""What the vocabulary tail (``text/model_input.embed_text``) costs at indexing time, against the first-lines text.

    python bench/experiments/model_text_cost.py [--texts 600] [--rounds 5] [--record]

Chunks are codesift's own (every file of ``src/codesift``); the first-lines text is the same function with
the window check switched off. Each round shapes and embeds both variants (interleaved, so machine noise hits
both alike). Prints medians: microseconds to shape one chunk and chunks embedded per second.

Decided (2026-12-01, commit e6e7bf7): a chunk longer than the model's window is embedded as its preamble, 120
characters of head and the vocabulary of the rest (``model_input.embed_text``, PARSER_VERSION 4): shaping costs
~35 µs a chunk more and embedding is ~14 % faster (shorter texts to tokenize), for hand-written semantic MRR@10
0.726 → 0.769 and hybrid 0.850 → 0.858 (bench/quality/quality.py).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bench/: `import common` (bench/README.md)

import common  # noqa: E402

from codesift.embed.local import MiniLMEmbedder  # noqa: E402
from codesift.parse.chunks import extract_chunks  # noqa: E402
from codesift.text import model_input as model_text  # noqa: E402


def sample_chunks(limit: int) -> list[tuple[object, str]]:
    root = common.REPO / "src" / "codesift"
    out = []
    for path in sorted(root.rglob("*.py")):
        rel = str(path.relative_to(root))
        out += [(c, rel) for c in extract_chunks(path.read_text(encoding="utf-8"), "python", rel)]
    return out[:limit]


def shape(chunks: list[tuple[object, str]], tail: bool) -> tuple[list[str], float]:
    window = model_text.WINDOW_CHARS if tail else 10**9
    with mock.patch.object(model_text, "WINDOW_CHARS", window):
        t = time.perf_counter()
        texts = [model_text.embed_text(c, p) for c, p in chunks]
        return texts, time.perf_counter() - t


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--texts", type=int, default=600)
    ap.add_argument("--rounds", type=int, default=5)
    common.add_record_flag(ap)
    args = ap.parse_args()
    chunks = sample_chunks(args.texts)
    embedder = MiniLMEmbedder()
    embedder.embed(["warm up"] * 8)
    results: dict[str, dict[str, list[float]]] = {"first lines": {"shape": [], "embed": []},
                                                  "vocabulary tail": {"shape": [], "embed": []}}
    for _ in range(args.rounds):
        for name, tail in (("first lines", False), ("vocabulary tail", True)):
            texts, spent = shape(chunks, tail)
            t = time.perf_counter()
            embedder.embed(texts)
            results[name]["shape"].append(spent / len(chunks) * 1e6)
            results[name]["embed"].append(len(chunks) / (time.perf_counter() - t))
    long_share = sum(len(t) > model_text.WINDOW_CHARS for t in shape(chunks, False)[0]) / len(chunks)
    print(f"{len(chunks)} chunks of src/codesift, {long_share:.0%} longer than the window; "
          f"medians of {args.rounds} rounds\n")
    print("| text | shaping µs/chunk | embedding chunks/s |")
    print("|---|---|---|")
    for name, r in results.items():
        print(f"| {name} | {statistics.median(r['shape']):.1f} | {statistics.median(r['embed']):.1f} |")
    common.record(__file__, args, {f"{name} {what}": statistics.median(r[key]) for name, r in results.items()
                                   for key, what in (("shape", "shaping µs/chunk"), ("embed", "chunks/s"))})


if __name__ == "__main__":
    main()
