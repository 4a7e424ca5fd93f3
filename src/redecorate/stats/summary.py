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
    "ALIGNMENTS",
    "RECORD_COLUMNS",
    "SUMMARY_KEYS",
    "by_batch",
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


ALIGNMENTS: tuple[str, ...] = ("size", "batch")
"""How the folds' curves are lined up before averaging: by their points (a % of the training
fold, a noise level, chapter 6's labeled-set sizes in batches of m: every fold passes through
the same ones) or by batch number (chapter 7's schedule of batches growing to each fold's own
pool: batch i of a fold with a pool one example larger ends one example later, and is still
the thesis's i-th point)."""


def by_batch(records: pd.DataFrame) -> pd.DataFrame:
    """``records`` with ``point`` replaced by its position on its fold's curve (0: the first
    point), so the i-th batches of folds whose pools differ average together; ``n_train``
    keeps each point's labeled-set size."""
    keys = [c for c in ("experiment", "dataset", "algorithm", "run", "fold", "metric") if c in records]
    position = records.groupby(keys, observed=True)["point"].rank(method="first")
    return records.assign(point=position.astype("int64") - 1)


def summarise(records: pd.DataFrame, align: str = "size") -> pd.DataFrame:
    """Mean, standard deviation (ddof = 1) and count per experiment × dataset × algorithm × point × metric.

    ``mean`` is the thesis's table cell (M1: the mean over all runs × folds). ``count`` is
    kept so a reader can spot an incomplete cell (e.g. 97 instead of 100 run × fold values)
    before trusting it. ``n_train`` (mean training-set size at that point) lets learning
    curves be drawn against the number of examples as well as against the percentage, and
    ``fit_seconds`` is the mean training time. ``align="batch"``: ``point`` is the batch
    number (:func:`by_batch`), as chapter 7's curves are read.
    """
    if align not in ALIGNMENTS:
        raise ValueError(f"align must be one of {ALIGNMENTS}, got {align!r}")
    check_records(records, (*SUMMARY_KEYS, "value", "n_train", "fit_seconds"))
    if align == "batch":
        records = by_batch(records)
    grouped = records.groupby(list(SUMMARY_KEYS), sort=True, observed=True)
    out = grouped.agg(
        mean=("value", "mean"),
        std=("value", "std"),
        count=("value", "count"),
        n_train=("n_train", "mean"),
        fit_seconds=("fit_seconds", "mean"),
    ).reset_index()
    return out
