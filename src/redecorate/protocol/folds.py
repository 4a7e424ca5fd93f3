"""Stratified, shuffled k-fold cross-validation that never refuses a small class.

scikit-learn's ``StratifiedKFold`` warns (or raises, for fewer samples than folds) when a
class has fewer members than folds; the thesis datasets have such classes (e.g. ``anneal``,
``audio``, ``soybean``), and Weka simply deals them into as many folds as they fill. We do
the same as Weka's ``Instances.stratify``: shuffle, group the rows by class, then deal the
grouped sequence round-robin into the folds *without restarting at each class*. Each class
is therefore spread as evenly as possible, fold sizes differ by at most one, and a rare
class lands in consecutive folds after the previous class rather than always in fold 0.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from redecorate.protocol.seeds import seed_sequence
from redecorate.util import SeedLike, as_generator

__all__ = ["run_folds", "stratified_folds"]

def stratified_folds(
    y: Sequence | np.ndarray | pd.Series, n_folds: int, seed: SeedLike
) -> list[tuple[np.ndarray, np.ndarray]]:
    """Split ``range(len(y))`` into ``n_folds`` stratified (train, test) index pairs.

    Args:
        y: class labels (any hashable values; missing values form their own group).
        n_folds: number of folds, at least 2 and at most ``len(y)`` so no test fold is empty.
        seed: randomness of the shuffle; use ``seed_sequence(seed, "folds", dataset, run)``
            so that every algorithm gets the same folds.

    Returns:
        A list of ``n_folds`` pairs of sorted ``int64`` index arrays; the test folds are
        disjoint and cover every row, and each train array is the complement of its test.
    """
    labels = y.to_numpy() if isinstance(y, pd.Series) else np.asarray(y, dtype=object)
    n = len(labels)
    if isinstance(n_folds, bool) or int(n_folds) != n_folds or n_folds < 2:
        raise ValueError(f"n_folds must be an integer >= 2, got {n_folds!r}")
    if n < n_folds:
        raise ValueError(f"cannot make {n_folds} folds from {n} examples: a test fold would be empty")
    codes, _ = pd.factorize(pd.Series(labels, dtype=object), use_na_sentinel=True)
    rng = as_generator(seed)
    shuffled = rng.permutation(n)
    # Stable sort by class keeps the random order inside each class.
    grouped = shuffled[np.argsort(codes[shuffled], kind="stable")]
    fold_of = np.empty(n, dtype=np.int64)
    fold_of[grouped] = np.arange(n) % n_folds
    everything = np.arange(n, dtype=np.int64)
    return [
        (everything[fold_of != k], everything[fold_of == k]) for k in range(int(n_folds))
    ]


def run_folds(dataset: Any, n_folds: int, *, run: int, seed: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """The folds of ``run`` of a dataset (``name``, ``y``): they depend only on (experiment
    seed, dataset, run), never on the algorithm, so every algorithm of a run is paired."""
    return stratified_folds(dataset.y, n_folds, seed_sequence(seed, "folds", dataset.name, run))
