"""What the vocabulary tail (``model_text.embed_text``) costs at indexing time, against the first-lines text.

    python bench/model_text_cost.py [--texts 600] [--rounds 5]

Chunks are codesift's own (every file of ``src/codesift``); the first-lines text is the same function with
the window check switched off. Each round shapes and embeds both variants (interleaved, so machine noise hits
both alike). Prints medians: microseconds to shape one chunk and chunks embedded per second.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path
from unittest import mock

from codesift.text import model_input as model_text
from codesift.embed.local import MiniLMEmbedder
from codesift.parse.chunks import extract_chunks


def sample_chunks(limit: int) -> list[tuple[object, str]]:
    root = Path(__file__).resolve().parents[1] / "src" / "codesift"
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


if __name__ == "__main__":
    main()
