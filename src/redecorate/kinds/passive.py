"""Kind ``passive``: §4.1 learning curves (Chapter 4 and its studies).

Unit of work: one algorithm × one run of k-fold cross-validation, every fold and curve point
(:func:`_evaluate_fold`, :func:`run_job` outside the workflow). Report: "baseline vs others" comparison tables in
the thesis's layout (Tables 4.2–4.5), scatter plots and learning curves (Figures 4.1–4.6),
named analyses (the §4.4 and §4.5 studies) and reproduced vs published
(:mod:`redecorate.report.passive`).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pandas as pd

from redecorate.config import ExperimentConfigError
from redecorate.kinds.fitting import TrainingSet, fit_and_score, takes_pool, unit_learner
from redecorate.kinds.kind import (
    DatasetShape,
    ExperimentKind,
    ExperimentSpec,
    Fold,
    Record,
    Unit,
)
from redecorate.kinds.report_keys import deferred_report
from redecorate.kinds.unit import run_unit
from redecorate.learners.cost import estimated_fit_seconds
from redecorate.learners.registry import ALGORITHMS, learner_class
from redecorate.protocol.curve import POINT_UNITS, curve_sizes, training_order
from redecorate.protocol.job import METRICS, JobError, LearnerFactory, point_value
from redecorate.protocol.seeds import seed_sequence
from redecorate.protocol.settings import JobSettings, KindSettings

__all__ = ["PASSIVE", "PassiveSettings", "run_job"]

SCHEMA: dict[str, Any] = {
    "required": ["points"],
    "properties": {
        "points": {
            "description": (
                "learning-curve points - percentages of the training fold in (0, 100], or with "
                "point_unit examples whole numbers of training examples"
            ),
            "$ref": "#/$defs/points",
        },
        "point_unit": {
            "description": (
                "what a point means - percent (of the training fold, section 4.1; the default) "
                "or examples (a number of training examples, Table 4.7 - 10 to 30); either way "
                "the training set is a prefix of the fold's fixed random order. The records' "
                "point is then that number of examples. Profiles cannot change it"
            ),
            "enum": ["percent", "examples"],
            "default": "percent",
        },
        "metrics": {
            "description": (
                "record metrics of each (fold, point) - accuracy (always) and optionally "
                "diversity (Eq. 3.2 of the fitted ensemble on the test fold, section 4.4) and "
                "member_error (mean test error of the members alone, in %, for the ensemble "
                "error reduction of section 4.4)"
            ),
            "type": "array",
            "minItems": 1,
            "uniqueItems": True,
            "contains": {"const": "accuracy"},
            "items": {"enum": list(METRICS)},
            "default": ["accuracy"],
        },
    },
    "profile_properties": {"points": {"$ref": "#/$defs/points"}},
    # point_unit decides what `points` (here and in every profile) may hold: percentages in
    # (0, 100] by default, whole numbers of examples >= 1 with `point_unit: examples`.
    "allOf": [
        {
            "if": {"properties": {"point_unit": {"const": "examples"}}, "required": ["point_unit"]},
            "then": {
                "properties": {
                    "points": {"items": {"$ref": "#/$defs/example_point"}},
                    "profiles": {"additionalProperties": {
                        "properties": {"points": {"items": {"$ref": "#/$defs/example_point"}}}}},
                }
            },
            "else": {
                "properties": {
                    "points": {"items": {"$ref": "#/$defs/percent_point"}},
                    "profiles": {"additionalProperties": {
                        "properties": {"points": {"items": {"$ref": "#/$defs/percent_point"}}}}},
                }
            },
        }
    ],
}


@dataclass(frozen=True)
class PassiveSettings(KindSettings):
    """The passive kind's own keys (the curve points are the protocol's ``points``).

    Attributes:
        point_unit: ``percent`` of the training fold (§4.1) or a number of ``examples``
            (Table 4.7); not a profile key: a profile changes how much is run, never what a
            point means.
        metrics: record metrics of each (fold, point) (:data:`redecorate.protocol.job.METRICS`).
    """

    point_unit: str = "percent"
    metrics: tuple[str, ...] = ("accuracy",)

    def __post_init__(self) -> None:
        if self.point_unit not in POINT_UNITS:
            raise ValueError(f"point_unit must be one of {POINT_UNITS}, got {self.point_unit!r}")
        if set(self.metrics) - set(METRICS) or "accuracy" not in self.metrics:
            raise ValueError(f"metrics must include 'accuracy' and be among {METRICS}; got {list(self.metrics)}")


def _evaluate_fold(fold: Fold) -> list[Record]:
    """Every curve point of one fold: the prefix of the fold's fixed random order of that size
    is labeled and trained on; with a pool-based DECORATE variant the rest of the training
    fold is ``U`` (§4.6.1), so such curves stop below 100 % as the dissertation's do."""
    job, options = fold.job, fold.job.options
    if fold.first and getattr(fold.dataset, "weights", None) is not None:
        # None of the thesis datasets carries ARFF instance weights; say so rather than
        # silently treating a weighted dataset as unweighted.
        fold.progress(f"[{job.experiment}] {fold.dataset.name}: instance weights are ignored")
    order = training_order(fold.train, seed_sequence(job.seed, "order", fold.dataset.name, fold.run, fold.index))
    try:
        sizes = curve_sizes(len(order), job.points, options.point_unit)
    except ValueError as exc:  # e.g. 30 examples asked of a 27-example fold
        raise JobError(f"{fold.where()}: {exc}") from exc
    pool = takes_pool(fold)
    unit = "%" if options.point_unit == "percent" else " examples"
    records = []
    for point, n_train in zip(job.points, sizes, strict=True):
        data = (TrainingSet(X=fold.dataset.X.iloc[order[:n_train]], y=fold.dataset.y.iloc[order[:n_train]],
                            X_test=fold.dataset.X.iloc[fold.test], y_test=fold.dataset.y.iloc[fold.test],
                            pool=fold.dataset.X.iloc[order[n_train:]])
                if pool else TrainingSet(rows=order[:n_train]))  # fmt: skip
        where = fold.where(point=f"{point}{unit}", n_train=n_train)
        records += fit_and_score(fold, point_value(point), int(n_train), data, metrics=options.metrics,
                                 where=where)  # fmt: skip
    return records


def run_job(dataset: Any, *, experiment: str, algorithm: str, params: Mapping[str, Any], run: int,
            n_folds: int, points: Sequence[float | int], seed: int,
            progress: Callable[[str], None] | None = None,
            learner_factory: LearnerFactory | None = None,
            learner: str | None = None, metrics: Sequence[str] = ("accuracy",),
            point_unit: str = "percent") -> pd.DataFrame:
    """One passive unit outside the workflow (notebooks, tests): every fold and curve point
    of one run of ``algorithm`` (registry name ``learner``, default the label) on ``dataset``.

    The records are those a workflow job computes for the same settings; ``learner_factory``
    (``(name, params, random_state) -> estimator``) replaces the registry, e.g. with a
    recording stand-in. Raises :class:`JobError` naming where a learner failed.
    """
    entry: dict[str, Any] = {"params": dict(params)}
    if learner is not None and learner != algorithm:
        entry["learner"] = learner
    job = JobSettings(experiment=experiment, folds=n_folds, seed=seed, points=tuple(points),
                      algorithms={algorithm: entry},
                      options=PassiveSettings(point_unit=point_unit, metrics=tuple(metrics)))  # fmt: skip
    return run_unit(PASSIVE, dataset, job, {"algorithm": algorithm, "run": run},
                    progress or _stderr, learner_factory=learner_factory)  # fmt: skip


def _stderr(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def _training_sizes(settings: JobSettings, shape: DatasetShape) -> list[float]:
    """Training-set sizes of one fold's curve (estimated on the mean training fold)."""
    k = settings.folds
    n_train = max(1, round(shape.n_instances * (k - 1) / k))
    try:
        return [float(n) for n in curve_sizes(n_train, settings.points, settings.options.point_unit)]
    except ValueError:  # more examples than a fold has: the job will say so; size it small
        return [float(n_train)]


def _unit_cost(settings: JobSettings, unit: Unit, shape: DatasetShape) -> float:
    learner, params = unit_learner(settings, unit)
    per_fold = sum(
        estimated_fit_seconds(learner, params, n, shape.n_attributes, inputs=shape.n_inputs, classes=shape.n_classes)
        for n in _training_sizes(settings, shape)
    )
    return settings.folds * per_fold


def _check(spec: ExperimentSpec) -> None:
    """Pool-based DECORATE variants need unlabeled examples left over at every point.

    Their pool ``U`` is the part of the training fold outside the curve prefix (§4.6.1),
    which is empty at 100 %; the thesis stops those curves at 50 %. Caught when the file is
    read so the mistake fails before any job rather than as a failed job.
    """
    protocol = spec.protocol
    # Points in examples leave a pool unless they take the whole fold; a point beyond the
    # fold already fails its job with a message, so only percentages are checked here.
    if spec.settings.point_unit != "percent" or max(protocol.points) < 100:
        return
    for label, params in spec.algorithms.items():
        name = spec.learner_of(label)  # an unknown learner is check_learner_params' to report
        if name.strip().lower() in ALGORITHMS and learner_class(name).takes_pool(params):
            raise ExperimentConfigError(
                f"experiment file {spec.path}: key 'algorithms.{label}': "
                f"artificial={params['artificial']!r} samples from the unlabeled rest of the "
                "training fold, which is empty at point 100; stop the curve ('points') below "
                "100 as §4.6.1 does (at 50)"
            )


PASSIVE = ExperimentKind(  # fmt: skip
    name="passive",
    description="§4.1 learning curves: algorithms × runs of k-fold CV × curve points",
    settings=PassiveSettings, schema=SCHEMA, evaluate_fold=_evaluate_fold, unit_cost=_unit_cost,
    report=deferred_report("redecorate.report.passive"), points_key="points", check=_check,
)
