"""Kind ``noise``: Chapter 5, learners on data corrupted after the split (§5.1.1).

The unit of work: one (algorithm, run) under one corruption, every fold and noise level.

§5.1.1: for each noise level N ∈ {0, 5, …, 40} %, 10 runs of 10-fold CV; the learners are
trained on the whole training fold (no learning curve) and tested on the test fold. The
data are corrupted *after* the split, per fold and per level (spec Part 8, C.15), each set
with its own D: missing features and feature noise corrupt the training and the test fold,
class noise only the training fold (:data:`redecorate.corrupt.CORRUPTIONS`).

The unit adds no loop of its own: it hands :func:`redecorate.protocol.job.run_job` a
``fold_transform`` that corrupts each split, so folds, learner seeds, error handling,
progress lines and the record schema are exactly those of the passive kind. In the records
``point`` is the noise level in %, ``n_train`` the size of the training fold and ``metric``
``accuracy``; the experiment name says which corruption it was.

Determinism: the corruption of a (run, fold, level, train/test) set is keyed by
(experiment seed, corruption, dataset, run, fold, level, part) and never by the algorithm,
so all four algorithms see identical data (the paired t-test needs it). Learner seeds are
keyed by the level as by a curve point, not by the corruption, so with the same experiment
seed the uncorrupted 0 % level gives identical records in all three Chapter 5 experiments
(the thesis's 0 % columns are one experiment; spec §1.10).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import pandas as pd

from redecorate.kinds.kind import DatasetShape, ExperimentKind, Progress, ReportOutputs, Unit
from redecorate.kinds.passive import algorithm_run_units, learners_of, unit_arguments
from redecorate.protocol.job import LearnerFactory, run_job

__all__ = ["NOISE", "run_noise_job"]


def run_noise_job(
    dataset: Any,
    *,
    experiment: str,
    algorithm: str,
    params: Mapping[str, Any],
    run: int,
    n_folds: int,
    levels: Sequence[float | int],
    corruption: str,
    seed: int,
    progress: Callable[[str], None] | None = None,
    learner_factory: LearnerFactory | None = None,
    learner: str | None = None,
) -> pd.DataFrame:
    """Every fold and noise level of one run under ``corruption``; returns the records.

    Args:
        dataset: a :class:`redecorate.data.Dataset` (``name``, ``X``, ``y``).
        experiment, algorithm, params, run, n_folds, seed, progress, learner_factory,
            learner: as for :func:`redecorate.protocol.job.run_job`.
        levels: noise levels in % (the thesis: 0, 5, …, 40); they become ``point``.
        corruption: ``missing``, ``class`` or ``feature`` (§5.1.1 items 1–3).

    Class noise flips labels among the classes *present in the whole dataset* (C.17), so
    a class missing from one training fold remains a possible noisy label.
    """
    from redecorate.corrupt import CORRUPTIONS, corrupt_fold, present_classes

    if corruption not in CORRUPTIONS:
        raise ValueError(f"unknown corruption {corruption!r}; known: {', '.join(CORRUPTIONS)}")
    classes = present_classes(dataset.y)

    def transform(
        fold: int,
        level: float | int,
        X_train: pd.DataFrame,
        y_train: pd.Series,
        X_test: pd.DataFrame,
        y_test: pd.Series,
    ) -> tuple[pd.DataFrame, pd.Series, pd.DataFrame, pd.Series]:
        return corrupt_fold(
            corruption,
            X_train,
            y_train,
            X_test,
            y_test,
            level,
            seed=seed,
            dataset=dataset.name,
            run=run,
            fold=fold,
            classes=classes,
        )

    return run_job(
        dataset,
        experiment=experiment,
        algorithm=algorithm,
        params=params,
        run=run,
        n_folds=n_folds,
        points=levels,
        seed=seed,
        progress=progress,
        learner_factory=learner_factory,
        learner=learner,
        fold_transform=transform,
    )


SCHEMA: dict[str, Any] = {
    "required": ["corruption", "levels"],
    "properties": {
        "corruption": {
            "description": (
                "the imperfection of Chapter 5 (section 5.1.1) - missing (missing features, "
                "train and test), class (class noise, train only) or feature (feature noise, "
                "train and test)"
            ),
            "enum": ["missing", "class", "feature"],
        },
        "levels": {"$ref": "#/$defs/levels"},
    },
    "profile_properties": {"levels": {"$ref": "#/$defs/levels"}},
}


def _job_settings(spec: Any) -> dict[str, Any]:
    return {
        "experiment": spec.name,
        "n_folds": spec.protocol.folds,
        "levels": list(spec.protocol.points),
        "corruption": spec.settings["corruption"],
        "seed": spec.protocol.seed,
        "algorithms": learners_of(spec),
    }


def _run_unit(dataset: Any, settings: Mapping[str, Any], unit: Unit, progress: Progress) -> pd.DataFrame:
    return run_noise_job(
        dataset,
        **unit_arguments(settings, unit),
        levels=settings["levels"],
        corruption=settings["corruption"],
        progress=progress,
    )


def _unit_cost(settings: Mapping[str, Any], unit: Unit, shape: DatasetShape) -> float:
    """Every level trains on the whole training fold."""
    from redecorate.learners.registry import estimated_fit_seconds

    entry = settings["algorithms"][unit["algorithm"]]
    k = settings["n_folds"]
    n_train = shape.n_instances * (k - 1) / k
    one = estimated_fit_seconds(entry.get("learner", unit["algorithm"]), entry["params"], n_train,
                                shape.n_attributes)  # fmt: skip
    return k * len(settings["levels"]) * one


def _report(
    records: pd.DataFrame, summary: pd.DataFrame, out: ReportOutputs, settings: Mapping[str, Any]
) -> None:
    """Tables 5.2–5.10 in the thesis's layout, Figures 5.1–5.3 and reproduced vs published."""
    from redecorate.report.conclusions import mark_comparability
    from redecorate.report.noise import (
        load_published,
        noise_comparison_tables,
        noise_conclusions,
        render_replication,
        replication_comparability,
        replication_frame,
        write_noise_figures,
        write_noise_tables,
    )

    tables = noise_comparison_tables(
        records, list(settings["report"].get("comparisons", [])),
        corruption=settings["settings"]["corruption"], datasets=settings["datasets"],
        levels=settings["points"], experiment=settings["experiment"],
    )  # fmt: skip
    print(f"{len(write_noise_tables(tables, out.tables))} table files")
    written = write_noise_figures(
        records, out.figures, settings["algorithms"], experiment=settings["experiment"]
    )
    print(f"{len(written)} figure files")
    published_cells, published_summary = load_published(settings["published"])
    replication = replication_frame(tables, published_cells)
    text = render_replication(
        tables, replication, published_summary, experiment=settings["experiment"],
        scale=settings["scale"],
    )  # fmt: skip
    out.replication_md.write_text(text, encoding="utf-8")
    replication.to_csv(out.replication_csv, index=False, lineterminator="\n")
    comparable, _ = replication_comparability(replication, settings["scale"])
    conclusions = mark_comparability(noise_conclusions(tables, replication, published_summary), comparable)
    conclusions.to_csv(out.replication_conclusions, index=False, lineterminator="\n")


NOISE = ExperimentKind(
    name="noise",
    description="Chapter 5: learners trained on whole folds corrupted at noise levels",
    schema=SCHEMA,
    job_settings=_job_settings,
    units=algorithm_run_units,
    run_unit=_run_unit,
    unit_cost=_unit_cost,
    report=_report,
    points_key="levels",
)
