"""AdaBoost.M1 (Algorithm 1) with Weka 3.6's stopping, scaling and voting rules.

``Scripted`` is a test stand-in whose predictions on the training examples are written
in advance, one row per boosting round, so the weights can be checked against a
hand-worked example. Each example's single feature is its index.
"""

from __future__ import annotations

import math
from typing import ClassVar

import numpy as np
import pandas as pd
import pytest
from sklearn.tree import DecisionTreeClassifier

from redecorate.learners.adaboost_m1 import AdaBoostM1
from redecorate.learners.base import EncodedClassifier, member_proba


class Scripted(EncodedClassifier):
    """Stand-in base learner: round r predicts ``SCRIPT[r][i]`` for example index i (with
    certainty) and records the weights it was trained with."""

    SCRIPT: ClassVar[list[list[int]]] = []
    weights_seen: ClassVar[list[np.ndarray]] = []

    def __init__(self, random_state=None):
        self.random_state = random_state

    def _fit_encoded(self, X, y, sample_weight, schema, n_classes):
        self.round_ = len(Scripted.weights_seen)
        Scripted.weights_seen.append(sample_weight.copy())
        self.n_classes_ = n_classes

    def _proba_encoded(self, X):
        preds = np.asarray(Scripted.SCRIPT[self.round_])[X[:, 0].astype(int)]
        return np.eye(self.n_classes_)[preds]


@pytest.fixture
def script():
    def set_script(rows):
        Scripted.SCRIPT = [list(r) for r in rows]
        Scripted.weights_seen = []
        return Scripted

    yield set_script
    Scripted.SCRIPT, Scripted.weights_seen = [], []


X5 = np.arange(5.0)[:, None]
Y5 = np.array([0, 0, 1, 1, 1])


def test_hand_worked_weights_and_votes(script):
    # Round 1 misses example 4:       ε1 = 1/5,  β1 = 1/4.
    #   correct × 1/4 → [1/4,1/4,1/4,1/4,1], sum 2, rescaled to the original total 5:
    #   D2 = [5/8, 5/8, 5/8, 5/8, 5/2].
    # Round 2 misses example 0:       ε2 = (5/8)/5 = 1/8,  β2 = 1/7.
    #   correct × 1/7 → [5/8, 5/56, 5/56, 5/56, 5/14], sum 5/4, × 4:
    #   D3 = [5/2, 5/14, 5/14, 5/14, 10/7].
    # Round 3 misses examples 1 and 2: ε3 = (10/14)/5 = 1/7, β3 = 1/6.
    # Round 4 misses examples 0, 3, 4 — ε4 ≥ 1/2: stop, member 4 discarded.
    cls = script([[0, 0, 1, 1, 0], [1, 0, 1, 1, 1], [0, 1, 0, 1, 1], [1, 0, 1, 0, 0]])
    ada = AdaBoostM1(cls(), n_estimators=10).fit(X5, Y5)
    w = cls.weights_seen
    np.testing.assert_allclose(w[0], np.ones(5))
    np.testing.assert_allclose(w[1], [5 / 8, 5 / 8, 5 / 8, 5 / 8, 5 / 2])
    np.testing.assert_allclose(w[2], [5 / 2, 5 / 14, 5 / 14, 5 / 14, 10 / 7])
    assert len(w) == 4 and all(np.isclose(wi.sum(), 5.0) for wi in w)
    np.testing.assert_allclose(ada.estimator_errors_, [1 / 5, 1 / 8, 1 / 7])
    np.testing.assert_allclose(ada.estimator_weights_, [math.log(4), math.log(7), math.log(6)])
    assert len(ada.estimators_) == 3 and ada.stop_reason_ == "error_at_least_half"
    # Votes: example 0 → class 0 from members 1 and 3 (log 4 + log 6), class 1 from 2 (log 7).
    votes = np.array([
        [math.log(24), math.log(7)],   # x0
        [math.log(28), math.log(6)],   # x1
        [math.log(6), math.log(28)],   # x2
        [0.0, math.log(168)],          # x3
        [math.log(4), math.log(42)],   # x4
    ])
    softmax = np.exp(votes) / np.exp(votes).sum(axis=1, keepdims=True)
    np.testing.assert_allclose(ada.predict_proba(X5), softmax)
    np.testing.assert_array_equal(ada.predict(X5), np.argmax(votes, axis=1))
    share = AdaBoostM1(cls(), n_estimators=10, vote_proba="share")
    cls.weights_seen = []
    share.fit(X5, Y5)
    np.testing.assert_allclose(share.predict_proba(X5), votes / votes.sum(axis=1, keepdims=True))


def test_weights_keep_the_original_total_with_sample_weights(script):
    cls = script([[0, 0, 1, 1, 0], [1, 0, 1, 1, 1], [0, 1, 0, 1, 1]])
    sw = np.array([2.0, 1.0, 1.0, 3.0, 3.0])
    sw_copy = sw.copy()
    ada = AdaBoostM1(cls(), n_estimators=3).fit(X5, Y5, sample_weight=sw)
    np.testing.assert_array_equal(sw, sw_copy)  # the caller's weights are untouched
    assert ada.estimator_errors_[0] == pytest.approx(3 / 10)
    for w in cls.weights_seen:
        assert w.sum() == pytest.approx(10.0)  # J48's min_instances sees weight sums, not 1


def test_first_member_with_error_at_least_half_is_kept_alone(script):
    cls = script([[1, 1, 0, 0, 1], [0, 0, 1, 1, 1]])
    ada = AdaBoostM1(cls(), n_estimators=10).fit(X5, Y5)
    assert len(ada.estimators_) == 1 and len(cls.weights_seen) == 1
    assert ada.stop_reason_ == "error_at_least_half" and ada.estimator_errors_[0] == pytest.approx(0.8)
    np.testing.assert_array_equal(ada.predict_proba(X5), member_proba(ada.estimators_[0], X5))


def test_zero_error_first_member_is_kept_alone(script):
    cls = script([Y5.tolist(), [0, 1, 1, 1, 1]])
    ada = AdaBoostM1(cls(), n_estimators=10).fit(X5, Y5)
    assert len(cls.weights_seen) == 1  # ε1 = 0 stops at once: log(1/β) would be infinite
    assert len(ada.estimators_) == 1 and ada.stop_reason_ == "zero_error"
    assert ada.ensemble_size_ == 1  # what the experiment records report
    assert ada.estimator_weights_[0] == 1.0  # finite placeholder, irrelevant for one member


def test_zero_error_later_is_discarded(script):
    cls = script([[0, 0, 1, 1, 0], [0, 0, 1, 1, 1]])
    ada = AdaBoostM1(cls(), n_estimators=10).fit(X5, Y5)
    assert len(ada.estimators_) == 1 and ada.stop_reason_ == "zero_error"
    # A one-member ensemble predicts with that member's own distribution.
    np.testing.assert_array_equal(ada.predict(X5), [0, 0, 1, 1, 0])


def test_error_of_exactly_one_half_stops_like_weka(script):
    # Round 1 misses example 1: ε1 = 1/4, β1 = 1/3, D2 = [2/3, 2, 2/3, 2/3] (sum 4).
    # Round 2 repeats the same mistake: ε2 = 2/4 = 1/2 exactly. Algorithm 1 would go on
    # (it stops only at ε > 1/2, where β2 = 1 gives a zero vote); Weka stops at ε ≥ 0.5.
    X4 = np.arange(4.0)[:, None]
    cls = script([[0, 1, 1, 1], [0, 1, 1, 1], [0, 0, 1, 1]])
    ada = AdaBoostM1(cls(), n_estimators=10).fit(X4, np.array([0, 0, 1, 1]))
    np.testing.assert_allclose(cls.weights_seen[1], [2 / 3, 2, 2 / 3, 2 / 3])
    assert len(cls.weights_seen) == 2
    assert len(ada.estimators_) == 1 and ada.stop_reason_ == "error_at_least_half"


def test_runs_full_length_when_errors_stay_in_range():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(300, 2))  # a circle: stumps stay weak but better than chance
    y = (np.hypot(X[:, 0], X[:, 1]) > 1.1).astype(int)
    ada = AdaBoostM1(DecisionTreeClassifier(max_depth=1), n_estimators=15, random_state=0).fit(X, y)
    assert len(ada.estimators_) == 15 and ada.stop_reason_ == "completed"
    assert np.all((ada.estimator_errors_ > 0) & (ada.estimator_errors_ < 0.5))
    np.testing.assert_allclose(ada.estimator_weights_,
                               np.log((1 - ada.estimator_errors_) / ada.estimator_errors_))
    proba = ada.predict_proba(X)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)


def _data(n, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, n)
    X = pd.DataFrame({
        "a": rng.normal(y, 1.2),
        "b": pd.Categorical(np.array(["u", "v", "w"])[(y + rng.integers(0, 2, n)) % 3],
                            categories=["u", "v", "w", "z"]),
        "c": rng.normal(size=n),
    })
    X.loc[rng.random(n) < 0.05, "a"] = np.nan
    return X, np.array(["x", "y", "z"])[y]


def test_j48_default_categorical_frame_and_determinism():
    X, y = _data(150)
    ada = AdaBoostM1(random_state=4)
    p1 = ada.fit(X, y).predict_proba(X)
    p2 = ada.fit(X, y).predict_proba(X)
    np.testing.assert_array_equal(p1, p2)
    assert set(ada.predict(X)) <= set(y)


@pytest.mark.parametrize("m", [1, 2, 3])
def test_tiny_training_sets(m):
    X, y = _data(20, seed=1)
    ada = AdaBoostM1(random_state=0).fit(X.iloc[:m], y[:m])
    assert len(ada.estimators_) >= 1
    np.testing.assert_allclose(ada.predict_proba(X).sum(axis=1), 1.0)


def test_randomised_base_learners_get_distinct_seeds():
    X, y = _data(100)
    ada = AdaBoostM1(DecisionTreeClassifier(max_depth=2, max_features=1), n_estimators=6,
                     random_state=1).fit(X.drop(columns="b"), y)
    seeds = [m.random_state for m in ada.estimators_]
    assert len(set(seeds)) == len(seeds)


def test_invalid_parameters():
    X, y = _data(20)
    with pytest.raises(ValueError):
        AdaBoostM1(DecisionTreeClassifier(), n_estimators=0).fit(X.drop(columns="b"), y)
    with pytest.raises(ValueError):
        AdaBoostM1(DecisionTreeClassifier(), vote_proba="hard").fit(X.drop(columns="b"), y)
