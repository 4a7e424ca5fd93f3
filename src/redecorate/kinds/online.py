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
from typing import Any

import numpy as np
import pandas as pd

from redecorate.kinds.kind import DatasetShape, ExperimentKind, Progress, ReportOutputs, Unit
from redecorate.kinds.passive import algorithm_run_units, learners_of
from redecorate.protocol.job import JobError, learner_seed, run_folds
from redecorate.protocol.seeds import seed_sequence
from redecorate.stats.summary import RECORD_COLUMNS

__all__ = ["ONLINE", "is_streamed"]

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
            "type": "object",
            "additionalProperties": {"type": "array", "items": {"type": "string"}, "minItems": 1},
            "default": {},
        },
        "counterparts": {
            "description": (
                "batch label -> its online counterparts (the tables' '*': significantly better "
                "than the counterpart); within a table, the one among its columns is used"
            ),
            "type": "object",
            "additionalProperties": {"type": "array", "items": {"type": "string"}, "minItems": 1},
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


def is_streamed(learner: Any) -> bool:
    """Whether a learner learns a stream in order (so the order is a source of variation)."""
    return bool(getattr(learner, "streamed", False))


def _job_settings(spec: Any) -> dict[str, Any]:
    settings = dict(spec.settings)
    return {
        "experiment": spec.name,
        "n_folds": spec.protocol.folds,
        "seed": spec.protocol.seed,
        "orders": int(settings.get("orders", 5)),
        "algorithms": learners_of(spec),
    }


def stream_order(seed: int, dataset: str, run: int, fold: int, order: int, n: int) -> np.ndarray:
    """The ``order``-th random order of a training fold: the same for every online algorithm,
    so their cells are paired as the batch ones are."""
    return np.random.default_rng(seed_sequence(seed, "stream", dataset, run, fold, order)).permutation(n)


WARM_UP_ROWS = 50
"""Training rows of the untimed warm-up fit at the start of every unit."""


def _warm_up(model: Any, X: np.ndarray, y: np.ndarray, fold: tuple[np.ndarray, np.ndarray],
             classes: np.ndarray, schema: Any, columns: pd.DataFrame) -> None:
    """Fit and predict once, untimed, on a few rows of the first training fold.

    Why: the running-time tables (Oza's 3.8-3.11) are means of ``fit_seconds``, and a job's
    first fit of a learner pays for loading its compiled code (0.2-1.5 s measured), a thousand
    times a naive Bayes fit on a small dataset. The warm-up model is a separate object with
    its own seed, so no record depends on it."""
    train, test = fold
    rows = train[np.linspace(0, len(train) - 1, min(WARM_UP_ROWS, len(train))).astype(np.int64)]  # all classes
    model.fit_prepared(X[rows], y[rows], classes=classes, schema=schema, columns=columns)
    model.predict_proba_prepared(X[test[:WARM_UP_ROWS]])


def _run_unit(dataset: Any, settings: Mapping[str, Any], unit: Unit, progress: Progress) -> pd.DataFrame:
    from redecorate.learners.features import FeatureSchema
    from redecorate.learners.registry import make_learner

    label, run = unit["algorithm"], int(unit["run"])
    entry = settings["algorithms"][label]
    learner = entry.get("learner", label)
    schema = FeatureSchema.from_input(dataset.X)
    X = schema.encode(dataset.X)
    y = pd.Categorical(dataset.y).codes.astype(np.int64)
    classes = np.asarray(dataset.y.cat.categories)
    rows = []
    started = time.perf_counter()
    folds = run_folds(dataset, settings["n_folds"], run=run, seed=settings["seed"])
    streamed = is_streamed(make_learner(learner, entry["params"], 0))
    orders = range(int(settings["orders"])) if streamed else range(1)
    _warm_up(make_learner(learner, entry["params"], 0), X, y, folds[0], classes, schema, dataset.X.iloc[:0])
    for fold, (train, test) in enumerate(folds):
        for order in orders:
            where = f"dataset={dataset.name!r} algorithm={label!r} run={run} fold={fold} order={order}"
            seed = learner_seed(settings["seed"], dataset.name, run, fold, f"{label}/{order}", 100)
            rows_in = train[stream_order(settings["seed"], dataset.name, run, fold, order, len(train))] \
                if streamed else train
            try:
                model = make_learner(learner, entry["params"], seed)
                tic = time.perf_counter()
                model.fit_prepared(X[rows_in], y[rows_in], classes=classes, schema=schema,
                                   columns=dataset.X.iloc[:0])  # fmt: skip
                predicted = np.argmax(model.predict_proba_prepared(X[test]), axis=1)
                fit_seconds = time.perf_counter() - tic
            except Exception as exc:  # re-raised with context, never swallowed
                raise JobError(f"learner failed at {where}: {type(exc).__name__}: {exc}") from exc
            accuracy = 100.0 * float(np.mean(predicted == y[test]))
            size = int(getattr(model, "n_estimators", 1) or 1)
            rows.append((settings["experiment"], dataset.name, label, run, fold, 100, len(train),
                         "accuracy", accuracy, fit_seconds, size, order))  # fmt: skip
        progress(f"[{settings['experiment']}] {dataset.name} {label} run {run} fold {fold + 1}/"
                 f"{settings['n_folds']} done ({len(orders)} order(s)), elapsed "
                 f"{time.perf_counter() - started:.1f}s")  # fmt: skip
    frame = pd.DataFrame.from_records(rows, columns=[*RECORD_COLUMNS, "order"])
    return frame.astype({"run": np.int64, "fold": np.int64, "point": np.int64, "n_train": np.int64,
                         "value": np.float64, "fit_seconds": np.float64, "ensemble_size": np.int64,
                         "order": np.int64})


def _unit_cost(settings: Mapping[str, Any], unit: Unit, shape: DatasetShape) -> float:
    from redecorate.learners.registry import estimated_fit_seconds, make_learner

    entry = settings["algorithms"][unit["algorithm"]]
    k = settings["n_folds"]
    n_train = shape.n_instances * (k - 1) / k
    learner = entry.get("learner", unit["algorithm"])
    fits = k * (int(settings["orders"]) if is_streamed(make_learner(learner, entry["params"], 0)) else 1)
    return fits * estimated_fit_seconds(learner, entry["params"], n_train, shape.n_attributes)


def _check(spec: Any) -> None:
    """Labels named by the kind's keys and report.tables must be algorithms of the file."""
    from redecorate.config import ExperimentConfigError

    settings = dict(spec.settings)
    known = set(spec.algorithms)

    def require(key: str, labels: list[str]) -> None:
        unknown = [a for a in labels if a not in known]
        if unknown:
            raise ExperimentConfigError(
                f"experiment file {spec.path}: key '{key}': {', '.join(unknown)} not among the "
                f"algorithms ({', '.join(spec.algorithms)})"
            )

    tables = spec.report.get("tables") or {}
    for table, labels in tables.items():
        require(f"report.tables.{table}", list(labels))
    for key in ("single_models", "counterparts"):
        for label, others in (settings.get(key) or {}).items():
            require(key, [label, *others])
    unknown = [t for t in settings.get("time_tables") or [] if t not in tables]
    if unknown:
        raise ExperimentConfigError(
            f"experiment file {spec.path}: key 'time_tables': {', '.join(unknown)} not among "
            f"report.tables ({', '.join(tables)})"
        )


def _report(records: pd.DataFrame, summary: pd.DataFrame, out: ReportOutputs,
            settings: Mapping[str, Any]) -> None:
    from redecorate.report.online import write_online_report

    write_online_report(records, out, settings)


ONLINE = ExperimentKind(
    name="online",
    description="Oza: batch vs online ensembles, k-fold CV, online algorithms over random stream orders",
    schema=SCHEMA,
    job_settings=_job_settings,
    units=algorithm_run_units,
    run_unit=_run_unit,
    unit_cost=_unit_cost,
    report=_report,
    points_key=None,
    check=_check,
    record_columns=("order",),
)
