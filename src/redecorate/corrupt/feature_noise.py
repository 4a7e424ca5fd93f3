"""Feature noise (§5.1.1, item 3).

"To introduce N% feature noise to a data set of D instances, each of which has F features
(excluding the class label), we randomly select with replacement N·D·F/100 instances and
for each of them we change the value of a randomly selected feature. For nominal features,
the new value is chosen randomly with equal probability from the set of *all* possible
values. For numeric features, the new value is generated from a Normal distribution defined
by the mean and the standard deviation of the given feature, which are estimated from the
data set. Feature noise was introduced to both the training and testing sets."

Decisions (spec §1.10 and Part 8, C.16):

* "all possible values" is the *declared* domain (the Categorical's categories), so the new
  value may equal the old one and values absent from the sample can appear;
* mean and standard deviation are those of the set being corrupted (the training or the
  test fold), computed *before* any change, over its non-missing values; the standard
  deviation is the sample one (ddof = 1, as Weka's ``Instances.variance``), 0 for fewer
  than two values; a column without any value gets NaN (it stays missing);
* a missing cell that is drawn receives a value, since the procedure "changes the value";
* a cell drawn twice keeps the later draw, as the sequential procedure would.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from redecorate.corrupt.draws import (
    SeedLike,
    generator,
    last_occurrence,
    n_draws,
    numeric_copy,
)

__all__ = ["add_feature_noise", "column_statistics"]


def column_statistics(X: pd.DataFrame) -> tuple[np.ndarray, np.ndarray]:
    """Per numeric column the (mean, sample sd) the Gaussian draws use; NaN for nominal."""
    means = np.full(X.shape[1], np.nan)
    sds = np.full(X.shape[1], np.nan)
    for j, (_, column) in enumerate(X.items()):
        if isinstance(column.dtype, pd.CategoricalDtype):
            continue
        values = column.to_numpy(dtype=np.float64)
        values = values[~np.isnan(values)]
        if len(values):
            means[j] = float(values.mean())
            sds[j] = float(values.std(ddof=1)) if len(values) > 1 else 0.0
    return means, sds


def add_feature_noise(X: pd.DataFrame, level: float | int, seed: SeedLike) -> pd.DataFrame:
    """Return a copy of ``X`` with ``N·D·F/100`` drawn cells replaced by random values.

    Args:
        X: attributes of the set being corrupted (a training or a test fold).
        level: N, the percentage of feature noise.
        seed: the stream of this (run, fold, level, train/test) set.

    Draws, in this order: instance indices, feature indices, one uniform number per draw
    (the new nominal value: category ``floor(u·k)`` of the ``k`` declared ones) and one
    standard normal per draw (the new numeric value ``mean + sd·z``). Drawing both for
    every draw keeps the streams aligned whatever the mix of attribute types.
    """
    out = numeric_copy(X)
    n_rows, n_features = out.shape
    n = n_draws(level, n_rows, n_features)
    if n == 0 or n_rows == 0 or n_features == 0:
        return out
    means, sds = column_statistics(out)
    rng = generator(seed)
    rows = rng.integers(0, n_rows, size=n)
    cols = rng.integers(0, n_features, size=n)
    uniform = rng.random(n)
    normal = rng.standard_normal(n)
    keep = last_occurrence(rows.astype(np.int64) * n_features + cols)
    rows, cols, uniform, normal = rows[keep], cols[keep], uniform[keep], normal[keep]
    for j in np.unique(cols):
        mask = cols == j
        name = out.columns[j]
        column = out[name]
        if isinstance(column.dtype, pd.CategoricalDtype):
            k = len(column.cat.categories)
            if k == 0:
                continue
            codes = column.cat.codes.to_numpy().copy()
            codes[rows[mask]] = np.minimum((uniform[mask] * k).astype(np.int64), k - 1)
            out[name] = pd.Categorical.from_codes(codes, dtype=column.dtype)
        else:
            values = column.to_numpy(dtype=np.float64).copy()
            values[rows[mask]] = means[j] + sds[j] * normal[mask]
            out[name] = values
    return out
