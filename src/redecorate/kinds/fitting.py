"""A fold's learner: built with its seed, fitted on a training set, scored on the test set.

Every learner-based kind builds the unit's learner (:func:`fold_learner`: the registry's, or
a test's injected factory) and most fit it on the dataset encoded once
(:func:`encoded`, for the learners' ``fit_prepared``). :func:`fit_and_score` is the step the
curve kinds repeat inside a fold (the §4.1 curve points, the Chapter-5 noise levels): build,
fit, predict the test set, and turn what was measured into
:class:`~redecorate.kinds.kind.Record` rows. Two routes give the same model: the fast one
fits rows of the encoded dataset (``fit_prepared``, the project's learners), the public one
fits frames (``fit``: corrupted folds, pool-based DECORATE variants, foreign estimators).
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from redecorate.kinds.kind import DatasetShape, Fold, Record
from redecorate.learners.cost import estimated_fit_seconds, values_seen
from redecorate.learners.diversity import fitted_ensemble_diversity, fitted_member_error
from redecorate.learners.features import FeatureSchema
from redecorate.learners.params import make_learner
from redecorate.learners.registry import ALGORITHMS, learner_class
from redecorate.protocol.job import JobError, learner_seed
from redecorate.protocol.settings import JobSettings

__all__ = [
    "EncodedDataset",
    "TrainingSet",
    "encodable",
    "encoded",
    "fit_and_score",
    "fold_learner",
    "learner_name",
    "takes_pool",
    "unit_learner",
    "whole_fold_fit_seconds",
]


def unit_learner(job: JobSettings, unit: Mapping[str, Any]) -> tuple[str, Mapping[str, Any]]:
    """The registry name (the entry's ``learner``, or the label itself) and the parameters of
    a unit's algorithm."""
    entry = job.algorithms[unit["algorithm"]]
    return str(entry.get("learner") or unit["algorithm"]), entry["params"]


def learner_name(fold: Fold) -> str:
    """The registry name of the unit's algorithm (:func:`unit_learner`)."""
    return unit_learner(fold.job, fold.unit)[0]


def takes_pool(fold: Fold) -> bool:
    """Whether the unit's learner is fitted with the unlabeled rest of the training fold
    (the learner says: :meth:`~redecorate.learners.base.EncodedClassifier.takes_pool`)."""
    name, params = unit_learner(fold.job, fold.unit)
    known = name.strip().lower() in ALGORITHMS  # a test's stand-in learner may have any name
    return known and learner_class(name).takes_pool(params)


def fold_learner(fold: Fold, random_state: Any) -> Any:
    """The unit's learner, unfitted, with ``random_state``: built by the fold's injected
    ``learner_factory`` or, as in every workflow job, by the learner registry."""
    name, params = unit_learner(fold.job, fold.unit)
    return (fold.learner_factory or make_learner)(name, params, random_state)


@dataclass(frozen=True)
class EncodedDataset:
    """A dataset encoded once for the learners' fast path (``fit_prepared``).

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
    schema: FeatureSchema
    columns: pd.DataFrame

    @classmethod
    def of(cls, dataset: Any) -> EncodedDataset:
        """Encode ``dataset`` (``X`` a frame, ``y`` categorical)."""
        schema = FeatureSchema.from_input(dataset.X)
        codes = pd.Categorical(dataset.y).codes.astype(np.int64)
        return cls(schema.encode(dataset.X), codes, np.asarray(dataset.y.cat.categories), schema,
                   dataset.X.iloc[:0])  # fmt: skip


def encodable(fold: Fold) -> bool:
    """Whether the learners' fast path applies: a frame of features and a categorical class
    without missing labels (known without a look once the dataset is encoded: every point
    asks)."""
    if _LAST_ENCODED and _LAST_ENCODED[0][0] is fold.dataset:
        return True
    y = fold.dataset.y
    return (isinstance(fold.dataset.X, pd.DataFrame) and isinstance(y.dtype, pd.CategoricalDtype)
            and not y.isna().any())  # fmt: skip


_LAST_ENCODED: list[tuple[Any, EncodedDataset]] = []
"""The dataset encoded last and its encoding: a job is one dataset, so its units and folds
share one encoding (held for the dataset object itself, never for an equal copy)."""


def encoded(fold: Fold) -> EncodedDataset:
    """The fold's dataset encoded for ``fit_prepared``, once per dataset object."""
    if not (_LAST_ENCODED and _LAST_ENCODED[0][0] is fold.dataset):
        _LAST_ENCODED[:] = [(fold.dataset, EncodedDataset.of(fold.dataset))]
    return _LAST_ENCODED[0][1]


def whole_fold_fit_seconds(job: JobSettings, unit: Mapping[str, Any], shape: DatasetShape) -> float:
    """Estimated CPU of one fit of the unit's learner on a mean training fold of a dataset of
    that shape: the cost model of the kinds that train on whole folds (noise levels, stream
    orders, ensemble sizes), which multiply it by their fits per fold. A learner that
    rebuilds streamed members after every update (``FitCost.refreshes``) is priced by the
    numeric values they hold when the data are at hand (``shape.data``: the planner, a
    cluster job's time limit), by the declared size alone otherwise."""
    name, params = unit_learner(job, unit)
    fraction = (job.folds - 1) / job.folds
    values = None
    if shape.data is not None and learner_class(name).fit_cost.refreshes:
        dataset = shape.data()
        values = None if dataset is None else _values_seen(dataset, fraction)
    return estimated_fit_seconds(name, params, shape.n_instances * fraction, shape.n_attributes,
                                 inputs=shape.n_inputs, classes=shape.n_classes, values=values)


_LAST_VALUES: list[tuple[Any, float, float]] = []


def _values_seen(dataset: Any, fraction: float) -> float:
    """:func:`~redecorate.learners.cost.values_seen` of a training fold's share of the dataset,
    once per dataset object in a row (a plan prices a dataset's units one after another)."""
    if not (_LAST_VALUES and _LAST_VALUES[0][0] is dataset and _LAST_VALUES[0][1] == fraction):
        _LAST_VALUES[:] = [(dataset, fraction, values_seen(dataset.X, fraction))]
    return _LAST_VALUES[0][2]


@dataclass(frozen=True)
class TrainingSet:
    """What one point of a fold trains and tests on.

    Either ``rows`` (positions in the dataset, for the fast route) or the frames ``X``/``y``
    and ``X_test``/``y_test`` (the public route) are given; ``pool`` is the unlabeled rest of
    the fold for the pool-based DECORATE variants (§4.6.1).
    """

    rows: np.ndarray | None = None
    X: pd.DataFrame | None = None
    y: pd.Series | None = None
    X_test: pd.DataFrame | None = None
    y_test: pd.Series | None = None
    pool: pd.DataFrame | None = None


@contextmanager
def learner_failures(where: str) -> Iterator[None]:
    """Re-raise whatever a learner raises inside as the :class:`JobError` naming ``where``:
    learners are designed to return a model for any non-empty training set, so a failure is
    a bug to report with its place, never a NaN record or a bare traceback."""
    try:
        yield
    except Exception as exc:  # re-raised with context, never swallowed
        raise JobError(f"learner failed at {where}: {type(exc).__name__}: {exc}") from exc


def fit_encoded(fold: Fold, seed: int, rows: np.ndarray) -> tuple[Any, float]:
    """The unit's learner with ``seed``, fitted on the encoded training ``rows`` of the fold's
    dataset, and the seconds the fit took."""
    data = encoded(fold)
    model = fold_learner(fold, seed)
    tic = time.perf_counter()
    model.fit_prepared(data.X[rows], data.y[rows], classes=data.classes, schema=data.schema, columns=data.columns)
    return model, time.perf_counter() - tic


def _fit_predict(fold: Fold, estimator: Any, data: TrainingSet) -> tuple[np.ndarray, Any, np.ndarray, float]:
    """Fit and predict the test set: (predictions, X_test as the learner saw it, y_test, seconds)."""
    if data.rows is not None and hasattr(estimator, "fit_prepared") and encodable(fold):
        data_encoded = encoded(fold)
        tic = time.perf_counter()
        estimator.fit_prepared(data_encoded.X[data.rows], data_encoded.y[data.rows],
                               classes=data_encoded.classes, schema=data_encoded.schema,
                               columns=data_encoded.columns)  # fmt: skip
        seconds = time.perf_counter() - tic
        predicted = estimator.predict_prepared(data_encoded.X[fold.test])
        return np.asarray(predicted, dtype=object), *_test_set(fold), seconds
    if data.rows is not None:
        X, y = fold.dataset.X.iloc[data.rows], fold.dataset.y.iloc[data.rows]
        X_test, y_test = _test_set(fold)
    else:
        X, y, X_test, y_test = data.X, data.y, data.X_test, data.y_test.to_numpy(dtype=object)
    tic = time.perf_counter()
    if data.pool is not None:
        estimator.fit(X, y, pool=data.pool)
    else:
        estimator.fit(X, y)
    seconds = time.perf_counter() - tic
    return np.asarray(estimator.predict(X_test), dtype=object), X_test, y_test, seconds


_LAST_TEST: list[tuple[Any, np.ndarray, Any, np.ndarray]] = []
"""The last fold's test set: (dataset, test positions, its rows of ``X``, its labels)."""


def _test_set(fold: Fold) -> tuple[Any, np.ndarray]:
    """The fold's test rows of ``dataset.X`` and their labels (an object array), taken once per
    fold: every point of a fold tests on them, and taking rows of a frame costs more than
    fitting a small tree (taken at every point, they cost 15 % of the chapter-4 protocol)."""
    if not (_LAST_TEST and _LAST_TEST[0][0] is fold.dataset and _LAST_TEST[0][1] is fold.test):
        _LAST_TEST[:] = [(fold.dataset, fold.test, fold.dataset.X.iloc[fold.test],
                          fold.dataset.y.iloc[fold.test].to_numpy(dtype=object))]
    return _LAST_TEST[0][2], _LAST_TEST[0][3]


def fit_and_score(fold: Fold, point: float | int, n_train: int, data: TrainingSet, *,
                  metrics: Sequence[str] = ("accuracy",), where: str | None = None) -> list[Record]:
    """Fit the unit's learner at one point and return its records: ``accuracy`` (% of the test
    set), then ``diversity`` (Eq. 3.2 of the fitted ensemble on the test set, a fraction) and
    ``member_error`` (the members' mean test error, %) when ``metrics`` asks for them.

    The learner's seed is keyed by (experiment seed, dataset, run, fold, algorithm, point),
    never by the order of calls. ``where`` (default: the fold and point) names the place in
    the :class:`JobError` a failing learner raises; learners are designed to return a model
    for any non-empty training set, so a failure is a bug, never a NaN record.
    """
    where = where or fold.where(point=point, n_train=n_train)
    seed = learner_seed(fold.job.seed, fold.dataset.name, fold.run, fold.index, fold.algorithm, point)
    with learner_failures(where):
        estimator = fold_learner(fold, seed)
        predicted, X_test, y_test, seconds = _fit_predict(fold, estimator, data)
        extra = _ensemble_metrics(estimator, X_test, y_test, metrics)
    y_all = fold.dataset.y
    if isinstance(y_all.dtype, pd.CategoricalDtype):
        unknown = set(predicted.tolist()) - set(y_all.cat.categories)
        if unknown:
            raise JobError(f"learner predicted values outside the class domain at {where}: "
                           f"{sorted(map(str, unknown))[:5]}")  # fmt: skip
    size = int(getattr(estimator, "ensemble_size_", 1))  # DECORATE may stop short of its size
    accuracy = 100.0 * int(np.count_nonzero(predicted == y_test)) / len(y_test)
    return [Record(point, n_train, metric, value, seconds, size)
            for metric, value in [("accuracy", accuracy), *extra]]


def _ensemble_metrics(estimator: Any, X_test: Any, y_test: np.ndarray,
                      metrics: Sequence[str]) -> list[tuple[str, float]]:
    """The optional record metrics of §4.4 (:data:`METRICS`), in that order."""
    out = []
    if "diversity" in metrics:
        out.append(("diversity", fitted_ensemble_diversity(estimator, X_test)))
    if "member_error" in metrics:
        out.append(("member_error", 100.0 * fitted_member_error(estimator, X_test, y_test)))
    return out
