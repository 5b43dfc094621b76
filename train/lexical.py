"""BM25 over a pool of training documents, with codesift's own tokenizer: the keyword side the query tower
learns to complement.

Per language, one posting list per term (its documents and BM25 weights); a batch of queries is scored by
adding up the postings of its distinct terms. The formula and constants are codesift's (``codesift.qdrant.bm25``).
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from codesift.qdrant import bm25
from codesift.qdrant.bm25 import B, K1
from codesift.text.tokens import tokenize

MAX_CHARS = 6000  # a long definition's tail adds little but time


def idf(df: np.ndarray, n: int) -> np.ndarray:
    """codesift's BM25 idf (:func:`codesift.qdrant.bm25.idf`) over an array of document frequencies."""
    return np.vectorize(bm25.idf, otypes=[np.float32])(df, n)


def saturate(tf: np.ndarray, length: np.ndarray, avg: float) -> np.ndarray:
    """BM25's term-frequency part, ``tf (k1 + 1) / (tf + k1 (1 - b + b len / avg))``, over arrays (exact
    lengths: :func:`codesift.qdrant.bm25.saturated_tf` quantises them as tantivy stores them)."""
    return tf * (K1 + 1) / (tf + K1 * (1 - B + B * length / avg))


class Lexical:
    """BM25 scores of queries against the documents of each language of a pool."""

    def __init__(self, texts: list[str], langs: list[str]) -> None:
        self.size: dict[str, int] = {}
        self.postings: dict[str, dict[str, tuple[np.ndarray, np.ndarray]]] = {}
        by_lang: dict[str, list[int]] = {}
        for i, lang in enumerate(langs):
            by_lang.setdefault(lang, []).append(i)
        for lang, ids in by_lang.items():
            counts = [Counter(tokenize(texts[i][:MAX_CHARS])) for i in ids]
            length = np.array([sum(c.values()) for c in counts], np.float32)
            avg = float(length.mean() or 1.0)
            docs: dict[str, list[int]] = {}
            tfs: dict[str, list[int]] = {}
            for col, c in enumerate(counts):
                for term, n in c.items():
                    docs.setdefault(term, []).append(col)
                    tfs.setdefault(term, []).append(n)
            table = {}
            for term, cols in docs.items():
                cols_arr = np.asarray(cols)
                w = idf(np.array([len(cols)]), len(ids))[0] * saturate(np.asarray(tfs[term], np.float32),
                                                                        length[cols_arr], avg)
                table[term] = (cols_arr, w.astype(np.float32))
            self.size[lang] = len(ids)
            self.postings[lang] = table

    def scores(self, queries: list[str], lang: str, columns: np.ndarray | None = None) -> np.ndarray:
        """queries × documents of ``lang`` in pool order (or only those of its ``columns``); each distinct
        query term counts once."""
        out = np.zeros((len(queries), self.size[lang]), np.float32)
        table = self.postings[lang]
        for row, query in enumerate(queries):
            for term in set(tokenize(query)):
                posting = table.get(term)
                if posting is not None:
                    out[row, posting[0]] += posting[1]
        return out if columns is None else out[:, columns]
