"""Keyword-side hard negatives: for each training pair, the other definitions of its language that BM25
(codesift's tokenizer and formula, ``lexical.py``) ranks highest for the pair's doc sentence.

Full fine-tunes (runs 1–5) made the dense side agree more with the keyword side, so fusion gained less than
the dense numbers promised. A negative the keyword side would have put first teaches the model exactly the
distinction keywords miss. Definitions with the same doc sentence (overloads, copies) are never negatives:
their query cannot tell them apart.
"""

from __future__ import annotations

import random

import numpy as np

from lexical import Lexical
from pairs import any_other

TOP = 3  # a pair's negative is drawn from its best TOP keyword matches (not always the same one)


class KeywordNegativeSampler:
    """``pick(pair)``: one of the pair's best BM25 matches among the other pairs of its language."""

    def __init__(self, pairs: list[dict], seed: int) -> None:
        self.rng = random.Random(seed + 2)
        self.pairs = pairs
        lex = Lexical([p["code"] for p in pairs], [p["lang"] for p in pairs])
        self.best: dict[int, list[int]] = {}
        by_lang: dict[str, list[int]] = {}
        for i, p in enumerate(pairs):
            by_lang.setdefault(p["lang"], []).append(i)
        for lang, ids in by_lang.items():
            for start in range(0, len(ids), 512):
                rows = ids[start:start + 512]
                scores = lex.scores([pairs[i]["q"] for i in rows], lang)
                for row, score in zip(rows, scores):
                    order = np.argsort(-score)[: TOP + 8]
                    keep = [ids[j] for j in order if score[j] > 0 and pairs[ids[j]]["code"] != pairs[row]["code"]
                            and pairs[ids[j]]["q"] != pairs[row]["q"]][:TOP]
                    self.best[id(pairs[row])] = keep

    def pick(self, pair: dict) -> dict:
        """A keyword-confusable other definition (any other pair when BM25 finds none)."""
        best = self.best.get(id(pair))
        if best:
            return self.pairs[self.rng.choice(best)]
        return any_other(self.pairs, pair, self.rng)
