"""The long-form experiment records and their per-cell summary (mean, std, count).

Every experiment job writes one row per run × fold × learning-curve point × metric with
the columns in :data:`RECORD_COLUMNS`. A thesis table cell is the mean over all runs ×
folds of one (dataset, algorithm, point) (M1), so :func:`summarise` is the first reduction
everything else (tables, figures, the replication report) can start from. Keeping the
records long and reducing them only here means a new metric (e.g. ``diversity``) needs no
new code path.
"""

from __future__ import annotations

from collections.abc import Iterable
from os import PathLike

import pandas as pd

__all__ = [
    "RECORD_COLUMNS",
    "SUMMARY_KEYS",
    "check_records",
    "load_records",
    "summarise",
]

RECORD_COLUMNS: tuple[str, ...] = (
    "experiment",
    "dataset",
    "algorithm",
    "run",
    "fold",
    "point",
    "n_train",
    "metric",
    "value",
    "fit_seconds",
    "ensemble_size",
)
"""Columns every experiment job writes (one row per run × fold × point × metric)."""

SUMMARY_KEYS: tuple[str, ...] = ("experiment", "dataset", "algorithm", "point", "metric")
"""One summary row per combination of these: one cell of a thesis table or one curve point."""


def check_records(records: pd.DataFrame, columns: Iterable[str] = RECORD_COLUMNS) -> None:
    """Raise ``ValueError`` naming the missing columns, instead of a bare ``KeyError`` later.

    Records are written by other jobs, so a schema mismatch is the most likely failure and
    deserves a message that says which file format was expected.
    """
    missing = [c for c in columns if c not in records.columns]
    if missing:
        raise ValueError(
            f"records lack column(s) {missing}; expected the long form {list(RECORD_COLUMNS)}"
        )


def load_records(paths: Iterable[str | PathLike[str]]) -> pd.DataFrame:
    """Concatenate the parquet (or ``.csv``) record files written by experiment jobs.

    A convenience for workflow scripts: every reporting function takes a DataFrame, and this
    builds one from the files a Snakemake rule receives as input.
    """
    frames = []
    for path in paths:
        text = str(path)
        frame = pd.read_csv(text) if text.endswith(".csv") else pd.read_parquet(text)
        frames.append(frame)
    if not frames:
        return pd.DataFrame({c: [] for c in RECORD_COLUMNS})
    records = pd.concat(frames, ignore_index=True)
    check_records(records)
    return records


def summarise(records: pd.DataFrame) -> pd.DataFrame:
    """Mean, standard deviation (ddof = 1) and count per experiment × dataset × algorithm × point × metric.

    ``mean`` is the thesis's table cell (M1: the mean over all runs × folds). ``count`` is
    kept so a reader can spot an incomplete cell (e.g. 97 instead of 100 run × fold values)
    before trusting it. ``n_train`` (mean training-set size at that point) lets learning
    curves be drawn against the number of examples as well as against the percentage, and
    ``fit_seconds`` is the mean training time.
    """
    check_records(records, (*SUMMARY_KEYS, "value", "n_train", "fit_seconds"))
    grouped = records.groupby(list(SUMMARY_KEYS), sort=True, observed=True)
    out = grouped.agg(
        mean=("value", "mean"),
        std=("value", "std"),
        count=("value", "count"),
        n_train=("n_train", "mean"),
        fit_seconds=("fit_seconds", "mean"),
    ).reset_index()
    return out
