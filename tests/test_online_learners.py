"""Online base learners (Oza §2.1, §2.3): lossless means the stream gives the batch model."""

from __future__ import annotations

import logging
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import load_breast_cancer
from uci_mirror import mirror_dir  # noqa: E402 - tools/ is on sys.path (conftest)

from redecorate.data import load_dataset
from redecorate.learners.decision_stump import DecisionStump
from redecorate.learners.features import FeatureSchema
from redecorate.learners.j48 import J48
from redecorate.learners.naive_bayes import NaiveBayes
from redecorate.learners.online_ensembles import OnlineBagging
from redecorate.learners.online_tree import OnlineTree

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def credit_a():
    """credit-a: nominal and numeric attributes with missing values (encoded once)."""
    mirror = mirror_dir()
    if mirror is None:
        pytest.skip("ARFF mirror ../shared/datasets/uci not found")
    data = load_dataset("credit-a", registry=REPO / "config" / "datasets.yaml", mirror=mirror)
    schema = FeatureSchema.from_input(data.X)
    return data.X, data.y, schema


def _stream(learner, X, y, order, batch, classes):
    for start in range(0, len(order), batch):
        rows = order[start:start + batch]
        learner.partial_fit(X.iloc[rows] if hasattr(X, "iloc") else X[rows],
                            y.iloc[rows] if hasattr(y, "iloc") else y[rows], classes=classes)
    return learner


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("batch", [1, 17, 10_000])
def test_the_online_tree_equals_the_batch_tree_after_any_order(credit_a, seed: int, batch: int) -> None:
    X, y, _ = credit_a
    train, test = np.arange(0, 550), np.arange(550, len(y))
    batch_tree = J48().fit(X.iloc[train], y.iloc[train])
    order = np.random.default_rng(seed).permutation(train)
    online = _stream(OnlineTree(), X, y, order, batch, y.cat.categories)
    np.testing.assert_array_equal(online.predict_proba(X.iloc[test]), batch_tree.predict_proba(X.iloc[test]))


def test_a_weight_of_k_is_k_copies_for_the_online_tree(credit_a) -> None:
    X, y, _ = credit_a
    rows = np.arange(300)
    k = np.random.default_rng(5).poisson(1.0, size=rows.size)
    copies = np.repeat(rows, k)
    weighted = OnlineTree().partial_fit(X.iloc[rows], y.iloc[rows], classes=y.cat.categories,
                                        sample_weight=k.astype(float))
    batch = J48().fit(X.iloc[copies], y.iloc[copies])
    test = X.iloc[300:]
    np.testing.assert_array_equal(weighted.predict_proba(test), batch.predict_proba(test))


@pytest.mark.parametrize("batch", [1, 33, 10_000])
def test_online_naive_bayes_equals_batch_naive_bayes(credit_a, batch: int) -> None:
    X, y, _ = credit_a
    order = np.random.default_rng(batch).permutation(600)
    online = _stream(NaiveBayes(), X, y, order, batch, y.cat.categories)
    batch_nb = NaiveBayes().fit(X.iloc[:600], y.iloc[:600])
    np.testing.assert_allclose(online.predict_proba(X.iloc[600:]), batch_nb.predict_proba(X.iloc[600:]),
                               rtol=1e-12, atol=1e-14)


def test_naive_bayes_weights_are_copies() -> None:
    X, y = load_breast_cancer(return_X_y=True)
    # k >= 1: Weka's numeric precision counts distinct values whatever their weight, so a row
    # of weight 0 still shapes it while a dropped row does not (see test_sklearn_checks).
    k = 1 + np.random.default_rng(2).poisson(1.0, size=len(y))
    weighted = NaiveBayes().partial_fit(X, y, classes=[0, 1], sample_weight=k.astype(float))
    copies = NaiveBayes().fit(np.repeat(X, k, axis=0), np.repeat(y, k))
    np.testing.assert_allclose(weighted.predict_proba(X), copies.predict_proba(X), rtol=1e-10)


@pytest.mark.parametrize("batch", [1, 50])
def test_the_online_stump_equals_the_batch_stump(credit_a, batch: int) -> None:
    X, y, _ = credit_a
    order = np.random.default_rng(7).permutation(500)
    online = _stream(DecisionStump(), X, y, order, batch, y.cat.categories)
    batch_stump = DecisionStump().fit(X.iloc[:500], y.iloc[:500])
    assert online.attribute_ == batch_stump.attribute_ >= 0
    np.testing.assert_allclose(online.predict_proba(X.iloc[500:]), batch_stump.predict_proba(X.iloc[500:]))


def test_the_stump_tests_the_attribute_of_highest_gain() -> None:
    from redecorate.learners.information_gain import feature_gains

    X, y = load_breast_cancer(return_X_y=True)
    stump = DecisionStump().fit(X, y)
    gains = feature_gains(X, y, np.zeros(X.shape[1], dtype=bool), 2)
    assert stump.attribute_ == int(np.argmax(gains))
    left = X[:, stump.attribute_] <= stump.threshold_
    majority_left = np.bincount(y[left]).argmax()
    assert (stump.predict(X[left]) == majority_left).all()


def _reference_stump(X: np.ndarray, y: np.ndarray, w: np.ndarray, nominal_sizes: dict[int, int], K: int):
    """The stump's test by its plain definition, in numpy: per attribute in order, a nominal
    one scored over its declared values, a numeric one at the midpoint of adjacent distinct
    values with the best binary gain; gains scaled by the known fraction; ties to the first."""
    from redecorate.learners.information_gain import entropy

    total = w.sum()
    best = (0.0, -1, np.nan)
    for j in range(X.shape[1]):
        known = ~np.isnan(X[:, j])
        if j in nominal_sizes:
            table = np.zeros((nominal_sizes[j], K))
            np.add.at(table, (X[known, j].astype(int), y[known]), w[known])
            sizes = table.sum(axis=1)
            if np.count_nonzero(sizes) < 2:
                continue
            split = entropy(table.sum(axis=0)) - sum(s / sizes.sum() * entropy(r) for r, s in zip(table, sizes, strict=True) if s > 0)
            gain, threshold = table.sum() / total * split, np.nan
        else:
            values = np.unique(X[known, j])
            if values.size < 2:
                continue
            table = np.zeros((values.size, K))
            np.add.at(table, (np.searchsorted(values, X[known, j]), y[known]), w[known])
            left = np.cumsum(table, axis=0)[:-1]
            right = table.sum(axis=0) - left
            gains = [entropy(table.sum(axis=0)) - (lo.sum() * entropy(lo) + hi.sum() * entropy(hi)) / (lo.sum() + hi.sum())
                     for lo, hi in zip(left, right, strict=True)]  # fmt: skip
            i = int(np.argmax(gains))
            gain, threshold = table.sum() / total * gains[i], (values[i] + values[i + 1]) / 2
        if gain > best[0] + 1e-12:
            best = (gain, j, threshold)
    return best[1], best[2]


@pytest.mark.parametrize("name", ["credit-a", "vowel", "soybean", "hepatitis", "autos"])
def test_the_compiled_split_search_equals_the_definition(name: str) -> None:
    mirror = mirror_dir()
    if mirror is None:
        pytest.skip("ARFF mirror ../shared/datasets/uci not found")
    data = load_dataset(name, registry=REPO / "config" / "datasets.yaml", mirror=mirror)
    schema = FeatureSchema.from_input(data.X)
    X, y = schema.encode(data.X), data.y.cat.codes.to_numpy()
    nominal = {j: int(schema.nominal_sizes[j]) for j in np.flatnonzero(schema.is_nominal)}
    rng = np.random.default_rng(3)
    for trial in range(8):
        rows = rng.permutation(len(y))[: int(rng.integers(4, len(y)))]
        w = rng.poisson(1.0, rows.size) + 0.0 if trial % 2 else rng.exponential(1.0, rows.size)
        rows, w = rows[w > 0], w[w > 0]
        stump = DecisionStump().fit(data.X.iloc[rows], data.y.iloc[rows], sample_weight=w)
        attribute, threshold = _reference_stump(X[rows], y[rows], w, nominal, len(data.y.cat.categories))
        assert stump.attribute_ == attribute, (name, trial)
        assert (np.isnan(threshold) and np.isnan(stump.threshold_)) or stump.threshold_ == threshold


def test_the_first_partial_fit_needs_the_class_list_later_ones_keep_it() -> None:
    X, y = load_breast_cancer(return_X_y=True)
    nb = NaiveBayes().partial_fit(X[:5], np.zeros(5, dtype=int), classes=[0, 1])
    nb.partial_fit(X[5:10], np.ones(5, dtype=int))
    assert list(nb.classes_) == [0, 1]
    with pytest.raises(ValueError, match="not among the classes"):
        nb.partial_fit(X[:2], [2, 2])
    with pytest.raises(ValueError, match="differ from those of the first partial_fit"):
        nb.partial_fit(X[:2], [0, 1], classes=[0, 1, 2])


@pytest.mark.parametrize("make", [NaiveBayes, DecisionStump, OnlineTree,
                                  lambda: OnlineBagging(NaiveBayes(), n_estimators=2, random_state=0)])
def test_a_first_partial_fit_without_classes_is_refused_as_in_scikit_learn(make) -> None:
    """Fixing the classes to those of the first batch would fail on a later batch with a
    class the first lacked; scikit-learn refuses the call, and so do we."""
    X, y = load_breast_cancer(return_X_y=True)
    with pytest.raises(ValueError, match="classes must be passed on the first call to partial_fit"):
        make().partial_fit(X[:5], np.zeros(5, dtype=int))
    # A Categorical y declares every class, so it needs no class list.
    codes = pd.Series(pd.Categorical.from_codes(np.zeros(5, dtype=int), categories=["a", "b"]))
    assert list(make().partial_fit(X[:5], codes).classes_) == ["a", "b"]


def test_the_first_numba_compilation_of_a_module_is_announced_once(caplog) -> None:
    """A cold cache costs ~20 s on the first prediction: the user is told why, once."""
    from numba import njit

    from redecorate.learners.compilation import announce_compilation

    announce_compilation()
    namespace = {"__name__": "redecorate.probe_kernels"}
    exec("def first(x):\n    return x + 1\n\ndef second(x):\n    return x * 2\n", namespace)
    with caplog.at_level(logging.WARNING, logger="redecorate"):
        assert njit(namespace["first"])(1) == 2 and njit(namespace["second"])(2) == 4
    notices = [r.getMessage() for r in caplog.records if "numba is compiling" in r.getMessage()]
    assert notices == [notices[0]] and "redecorate.probe_kernels" in notices[0]


def test_the_online_network_is_the_same_however_the_stream_is_cut() -> None:
    """Each example is scaled with the range of the examples up to it, so one fit and any
    sequence of partial_fit calls over the same order give the same network."""
    from sklearn.datasets import load_breast_cancer

    from redecorate.learners.online_mlp import OnlineMLP

    X, y = load_breast_cancer(return_X_y=True)
    order = np.random.default_rng(0).permutation(len(y))
    X, y = X[order], y[order]
    for updates in (1, 10):
        whole = OnlineMLP(updates_per_example=updates, random_state=0).fit(X[:400], y[:400])
        pieces = OnlineMLP(updates_per_example=updates, random_state=0)
        for start in range(0, 400, 37):
            stop = min(start + 37, 400)
            pieces.partial_fit(X[start:stop], y[start:stop], classes=[0, 1])
        np.testing.assert_array_equal(whole.W1_, pieces.W1_)
        np.testing.assert_array_equal(whole.predict_proba(X[400:]), pieces.predict_proba(X[400:]))
    one = OnlineMLP(updates_per_example=1, random_state=0).fit(X[:400], y[:400])
    ten = OnlineMLP(updates_per_example=10, random_state=0).fit(X[:400], y[:400])
    assert not np.array_equal(one.W1_, ten.W1_)
    assert np.mean(one.predict(X[400:]) == y[400:]) > 0.9  # the majority class is 0.63


def test_widening_the_input_range_keeps_what_the_network_computes() -> None:
    from sklearn.datasets import load_breast_cancer

    from redecorate.learners.online_mlp import OnlineMLP

    X, y = load_breast_cancer(return_X_y=True)
    model = OnlineMLP(random_state=0).fit(X[:50], y[:50])
    before = model.predict_proba(X[100:])
    model._rescale(np.fmin(model._lo, X.min(axis=0)), np.fmax(model._hi, X.max(axis=0)))
    assert not np.allclose(model.input_range_, OnlineMLP(random_state=0).fit(X[:50], y[:50]).input_range_)
    np.testing.assert_allclose(model.predict_proba(X[100:]), before, rtol=0, atol=1e-12)


def test_the_range_widenings_are_the_rows_where_the_running_ranges_change() -> None:
    """The one-pass search for the rows that widen an input's range gives exactly what the
    running minimum and maximum of every column say (missing values skipped), from any
    starting ranges: the rows where either changes, and the ranges from there on."""
    from redecorate.learners.online_mlp import _widenings

    rng = np.random.default_rng(3)
    for start in (np.inf, 0.0):
        B = rng.integers(-3, 4, size=(300, 6)).astype(float) * rng.choice([1.0, 10.0], size=6)
        B[rng.random(B.shape) < 0.3] = np.nan
        B[:40, 2] = np.nan  # a column first seen late
        lo, hi = np.full(6, start), np.full(6, -start)
        low = np.fmin.accumulate(np.vstack([lo, np.where(np.isnan(B), np.inf, B)]), axis=0)
        high = np.fmax.accumulate(np.vstack([hi, np.where(np.isnan(B), -np.inf, B)]), axis=0)
        changed = np.flatnonzero((low[1:] != low[:-1]).any(axis=1) | (high[1:] != high[:-1]).any(axis=1))
        rows, lows, highs = _widenings(B, lo, hi)
        assert changed.size >= 5
        np.testing.assert_array_equal(rows, changed)
        np.testing.assert_array_equal(lows, low[1:][changed])
        np.testing.assert_array_equal(highs, high[1:][changed])
        assert np.array_equal(lo, np.full(6, start))  # the starting ranges are not modified


def test_an_input_not_seen_yet_is_left_unscaled_without_warnings() -> None:
    """A column missing in the first examples has no range yet: it must stay at scale 1 and
    offset 0 quietly (no inf - inf in the arithmetic), then take the range once values come."""
    import warnings

    from redecorate.learners.online_mlp import OnlineMLP

    X = np.array([[np.nan, 1.0], [np.nan, 3.0], [2.0, 5.0], [6.0, 7.0]])
    y = np.array([0, 1, 0, 1])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        model = OnlineMLP(random_state=0).partial_fit(X[:2], y[:2], classes=[0, 1])
        assert model.input_base_[0] == 0.0 and model.input_range_[0] == 1.0
        model.partial_fit(X[2:], y[2:])
    assert model.input_base_[0] == 4.0 and model.input_range_[0] == 2.0
