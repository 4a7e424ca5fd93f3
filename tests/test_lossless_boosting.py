"""The compiled online boosting of naive Bayes and stumps is the members' own loop, bit for bit.

The reference is ``OnlineBoosting``'s loop over the members' ``partial_fit`` and
classification, which runs for any member that is not exactly a ``NaiveBayes`` or a
``DecisionStump`` (a subclass here, changing nothing). Every comparison is exact: λ_sc and
λ_sw, the members' statistics, the probabilities, and the random generator's state after
the stream (so the Poisson draws were numpy's, one per member and example, in order).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from numba import njit
from uci_mirror import mirror_dir  # noqa: E402 - tools/ is on sys.path (conftest)

from redecorate.data import load_dataset
from redecorate.learners.decision_stump import DecisionStump
from redecorate.learners.lossless_boosting import _poisson, compiled_member_kind
from redecorate.learners.naive_bayes import NaiveBayes
from redecorate.learners.online_ensembles import OnlineBoosting, PrimedOnlineBoosting

REPO = Path(__file__).resolve().parents[1]


class _LoopNaiveBayes(NaiveBayes):
    """Naive Bayes taking the generic loop (the compiled one serves the exact class only)."""


class _LoopStump(DecisionStump):
    """A decision stump taking the generic loop."""


_GENERIC = {NaiveBayes: _LoopNaiveBayes, DecisionStump: _LoopStump}


@njit
def _draws(rng, lams):
    out = np.empty(lams.size, dtype=np.int64)
    for i in range(lams.size):
        out[i] = _poisson(rng, lams[i])
    return out


def test_poisson_draws_are_numpys_draw_for_draw() -> None:
    """Rates below 10 (multiplication), from 10 on (PTRS rejection, including its Stirling
    series for small k), near 10 and huge: the same values as numpy's ``Generator.poisson``
    from the same state, and the same state afterwards (the same uniforms were used)."""
    g = np.random.default_rng(3)
    lams = np.concatenate([g.gamma(0.5, 4, 50_000), g.uniform(0, 60, 50_000), g.uniform(9.99, 10.01, 2_000),
                           np.full(2_000, 1.0), np.zeros(100), g.uniform(0, 1e6, 2_000)])
    g.shuffle(lams)
    ours, numpys = np.random.default_rng(21), np.random.default_rng(21)
    np.testing.assert_array_equal(_draws(ours, lams), numpys.poisson(lams))
    assert ours.bit_generator.state == numpys.bit_generator.state


def test_only_exact_naive_bayes_or_stumps_take_the_compiled_loop() -> None:
    assert compiled_member_kind([NaiveBayes(), NaiveBayes()]) is not None
    assert compiled_member_kind([DecisionStump()]) is not None
    assert compiled_member_kind([_LoopNaiveBayes()]) is None
    assert compiled_member_kind([NaiveBayes(), DecisionStump()]) is None


def _dataset(name: str):
    mirror = mirror_dir()
    if mirror is None:
        pytest.skip("ARFF mirror ../shared/datasets/uci not found")
    return load_dataset(name, registry=REPO / "config" / "datasets.yaml", mirror=mirror)


def _assert_same(compiled, generic, X_test) -> None:
    np.testing.assert_array_equal(compiled.lambda_correct_, generic.lambda_correct_)
    np.testing.assert_array_equal(compiled.lambda_wrong_, generic.lambda_wrong_)
    np.testing.assert_array_equal(compiled._seen, generic._seen)
    assert compiled._rng.bit_generator.state == generic._rng.bit_generator.state
    for a, b in zip(compiled.estimators_, generic.estimators_, strict=True):
        sa, sb = a._stats, b._stats
        for field in ("class_w", "counts", "numeric_offsets", "values", "weights"):
            np.testing.assert_array_equal(getattr(sa, field), getattr(sb, field), err_msg=field)
    np.testing.assert_array_equal(compiled.predict_proba(X_test), generic.predict_proba(X_test))


@pytest.mark.parametrize("base", [NaiveBayes, DecisionStump])
@pytest.mark.parametrize("ensemble", [OnlineBoosting, PrimedOnlineBoosting])
@pytest.mark.parametrize("name", ["credit-g", "breast-w", "soybean", "car"])
def test_compiled_boosting_is_the_members_own_loop(name: str, ensemble, base) -> None:
    """credit-g mixes numeric and nominal attributes, breast-w has missing numeric values,
    soybean 19 classes and missing nominal ones, car only nominal attributes; the order is
    shuffled so early members see all classes at once."""
    data = _dataset(name)
    order = np.random.default_rng(1).permutation(len(data.y))[:500]
    train, test = order[:400], order[400:]
    X, y = data.X.iloc[train], data.y.iloc[train]
    compiled = ensemble(base(), n_estimators=12, random_state=5).fit(X, y)
    generic = ensemble(_GENERIC[base](), n_estimators=12, random_state=5).fit(X, y)
    assert compiled_member_kind(compiled.estimators_) is not None
    assert compiled_member_kind(generic.estimators_) is None
    assert compiled._seen.sum() >= 6 and np.isfinite(compiled.member_errors()).sum() >= 6  # members took part
    _assert_same(compiled, generic, data.X.iloc[test])


@pytest.mark.parametrize("base", [NaiveBayes, DecisionStump])
def test_compiled_boosting_continues_a_stream_of_mini_batches(base) -> None:
    """Each ``partial_fit`` starts the compiled loop from the members' statistics so far
    (new distinct values land among the old ones); one-example and uneven batches give the
    generic loop's model, and so do river's ``learn_one`` calls."""
    data = _dataset("credit-g")
    X, y = data.X.iloc[:300], data.y.iloc[:300]
    classes = list(data.y.cat.categories)
    compiled = OnlineBoosting(base(), n_estimators=8, random_state=2)
    generic = OnlineBoosting(_GENERIC[base](), n_estimators=8, random_state=2)
    for lo, hi in [(0, 1), (1, 2), (2, 40), (40, 41), (41, 170), (170, 300)]:
        compiled.partial_fit(X.iloc[lo:hi], y.iloc[lo:hi], classes=classes)
        generic.partial_fit(X.iloc[lo:hi], y.iloc[lo:hi], classes=classes)
    _assert_same(compiled, generic, data.X.iloc[300:400])


def test_weighted_rows_scale_the_poisson_rate_in_both_loops() -> None:
    """``sample_weight`` multiplies each row's rate (0 skips the row): the same in both loops."""
    data = _dataset("breast-w")
    X, y = data.X.iloc[:300], data.y.iloc[:300]
    w = np.random.default_rng(0).choice([0.0, 0.5, 1.0, 3.0, 14.0], size=300)
    compiled = OnlineBoosting(NaiveBayes(), n_estimators=6, random_state=9).fit(X, y, sample_weight=w)
    generic = OnlineBoosting(_LoopNaiveBayes(), n_estimators=6, random_state=9).fit(X, y, sample_weight=w)
    _assert_same(compiled, generic, data.X.iloc[300:])


@pytest.mark.parametrize("base", [NaiveBayes, DecisionStump])
def test_classes_first_seen_mid_stream_grow_the_compiled_members(base) -> None:
    """river's ``learn_one`` adds a class when it first appears: examples sorted by class, so
    every member grows twice, give the generic loop's model."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(240, 3)).round(1)
    y = np.where(X[:, 0] > 0.5, "c", np.where(X[:, 1] > 0, "a", "b"))
    compiled = OnlineBoosting(base(), n_estimators=6, random_state=3)
    generic = OnlineBoosting(_GENERIC[base](), n_estimators=6, random_state=3)
    for i in np.argsort(y, kind="stable"):
        x = {f"f{j}": float(X[i, j]) for j in range(3)}
        compiled.learn_one(x, y[i])
        generic.learn_one(x, y[i])
    assert compiled.classes_.tolist() == ["a", "b", "c"]
    frame = pd.DataFrame(X, columns=["f0", "f1", "f2"])
    _assert_same(compiled, generic, frame)
