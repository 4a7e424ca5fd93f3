"""Labelled algorithm variants in experiment files (``label: {learner: NAME, ...}``) and the
§4.6.1 unlabeled pool the passive job hands to pool-based DECORATE variants."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from redecorate.experiments import (
    ExperimentConfigError,
    check_learner_params,
    load_experiment,
    split_algorithms,
)

REPO = Path(__file__).resolve().parents[1]
SCHEMA = REPO / "workflow" / "schemas" / "experiment.schema.yaml"
KNOWN = ["j48", "decorate", "bagging", "adaboost", "rf", "naive_bayes", "mlp"]

_BASE = """
name: tiny
seed: 1
datasets: [iris]
runs: 1
folds: 2
points: [50, 100]
"""


def _write(tmp_path: Path, algorithms: str) -> Path:
    path = tmp_path / "exp.yaml"
    path.write_text(_BASE + "algorithms:\n" + algorithms, encoding="utf-8")
    return path


def test_split_algorithms_mixes_both_forms() -> None:
    learners, params = split_algorithms(
        {"j48": {}, "decorate": None, "decorate_norej": {"learner": "decorate", "rejection": False}}
    )
    assert learners == {"j48": "j48", "decorate": "decorate", "decorate_norej": "decorate"}
    assert params == {"j48": {}, "decorate": {}, "decorate_norej": {"rejection": False}}


def test_labelled_variants_coexist(tmp_path: Path) -> None:
    path = _write(
        tmp_path,
        "  decorate: {n_estimators: 15}\n"
        "  decorate_uniform: {learner: decorate, artificial: uniform}\n"
        "  decorate_norej: {learner: decorate, rejection: false}\n",
    )
    spec = load_experiment(path, schema=SCHEMA, known_algorithms=KNOWN)
    assert list(spec.algorithms) == ["decorate", "decorate_uniform", "decorate_norej"]
    assert spec.algorithms["decorate_norej"] == {"rejection": False}
    assert spec.learner_of("decorate_uniform") == "decorate"
    assert spec.learner_of("decorate") == "decorate"
    check_learner_params(spec)  # every variant builds


def test_unknown_learner_names_file_and_key(tmp_path: Path) -> None:
    path = _write(tmp_path, "  decorate_x: {learner: decorat}\n")
    with pytest.raises(ExperimentConfigError) as info:
        load_experiment(path, schema=SCHEMA, known_algorithms=KNOWN)
    text = str(info.value)
    assert str(path) in text and "algorithms.decorate_x.learner" in text
    assert "unknown algorithm 'decorat'" in text


def test_learner_key_must_be_a_name(tmp_path: Path) -> None:
    path = _write(tmp_path, "  decorate_x: {learner: [decorate]}\n")
    with pytest.raises(ExperimentConfigError) as info:
        load_experiment(path, schema=SCHEMA, known_algorithms=KNOWN)
    assert str(path) in str(info.value) and "algorithms.decorate_x.learner" in str(info.value)


def test_bad_parameter_names_file_and_key(tmp_path: Path) -> None:
    path = _write(tmp_path, "  decorate_norej: {learner: decorate, rejecton: false}\n")
    spec = load_experiment(path, schema=SCHEMA, known_algorithms=KNOWN)
    with pytest.raises(ExperimentConfigError) as info:
        check_learner_params(spec)
    text = str(info.value)
    assert str(path) in text and "algorithms.decorate_norej" in text
    assert "'rejecton'" in text and "'rejection'" in text  # the suggestion


def test_bad_base_of_a_variant_names_the_key(tmp_path: Path) -> None:
    path = _write(tmp_path, "  bagging_nb: {learner: bagging, base: naive_bayes_x}\n")
    spec = load_experiment(path, schema=SCHEMA, known_algorithms=KNOWN)
    with pytest.raises(ExperimentConfigError, match="algorithms.bagging_nb"):
        check_learner_params(spec)


def test_experiment_files_of_chapter4_load_and_build() -> None:
    from redecorate.data import load_registry

    registry = load_registry(REPO / "config" / "datasets.yaml")
    names = registry.names() if callable(getattr(registry, "names", None)) else list(registry)
    for name in ("ch4_no_rejection", "ch4_artificial", "ch4_uniform", "ch4_large",
                 "ch4_base_learners", "ch4_naive_bayes", "ch4_diversity"):
        path = REPO / "config" / "experiments" / f"{name}.yaml"
        for scale in ("thesis", "quick", "smoke"):
            spec = load_experiment(path, schema=SCHEMA, scale=scale,
                                   known_algorithms=KNOWN, known_datasets=names)
            check_learner_params(spec)
            assert spec.name == name


def test_pool_variant_at_point_100_is_an_error(tmp_path: Path) -> None:
    path = _write(tmp_path, "  decorate_unlabeled: {learner: decorate, artificial: unlabeled}\n")
    with pytest.raises(ExperimentConfigError) as info:
        load_experiment(path, schema=SCHEMA, known_algorithms=KNOWN)
    assert str(path) in str(info.value) and "algorithms.decorate_unlabeled" in str(info.value)


def test_ch4_large_is_table_4_6() -> None:
    spec = load_experiment(REPO / "config" / "experiments" / "ch4_large.yaml", schema=SCHEMA)
    assert len(spec.datasets) == 33
    assert list(spec.protocol.points) == [100] and spec.protocol.folds == 10


class _PoolRecorder:
    """Stand-in learner recording the training rows and the pool it was given."""

    calls: list[tuple[int, int | None]] = []

    def __init__(self, params) -> None:
        self.params = params

    def fit(self, X, y, pool=None):
        type(self).calls.append((len(X), None if pool is None else len(pool)))
        if pool is not None:
            assert not set(pool.index) & set(X.index), "U never holds a labelled example"
        self.label_ = y.iloc[0]
        return self

    def predict(self, X):
        return np.full(len(X), self.label_, dtype=object)


def test_pool_variants_get_the_rest_of_the_training_fold() -> None:
    from redecorate.kinds.passive import run_job
    from redecorate.learners.registry import learner_class

    takes_pool = learner_class("decorate").takes_pool
    assert takes_pool({"artificial": "unlabeled"}) and takes_pool({"artificial": "sampled"})
    assert not takes_pool({"artificial": "uniform"}) and not takes_pool({})
    assert not learner_class("bagging").takes_pool({"artificial": "unlabeled"})
    rng = np.random.default_rng(0)
    X = pd.DataFrame({"a": rng.normal(size=40)})
    y = pd.Series(pd.Categorical(["p", "q"] * 20))

    class DS:
        name = "toy"

    ds = DS()
    ds.X, ds.y = X, y
    seen: list[str] = []

    def factory(name, params, random_state):
        seen.append(name)
        return _PoolRecorder(params)

    _PoolRecorder.calls = []
    run_job(ds, experiment="e", algorithm="decorate_unlabeled", learner="decorate",
            params={"artificial": "unlabeled"}, run=0, n_folds=2, points=[25, 50], seed=3,
            progress=lambda _: None, learner_factory=factory)
    assert set(seen) == {"decorate"}
    for n_train, n_pool in _PoolRecorder.calls:
        assert n_pool is not None and n_train + n_pool == 20  # the whole training fold
    _PoolRecorder.calls = []
    records = run_job(ds, experiment="e", algorithm="j48", params={}, run=0, n_folds=2,
                      points=[50], seed=3, progress=lambda _: None, learner_factory=factory)
    assert all(pool is None for _, pool in _PoolRecorder.calls)
    assert set(records["algorithm"]) == {"j48"}


# --------------------------------------------------------------- §4.4 diversity record metric
def test_fitted_ensemble_diversity_is_eq_3_2_on_the_members() -> None:
    from redecorate.learners import J48, Bagging, member_proba
    from redecorate.learners.diversity import fitted_ensemble_diversity

    rng = np.random.default_rng(0)
    X = pd.DataFrame({"a": rng.normal(size=60), "b": rng.normal(size=60)})
    y = pd.Series(pd.Categorical(np.where(X["a"] + 0.3 * rng.normal(size=60) > 0, "p", "q")))
    model = Bagging(J48(), n_estimators=7, random_state=1).fit(X, y)
    Xe = model.feature_schema_.encode(X)
    members = np.stack([np.argmax(member_proba(m, Xe), axis=1) for m in model.estimators_])
    ensemble = pd.Index(model.classes_).get_indexer(model.predict(X))
    expected = float(np.mean(members != ensemble[None, :]))
    assert fitted_ensemble_diversity(model, X) == pytest.approx(expected)
    assert 0.0 < expected < 0.5
    assert fitted_ensemble_diversity(J48().fit(X, y), X) == 0.0


def test_run_job_records_diversity_when_asked() -> None:
    from redecorate.kinds.passive import run_job

    rng = np.random.default_rng(0)

    class DS:
        name = "toy"
        X = pd.DataFrame({"a": rng.normal(size=40), "b": rng.normal(size=40)})
        y = pd.Series(pd.Categorical(np.where(X["a"] > 0, "p", "q")))

    common = dict(experiment="e", algorithm="decorate_small", learner="decorate",
                  params={"n_estimators": 3, "max_iterations": 6}, run=0, n_folds=2,
                  points=[50, 100], seed=1, progress=lambda _: None)
    records = run_job(DS(), metrics=["accuracy", "diversity"], **common)
    assert list(records["metric"]) == ["accuracy", "diversity"] * 4
    div = records[records["metric"] == "diversity"]["value"]
    assert ((div >= 0) & (div <= 1)).all()
    plain = run_job(DS(), **common)
    assert set(plain["metric"]) == {"accuracy"}
    pd.testing.assert_series_equal(
        plain["value"].reset_index(drop=True),
        records[records["metric"] == "accuracy"]["value"].reset_index(drop=True),
    )
    with pytest.raises(ValueError, match="metrics"):
        run_job(DS(), metrics=["diversity"], **common)


@pytest.mark.parametrize("metrics", ["[diversity]", "[accuracy, error]"])
def test_metrics_key_is_validated(tmp_path: Path, metrics: str) -> None:
    path = _write(tmp_path, "  j48: {}\nmetrics: " + metrics + "\n")
    with pytest.raises(ExperimentConfigError) as info:
        load_experiment(path, schema=SCHEMA, known_algorithms=KNOWN)
    assert str(path) in str(info.value) and "metrics" in str(info.value)


def test_metrics_key_reaches_the_spec(tmp_path: Path) -> None:
    path = _write(tmp_path, "  j48: {}\nmetrics: [accuracy, diversity]\n")
    assert load_experiment(path, schema=SCHEMA).settings.metrics == ("accuracy", "diversity")
    assert load_experiment(_write(tmp_path, "  j48: {}\n"), schema=SCHEMA).settings.metrics == ("accuracy",)
