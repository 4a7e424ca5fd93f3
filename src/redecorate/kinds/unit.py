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
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from redecorate.protocol.folds import run_folds
from redecorate.protocol.job import JobError, LearnerFactory
from redecorate.stats.summary import RECORD_COLUMNS

if TYPE_CHECKING:
    from redecorate.kinds.kind import ExperimentKind
    from redecorate.protocol.settings import JobSettings

__all__ = ["EncodedDataset", "Fold", "JobError", "Record", "records_frame", "run_unit"]


@dataclass(frozen=True)
class Record:
    """One row of a unit's records: what a fold measured at one point.

    ``experiment``, ``dataset``, ``algorithm``, ``run`` and ``fold`` are filled in by
    :func:`run_unit`; ``extra`` holds the kind's own columns (``record_columns``), by name.
    """

    point: float | int
    n_train: int
    metric: str
    value: float
    fit_seconds: float
    ensemble_size: int = 1
    extra: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class EncodedDataset:
    """A dataset encoded once per unit for the learners' fast path (``fit_prepared``).

    Attributes:
        X: the encoded feature matrix (:class:`redecorate.learners.features.FeatureSchema`).
        y: class codes (int64).
        classes: the class labels, in code order.
        schema: the feature schema.
        columns: an empty frame with the dataset's columns (the learners' column template).
    """

    X: np.ndarray
    y: np.ndarray
    classes: np.ndarray
    schema: Any
    columns: pd.DataFrame

    @classmethod
    def of(cls, dataset: Any) -> EncodedDataset:
        """Encode ``dataset`` (``X`` a frame, ``y`` categorical)."""
        from redecorate.learners.features import FeatureSchema

        schema = FeatureSchema.from_input(dataset.X)
        codes = pd.Categorical(dataset.y).codes.astype(np.int64)
        return cls(schema.encode(dataset.X), codes, np.asarray(dataset.y.cat.categories), schema,
                   dataset.X.iloc[:0])  # fmt: skip


@dataclass
class Fold:
    """One fold of one unit, as a kind's ``evaluate_fold`` sees it.

    Attributes:
        dataset: the dataset (``name``, ``X``, ``y``).
        job: the experiment's job settings (``job.options``: the kind's own).
        unit: the unit of work.
        index: the fold number (0-based).
        train, test: row positions of the training and test fold.
        progress: where progress lines go (the job's log).
        first: whether this is the unit's first fold (a kind's once-per-unit work).
        learner_factory: ``(name, params, random_state) -> estimator`` for
            :meth:`make_learner`; None: the learner registry's. Tests inject stand-ins.
    """

    dataset: Any
    job: JobSettings
    unit: Mapping[str, Any]
    index: int
    train: np.ndarray
    test: np.ndarray
    progress: Callable[[str], None]
    first: bool = False
    learner_factory: LearnerFactory | None = None
    _cache: dict[str, Any] = field(default_factory=dict, repr=False)

    @property
    def algorithm(self) -> str:
        """The unit's algorithm label."""
        return str(self.unit["algorithm"])

    @property
    def run(self) -> int:
        """The unit's run number."""
        return int(self.unit["run"])

    @property
    def entry(self) -> Mapping[str, Any]:
        """The job entry of the unit's algorithm (:attr:`ExperimentKind.algorithm_entry`)."""
        return self.job.algorithms[self.algorithm]

    def where(self, **more: Any) -> str:
        """``dataset='iris' algorithm='j48' run=0 fold=3`` and ``more``, for messages."""
        text = (f"dataset={self.dataset.name!r} algorithm={self.algorithm!r} run={self.run} "
                f"fold={self.index}")  # fmt: skip
        return " ".join([text, *(f"{key}={value}" for key, value in more.items())])

    def make_learner(self, name: str, params: Mapping[str, Any], random_state: int) -> Any:
        """An unfitted learner of the registry (or of the injected ``learner_factory``)."""
        if self.learner_factory is not None:
            return self.learner_factory(name, params, random_state)
        from redecorate.learners.registry import make_learner

        return make_learner(name, params, random_state)

    def encodable(self) -> bool:
        """Whether the learners' fast path applies: a frame of features and a categorical
        class without missing labels."""
        y = self.dataset.y
        return (isinstance(self.dataset.X, pd.DataFrame) and isinstance(y.dtype, pd.CategoricalDtype)
                and not y.isna().any())  # fmt: skip

    def encoded(self) -> EncodedDataset:
        """The dataset encoded for ``fit_prepared``, once per unit."""
        if "encoded" not in self._cache:
            self._cache["encoded"] = EncodedDataset.of(self.dataset)
        return self._cache["encoded"]


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
    cache: dict[str, Any] = {}
    started = time.perf_counter()
    for position, (index, (train, test)) in enumerate(folds):
        fold = Fold(dataset, job, unit, index, train, test, progress, first=position == 0,
                    learner_factory=learner_factory, _cache=cache)
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
