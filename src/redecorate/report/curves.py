"""What the learning-curve reports of chapters 6–8 share: per-fold curves lined up, and the
rules every one of them applies to its cells.

Chapter 6 (:mod:`redecorate.report.active_learning`), chapter 7
(:mod:`redecorate.report.probability`) and chapter 8 (:mod:`redecorate.report.acquisition`)
all start from the same object: one system's metric per (run, fold) × curve point, set
beside another system's on the same splits. Lining the folds up (by labeled-set size or by
batch number), keeping only the points both systems reached on every fold, calling a
reduction significant, and deciding whether a run is comparable with the source are the same
steps for all three, so they live here once, public, for the reports and for the scripts
that score other readings of the tables (``reproduced/*/readings.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from redecorate.report.agreement import REPRODUCED
from redecorate.report.conclusions import comparability
from redecorate.stats.summary import ALIGNMENTS, by_batch

if TYPE_CHECKING:
    from redecorate.protocol.settings import ReportSettings

__all__ = [
    "ALIGNMENTS", "ALPHA", "cells_comparability", "common_points", "common_runs",
    "fold_curve_pair", "fold_errors", "fold_values", "ran_datasets", "with_records", "significant_reduction",
    "wdl_comparability",
]

ALPHA = 0.05
"""Significance level of the paired t-tests behind the tables' bold cells and w/d/l."""

def fold_values(records: pd.DataFrame, dataset: str, system: str, metric: str,
                align: str = "size") -> pd.DataFrame:
    """One metric per (run, fold) × curve point of one system on one dataset.

    ``align="size"``: columns are labeled-set sizes. ``align="batch"``: columns are the
    point's position in its fold's curve (0 = the initial set), so folds whose pools differ
    by an example still average their i-th batches together instead of dropping every point
    whose size not all folds share.
    """
    if align not in ALIGNMENTS:
        raise ValueError(f"align must be one of {ALIGNMENTS}, got {align!r}")
    rows = records[(records["dataset"] == dataset) & (records["algorithm"] == system)
                   & (records["metric"] == metric)]  # fmt: skip
    if align == "batch":
        rows = by_batch(rows)
    return rows.pivot_table(index=["run", "fold"], columns="point", values="value")


def fold_errors(records: pd.DataFrame, dataset: str, system: str) -> pd.DataFrame:
    """Test error (%) per (run, fold) × labeled-set size of one system on one dataset."""
    return 100.0 - fold_values(records, dataset, system, "accuracy")


def common_points(a: pd.DataFrame, b: pd.DataFrame) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Two systems' per-fold values (:func:`fold_values`) on the (run, fold)s both ran and
    at the points every one of them reached: ``(points, a, b)`` as arrays, one row per fold.

    Averaging a point only some folds reached would mix unequal sets of splits, so a mean
    curve of the reports is always over this common part.
    """
    index = a.index.intersection(b.index)
    a, b = a.loc[index], b.loc[index]
    shared = a.columns.intersection(b.columns)
    complete = a[shared].notna().all(axis=0) & b[shared].notna().all(axis=0)
    columns = list(shared[complete.to_numpy()])
    if not columns:
        raise ValueError("the two systems' curves share no labeled-set size")
    return np.asarray(columns, dtype=np.int64), a[columns].to_numpy(), b[columns].to_numpy()


def common_runs(a: pd.DataFrame, b: pd.DataFrame) -> np.ndarray:
    """The run of each row :func:`common_points` returns, in its order: what a statistic's
    spread over runs is computed from (:func:`redecorate.report.agreement.run_spread`)."""
    return np.asarray(a.index.intersection(b.index).get_level_values("run"))


def fold_curve_pair(a: pd.DataFrame, b: pd.DataFrame) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Two systems' per-fold errors on the same (run, fold)s and on every size either
    reached (NaN where a fold has no point): the input of the M8 readings, which need the
    folds' own pool ends that :func:`common_points` drops."""
    index = a.index.intersection(b.index)
    sizes = a.columns.union(b.columns)
    return (sizes.to_numpy(), a.reindex(index=index, columns=sizes).to_numpy(),
            b.reindex(index=index, columns=sizes).to_numpy())


def significant_reduction(p: float, reduction: float) -> bool:
    """A significant *reduction*, as the thesis's bold cells are: p < ALPHA and the error went
    down (a significant increase of the error, a negative reduction, is not one)."""
    return bool(p < ALPHA and reduction > 0)


def with_records(records: pd.DataFrame, datasets: Sequence[str]) -> list[str]:
    """The ``datasets`` that have records, in the order given (a partial run reports what ran)."""
    present = set(records["dataset"].unique())  # once: a set per dataset iterates millions of rows
    return [d for d in datasets if d in present]


def ran_datasets(records: pd.DataFrame, settings: ReportSettings) -> list[str]:
    """The experiment's datasets that have records, in the file's order."""
    return with_records(records, settings.datasets)


def cells_comparability(settings: ReportSettings, cells: pd.DataFrame) -> tuple[bool, str]:
    """Whether counting conclusions against the dissertation's is meaningful, and why not:
    the run's scale, and the published cells' datasets against those reproduced."""
    return comparability(settings.scale, cells["dataset"],
                         cells.loc[cells["status"].isin(REPRODUCED), "dataset"])  # fmt: skip


def wdl_comparability(scale: str | None, wdl: pd.DataFrame, datasets: Sequence[str]) -> tuple[bool, str]:
    """Comparability for a table that prints only w/d/l counts (Table 7.4, early learning).

    Such a table names no dataset; its counts say how many datasets it covers (w + d + l), and
    a run of the source's protocol on at least that many is as comparable as one whose cells
    are named.
    """
    counts = wdl.assign(value=pd.to_numeric(wdl["value"], errors="coerce"))
    covered = int(counts.groupby(["table", "comparison", "metric"])["value"].sum().max())
    return comparability(scale, [], datasets, unnamed_published=covered)
