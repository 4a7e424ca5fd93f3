"""Learning-curve points: how many training examples each percentage means, and which.

The thesis (§4.1) trains on increasing percentages of each training fold. We use nested
subsets, the prefixes of one random permutation of the fold (as the reference harness
does), so a larger point always contains the smaller ones and curves are smooth and
comparable; the permutation depends only on (experiment seed, dataset, run, fold), so every
algorithm sees the same subsets.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

import numpy as np

from redecorate.protocol.folds import SeedLike, _generator

__all__ = ["curve_size", "curve_sizes", "training_order"]


def _exact(value: float | int) -> Fraction:
    """Exact rational of a percentage as written (``2.5`` -> 5/2), so rounding has no float noise."""
    return Fraction(value) if isinstance(value, int) else Fraction(str(value))


def curve_size(n_train: int, pct: float | int) -> int:
    """Number of examples at ``pct`` % of ``n_train``: max(1, floor(pct·n/100 + 0.5)).

    Round half up (Weka's ``Math.round``) rather than Python's banker's rounding, at least
    one example (a 1 % point of a 50-example fold still trains on something), at most all.
    """
    if n_train < 1:
        raise ValueError(f"n_train must be >= 1, got {n_train}")
    if not 0 < pct <= 100:
        raise ValueError(f"learning-curve points are percentages in (0, 100], got {pct!r}")
    n = math.floor(_exact(pct) * n_train / 100 + Fraction(1, 2))
    return min(n_train, max(1, n))


def curve_sizes(n_train: int, points: Sequence[float | int]) -> list[int]:
    """:func:`curve_size` for every point, in the given order."""
    return [curve_size(n_train, p) for p in points]


def training_order(train_idx: Sequence[int] | np.ndarray, seed: SeedLike) -> np.ndarray:
    """A fixed random permutation of ``train_idx``; its prefixes are the curve's subsets.

    Use ``seed_sequence(seed, "order", dataset, run, fold)`` as ``seed``.
    """
    idx = np.asarray(train_idx, dtype=np.int64)
    return idx[_generator(seed).permutation(len(idx))]
