"""Tests of the Chapter 5 corruption procedures (§5.1.1) and the noise job.

The properties checked are those the thesis states: N·D·F/100 (or N·D/100) draws with
replacement, so the number of distinct cells hit follows from the draws; class noise only in
the training set and only to *other* classes; feature noise never touches the class and
draws nominal values from the declared domain and numeric values from the set's own
Gaussian; missing features and feature noise corrupt the test set too. Determinism and
"every algorithm sees identical corruption" are checked through the job.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd
import pytest
from sklearn.dummy import DummyClassifier

from redecorate.corrupt import (
    CORRUPTIONS,
    add_class_noise,
    add_feature_noise,
    add_missing_features,
    corrupt_fold,
    corruption_seed,
    n_draws,
    present_classes,
)
from redecorate.kinds.noise import run_noise_job
from redecorate.protocol import RECORD_COLUMNS, run_folds


class _Data:
    def __init__(self, name: str, X: pd.DataFrame, y: pd.Series) -> None:
        self.name, self.X, self.y = name, X, y


def mixed_frame(n: int = 200, seed: int = 0) -> pd.DataFrame:
    """Two numeric and two nominal attributes (one with a declared-but-absent value)."""
    rng = np.random.default_rng(seed)
    return pd.DataFrame(
        {
            "a": rng.normal(10.0, 2.0, n),
            "b": rng.uniform(0.0, 1.0, n),
            "c": pd.Categorical(rng.choice(["x", "y"], n), categories=["x", "y", "z"]),
            "d": pd.Categorical(rng.choice(["p", "q", "r"], n), categories=["p", "q", "r"]),
        }
    )


def labels(n: int = 200, classes: tuple[str, ...] = ("A", "B", "C"), seed: int = 1) -> pd.Series:
    rng = np.random.default_rng(seed)
    declared = [*classes, "never"]
    return pd.Series(pd.Categorical(rng.choice(classes, n), categories=declared), name="class")


def replay(seed: Any, n: int, n_rows: int, n_features: int | None = None):
    """The draws a procedure makes, replayed from the same stream (rows, then features)."""
    rng = np.random.default_rng(seed)
    rows = rng.integers(0, n_rows, size=n)
    if n_features is None:
        return rows, rng
    return rows, rng.integers(0, n_features, size=n), rng


# --------------------------------------------------------------------------- counts


def test_draw_counts_round_half_up_exactly() -> None:
    assert n_draws(5, 57, 16) == 46  # 45.6
    assert n_draws(15, 57) == 9  # 8.55
    assert n_draws(10, 5) == 1  # 0.5 rounds up, not to even
    assert n_draws(25, 2) == 1  # 0.5
    assert n_draws(0, 699, 9) == 0
    assert n_draws(40, 150, 4) == 240
    assert n_draws(2.5, 100) == 3  # 2.5, exact rational arithmetic
    for bad in (-1, 101):
        with pytest.raises(ValueError):
            n_draws(bad, 10)
    with pytest.raises(TypeError):
        n_draws(True, 10)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- missing features


def test_missing_features_hit_exactly_the_distinct_drawn_cells() -> None:
    X = mixed_frame()
    seed = np.random.SeedSequence(5)
    out = add_missing_features(X, 20, seed)
    n = n_draws(20, 200, 4)
    rows, cols, _ = replay(np.random.SeedSequence(5), n, 200, 4)
    drawn = set(zip(rows.tolist(), cols.tolist(), strict=True))
    became_missing = {
        (int(i), int(j)) for i, j in zip(*np.nonzero(out.isna().to_numpy()), strict=True)
    }
    assert became_missing == drawn
    assert len(drawn) < n, "draws are with replacement: collisions lower the effective rate"
    assert not X.isna().any().any(), "the input is not modified"


def test_missing_features_distinct_cells_follow_sampling_with_replacement() -> None:
    # E[#distinct] = C·(1 − (1 − 1/C)^n) for n draws among C cells.
    X = mixed_frame(500)
    cells = 500 * 4
    n = n_draws(40, 500, 4)
    expected = cells * (1 - (1 - 1 / cells) ** n)
    counts = [int(add_missing_features(X, 40, s).isna().sum().sum()) for s in range(20)]
    assert abs(np.mean(counts) - expected) < 0.01 * expected
    assert all(c <= n for c in counts)


def test_missing_features_keep_types_and_are_deterministic() -> None:
    X = mixed_frame()
    out = add_missing_features(X, 30, np.random.SeedSequence(3))
    assert list(out.dtypes) == list(X.dtypes)
    assert list(out["c"].cat.categories) == ["x", "y", "z"]
    again = add_missing_features(X, 30, np.random.SeedSequence(3))
    pd.testing.assert_frame_equal(out, again)
    other = add_missing_features(X, 30, np.random.SeedSequence(4))
    assert not out.isna().equals(other.isna())
    pd.testing.assert_frame_equal(add_missing_features(X, 0, 1), X)


def test_missing_features_on_integer_columns_become_float() -> None:
    X = pd.DataFrame({"i": np.arange(50), "j": np.arange(50)})
    out = add_missing_features(X, 50, 0)
    assert (out.dtypes == np.float64).all() and out.isna().any().any()


# --------------------------------------------------------------------------- class noise


def test_class_noise_changes_only_drawn_rows_to_other_present_classes() -> None:
    y = labels()
    seed = np.random.SeedSequence(11)
    out = add_class_noise(y, 30, seed)
    n = n_draws(30, 200)
    rows, _ = replay(np.random.SeedSequence(11), n, 200)
    changed = set(np.nonzero((out != y).to_numpy())[0].tolist())
    assert changed <= set(rows.tolist())
    once = {r for r in rows.tolist() if rows.tolist().count(r) == 1}
    assert once <= changed, "a row drawn once always changes: K − 1 ≥ 1 other classes"
    assert set(out.astype(str)) <= {"A", "B", "C"}, "never a declared-but-absent class"
    assert list(out.cat.categories) == list(y.cat.categories)
    assert out.name == y.name and out.index.equals(y.index)
    assert (y == labels()).all(), "the input is not modified"


def test_binary_class_noise_flips_rows_drawn_an_odd_number_of_times() -> None:
    y = labels(101, ("neg", "pos"))
    out = add_class_noise(y, 40, 7)
    rows, _ = replay(7, n_draws(40, 101), 101)
    odd = {r for r in set(rows.tolist()) if rows.tolist().count(r) % 2 == 1}
    assert set(np.nonzero((out != y).to_numpy())[0].tolist()) == odd


def test_class_noise_uses_the_given_classes_and_is_uniform_over_the_others() -> None:
    y = pd.Series(pd.Categorical(["A"] * 3000, categories=["A", "B", "C", "D"]))
    out = add_class_noise(y, 10, 0, classes=["A", "B", "C", "D"])
    counts = out[out != "A"].value_counts()
    assert set(counts.index[counts > 0]) == {"B", "C", "D"}
    assert counts[["B", "C", "D"]].min() > 0.25 * counts.sum()
    # Only one possible class: no other value, nothing changes.
    assert (add_class_noise(y, 40, 0) == y).all()
    with pytest.raises(ValueError):
        add_class_noise(y, 10, 0, classes=["A", "Z"])


def test_present_classes_in_declared_order() -> None:
    assert present_classes(labels()) == ["A", "B", "C"]


# --------------------------------------------------------------------------- feature noise


def test_feature_noise_changes_only_drawn_cells_with_the_later_draw_winning() -> None:
    X = mixed_frame()
    n = n_draws(25, 200, 4)
    out = add_feature_noise(X, 25, 9)
    rows, cols, rng = replay(9, n, 200, 4)
    uniform, normal = rng.random(n), rng.standard_normal(n)
    drawn = set(zip(rows.tolist(), cols.tolist(), strict=True))
    for j, name in enumerate(X.columns):
        differs = ~((out[name] == X[name]) | (out[name].isna() & X[name].isna()))
        for i in np.nonzero(differs.to_numpy())[0]:
            assert (int(i), j) in drawn
    # The value of a cell is that of its last draw.
    last: dict[tuple[int, int], int] = {}
    for k, cell in enumerate(zip(rows.tolist(), cols.tolist(), strict=True)):
        last[cell] = k
    mean, sd = X["a"].mean(), X["a"].std(ddof=1)
    for (i, j), k in last.items():
        if j == 0:
            assert out.iat[i, 0] == pytest.approx(mean + sd * normal[k])
        elif j == 3:
            assert out.iat[i, 3] == ["p", "q", "r"][int(uniform[k] * 3)]


def test_feature_noise_uses_the_declared_domain_and_the_sets_gaussian() -> None:
    X = mixed_frame(4000)
    out = add_feature_noise(X, 100, 2)  # every cell drawn ~ once on average
    assert "z" in set(out["c"].astype(str)), "declared-but-absent values can appear"
    assert list(out.dtypes) == list(X.dtypes)
    assert list(out["c"].cat.categories) == ["x", "y", "z"]
    changed = out["a"][out["a"] != X["a"]]
    assert abs(changed.mean() - X["a"].mean()) < 0.15
    assert abs(changed.std() - X["a"].std()) < 0.15


def test_feature_noise_fills_missing_cells_and_handles_degenerate_columns() -> None:
    X = pd.DataFrame({"all_nan": [np.nan] * 20, "const": [3.0] * 20, "gap": [np.nan, 1.0] * 10})
    out = add_feature_noise(X, 100, 4)
    assert out["all_nan"].isna().all(), "no value to estimate a Gaussian from: stays missing"
    assert (out["const"] == 3.0).all(), "sd 0: the draw is the mean"
    assert out["gap"].notna().sum() > 10, "a drawn missing cell receives a value"


# --------------------------------------------------------------------------- folds


@pytest.mark.parametrize("kind", sorted(CORRUPTIONS))
def test_corrupt_fold_touches_the_sets_the_thesis_names(kind: str) -> None:
    X, y = mixed_frame(), labels()
    Xtr, ytr, Xte, yte = X.iloc[:150], y.iloc[:150], X.iloc[150:], y.iloc[150:]
    keys = dict(seed=1, dataset="d", run=0, fold=0)
    a = corrupt_fold(kind, Xtr, ytr, Xte, yte, 30, **keys)
    b = corrupt_fold(kind, Xtr, ytr, Xte, yte, 30, **keys)
    for first, second in zip(a, b, strict=True):
        assert first.equals(second), "deterministic"
    new_Xtr, new_ytr, new_Xte, new_yte = a
    assert new_yte.equals(yte), "test labels are never corrupted"
    if kind == "class":
        assert not new_ytr.equals(ytr)
        assert new_Xtr.equals(Xtr) and new_Xte.equals(Xte)
    else:
        assert new_ytr.equals(ytr), "the class is left alone"
        assert not new_Xtr.equals(Xtr) and not new_Xte.equals(Xte), "both sets corrupted"
    unchanged = corrupt_fold(kind, Xtr, ytr, Xte, yte, 0, **keys)
    assert all(u.equals(o) for u, o in zip(unchanged, (Xtr, ytr, Xte, yte), strict=True))


def test_corruption_streams_are_keyed_by_every_name() -> None:
    base = dict(seed=1, kind="missing", dataset="d", run=0, fold=0, level=5, part="train")
    state = corruption_seed(**base).generate_state(2).tolist()
    for key, value in (("seed", 2), ("kind", "feature"), ("dataset", "e"), ("run", 1),
                       ("fold", 1), ("level", 10), ("part", "test")):  # fmt: skip
        assert corruption_seed(**{**base, key: value}).generate_state(2).tolist() != state, key
    assert corruption_seed(**{**base, "level": 5.0}).generate_state(2).tolist() == state
    with pytest.raises(ValueError):
        corruption_seed(**{**base, "part": "both"})
    with pytest.raises(ValueError):
        corrupt_fold("gaussian", *([pd.DataFrame()] * 4), 5, seed=1, dataset="d", run=0, fold=0)


# --------------------------------------------------------------------------- the noise job


class Recorder:
    """Factory recording what every learner was trained and tested on."""

    def __init__(self) -> None:
        self.seen: list[tuple[str, str, str]] = []

    def __call__(self, algorithm: str, params: Mapping[str, Any], random_state: int) -> Any:
        recorder = self

        class _Recording(DummyClassifier):
            def fit(self, X, y, sample_weight=None):  # noqa: D102 - test double
                self._train = pd.util.hash_pandas_object(pd.concat([X, y], axis=1)).sum()
                return super().fit(X, y, sample_weight)

            def predict(self, X):  # noqa: D102 - test double
                test = pd.util.hash_pandas_object(X).sum()
                recorder.seen.append((algorithm, str(self._train), str(test)))
                return super().predict(X)

        return _Recording(strategy="most_frequent")


def _data() -> _Data:
    return _Data("toy", mixed_frame(90), labels(90))


def _noise_job(data: _Data, **overrides: Any) -> pd.DataFrame:
    kwargs: dict[str, Any] = dict(
        experiment="ch5_test", algorithm="dummy", params={}, run=0, n_folds=3,
        levels=[0, 20, 40], corruption="missing", seed=7, progress=lambda line: None,
        learner_factory=lambda a, p, s: DummyClassifier(strategy="stratified", random_state=s),
    )  # fmt: skip
    kwargs.update(overrides)
    return run_noise_job(data, **kwargs)


def test_noise_job_records_levels_as_points_on_the_full_training_fold() -> None:
    data = _data()
    records = _noise_job(data)
    assert tuple(records.columns) == RECORD_COLUMNS
    assert len(records) == 3 * 3
    assert records["point"].tolist()[:3] == [0, 20, 40]
    assert records["point"].dtype == np.int64
    folds = run_folds(data, 3, run=0, seed=7)
    for fold, (train, _) in enumerate(folds):
        assert (records.loc[records["fold"] == fold, "n_train"] == len(train)).all()
    again = _noise_job(data)
    pd.testing.assert_frame_equal(records.drop(columns="fit_seconds"),
                                  again.drop(columns="fit_seconds"))  # fmt: skip


@pytest.mark.parametrize("kind", sorted(CORRUPTIONS))
def test_every_algorithm_sees_identical_corruption(kind: str) -> None:
    recorder = Recorder()
    for algorithm in ("j48", "bagging", "decorate"):
        _noise_job(_data(), algorithm=algorithm, corruption=kind, learner_factory=recorder)
    by_algorithm: dict[str, list[tuple[str, str]]] = {}
    for algorithm, train, test in recorder.seen:
        by_algorithm.setdefault(algorithm, []).append((train, test))
    assert by_algorithm["j48"] == by_algorithm["bagging"] == by_algorithm["decorate"]
    per_fold = [by_algorithm["j48"][3 * f : 3 * f + 3] for f in range(3)]
    for levels in per_fold:
        (train0, test0), (train20, test20), _ = levels
        assert train20 != train0, "the training fold is corrupted"
        if kind == "class":
            assert test20 == test0, "class noise leaves the test fold alone"
        else:
            assert test20 != test0, f"{kind} corrupts the test fold too"


def test_zero_percent_is_the_same_experiment_for_every_corruption() -> None:
    data = _data()
    zero = [
        _noise_job(data, corruption=kind, levels=[0]).drop(columns="fit_seconds")
        for kind in sorted(CORRUPTIONS)
    ]
    for other in zero[1:]:
        pd.testing.assert_frame_equal(zero[0], other)


def test_noise_job_rejects_an_unknown_corruption() -> None:
    with pytest.raises(ValueError, match="unknown corruption"):
        _noise_job(_data(), corruption="label")
