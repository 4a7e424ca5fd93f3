"""J48 (C4.5 release 8) on hand-worked cases: split criteria, pruning, missing values, modes."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from redecorate.learners import c45_engine
from redecorate.learners.j48 import J48


def _entropy(counts):
    p = np.asarray(counts, dtype=float)
    p = p[p > 0] / p.sum()
    return float(-(p * np.log2(p)).sum())


def test_information_gain_of_lenses_astigmatic():
    # Aggarwal's lenses example (002): S = [3 hard, 4 soft, 10 none]; Astigmatic=no holds
    # [0, 4, 4], Astigmatic=yes holds [3, 0, 6]; Gain(S, Astigmatic) = 0.426.
    rows = [(0, 1)] * 4 + [(0, 2)] * 4 + [(1, 0)] * 3 + [(1, 2)] * 6
    X = np.array([[a] for a, _ in rows], dtype=float)
    y = np.array([c for _, c in rows], dtype=np.int64)
    idx = np.arange(len(y))
    wt = np.ones(len(y))
    ok, gain, ratio = c45_engine._eval_nominal(np.ascontiguousarray(X.T), y, idx, wt, 0, 2, 3, float(len(y)), 2.0, np.empty(0),
                                               np.zeros((2, 3)), np.empty(0, dtype=np.int64))
    assert ok
    assert gain == pytest.approx(0.426, abs=5e-4)
    expected = _entropy([3, 4, 10]) - 8 / 17 * _entropy([0, 4, 4]) - 9 / 17 * _entropy([3, 0, 6])
    assert gain == pytest.approx(expected, abs=1e-12)
    split_info = _entropy([8, 9])
    assert ratio == pytest.approx(expected / split_info, abs=1e-12)


def test_unknown_values_reduce_gain_by_known_fraction():
    # C4.5 scales the gain by the fraction of weight whose value is known and counts the
    # unknown weight as an extra branch in the split information.
    X = np.array([[0], [0], [1], [1], [np.nan], [np.nan]], dtype=float)
    y = np.array([0, 0, 1, 1, 0, 1], dtype=np.int64)
    ok, gain, ratio = c45_engine._eval_nominal(
        np.ascontiguousarray(X.T), y, np.arange(6), np.ones(6), 0, 2, 2, 6.0, 1.0, np.empty(0), np.zeros((2, 2)),
        np.empty(0, dtype=np.int64)
    )
    assert ok
    assert gain == pytest.approx(4 / 6 * 1.0)
    assert ratio == pytest.approx(gain / _entropy([2, 2, 2]))


def test_numeric_split_uses_mdl_penalty_and_observed_threshold():
    # Two well separated groups: the best threshold lies between 3 and 10 and is moved
    # down onto the observed value 3 (C4.5 places thresholds on training values).
    x = np.array([1, 2, 3, 10, 11, 12], dtype=float)
    y = np.array([0, 0, 0, 1, 1, 1], dtype=np.int64)
    ok, gain, _, thr = c45_engine._eval_numeric(
        x[None, :], y, np.argsort(x, kind="stable"), np.ones(6), np.ones(6, dtype=np.int64), 0, 2, 6.0, 2.0,
        True, False, np.empty(0), np.empty(6), np.empty(6, dtype=np.int64), np.empty(6), np.zeros((2, 2))
    )
    assert ok
    # candidate thresholds with >= 2 instances per side: after 2, 3, 10 -> 3 candidates
    assert gain == pytest.approx(1.0 - math.log2(3) / 6)
    assert thr == pytest.approx(6.5)
    model = J48().fit(x[:, None], y)
    assert model.tree_.split[0] == 3.0  # split point snapped to the largest value <= 6.5


def test_pessimistic_error_matches_quinlan_textbook_example():
    # Quinlan (1993, ch. 4): leaves covering 6, 9 and 1 cases without error give
    # 6*U(0,6) + 9*U(0,9) + 1*U(0,1) = 3.273 predicted errors at CF = 25 %,
    # against 16*U(1,16) = 2.512 for a single leaf with one error: the subtree is pruned.
    z = c45_engine._norm_inverse_upper(0.25)
    assert z == pytest.approx(0.6744897501960817, abs=1e-9)
    subtree = sum(c45_engine._add_errs(n, 0.0, 0.25, z) for n in (6.0, 9.0, 1.0))
    assert subtree == pytest.approx(3.273, abs=0.01)
    leaf = 1.0 + c45_engine._add_errs(16.0, 1.0, 0.25, z)
    assert leaf == pytest.approx(2.512, abs=0.06)  # normal approximation vs exact binomial
    assert leaf < subtree


def _noisy_signal(n, flips, n_noise, seed):
    rng = np.random.default_rng(seed)
    x_signal = np.repeat([0.0, 1.0], n // 2)
    y = x_signal.astype(np.int64)
    flip = rng.choice(n, flips, replace=False)
    y[flip] = 1 - y[flip]
    return np.column_stack([x_signal, rng.normal(size=(n, n_noise))]), y


def test_pruning_removes_splits_that_only_fit_noise():
    X, y = _noisy_signal(80, 8, 2, seed=1)
    unpruned = J48(unpruned=True).fit(X, y)
    pruned = J48().fit(X, y)
    severe = J48(confidence=0.01).fit(X, y)
    assert unpruned.tree_size_ > pruned.tree_size_ > severe.tree_size_
    assert severe.tree_size_ == 3  # only the signal attribute survives
    assert severe.tree_.att[0] == 0


def test_pruned_tree_equals_weka_on_a_small_noisy_case():
    # Weka 3.6 (J48 -C 0.25 -M 2) prints this tree for the data below.
    X, y = _noisy_signal(80, 6, 1, seed=0)
    text = J48().fit(X, y).export_text()
    assert "|   |   x1 <= -1.169802: 0 (4.0/1.0)" in text
    assert "|   x1 > -0.921725: 0 (34.0/1.0)" in text
    assert "|   x1 > -1.288361: 1 (37.0)" in text


def test_missing_value_at_prediction_mixes_branches_by_training_weight():
    # Split on a nominal attribute with branches of weight 6 and 2: an example whose value
    # is missing gets 6/8 of the first leaf's distribution and 2/8 of the second's.
    X = pd.DataFrame({"a": pd.Categorical(["u"] * 6 + ["v"] * 2, categories=["u", "v"])})
    y = pd.Categorical(["p"] * 5 + ["q"] + ["q"] * 2, categories=["p", "q"])
    model = J48(min_instances=1, unpruned=True).fit(X, y)
    assert model.tree_size_ == 3
    test = pd.DataFrame({"a": pd.Categorical([None], categories=["u", "v"])})
    proba = model.predict_proba(test)[0]
    assert proba == pytest.approx([6 / 8 * 5 / 6, 6 / 8 * 1 / 6 + 2 / 8 * 1.0])


def test_missing_values_in_training_travel_fractionally():
    # The instance with a missing value is split 3:1 between the branches.
    X = pd.DataFrame({"a": pd.Categorical(["u", "u", "u", "v", None], categories=["u", "v"])})
    y = pd.Categorical(["p", "p", "p", "q", "q"], categories=["p", "q"])
    model = J48(min_instances=1, unpruned=True, collapse_tree=False).fit(X, y)
    tree = model.tree_
    assert tree.att[0] == 0
    first_leaf = tree.totals[tree.child0[0]]
    second_leaf = tree.totals[tree.child0[0] + 1]
    assert first_leaf == pytest.approx([3.0, 0.75])
    assert second_leaf == pytest.approx([0.0, 1.25])


def test_laplace_leaf_estimates():
    X = np.array([[0.0], [0.0], [0.0], [1.0], [1.0], [1.0]])
    y = np.array([0, 0, 0, 1, 1, 1])
    pet = J48(unpruned=True, laplace=True, min_instances=1).fit(X, y)
    assert pet.predict_proba([[0.0]])[0] == pytest.approx([(3 + 1) / (3 + 2), 1 / (3 + 2)])
    plain = J48(unpruned=True, min_instances=1).fit(X, y)
    assert plain.predict_proba([[0.0]])[0] == pytest.approx([1.0, 0.0])


def test_sample_weights_of_zero_equal_removal():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(120, 3))
    y = (X[:, 0] + 0.3 * rng.normal(size=120) > 0).astype(int)
    w = np.ones(120)
    w[:20] = 0
    a = J48().fit(X, y, sample_weight=w)
    b = J48().fit(X[20:], y[20:])
    assert np.array_equal(a.predict_proba(X), b.predict_proba(X))


def test_sample_weights_change_the_tree():
    rng = np.random.default_rng(2)
    X = rng.normal(size=(100, 2))
    y = (X[:, 0] > 0).astype(int)
    y[:10] = 1 - y[:10]
    w = np.where(np.arange(100) < 10, 20.0, 1.0)
    assert J48().fit(X, y).export_text() != J48().fit(X, y, sample_weight=w).export_text()


def test_declared_classes_absent_from_training_are_kept():
    X = pd.DataFrame({"x": [0.0, 1.0, 2.0]})
    y = pd.Series(pd.Categorical(["a", "a", "a"], categories=["a", "b", "c"]))
    model = J48().fit(X, y)
    assert list(model.classes_) == ["a", "b", "c"]
    assert model.predict_proba(X)[0] == pytest.approx([1.0, 0.0, 0.0])
    pet = J48(laplace=True).fit(X, y)
    assert pet.predict_proba(X)[0] == pytest.approx([4 / 6, 1 / 6, 1 / 6])


def test_single_example_gives_a_working_model():
    model = J48().fit(np.array([[1.0, 2.0]]), np.array(["yes"]))
    assert model.predict(np.array([[5.0, -1.0]]))[0] == "yes"
    assert model.tree_size_ == 1


def test_random_tree_mode_is_seeded_and_unpruned():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(200, 8))
    y = (X[:, 0] + X[:, 1] > 0).astype(int)
    a = J48(unpruned=True, min_instances=1, max_features=2, random_state=7).fit(X, y)
    b = J48(unpruned=True, min_instances=1, max_features=2, random_state=7).fit(X, y)
    c = J48(unpruned=True, min_instances=1, max_features=2, random_state=8).fit(X, y)
    assert a.export_text() == b.export_text()
    assert a.export_text() != c.export_text()
    assert (a.predict(X) == y).mean() == 1.0  # grown until pure
    used = {int(v) for v in a.tree_.att if v >= 0}
    assert len(used) > 2  # random candidates bring in attributes the greedy tree ignores


def test_export_text_in_weka_layout():
    X = pd.DataFrame({"outlook": pd.Categorical(["sunny"] * 5 + ["rainy"] * 5)})
    y = pd.Categorical(["no"] * 4 + ["yes"] + ["yes"] * 5)
    text = J48(unpruned=True).fit(X, y).export_text()
    assert "outlook = rainy: yes (5.0)" in text
    assert "outlook = sunny: no (5.0/1.0)" in text
    assert "Size of the tree : \t3" in text


def test_a_row_with_multiplicity_counts_as_that_many_instances():
    # Two values, two copies each: C4.5 needs 2 * minSplit = 4 known *instances* to split a
    # numeric attribute. The copies split; the two distinct rows with weight 2 do not
    # (weights are not instances, in Weka too); with multiplicity 2 they split like the copies.
    copies = J48().fit(np.array([[1.0], [1.0], [5.0], [5.0]]), [0, 0, 1, 1])
    assert copies.tree_.att[0] == 0
    X2, y2 = np.array([[1.0], [5.0]]), np.array([0, 1])
    weighted = J48().fit(X2, y2, sample_weight=[2.0, 2.0])
    assert weighted.tree_.att[0] == -1
    counted = J48()
    counted._fit_encoded(X2, y2, np.array([2.0, 2.0]), weighted.feature_schema_, 2,
                         multiplicity=np.array([2, 2]))
    assert counted.tree_.att[0] == 0
    np.testing.assert_array_equal(counted.tree_.totals, copies.tree_.totals)


MIRROR_DATASETS = ("labor", "colic", "hepatitis", "soybean", "audiology", "autos", "anneal")


def _mirror_data(name: str):
    """A dataset of the ARFF mirror as the engine sees it: (schema, X, y codes, classes)."""
    from uci_mirror import mirror_dir

    from redecorate.data import load_arff
    from redecorate.learners.features import FeatureSchema

    mirror = mirror_dir()
    if mirror is None:
        pytest.skip("ARFF mirror ../shared/datasets/uci not found")
    ds = load_arff(mirror / f"{name}.arff")
    schema = FeatureSchema.from_input(ds.X)
    return schema, schema.encode(ds.X), np.asarray(ds.y.cat.codes, dtype=np.int64), len(ds.y.cat.categories)


@pytest.mark.parametrize("name", MIRROR_DATASETS)
@pytest.mark.parametrize("mode", ["pruned", "random", "random_ratio"])
def test_replicate_as_distinct_rows_with_counts_grows_the_tree_of_its_copies(name, mode):
    # fit_replicate gives J48 each distinct row of a bootstrap replicate once, with its
    # draw count; the tree must be the one grown on the copies. Datasets with missing
    # values included: those send fractional weights down branches, where c * w and
    # w + ... + w may differ in the last bit, so class weights are compared to 1e-12.
    from redecorate.learners.base import fit_member, fit_replicate

    schema, X, y, k = _mirror_data(name)
    params = {"pruned": {}, "random": {"unpruned": True, "min_instances": 1, "max_features": 3},
              "random_ratio": {"unpruned": True, "max_features": 3, "random_criterion": "gain_ratio"}}[mode]
    rng = np.random.default_rng(11)
    for m in (8, 40, X.shape[0]):
        sub = rng.choice(X.shape[0], size=min(m, X.shape[0]), replace=False)
        Xs, ys = X[sub], y[sub]
        rows = rng.integers(0, Xs.shape[0], Xs.shape[0])
        assert np.unique(rows).size < rows.size or m < 3
        on_copies = fit_member(J48(random_state=m, **params), Xs[rows], ys[rows],
                               np.ones(rows.size), schema, k)
        on_counts = fit_replicate(J48(random_state=m, **params), Xs, ys, rows, schema, k)
        a, b = on_copies.tree_, on_counts.tree_
        for field in ("att", "split", "child0", "nb", "empty", "doff"):
            np.testing.assert_array_equal(getattr(a, field), getattr(b, field), err_msg=field)
        np.testing.assert_allclose(a.dist, b.dist, rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(a.totals, b.totals, rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(on_copies._proba_encoded(X), on_counts._proba_encoded(X),
                                   rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("name", MIRROR_DATASETS + ("iris", "credit.a", "breast.w"))
def test_a_j48_random_tree_with_every_attribute_a_candidate_is_j48(name):
    # random_criterion="gain_ratio" judges the drawn candidates as C4.5 judges all
    # attributes; when every attribute is drawn the tree must be J48's own, node for node,
    # on data with missing values, many-valued nominal and numeric attributes, and on
    # small training sets where C4.5's minimum split size decides.
    from redecorate.learners.base import fit_member

    schema, X, y, k = _mirror_data(name)
    rng = np.random.default_rng(5)
    n_splits = 0
    for m in (6, 30, X.shape[0]):
        sub = rng.choice(X.shape[0], size=min(m, X.shape[0]), replace=False)
        for min_instances in (1, 2):
            plain = fit_member(J48(unpruned=True, min_instances=min_instances), X[sub], y[sub],
                               np.ones(sub.size), schema, k)
            drawn = fit_member(J48(unpruned=True, min_instances=min_instances, max_features=X.shape[1],
                                   random_criterion="gain_ratio", random_state=m), X[sub], y[sub],
                               np.ones(sub.size), schema, k)
            for field in ("att", "split", "child0", "nb", "empty", "doff"):
                np.testing.assert_array_equal(getattr(plain.tree_, field), getattr(drawn.tree_, field),
                                              err_msg=field)
            np.testing.assert_array_equal(plain.tree_.dist, drawn.tree_.dist)
            n_splits += int((plain.tree_.att >= 0).sum())
    assert n_splits > 0


def test_a_j48_random_tree_chooses_by_gain_ratio_among_its_candidates():
    # Two candidates: a many-valued nominal attribute that separates the classes perfectly
    # (the highest information gain, a low gain ratio) and a binary one that errs once.
    # Information gain takes the many-valued one, C4.5's criterion the binary one.
    y = np.repeat([0, 1], 12)
    ident = pd.Categorical([f"v{i}" for i in range(24)])
    binary = y.copy()
    binary[0] = 1
    X = pd.DataFrame({"ident": ident, "binary": pd.Categorical(np.array(["a", "b"])[binary])})
    labels = np.array(["n", "p"])[y]
    by_gain = J48(unpruned=True, min_instances=1, max_features=2, random_state=0).fit(X, labels)
    by_ratio = J48(unpruned=True, min_instances=1, max_features=2, random_criterion="gain_ratio",
                   random_state=0).fit(X, labels)
    assert by_gain.tree_.att[0] == 0
    assert by_ratio.tree_.att[0] == 1
