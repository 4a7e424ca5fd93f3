"""One unit of work, for every kind: the fold loop, its errors, progress and records.

Every kind's unit is "one algorithm × one run of k-fold cross-validation" (or one fold of
it): the folds come from the experiment seed, the dataset and the run, never from the
algorithm, so all algorithms of a run see the same splits. What differs between kinds is
only what happens inside one fold, which a kind supplies as ``evaluate_fold``
(:attr:`redecorate.kinds.ExperimentKind.evaluate_fold`): it gets a :class:`Fold` and returns
:class:`Record` rows. This module does the rest once:

- the folds of the unit's run (a unit with a ``fold`` key runs that fold only);
- a failure that is not already a :class:`JobError` becomes one that names the dataset,
  algorithm, run and fold (the original chained), never a silently missing row;
- one progress line per fold with the elapsed time;
- records built by name and validated: the common columns, then exactly the kind's own
  (``record_columns``), with the same dtypes in every job's parquet.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from redecorate.kinds.kind import ExperimentKind, Fold, Record
from redecorate.protocol.folds import run_folds
from redecorate.protocol.job import JobError, LearnerFactory
from redecorate.protocol.settings import JobSettings
from redecorate.stats.summary import RECORD_COLUMNS

__all__ = ["JobError", "records_frame", "run_unit"]


_DTYPES = {"run": np.int64, "fold": np.int64, "n_train": np.int64, "value": np.float64,
           "fit_seconds": np.float64, "ensemble_size": np.int64}  # fmt: skip


def records_frame(rows: Sequence[tuple[Any, ...]], extra_columns: Sequence[str] = ()) -> pd.DataFrame:
    """Rows in :data:`RECORD_COLUMNS` order (then ``extra_columns``) as a frame with fixed
    dtypes, so every job's parquet has the same schema: ``point`` is int64 when every point
    is a whole number, float64 otherwise."""
    frame = pd.DataFrame.from_records(list(rows), columns=[*RECORD_COLUMNS, *extra_columns])
    points = frame["point"].to_numpy(dtype=np.float64)
    integral = bool(np.all(np.mod(points, 1) == 0))
    return frame.astype({**_DTYPES, "point": np.int64 if integral else np.float64,
                         **{c: object for c in ("experiment", "dataset", "algorithm", "metric")}})  # fmt: skip


def _row(record: Record, fold: Fold, extra_columns: Sequence[str]) -> tuple[Any, ...]:
    if set(record.extra) != set(extra_columns):
        raise JobError(
            f"{fold.where()}: a record has the extra columns {sorted(record.extra)}, the kind "
            f"declares {list(extra_columns)} (record_columns)"
        )
    return (fold.job.experiment, fold.dataset.name, fold.algorithm, fold.run, fold.index,
            record.point, int(record.n_train), str(record.metric), float(record.value),
            float(record.fit_seconds), int(record.ensemble_size),
            *(record.extra[c] for c in extra_columns))  # fmt: skip


def run_unit(kind: ExperimentKind, dataset: Any, job: JobSettings, unit: Mapping[str, Any],
             progress: Callable[[str], None],
             learner_factory: LearnerFactory | None = None) -> pd.DataFrame:
    """Every fold of ``unit`` (or its one ``fold``) evaluated by ``kind``: the unit's records.

    Raises:
        JobError: a fold failed; the message says where and the original is chained.
    """
    folds = list(enumerate(run_folds(dataset, job.folds, run=int(unit["run"]), seed=job.seed)))
    if unit.get("fold") is not None:
        folds = [folds[int(unit["fold"])]]
    rows: list[tuple[Any, ...]] = []
    started = time.perf_counter()
    for position, (index, (train, test)) in enumerate(folds):
        fold = Fold(dataset, job, unit, index, train, test, progress, first=position == 0,
                    learner_factory=learner_factory)
        try:
            records = list(kind.evaluate_fold(fold))
        except JobError:
            raise
        except Exception as exc:  # re-raised with context, never swallowed
            raise JobError(f"{kind.name} failed at {fold.where()}: {type(exc).__name__}: {exc}") from exc
        rows.extend(_row(record, fold, kind.record_columns) for record in records)
        progress(f"[{job.experiment}] {dataset.name} {fold.algorithm} run {fold.run} fold {index + 1}/"
                 f"{job.folds} done ({len(records)} records), elapsed "
                 f"{time.perf_counter() - started:.1f}s")  # fmt: skip
    return records_frame(rows, kind.record_columns)
