"""Statistics of the thesis's comparisons: hand-worked examples, scipy, and the tie rule."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats as scipy_stats

from redecorate.stats import (
    RECORD_COLUMNS,
    WinDrawLoss,
    compare_algorithms,
    corrected_resampled_t_test,
    error_from_accuracy,
    geometric_mean_error_ratio,
    infer_n_test,
    paired_t_test,
    significant_win_draw_loss,
    strict_win_draw_loss,
    summarise,
    summarise_comparison,
    win_draw_loss,
)

# A hand-worked pair: d = a - b = [1, 0, 2, 3], mean 1.5, var (ddof 1) = 5/3, J = 4.
A = [1.0, 2.0, 3.0, 4.0]
B = [0.0, 2.0, 1.0, 1.0]


def records_for(
    values: dict[tuple[str, str, float], np.ndarray],
    *,
    runs: int = 2,
    folds: int = 5,
    full_train: int = 120,
) -> pd.DataFrame:
    """Long-form records; ``values[(dataset, algorithm, point)]`` has runs × folds values."""
    rows = []
    for (dataset, algorithm, point), vals in values.items():
        grid = np.asarray(vals, dtype=float).reshape(runs, folds)
        for run in range(runs):
            for fold in range(folds):
                rows.append(
                    {
                        "experiment": "test",
                        "dataset": dataset,
                        "algorithm": algorithm,
                        "run": run,
                        "fold": fold,
                        "point": point,
                        "n_train": max(1, round(point * full_train / 100)),
                        "metric": "accuracy",
                        "value": grid[run, fold],
                        "fit_seconds": 0.01,
                        "ensemble_size": 15,
                    }
                )
    return pd.DataFrame(rows, columns=list(RECORD_COLUMNS))


# --- paired t-test -------------------------------------------------------------------


def test_paired_t_test_hand_worked() -> None:
    # t = mean / sqrt(var / J) = 1.5 / sqrt((5/3) / 4) = 1.5 * sqrt(12 / 5), 3 dof.
    t, p = paired_t_test(A, B)
    assert t == pytest.approx(1.5 * math.sqrt(12 / 5))
    assert p == pytest.approx(2 * scipy_stats.t.sf(1.5 * math.sqrt(12 / 5), 3))
    assert p == pytest.approx(0.10272807885839899)


def test_paired_t_test_matches_scipy_ttest_rel() -> None:
    rng = np.random.default_rng(7)
    for n in (2, 10, 100):
        a = rng.normal(80, 4, n)
        b = a - rng.normal(0.7, 2, n)
        expected = scipy_stats.ttest_rel(a, b)
        t, p = paired_t_test(a, b)
        assert t == pytest.approx(expected.statistic, rel=1e-12)
        assert p == pytest.approx(expected.pvalue, rel=1e-10)
        # two-sided: swapping the samples flips t, keeps p
        assert paired_t_test(b, a) == pytest.approx((-t, p))


def test_paired_t_test_degenerate_cases() -> None:
    # identical results on every split: a draw (p = 1), not NaN as scipy would give
    assert paired_t_test([50.0, 60.0, 70.0], [50.0, 60.0, 70.0]) == (0.0, 1.0)
    # a constant non-zero difference is certain (Weka: p = 0)
    t, p = paired_t_test([51.0, 61.0, 71.0], [50.0, 60.0, 70.0])
    assert t == math.inf and p == 0.0
    t, p = paired_t_test([50.0, 60.0], [51.0, 61.0])
    assert t == -math.inf and p == 0.0
    # one non-zero pair: no degrees of freedom, no evidence
    t, p = paired_t_test([1.0], [2.0])
    assert math.isnan(t) and p == 1.0
    with pytest.raises(ValueError, match="length"):
        paired_t_test([1.0, 2.0], [1.0])
    with pytest.raises(ValueError, match="NaN"):
        paired_t_test([1.0, float("nan")], [1.0, 2.0])


# --- Nadeau–Bengio corrected resampled t-test ----------------------------------------


def test_corrected_resampled_t_test_hand_worked() -> None:
    # variance factor 1/J + n_test/n_train = 1/4 + 1/9 = 13/36; times var 5/3 = 65/108;
    # t = 1.5 / sqrt(65/108) = 1.5 * sqrt(108/65) ≈ 1.93351, 3 dof.
    t, p = corrected_resampled_t_test(A, B, n_train=9, n_test=1)
    assert t == pytest.approx(1.5 * math.sqrt(108 / 65))
    assert t == pytest.approx(1.9335101599064686)
    assert p == pytest.approx(0.1486538212258099)


def test_corrected_test_is_more_conservative_and_reduces_to_plain() -> None:
    rng = np.random.default_rng(3)
    a = rng.normal(80, 3, 100)
    b = a - rng.normal(1.0, 2, 100)
    _, p_plain = paired_t_test(a, b)
    _, p_corr = corrected_resampled_t_test(a, b, n_train=900, n_test=100)
    assert p_corr > p_plain
    # with n_test/n_train -> 0 the correction vanishes
    assert corrected_resampled_t_test(a, b, 1e12, 1e-12) == pytest.approx(paired_t_test(a, b))
    assert corrected_resampled_t_test([1.0, 2.0], [1.0, 2.0], 9, 1) == (0.0, 1.0)
    with pytest.raises(ValueError):
        corrected_resampled_t_test(a, b, 0, 10)


# --- W/D/L ---------------------------------------------------------------------------


def test_win_draw_loss_tie_rule() -> None:
    acc_a = [75.0, 16.66, 33.33, 80.0, 50.0]
    acc_b = [72.0, 16.66, 33.33, 81.0, 49.0]
    # the thesis: ties are wins for A, D = 0
    assert win_draw_loss(acc_a, acc_b) == WinDrawLoss(4, 0, 1)
    assert str(win_draw_loss(acc_a, acc_b)) == "4/0/1"
    # strict: ties are draws
    assert strict_win_draw_loss(acc_a, acc_b) == WinDrawLoss(2, 2, 1)
    # error-like metric: lower is better, ties still go to A
    assert win_draw_loss([1.0, 2.0, 3.0], [2.0, 2.0, 1.0], higher_is_better=False) == (2, 0, 1)
    assert strict_win_draw_loss([1.0, 2.0, 3.0], [2.0, 2.0, 1.0], higher_is_better=False) == (
        1,
        1,
        1,
    )
    with pytest.raises(ValueError):
        win_draw_loss([1.0, float("nan")], [1.0, 2.0])


def test_significant_win_draw_loss() -> None:
    acc_a = [80.0, 70.0, 60.0, 50.0]
    acc_b = [75.0, 72.0, 59.0, 50.0]
    p = [0.01, 0.04, 0.20, 1.0]
    assert significant_win_draw_loss(acc_a, acc_b, p) == WinDrawLoss(1, 2, 1)
    # alpha is strict: p = 0.05 is not significant
    assert significant_win_draw_loss([80.0], [70.0], [0.05]) == WinDrawLoss(0, 1, 0)
    # an untestable cell (NaN p) is a draw
    assert significant_win_draw_loss([80.0], [70.0], [float("nan")]) == WinDrawLoss(0, 1, 0)


# --- GM error ratio ------------------------------------------------------------------


def test_geometric_mean_error_ratio_three_datasets() -> None:
    # errors A = 10, 20, 5 vs B = 20, 20, 10: ratios 1/2, 1, 1/2 -> (1/4)^(1/3) ≈ 0.62996
    assert geometric_mean_error_ratio([10, 20, 5], [20, 20, 10]) == pytest.approx(0.25 ** (1 / 3))
    assert geometric_mean_error_ratio([10, 20, 5], [20, 20, 10]) == pytest.approx(0.6299605249)
    # the geometric mean is symmetric: B over A is the reciprocal
    assert geometric_mean_error_ratio([20, 20, 10], [10, 20, 5]) == pytest.approx(0.25 ** (-1 / 3))
    # halving on one dataset and doubling on another cancel out
    assert geometric_mean_error_ratio([5, 40], [10, 20]) == pytest.approx(1.0)
    # from accuracies in %
    acc_a, acc_b = np.array([90.0, 80.0, 95.0]), np.array([80.0, 80.0, 90.0])
    gm = geometric_mean_error_ratio(error_from_accuracy(acc_a), error_from_accuracy(acc_b))
    assert gm == pytest.approx(0.6299605249)


def test_geometric_mean_error_ratio_zero_errors() -> None:
    assert geometric_mean_error_ratio([0.0, 10.0], [5.0, 10.0]) == 0.0
    assert geometric_mean_error_ratio([5.0, 10.0], [0.0, 10.0]) == math.inf
    assert math.isnan(geometric_mean_error_ratio([0.0, 10.0], [0.0, 10.0]))
    assert math.isnan(geometric_mean_error_ratio([], []))
    with pytest.raises(ValueError):
        geometric_mean_error_ratio([-1.0], [1.0])


# --- records -> comparison frame -----------------------------------------------------


def test_summarise_mean_std_count() -> None:
    vals = np.arange(10, dtype=float)
    recs = records_for({("iris", "j48", 10.0): vals, ("iris", "decorate", 10.0): vals + 1})
    summary = summarise(recs)
    row = summary[summary["algorithm"] == "j48"].iloc[0]
    assert row["mean"] == pytest.approx(4.5)
    assert row["std"] == pytest.approx(np.std(vals, ddof=1))
    assert row["count"] == 10
    assert row["n_train"] == 12
    assert list(summary.columns[:5]) == ["experiment", "dataset", "algorithm", "point", "metric"]


def test_summarise_by_batch_averages_each_batch_over_every_fold() -> None:
    """Chapter 7: four folds end their last batch at 67 labeled examples, one at 68 (a pool
    one example larger). By size, n = 67 is four folds and n = 68 one (a spike in every
    curve); by batch, the last batch is all five folds at a mean size of 67.2."""
    rows = [("x", "d", "a", 0, fold, n, n, "mse", 0.1 * step + fold / 100, 0.0, 15)
            for fold in range(5) for step, n in enumerate([10, 30, 68 if fold == 4 else 67])]
    recs = pd.DataFrame(rows, columns=list(RECORD_COLUMNS))
    by_size = summarise(recs)
    assert by_size.set_index("point")["count"].to_dict() == {10: 5, 30: 5, 67: 4, 68: 1}
    by_batch = summarise(recs, align="batch")
    assert by_batch["point"].tolist() == [0, 1, 2] and by_batch["count"].tolist() == [5, 5, 5]
    last = by_batch.iloc[-1]
    assert last["n_train"] == pytest.approx(67.2) and last["mean"] == pytest.approx(0.2 + 0.02)
    with pytest.raises(ValueError, match="align"):
        summarise(recs, align="fold")


def test_compare_algorithms_pairs_runs_and_folds() -> None:
    rng = np.random.default_rng(11)
    base = rng.normal(80, 3, 10)
    dec = base + rng.normal(2, 1, 10)  # significantly better
    recs = records_for(
        {
            ("iris", "decorate", 100.0): dec,
            ("iris", "j48", 100.0): base,
            ("labor", "decorate", 100.0): base,  # identical: a tie and p = 1
            ("labor", "j48", 100.0): base,
            ("glass", "decorate", 100.0): base,  # j48 not run on glass
        }
    )
    cells = compare_algorithms(recs, "decorate", "j48").set_index("dataset")
    iris = cells.loc["iris"]
    assert iris["mean_a"] == pytest.approx(dec.mean())
    assert iris["p_value"] == pytest.approx(scipy_stats.ttest_rel(dec, base).pvalue)
    assert iris["n_pairs"] == 10
    assert (iris["sig"], iris["winner"]) == (1, "decorate")
    # 5 folds of 120 training examples: test folds of 120 / 4 = 30
    assert iris["n_test"] == pytest.approx(30.0)
    assert iris["n_train"] == 120
    expected = corrected_resampled_t_test(dec, base, 120, 30)
    assert iris["p_corrected"] == pytest.approx(expected.p)
    labor = cells.loc["labor"]
    assert (labor["p_value"], labor["sig"], labor["winner"]) == (1.0, 0, "")
    glass = cells.loc["glass"]
    assert glass["n_pairs"] == 0 and math.isnan(glass["mean_b"]) and math.isnan(glass["p_value"])

    summary = summarise_comparison(cells.reset_index()).iloc[0]
    assert summary["n_datasets"] == 2  # glass is not counted
    assert (summary["wins"], summary["draws"], summary["losses"]) == (2, 0, 0)
    assert (summary["strict_wins"], summary["strict_draws"]) == (1, 1)
    assert (summary["sig_wins"], summary["sig_draws"], summary["sig_losses"]) == (1, 1, 0)
    errors = error_from_accuracy([dec.mean(), base.mean()]), error_from_accuracy([base.mean()] * 2)
    assert summary["gm_error_ratio"] == pytest.approx(geometric_mean_error_ratio(*errors))


def test_compare_algorithms_refuses_unpairable_records() -> None:
    vals = np.linspace(70, 80, 10)
    recs = records_for({("iris", "decorate", 10.0): vals, ("iris", "j48", 10.0): vals})
    twice = pd.concat([recs, recs.assign(experiment="other")], ignore_index=True)
    with pytest.raises(ValueError, match="experiment"):
        compare_algorithms(twice, "decorate", "j48")
    assert len(compare_algorithms(twice, "decorate", "j48", experiment="other")) == 1
    with pytest.raises(ValueError, match="no 'accuracy' records"):
        compare_algorithms(recs, "bagging", "rf")


def test_infer_n_test_and_explicit_n_test() -> None:
    vals = np.linspace(70, 80, 10)
    recs = records_for(
        {("iris", "decorate", 10.0): vals, ("iris", "decorate", 50.0): vals},
        full_train=135,
    )
    # largest point 50 %: n_train = round(67.5) = 68 -> training fold 136 -> 5 folds: 136 / 4
    assert infer_n_test(recs)["iris"] == pytest.approx(34.0)
    recs = recs.assign(algorithm="decorate")
    other = recs.assign(algorithm="j48", value=recs["value"] - np.linspace(0, 1, len(recs)))
    both = pd.concat([recs, other], ignore_index=True)
    cells = compare_algorithms(both, "decorate", "j48", n_test={"iris": 15.0})
    assert (cells["n_test"] == 15.0).all()
    cells = compare_algorithms(both, "decorate", "j48", n_test=20)
    assert (cells["n_test"] == 20.0).all()
