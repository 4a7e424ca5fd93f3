"""Summaries of active-learning curves: data utilization and error reduction (§6.3.1).

Every function works on *mean* learning curves (averaged over runs × folds): an array of
labeled-set sizes ``n_labeled`` and the matching mean error (%) at each size, except the
significance test, which needs the per-(run, fold) errors. Definitions (spec Part 2):

M8 *Target error* of a dataset: the baseline's (DECORATE with random sampling) mean error
over the curve points "corresponding to the last 50 training examples", i.e. the points
with |T| > N_pool − 50. A system *needs* the smallest |T| at which its mean curve is at or
below the target (first crossing), or ``None`` ("-" in Table 6.1) if it never gets there.
The *data utilization ratio* is that count divided by the baseline's.

M9 *Percentage error reduction* of system A over baseline B at point p:
r(p) = 100·(E_B(p) − E_A(p)) / E_B(p). Its mean over all points is Table 6.4's measure; its
mean over the 20 % of points with the largest r(p) is the *top-20 %* reduction of Tables
6.2/6.3 (after Saar-Tsechansky & Provost 2001). A reduction is *significant* when the two
systems' errors, averaged over the selected points, differ by a paired t-test (p < 0.05).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple

import numpy as np
import pandas as pd

from redecorate.stats.significance import TestResult, paired_t_test

__all__ = [
    "AVERAGINGS",
    "CROSSINGS",
    "DataUtilization",
    "SELECTIONS",
    "WINDOWS",
    "align_curves",
    "bootstrap_examples_needed",
    "fold_data_utilization",
    "fold_examples_needed",
    "fold_first_crossings",
    "fold_target_error",
    "data_utilization",
    "error_reduction_test",
    "examples_to_reach",
    "mean_error_reduction",
    "number_of_wins",
    "percent_error_reduction",
    "target_error",
    "top_fraction_points",
    "top_error_reduction",
    "utilization_ratio",
]

ROUNDINGS: tuple[str, ...] = ("ceil", "round", "floor")

WINDOWS: tuple[str, ...] = ("common", "fold", "index", "union")
"""Readings of M8's "points on the learning curve corresponding to the last 50 training
examples" when the folds' pools differ in size (see :func:`fold_target_error`)."""

CROSSINGS: tuple[str, ...] = ("first", "stays", "folds")
"""Readings of M8's "smallest number of examples required ... to achieve the same or lower
error" (see :func:`fold_examples_needed`)."""

PAIRINGS: tuple[str, ...] = ("folds", "points")
"""What M9's paired t-test pairs: runs × folds (default) or the selected curve points."""

SELECTIONS: tuple[str, ...] = ("relative", "absolute")
"""Readings of M9's "the 20 % of points on the learning curve, where the largest improvements
are produced" [L1249]: the points with the largest r(p), or with the largest difference of
the errors E_B(p) − E_A(p) (see :func:`top_error_reduction`)."""

AVERAGINGS: tuple[str, ...] = ("points", "errors")
"""Readings of M9's "the percentage error reduction averaged over" the selected points: the
mean of r(p) there, or the reduction of the errors averaged there (see
:func:`top_error_reduction`)."""


def _curve(n_labeled, error) -> tuple[np.ndarray, np.ndarray]:
    n = np.asarray(n_labeled, dtype=np.float64)
    e = np.asarray(error, dtype=np.float64)
    if n.ndim != 1 or e.shape != n.shape or n.size == 0:
        raise ValueError(f"a learning curve is two equal-length 1-D arrays (sizes, errors); got "
                         f"shapes {n.shape} and {e.shape}")
    if not (np.isfinite(n).all() and np.isfinite(e).all()):
        raise ValueError("learning curves must not contain NaN or infinite values")
    if np.any(np.diff(n) <= 0):
        raise ValueError("n_labeled must be strictly increasing along a learning curve")
    return n, e


def align_curves(n_a, error_a, n_b, error_b) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The points two curves share: ``(n_labeled, error_a, error_b)`` at common sizes."""
    na, ea = _curve(n_a, error_a)
    nb, eb = _curve(n_b, error_b)
    common, ia, ib = np.intersect1d(na, nb, assume_unique=True, return_indices=True)
    if common.size == 0:
        raise ValueError("the two learning curves have no labeled-set size in common")
    return common, ea[ia], eb[ib]


def target_error(n_labeled, error, pool_size: int, last: int = 50) -> float:
    """M8: mean error over the points with n_labeled > pool_size − last.

    ``error`` is the *baseline's* mean curve (DECORATE with random sampling in Table 6.1).
    """
    n, e = _curve(n_labeled, error)
    if pool_size < 1 or last < 1:
        raise ValueError(f"pool_size and last must be positive, got {pool_size}, {last}")
    tail = n > pool_size - last
    if not tail.any():
        raise ValueError(f"no curve point has more than {pool_size - last} labeled examples: "
                         f"the curve ends at {int(n[-1])} of a pool of {pool_size}")
    return float(e[tail].mean())


def examples_to_reach(n_labeled, error, target: float, *, atol: float = 1e-9) -> int | None:
    """Smallest n_labeled whose mean error is ≤ ``target`` (+ ``atol`` for rounding), or
    ``None`` if the curve never reaches it (Table 6.1's "-")."""
    n, e = _curve(n_labeled, error)
    hit = np.flatnonzero(e <= target + atol)
    return None if hit.size == 0 else int(n[hit[0]])


def utilization_ratio(examples: int | None, baseline_examples: int | None) -> float | None:
    """examples / baseline_examples, or ``None`` when either count is missing."""
    if examples is None or baseline_examples is None:
        return None
    if baseline_examples <= 0:
        raise ValueError(f"baseline_examples must be positive, got {baseline_examples}")
    return examples / baseline_examples


class DataUtilization(NamedTuple):
    """One cell of Table 6.1: the count, the baseline's count, their ratio, the target.

    Counts are whole examples on a mean curve; the ``"folds"`` crossing reading averages
    folds' counts (a float); the baseline's count is ``None`` only under a reading where the
    baseline itself never reaches its target (``"stays"`` on a curve that ends above it).
    """

    examples: float | None
    baseline_examples: float | None
    ratio: float | None
    target_error: float


def data_utilization(n_labeled, error, baseline_n_labeled, baseline_error, pool_size: int,
                     last: int = 50) -> DataUtilization:
    """M8 for one system on one dataset, from mean curves (errors in %)."""
    target = target_error(baseline_n_labeled, baseline_error, pool_size, last)
    base = examples_to_reach(baseline_n_labeled, baseline_error, target)
    if base is None:  # impossible: the tail mean is ≥ the tail minimum
        raise AssertionError("the baseline never reaches its own target error")
    count = examples_to_reach(n_labeled, error, target)
    return DataUtilization(count, base, utilization_ratio(count, base), target)


def percent_error_reduction(baseline_error, error, *, undefined: str = "raise") -> np.ndarray:
    """r(p) = 100·(E_B(p) − E_A(p)) / E_B(p) for aligned mean curves.

    ``baseline_error`` and ``error`` are one curve each (1-D) or one curve a row (2-D, e.g.
    the mean curves of bootstrap replicates); r has their shape. Where the baseline's error
    is 0, r is 0 if the system's error is 0 too; otherwise the percentage is undefined:
    ``undefined="raise"`` (default) refuses it, ``"nan"`` returns NaN there (the summaries
    below then skip that point).
    """
    b = np.asarray(baseline_error, dtype=np.float64)
    a = np.asarray(error, dtype=np.float64)
    if a.shape != b.shape or a.ndim not in (1, 2) or a.size == 0:
        raise ValueError(f"errors must be aligned curves (1-D, or 2-D with one curve a row), got "
                         f"shapes {b.shape} and {a.shape}")
    if undefined not in ("raise", "nan"):
        raise ValueError(f"undefined must be 'raise' or 'nan', got {undefined!r}")
    zero = b == 0
    bad = zero & (a != 0)
    if bad.any() and undefined == "raise":
        where = np.flatnonzero(bad) if bad.ndim == 1 else np.argwhere(bad)
        raise ValueError(f"the baseline's error is 0 at point(s) {where.tolist()} "
                         "where the system's is not: the percentage reduction is undefined "
                         "(pass undefined='nan' to skip those points)")
    with np.errstate(divide="ignore", invalid="ignore"):
        r = 100.0 * (b - a) / b
    r[zero & (a == 0)] = 0.0
    r[bad] = np.nan
    return r


def mean_error_reduction(baseline_error, error, *, undefined: str = "raise") -> float:
    """M9, all points: the mean of r(p) over the curve (Table 6.4, Tables 8.2/8.3 col. 1)."""
    return float(np.nanmean(percent_error_reduction(baseline_error, error, undefined=undefined)))


def _check_top(fraction: float, rounding: str) -> None:
    if not 0 < fraction <= 1:
        raise ValueError(f"fraction must be in (0, 1], got {fraction!r}")
    if rounding not in ROUNDINGS:
        raise ValueError(f"rounding must be one of {ROUNDINGS}, got {rounding!r}")


def _top_order(key: np.ndarray, fraction: float, rounding: str) -> tuple[np.ndarray, np.ndarray]:
    """Per row of ``key`` (2-D, NaN where a point is undefined): the positions by decreasing
    key (ties in curve order, undefined points last) and how many of them are the top
    ``fraction`` of the row's defined points (at least one, 0 for a row without any)."""
    defined = (~np.isnan(key)).sum(axis=1)
    exact = fraction * defined
    count = {"ceil": np.ceil(exact - 1e-9), "round": np.floor(exact + 0.5),
             "floor": np.floor(exact + 1e-9)}[rounding].astype(np.int64)
    count = np.minimum(defined, np.maximum(1, count))
    return np.argsort(-key, axis=1, kind="stable"), count


def top_fraction_points(reduction, fraction: float = 0.2, rounding: str = "ceil") -> np.ndarray:
    """Positions of the ``fraction`` of points with the largest r(p), largest first.

    The number of points is ⌈fraction·P⌉ by default (the dissertation does not say how 20 %
    of P is rounded; "round" and "floor" are available, with at least one point).
    Undefined points (NaN) are never selected and do not count in P.
    """
    r = np.asarray(reduction, dtype=np.float64)
    if r.ndim != 1:
        raise ValueError(f"reduction must be 1-D, got shape {r.shape}")
    _check_top(fraction, rounding)
    order, count = _top_order(r[None, :], fraction, rounding)
    if count[0] == 0:
        raise ValueError("no curve point has a defined error reduction")
    return order[0, :count[0]]


def top_error_reduction(baseline_error, error, fraction: float = 0.2, rounding: str = "ceil",
                        *, undefined: str = "raise", selection: str = "relative",
                        averaging: str = "points") -> float | np.ndarray:
    """M9, top points: mean r(p) over the ``fraction`` of points where it is largest.

    The dissertation's sentence [L1249] leaves two choices open, kept here as readings to
    score against the printed Tables 6.2/6.3 (``reproduced/ch6_readings``):

    * ``selection``: which points carry "the largest improvements". ``"relative"``
      (default): the largest r(p), the quantity being averaged. ``"absolute"``: the largest
      E_B(p) − E_A(p), an improvement in points of error, which favours the early points
      where both errors are high over late points where a small error is cut by a large
      fraction. Either way only points with a defined r(p) count and are chosen.
    * ``averaging``: what is "averaged over" them. ``"points"`` (default): the mean of
      r(p) over the chosen points. ``"errors"``: r of the two systems' errors averaged over
      the chosen points, 100·(Ē_B − Ē_A)/Ē_B, which weighs each point by its baseline error
      instead of equally.

    ``rounding`` counts the points as in :func:`top_fraction_points`; ``undefined`` is
    :func:`percent_error_reduction`'s. With one curve a row (2-D input), returns one value
    per row, NaN for a row without a defined point (a bootstrap replicate is not refused);
    a single curve without one raises ValueError.
    """
    if selection not in SELECTIONS:
        raise ValueError(f"selection must be one of {SELECTIONS}, got {selection!r}")
    if averaging not in AVERAGINGS:
        raise ValueError(f"averaging must be one of {AVERAGINGS}, got {averaging!r}")
    _check_top(fraction, rounding)
    r = percent_error_reduction(baseline_error, error, undefined=undefined)
    rows = r.reshape(-1, r.shape[-1])
    b = np.asarray(baseline_error, dtype=np.float64).reshape(rows.shape)
    a = np.asarray(error, dtype=np.float64).reshape(rows.shape)
    key = rows if selection == "relative" else np.where(np.isnan(rows), np.nan, b - a)
    order, count = _top_order(key, fraction, rounding)
    if r.ndim == 1 and count[0] == 0:
        raise ValueError("no curve point has a defined error reduction")
    out = np.full(len(rows), np.nan)
    for k in np.unique(count[count > 0]):
        same = count == k
        chosen = order[same, :k]
        if averaging == "points":
            out[same] = np.take_along_axis(rows[same], chosen, axis=1).mean(axis=1)
        else:
            mean_b = np.take_along_axis(b[same], chosen, axis=1).mean(axis=1)
            mean_a = np.take_along_axis(a[same], chosen, axis=1).mean(axis=1)
            out[same] = percent_error_reduction(mean_b, mean_a, undefined=undefined)
    return float(out[0]) if r.ndim == 1 else out


def error_reduction_test(baseline_errors, errors, points: Sequence[int] | np.ndarray | None = None,
                         *, pairing: str = "folds") -> TestResult:
    """Paired t-test of a reduction over the selected curve points (M9 significance).

    ``baseline_errors`` and ``errors`` are ``(runs × folds, points)`` arrays of per-fold
    errors along the aligned curves; ``points`` the selected columns (all by default, or
    :func:`top_fraction_points` of the mean curves). Each system's error is averaged over
    the selected points within every (run, fold), and the run × fold pairs go to the
    thesis's paired t-test. (The dissertation's wording also admits pairing over curve
    points; we pair over runs × folds, the independent-ish replicates: ``pairing="points"``
    pairs the two mean curves' errors at the selected points instead.) The statistic is
    oriented as a reduction: t > 0 when the baseline's error is the higher one.
    """
    if pairing not in PAIRINGS:
        raise ValueError(f"pairing must be one of {PAIRINGS}, got {pairing!r}")
    b = np.asarray(baseline_errors, dtype=np.float64)
    a = np.asarray(errors, dtype=np.float64)
    if a.shape != b.shape or a.ndim != 2:
        raise ValueError(f"errors must be (runs x folds, points) arrays of the same shape, got "
                         f"{b.shape} and {a.shape}")
    cols = np.arange(a.shape[1]) if points is None else np.asarray(points, dtype=np.int64)
    if cols.size == 0:
        raise ValueError("no curve points selected")
    if pairing == "points":
        return paired_t_test(b[:, cols].mean(axis=0), a[:, cols].mean(axis=0))
    return paired_t_test(b[:, cols].mean(axis=1), a[:, cols].mean(axis=1))


def _fold_matrix(n_labeled, errors) -> tuple[np.ndarray, np.ndarray]:
    """Per-fold curves as ``(sizes, errors)``: errors is ``(folds, sizes)`` with NaN where a
    fold's curve has no point (its pool ended earlier, or its batches fell elsewhere)."""
    n = np.asarray(n_labeled, dtype=np.float64)
    e = np.asarray(errors, dtype=np.float64)
    if n.ndim != 1 or e.ndim != 2 or e.shape[1] != n.size or e.shape[0] == 0:
        raise ValueError(f"per-fold curves are sizes (P,) and errors (folds, P); got shapes "
                         f"{n.shape} and {e.shape}")
    if np.any(np.diff(n) <= 0):
        raise ValueError("n_labeled must be strictly increasing along a learning curve")
    if np.isinf(e).any() or not np.isfinite(e).any(axis=1).all():
        raise ValueError("every fold needs at least one finite error and none may be infinite")
    return n, e


def _common_mean(n: np.ndarray, e: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The mean curve over folds at the sizes every fold reached."""
    shared = np.isfinite(e).all(axis=0)
    if not shared.any():
        raise ValueError("the folds' curves share no labeled-set size")
    return n[shared], e[:, shared].mean(axis=0)


def fold_target_error(n_labeled, errors, last: int = 50, window: str = "common") -> float:
    """M8's target error from per-fold baseline curves, under one reading of the window.

    Folds differ in pool size (soybean: 614-616), so "the points on the learning curve
    corresponding to the last 50 training examples" [L1245] has three readings:

    * ``"common"``: the mean curve over the sizes every fold reached, and the 50 examples
      before its last point (the last *shared* size anchors the window; the folds' own
      final points beyond it are left out);
    * ``"fold"``: every fold's own points with n > pool_f − last (each fold's pool end
      anchors its window), averaged within the fold, then over folds;
    * ``"index"``: the curves aligned by iteration counted from each fold's end (the last
      point of every fold is its pool) and averaged position by position; the window is
      the positions whose mean size exceeds the mean pool − last;
    * ``"union"``: the mean curve at every size *any* fold reached, each size averaged over
      the folds that have it, and the 50 examples before the largest pool (a size only a
      few folds reach, such as their pool ends, is their mean alone).
    """
    n, e = _fold_matrix(n_labeled, errors)
    if last < 1:
        raise ValueError(f"last must be positive, got {last}")
    if window == "common":
        shared_n, mean = _common_mean(n, e)
        return target_error(shared_n, mean, int(shared_n[-1]), last)
    if window == "fold":
        means = []
        for row in e:
            have = np.isfinite(row)
            tail = have & (n > n[have][-1] - last)
            means.append(row[tail].mean())
        return float(np.mean(means))
    if window == "index":
        ends = [(n[np.isfinite(row)][::-1], row[np.isfinite(row)][::-1]) for row in e]
        depth = min(sizes.size for sizes, _ in ends)
        sizes = np.mean([s[:depth] for s, _ in ends], axis=0)
        mean = np.mean([v[:depth] for _, v in ends], axis=0)
        tail = sizes > sizes[0] - last
        return float(mean[tail].mean())
    if window == "union":
        have = np.isfinite(e).any(axis=0)
        return target_error(n[have], np.nanmean(e[:, have], axis=0), int(n[have][-1]), last)
    raise ValueError(f"window must be one of {WINDOWS}, got {window!r}")


def fold_examples_needed(n_labeled, errors, target: float, crossing: str = "first"
                         ) -> float | None:
    """Examples a system needs to reach ``target``, from its per-fold curves.

    * ``"first"``: the first size at which the *mean* curve (sizes every fold reached) is
      at or below the target (M8 as the spec reads it);
    * ``"stays"``: the first size from which the mean curve stays at or below the target
      to its end (a flat curve that dips once does not count until it settles);
    * ``"folds"``: every fold's own first crossing, averaged over folds; a fold that never
      gets there counts its pool size (censored, so the mean is a lower bound).

    ``None`` when the mean curve never reaches the target ("-" in Table 6.1); with
    ``"folds"``, when no fold does.
    """
    n, e = _fold_matrix(n_labeled, errors)
    if crossing == "folds":
        first = fold_first_crossings(n, e, target)
        if np.isnan(first).all():
            return None
        pools = np.array([n[np.isfinite(row)][-1] for row in e])
        return float(np.where(np.isnan(first), pools, first).mean())
    shared_n, mean = _common_mean(n, e)
    if crossing == "first":
        return examples_to_reach(shared_n, mean, target)
    if crossing == "stays":
        above = np.flatnonzero(mean > target + 1e-9)
        if above.size == 0:
            return int(shared_n[0])
        return None if above[-1] == mean.size - 1 else int(shared_n[above[-1] + 1])
    raise ValueError(f"crossing must be one of {CROSSINGS}, got {crossing!r}")


def fold_first_crossings(n_labeled, errors, target: float) -> np.ndarray:
    """Every fold's own first crossing of ``target`` (NaN where a fold never reaches it):
    the fold-level spread behind a mean-curve count."""
    n, e = _fold_matrix(n_labeled, errors)
    out = np.full(e.shape[0], np.nan)
    for i, row in enumerate(e):
        have = np.isfinite(row)
        first = examples_to_reach(n[have], row[have], target)
        out[i] = np.nan if first is None else first
    return out


def fold_data_utilization(n_labeled, errors, baseline_errors, last: int = 50, *,
                          window: str = "common", crossing: str = "first") -> DataUtilization:
    """M8 for one system on one dataset from per-fold curves (errors in %, NaN where a
    fold has no point), under a reading of the window and of the crossing.

    ``errors`` and ``baseline_errors`` are ``(folds, P)`` on the same sizes and folds. With
    the defaults it equals :func:`data_utilization` on the two mean curves at the sizes
    every fold of both systems reached, the last of them taken as the pool.
    """
    n, e = _fold_matrix(n_labeled, errors)
    _, b = _fold_matrix(n_labeled, baseline_errors)
    if e.shape != b.shape:
        raise ValueError(f"the two systems' per-fold curves differ in shape: {e.shape}, {b.shape}")
    both = np.isfinite(e) & np.isfinite(b)
    e, b = np.where(both, e, np.nan), np.where(both, b, np.nan)
    target = fold_target_error(n, b, last, window)
    base = fold_examples_needed(n, b, target, crossing)
    count = fold_examples_needed(n, e, target, crossing)
    return DataUtilization(count, base, utilization_ratio(count, base), target)


def bootstrap_examples_needed(n_labeled, errors, baseline_errors, *, resamples: int = 1000,
                              seed: int = 0, last: int = 50, window: str = "common",
                              crossing: str = "first") -> np.ndarray:
    """"Examples needed" of a system over bootstrap resamples of the folds: ``(resamples,)``
    counts, NaN where the resampled mean curve never reaches the target.

    Folds are drawn with replacement, the same draw for the system and the baseline (the
    target comes from the baseline's folds). A first crossing of a flat mean curve jumps by
    hundreds of examples when the target moves by a tenth of a point; the spread of these
    counts shows how much of a Table 6.1 difference is fold sampling.
    """
    n, e = _fold_matrix(n_labeled, errors)
    _, b = _fold_matrix(n_labeled, baseline_errors)
    rng = np.random.default_rng(seed)
    out = np.full(resamples, np.nan)
    for i in range(resamples):
        rows = rng.integers(0, e.shape[0], e.shape[0])
        count = fold_data_utilization(n, e[rows], b[rows], last, window=window,
                                      crossing=crossing).examples
        out[i] = np.nan if count is None else count
    return out


def number_of_wins(table: pd.DataFrame | Mapping[str, Mapping[str, float | None]], *,
                   lower_is_better: bool) -> pd.Series:
    """The "No. of Wins" row: per column, the rows (datasets) on which it is best.

    ``table`` has one row per dataset and one column per system (a DataFrame, or a mapping
    dataset → {system: value}). Missing values (None/NaN, Table 6.1's "-") never win. A
    tie gives a win to every tied column.
    """
    frame = (table if isinstance(table, pd.DataFrame)
             else pd.DataFrame.from_dict(table, orient="index"))
    values = frame.apply(pd.to_numeric, errors="coerce").astype(np.float64)
    best = values.min(axis=1) if lower_is_better else values.max(axis=1)
    wins = values.eq(best, axis=0) & values.notna()
    return wins.sum(axis=0).astype(int)
