"""Kind ``online``: batch against online ensembles on the same folds (Oza 2001, §3.5).

Protocol (spec §3.3): runs of k-fold cross-validation (Oza: 10 runs of 5-fold); every batch
algorithm is fitted once per training fold; every *online* algorithm learns the training fold
as a stream, presented in ``orders`` random orders (Oza: 5), so each of its cells averages
runs × folds × orders results (Oza's 250) and each batch cell runs × folds (50). An algorithm
is online when its learner is (``streamed = True``: online bagging and boosting, the online
network); a lossless single model (naive Bayes, stump, tree) is the same model either way, so
it is fitted once, as Oza reports one column for it.

Records: ``point`` is 100 (the whole training fold), ``n_train`` its size, ``fit_seconds``
the time to train the model and test it on the test fold (what Tables 3.8–3.11 report; Oza
does not say whether testing is included, A12, and training alone would flatter a lazy
learner such as the online tree, which builds when first asked to predict), and the extra
column ``order`` the stream order (0 for a batch algorithm). Report:
:mod:`redecorate.report.online`.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np

from redecorate.config import ExperimentConfigError
from redecorate.kinds.fitting import (
    encoded,
    fit_encoded,
    fold_learner,
    learner_failures,
    unit_learner,
    whole_fold_fit_seconds,
)
from redecorate.kinds.kind import DatasetShape, ExperimentKind, ExperimentSpec, Fold, Record, Unit
from redecorate.kinds.report_keys import deferred_report, require_algorithms
from redecorate.learners.registry import learner_class
from redecorate.protocol.job import learner_seed
from redecorate.protocol.seeds import seed_sequence
from redecorate.protocol.settings import JobSettings, KeyLayout, KindSettings

__all__ = ["ONLINE", "OnlineSettings", "is_streamed", "stream_order"]

_LABEL_LISTS = {"type": "object",
                "additionalProperties": {"type": "array", "items": {"type": "string"}, "minItems": 1}}  # fmt: skip

SCHEMA: dict[str, Any] = {
    "required": [],
    "properties": {
        "orders": {
            "description": (
                "random orders in which each training fold is streamed to every online "
                "algorithm (Oza: 5); batch algorithms are fitted once per fold"
            ),
            "type": "integer",
            "minimum": 1,
            "default": 5,
        },
        "single_models": {
            "description": (
                "ensemble label -> the single-model labels it is tested against (the tables' "
                "bold/italic: significantly better/worse); within a table, the one among its "
                "columns is used"
            ),
            **_LABEL_LISTS,
            "default": {},
        },
        "counterparts": {
            "description": (
                "batch label -> its online counterparts (the tables' '*': significantly better "
                "than the counterpart); within a table, the one among its columns is used"
            ),
            **_LABEL_LISTS,
            "default": {},
        },
        "time_tables": {
            "description": "tables of report.tables that report running times (seconds), not accuracy",
            "type": "array",
            "items": {"type": "string"},
            "default": [],
        },
    },
    "profile_properties": {
        "orders": {"type": "integer", "minimum": 1},
    },
}

REPORT_SCHEMA: dict[str, Any] = {
    "tables": {
        "description": (
            "table number -> the algorithms that are its columns, in order (Oza's Tables "
            "3.3-3.11; time_tables names those of running times); default one table of every "
            "algorithm"
        ),
        "type": "object",
        "additionalProperties": {"type": "array", "minItems": 1, "items": {"type": "string"}},
    },
}


@dataclass(frozen=True)
class OnlineSettings(KindSettings):
    """The online kind's own keys.

    Attributes:
        orders: random stream orders of each training fold for every online algorithm (Oza:
            5); a ``pilot`` profile may lower it (:attr:`ExperimentKind.pilot_keys`).
        single_models: ensemble label -> the single models it is tested against (report only).
        counterparts: batch label -> its online counterparts (report only).
        time_tables: tables of ``report.tables`` that report running times (report only).
    """

    REPORT_ONLY: ClassVar[frozenset[str]] = frozenset({"single_models", "counterparts", "time_tables"})

    orders: int = 5
    single_models: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    counterparts: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    time_tables: tuple[str, ...] = ()


def is_streamed(learner: Any) -> bool:
    """Whether a learner learns a stream in order (so the order is a source of variation)."""
    return bool(getattr(learner, "streamed", False))


def stream_order(seed: int, dataset: str, run: int, fold: int, order: int, n: int) -> np.ndarray:
    """The ``order``-th random order of a training fold: the same for every online algorithm,
    so their cells are paired as the batch ones are."""
    return np.random.default_rng(seed_sequence(seed, "stream", dataset, run, fold, order)).permutation(n)


WARM_UP_ROWS = 50
"""Training rows of the untimed warm-up fit at the start of every unit."""


def _warm_up(fold: Fold) -> None:
    """Fit and predict once, untimed, on a few rows of the unit's first training fold.

    Why: the running-time tables (Oza's 3.8-3.11) are means of ``fit_seconds``, and a job's
    first fit of a learner pays for loading its compiled code (0.2-1.5 s measured), a thousand
    times a naive Bayes fit on a small dataset. The warm-up model is a separate object with
    its own seed, so no record depends on it."""
    data = encoded(fold)
    train, test = fold.train, fold.test
    rows = train[np.linspace(0, len(train) - 1, min(WARM_UP_ROWS, len(train))).astype(np.int64)]  # all classes
    model = fold_learner(fold, 0)
    model.fit_prepared(data.X[rows], data.y[rows], classes=data.classes, schema=data.schema, columns=data.columns)
    model.predict_proba_prepared(data.X[test[:WARM_UP_ROWS]])


def _evaluate_fold(fold: Fold) -> list[Record]:
    """One fold: a batch algorithm fitted once on the training fold, an online one streamed
    the training fold in each of ``orders`` random orders; each model tested on the test fold."""
    job = fold.job
    if fold.first:
        _warm_up(fold)
    data = encoded(fold)
    streamed = is_streamed(fold_learner(fold, 0))
    orders = range(int(job.options.orders)) if streamed else range(1)
    train, test = fold.train, fold.test
    records = []
    for order in orders:
        seed = learner_seed(job.seed, fold.dataset.name, fold.run, fold.index, f"{fold.algorithm}/{order}", 100)
        rows = train[stream_order(job.seed, fold.dataset.name, fold.run, fold.index, order, len(train))] \
            if streamed else train
        with learner_failures(fold.where(order=order)):
            model, fit_seconds = fit_encoded(fold, seed, rows)
            tic = time.perf_counter()
            predicted = np.argmax(model.predict_proba_prepared(data.X[test]), axis=1)
            fit_seconds += time.perf_counter() - tic  # the stream's test pass counted, as always
        accuracy = 100.0 * float(np.mean(predicted == data.y[test]))
        size = int(getattr(model, "n_estimators", 1) or 1)
        records.append(Record(100, len(train), "accuracy", accuracy, fit_seconds, size, extra={"order": order}))
    return records


def _unit_cost(job: JobSettings, unit: Unit, shape: DatasetShape) -> float:
    """Every fold fits the learner once, or once per stream order when it learns streams."""
    streamed = learner_class(unit_learner(job, unit)[0]).streamed
    fits = job.folds * (int(job.options.orders) if streamed else 1)
    return fits * whole_fold_fit_seconds(job, unit, shape)


def _check(spec: ExperimentSpec) -> None:
    """Labels named by the kind's keys and report.tables must be algorithms of the file."""
    options = spec.settings
    tables = spec.report.get("tables") or {}
    for table, labels in tables.items():
        require_algorithms(spec, f"report.tables.{table}", labels)
    for key in ("single_models", "counterparts"):
        for label, others in getattr(options, key).items():
            require_algorithms(spec, key, [label, *others])
    unknown = [t for t in options.time_tables if t not in tables]
    if unknown:
        raise ExperimentConfigError(
            f"experiment file {spec.path}: key 'time_tables': {', '.join(unknown)} not among "
            f"report.tables ({', '.join(tables)})"
        )


ONLINE = ExperimentKind(  # fmt: skip
    name="online",
    description="Oza: batch vs online ensembles, k-fold CV, online algorithms over random stream orders",
    settings=OnlineSettings, schema=SCHEMA,
    report_schema=REPORT_SCHEMA, pilot_keys=("orders",), evaluate_fold=_evaluate_fold,
    unit_cost=_unit_cost, report=deferred_report("redecorate.report.online"),
    points_key=None, check=_check, record_columns=("order",),
    key_layout=KeyLayout(points=None, always=frozenset({"orders"})),
)
