"""Helpers shared by the three corruption procedures of §5.1.1.

Every procedure of the dissertation draws ``N·D·F/100`` (or ``N·D/100``) items *with
replacement*; the count is not always an integer and the thesis does not say how it is
rounded, so it is rounded half up (spec Part 8, C.18), the same convention as the
learning-curve sizes. The arithmetic is exact (``Fraction``) so that e.g. 15 % of 57 × 16
cells never depends on binary floating point.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pandas as pd

from redecorate.util import SeedLike, as_generator

__all__ = ["SeedLike", "n_draws", "generator", "check_level"]


def check_level(level: float | int) -> None:
    """Noise levels are percentages in [0, 100]; anything else is a configuration mistake."""
    if isinstance(level, bool) or not isinstance(level, int | float | np.integer | np.floating):
        raise TypeError(f"noise level must be a number (percent), got {level!r}")
    if not 0 <= level <= 100:
        raise ValueError(f"noise level must be a percentage in [0, 100], got {level!r}")


def n_draws(level: float | int, *sizes: int) -> int:
    """``round_half_up(level · ∏ sizes / 100)``: how many items §5.1.1 draws.

    ``n_draws(N, D, F)`` is the number of (instance, feature) draws of missing features and
    feature noise; ``n_draws(N, D)`` the number of instances of class noise.
    """
    check_level(level)
    exact = Fraction(level) if isinstance(level, int | np.integer) else Fraction(str(level))
    for size in sizes:
        if size < 0:
            raise ValueError(f"sizes must be >= 0, got {sizes}")
        exact *= int(size)
    return math.floor(exact / 100 + Fraction(1, 2))


def generator(seed: SeedLike) -> np.random.Generator:
    """A Generator from the protocol's SeedSequence (or an int, or a ready Generator)."""
    return as_generator(seed)


def last_occurrence(keys: np.ndarray) -> np.ndarray:
    """Indices of the last occurrence of each distinct key, in increasing order.

    When the same cell is drawn twice, the sequential procedure of the thesis leaves the
    *later* value in place; vectorised assignment must keep exactly that one.
    """
    if len(keys) == 0:
        return np.zeros(0, dtype=np.intp)
    reversed_keys = keys[::-1]
    _, first_in_reversed = np.unique(reversed_keys, return_index=True)
    return np.sort(len(keys) - 1 - first_in_reversed)


def numeric_copy(X: pd.DataFrame) -> pd.DataFrame:
    """A deep copy whose non-nominal columns are float64 (so NaN and Gaussian draws fit).

    A :class:`~redecorate.data.Dataset` already stores numeric attributes as float; the
    conversion only matters for hand-built frames with integer columns.
    """
    out = X.copy(deep=True)
    for name, dtype in out.dtypes.items():
        if not isinstance(dtype, pd.CategoricalDtype) and dtype != np.float64:
            out[name] = out[name].astype(np.float64)
    return out
