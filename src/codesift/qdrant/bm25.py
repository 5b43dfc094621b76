"""BM25 as sparse vectors, so that a Qdrant collection ranks keyword queries like the tantivy index.

The keyword index scores a query term ``t`` in field ``f`` of a chunk as tantivy's BM25 does:
``boost_f × idf_f(t) × (k1 + 1) × tf / (tf + k1 × (1 − b + b × len_f / avglen_f))``, summed over the
fields and the query's terms (``store/keyword.py``). Here each (field, token) pair is one dimension of
the sparse vector ``bm25``: a chunk stores the saturated term frequency (everything but the IDF and the
boost), the query carries the field's boost, and the collection's ``Modifier.IDF`` multiplies in
``ln(1 + (N − n + 0.5) / (n + 0.5))`` over the points holding that dimension — which, the dimension
being per field, is tantivy's per-field IDF. Tokens are codesift's own (``codesift.text.tokens``, the
strings the tantivy fields hold); a chunk's length is quantised as tantivy stores it (``fieldnorm``).

One small pure function per formula; ``tests/test_qdrant_bm25.py`` checks each.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence

import xxhash

K1 = 1.2  # tantivy's (and Lucene's) BM25 constants
B = 0.75
NUM_FREE_VALUES = 24  # field lengths below this are stored exactly (Lucene's SmallFloat.intToByte4)


def _int4_to_long(i: int) -> int:
    """Lucene's ``SmallFloat.int4ToLong``: 3 mantissa bits, the rest an exponent."""
    bits, shift = i & 0x07, (i >> 3) - 1
    return bits if shift == -1 else (bits | 0x08) << shift


# tantivy's FIELD_NORMS_TABLE (src/fieldnorm/code.rs): exact up to 40, then log-scale buckets.
FIELD_NORMS_TABLE: tuple[int, ...] = tuple(
    b if b < NUM_FREE_VALUES else NUM_FREE_VALUES + _int4_to_long(b - NUM_FREE_VALUES) for b in range(256)
)


def fieldnorm(length: int) -> int:
    """The length tantivy scores a field of ``length`` tokens with: the largest table value ≤ it."""
    lo, hi = 0, len(FIELD_NORMS_TABLE) - 1
    while lo < hi:  # the last index whose value is <= length
        mid = (lo + hi + 1) // 2
        if FIELD_NORMS_TABLE[mid] <= length:
            lo = mid
        else:
            hi = mid - 1
    return FIELD_NORMS_TABLE[lo]


def idf(doc_freq: int, doc_count: int) -> float:
    """BM25 inverse document frequency, as tantivy and Qdrant's ``Modifier.IDF`` compute it."""
    return math.log(1.0 + (doc_count - doc_freq + 0.5) / (doc_freq + 0.5))


def length_norm(length: int, avg_length: float, *, k1: float = K1, b: float = B) -> float:
    """``k1 × (1 − b + b × |d| / avgdl)`` with |d| quantised as tantivy stores it."""
    if avg_length <= 0:
        return k1
    return k1 * (1.0 - b + b * fieldnorm(length) / avg_length)


def saturated_tf(tf: int, length: int, avg_length: float, *, k1: float = K1, b: float = B) -> float:
    """A document's BM25 weight for a term, without the IDF: ``(k1 + 1) × tf / (tf + length_norm)``."""
    if tf <= 0:
        return 0.0
    return (k1 + 1.0) * tf / (tf + length_norm(length, avg_length, k1=k1, b=b))


def term_index(field: str, token: str) -> int:
    """The sparse dimension of ``token`` in ``field``: a fixed 32-bit hash (stable across runs and
    machines; a collision merges two terms' weights, about one pair in 4 billion)."""
    return xxhash.xxh32_intdigest(f"{field}\x1f{token}".encode("utf-8", "surrogatepass"))


def field_lengths(fields: Sequence[str]) -> list[int]:
    """Token counts of the tokenized fields (``store.keyword.keyword_fields``' strings)."""
    return [len(text.split()) for text in fields]


def doc_vector(names: Sequence[str], fields: Sequence[str],
               avg_lengths: Sequence[float]) -> tuple[list[int], list[float]]:
    """(indices, values) of a chunk's sparse vector: one entry per (field, distinct token)."""
    weights: dict[int, float] = {}
    for name, text, avg in zip(names, fields, avg_lengths):
        tokens = text.split()
        for token, tf in Counter(tokens).items():
            idx = term_index(name, token)
            weights[idx] = weights.get(idx, 0.0) + saturated_tf(tf, len(tokens), avg)
    indices = sorted(weights)
    return indices, [weights[i] for i in indices]


def query_vector(terms: Iterable[tuple[str, float]], boosts: dict[str, float]) -> tuple[list[int], list[float]]:
    """(indices, values) of a query's sparse vector: each (term, weight) in every field at its boost."""
    weights: dict[int, float] = {}
    for token, weight in terms:
        for name, boost in boosts.items():
            idx = term_index(name, token)
            weights[idx] = weights.get(idx, 0.0) + boost * weight
    indices = sorted(weights)
    return indices, [weights[i] for i in indices]


def average_lengths(totals: Sequence[int], count: int) -> list[float]:
    """Mean field lengths over ``count`` chunks (tantivy: total tokens / documents)."""
    return [t / count if count else 0.0 for t in totals]
