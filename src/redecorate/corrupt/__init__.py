"""Data corruption of Chapter 5 (§5.1.1): missing features, class noise, feature noise.

Each procedure takes the typed frames of a :class:`redecorate.data.Dataset` (nominal
attributes ``Categorical`` with their declared domain, numeric float, NaN missing), returns
a corrupted *copy* with the same dtypes (never one-hot), and draws its randomness from a
stream the caller names, so that every algorithm of a run/fold/level sees identical data
(the paired t-tests need it):

* :func:`add_missing_features` — both training and test sets;
* :func:`add_class_noise` — the training set only;
* :func:`add_feature_noise` — both training and test sets.

:data:`CORRUPTIONS` maps the experiment files' ``corruption:`` names to them, with the sets
each applies to, and :func:`corrupt_fold` applies one to a (train, test) split with the
streams of :func:`corruption_seed`. The 0 % level draws nothing and returns the data
unchanged, so it is the same baseline for all three kinds (spec §1.10).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from redecorate.corrupt.class_noise import add_class_noise, present_classes
from redecorate.corrupt.draws import n_draws
from redecorate.corrupt.feature_noise import add_feature_noise, column_statistics
from redecorate.corrupt.missing import add_missing_features
from redecorate.protocol.seeds import seed_sequence
from redecorate.util import exact_fraction

__all__ = [
    "CORRUPTIONS",
    "Corruption",
    "add_class_noise",
    "add_feature_noise",
    "add_missing_features",
    "column_statistics",
    "corrupt_fold",
    "corruption_seed",
    "n_draws",
    "present_classes",
]


@dataclass(frozen=True)
class Corruption:
    """One kind of imperfection: what it corrupts and which sets (§5.1.1).

    Attributes:
        name: the ``corruption:`` value of an experiment file.
        title: the thesis's name, used in table captions ("Missing Features").
        target: ``"X"`` (attributes) or ``"y"`` (class).
        corrupts_test: whether the test set is corrupted too (missing features and feature
            noise: "introduced to both the training and testing sets"; class noise: "only to
            the training set and not to the test set").
        apply: the procedure, ``(data, level, seed) -> corrupted copy``.
    """

    name: str
    title: str
    target: str
    corrupts_test: bool
    apply: Callable[..., Any]


CORRUPTIONS: dict[str, Corruption] = {
    "missing": Corruption("missing", "Missing Features", "X", True, add_missing_features),
    "class": Corruption("class", "Class Noise", "y", False, add_class_noise),
    "feature": Corruption("feature", "Feature Noise", "X", True, add_feature_noise),
}


def corruption_seed(
    seed: int, kind: str, dataset: str, run: int, fold: int, level: float | int, part: str
) -> np.random.SeedSequence:
    """Stream of one corrupted set: (experiment seed, kind, dataset, run, fold, level, part).

    ``part`` is ``"train"`` or ``"test"``. The algorithm is deliberately not a key: every
    algorithm sees the identical corrupted fold. The level is keyed by its exact rational
    text (``5`` and ``5.0`` are the same level).
    """
    if part not in ("train", "test"):
        raise ValueError(f"part must be 'train' or 'test', got {part!r}")
    return seed_sequence(seed, "corrupt", kind, dataset, run, fold, str(exact_fraction(level)), part)


def corrupt_fold(
    kind: str,
    X_train: pd.DataFrame,
    y_train: pd.Series,
    X_test: pd.DataFrame,
    y_test: pd.Series,
    level: float | int,
    *,
    seed: int,
    dataset: str,
    run: int,
    fold: int,
    classes: Sequence | None = None,
) -> tuple[pd.DataFrame, pd.Series, pd.DataFrame, pd.Series]:
    """Corrupt one split as §5.1.1 says: after the split, each set with its own D.

    ``classes`` (class noise only) are the labels a flipped label may take; the noise job
    passes the classes present in the whole dataset. Returns new objects; the inputs are
    not modified. Sets the procedure does not touch are returned as given.
    """
    if kind not in CORRUPTIONS:
        raise ValueError(f"unknown corruption {kind!r}; known: {', '.join(CORRUPTIONS)}")
    spec = CORRUPTIONS[kind]

    def stream(part: str) -> np.random.SeedSequence:
        return corruption_seed(seed, kind, dataset, run, fold, level, part)

    if spec.target == "y":
        y_train = add_class_noise(y_train, level, stream("train"), classes=classes)
        return X_train, y_train, X_test, y_test
    X_train = spec.apply(X_train, level, stream("train"))
    if spec.corrupts_test:
        X_test = spec.apply(X_test, level, stream("test"))
    return X_train, y_train, X_test, y_test
