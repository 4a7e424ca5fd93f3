"""Kind ``active``: pool-based active learning with committees (dissertation chapter 6).

Protocol (spec Part 3 E6.3): runs of k-fold CV; in each fold the training fold is the
unlabeled pool and the test fold is held out. Every system starts from the same random
initial labeled set (m examples unless ``initial_size`` says otherwise), labels m examples per
iteration (``batch_size``: 1 by default; 2 for primary-tumor; 3 for breast-w, soybean,
diabetes, vowel, credit-g), retrains and is tested after every iteration, until the pool is
exhausted or ``max_labeled`` (Table 6.4's maximum train size) is reached.

Unit of work: one system × one run, every fold's curve
(:func:`redecorate.active.curve.active_learning_curve`). Records: ``point`` and ``n_train``
are the number of labeled examples, ``metric`` ``accuracy`` (% of the test fold). The
systems are the experiment's ``algorithms:``, labels of :data:`redecorate.active.systems.SYSTEMS`
entries (``qbag: {}``) or labelled variants (``decorate: {system: random}``,
``ad_js: {system: active_decorate, score: js_divergence}``).

Report (:mod:`redecorate.report.active`): Table 6.1 (data utilization: examples needed to
reach the target error, and the ratio to random sampling), Table 6.2 (top-20 % error
reduction over random sampling, paired t-test), Table 6.4 (% error reduction over all
points), learning-curve figures, and reproduced vs published.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

import pandas as pd

from redecorate.kinds.kind import DatasetShape, ExperimentKind, Progress, ReportOutputs, Unit
from redecorate.kinds.passive import algorithm_run_units
from redecorate.protocol.job import run_folds
from redecorate.protocol.seeds import seed_sequence
from redecorate.stats.summary import RECORD_COLUMNS

__all__ = ["ACTIVE", "SYSTEM_KEY", "per_dataset", "systems_of"]

SYSTEM_KEY = "system"
"""The key of an ``algorithms:`` entry naming the active-learning system of a labelled variant."""

_PER_DATASET = {
    "description": "a whole number, or a mapping dataset -> number with an optional 'default'",
    "oneOf": [
        {"type": "integer", "minimum": 1},
        {
            "type": "object",
            "minProperties": 1,
            "additionalProperties": {"type": "integer", "minimum": 1},
        },
    ],
}

SCHEMA: dict[str, Any] = {
    "required": [],
    "properties": {
        "batch_size": {
            **_PER_DATASET,
            "description": (
                "m, examples labeled per iteration: a number, or per dataset with a 'default' "
                "(section 6.3: 1; 2 for primary-tumor; 3 for breast-w, soybean, diabetes, "
                "vowel, credit-g)"
            ),
        },
        "initial_size": {
            **_PER_DATASET,
            "description": (
                "size of the random initial labeled set (the same for every system of a "
                "fold); default the batch size (the dissertation does not say, spec Part 3 E6.3)"
            ),
        },
        "max_labeled": {
            **_PER_DATASET,
            "description": (
                "stop each curve at this many labeled examples (Table 6.4's maximum train "
                "size); default the whole pool"
            ),
        },
    },
    "profile_properties": {"max_labeled": {"$ref": "#/properties/max_labeled"}},
}
SCHEMA["properties"]["schedule"] = {
    "description": (
        "chapter 7's acquisition schedule instead of a fixed batch size: 'batches' batches "
        "growing geometrically from 'initial' labeled examples to the whole pool (the "
        "dissertation makes 33 and prints neither sizes nor the initial set, spec E7)"
    ),
    "type": "object",
    "additionalProperties": False,
    "required": ["initial", "batches"],
    "properties": {
        "initial": {"type": "integer", "minimum": 1},
        "batches": {"type": "integer", "minimum": 1},
    },
}
SCHEMA["properties"]["metrics"] = {
    "description": (
        "what each curve point records: accuracy (%, always), mse (multi-class Brier score), "
        "aulc (area under the lift chart, classes weighted by the labeled set's priors) and "
        "aulc_fold (the same, weighted by the whole training fold's priors)"
    ),
    "type": "array",
    "minItems": 1,
    "uniqueItems": True,
    "contains": {"const": "accuracy"},
    "items": {"enum": ["accuracy", "mse", "aulc", "aulc_fold"]},
}
SCHEMA["profile_properties"]["schedule"] = {"$ref": "#/properties/schedule"}


def per_dataset(value: Any, dataset: str, default: int | None) -> int | None:
    """A per-dataset setting: the number itself, or the dataset's entry, or ``default``."""
    if value is None:
        return default
    if isinstance(value, Mapping):
        return value.get(dataset, value.get("default", default))
    return int(value)


def systems_of(spec: Any) -> dict[str, dict[str, Any]]:
    """Algorithm label -> ``{"system": name, "params": {...}}``."""
    out = {}
    for label, params in spec.algorithms.items():
        params = dict(params)
        name = str(params.pop(SYSTEM_KEY, spec.learner_of(label)))
        out[label] = {"system": name, "params": params}
    return out


def _job_settings(spec: Any) -> dict[str, Any]:
    return {
        "experiment": spec.name,
        "n_folds": spec.protocol.folds,
        "seed": spec.protocol.seed,
        "systems": systems_of(spec),
        **{key: spec.settings[key] for key in
           ("batch_size", "initial_size", "max_labeled", "schedule", "metrics")
           if key in spec.settings},
    }  # fmt: skip


def _fold_settings(settings: Mapping[str, Any], dataset: str) -> dict[str, Any]:
    m = per_dataset(settings.get("batch_size"), dataset, 1)
    return {
        "batch_size": m,
        "initial_size": per_dataset(settings.get("initial_size"), dataset, m),
        "max_labeled": per_dataset(settings.get("max_labeled"), dataset, None),
    }


def _run_unit(dataset: Any, settings: Mapping[str, Any], unit: Unit, progress: Progress) -> pd.DataFrame:
    from redecorate.active.curve import active_learning_curve, geometric_sizes

    label, run = unit["algorithm"], int(unit["run"])
    system = settings["systems"][label]
    fold_settings = _fold_settings(settings, dataset.name)
    metrics = list(settings.get("metrics", ["accuracy"]))
    schedule = settings.get("schedule")
    rows = []
    started = time.perf_counter()
    folds = run_folds(dataset, settings["n_folds"], run=run, seed=settings["seed"])
    for fold, (train, test) in enumerate(folds):
        # The fold's stream: keyed by (seed, dataset, run, fold), never by the system, so
        # every system of a fold starts from the same labeled examples.
        seed = seed_sequence(settings["seed"], "active", dataset.name, run, fold)
        sizes = (None if schedule is None
                 else geometric_sizes(len(train), schedule["initial"], schedule["batches"]))
        curve = active_learning_curve(
            dataset.X.iloc[train], dataset.y.iloc[train], dataset.X.iloc[test],
            dataset.y.iloc[test], system["system"], system["params"], seed=seed, sizes=sizes,
            metrics=metrics, **fold_settings,
        )  # fmt: skip
        for point in curve:
            for metric in metrics:
                rows.append((settings["experiment"], dataset.name, label, run, fold,
                             point["n_labeled"], point["n_labeled"], metric, point[metric],
                             point["fit_seconds"], point["ensemble_size"]))  # fmt: skip
        progress(
            f"[{settings['experiment']}] {dataset.name} {label} run {run} fold {fold + 1}/"
            f"{settings['n_folds']} done ({len(curve)} points, up to {curve[-1]['n_labeled']} "
            f"labeled), elapsed {time.perf_counter() - started:.1f}s"
        )
    return pd.DataFrame.from_records(rows, columns=list(RECORD_COLUMNS))


_FAMILIES = {"qbag": "bagging", "qboost": "adaboost", "bootstrap_lv": "bagging",
             "bootstrap_js": "bagging", "bootstrap_lv_ext": "bagging"}  # fmt: skip


def _families(system: Mapping[str, Any]) -> list[str]:
    """The ensembles a system fits at every iteration (for the cost estimate only)."""
    from redecorate.active.systems import system_parameters

    p = system_parameters(system["system"], system["params"])
    if "select" in p:
        return [p["select"]] + ([p["predict"]] if p["predict"] != p["select"] else [])
    if "ensemble" in p:
        return [p["ensemble"]]
    return [_FAMILIES.get(system["system"], "decorate")]


def _pool_size(shape: DatasetShape, n_folds: int) -> int:
    """The pool of a fold (its training part), as the declared size predicts it (±1: folds
    are stratified); the cost estimate and the check before any job use the same figure."""
    return max(2, round(shape.n_instances * (n_folds - 1) / n_folds))


SCORE_SECONDS = 8.3e-7
"""CPU seconds per pool example and committee member to score the pool at one iteration
(fitted with the registry's costs to the committed runs' CPU: with few labeled examples,
scoring the whole pool is most of an iteration)."""


def _unit_cost(settings: Mapping[str, Any], unit: Unit, shape: DatasetShape) -> float:
    """One fit per iteration, on a labeled set growing from m to the pool (or the maximum),
    and the pool scored by each committee."""
    from redecorate.active.curve import labeled_set_sizes
    from redecorate.learners.registry import estimated_fit_seconds, estimated_members

    k = settings["n_folds"]
    pool = _pool_size(shape, k)
    fold = _fold_settings(settings, shape.name)
    schedule = settings.get("schedule")
    if schedule is not None:
        from redecorate.active.curve import geometric_sizes

        sizes = geometric_sizes(pool, schedule["initial"], schedule["batches"])
    else:
        sizes = labeled_set_sizes(pool, fold["batch_size"], min(fold["initial_size"], pool),
                                  fold["max_labeled"])
    system = settings["systems"][unit["algorithm"]]
    per_fold = sum(
        estimated_fit_seconds(family, {}, n, shape.n_attributes)
        + SCORE_SECONDS * pool * estimated_members(family)
        for family in _families(system) for n in sizes
    )
    return k * per_fold


def _check(spec: Any) -> None:
    """Every system name and its parameters, before any job (with close matches): the system
    is built unfitted, so a value no job could use (``score: entropy_margin``) fails here."""
    from redecorate.active.systems import make_system
    from redecorate.config import ExperimentConfigError

    for label, system in systems_of(spec).items():
        try:
            make_system(system["system"], system["params"])
        except (TypeError, ValueError) as exc:
            raise ExperimentConfigError(
                f"experiment file {spec.path}: key 'algorithms.{label}': {exc}"
            ) from None


def _setting_key(settings: Mapping[str, Any], key: str, dataset: str) -> str:
    """The key a user set a per-dataset value under: ``batch_size``, ``batch_size.iris`` or
    ``batch_size.default``."""
    value = settings.get(key)
    if not isinstance(value, Mapping):
        return key
    return f"{key}.{dataset}" if dataset in value else f"{key}.default"


def _check_datasets(spec: Any, entries: Mapping[str, Any]) -> None:
    """The initial labeled set (one batch unless ``initial_size`` says otherwise) must fit in
    each dataset's curve, which ends at its pool or at ``max_labeled``: otherwise every job of
    the dataset fails. Chapter 7's ``schedule`` sets the sizes itself and is not checked."""
    from redecorate.config import ExperimentConfigError
    from redecorate.kinds.jobs import dataset_shape

    settings = spec.settings
    if settings.get("schedule") is not None:
        return
    for dataset, entry in entries.items():
        fold = _fold_settings(settings, dataset)
        shape = dataset_shape(entry, dataset)
        pool = _pool_size(shape, spec.protocol.folds)
        end = pool if fold["max_labeled"] is None else min(pool, fold["max_labeled"])
        if fold["initial_size"] <= end:
            continue
        own = "initial_size" in settings
        key = _setting_key(settings, "initial_size" if own else "batch_size", dataset)
        what = ("initial labeled examples" if own else
                "examples per iteration (the initial labeled set is one batch unless "
                "initial_size says otherwise)")  # fmt: skip
        limit = (f"max_labeled {fold['max_labeled']}" if end < pool else
                 f"the pool: about {pool} training examples of {shape.n_instances} at "
                 f"{spec.protocol.folds}-fold CV")  # fmt: skip
        raise ExperimentConfigError(
            f"experiment file {spec.path}: key '{key}': {fold['initial_size']} {what} on dataset "
            f"{dataset!r} exceed the end of its curve, {end} examples ({limit}, scale "
            f"{spec.scale!r}); fix: set {key.split('.')[0]} for {dataset!r} to at most {end}, "
            f"e.g. {key.split('.')[0]}: {{default: 1, {dataset}: {end}}}"
        )


def _report(
    records: pd.DataFrame, summary: pd.DataFrame, out: ReportOutputs, settings: Mapping[str, Any]
) -> None:
    from redecorate.report.active import write_active_report

    write_active_report(records, out, settings)


ACTIVE = ExperimentKind(
    name="active",
    description="chapter 6: pool-based active learning curves, m examples per iteration",
    schema=SCHEMA,
    job_settings=_job_settings,
    units=algorithm_run_units,
    run_unit=_run_unit,
    unit_cost=_unit_cost,
    report=_report,
    points_key=None,
    check=_check,
    check_datasets=_check_datasets,
    algorithms_are_learners=False,
    algorithm_settings="systems",
)
