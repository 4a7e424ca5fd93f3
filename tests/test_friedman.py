"""Friedman test and Nemenyi critical difference against the published values (Demšar 2006)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from redecorate.report.friedman import critical_difference, friedman_table


@pytest.mark.parametrize("k, q", [(2, 1.960), (3, 2.343), (4, 2.569), (5, 2.728), (10, 3.164)])
def test_critical_difference_uses_demsars_q_values(k: int, q: float) -> None:
    """Demšar (2006), Table 5(a): q_0.05 for the Nemenyi test."""
    n = 15
    assert critical_difference(k, n) == pytest.approx(q * math.sqrt(k * (k + 1) / (6 * n)), abs=2e-3)


def test_friedman_ranks_and_statistic() -> None:
    from scipy.stats import friedmanchisquare

    rng = np.random.default_rng(0)
    means = pd.DataFrame(rng.normal(size=(12, 4)) + np.array([0, 0.5, 1.0, 3.0]),
                         columns=["a", "b", "c", "d"])
    result = friedman_table(means)
    assert result["average_ranks"].index[0] == "d"  # clearly best: rank 1 on (almost) every dataset
    assert result["average_ranks"].mean() == pytest.approx(2.5)  # ranks 1..4 average to 2.5
    expected = friedmanchisquare(*(means[c] for c in means.columns))
    assert result["chi2"] == pytest.approx(expected.statistic)
    assert result["p_value"] < 0.01
    # Nemenyi's CD for k = 4 algorithms on N = 12 datasets (Demšar's q_0.05 = 2.569):
    # q sqrt(k (k + 1) / (6 N)), not the same with N and k swapped.
    assert (result["n_datasets"], result["k"]) == (12, 4)
    assert result["cd"] == pytest.approx(2.569 * math.sqrt(4 * 5 / (6 * 12)), abs=2e-3)
    equal = pd.DataFrame(np.tile([1.0, 1.0, 1.0], (6, 1)) + rng.normal(scale=1e-9, size=(6, 3)),
                         columns=["x", "y", "z"])
    assert friedman_table(equal)["p_value"] > 0.05
    with pytest.raises(ValueError, match="3 algorithms"):
        friedman_table(means[["a", "b"]])


def test_whole_curve_ranking_uses_each_systems_mean_over_its_own_points(tmp_path) -> None:
    """Active-learning curves have dataset-specific points (numbers of labeled examples), so
    per-point ranking finds no common point; the whole-curve mode ranks curve means."""
    from redecorate.report.friedman import WHOLE_CURVE, write_friedman

    rows = []
    for d, dataset in enumerate(["a", "b", "c", "d"]):
        for s, system in enumerate(["low", "mid", "high"]):
            for point in (d + 1, d + 5):  # no point is shared by all datasets
                rows.append({"dataset": dataset, "algorithm": system, "run": 0, "fold": 0, "point": point,
                             "metric": "accuracy", "value": 50.0 + 10 * s + point})
    records = pd.DataFrame(rows)
    (tmp_path / "t").mkdir()
    (tmp_path / "f").mkdir()
    assert write_friedman(records, tmp_path / "t", tmp_path / "f", algorithms=["low", "mid", "high"],
                          experiment="x") == []  # per point: never 2 datasets at one point
    written = write_friedman(records, tmp_path / "t", tmp_path / "f", algorithms=["low", "mid", "high"],
                             experiment="x", per_point=False)
    assert (tmp_path / "f" / "critical_difference.png") in written
    table = pd.read_csv(tmp_path / "t" / "friedman.csv")
    assert table["point"].tolist() == [WHOLE_CURVE] and table["datasets"].tolist() == [4]
    assert table[["rank_high", "rank_mid", "rank_low"]].iloc[0].tolist() == [1.0, 2.0, 3.0]
