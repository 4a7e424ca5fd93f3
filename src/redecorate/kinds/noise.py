"""Kind ``noise``: Chapter 5, learners on data corrupted after the split (§5.1.1).

The unit of work: one (algorithm, run) under one corruption, every fold and noise level.

§5.1.1: for each noise level N ∈ {0, 5, …, 40} %, 10 runs of 10-fold CV; the learners are
trained on the whole training fold (no learning curve) and tested on the test fold. The
data are corrupted *after* the split, per fold and per level (spec Part 8, C.15), each set
with its own D: missing features and feature noise corrupt the training and the test fold,
class noise only the training fold (:data:`redecorate.corrupt.CORRUPTIONS`).

A fold corrupts its split once per level and fits the learner on the whole (corrupted)
training fold with :func:`redecorate.kinds.fitting.fit_and_score`, so learner seeds, error
handling and the record schema are those of the passive kind. In the records
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

import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pandas as pd

from redecorate.corrupt import CORRUPTIONS, corrupt_fold, present_classes
from redecorate.kinds.fitting import TrainingSet, fit_and_score, whole_fold_fit_seconds
from redecorate.kinds.kind import DatasetShape, ExperimentKind, Fold, Record, Unit
from redecorate.kinds.report_keys import comparisons_schema, deferred_report, require_comparisons
from redecorate.kinds.unit import run_unit
from redecorate.protocol.curve import training_order
from redecorate.protocol.job import LearnerFactory, point_value
from redecorate.protocol.seeds import seed_sequence
from redecorate.protocol.settings import JobSettings, KeyLayout, KindSettings

__all__ = ["NOISE", "NoiseSettings", "run_noise_job"]

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


@dataclass(frozen=True)
class NoiseSettings(KindSettings):
    """The noise kind's own key (the levels are the protocol's points).

    Attributes:
        corruption: ``missing``, ``class`` or ``feature`` (§5.1.1 items 1–3).
    """

    corruption: str


def _evaluate_fold(fold: Fold) -> list[Record]:
    """Every noise level of one fold: the split corrupted at that level (each set with its
    own draw, keyed by level and part, never by the algorithm), the learner trained on the
    whole corrupted training fold and tested on the (possibly corrupted) test fold.

    Class noise flips labels among the classes *present in the whole dataset* (C.17), so a
    class missing from one training fold remains a possible noisy label.
    """
    job, dataset = fold.job, fold.dataset
    # The training fold in its fixed random order (the corruption draws follow the rows).
    order = training_order(fold.train, seed_sequence(job.seed, "order", dataset.name, fold.run, fold.index))
    X_train, y_train = dataset.X.iloc[order], dataset.y.iloc[order]
    X_test, y_test = dataset.X.iloc[fold.test], dataset.y.iloc[fold.test]
    classes = present_classes(dataset.y)
    records = []
    for level in job.points:
        where = fold.where(point=f"{level}%", n_train=len(order))
        data = corrupt_fold(job.options.corruption, X_train, y_train, X_test, y_test, level, seed=job.seed,
                            dataset=dataset.name, run=fold.run, fold=fold.index, classes=classes)  # fmt: skip
        records += fit_and_score(fold, point_value(level), len(order),
                                 TrainingSet(X=data[0], y=data[1], X_test=data[2], y_test=data[3]),
                                 where=where)  # fmt: skip
    return records


def run_noise_job(dataset: Any, *, experiment: str, algorithm: str, params: Mapping[str, Any], run: int,
                  n_folds: int, levels: Sequence[float | int], corruption: str, seed: int,
                  progress: Callable[[str], None] | None = None,
                  learner_factory: LearnerFactory | None = None,
                  learner: str | None = None) -> pd.DataFrame:
    """One noise unit outside the workflow (notebooks, tests): every fold and noise level of
    one run of ``algorithm`` under ``corruption``; the records a workflow job computes."""
    if corruption not in CORRUPTIONS:
        raise ValueError(f"unknown corruption {corruption!r}; known: {', '.join(CORRUPTIONS)}")
    entry: dict[str, Any] = {"params": dict(params)}
    if learner is not None and learner != algorithm:
        entry["learner"] = learner
    job = JobSettings(experiment=experiment, folds=n_folds, seed=seed, points=tuple(levels),
                      algorithms={algorithm: entry}, options=NoiseSettings(corruption=corruption))  # fmt: skip
    return run_unit(NOISE, dataset, job, {"algorithm": algorithm, "run": run},
                    progress or (lambda line: print(line, file=sys.stderr, flush=True)),
                    learner_factory=learner_factory)  # fmt: skip


def _unit_cost(settings: JobSettings, unit: Unit, shape: DatasetShape) -> float:
    """Every level trains on the whole training fold."""
    return settings.folds * len(settings.points) * whole_fold_fit_seconds(settings, unit, shape)


NOISE = ExperimentKind(  # fmt: skip
    name="noise",
    description="Chapter 5: learners trained on whole folds corrupted at noise levels",
    settings=NoiseSettings, schema=SCHEMA,
    report_schema={"comparisons": comparisons_schema(
        '"A vs B" tables as in Tables 5.2-5.10 (a and b are entries of algorithms; table is the '
        "thesis's table number, which selects the published values to compare with)")},
    evaluate_fold=_evaluate_fold, unit_cost=_unit_cost, report=deferred_report("redecorate.report.noise"),
    points_key="levels",
    check=require_comparisons, key_layout=KeyLayout(points="levels"),
)
