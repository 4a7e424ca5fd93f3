"""Tests of the experiment protocol: seeds, folds, learning curves and the job's records.

The learners are stood in for by cheap scikit-learn dummies so that these tests check the
protocol alone (and run before, and independently of, the real learners).
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import load_iris
from sklearn.dummy import DummyClassifier

from redecorate.kinds.passive import run_job
from redecorate.protocol import (
    RECORD_COLUMNS,
    JobError,
    Protocol,
    curve_size,
    curve_sizes,
    derive_seed,
    learner_seed,
    run_folds,
    seed_sequence,
    stratified_folds,
    training_order,
)
from redecorate.util import atomic_path, write_parquet_atomic

THESIS_POINTS = [1, 2, 5, 10, 20, 30, 40, 50, 75, 100]


class _Data:
    """Minimal stand-in for :class:`redecorate.data.Dataset` (name, X, y)."""

    def __init__(self, name: str, X: pd.DataFrame, y: pd.Series) -> None:
        self.name, self.X, self.y = name, X, y


def iris_like(name: str = "iris") -> _Data:
    """Bundled iris with a nominal attribute added, as the data layer would type it."""
    bunch = load_iris(as_frame=True)
    X = bunch.data.copy()
    X["size"] = pd.Categorical(
        np.where(X["petal length (cm)"] > 4, "big", "small"), categories=["big", "small", "tiny"]
    )
    y = pd.Series(pd.Categorical.from_codes(bunch.target, list(bunch.target_names)), name="class")
    return _Data(name, X, y)


def dummy_factory(algorithm: str, params: Mapping[str, Any], random_state: int) -> Any:
    """A cheap learner whose predictions depend on its seed (so determinism is tested)."""
    return DummyClassifier(strategy="stratified", random_state=random_state)


class Recorder:
    """Factory recording the rows every learner was trained on, per (algorithm, call)."""

    def __init__(self) -> None:
        self.fits: list[tuple[str, tuple[int, ...]]] = []

    def __call__(self, algorithm: str, params: Mapping[str, Any], random_state: int) -> Any:
        recorder = self

        class _Recording(DummyClassifier):
            def fit(self, X, y, sample_weight=None):  # noqa: D102 - test double
                recorder.fits.append((algorithm, tuple(int(i) for i in X.index)))
                return super().fit(X, y, sample_weight)

        return _Recording(strategy="most_frequent")


# --------------------------------------------------------------------------- seeds


_SUBPROCESS = """
import json
from redecorate.protocol import seed_sequence, stratified_folds, derive_seed
state = seed_sequence(20050801, "folds", "iris", 3).generate_state(4).tolist()
folds = [te.tolist() for _, te in stratified_folds(list("aabbbcccccdd") * 3, 4, seed_sequence(7, "folds", "x", 0))]
print(json.dumps({"state": state, "folds": folds, "learner": derive_seed(1, "learner", "iris", 0, 1, "j48", "5")}))
"""


@pytest.mark.parametrize("hashseed", ["0", "12345"])
def test_seeds_are_stable_across_processes(hashseed: str) -> None:
    """Python salts hash(str) per process; our seeds must not depend on it."""
    env = {"PYTHONHASHSEED": hashseed, "PATH": "/usr/bin:/bin"}
    out = subprocess.run(
        [sys.executable, "-c", _SUBPROCESS], capture_output=True, text=True, check=True, env=env
    )
    theirs = json.loads(out.stdout)
    ours = {
        "state": seed_sequence(20050801, "folds", "iris", 3).generate_state(4).tolist(),
        "folds": [
            te.tolist()
            for _, te in stratified_folds(list("aabbbcccccdd") * 3, 4, seed_sequence(7, "folds", "x", 0))
        ],
        "learner": derive_seed(1, "learner", "iris", 0, 1, "j48", "5"),
    }
    assert theirs == ours


def test_seed_keys_are_distinguished() -> None:
    state = lambda *k: tuple(seed_sequence(1, *k).generate_state(2))  # noqa: E731
    assert state("iris", 1) != state("iris", 2)
    assert state("iris", 1) != state("iris", "1"), "an int key and its text must differ"
    assert state("a", "b") != state("b", "a"), "key order matters"
    assert tuple(seed_sequence(2, "iris", 1).generate_state(2)) != state("iris", 1)
    assert state("iris", 1) == state("iris", 1)


def test_seed_rejects_bad_input() -> None:
    with pytest.raises(ValueError):
        seed_sequence(-1, "x")
    with pytest.raises(TypeError):
        seed_sequence(1, 1.5)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        seed_sequence(1, True)


def test_learner_seed_depends_on_every_key() -> None:
    base = learner_seed(1, "iris", 0, 0, "j48", 5)
    assert base == learner_seed(1, "iris", 0, 0, "j48", 5.0), "5 and 5.0 are the same point"
    others = {
        learner_seed(2, "iris", 0, 0, "j48", 5),
        learner_seed(1, "glass", 0, 0, "j48", 5),
        learner_seed(1, "iris", 1, 0, "j48", 5),
        learner_seed(1, "iris", 0, 1, "j48", 5),
        learner_seed(1, "iris", 0, 0, "decorate", 5),
        learner_seed(1, "iris", 0, 0, "j48", 10),
    }
    assert base not in others and len(others) == 6
    assert 0 <= base < 2**32


# --------------------------------------------------------------------------- folds


def _check_partition(folds: list[tuple[np.ndarray, np.ndarray]], n: int) -> None:
    tests = np.concatenate([te for _, te in folds])
    assert sorted(tests.tolist()) == list(range(n)), "test folds must be disjoint and cover all rows"
    for train, test in folds:
        assert np.intersect1d(train, test).size == 0
        assert sorted(np.concatenate([train, test]).tolist()) == list(range(n))
        assert np.all(np.diff(test) > 0) and np.all(np.diff(train) > 0), "indices are sorted"
    sizes = [len(te) for _, te in folds]
    assert max(sizes) - min(sizes) <= 1


@pytest.mark.parametrize("n_folds", [2, 3, 10])
def test_folds_are_stratified_disjoint_and_covering(n_folds: int) -> None:
    rng = np.random.default_rng(0)
    y = rng.choice(["a", "b", "c", "d"], size=203, p=[0.5, 0.3, 0.15, 0.05])
    folds = stratified_folds(y, n_folds, seed_sequence(3, "folds", "synthetic", 0))
    assert len(folds) == n_folds
    _check_partition(folds, len(y))
    for cls in "abcd":
        per_fold = [int(np.sum(y[te] == cls)) for _, te in folds]
        assert max(per_fold) - min(per_fold) <= 1, f"class {cls} unevenly spread: {per_fold}"


def test_folds_with_classes_smaller_than_the_number_of_folds() -> None:
    """anneal/soybean/audio have classes with fewer members than folds: deal them, no crash."""
    y = ["big"] * 40 + ["rare"] * 3 + ["single"]
    folds = stratified_folds(y, 10, seed_sequence(1, "folds", "tiny", 0))
    _check_partition(folds, len(y))
    y_arr = np.array(y)
    rare_folds = [k for k, (_, te) in enumerate(folds) if "rare" in y_arr[te]]
    assert len(rare_folds) == 3, "each rare example in a different fold"
    assert sum("single" in y_arr[te] for _, te in folds) == 1


def test_folds_accept_categorical_and_missing_labels() -> None:
    y = pd.Series(pd.Categorical(["x", "y", None, "x", "y", "x", None, "y"]))
    folds = stratified_folds(y, 2, seed_sequence(1, "f"))
    _check_partition(folds, len(y))


def test_folds_are_deterministic_and_seed_dependent() -> None:
    y = list("ab" * 50)
    a = stratified_folds(y, 5, seed_sequence(1, "folds", "d", 0))
    b = stratified_folds(y, 5, seed_sequence(1, "folds", "d", 0))
    c = stratified_folds(y, 5, seed_sequence(1, "folds", "d", 1))
    assert all(np.array_equal(x[1], z[1]) for x, z in zip(a, b, strict=True))
    assert not all(np.array_equal(x[1], z[1]) for x, z in zip(a, c, strict=True))


def test_folds_reject_impossible_requests() -> None:
    with pytest.raises(ValueError, match="n_folds"):
        stratified_folds(["a", "b"], 1, 0)
    with pytest.raises(ValueError, match="empty"):
        stratified_folds(["a", "b", "a"], 5, 0)


# --------------------------------------------------------------------------- curves


def test_curve_sizes_round_half_up_and_never_zero() -> None:
    assert curve_sizes(135, THESIS_POINTS) == [1, 3, 7, 14, 27, 41, 54, 68, 101, 135]
    assert curve_size(50, 1) == 1  # 0.5 rounds up
    assert curve_size(150, 1) == 2  # 1.5 rounds up (not to even)
    assert curve_size(250, 1) == 3  # 2.5 rounds up (not to even)
    assert curve_size(30, 5) == 2
    assert curve_size(200, 2.5) == 5


@pytest.mark.parametrize("n_train", [1, 2, 5, 9, 13, 51])
def test_curve_sizes_on_tiny_folds(n_train: int) -> None:
    sizes = curve_sizes(n_train, THESIS_POINTS)
    assert all(1 <= s <= n_train for s in sizes)
    assert sizes == sorted(sizes) and sizes[-1] == n_train


def test_curve_rejects_bad_points() -> None:
    for bad in (0, -5, 101):
        with pytest.raises(ValueError):
            curve_size(10, bad)


def test_training_order_prefixes_are_nested_subsets() -> None:
    train = np.arange(100, 190, dtype=np.int64)
    order = training_order(train, seed_sequence(1, "order", "d", 0, 0))
    assert sorted(order.tolist()) == train.tolist()
    assert not np.array_equal(order, train), "the order is shuffled"
    sizes = curve_sizes(len(train), THESIS_POINTS)
    subsets = [set(order[:n].tolist()) for n in sizes]
    assert all(a <= b for a, b in zip(subsets, subsets[1:], strict=False))
    again = training_order(train, seed_sequence(1, "order", "d", 0, 0))
    assert np.array_equal(order, again)


# --------------------------------------------------------------------------- job


def _job(data: _Data, factory=dummy_factory, **overrides: Any) -> pd.DataFrame:
    kwargs: dict[str, Any] = dict(
        experiment="test_exp",
        algorithm="dummy",
        params={},
        run=0,
        n_folds=5,
        points=[1, 10, 50, 100],
        seed=42,
        progress=lambda line: None,
        learner_factory=factory,
    )
    kwargs.update(overrides)
    return run_job(data, **kwargs)


def test_run_job_record_schema() -> None:
    records = _job(iris_like())
    assert tuple(records.columns) == RECORD_COLUMNS
    from redecorate.stats import RECORD_COLUMNS as STATS_COLUMNS

    assert tuple(STATS_COLUMNS) == RECORD_COLUMNS, "the stats layer reads the same schema"
    assert len(records) == 5 * 4
    assert set(records["fold"]) == set(range(5))
    assert records["point"].tolist()[:4] == [1, 10, 50, 100]
    assert records["point"].dtype == np.int64
    assert (records["metric"] == "accuracy").all()
    assert records["value"].between(0, 100).all()
    assert (records["fit_seconds"] >= 0).all()
    assert (records["ensemble_size"] == 1).all(), "a single model counts as 1"
    assert (records[["experiment", "dataset", "algorithm"]].drop_duplicates().values.tolist()
            == [["test_exp", "iris", "dummy"]])
    # iris has 150 rows: 5 folds -> 120 training rows -> 1 % is 1 example, 10 % is 12.
    assert records.loc[records["fold"] == 0, "n_train"].tolist() == [1, 12, 60, 120]


def test_run_job_values_are_bit_identical_on_rerun(tmp_path) -> None:
    first = _job(iris_like())
    second = _job(iris_like())
    columns = [c for c in RECORD_COLUMNS if c != "fit_seconds"]
    pd.testing.assert_frame_equal(first[columns], second[columns], check_exact=True)
    write_parquet_atomic(first[columns], tmp_path / "a.parquet")
    write_parquet_atomic(second[columns], tmp_path / "b.parquet")
    assert (tmp_path / "a.parquet").read_bytes() == (tmp_path / "b.parquet").read_bytes()
    other_run = _job(iris_like(), run=1)
    assert not np.array_equal(other_run["value"], first["value"]), "runs differ"


def test_every_algorithm_sees_the_same_folds_and_subsets() -> None:
    recorder = Recorder()
    data = iris_like()
    for algorithm in ("j48", "decorate", "bagging"):
        _job(data, recorder, algorithm=algorithm)
    by_algorithm: dict[str, list[tuple[int, ...]]] = {}
    for algorithm, rows in recorder.fits:
        by_algorithm.setdefault(algorithm, []).append(rows)
    assert by_algorithm["j48"] == by_algorithm["decorate"] == by_algorithm["bagging"]
    fits = by_algorithm["j48"]
    # Per fold the 4 curve points train on nested prefixes, disjoint from that fold's test.
    folds = run_folds(data, 5, run=0, seed=42)
    for fold, (_, test) in enumerate(folds):
        subsets = [set(rows) for rows in fits[4 * fold : 4 * fold + 4]]
        assert all(a < b for a, b in zip(subsets, subsets[1:], strict=False))
        assert not subsets[-1] & set(test.tolist())
        assert len(subsets[-1]) == len(data.y) - len(test)


def test_run_job_reports_progress_once_per_fold() -> None:
    lines: list[str] = []
    _job(iris_like(), progress=lines.append, n_folds=3)
    assert len(lines) == 3
    assert "iris" in lines[-1] and "dummy" in lines[-1] and "fold 3/3" in lines[-1]


def test_run_job_reports_ensemble_size() -> None:
    class Sized(DummyClassifier):
        def fit(self, X, y, sample_weight=None):  # noqa: D102 - test double
            self.ensemble_size_ = min(len(y), 15)
            return super().fit(X, y, sample_weight)

    records = _job(iris_like(), lambda a, p, s: Sized(random_state=s))
    assert records["ensemble_size"].tolist()[:4] == [1, 12, 15, 15]


def test_ensemble_size_is_what_the_learner_reports() -> None:
    class Members(DummyClassifier):
        def fit(self, X, y, sample_weight=None):  # noqa: D102 - test double
            self.ensemble_size_ = 7
            return super().fit(X, y, sample_weight)

    records = _job(iris_like(), lambda a, p, s: Members(random_state=s))
    assert (records["ensemble_size"] == 7).all()
    single = _job(iris_like(), lambda a, p, s: DummyClassifier())
    assert (single["ensemble_size"] == 1).all()


def test_learner_errors_propagate_with_context() -> None:
    class Broken(DummyClassifier):
        def fit(self, X, y, sample_weight=None):  # noqa: D102 - test double
            if len(y) < 5:
                raise ValueError("too few examples")
            return super().fit(X, y, sample_weight)

    with pytest.raises(JobError) as info:
        _job(iris_like(), lambda a, p, s: Broken(), algorithm="broken", run=3)
    message = str(info.value)
    for part in ("'iris'", "'broken'", "run=3", "fold=0", "point=1%", "n_train=1", "too few"):
        assert part in message
    assert isinstance(info.value.__cause__, ValueError)


def test_predictions_outside_the_class_domain_are_an_error() -> None:
    class Codes(DummyClassifier):
        def predict(self, X):  # noqa: D102 - test double
            return np.zeros(len(X), dtype=int)

    with pytest.raises(JobError, match="outside the class domain"):
        _job(iris_like(), lambda a, p, s: Codes())


def test_protocol_profiles_override_only_numbers() -> None:
    experiment = {
        "name": "e",
        "seed": 5,
        "datasets": ["iris", "labor"],
        "runs": 10,
        "folds": 10,
        "points": THESIS_POINTS,
        "profiles": {"smoke": {"runs": 1, "folds": 3, "points": [10, 50, 100], "datasets": ["iris"]}},
    }
    thesis = Protocol.from_experiment(experiment)
    assert (thesis.runs, thesis.folds, thesis.points, thesis.seed) == (10, 10, tuple(THESIS_POINTS), 5)
    smoke = Protocol.from_experiment(experiment, "smoke")
    assert (smoke.runs, smoke.folds, smoke.points, smoke.datasets) == (1, 3, (10, 50, 100), ("iris",))
    with pytest.raises(KeyError, match="no profile 'huge'"):
        Protocol.from_experiment(experiment, "huge")


def test_atomic_path_leaves_nothing_on_failure(tmp_path) -> None:
    target = tmp_path / "sub" / "out.parquet"
    with pytest.raises(RuntimeError), atomic_path(target) as tmp:
        tmp.write_text("half")
        raise RuntimeError("killed")
    assert not target.exists()
    assert list(target.parent.iterdir()) == []
    with atomic_path(target) as tmp:
        tmp.write_text("whole")
    assert target.read_text() == "whole"
    assert [p.name for p in target.parent.iterdir()] == ["out.parquet"]


# --------------------------------------------------------------------------- experiment files

REPO = Path(__file__).resolve().parents[1]
EXPERIMENT_SCHEMA = REPO / "workflow" / "schemas" / "experiment.schema.yaml"
CH4 = REPO / "config" / "experiments" / "ch4_passive.yaml"
THESIS_DATASETS = ["anneal", "audio", "autos", "breast-w", "credit-a", "glass", "heart-c",
                   "hepatitis", "colic", "iris", "labor", "lymph", "segment", "soybean", "splice"]


def test_ch4_experiment_file_is_the_thesis_protocol() -> None:
    from redecorate.experiments import load_experiment

    spec = load_experiment(CH4, schema=EXPERIMENT_SCHEMA)
    assert spec.name == "ch4_passive" and spec.kind == "passive"
    assert list(spec.datasets) == THESIS_DATASETS
    assert (spec.protocol.runs, spec.protocol.folds) == (10, 10)
    assert list(spec.protocol.points) == THESIS_POINTS
    assert spec.algorithms == {
        "j48": {},
        "bagging": {"n_estimators": 15},
        "adaboost": {"n_estimators": 15},
        "decorate": {"n_estimators": 15, "max_iterations": 50, "artificial_size": 1.0},
        "rf": {"n_estimators": 15},
    }
    quick = load_experiment(CH4, schema=EXPERIMENT_SCHEMA, scale="quick")
    assert set(quick.datasets) == {"sk-iris", "sk-wine", "sk-breast-cancer"}
    assert quick.algorithms == spec.algorithms, "profiles never change the algorithms"
    assert quick.protocol.seed == spec.protocol.seed


def _write(tmp_path, text: str):
    path = tmp_path / "exp.yaml"
    path.write_text(text, encoding="utf-8")
    return path


_MINIMAL = """
name: tiny
seed: 1
datasets: [iris]
algorithms: {j48: {}}
runs: 1
folds: 2
points: [50, 100]
"""


@pytest.mark.parametrize(
    ("extra", "known_algorithms", "known_datasets", "expected"),
    [
        ("algorithms: {j48: {}, decorat: {}}", ["j48", "decorate"], None, "unknown algorithm 'decorat'"),
        ("datasets: [iris, irsi]", None, ["iris"], "unknown dataset 'irsi'"),
        ("profiles: {quick: {datasets: [nope]}}", None, ["iris"], "profiles.quick.datasets"),
        ("profiles: {quick: {algorithms: {}}}", None, None, "profiles.quick"),
        ("folds: 1", None, None, "folds"),
        ("points: [0, 50]", None, None, "points"),
        ("colour: blue", None, None, "colour"),
        ("report: {baseline: decorate}", None, None, "report.baseline"),
    ],
)
def test_experiment_errors_name_file_and_key(
    tmp_path, extra: str, known_algorithms, known_datasets, expected: str
) -> None:
    from redecorate.experiments import ExperimentConfigError, load_experiment

    lines = [line for line in _MINIMAL.strip().splitlines() if line.split(":")[0] != extra.split(":")[0]]
    path = _write(tmp_path, "\n".join([*lines, extra]) + "\n")
    with pytest.raises(ExperimentConfigError) as info:
        load_experiment(path, schema=EXPERIMENT_SCHEMA, known_algorithms=known_algorithms,
                        known_datasets=known_datasets)  # fmt: skip
    assert str(path) in str(info.value) and expected in str(info.value)


def test_experiment_unknown_scale_is_an_error(tmp_path) -> None:
    from redecorate.config import ConfigError
    from redecorate.experiments import load_experiment

    path = _write(tmp_path, _MINIMAL)
    with pytest.raises(ConfigError, match="no profile 'quick'"):
        load_experiment(path, schema=EXPERIMENT_SCHEMA, scale="quick")
