"""Missing features (§5.1.1, item 1).

"To introduce N% missing features to a data set of D instances, each of which has F
features (excluding the class label), we select randomly with replacement N·D·F/100
instances and for each of them delete the value of a randomly chosen feature. Missing
features were introduced to both the training and testing sets."

Faithful consequences (spec §1.10): a cell drawn twice, or already missing, is not deleted
again, so the effective rate is below N %; the class is never touched.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from redecorate.corrupt.draws import SeedLike, generator, n_draws, numeric_copy

__all__ = ["add_missing_features"]


def add_missing_features(X: pd.DataFrame, level: float | int, seed: SeedLike) -> pd.DataFrame:
    """Return a copy of ``X`` with ``N·D·F/100`` drawn cells set missing (NaN).

    Args:
        X: attributes of the set being corrupted (a training or a test fold); nominal
            columns ``Categorical`` (categories are kept), numeric columns float.
        level: N, the percentage of missing features.
        seed: the stream of this (run, fold, level, train/test) set; see
            :func:`redecorate.corrupt.corruption_seed`.

    Draws: instance indices first, then feature indices, each uniform with replacement.
    """
    out = numeric_copy(X)
    n_rows, n_features = out.shape
    n = n_draws(level, n_rows, n_features)
    if n == 0 or n_rows == 0 or n_features == 0:
        return out
    rng = generator(seed)
    rows = rng.integers(0, n_rows, size=n)
    cols = rng.integers(0, n_features, size=n)
    for j in np.unique(cols):
        hit = np.unique(rows[cols == j])
        column = out.iloc[:, j].copy()
        column.iloc[hit] = np.nan  # Categorical accepts NaN and keeps its categories
        out[out.columns[j]] = column
    return out
