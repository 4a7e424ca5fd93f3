"""Bagging: bootstrap replicates, weighted resampling, soft/hard combination, determinism."""

from __future__ import annotations

from typing import ClassVar

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from sklearn.tree import DecisionTreeClassifier

from redecorate.learners.bagging import Bagging, ReplicateSampler
from redecorate.learners.base import EncodedClassifier, member_proba
from redecorate.util import as_seed_sequence


class Recorder(EncodedClassifier):
    """Test stand-in: remembers its training rows and weights; predicts class (row id % K)."""

    calls: ClassVar[list] = []

    def __init__(self, random_state=None):
        self.random_state = random_state

    def _fit_encoded(self, X, y, sample_weight, schema, n_classes):
        Recorder.calls.append((X[:, 0].copy(), sample_weight.copy(), n_classes))
        self.n_classes_ = n_classes

    def _proba_encoded(self, X):
        p = np.full((X.shape[0], self.n_classes_), 0.1 / max(self.n_classes_ - 1, 1))
        p[np.arange(X.shape[0]), (X[:, 0].astype(int) + len(Recorder.calls)) % self.n_classes_] = 0.9
        return p / p.sum(axis=1, keepdims=True)


@pytest.fixture
def recorder():
    Recorder.calls = []
    yield Recorder
    Recorder.calls = []


def _data(n, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, n)
    X = pd.DataFrame({
        "a": rng.normal(y, 1.0),
        "b": pd.Categorical(np.array(["u", "v", "w"])[(y + rng.integers(0, 2, n)) % 3],
                            categories=["u", "v", "w", "z"]),
    })
    return X, np.array(["x", "y", "z"])[y]


def test_bootstrap_replicates_have_size_m_and_unit_weights(recorder):
    X = np.arange(40.0)[:, None]
    y = np.arange(40) % 2
    bag = Bagging(Recorder(), n_estimators=7, random_state=0).fit(X, y)
    assert len(recorder.calls) == 7 == len(bag.estimators_samples_)
    for (rows, w, k), idx in zip(recorder.calls, bag.estimators_samples_, strict=True):
        assert rows.size == 40 and idx.size == 40
        np.testing.assert_array_equal(rows, idx)  # row j of X has feature value j
        np.testing.assert_array_equal(w, 1.0)  # copies carry weight 1, as in Weka
        assert k == 2  # members see the full class list even if a replicate lacks a class
    distinct = [np.unique(i).size / 40 for i in bag.estimators_samples_]
    assert 0.45 < np.mean(distinct) < 0.8  # ≈ 63.2 % in expectation
    assert len({tuple(i) for i in bag.estimators_samples_}) == 7


def test_ensemble_size_counts_the_members(recorder):
    X = np.arange(12, dtype=float)[:, None]
    bag = Bagging(recorder(), n_estimators=7, random_state=0).fit(X, np.arange(12) % 3)
    assert bag.ensemble_size_ == 7 == len(recorder.calls)


def test_weighted_bootstrap_is_proportional_to_weights():
    w = np.array([0.0, 1.0, 2.0, 7.0])
    rng = np.random.default_rng(0)
    draws = np.concatenate([ReplicateSampler(w)(rng) for _ in range(5000)])
    counts = np.bincount(draws, minlength=4)
    assert counts[0] == 0
    assert stats.chisquare(counts[1:], w[1:] / w.sum() * draws.size).pvalue > 1e-3
    with pytest.raises(ValueError):
        ReplicateSampler(np.zeros(3))(rng)


def test_soft_voting_averages_member_probabilities():
    X, y = _data(100)
    Xn = X[["a"]]
    bag = Bagging(DecisionTreeClassifier(max_depth=2), n_estimators=5, random_state=1).fit(Xn, y)
    Xe = bag.feature_schema_.encode(Xn)
    expected = np.mean([member_proba(m, Xe) for m in bag.estimators_], axis=0)
    np.testing.assert_allclose(bag.predict_proba(Xn), expected)


def test_hard_voting_gives_vote_shares():
    X, y = _data(100)
    Xn = X[["a"]]
    bag = Bagging(DecisionTreeClassifier(max_depth=2), n_estimators=5, voting="hard",
                  random_state=1).fit(Xn, y)
    Xe = bag.feature_schema_.encode(Xn)
    votes = np.zeros((len(Xn), 3))
    for m in bag.estimators_:
        votes[np.arange(len(Xn)), np.argmax(member_proba(m, Xe), axis=1)] += 1
    np.testing.assert_allclose(bag.predict_proba(Xn), votes / 5)


@pytest.mark.parametrize("seed", [3, np.random.SeedSequence(3)])
def test_deterministic_and_prefix_stable(seed):
    X, y = _data(80)
    Xn = X[["a"]]
    bag = Bagging(DecisionTreeClassifier(), n_estimators=9, random_state=seed)
    p1 = bag.fit(Xn, y).predict_proba(Xn)
    s1 = [i.copy() for i in bag.estimators_samples_]
    p2 = bag.fit(Xn, y).predict_proba(Xn)
    np.testing.assert_array_equal(p1, p2)
    small = Bagging(DecisionTreeClassifier(), n_estimators=4, random_state=seed).fit(Xn, y)
    for a, b in zip(small.estimators_samples_, s1, strict=False):
        np.testing.assert_array_equal(a, b)  # member i does not depend on n_estimators


def test_seed_sequence_argument_is_not_consumed():
    ss = np.random.SeedSequence(11)
    a = as_seed_sequence(ss).spawn(2)
    b = as_seed_sequence(ss).spawn(2)
    assert ss.n_children_spawned == 0
    assert [c.generate_state(1)[0] for c in a] == [c.generate_state(1)[0] for c in b]


def test_j48_default_with_categorical_frame():
    from redecorate.learners.j48 import J48
    X, y = _data(120)
    bag = Bagging(random_state=0).fit(X, y)
    assert all(isinstance(m, J48) for m in bag.estimators_)
    p1 = bag.predict_proba(X)
    np.testing.assert_array_equal(p1, Bagging(random_state=0).fit(X, y).predict_proba(X))


@pytest.mark.parametrize("m", [1, 2])
def test_tiny_training_sets(m):
    X, y = _data(10)
    bag = Bagging(random_state=0).fit(X.iloc[:m], y[:m])
    np.testing.assert_allclose(bag.predict_proba(X).sum(axis=1), 1.0)


@pytest.mark.parametrize("bad", [dict(n_estimators=0), dict(voting="majority")])
def test_invalid_parameters(bad):
    X, y = _data(10)
    with pytest.raises(ValueError):
        Bagging(DecisionTreeClassifier(), **bad).fit(X[["a"]], y)
