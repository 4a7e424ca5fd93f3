"""Random Forests: bagged J48 random trees with K = floor(log2(k+1)) candidate attributes."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from redecorate.learners.base import member_proba
from redecorate.learners.random_forest import RandomForest, random_subspace_size


@pytest.mark.parametrize("k, thesis, weka", [(1, 1, 2), (2, 1, 2), (3, 2, 3), (4, 2, 3),
                                             (9, 3, 4), (19, 4, 5), (35, 5, 6), (69, 6, 7)])
def test_subspace_size(k, thesis, weka):
    assert random_subspace_size(k) == thesis
    assert random_subspace_size(k, "weka") == min(weka, k)


def test_subspace_size_is_clipped_and_validated():
    assert random_subspace_size(3, 10) == 3
    assert random_subspace_size(5, 2) == 2
    for bad in (0, -1, 1.5, "sqrt"):
        with pytest.raises(ValueError):
            random_subspace_size(5, bad)


def _data(n, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    X = pd.DataFrame({f"x{j}": rng.normal(y * (j % 3), 1.0) for j in range(6)})
    X["nom"] = pd.Categorical(np.array(["p", "q"])[(y + (rng.random(n) < 0.2)) % 2],
                              categories=["p", "q", "r"])
    return X, np.array(["neg", "pos"])[y]


@pytest.fixture
def J48():
    from redecorate.learners.j48 import J48

    return J48


def test_members_are_unpruned_random_j48_trees(J48):
    X, y = _data(100)
    rf = RandomForest(n_estimators=6, random_state=0).fit(X, y)
    assert rf.max_features_ == 3  # k = 7 attributes → floor(log2 8)
    for tree in rf.estimators_:
        assert isinstance(tree, J48)
        assert tree.unpruned and tree.min_instances == 1 and tree.max_features == 3
    seeds = [t.random_state for t in rf.estimators_]
    assert len(set(seeds)) == len(seeds)
    Xe = rf.feature_schema_.encode(X)
    expected = np.mean([member_proba(t, Xe) for t in rf.estimators_], axis=0)
    np.testing.assert_allclose(rf.predict_proba(X), expected)
    assert np.mean(rf.predict(X) == y) > 0.8


def test_deterministic_on_refit(J48):
    X, y = _data(80, seed=1)
    rf = RandomForest(n_estimators=5, random_state=9)
    p1 = rf.fit(X, y).predict_proba(X)
    np.testing.assert_array_equal(p1, rf.fit(X, y).predict_proba(X))
    other = RandomForest(n_estimators=5, random_state=10).fit(X, y).predict_proba(X)
    assert not np.array_equal(p1, other)


@pytest.mark.parametrize("m", [1, 2])
def test_tiny_training_sets(J48, m):
    X, y = _data(10)
    rf = RandomForest(random_state=0).fit(X.iloc[:m], y[:m])
    np.testing.assert_allclose(rf.predict_proba(X).sum(axis=1), 1.0)


def test_a_node_without_a_gaining_candidate_draws_more_or_becomes_a_leaf(J48):
    """K = 1 of two attributes, one of them constant (no gain): Weka's RandomTree draws the
    other whenever it drew the constant one, so every tree splits; with
    ``draw_until_gain=False`` a root that drew the constant one is a leaf."""
    rng = np.random.default_rng(0)
    y = np.repeat([0, 1], 20)
    X = pd.DataFrame({"same": np.zeros(40), "tells": y + rng.normal(0, 0.1, 40)})
    labels = np.array(["a", "b"])[y]
    roots = {}
    for flag in (True, False):
        trees = [J48(unpruned=True, min_instances=1, max_features=1, draw_until_gain=flag, random_state=s)
                 .fit(X, labels) for s in range(20)]  # fmt: skip
        roots[flag] = [int(t.tree_.att[0]) for t in trees]
        assert 0 not in roots[flag]  # the constant attribute is never split on
    assert roots[True] == [1] * 20
    assert -1 in roots[False] and 1 in roots[False]  # some roots drew the constant attribute
    forest = RandomForest(n_estimators=10, max_features=1, draw_until_gain=False, random_state=0).fit(X, labels)
    assert all(not t.draw_until_gain for t in forest.estimators_)


def test_j48_random_trees_take_the_forest_s_minimum_and_criterion(J48):
    """The J48 reading of Table 4.4's forest: the members are J48 random trees with J48's
    ``-M 2`` and C4.5's criterion, and the minimum split size changes what they grow."""
    X, y = _data(60, seed=2)
    forest = RandomForest(n_estimators=4, min_instances=2, criterion="gain_ratio", random_state=0).fit(X, y)
    assert all(t.min_instances == 2 and t.random_criterion == "gain_ratio" and t.unpruned
               for t in forest.estimators_)
    default = RandomForest(n_estimators=4, random_state=0).fit(X, y)
    assert all(t.min_instances == 1 and t.random_criterion == "gain" for t in default.estimators_)
    leaves = [sum(t.n_leaves_ for t in f.estimators_) for f in (forest, default)]
    assert leaves[0] < leaves[1]
