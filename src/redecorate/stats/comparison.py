"""Comparing two learners across datasets: W/D/L records and the geometric-mean error ratio.

These are the summary statistics of the dissertation's tables (§4.1 [L541–L543], after
Webb 2000), with the exact rules recovered in the spec (Part 2):

* **Win/Draw/Loss** (M2): per dataset, compare the mean accuracies. The thesis counts an exact
  tie as a *win for the first-named system A*; its raw W/D/L rows never contain a draw, and
  only this rule reproduces Tables 4.2–4.5 (e.g. Table 4.2 at 1 % has seven exact ties and
  prints 15/0/0). :func:`win_draw_loss` implements that rule; :func:`strict_win_draw_loss`
  counts ties as draws, which is what the caption "better, equal, or worse" suggests.
* **Significant W/D/L** (M3): a win or loss only when a paired t-test over the run × fold
  results gives p < 0.05, the side decided by the sign of the mean difference.
* **GM error ratio** (M4): the geometric mean over datasets of E_A / E_B, E = 100 − mean
  accuracy; below 1 means A is better.

:func:`compare_algorithms` turns long-form records into one row per (dataset, point) with the
means, both p-values and the significant winner, and :func:`summarise_comparison` reduces
that to the per-point summary rows printed at the bottom of each table.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple

import numpy as np
import pandas as pd

from redecorate.stats.significance import corrected_resampled_t_test, paired_t_test
from redecorate.stats.summary import check_records

__all__ = [
    "WinDrawLoss",
    "win_draw_loss",
    "strict_win_draw_loss",
    "significant_win_draw_loss",
    "significance_sign",
    "error_from_accuracy",
    "geometric_mean_error_ratio",
    "compare_algorithms",
    "summarise_comparison",
    "infer_n_test",
]

ArrayLike = Sequence[float] | np.ndarray
PAIR_KEYS: tuple[str, ...] = ("dataset", "point", "run", "fold")
"""A paired observation: the same split (run, fold) of the same dataset at the same point."""

SUMMARY_COLUMNS: tuple[str, ...] = (
    "point", "n_datasets", "wins", "draws", "losses", "strict_wins", "strict_draws",
    "strict_losses", "sig_wins", "sig_draws", "sig_losses", "sig_corrected_wins",
    "sig_corrected_draws", "sig_corrected_losses", "gm_error_ratio",
)  # fmt: skip
"""Columns of :func:`summarise_comparison`: the summary rows of a table, one row per point."""


class WinDrawLoss(NamedTuple):
    """A win/draw/loss record of system A against system B over datasets."""

    wins: int
    draws: int
    losses: int

    def __str__(self) -> str:
        """Render as the thesis prints it, e.g. ``13/0/2``."""
        return f"{self.wins}/{self.draws}/{self.losses}"


def _as_pair(acc_a: ArrayLike, acc_b: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    a = np.asarray(acc_a, dtype=np.float64).ravel()
    b = np.asarray(acc_b, dtype=np.float64).ravel()
    if a.shape != b.shape:
        raise ValueError(f"need one value per dataset for both systems: {a.size} vs {b.size}")
    if np.isnan(a).any() or np.isnan(b).any():
        raise ValueError("NaN in per-dataset values; drop datasets that were not run first")
    return a, b


def win_draw_loss(
    acc_a: ArrayLike, acc_b: ArrayLike, *, higher_is_better: bool = True
) -> WinDrawLoss:
    """Raw W/D/L with the thesis's tie rule: a tie is a win for A, so D is always 0.

    ``acc_a[i]`` and ``acc_b[i]`` are the mean values of A and B on dataset *i*. Ties are
    exact equality, as in the thesis's recount from printed values; round the inputs first
    if you want ties at printed precision. With ``higher_is_better=False`` (error-like
    metrics) A wins when its value is lower; ties still go to A.
    """
    a, b = _as_pair(acc_a, acc_b)
    a_loses = a < b if higher_is_better else a > b
    losses = int(a_loses.sum())
    return WinDrawLoss(a.size - losses, 0, losses)


def strict_win_draw_loss(
    acc_a: ArrayLike, acc_b: ArrayLike, *, higher_is_better: bool = True
) -> WinDrawLoss:
    """W/D/L with exact ties counted as draws (the reading of Webb 2000 and of the caption).

    Reported next to :func:`win_draw_loss` so the effect of the thesis's tie rule is visible:
    at 1 % of the data many learners tie (all predict the majority class).
    """
    a, b = _as_pair(acc_a, acc_b)
    better = a > b if higher_is_better else a < b
    worse = a < b if higher_is_better else a > b
    wins, losses = int(better.sum()), int(worse.sum())
    return WinDrawLoss(wins, a.size - wins - losses, losses)


def significance_sign(
    mean_a: ArrayLike,
    mean_b: ArrayLike,
    p_values: ArrayLike,
    alpha: float = 0.05,
    *,
    higher_is_better: bool = True,
) -> np.ndarray:
    """Per dataset: +1 if A is significantly better, −1 if B is, 0 otherwise (int array).

    The side is the sign of the mean difference (equivalently of mean_a − mean_b); a NaN
    p-value (test not possible) counts as not significant, i.e. a draw.
    """
    a, b = _as_pair(mean_a, mean_b)
    p = np.asarray(p_values, dtype=np.float64).ravel()
    if p.shape != a.shape:
        raise ValueError(f"need one p-value per dataset: {p.size} vs {a.size}")
    diff = a - b if higher_is_better else b - a
    with np.errstate(invalid="ignore"):
        significant = p < alpha
    return np.where(significant, np.sign(diff), 0.0).astype(np.int64)


def significant_win_draw_loss(
    acc_a: ArrayLike,
    acc_b: ArrayLike,
    p_values: ArrayLike,
    alpha: float = 0.05,
    *,
    higher_is_better: bool = True,
) -> WinDrawLoss:
    """Significant W/D/L (M3): a win or loss only where ``p < alpha``, otherwise a draw.

    ``p_values[i]`` is the paired test on dataset *i* (over its run × fold results); the
    thesis uses :func:`~redecorate.stats.significance.paired_t_test` and alpha = 0.05.
    """
    sign = significance_sign(acc_a, acc_b, p_values, alpha, higher_is_better=higher_is_better)
    wins, losses = int((sign > 0).sum()), int((sign < 0).sum())
    return WinDrawLoss(wins, sign.size - wins - losses, losses)


def error_from_accuracy(accuracy: ArrayLike) -> np.ndarray:
    """Error in % from accuracy in % (M1: E = 100 − accuracy)."""
    return 100.0 - np.asarray(accuracy, dtype=np.float64)


def geometric_mean_error_ratio(err_a: ArrayLike, err_b: ArrayLike) -> float:
    """Geometric mean over datasets of ``err_a[i] / err_b[i]`` (M4); < 1 means A is better.

    A geometric rather than arithmetic mean makes the statistic symmetric: halving the error
    on one dataset and doubling it on another cancel out (ratios 0.5 and 2 → 1). Computed as
    ``exp(mean(log ratio))`` to avoid overflow of the product. A zero error of B (ratio
    infinite) or of A (ratio 0) propagates as the formula dictates (inf or 0), and 0/0 or
    0·inf gives NaN: the thesis has no such case, and a NaN is better than a made-up value.
    """
    a, b = _as_pair(err_a, err_b)
    if a.size == 0:
        return float("nan")
    if (a < 0).any() or (b < 0).any():
        raise ValueError("errors must be non-negative")
    with np.errstate(divide="ignore", invalid="ignore"):
        log_ratio = np.log(a) - np.log(b)
        return float(np.exp(log_ratio.mean()))


def infer_n_test(records: pd.DataFrame) -> pd.Series:
    """Estimate the test-fold size per dataset from k-fold records, which do not store it.

    For k-fold CV the test fold is 1/(k−1) of the training fold. The training-fold size is
    recovered from the largest curve point as ``n_train / (point/100)``; that point is 100 %
    in the §4.1 protocol, where it is exact (small points are distorted by rounding, e.g.
    1 % of 135 iris examples is 1). k is the number of distinct folds. Datasets with a single
    fold get NaN, and their corrected test is then reported as not possible.
    """
    check_records(records, ("dataset", "fold", "point", "n_train"))
    out: dict[str, float] = {}
    for dataset, rows in records.groupby("dataset", sort=True):
        k = rows["fold"].nunique()
        top = rows[rows["point"] == rows["point"].max()]
        full = float((top["n_train"] / (top["point"] / 100.0)).mean())
        out[str(dataset)] = full / (k - 1) if k > 1 else float("nan")
    return pd.Series(out, name="n_test", dtype=np.float64)


def _select(
    records: pd.DataFrame, algorithm: str, metric: str, experiment: str | None
) -> pd.DataFrame:
    mask = (records["algorithm"] == algorithm) & (records["metric"] == metric)
    if experiment is not None:
        mask &= records["experiment"] == experiment
    rows = records.loc[mask]
    dup = rows.duplicated(list(PAIR_KEYS))
    if dup.any():
        first = rows.loc[dup, list(PAIR_KEYS)].iloc[0].to_dict()
        raise ValueError(
            f"{algorithm}/{metric}: several records for one split, e.g. {first}; records from "
            "several experiments cannot be paired, pass experiment=... to choose one"
        )
    return rows


def _n_test_lookup(
    records: pd.DataFrame, n_test: float | Mapping[str, float] | None
) -> Mapping[str, float] | None:
    if n_test is None:
        return None if "n_test" in records.columns else infer_n_test(records).to_dict()
    if isinstance(n_test, Mapping):
        return n_test
    return {str(d): float(n_test) for d in records["dataset"].unique()}


_CELL_COLUMNS: tuple[str, ...] = (
    "dataset", "point", "algo_a", "algo_b", "metric", "mean_a", "mean_b", "std_a",
    "std_b", "n_pairs", "n_train", "n_test", "t", "p_value", "sig", "winner",
    "t_corrected", "p_corrected", "sig_corrected", "winner_corrected",
)  # fmt: skip
"""Columns of :func:`compare_algorithms`, in order."""


def _cell_tests(cell: pd.DataFrame, dataset: str,
                n_test_of: Mapping[str, float] | None) -> dict[str, object]:
    """Means, spreads and both t-tests of one (dataset, point) over its paired splits; a cell
    only one system has keeps that system's mean and NaN tests, so a missing run shows."""
    paired = cell.dropna(subset=["value_a", "value_b"])
    if paired.empty:
        va, vb = cell["value_a"].dropna(), cell["value_b"].dropna()
        n_train_cell = cell[["n_train_a", "n_train_b"]].stack().mean()
        t = p = t_c = p_c = n_test_cell = np.nan
    else:
        va, vb = paired["value_a"], paired["value_b"]
        n_train_cell = float(paired["n_train_a"].mean())
        if n_test_of is None:
            n_test_cell = float(paired["n_test_a"].mean())
        else:
            n_test_cell = float(n_test_of.get(dataset, np.nan))
        t, p = paired_t_test(va, vb)
        if np.isfinite(n_test_cell) and n_train_cell > 0:
            t_c, p_c = corrected_resampled_t_test(va, vb, n_train_cell, n_test_cell)
        else:
            t_c = p_c = np.nan
    return {
        "mean_a": va.mean() if len(va) else np.nan,
        "mean_b": vb.mean() if len(vb) else np.nan,
        "std_a": va.std(ddof=1) if len(va) > 1 else np.nan,
        "std_b": vb.std(ddof=1) if len(vb) > 1 else np.nan,
        "n_pairs": len(paired),
        "n_train": n_train_cell,
        "n_test": n_test_cell,
        "t": t,
        "p_value": p,
        "t_corrected": t_c,
        "p_corrected": p_c,
    }


def _add_significance(cells: pd.DataFrame, algo_a: str, algo_b: str, alpha: float,
                      higher_is_better: bool) -> None:
    """Add ``sig``/``winner`` (plain test) and ``sig_corrected``/``winner_corrected`` to
    ``cells`` in place: the side of a significant difference, 0 and "" for an unpaired cell."""
    paired_mask = cells["n_pairs"] > 0
    for suffix, p_col in (("", "p_value"), ("_corrected", "p_corrected")):
        sign = np.zeros(len(cells), dtype=np.int64)
        if paired_mask.any():
            sign[paired_mask.to_numpy()] = significance_sign(
                cells.loc[paired_mask, "mean_a"],
                cells.loc[paired_mask, "mean_b"],
                cells.loc[paired_mask, p_col],
                alpha,
                higher_is_better=higher_is_better,
            )
        cells[f"sig{suffix}"] = sign
        cells[f"winner{suffix}"] = np.where(sign > 0, algo_a, np.where(sign < 0, algo_b, ""))


def compare_algorithms(
    records: pd.DataFrame,
    algo_a: str,
    algo_b: str,
    *,
    metric: str = "accuracy",
    alpha: float = 0.05,
    experiment: str | None = None,
    n_test: float | Mapping[str, float] | None = None,
    higher_is_better: bool = True,
) -> pd.DataFrame:
    """One row per (dataset, point): A vs B with the thesis's and the corrected test.

    Records of A and B are paired on (dataset, point, run, fold), i.e. on the same split.
    ``mean_a``/``mean_b`` are means over the *paired* splits, so a cell and its test always
    describe the same data (with complete records they equal the plain cell means);
    ``std_a``/``std_b`` are their standard deviations (ddof = 1). A (dataset, point) that
    only one system has is kept, with the other side NaN and ``n_pairs = 0``, so that a
    missing run shows up in the table instead of silently shrinking the W/D/L counts.

    Columns: dataset, point, algo_a, algo_b, metric, mean_a, mean_b, std_a, std_b, n_pairs,
    n_train, n_test, t, p_value, sig, winner, t_corrected, p_corrected, sig_corrected,
    winner_corrected. ``sig`` is +1/0/−1 (A significantly better / not significant / B
    significantly better at ``alpha`` under :func:`paired_t_test`); ``winner`` is the name of
    the significantly better algorithm or ``""``. The ``*_corrected`` columns use
    :func:`corrected_resampled_t_test` with ``n_train`` the mean training size at that point
    and ``n_test`` from an ``n_test`` column of the records, else the ``n_test`` argument
    (a number or a per-dataset mapping), else :func:`infer_n_test`.
    """
    check_records(records, (*PAIR_KEYS, "algorithm", "metric", "value", "n_train"))
    if experiment is not None:
        check_records(records, ("experiment",))
    a = _select(records, algo_a, metric, experiment)
    b = _select(records, algo_b, metric, experiment)
    if a.empty and b.empty:
        raise ValueError(f"no {metric!r} records for {algo_a!r} or {algo_b!r}")
    n_test_of = _n_test_lookup(pd.concat([a, b]), n_test)

    extra = ["n_train"] + (["n_test"] if "n_test" in records.columns else [])
    keep = [*PAIR_KEYS, "value", *extra]
    merged = a[keep].merge(b[keep], on=list(PAIR_KEYS), how="outer", suffixes=("_a", "_b"))

    rows = []
    for (dataset, point), cell in merged.groupby(["dataset", "point"], sort=True):
        row: dict[str, object] = {
            "dataset": dataset,
            "point": float(point),
            "algo_a": algo_a,
            "algo_b": algo_b,
            "metric": metric,
        }
        row.update(_cell_tests(cell, str(dataset), n_test_of))
        rows.append(row)
    cells = pd.DataFrame(rows)
    _add_significance(cells, algo_a, algo_b, alpha, higher_is_better)
    return cells[list(_CELL_COLUMNS)]


def summarise_comparison(cells: pd.DataFrame, *, higher_is_better: bool = True) -> pd.DataFrame:
    """Per curve point, the summary rows of a thesis table from :func:`compare_algorithms`.

    Only datasets where both systems were run at that point (``n_pairs > 0``) are counted;
    ``n_datasets`` says how many that is, so a partial replication cannot pass for a full
    one. Columns: point, n_datasets, wins/draws/losses (thesis tie rule), strict_wins/
    strict_draws/strict_losses (ties as draws), sig_wins/sig_draws/sig_losses (paired
    t-test), sig_corrected_wins/... (Nadeau–Bengio) and gm_error_ratio (A over B; NaN unless
    the metric is accuracy in %, where error = 100 − accuracy).
    """
    rows: list[dict[str, object]] = []
    for point, group in cells.groupby("point", sort=True):
        done = group[group["n_pairs"] > 0]
        a, b = done["mean_a"].to_numpy(), done["mean_b"].to_numpy()
        raw = win_draw_loss(a, b, higher_is_better=higher_is_better)
        strict = strict_win_draw_loss(a, b, higher_is_better=higher_is_better)
        row: dict[str, object] = {"point": float(point), "n_datasets": len(done)}
        row.update(wins=raw.wins, draws=raw.draws, losses=raw.losses)
        row.update(strict_wins=strict.wins, strict_draws=strict.draws, strict_losses=strict.losses)
        for prefix, col in (("sig", "sig"), ("sig_corrected", "sig_corrected")):
            sign = done[col].to_numpy()
            row[f"{prefix}_wins"] = int((sign > 0).sum())
            row[f"{prefix}_draws"] = int((sign == 0).sum())
            row[f"{prefix}_losses"] = int((sign < 0).sum())
        is_accuracy = bool((done["metric"] == "accuracy").all()) and len(done) > 0
        row["gm_error_ratio"] = (
            geometric_mean_error_ratio(error_from_accuracy(a), error_from_accuracy(b))
            if is_accuracy
            else np.nan
        )
        rows.append(row)
    return pd.DataFrame(rows, columns=list(SUMMARY_COLUMNS))
