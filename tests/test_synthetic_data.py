"""Oza's Synthetic1-3 (§3.2 of the spec) and the offline skip of datasets only OpenML has."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from redecorate.config import ExperimentConfigError
from redecorate.data import load_dataset, load_registry
from redecorate.data.registry import unavailable_offline
from redecorate.data.sources.synthetic import CHAIN_P_ZERO, generate_oza
from redecorate.experiments import load_experiment, without_datasets
from redecorate.learners.decision_stump import DecisionStump
from redecorate.learners.naive_bayes import NaiveBayes

REPO = Path(__file__).resolve().parents[1]
REGISTRY = load_registry(REPO / "config" / "datasets.yaml")


def test_the_generator_is_a_function_of_its_seed() -> None:
    a = generate_oza((0.1, 0.8), n=1000, seed=1, name="s")
    b = generate_oza((0.1, 0.8), n=1000, seed=1, name="s")
    c = generate_oza((0.1, 0.8), n=1000, seed=2, name="s")
    assert a.sha256 == b.sha256 != c.sha256
    assert a.X.equals(b.X) and a.y.equals(b.y)
    assert list(a.X.columns) == [f"A{j}" for j in range(1, 21)]
    assert all(str(dtype) == "category" for dtype in a.X.dtypes)


@pytest.fixture(scope="module")
def synthetic2():
    return load_dataset("synthetic2", registry=REGISTRY)


def test_the_conditional_probabilities_are_table_3_2(synthetic2) -> None:
    """Every P(A_i = 0 | A_{i+1}, Y) and P(A20 = 0 | Y) within 4 binomial standard errors."""
    A = np.column_stack([synthetic2.X[c].cat.codes.to_numpy() for c in synthetic2.X.columns])
    y = synthetic2.y.cat.codes.to_numpy()
    assert abs(y.mean() - 0.5) < 4 * np.sqrt(0.25 / y.size)
    for cls, p in ((0, 0.1), (1, 0.8)):
        here = A[y == cls, 19]
        assert abs((here == 0).mean() - p) < 4 * np.sqrt(p * (1 - p) / here.size)
    for i in range(19):
        for nxt in (0, 1):
            for cls in (0, 1):
                here = A[(A[:, i + 1] == nxt) & (y == cls), i]
                p = CHAIN_P_ZERO[nxt, cls]
                assert abs((here == 0).mean() - p) < 4 * np.sqrt(p * (1 - p) / here.size), (i, nxt, cls)


@pytest.mark.parametrize("name, nb, stump, thesis_nb, thesis_stump", [
    ("synthetic1", 0.5065, 0.5065, 0.4998, 0.5002),
    ("synthetic2", 0.7818, 0.85, 0.7800, 0.8492),
    ("synthetic3", 0.9234, 0.9825, 0.9251, 0.9824),
])  # fmt: skip
def test_naive_bayes_and_the_stump_score_what_the_spec_computed(name, nb, stump, thesis_nb, thesis_stump) -> None:
    """80,000 / 20,000 as one fold of Oza's: naive Bayes and the best stump reach the spec's
    simulated accuracies (the stump's for Synthetic2/3 in closed form: 0.5 * 0.9 + 0.5 * 0.8
    and 0.5 * 0.99 + 0.5 * 0.975) within 3 standard errors of a 20,000-example test set (about
    1 point at 0.5), and the thesis's printed ones within that plus 0.65 points (the spec's
    own simulation is up to 0.67 points from them: one sample against Oza's 250 runs)."""
    data = load_dataset(name, registry=REGISTRY)
    train, test = slice(0, 80_000), slice(80_000, None)
    truth = data.y.iloc[test].to_numpy()
    for model, expected, printed in ((NaiveBayes(), nb, thesis_nb), (DecisionStump(), stump, thesis_stump)):
        acc = np.mean(model.fit(data.X.iloc[train], data.y.iloc[train]).predict(data.X.iloc[test]) == truth)
        tolerance = 3 * np.sqrt(expected * (1 - expected) / 20_000)
        assert abs(acc - expected) < tolerance, (name, type(model).__name__, acc, expected)
        assert abs(acc - printed) < tolerance + 0.0065, (name, type(model).__name__, acc, printed)


def test_only_openml_datasets_without_a_mirror_file_are_skipped_offline() -> None:
    names = ["promoters", "breast-w", "synthetic1", "covertype", "sk-iris"]
    skipped = unavailable_offline(REGISTRY, names, "../shared/datasets/uci")
    assert list(skipped) == ["promoters", "covertype"]
    assert "OpenML 1596, 581,012 instances" in skipped["covertype"]
    assert "run without data_mirror" in skipped["covertype"]


def test_an_experiment_left_without_datasets_is_an_error() -> None:
    spec = load_experiment(REPO / "config" / "experiments" / "oza_online_trees.yaml",
                           schema=REPO / "workflow" / "schemas" / "experiment.schema.yaml")
    kept = without_datasets(spec, ["promoters"])
    assert kept.datasets == spec.datasets[1:] and kept.name == spec.name
    with pytest.raises(ExperimentConfigError, match="none of its datasets"):
        without_datasets(spec, spec.datasets)
