"""The pure formulas behind the Qdrant backend's sparse BM25 vectors and point ids (no Qdrant needed)."""

from __future__ import annotations

import math

import pytest

from codesift.qdrant import bm25
from codesift.qdrant.sync import path_dirs, point_id, point_sig


def test_fieldnorm_table_is_tantivys() -> None:
    table = bm25.FIELD_NORMS_TABLE
    assert len(table) == 256 and list(table) == sorted(set(table))
    assert table[:41] == tuple(range(41))  # exact up to 40
    # Spot values of tantivy's src/fieldnorm/code.rs FIELD_NORMS_TABLE.
    assert (table[41], table[48], table[49], table[57], table[88], table[255]) == (42, 56, 60, 96, 1048, 2_013_265_944)


@pytest.mark.parametrize("length, stored", [(0, 0), (7, 7), (40, 40), (41, 40), (43, 42), (59, 56), (60, 60),
                                            (10**12, 2_013_265_944)])
def test_fieldnorm_rounds_down_to_the_table(length: int, stored: int) -> None:
    assert bm25.fieldnorm(length) == stored


def test_idf_is_the_bm25_idf() -> None:
    assert bm25.idf(1, 10) == pytest.approx(math.log(1 + 9.5 / 1.5))
    assert bm25.idf(10, 10) > 0  # never negative, even for a term in every document
    assert bm25.idf(1, 100) > bm25.idf(50, 100)


def test_length_norm_and_saturation() -> None:
    # A document of average length: k1 exactly; longer documents are normalised down.
    assert bm25.length_norm(10, 10.0) == pytest.approx(bm25.K1)
    assert bm25.length_norm(20, 10.0) == pytest.approx(bm25.K1 * (1 - bm25.B + bm25.B * 2))
    assert bm25.saturated_tf(0, 10, 10.0) == 0.0
    one = bm25.saturated_tf(1, 10, 10.0)
    assert one == pytest.approx((bm25.K1 + 1) / (1 + bm25.K1))
    assert one < bm25.saturated_tf(2, 10, 10.0) < bm25.K1 + 1  # saturates below k1 + 1
    assert bm25.saturated_tf(1, 5, 10.0) > one > bm25.saturated_tf(1, 40, 10.0)  # shorter documents weigh more


def test_term_index_is_a_stable_uint32_per_field() -> None:
    idx = bm25.term_index("body", "redirect")
    assert idx == bm25.term_index("body", "redirect") and 0 <= idx < 2**32
    assert idx != bm25.term_index("name", "redirect")
    assert idx == 2_144_836_974  # a fixed hash (xxh32 of "body\x1fredirect"): the same on every machine


def test_doc_and_query_vectors() -> None:
    fields = ("redirect", "", "redirect follow redirect", "src http")
    indices, values = bm25.doc_vector(("name", "doc", "body", "pathtok"), fields, [1.0, 1.0, 3.0, 2.0])
    assert indices == sorted(indices) and len(indices) == 5  # name:redirect, body:redirect, body:follow, 2 path
    body = dict(zip(indices, values))[bm25.term_index("body", "redirect")]
    assert body == pytest.approx(bm25.saturated_tf(2, 3, 3.0))
    q_idx, q_val = bm25.query_vector([("redirect", 1.0), ("follow", 0.5)], {"name": 0.4, "body": 1.0})
    q = dict(zip(q_idx, q_val))
    assert q[bm25.term_index("name", "redirect")] == pytest.approx(0.4)
    assert q[bm25.term_index("body", "follow")] == pytest.approx(0.5)
    assert bm25.field_lengths(fields) == [1, 0, 3, 2]
    assert bm25.average_lengths([10, 0], 4) == [2.5, 0.0] and bm25.average_lengths([3], 0) == [0.0]


def test_point_ids_are_deterministic_uint64() -> None:
    a = point_id("repo", "src/a.py", "function", "f", 0)
    assert a == point_id("repo", "src/a.py", "function", "f", 0) and 0 <= a < 2**64
    others = {point_id("other", "src/a.py", "function", "f", 0), point_id("repo", "src/b.py", "function", "f", 0),
              point_id("repo", "src/a.py", "method", "f", 0), point_id("repo", "src/a.py", "function", "f", 1)}
    assert a not in others and len(others) == 4
    assert point_sig(1, "h", "e", True) != point_sig(1, "h", "e", False) != point_sig(2, "h", "e", False)


def test_path_dirs() -> None:
    assert path_dirs("src/http/a.py") == ["src/", "src/http/", "src/http/a.py"]
    assert path_dirs("a.py") == ["a.py"]
