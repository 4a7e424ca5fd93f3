"""Oza's Synthetic1-3 (spec oza_online.md §3.2): the generator against Table 3.2 and the thesis.

Three levels of evidence that the data are Oza's: the generated conditional probabilities are
Table 3.2's; naive Bayes and the best stump score what the spec's simulation (and, for the
stump, the closed form) says, and what the thesis printed; and no accuracy the thesis printed
beats the Bayes rate of our generator, while its best learners come within a point of it.
"""

from __future__ import annotations

import csv
import math
from functools import cache
from pathlib import Path

import numpy as np
import pytest

from redecorate.config import ConfigError
from redecorate.data import Dataset, load_dataset, load_registry
from redecorate.data.sources.synthetic import CHAIN_P_ZERO, generate_oza
from redecorate.learners.decision_stump import DecisionStump
from redecorate.learners.naive_bayes import NaiveBayes

REPO = Path(__file__).resolve().parents[1]
REGISTRY = load_registry(REPO / "config" / "datasets.yaml")
SCHEMA = REPO / "workflow" / "schemas" / "datasets.schema.yaml"
PUBLISHED = REPO / "config" / "published" / "oza_tables_3.3-3.11.tsv"
NAMES = ("synthetic1", "synthetic2", "synthetic3")
N_TRAIN, N_TEST = 80_000, 20_000  # one fold of Oza's 5-fold CV on 100,000 examples


@cache
def synthetic(name: str) -> Dataset:
    """Each dataset once per session: generating is fast, but three tests use each."""
    return load_dataset(name, registry=REGISTRY)


def codes(data: Dataset) -> tuple[np.ndarray, np.ndarray]:
    """Attributes A1..A20 and the class as 0/1 integer arrays."""
    A = np.column_stack([data.X[c].cat.codes.to_numpy() for c in data.X.columns])
    return A, data.y.cat.codes.to_numpy()


def binomial_se(p: float, n: int) -> float:
    return math.sqrt(p * (1 - p) / n)


def test_the_generator_is_a_function_of_its_seed() -> None:
    a = generate_oza((0.1, 0.8), n=1000, seed=1, name="s")
    b = generate_oza((0.1, 0.8), n=1000, seed=1, name="s")
    c = generate_oza((0.1, 0.8), n=1000, seed=2, name="s")
    assert a.sha256 == b.sha256 != c.sha256
    assert a.X.equals(b.X) and a.y.equals(b.y)
    assert list(a.X.columns) == [f"A{j}" for j in range(1, 21)]
    for column in a.X.columns:
        assert list(a.X[column].cat.categories) == ["0", "1"]
    assert list(a.y.cat.categories) == ["0", "1"]


@pytest.mark.parametrize("name", NAMES)
def test_the_registry_entries_record_the_generator_and_its_seed(name: str) -> None:
    entry = REGISTRY[name]
    assert (entry.source, entry.generator, entry.instances, entry.attributes) == ("synthetic", "oza", 100_000, 20)
    data = synthetic(name)
    assert f"seed {entry.seed}" in data.source and data.sha256 is not None
    assert data.sha256 == generate_oza(entry.p_a20_zero, n=100_000, seed=entry.seed, name=name).sha256


def test_a_synthetic_entry_without_a_seed_is_rejected(tmp_path: Path) -> None:
    path = tmp_path / "datasets.yaml"
    path.write_text("datasets:\n  syn:\n    source: synthetic\n    generator: oza\n"
                    "    p_a20_zero: [0.1, 0.8]\n    instances: 10\n    classes: 2\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="'seed' is a required property"):
        load_registry(path, schema_path=SCHEMA)


@pytest.mark.parametrize("name", NAMES)
def test_the_conditional_probabilities_are_table_3_2(name: str) -> None:
    """P(Y = 0), P(A20 = 0 | Y) and all 19 x 4 P(A_i = 0 | A_{i+1}, Y) within 4 binomial
    standard errors of their cells (a wrong orientation of Table 3.2 is off by hundreds)."""
    A, y = codes(synthetic(name))
    assert abs((y == 0).mean() - 0.5) < 4 * binomial_se(0.5, y.size)
    for cls, p in enumerate(REGISTRY[name].p_a20_zero):
        here = A[y == cls, 19]
        assert abs((here == 0).mean() - p) < 4 * binomial_se(p, here.size), (cls, p)
    for i in range(19):
        for nxt in (0, 1):
            for cls in (0, 1):
                here = A[(A[:, i + 1] == nxt) & (y == cls), i]
                p = CHAIN_P_ZERO[nxt, cls]
                assert abs((here == 0).mean() - p) < 4 * binomial_se(p, here.size), (i + 1, nxt, cls)


@pytest.mark.parametrize("name, nb, stump, thesis_nb, thesis_stump", [
    ("synthetic1", 0.5065, 0.505, 0.4998, 0.5002),
    ("synthetic2", 0.7818, 0.85, 0.7800, 0.8492),
    ("synthetic3", 0.9234, 0.9825, 0.9251, 0.9824),
])  # fmt: skip
def test_naive_bayes_and_the_stump_score_what_the_spec_computed(name, nb, stump, thesis_nb, thesis_stump) -> None:
    """80,000 / 20,000 as one fold of Oza's. Naive Bayes reaches the spec's simulated accuracy
    and the stump its closed form (the stump on A20: 0.5 * 0.505 + 0.5 * 0.505,
    0.5 * 0.9 + 0.5 * 0.8, 0.5 * 0.99 + 0.5 * 0.975), within 3 standard errors of a
    20,000-example test set (about 1 point at 0.5); and the thesis's printed values (Tables
    3.4, 3.5) within that plus 0.65 points, the spec's own simulation being up to 0.67 points
    from them (one sample against Oza's 250 runs; Synthetic1's P(A20 | Y) is a reading, A1)."""
    data = synthetic(name)
    train, test = slice(0, N_TRAIN), slice(N_TRAIN, None)
    truth = data.y.iloc[test].to_numpy()
    for model, expected, printed in ((NaiveBayes(), nb, thesis_nb), (DecisionStump(), stump, thesis_stump)):
        acc = np.mean(model.fit(data.X.iloc[train], data.y.iloc[train]).predict(data.X.iloc[test]) == truth)
        tolerance = 3 * binomial_se(expected, N_TEST)
        assert abs(acc - expected) < tolerance, (name, type(model).__name__, acc, expected)
        assert abs(acc - printed) < tolerance + 0.0065, (name, type(model).__name__, acc, printed)


def bayes_rate(p_a20_zero: tuple[float, float]) -> float:
    """The best accuracy any classifier can reach on the generator's distribution.

    Every transition A_{i+1} -> A_i switches value with probability 0.2 given Y = 0 and 0.1
    given Y = 1 whatever A_{i+1} is (Table 3.2), so the number of switches among the 19 is
    Binomial(19, 0.2 or 0.1), independent of A20 given Y: (switches, A20) is sufficient.
    """
    rate = 0.0
    for switches in range(20):
        for a20 in (0, 1):
            joint = [0.5 * math.comb(19, switches) * q**switches * (1 - q) ** (19 - switches)
                     * (p if a20 == 0 else 1 - p) for q, p in zip((0.2, 0.1), p_a20_zero, strict=True)]
            rate += max(joint)
    return rate


def bayes_predictions(A: np.ndarray, p_a20_zero: tuple[float, float]) -> np.ndarray:
    """The Bayes-optimal class of every row, from the true parameters."""
    switches = (A[:, :-1] != A[:, 1:]).sum(axis=1)
    p0, p1 = p_a20_zero
    log_ratio = (switches * math.log(0.2 / 0.1) + (19 - switches) * math.log(0.8 / 0.9)
                 + np.where(A[:, -1] == 0, math.log(p0 / p1), math.log((1 - p0) / (1 - p1))))
    return (log_ratio < 0).astype(np.int64)  # log P(x | Y=0) / P(x | Y=1) < 0: class 1


def printed_accuracies(name: str) -> list[float]:
    """Every mean fraction correct the thesis printed for ``name`` (Tables 3.3-3.7)."""
    with PUBLISHED.open(encoding="utf-8") as handle:
        rows = csv.DictReader(handle, delimiter="\t")
        return [float(r["value"]) for r in rows if r["dataset"] == name
                and r["metric"] == "fraction_correct" and r["statistic"] == "mean"]


@pytest.mark.parametrize("name", NAMES)
def test_the_thesis_never_beats_the_bayes_rate_of_our_data_and_comes_close(name: str) -> None:
    """Our data carry exactly as much class information as Oza's did.

    The Bayes classifier on our 100,000 examples scores the exact rate (0.7343, 0.8617,
    0.9825) within 3 standard errors; no printed accuracy exceeds it (the thesis's means over
    250 runs have an error far below 0.3 points), so our data are not too hard; and the
    thesis's best learners (bagged networks, the stump on Synthetic3) come within a point of
    it, so they are not too easy. This also supports the spec's reading of Synthetic1 (A1):
    its networks reach 0.73 through the chain, not through A20.
    """
    p = REGISTRY[name].p_a20_zero
    exact = bayes_rate(p)
    A, y = codes(synthetic(name))
    measured = np.mean(bayes_predictions(A, p) == y)
    assert abs(measured - exact) < 3 * binomial_se(exact, y.size), (measured, exact)
    printed = printed_accuracies(name)
    assert len(printed) >= 14, printed  # Tables 3.4-3.7: 3 + 3 + 4 + 4 cells
    assert max(printed) < exact + 0.003, (max(printed), exact)
    assert max(printed) > exact - 0.01, (max(printed), exact)
