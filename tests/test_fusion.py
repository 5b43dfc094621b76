import pytest

from codesift.search.fusion import ranked, rrf


def test_rrf_matches_formula():
    scores = rrf([[1, 2, 3], [3, 1]], [1.0, 2.0], k=60)
    assert scores[1] == pytest.approx(1 / 61 + 2 / 62)
    assert scores[2] == pytest.approx(1 / 62)
    assert scores[3] == pytest.approx(1 / 63 + 2 / 61)


def test_ranked_orders_best_first_and_breaks_ties_by_id():
    assert ranked({5: 0.1, 2: 0.3, 1: 0.1}) == [(2, 0.3), (1, 0.1), (5, 0.1)]


def test_weights_change_the_winner():
    kw, vec = [1, 2], [2, 1]
    assert ranked(rrf([kw, vec], [2.0, 1.0]))[0][0] == 1
    assert ranked(rrf([kw, vec], [1.0, 2.0]))[0][0] == 2


def test_k_is_configurable_and_validated():
    assert rrf([[7]], k=0)[7] == pytest.approx(1.0)
    with pytest.raises(ValueError):
        rrf([[1]], k=-1)
    with pytest.raises(ValueError):
        rrf([[1], [2]], [1.0])
