"""The Chapter 5 unit of work: one (experiment, dataset, algorithm, run) under one corruption.

§5.1.1: for each noise level N ∈ {0, 5, …, 40} %, 10 runs of 10-fold CV; the learners are
trained on the whole training fold (no learning curve) and tested on the test fold. The
data are corrupted *after* the split, per fold and per level (spec Part 8, C.15), each set
with its own D: missing features and feature noise corrupt the training and the test fold,
class noise only the training fold (:data:`redecorate.corrupt.CORRUPTIONS`).

This module adds no loop of its own: it hands :func:`redecorate.protocol.job.run_job` a
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

from redecorate.protocol.job import LearnerFactory, run_job

__all__ = ["run_noise_job"]


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
