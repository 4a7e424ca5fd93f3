"""Pricing what depends on more than a dataset's size: Oza's online boosting by the values its
members rebuild from, an ensemble's own work under another base learner, and cluster time
limits priced from the prepared data (redecorate.learners.cost, redecorate.kinds.jobs)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from redecorate.data import load_dataset, save_prepared
from redecorate.kinds import get_kind
from redecorate.kinds.jobs import Chunk, dataset_shape, priced_runtime_minutes, runtime_minutes
from redecorate.learners.cost import (
    MEMBER_SECONDS,
    estimated_fit_seconds,
    estimated_members,
    priced_before_levers,
    values_seen,
)
from redecorate.learners.registry import learner_class
from redecorate.run_config import load_run, parse_config_values

MIRROR = Path(__file__).resolve().parents[2] / "shared" / "datasets" / "uci"
REPO = Path(__file__).resolve().parents[1]


def _mean_distinct_seen(column: np.ndarray, orders: int, rng: np.random.Generator) -> float:
    """Distinct values among the first t of a random order, averaged over t = 0..n and orders."""
    n = column.size
    total = 0.0
    for _ in range(orders):
        shuffled = column[rng.permutation(n)]
        _, first = np.unique(shuffled, return_index=True)
        seen_by = np.zeros(n + 1)
        np.add.at(seen_by, first + 1, 1.0)
        total += np.cumsum(seen_by).mean()
    return total / orders


def test_values_seen_is_the_mean_number_of_distinct_values_along_a_random_stream() -> None:
    rng = np.random.default_rng(3)
    column = np.concatenate([np.arange(40.0), np.repeat([100.0, 101.0], [30, 5]), rng.normal(size=25)])
    X = pd.DataFrame({"x": column, "colour": pd.Categorical(rng.choice(["r", "g"], column.size))})
    simulated = _mean_distinct_seen(column, 4000, rng)
    assert values_seen(X) == pytest.approx(simulated, rel=0.01)
    assert values_seen(X[["colour"]]) == 0.0  # nominal values are priced by the attributes term
    # A training fold's share of the rows: each value's count scaled by it.
    counts = pd.Series(column).value_counts().to_numpy() * 0.8
    assert values_seen(X, 0.8) == pytest.approx(float((counts / (counts + 1)).sum()))


def test_boosting_is_priced_by_the_values_its_members_rebuild_from_and_bagging_is_not() -> None:
    params = {"base": "decision_stump", "n_estimators": 100}
    blind = estimated_fit_seconds("online_boosting", params, 1000, 20, classes=3)
    one = estimated_fit_seconds("online_boosting", params, 1000, 20, classes=3, values=1000)
    two = estimated_fit_seconds("online_boosting", params, 1000, 20, classes=3, values=2000)
    assert one > blind
    assert two - blind == pytest.approx(2 * (one - blind))  # linear in the values held
    more_classes = estimated_fit_seconds("online_boosting", params, 1000, 20, classes=6, values=1000)
    assert more_classes - blind == pytest.approx(2 * (one - blind))  # and in the classes
    # Naive Bayes members rebuild more cheaply than stumps; bagging never rebuilds.
    nb = {"base": "naive_bayes", "n_estimators": 100}
    assert (estimated_fit_seconds("online_boosting", nb, 1000, 20, classes=3, values=1000)
            - estimated_fit_seconds("online_boosting", nb, 1000, 20, classes=3)) < one - blind
    bagging = {"base": "decision_stump", "n_estimators": 100}
    assert (estimated_fit_seconds("online_bagging", bagging, 1000, 20, classes=3, values=1000)
            == estimated_fit_seconds("online_bagging", bagging, 1000, 20, classes=3))


def _boosting_job(tmp_path: Path, dataset: str) -> tuple:
    """The kind, settings, declared shape and one chunk of all of oza_online_boosting's
    thesis online-boosting units on ``dataset``, and its prepared file under ``tmp_path``."""
    run = load_run(parse_config_values(["experiments=[oza_online_boosting]", f"data_mirror={MIRROR}",
                                        f"data_dir={tmp_path / 'data'}"]), REPO)
    spec = run.experiments["oza_online_boosting"]
    kind = get_kind(spec.kind)
    settings = kind.job_settings(spec)
    shape = dataset_shape(run.registry[dataset], dataset)
    units = [u for u in kind.units(spec) if u["algorithm"].startswith(("online_boosting", "primed"))]
    chunk = Chunk(tuple(units), sum(kind.unit_cost(settings, u, shape) for u in units))
    prepared = tmp_path / f"{dataset}.parquet"
    save_prepared(load_dataset(dataset, registry=run.registry, data_dir=tmp_path / "data", mirror=MIRROR), prepared)
    return kind, settings, chunk, shape, prepared


def test_a_jobs_time_limit_is_priced_from_the_prepared_data(tmp_path: Path) -> None:
    kind, settings, chunk, shape, prepared = _boosting_job(tmp_path, "credit-g")
    with pytest.raises(FileNotFoundError) as missing:  # Snakemake defers the limit on this
        priced_runtime_minutes(kind, settings, chunk, shape, tmp_path / "absent.parquet")
    assert missing.value.filename == str(tmp_path / "absent.parquet")
    limit = priced_runtime_minutes(kind, settings, chunk, shape, prepared)
    data = dataclasses.replace(shape, data=lambda: load_dataset("credit-g", mirror=MIRROR,
                                                                 data_dir=tmp_path / "data"))
    with_data = sum(kind.unit_cost(settings, unit, data) for unit in chunk.units)
    assert with_data > 1.5 * chunk.estimated_seconds  # credit-g's numeric values cost more
    assert limit == runtime_minutes(Chunk(chunk.units, with_data)) > runtime_minutes(chunk)


def test_a_time_limit_never_falls_below_the_packed_estimate(tmp_path: Path) -> None:
    kind, settings, chunk, shape, prepared = _boosting_job(tmp_path, "car")  # no numeric values
    inflated = Chunk(chunk.units, 100 * chunk.estimated_seconds + 600)
    assert priced_runtime_minutes(kind, settings, inflated, shape, prepared) == runtime_minutes(inflated)


def test_another_base_learner_scales_the_members_fits_but_not_the_ensembles_own_work() -> None:
    """Bagging's price scales wholly with its base learner; DECORATE keeps its own share (its
    artificial examples and committee predictions), priced before the engine factor so that
    only the shares differ."""
    nb, j48 = learner_class("naive_bayes").fit_cost, learner_class("j48").fit_cost
    ratio = nb.per_example / j48.per_example
    for name, params in [("bagging", {"n_estimators": 15}),
                         ("decorate", {"n_estimators": 15, "max_iterations": 50})]:
        own = learner_class(name).fit_cost.own_share
        fixed = MEMBER_SECONDS * estimated_members(name, params)
        with priced_before_levers():
            with_j48 = estimated_fit_seconds(name, {**params, "base": "j48"}, 800, 20) - fixed
            with_nb = estimated_fit_seconds(name, {**params, "base": "naive_bayes"}, 800, 20) - fixed
        assert with_nb == pytest.approx(with_j48 * (own + (1 - own) * ratio))
    assert learner_class("bagging").fit_cost.own_share == 0.0
    assert learner_class("decorate").fit_cost.own_share > 0.0
