"""Cell-level agreement with the published tables: intervals, statuses, known disagreements,
and the measures every report and the replication report compute from them.

Why: a reproduced cell beside a published one says little on its own. Whether the two
*agree* depends on how much the reproduced value moves from fold to fold, and a summary such
as "the sign agrees on 60 % of the datasets" means nothing until it is set beside what a
trivial prediction would score. This module gives every reproduced cell a 95 % interval from
the fold-level spread (a paired bootstrap over the runs × folds, :func:`bootstrap_interval`),
a status that says which of four things happened — ``not run``, ``never reached the
target``, ``agrees`` (the published value lies inside the reproduced interval) or
``disagrees`` — and the row of ``config/published/known_disagreements.tsv`` that explains a
disagreement, where one exists.

Every report module also returns its cells in one layout, the *evidence*
(:data:`EVIDENCE_COLUMNS`, :func:`evidence_frame`): a ``printed`` cell is a number the source
prints beside ours (scored by the share inside the interval and the median |difference|); a
``signed`` cell is a comparison whose sign says which side is ahead (a reduction over a
baseline, or the difference of two printed accuracies; scored by sign agreement beside the
best constant prediction, and by Spearman's correlation). :func:`table_agreement` condenses
any group of them into the same measures, for a chapter's report and for the replication
report of every table (:mod:`redecorate.report.replication_index`).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import lru_cache
from pathlib import Path

import numpy as np
import pandas as pd

from redecorate.arithmetic import matmul, matvec
from redecorate.report.conclusions import cell_signs, rank_correlation
from redecorate.report.tables import fmt, markdown_table
from redecorate.stats import replication_tests

__all__ = [
    "AGREES",
    "BOOTSTRAP_LEVEL",
    "CELL_STATUSES",
    "DISAGREES",
    "EQUIVALENCE_MARGIN",
    "EVIDENCE_COLUMNS",
    "MIN_SPREAD_RUNS",
    "NEVER_REACHED",
    "NOT_RUN",
    "PRINTED_ROUNDING",
    "REPRODUCED",
    "SIG_CORRECTED",
    "SIG_PAIRED",
    "agreement_lines",
    "agreement_measures",
    "bootstrap_interval",
    "cell_status",
    "cells_lines",
    "difference_interval",
    "disagreeing",
    "evidence_frame",
    "explanations",
    "gm_ratio_interval",
    "gm_ratio_run_spread",
    "known_disagreement_lines",
    "known_disagreements_for",
    "mean_intervals",
    "printed_cells",
    "run_spread",
    "run_spreads",
    "sign_evidence",
    "significance_held",
    "significance_rows",
    "signed_differences",
    "table_agreement",
    "value_evidence",
    "with_agreement_section",
    "with_difference_intervals",
    "with_known_disagreements",
]

NOT_RUN = "not run"
NEVER_REACHED = "never reached the target"
AGREES = "agrees"
DISAGREES = "disagrees"
CELL_STATUSES: tuple[str, ...] = (NOT_RUN, NEVER_REACHED, AGREES, DISAGREES)
"""A published cell's status: the system did not run; it ran but never reached the target
error (Table 6.1's "-"); the published value is inside the reproduced 95 % interval; it is not."""
REPRODUCED: tuple[str, ...] = (AGREES, DISAGREES)
"""The statuses of a cell with a reproduced value to set beside the published one."""

PRINTED_ROUNDING = 0.005
"""Half the last printed digit of the sources' two-decimal values (accuracies, reductions,
Oza's four-decimal fractions once in percent): a published value this close to the
reproduced interval is inside it."""

BOOTSTRAP_LEVEL = 0.95
"""The level of every interval the reports print."""
BOOTSTRAP_REPLICATES = 1000
"""Enough for the 2.5 % and 97.5 % percentiles to move by a small fraction of the interval."""


@lru_cache(maxsize=64)
def _replicate_weights(n: int, replicates: int, seed: int) -> np.ndarray:
    """``weights[i, j]``: how often replicate ``i`` drew fold ``j``, over ``n`` (so a mean
    over the drawn folds is one product). The same for every cell with ``n`` folds and the
    same seed, hence cached; read-only."""
    rng = np.random.default_rng(seed)
    draws = rng.integers(0, n, size=(replicates, n))
    weights = np.zeros((replicates, n))
    np.add.at(weights, (np.repeat(np.arange(replicates), n), draws.ravel()), 1.0 / n)
    weights.setflags(write=False)
    return weights


def _percentile_interval(values: np.ndarray, replicates: int, level: float) -> tuple[float, float]:
    values = values[np.isfinite(values)]
    if values.size < replicates / 2:
        return float("nan"), float("nan")
    tail = 100.0 * (1.0 - level) / 2.0
    low, high = np.percentile(values, [tail, 100.0 - tail])
    return float(low), float(high)


def bootstrap_interval(statistic: Callable[..., float], *fold_matrices: np.ndarray,
                       level: float = BOOTSTRAP_LEVEL, replicates: int = BOOTSTRAP_REPLICATES,
                       seed: int = 0, vectorized: bool = False, centered: bool = True) -> tuple[float, float]:
    """Interval of a statistic of mean curves under resampling the folds, centred on its value.

    Every matrix has one row per (run, fold) and one column per curve point, paired across
    the matrices (the same split's curves of two systems). A replicate draws rows with
    replacement, averages the *same* rows of every matrix into mean curves and hands those
    to ``statistic(*mean_curves)``, which computes the cell from them exactly as the report
    does from the full set of folds (every summary of chapters 6–8 is a function of the
    systems' mean curves), so the interval is the spread of that very number, not of a
    per-fold proxy. Replicates where the statistic is undefined (NaN: e.g. a curve that
    never reaches its target) are left out; NaN if fewer than half of them are defined, or
    with fewer than two folds. Deterministic for a given ``seed``.

    ``vectorized``: ``statistic`` takes the replicates' mean curves as matrices (one row per
    replicate) and returns one value per row, the same arithmetic row by row as on one
    curve; a thousand replicates are then a few array operations instead of a thousand calls.

    ``centered`` (default): the percentile interval of the replicates is moved by the
    statistic's value on all folds minus the replicates' mean, so that it is the spread of
    the statistic around its own value. Many of these statistics are not linear in the curves:
    the top 20 % of reductions selects the largest, a first crossing the earliest, and a
    replicate's noisier mean curves push both one way (on chapter 6's committed records the
    top-20 % value sits at the 15th percentile of its replicates, median over 45 cells, an
    all-points mean at the 53rd). The plain percentile interval then misses another
    estimate of the same quantity on one side: with chapter 6's records split into runs 0
    and 1, one run's top-20 % value fell below the other run's interval 45 times and above it
    5 times (150 cells); centred, 25 and 19 times, as balanced as the all-points mean's
    misses (21 and 32), and likewise for the examples to reach the target
    (``reproduced/ch6_readings/readings.md``, "Intervals"). ``centered=False``: the plain
    percentile interval. An undefined value on all folds (NaN) leaves the interval uncentred.
    """
    if not fold_matrices:
        raise ValueError("bootstrap_interval needs at least one matrix of per-fold values")
    arrays = [np.asarray(m, dtype=np.float64) for m in fold_matrices]
    n = arrays[0].shape[0]
    if any(a.ndim != 2 or a.shape[0] != n for a in arrays):
        raise ValueError(f"the matrices must be 2-D with one row per fold each, got {[a.shape for a in arrays]}")
    if not 0 < level < 1:
        raise ValueError(f"level must be in (0, 1), got {level!r}")
    if n < 2:
        return float("nan"), float("nan")
    weights = _replicate_weights(n, replicates, seed)
    curves = [matmul(weights, a) for a in arrays]
    if vectorized:
        values = np.asarray(statistic(*curves), dtype=np.float64)
    else:
        values = np.array([statistic(*(c[i] for c in curves)) for i in range(replicates)], dtype=np.float64)
    low, high = _percentile_interval(values, replicates, level)
    if centered and np.isfinite(low):
        means = [a.mean(axis=0) for a in arrays]
        value = (float(np.asarray(statistic(*(m[None, :] for m in means)), dtype=np.float64)[0]) if vectorized
                 else float(statistic(*means)))  # fmt: skip
        low, high = _centred(low, high, values, value)
    return low, high


def _centred(low: float, high: float, values: np.ndarray, value: float) -> tuple[float, float]:
    """The percentile interval ``low, high`` of the replicates ``values`` moved by the
    statistic's ``value`` minus the replicates' mean (see :func:`bootstrap_interval`,
    ``centered``); unmoved when ``value`` or the interval is undefined."""
    if not (np.isfinite(value) and np.isfinite(low)):
        return low, high
    shift = value - float(values[np.isfinite(values)].mean())
    return low + shift, high + shift


def gm_ratio_interval(pairs: Sequence[tuple[np.ndarray, np.ndarray]], *, level: float = BOOTSTRAP_LEVEL,
                      replicates: int = BOOTSTRAP_REPLICATES, seed: int = 0) -> tuple[float, float]:
    """Interval of the geometric mean over datasets of E_A / E_B (E = 100 − mean accuracy in
    %: the GM error ratio of chapter 4's summary rows), centred on its value as
    :func:`bootstrap_interval` centres.

    ``pairs``: per dataset, A's and B's accuracies of the same (run, fold) splits. Each
    dataset's splits are resampled as :func:`bootstrap_interval` resamples a curve's, the same
    draws for A and B (paired), and independently of the other datasets' (their splits have
    nothing in common). Why: a table that prints only its summary rows (Tables 4.8–4.16) has
    no accuracy to set inside an interval but its GM ratios; without one, whether a printed
    ratio is within the reproduction's noise could not be told, only its side of 1. NaN with
    no dataset, a dataset of fewer than two splits, or fewer than half the replicates finite
    (a zero error)."""
    if not pairs:
        return float("nan"), float("nan")
    logs = np.zeros(replicates)
    value = 0.0
    with np.errstate(divide="ignore", invalid="ignore"):
        for i, (a, b) in enumerate(pairs):
            a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
            if a.shape != b.shape or a.ndim != 1:
                raise ValueError(f"dataset {i}: A and B need one accuracy per split each, got {a.shape}, {b.shape}")
            if a.size < 2:
                return float("nan"), float("nan")
            weights = _replicate_weights(a.size, replicates, seed + i)
            logs += np.log(100.0 - matvec(weights, a)) - np.log(100.0 - matvec(weights, b))
            value += float(np.log(100.0 - a.mean()) - np.log(100.0 - b.mean()))
        values = np.exp(logs / len(pairs))
        value = float(np.exp(value / len(pairs)))
    return _centred(*_percentile_interval(values, replicates, level), values, value)


def gm_ratio_run_spread(pairs: Sequence[tuple[np.ndarray, np.ndarray, np.ndarray]]) -> tuple[float, int]:
    """(standard deviation over runs, runs) of the GM error ratio of
    :func:`gm_ratio_interval`, each run's ratio from its own folds' means. ``pairs``: per
    dataset, A's and B's accuracies of the same splits and each split's run. Only the runs
    every dataset has count."""
    if not pairs:
        return float("nan"), 0
    runs = sorted(set.intersection(*(set(np.asarray(r).tolist()) for _, _, r in pairs)))
    values = []
    with np.errstate(divide="ignore", invalid="ignore"):
        for run in runs:
            logs = 0.0
            for a, b, r in pairs:
                mine = np.asarray(r) == run
                logs += float(np.log(100.0 - np.asarray(a, dtype=np.float64)[mine].mean())
                              - np.log(100.0 - np.asarray(b, dtype=np.float64)[mine].mean()))
            value = float(np.exp(logs / len(pairs)))
            if np.isfinite(value):
                values.append(value)
    if len(values) < 2:
        return float("nan"), len(values)
    return float(np.std(np.asarray(values), ddof=1)), len(values)


def mean_intervals(records: pd.DataFrame, keys: Sequence[str], *, value: str = "value",
                   level: float = BOOTSTRAP_LEVEL, replicates: int = BOOTSTRAP_REPLICATES,
                   seed: int = 0) -> pd.DataFrame:
    """95 % intervals of the mean of ``value`` per group of ``keys``, over its runs × folds.

    The printed cells of chapters 4–5, of Bommaganti's and of Oza's tables are means over the
    (run, fold) splits (an online learner's value of a split is its mean over the stream
    orders). Each group's splits are resampled exactly as :func:`bootstrap_interval`
    resamples the rows of a curve matrix (the same draws for the same number of splits), so
    the intervals of every chapter mean the same thing; the means of all groups with the
    same number of splits are one matrix product. Columns: ``keys``, ``low``, ``high``.
    """
    splits = records.groupby([*keys, "run", "fold"], sort=True, observed=True)[value].mean()
    spread = run_spreads(splits, keys)
    rows: list[tuple[object, ...]] = []
    matrices: dict[int, list[tuple[tuple[object, ...], np.ndarray]]] = {}
    for key, values in splits.groupby(level=list(range(len(keys))), sort=True):
        key = key if isinstance(key, tuple) else (key,)
        matrices.setdefault(len(values), []).append((key, values.to_numpy(dtype=np.float64)))
    for n, groups in matrices.items():
        if n < 2:
            rows += [(*key, np.nan, np.nan) for key, _ in groups]
            continue
        means = matmul(np.vstack([v for _, v in groups]), _replicate_weights(n, replicates, seed).T)
        for (key, _), replicate_means in zip(groups, means, strict=True):
            rows.append((*key, *_percentile_interval(replicate_means, replicates, level)))
    out = pd.DataFrame(rows, columns=[*keys, "low", "high"])
    counts = splits.groupby(level=list(keys), sort=True, observed=True).size().rename("splits").reset_index()
    if not len(out):
        return out.assign(run_sd=np.nan, runs=0, splits=0)
    return out.merge(spread, on=list(keys), how="left").merge(counts, on=list(keys), how="left")


def run_spreads(splits: pd.Series, keys: Sequence[str]) -> pd.DataFrame:
    """Per group of ``keys``: the standard deviation over runs of the group's per-run mean
    (``run_sd``, ddof = 1; NaN with one run) and the number of runs (``runs``).

    ``splits``: one value per (*keys, run, fold). A run is one whole k-fold cross-validation,
    so its mean is an estimate of the cell as the source made it, once; the spread of such
    estimates is what makes a published mean and ours differ (:func:`difference_half_width`).
    The folds of a run are not independent (their training sets overlap), which is why a
    bootstrap over runs × folds gives intervals too narrow for that question."""
    per_run = splits.groupby(level=[*keys, "run"], sort=True, observed=True).mean()
    grouped = per_run.groupby(level=list(keys), sort=True, observed=True)
    out = pd.DataFrame({"run_sd": grouped.std(ddof=1), "runs": grouped.count()}).reset_index()
    return out


def run_spread(statistic: Callable[..., float], runs: Sequence[object] | np.ndarray, *fold_matrices: np.ndarray,
               vectorized: bool = False) -> tuple[float, int]:
    """(standard deviation over runs, number of runs) of a statistic of mean curves, each run's
    value computed from the mean curves of its own folds (the rows of ``fold_matrices`` whose
    ``runs`` label is that run), as :func:`bootstrap_interval` computes it from a replicate's.
    Runs whose value is undefined (NaN) are left out; NaN spread with fewer than two."""
    labels = np.asarray(runs)
    values = []
    for run in sorted(set(labels.tolist())):
        rows = labels == run
        means = [np.asarray(m, dtype=np.float64)[rows].mean(axis=0) for m in fold_matrices]
        value = (float(np.asarray(statistic(*(m[None, :] for m in means)), dtype=np.float64)[0]) if vectorized
                 else float(statistic(*means)))  # fmt: skip
        if np.isfinite(value):
            values.append(value)
    if len(values) < 2:
        return float("nan"), len(values)
    return float(np.std(np.asarray(values), ddof=1)), len(values)


MIN_SPREAD_RUNS = 3
"""From this many runs on, a cell's standard error is estimated from the spread of its runs;
below (chapter 6's protocol has two runs: one degree of freedom), from the splits."""


def difference_interval(run_sd: float, runs: int, *, low: float = float("nan"), high: float = float("nan"),
                        splits: int = 0, level: float = BOOTSTRAP_LEVEL) -> tuple[float, float]:
    """(half-width, degrees of freedom) of the ``level`` interval of reproduced − published,
    two independent estimates of one cell: ``t · √(se_rep² + se_pub²)``.

    The sources print no standard errors; the published value is an estimate by the same
    protocol (as many runs of the same cross-validation), so its error is taken to be ours,
    se_pub = se_rep. With at least :data:`MIN_SPREAD_RUNS` runs, se_rep = run_sd / √runs,
    the spread of the runs' own estimates, and Student's t on runs − 1 degrees of freedom.
    With fewer, the spread of two runs is an estimate on one degree of freedom, so se_rep is
    taken from the paired bootstrap over the ``splits`` runs × folds (the interval ``low``,
    ``high``: its standard error (high − low) / 3.92) inflated by Nadeau & Bengio's
    √(1 + J · n_test / n_train) = √(1 + J / (k − 1)) for the overlap of the folds' training
    sets (J splits, k folds per run), on J − 1 degrees of freedom. (NaN, NaN) when neither
    can be computed."""
    if runs >= MIN_SPREAD_RUNS and np.isfinite(run_sd):
        se = run_sd / np.sqrt(runs)
        return replication_tests.difference_half_width(se, se, runs - 1, level), float(runs - 1)
    folds = splits / runs if runs >= 1 else 0
    if np.isfinite(low) and np.isfinite(high) and splits >= 2 and folds >= 2:
        se = (high - low) / (2.0 * replication_tests.t_quantile(0.5 + level / 2.0, np.inf)) \
            * np.sqrt(1.0 + splits / (folds - 1.0))
        return replication_tests.difference_half_width(se, se, splits - 1, level), float(splits - 1)
    return float("nan"), float("nan")


def cell_status(published: float, reproduced: float, low: float, high: float, *, ran: bool,
                tolerance: float = 0.0, half_width: float = float("nan")) -> str:
    """One of :data:`CELL_STATUSES` for a published cell.

    ``ran`` says whether the system has records for the dataset; a NaN ``reproduced`` of a
    system that ran is a target it never reached. With a ``half_width`` of the interval of
    the difference of two independent estimates (:func:`difference_half_width`), a cell
    agrees when ``|published − reproduced| ≤ half_width + tolerance``: the test of a
    published mean that is itself noisy. Without one (a single run: no run-to-run spread),
    a published value agrees when ``low - tolerance ≤ published ≤ high + tolerance``, inside
    the reproduced mean's own interval (``tolerance`` absorbs the printed rounding, e.g.
    0.005 for two decimals); without either, only if it equals the reproduced value within
    ``tolerance``.
    """
    if not ran:
        return NOT_RUN
    if reproduced is None or not np.isfinite(reproduced):
        return NEVER_REACHED
    if published is None or not np.isfinite(published):
        # the source's "-" (never reached) against a value we did reach
        return DISAGREES
    if np.isfinite(half_width):
        inside = abs(published - reproduced) <= half_width + tolerance
    elif np.isfinite(low) and np.isfinite(high):
        inside = low - tolerance <= published <= high + tolerance
    else:
        inside = abs(published - reproduced) <= tolerance
    return AGREES if inside else DISAGREES


def explanations(cells: pd.DataFrame, known: pd.DataFrame, *, system: str = "system") -> pd.Series:
    """The explanation of the first ``known_disagreements.tsv`` row that covers each cell
    (:func:`redecorate.report.published.explain_cells`: empty keys match any; ``system`` names
    the cells' column the TSV's system key is matched against, e.g. ``comparison`` for
    chapter 7's ``a_vs_b`` cells), whether or not the cell disagrees; ``""`` where none does."""
    from redecorate.report.published import explain_cells

    keyed = cells.copy()
    for column in ("table", "dataset", system):
        if column not in keyed.columns:
            keyed[column] = ""
    if "point" not in keyed.columns:
        keyed["point"] = np.nan
    return explain_cells(keyed, known, system=system) if len(keyed) else pd.Series(dtype=object)


def with_known_disagreements(cells: pd.DataFrame, known: pd.DataFrame, *, system: str = "system") -> pd.DataFrame:
    """``cells`` with a column ``known_disagreement``: for a cell that disagrees or never
    reached the target, its :func:`explanations`; empty for every other cell."""
    notes = explanations(cells, known, system=system)
    out = cells.copy()
    out["known_disagreement"] = notes.where(out["status"].isin([DISAGREES, NEVER_REACHED]), "") if len(out) else []
    return out


EVIDENCE_COLUMNS: tuple[str, ...] = (
    "table", "dataset", "system", "point", "statistic", "published", "reproduced", "low", "high",
    "status", "explanation", "printed", "signed", "half_width", "df", "rounding",
)  # fmt: skip
"""The one layout of every report's cells (:func:`evidence_frame`):

* ``table``: the published table key (``4.2``, ``7.4 (early)``); ``dataset`` (``""`` for a
  row over all datasets), ``system`` (a label, or ``A_vs_B`` for a comparison), ``point``
  (curve point or noise level, NaN if none) and ``statistic`` name the cell;
* ``published``, ``reproduced`` and the reproduced 95 % interval ``low``, ``high`` (NaN where
  the cell has none: a count, a ratio of means);
* ``status``: one of :data:`CELL_STATUSES`;
* ``explanation``: the known disagreement that covers the cell (:func:`explanations`), counted
  only where the cell disagrees;
* ``printed``: a number the source prints (scored by the inside share, the median |difference|
  and drawn in the replication report's scatter); ``signed``: a comparison whose sign says which
  side is ahead (scored by sign agreement and Spearman's correlation). A printed reduction is
  both; the difference of two printed accuracies is signed only;
* ``half_width`` and ``df``: the 95 % half-width of the interval of reproduced − published
  (:func:`difference_half_width`) and the degrees of freedom of its standard errors (NaN where
  the cell has no run-to-run spread: a single run, a count); ``rounding``: half the printed
  last digit, counted as inside.
"""


def evidence_frame(rows: pd.DataFrame | Iterable[Mapping[str, object]]) -> pd.DataFrame:
    """``rows`` in the :data:`EVIDENCE_COLUMNS` layout: missing text columns empty, missing
    numbers NaN, ``printed``/``signed`` False unless set; other columns dropped."""
    frame = pd.DataFrame(rows) if not isinstance(rows, pd.DataFrame) else rows.copy()
    for column in EVIDENCE_COLUMNS:
        if column not in frame.columns:
            frame[column] = (False if column in ("printed", "signed")
                             else "" if column in ("table", "dataset", "system", "statistic", "status", "explanation")
                             else np.nan)  # fmt: skip
    frame = frame[list(EVIDENCE_COLUMNS)].reset_index(drop=True)
    for column in ("published", "reproduced", "low", "high", "point", "half_width", "df", "rounding"):
        frame[column] = pd.to_numeric(frame[column], errors="coerce").astype(float)
    frame["rounding"] = frame["rounding"].fillna(PRINTED_ROUNDING)
    for column in ("table", "dataset", "system", "statistic", "status", "explanation"):
        frame[column] = frame[column].fillna("").astype(str)
    for column in ("printed", "signed"):
        frame[column] = frame[column].fillna(False).astype(bool)
    return frame


def printed_cells(cells: pd.DataFrame, intervals: pd.DataFrame, keys: Sequence[str], *,
                  ran: pd.Series | None = None, tolerance: float = PRINTED_ROUNDING,
                  signed: bool = False) -> pd.DataFrame:
    """Printed cells (``published``, ``reproduced`` and the ``keys`` that name them) with the
    interval of :func:`mean_intervals` joined on ``keys`` and their status.

    ``ran``: whether each cell's system ran on its dataset (default: it did where there is a
    reproduced value). ``signed``: the printed value is itself a comparison (a reduction).
    """
    cells = cells.assign(_ran=cells["reproduced"].notna() if ran is None else ran.astype(bool))
    out = (cells.merge(intervals, on=list(keys), how="left") if len(intervals)
           else cells.assign(low=np.nan, high=np.nan))  # fmt: skip
    out = with_difference_intervals(out)
    out["status"] = [cell_status(p, r, lo, hi, ran=bool(k), tolerance=tolerance, half_width=h)
                     for p, r, lo, hi, k, h in zip(out["published"], out["reproduced"], out["low"], out["high"],
                                                   out["_ran"], out["half_width"], strict=True)]  # fmt: skip
    return out.drop(columns="_ran").assign(printed=True, signed=signed, rounding=tolerance)


def with_difference_intervals(cells: pd.DataFrame) -> pd.DataFrame:
    """``cells`` with ``half_width`` and ``df`` of the difference interval computed from their
    ``run_sd``, ``runs``, ``splits`` and bootstrap interval (:func:`difference_interval`; NaN
    where they are missing)."""
    out = cells.copy()

    def column(name: str, default: float) -> pd.Series:
        values = out[name] if name in out.columns else pd.Series(default, index=out.index)
        return pd.to_numeric(values, errors="coerce").astype(float)

    sd, runs, splits = column("run_sd", np.nan), column("runs", 0).fillna(0), column("splits", 0).fillna(0)
    low, high = column("low", np.nan), column("high", np.nan)
    found = [difference_interval(float(d), int(r), low=float(lo), high=float(hi), splits=int(n))
             for d, r, lo, hi, n in zip(sd, runs, low, high, splits, strict=True)]
    out["half_width"] = [h for h, _ in found]
    out["df"] = [f for _, f in found]
    return out


def signed_differences(cells: pd.DataFrame, pairs: Iterable[tuple[str, str, str]], *,
                       lower_better: bool = False) -> pd.DataFrame:
    """Signed cells from printed ones: per table ``(table, a, b)`` of ``pairs`` and per
    (dataset, point), A − B published and reproduced (B − A where ``lower_better``, e.g. an
    error), so that a positive value means A ahead in both. ``cells`` are evidence rows of
    the printed values of both systems under ``table``; a difference is covered by the
    explanation of either cell.
    """
    rows = []
    for table, a, b in pairs:
        here = cells[(cells["table"] == table) & cells["printed"]]
        both = here[here["system"] == a].merge(here[here["system"] == b], on=["dataset", "point"],
                                               suffixes=("_a", "_b"))  # NaN points match NaN
        sign = -1.0 if lower_better else 1.0
        for _, r in both.iterrows():
            rows.append({"table": table, "dataset": r["dataset"], "system": f"{a}_vs_{b}", "point": r["point"],
                         "statistic": f"{r['statistic_a']} difference",
                         "published": sign * (r["published_a"] - r["published_b"]),
                         "reproduced": sign * (r["reproduced_a"] - r["reproduced_b"]),
                         "status": NOT_RUN if NOT_RUN in (r["status_a"], r["status_b"]) else "",
                         "explanation": r["explanation_a"] or r["explanation_b"], "signed": True})  # fmt: skip
    return evidence_frame(rows)


SIG_PAIRED = "sig_w - sig_l"
"""The statistic of a Sig. W − L row under the thesis's paired t-test."""
SIG_CORRECTED = "sig_w - sig_l (corrected t-test)"
"""The same conclusion under the corrected resampled t-test (Nadeau & Bengio), which the
thesis does not use: an evidence row that no measure scores, read by :func:`significance_held`."""


def significance_rows(conclusions: pd.DataFrame, *, scored: bool) -> pd.DataFrame:
    """Evidence rows of each published Sig. W/D/L conclusion (a row of
    :func:`redecorate.report.replication.check_conclusions`): W − L published beside ours
    under the paired t-test (:data:`SIG_PAIRED`, signed when ``scored``) and under the
    corrected test (:data:`SIG_CORRECTED`, never scored)."""
    def w_minus_l(wdl: object) -> float:
        if not isinstance(wdl, str) or not wdl:
            return np.nan
        w, _, l_ = (int(v) for v in wdl.split("/"))
        return float(w - l_)

    rows = []
    for r in conclusions.itertuples():
        published = w_minus_l(r.published_sig_wdl)
        if not np.isfinite(published):
            continue
        key = {"table": r.table, "system": r.comparison, "point": r.point}
        rows += [{**key, "statistic": SIG_PAIRED, "published": published,
                  "reproduced": w_minus_l(r.reproduced_sig_wdl), "signed": scored},
                 {**key, "statistic": SIG_CORRECTED, "published": published,
                  "reproduced": w_minus_l(getattr(r, "reproduced_sig_wdl_corrected", ""))}]  # fmt: skip
    return evidence_frame(rows)


def significance_held(evidence: pd.DataFrame) -> str:
    """"k of n; k' of n": the published Sig. W − L sides held under the thesis's paired
    t-test and under the corrected resampled t-test ("–" for a table without them)."""
    parts = []
    for statistic in (SIG_PAIRED, SIG_CORRECTED):
        rows = evidence[(evidence["statistic"] == statistic) & evidence["published"].notna()
                        & evidence["reproduced"].notna()]  # fmt: skip
        if rows.empty:
            return "–"
        held = int((cell_signs(rows["published"]) == cell_signs(rows["reproduced"])).sum())
        parts.append(f"{held} of {len(rows)}")
    return "; ".join(parts)


def disagreeing(evidence: pd.DataFrame) -> pd.Series:
    """Which evidence rows disagree with the source: a printed cell outside its interval (or
    never reaching a target the source reached), or a signed cell whose sign is not the
    published one. A printed cell without an interval (a count, a pooled correlation) cannot
    be judged outside one and disagrees only through its sign."""
    bounded = (evidence["low"].notna() & evidence["high"].notna()) | evidence["half_width"].notna()
    printed = evidence["printed"] & (((evidence["status"] == DISAGREES) & bounded)
                                     | (evidence["status"] == NEVER_REACHED))
    both = evidence["published"].notna() & evidence["reproduced"].notna()
    sign = evidence["signed"] & both & (cell_signs(evidence["published"]) != cell_signs(evidence["reproduced"]))
    return printed | sign


def known_disagreements_for(published_paths: Sequence[str | os.PathLike[str]]) -> pd.DataFrame:
    """The known disagreements beside an experiment's published tables (the TSV lives in the
    same directory as the transcribed tables); empty when there is none."""
    from redecorate.report.published import DISAGREEMENTS_FILE, read_disagreements

    paths = [Path(p) for p in published_paths]
    return read_disagreements(paths[0].parent / DISAGREEMENTS_FILE if paths else None)


def sign_evidence(signed: pd.DataFrame) -> dict[str, object]:
    """The signed cells against the trivial prediction, as the verdict tests them.

    The trivial prediction is the best constant one given the *published* signs ("always
    positive" when at least as many published values are positive as negative, else "always
    negative"), so it needs no record at all. ``trivial``: its share of cells right;
    ``minority``: the cells it must miss; ``better`` / ``worse``: the cells the reproduction
    gets right and it wrong, and the reverse; ``sign_p``: the one-sided exact McNemar test of
    those (:func:`redecorate.stats.replication_tests.mcnemar_exact`), and ``worse_p`` the same
    test the other way (the reproduction significantly *worse* than the trivial prediction: its
    signs contradict the source's beyond chance); ``cluster_p``: the same
    comparison with every dataset's cells flipped together
    (:func:`~redecorate.stats.replication_tests.cluster_sign_flip`; a row over all datasets
    is a cluster of its own)."""
    pub, rep = cell_signs(signed["published"]), cell_signs(signed["reproduced"])
    n = len(signed)
    if n == 0:
        return {"compared": 0, "sign_agreement": np.nan, "trivial": np.nan, "minority": 0, "better": 0,
                "worse": 0, "sign_p": np.nan, "worse_p": np.nan, "cluster_p": np.nan}
    majority = 1.0 if (pub > 0).sum() >= (pub < 0).sum() else -1.0
    right, trivial_right = pub == rep, pub == majority
    clusters = [d if d else f"\x00row{i}" for i, d in enumerate(signed["dataset"].astype(str))]
    by_cluster: dict[str, int] = {}
    for cluster, mine, theirs in zip(clusters, right, trivial_right, strict=True):
        by_cluster[cluster] = by_cluster.get(cluster, 0) + int(mine) - int(theirs)
    better, worse = int((right & ~trivial_right).sum()), int((~right & trivial_right).sum())
    return {"compared": n, "sign_agreement": float(right.mean()), "trivial": float(trivial_right.mean()),
            "minority": int(n - trivial_right.sum()), "better": better, "worse": worse,
            "sign_p": replication_tests.mcnemar_exact(better, worse),
            "worse_p": replication_tests.mcnemar_exact(worse, better),
            "cluster_p": replication_tests.cluster_sign_flip([by_cluster[c] for c in sorted(by_cluster)])}


EQUIVALENCE_MARGIN = 1.0
"""The margin of the equivalence test (TOST) the report states: one percentage point."""


def value_evidence(printed: pd.DataFrame) -> dict[str, object]:
    """The printed cells against the interval of the difference of two noisy estimates.

    ``value_cells``: reproduced cells with a difference interval (a run-to-run spread);
    ``value_share``: the share of them whose published value lies within ``half_width`` (plus
    the printed rounding) of ours; ``median_half_width``; and the equivalence test at
    ±:data:`EQUIVALENCE_MARGIN` (two one-sided tests at 5 %, i.e. the 90 % interval of the
    difference inside the margin): ``equivalence_possible``, the share of cells whose 90 %
    half-width is below the margin, so that equivalence could be shown at all, and
    ``equivalence_shown``, the share where it is."""
    scored = printed[printed["status"].isin(REPRODUCED) & printed["half_width"].notna()
                     & printed["published"].notna() & printed["reproduced"].notna()]  # fmt: skip
    if scored.empty:
        return {"value_cells": 0, "value_share": np.nan, "median_half_width": np.nan,
                "equivalence_possible": np.nan, "equivalence_shown": np.nan}
    gap = (scored["reproduced"] - scored["published"]).abs()
    inside = gap <= scored["half_width"] + scored["rounding"]
    ratio = np.array([replication_tests.t_quantile(0.95, d) / replication_tests.t_quantile(0.975, d)
                      for d in scored["df"]])
    half90 = scored["half_width"].to_numpy() * ratio
    return {"value_cells": len(scored), "value_share": float(inside.mean()),
            "median_half_width": float(scored["half_width"].median()),
            "equivalence_possible": float((half90 < EQUIVALENCE_MARGIN).mean()),
            "equivalence_shown": float((gap.to_numpy() + half90 < EQUIVALENCE_MARGIN).mean())}


def agreement_measures(evidence: pd.DataFrame) -> dict[str, object]:
    """The measures every report gives, of one group of evidence rows (:data:`EVIDENCE_COLUMNS`).

    Of the printed cells: ``cells`` (published), ``reproduced`` (with a value),
    ``median_abs_difference`` and ``inside_interval`` (share of the reproduced cells *with an
    interval* whose status is *agrees*: within the difference interval where the cell has
    one, else inside our mean's interval; a cell that never reached its target has no value
    and does not count), and :func:`value_evidence`. Of the signed cells:
    :func:`sign_evidence` and ``spearman`` (published vs reproduced values, pair by pair).
    ``disagreeing`` and ``explained``: rows that disagree (:func:`disagreeing`), and those of
    them a known disagreement covers. Then the count of printed cells per status.
    """
    group = evidence_frame(evidence)
    printed = group[group["printed"]]
    done = printed[printed["status"].isin(REPRODUCED)]
    bounded = done[(done["low"].notna() & done["high"].notna()) | done["half_width"].notna()]
    signed = group[group["signed"] & group["published"].notna() & group["reproduced"].notna()]
    wrong = group[disagreeing(group)]
    measures: dict[str, object] = {
        "cells": len(printed), "reproduced": len(done),
        "median_abs_difference": float((done["reproduced"] - done["published"]).abs().median()) if len(done) else np.nan,
        "inside_interval": float((bounded["status"] == AGREES).mean()) if len(bounded) else np.nan,
        **value_evidence(printed),
        **sign_evidence(signed),
        "spearman": rank_correlation(signed["reproduced"], signed["published"]),
        "disagreeing": len(wrong), "explained": int((wrong["explanation"] != "").sum()),
    }  # fmt: skip
    for status in CELL_STATUSES:
        measures[status] = int((printed["status"] == status).sum())
    return measures


def table_agreement(evidence: pd.DataFrame, *, by: Sequence[str] = ("table",)) -> pd.DataFrame:
    """:func:`agreement_measures` per group of ``by`` keys, one row each."""
    frame = evidence_frame(evidence)
    rows = []
    for key, group in frame.groupby(list(by), sort=False):
        key = key if isinstance(key, tuple) else (key,)
        rows.append({**dict(zip(by, key, strict=True)), **agreement_measures(group)})
    return pd.DataFrame(rows)


AGREEMENT_LEGEND = (
    "*Median |diff.|*: of the printed cells reproduced; *within*: share of them whose published "
    "value lies within the 95 % interval of the difference of two independent estimates of the cell "
    "(ours and the source's, both standard errors from the spread of our runs; docs/experiments.md, "
    "\"How agreement is judged\"), and how many have one; *sign* / *trivial*: share of the signed cells "
    "(reductions, differences between two systems) with the published sign, and what the best constant "
    "prediction (always positive, or always negative) scores on them; *p*: the one-sided exact McNemar "
    "test of the reproduction against that prediction, and *clustered p* the same with every dataset's "
    "cells flipped together; *Spearman*: rank correlation of their published and reproduced values. Then "
    "the count of printed cells per status.")
"""What the columns of every "Agreement per table" section mean."""


def agreement_lines(evidence: pd.DataFrame, *, by: Sequence[str] = ("table", "statistic")) -> list[str]:
    """Markdown: the measures of :func:`table_agreement` per group, with their legend.

    The counts of a report's cells mean little alone, so every row sets the share of
    published values within the difference interval beside per-cell sign agreement, what
    the trivial prediction scores, the test of the difference, and the rank correlation.
    """
    frame = evidence_frame(evidence)
    summary = table_agreement(frame[frame["printed"] | frame["signed"]], by=by)
    if summary.empty:
        return []

    def p(value: object) -> str:
        v = float(value)  # type: ignore[arg-type]
        return "–" if not np.isfinite(v) else ("<0.001" if v < 0.001 else f"{v:.3f}")

    body = [[*(str(r[k]) for k in by), str(r["cells"]), str(r["reproduced"]), fmt(r["median_abs_difference"]),
             f"{fmt(r['value_share'])} ({r['value_cells']})", str(r["compared"]), fmt(r["sign_agreement"]),
             fmt(r["trivial"]), p(r["sign_p"]), p(r["cluster_p"]), fmt(r["spearman"]),
             *(str(r[s]) for s in CELL_STATUSES)] for _, r in summary.iterrows()]  # fmt: skip
    lines = ["## Agreement per table", "", AGREEMENT_LEGEND, "",
             markdown_table([*(k.capitalize() for k in by), "Cells", "Reproduced", "Median |diff.|", "Within (n)",
                             "Signed", "Sign", "Trivial", "p", "Clustered p", "Spearman",
                             *(s.capitalize() for s in CELL_STATUSES)], body), ""]  # fmt: skip
    notes = known_disagreement_lines(evidence)
    if notes:
        lines += ["## Known disagreements", "",
                  f"{int(summary['explained'].sum())} of the {int(summary['disagreeing'].sum())} disagreeing "
                  "cells (a printed value outside its interval, or a signed cell against the "
                  "published sign) have a recorded cause (`config/published/known_disagreements.tsv`, each with "
                  "its evidence):", "", *notes, ""]  # fmt: skip
    return lines


def known_disagreement_lines(evidence: pd.DataFrame, *, label: str | None = None) -> list[str]:
    """Markdown bullets: each known disagreement behind disagreeing cells (:func:`disagreeing`)
    once, under ``label`` or the tables it covers, with the number of cells and their datasets.

    Why: a disagreement with a recorded cause is neither hidden nor a new failure; the report of
    the experiment and the replication report of every table say the same thing the same way.
    """
    frame = evidence_frame(evidence)
    wrong = frame[disagreeing(frame) & (frame["explanation"] != "")]
    notes = []
    for text, group in wrong.groupby("explanation", sort=False):
        tables = list(dict.fromkeys(str(t) for t in group["table"] if t))
        name = label or (f"Table{'s' if len(tables) > 1 else ''} {', '.join(tables)}" if tables else "")
        where = ", ".join(sorted({str(d) for d in group["dataset"] if d})) or "all datasets"
        notes.append(f"- **{name}** ({len(group)} cell{'' if len(group) == 1 else 's'}; {where}): {text}")
    return notes


def with_agreement_section(markdown: str, evidence: pd.DataFrame, *, by: Sequence[str] = ("table",)) -> str:
    """``markdown`` (a report) with the :func:`agreement_lines` section before its first
    ``## `` heading, so every chapter's report opens on the same measures."""
    lines = agreement_lines(evidence, by=by)
    if not lines:
        return markdown
    head, sep, rest = markdown.partition("\n## ")
    section = "\n".join(lines)
    return f"{head}\n{section}\n## {rest}" if sep else f"{markdown.rstrip()}\n\n{section}\n"


def cells_lines(cells: pd.DataFrame, keys: Sequence[str]) -> list[str]:
    """Markdown: every published cell (``keys`` name it) with the reproduced value, its 95 %
    interval, the difference, the status and the known disagreement that explains it."""
    def interval(row: pd.Series) -> str:
        low, high = row.get("low", np.nan), row.get("high", np.nan)
        return "–" if not (np.isfinite(low) and np.isfinite(high)) else f"[{low:.2f}, {high:.2f}]"

    body = [[*(str(r[k]) for k in keys), fmt(r["published"]), fmt(r["reproduced"]), interval(r),
             fmt(r["difference"]), str(r["status"]), str(r.get("known_disagreement", "") or "")]
            for _, r in cells.iterrows()]  # fmt: skip
    return [markdown_table([*(k.capitalize() for k in keys), "Published", "Reproduced", "95 % interval",
                            "Difference", "Status", "Known disagreement"], body), ""]
