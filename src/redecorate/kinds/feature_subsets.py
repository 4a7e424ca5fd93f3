"""Kind ``feature_subsets``: ensembles of feature subsets over ensemble sizes (Bommaganti).

Unit of work: one algorithm × one run of k-fold cross-validation (:func:`_evaluate_fold`
for one fold). Each training fold is used
whole (the source has no learning curve); an ensemble is fitted once at its full size and
evaluated at every size of ``ensemble_sizes`` from its first members (``staged_predict_proba``:
member i does not depend on the ensemble size, so stage i is the ensemble of size i), which
is how one fit gives the source's curves over ensemble size (Figs. 10–22) and its tables at
size 25 (Tables 5–7). A single classifier has one size: its accuracy is recorded at every
size, the flat line the source draws for C4.5. Records' ``point`` is the ensemble size.

Report: :mod:`redecorate.report.feature_subsets`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from redecorate.config import ExperimentConfigError
from redecorate.kinds.fitting import encoded, fit_encoded, learner_failures, whole_fold_fit_seconds
from redecorate.kinds.kind import DatasetShape, ExperimentKind, ExperimentSpec, Fold, Record, Unit
from redecorate.kinds.report_keys import deferred_report, require_algorithms
from redecorate.protocol.job import learner_seed
from redecorate.protocol.settings import JobSettings, KeyLayout

__all__ = ["FEATURE_SUBSETS", "evaluate_sizes"]

SCHEMA: dict[str, Any] = {
    "required": ["ensemble_sizes"],
    "properties": {
        "ensemble_sizes": {
            "description": (
                "ensemble sizes to evaluate (the records' point), each at most every ensemble's "
                "n_estimators; the source's tables use 25 and its figures 5 to 25"
            ),
            "type": "array",
            "minItems": 1,
            "uniqueItems": True,
            "items": {"type": "integer", "minimum": 1},
        },
    },
    "profile_properties": {
        "ensemble_sizes": {"type": "array", "minItems": 1, "uniqueItems": True,
                           "items": {"type": "integer", "minimum": 1}},
    },
}

REPORT_SCHEMA: dict[str, Any] = {
    "tables": {
        "description": (
            "table number -> the algorithms that are its columns, in order (Bommaganti's Tables "
            "5-7); default one table of every algorithm"
        ),
        "type": "object",
        "additionalProperties": {"type": "array", "minItems": 1, "items": {"type": "string"}},
    },
    "table_size": {
        "description": "the ensemble size the tables report (one of ensemble_sizes, default the largest)",
        "type": "integer",
        "minimum": 1,
    },
}


def _sizes(job: JobSettings) -> list[int]:
    """The ensemble sizes in ascending order (the file's ``ensemble_sizes``, as the records and
    unit keys have always had them)."""
    return sorted(int(s) for s in job.points)


def evaluate_sizes(estimator: Any, X_test: np.ndarray, sizes: list[int]) -> dict[int, np.ndarray]:
    """Class-code predictions of a fitted model at each ensemble size in ``sizes``.

    Ensembles with ``staged_predict_proba_prepared`` are cut after their first ``size``
    members; any other model is one classifier and predicts the same at every size.
    """
    staged = getattr(estimator, "staged_predict_proba_prepared", None)
    if staged is None:
        codes = np.argmax(estimator.predict_proba_prepared(X_test), axis=1)
        return dict.fromkeys(sizes, codes)
    wanted, out = set(sizes), {}
    for size, proba in enumerate(staged(X_test), start=1):
        if size in wanted:
            out[size] = np.argmax(proba, axis=1)
        if len(out) == len(wanted):
            break
    missing = sorted(wanted - set(out))
    if missing:
        raise ValueError(f"ensemble has {size} members; cannot evaluate sizes {missing}")
    return out


def _evaluate_fold(fold: Fold) -> list[Record]:
    """One fold: the ensemble fitted once on the whole training fold at its full size, then
    tested at every ensemble size from its first members."""
    job, data = fold.job, encoded(fold)
    sizes = _sizes(job)
    train, test = fold.train, fold.test
    seed = learner_seed(job.seed, fold.dataset.name, fold.run, fold.index, fold.algorithm, max(sizes))
    with learner_failures(fold.where()):
        model, fit_seconds = fit_encoded(fold, seed, train)
        predictions = evaluate_sizes(model, data.X[test], sizes)
    single = not hasattr(model, "staged_predict_proba_prepared")
    return [Record(size, len(train), "accuracy", 100.0 * float(np.mean(predictions[size] == data.y[test])),
                   fit_seconds, 1 if single else size)
            for size in sizes]  # fmt: skip


def _unit_cost(job: JobSettings, unit: Unit, shape: DatasetShape) -> float:
    return job.folds * whole_fold_fit_seconds(job, unit, shape)


def _check(spec: ExperimentSpec) -> None:
    """Every evaluated size must exist (no ensemble smaller than the largest size)."""
    for table, labels in (spec.report.get("tables") or {}).items():
        require_algorithms(spec, f"report.tables.{table}", labels)
    size = spec.report.get("table_size")
    if size is not None and size not in spec.protocol.points:
        raise ExperimentConfigError(
            f"experiment file {spec.path}: key 'report.table_size': {size} is not among "
            f"ensemble_sizes {list(spec.protocol.points)} at scale {spec.scale!r}; add it to "
            "ensemble_sizes (and to the profile's)"
        )
    largest = max(int(s) for s in spec.protocol.points)
    for label, params in spec.algorithms.items():
        size = params.get("n_estimators")
        if isinstance(size, int) and size < largest:
            raise ExperimentConfigError(
                f"experiment file {spec.path}: key 'algorithms.{label}.n_estimators': {size} "
                f"members cannot be evaluated at ensemble size {largest} (ensemble_sizes); "
                f"set n_estimators to at least {largest}"
            )


FEATURE_SUBSET_LEARNER = "feature_subset_ensemble"
"""The registry learner whose ``k`` is checked against the datasets' features before any job
(its ``strategy``, as every learner parameter, by the learner: ``check_learner_params``)."""


def _subset_ensembles(spec: ExperimentSpec) -> dict[str, dict[str, Any]]:
    """Algorithm label -> parameters, of the algorithms that are feature-subset ensembles."""
    return {label: params for label, params in spec.algorithms.items()
            if spec.learner_of(label) == FEATURE_SUBSET_LEARNER}  # fmt: skip


def _check_datasets(spec: ExperimentSpec, entries: Mapping[str, Any]) -> None:
    """``k`` must leave some dataset of the experiment with features to choose from.

    With k at least a dataset's number of features every member sees all of them (k is
    capped, as the source's "≤ 6" and "≤ 12" columns are), and the ensemble is plain bagged
    J48 there. On some datasets that is the source's reading; on every dataset the feature
    subsets compare nothing, which is a mistaken k (``k: 50`` on 16 features), so it fails.
    Datasets whose number of features the registry does not declare are not counted.
    """
    features = {d: int(e.attributes) for d, e in entries.items() if e.attributes}
    if not features:
        return
    for label, params in _subset_ensembles(spec).items():
        k = params.get("k", 2)
        if isinstance(k, int) and k >= max(features.values()):
            widths = ", ".join(f"{d} {n}" for d, n in features.items())
            raise ExperimentConfigError(
                f"experiment file {spec.path}: key 'algorithms.{label}.k': k={k} is at least the "
                f"number of features of every dataset at scale {spec.scale!r} ({widths}), so "
                "every member would see all the features: bagged J48, not an ensemble of feature "
                f"subsets; fix: set k below {max(features.values())} (the source uses 2, 6 "
                "and 12)"
            )


FEATURE_SUBSETS = ExperimentKind(  # fmt: skip
    name="feature_subsets",
    description="Bommaganti: ensembles of feature subsets, k-fold CV, evaluated over ensemble sizes",
    schema=SCHEMA, report_schema=REPORT_SCHEMA,
    evaluate_fold=_evaluate_fold, unit_cost=_unit_cost,
    report=deferred_report("redecorate.report.feature_subsets"),
    points_key="ensemble_sizes", check=_check, check_datasets=_check_datasets,
    key_layout=KeyLayout(points="sizes", sort_points=True),
)
