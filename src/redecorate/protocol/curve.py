"""Learning-curve points: how many training examples each point means, and which.

The thesis (§4.1) trains on increasing percentages of each training fold. We use nested
subsets, the prefixes of one random permutation of the fold (as the reference harness
does), so a larger point always contains the smaller ones and curves are smooth and
comparable; the permutation depends only on (experiment seed, dataset, run, fold), so every
algorithm sees the same subsets.

A point is a percentage of the training fold by default (``point_unit: percent``). Table 4.7
(§4.4) instead trains on 10, 15, ..., 30 *examples*; with ``point_unit: examples`` a point is
that number of examples, the prefix of the same permutation, so the two kinds of curve differ
only in how a point is turned into a size (:func:`curve_sizes`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

import numpy as np

from redecorate.util import SeedLike, as_generator, exact_fraction

__all__ = ["POINT_UNITS", "curve_size", "curve_sizes", "example_size", "training_order"]

POINT_UNITS: tuple[str, ...] = ("percent", "examples")
"""What a learning-curve point means: % of the training fold, or a number of examples."""


def curve_size(n_train: int, pct: float | int) -> int:
    """Number of examples at ``pct`` % of ``n_train``: max(1, floor(pct·n/100 + 0.5)).

    Round half up (Weka's ``Math.round``) rather than Python's banker's rounding, at least
    one example (a 1 % point of a 50-example fold still trains on something), at most all.
    """
    if n_train < 1:
        raise ValueError(f"n_train must be >= 1, got {n_train}")
    if not 0 < pct <= 100:
        raise ValueError(f"learning-curve points are percentages in (0, 100], got {pct!r}")
    n = math.floor(exact_fraction(pct) * n_train / 100 + Fraction(1, 2))
    return min(n_train, max(1, n))


def example_size(n_train: int, n_examples: float | int) -> int:
    """A point given as a number of examples: ``n_examples`` itself, checked against the fold.

    A size larger than the training fold is an error, not capped at the fold: capping would
    silently record two points with the same training set (e.g. 25 and 30 examples both on a
    27-example fold) under different labels, and the tables would compare unequal things.
    """
    if n_train < 1:
        raise ValueError(f"n_train must be >= 1, got {n_train}")
    exact = exact_fraction(n_examples)
    if exact.denominator != 1 or exact < 1:
        raise ValueError(f"points in examples are whole numbers >= 1, got {n_examples!r}")
    if exact > n_train:
        raise ValueError(
            f"point {n_examples} examples exceeds the training fold of {n_train} examples; "
            "use fewer examples, fewer folds or a larger dataset"
        )
    return int(exact)


def curve_sizes(
    n_train: int, points: Sequence[float | int], unit: str = "percent"
) -> list[int]:
    """Training-set size of every point, in the given order.

    ``unit="percent"``: :func:`curve_size` (% of the fold); ``unit="examples"``:
    :func:`example_size` (a number of examples, an error beyond the fold).
    """
    if unit == "percent":
        return [curve_size(n_train, p) for p in points]
    if unit == "examples":
        return [example_size(n_train, p) for p in points]
    raise ValueError(f"point unit must be one of {POINT_UNITS}, got {unit!r}")


def training_order(train_idx: Sequence[int] | np.ndarray, seed: SeedLike) -> np.ndarray:
    """A fixed random permutation of ``train_idx``; its prefixes are the curve's subsets.

    Use ``seed_sequence(seed, "order", dataset, run, fold)`` as ``seed``.
    """
    idx = np.asarray(train_idx, dtype=np.int64)
    return idx[as_generator(seed).permutation(len(idx))]
