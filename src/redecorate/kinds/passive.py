"""Kind ``passive``: §4.1 learning curves (Chapter 4 and its studies).

Unit of work: one algorithm × one run of k-fold cross-validation, every fold and curve point
(:func:`redecorate.protocol.job.run_job`). Report: "baseline vs others" comparison tables in
the thesis's layout (Tables 4.2–4.5), scatter plots and learning curves (Figures 4.1–4.6),
named analyses (the §4.4 and §4.5 studies) and reproduced vs published
(:mod:`redecorate.report.replication`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pandas as pd

from redecorate.kinds.kind import DatasetShape, ExperimentKind, Progress, ReportOutputs, Unit
from redecorate.protocol.curve import curve_sizes
from redecorate.protocol.job import METRICS, run_job, wants_pool

__all__ = ["PASSIVE", "algorithm_run_units", "learners_of", "unit_arguments"]

THESIS_SCATTER_POINTS = (1, 20)
"""Figures 4.1–4.4 show 1 % and 20 %."""

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


def learners_of(spec: Any) -> dict[str, dict[str, Any]]:
    """Algorithm label -> ``{"params": ..., "learner": registry name}`` (learner only when the
    label is a variant), the form every learner-based kind passes to its jobs."""
    out = {}
    for label, params in spec.algorithms.items():
        entry: dict[str, Any] = {"params": dict(params)}
        if spec.learner_of(label) != label:
            entry["learner"] = spec.learner_of(label)
        out[label] = entry
    return out


def algorithm_run_units(spec: Any) -> list[Unit]:
    """One unit per (run, algorithm), run-major: more runs only append units."""
    return [{"algorithm": a, "run": r} for r in spec.runs for a in spec.algorithms]


def _job_settings(spec: Any) -> dict[str, Any]:
    settings: dict[str, Any] = {
        "experiment": spec.name,
        "n_folds": spec.protocol.folds,
        "points": list(spec.protocol.points),
        "seed": spec.protocol.seed,
        "algorithms": learners_of(spec),
    }
    if spec.metrics != ("accuracy",):
        settings["metrics"] = list(spec.metrics)
    if spec.protocol.point_unit != "percent":
        settings["point_unit"] = spec.protocol.point_unit
    return settings


def unit_arguments(settings: Mapping[str, Any], unit: Unit) -> dict[str, Any]:
    """The arguments of :func:`~redecorate.protocol.job.run_job` that every learner-based unit
    (one algorithm × one run of k-fold CV) passes the same way."""
    entry = settings["algorithms"][unit["algorithm"]]
    return {
        "experiment": settings["experiment"],
        "algorithm": unit["algorithm"],
        "params": entry["params"],
        "learner": entry.get("learner"),
        "run": int(unit["run"]),
        "n_folds": settings["n_folds"],
        "seed": settings["seed"],
    }


def _run_unit(dataset: Any, settings: Mapping[str, Any], unit: Unit, progress: Progress) -> pd.DataFrame:
    return run_job(
        dataset,
        **unit_arguments(settings, unit),
        points=settings["points"],
        metrics=settings.get("metrics", ("accuracy",)),
        point_unit=settings.get("point_unit", "percent"),
        progress=progress,
    )


def _training_sizes(settings: Mapping[str, Any], shape: DatasetShape) -> list[float]:
    """Training-set sizes of one fold's curve (estimated on the mean training fold)."""
    k = settings["n_folds"]
    n_train = max(1, round(shape.n_instances * (k - 1) / k))
    try:
        return [float(n) for n in curve_sizes(n_train, settings["points"],
                                              settings.get("point_unit", "percent"))]
    except ValueError:  # more examples than a fold has: the job will say so; size it small
        return [float(n_train)]


def _unit_cost(settings: Mapping[str, Any], unit: Unit, shape: DatasetShape) -> float:
    from redecorate.learners.registry import estimated_fit_seconds

    entry = settings["algorithms"][unit["algorithm"]]
    learner = entry.get("learner", unit["algorithm"])
    per_fold = sum(
        estimated_fit_seconds(learner, entry["params"], n, shape.n_attributes)
        for n in _training_sizes(settings, shape)
    )
    return settings["n_folds"] * per_fold


def _check(spec: Any) -> None:
    """Pool-based DECORATE variants need unlabeled examples left over at every point.

    Their pool ``U`` is the part of the training fold outside the curve prefix (§4.6.1),
    which is empty at 100 %; the thesis stops those curves at 50 %. Caught when the file is
    read so the mistake fails before any job rather than as a failed job.
    """
    from redecorate.config import ExperimentConfigError

    protocol = spec.protocol
    # Points in examples leave a pool unless they take the whole fold; a point beyond the
    # fold already fails its job with a message, so only percentages are checked here.
    if protocol.point_unit != "percent" or max(protocol.points) < 100:
        return
    for label, params in spec.algorithms.items():
        if wants_pool(params):
            raise ExperimentConfigError(
                f"experiment file {spec.path}: key 'algorithms.{label}': "
                f"artificial={params['artificial']!r} samples from the unlabeled rest of the "
                "training fold, which is empty at point 100; stop the curve ('points') below "
                "100 as §4.6.1 does (at 50)"
            )


def _report(
    records: pd.DataFrame, summary: pd.DataFrame, out: ReportOutputs, settings: Mapping[str, Any]
) -> None:
    """Comparison tables, figures, analyses and reproduced vs published."""
    from redecorate.report.analyses import run_analyses
    from redecorate.report.figures import write_figures
    from redecorate.report.friedman import write_friedman
    from redecorate.report.published import read_published, table_numbers
    from redecorate.report.replication import write_replication
    from redecorate.report.tables import write_comparison_tables

    baseline = settings["report"].get("baseline")
    others = list(settings["report"].get("others", []))
    points = settings["points"]
    if baseline and others:
        numbers = table_numbers(read_published(settings["published"])) if settings["published"] else {}
        written = write_comparison_tables(
            records, out.tables, baseline, others, datasets=settings["datasets"], points=points,
            experiment=settings["experiment"], table_numbers=numbers,
        )  # fmt: skip
        print(f"{len(written)} table files")
        scatter = [p for p in THESIS_SCATTER_POINTS if p in points] or points[:1]
        written = write_figures(
            records, out.figures, baseline, others, scatter_points=scatter,
            experiment=settings["experiment"],
        )  # fmt: skip
        print(f"{len(written)} figure files")
    else:
        print("no report.baseline/others in the experiment file: no comparison tables or figures")
    algorithms = list(settings["algorithms"])
    if len(algorithms) >= 3 and len(settings["datasets"]) >= 2:
        written = write_friedman(records, out.tables, out.figures, algorithms=algorithms,
                                 experiment=settings["experiment"])  # fmt: skip
        print(f"Friedman test and critical-difference diagram: {len(written)} files")
    analyses = list(settings["report"].get("analyses", []))
    if analyses:
        written = run_analyses(analyses, records, out.tables, out.figures, settings)
        print(f"analyses {', '.join(analyses)}: {len(written)} files")
    # write_replication names its files as ReportOutputs stages them (one directory).
    write_replication(
        summary, settings["published"] or settings["published_dir"], out.replication_md.parent,
        records=records, experiment=settings["experiment"], scale=settings["scale"],
        disagreements=settings.get("disagreements"),
    )  # fmt: skip


PASSIVE = ExperimentKind(
    name="passive",
    description="§4.1 learning curves: algorithms × runs of k-fold CV × curve points",
    schema=SCHEMA,
    job_settings=_job_settings,
    units=algorithm_run_units,
    run_unit=_run_unit,
    unit_cost=_unit_cost,
    report=_report,
    points_key="points",
    check=_check,
)
