import random

from codesift.rank import labels
from codesift.rank.labels import FLOORS, PRECISION_TARGETS, fit_floors, label


def test_labels_follow_each_score_kinds_floors():
    assert [label(x) for x in (0.95, 0.91, 0.86, 0.82, 0.5)] == ["HIGH", "GOOD", "FAIR", "LOW", "WEAK"]
    # a keyword-only or semantic-only score is mostly its rank: never HIGH, however close to 1
    assert label(1.0, "keyword") == "GOOD" and label(1.0, "semantic") == "GOOD"
    assert label(0.91, "keyword") == "FAIR" and label(0.91, "rrf") == "GOOD"
    assert label(0.95, "similar") == "HIGH"  # another kind reads the hybrid floors


def test_an_exactly_named_result_is_high_whatever_its_score():
    assert label(0.3, "rrf", named=True) == "HIGH"
    assert label(0.3, "keyword", named=True) == "HIGH"


def test_floors_fall_from_high_to_low_for_every_kind():
    for kind in FLOORS["HIGH"]:
        floors = [FLOORS[name][kind] for name in FLOORS]
        assert floors == sorted(floors, reverse=True), kind


def test_fit_floors_finds_where_the_share_of_answers_drops():
    rng = random.Random(7)
    # answers 90 % of the time above 0.9, 50 % in [0.8, 0.9), 20 % in [0.6, 0.8), 10 % in [0.4, 0.6), 1 % below
    bands = [(0.9, 1.0, 0.9), (0.8, 0.9, 0.5), (0.6, 0.8, 0.2), (0.4, 0.6, 0.1), (0.0, 0.4, 0.01)]
    pairs = []
    for lo, hi, share in bands:
        for _ in range(2000):
            pairs.append((rng.uniform(lo, hi), rng.random() < share))
    floors = fit_floors(pairs)
    assert list(floors) == list(PRECISION_TARGETS)
    # HIGH's target (0.75) is met above 0.9 only; GOOD's (0.35) down to 0.8, FAIR's (0.12) to 0.6, LOW's to 0.4
    assert abs(floors["HIGH"] - 0.9) <= 0.02
    assert abs(floors["GOOD"] - 0.8) <= 0.02
    assert abs(floors["FAIR"] - 0.6) <= 0.02
    assert abs(floors["LOW"] - 0.4) <= 0.02


def test_fit_floors_leaves_a_label_nothing_reaches_empty(monkeypatch):
    pairs = [(s / 100, s % 2 == 0) for s in range(100)]  # answers half the time at every score
    monkeypatch.setattr(labels, "PRECISION_TARGETS", {"HIGH": 0.75, "GOOD": 0.35})
    floors = fit_floors(pairs, window=20)
    assert floors["HIGH"] == 1.01  # no band is right three times in four
    assert floors["GOOD"] == 0.0
    assert fit_floors([]) == {"HIGH": 1.01, "GOOD": 1.01}
