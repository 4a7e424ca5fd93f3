"""Fold-level spread of the readings' % error reductions (Error Sampling over random).

Why: a pilot has one run of 10-fold CV, so whether a reading moves a dataset's reduction
beyond noise needs the spread over folds. Per comparison and dataset: the report's cells (the
reduction of the mean curves, all points and top 20 %) and the standard error of the per-fold
reductions (std over folds / sqrt(n_folds), each fold's reduction computed as the cell is, on
that fold's curves). Usage: ``python fold_se.py <records> <experiment.yaml> > fold_se.csv``, where
``<records>`` is a run's ``records.parquet`` or its per-job ``records/`` directory (for units
whose run has not written the merged file yet).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd
import yaml

from redecorate.report.curves import fold_errors
from redecorate.stats.learning_curves import mean_error_reduction, top_error_reduction


def _cells(base: np.ndarray, mine: np.ndarray) -> tuple[float, float]:
    """All-points and top-20 % reductions of ``mine`` over ``base`` (aligned error curves)."""
    return (mean_error_reduction(base, mine, undefined="nan"),
            top_error_reduction(base, mine, undefined="nan"))


def fold_spread(records: pd.DataFrame, comparisons: list[dict], datasets: list[str]) -> pd.DataFrame:
    """One row per (comparison, dataset): the cells and their fold-level standard errors."""
    rows = []
    for comparison in comparisons:
        for dataset in datasets:
            a, b = fold_errors(records, dataset, comparison["a"]), fold_errors(records, dataset, comparison["b"])
            if a.empty or b.empty:
                continue
            index = a.index.intersection(b.index)
            points = [p for p in a.columns.intersection(b.columns)
                      if a.loc[index, p].notna().all() and b.loc[index, p].notna().all()]
            ea, eb = a.loc[index, points].to_numpy(), b.loc[index, points].to_numpy()
            folds = np.array([_cells(eb[i], ea[i]) for i in range(len(index))])
            cell = _cells(eb.mean(axis=0), ea.mean(axis=0))
            se = folds.std(axis=0, ddof=1) / np.sqrt(len(index))
            rows.append({"table": comparison["table"], "a": comparison["a"], "b": comparison["b"],
                         "dataset": dataset, "n_folds": len(index), "error_reduction": cell[0],
                         "error_reduction_fold_se": se[0], "top20_error_reduction": cell[1],
                         "top20_fold_se": se[1]})
    return pd.DataFrame(rows)


def read_records(path: Path) -> pd.DataFrame:
    """A merged records file, or every per-job file under a ``records/`` directory (a unit
    reused into several files counted once)."""
    if path.is_file():
        return pd.read_parquet(path)
    frame = pd.concat([pd.read_parquet(f) for f in sorted(path.glob("*/*.parquet"))], ignore_index=True)
    return frame.drop_duplicates(["dataset", "algorithm", "run", "fold", "point", "metric"])


if __name__ == "__main__":
    with open(sys.argv[2]) as handle:
        spec = yaml.safe_load(handle)
    frame = fold_spread(read_records(Path(sys.argv[1])), spec["report"]["comparisons"], spec["datasets"])
    frame.to_csv(sys.stdout, index=False, float_format="%.2f")
