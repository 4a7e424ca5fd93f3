"""Entropy and information gain (Quinlan; Bommaganti §2.3, eqs. 3–4), on encoded data.

The feature-subset ensembles (:mod:`redecorate.learners.feature_subsets`) rank attributes by
the gain they would bring at the root of a tree. The source defines gain for nominal
attributes only and is silent on numeric ones and on missing values, so this module takes
C4.5's readings, the learner the source builds on:

* a numeric attribute's gain is that of its best binary split ``x <= t`` over the midpoints
  between adjacent distinct known values (Fayyad & Irani's boundary points give the same
  maximum; every midpoint is simply cheaper to explain);
* an example with the attribute missing takes no part in the split, and the gain is scaled by
  the (weighted) fraction of examples whose value is known, as C4.5 does.

Weights are example weights (all 1 for a plain training set).
"""

from __future__ import annotations

import numpy as np

__all__ = ["entropy", "feature_gains", "information_gain"]


def entropy(class_weights: np.ndarray) -> float:
    """Entropy in bits of a class distribution given as (weighted) counts: eq. 3."""
    w = np.asarray(class_weights, dtype=np.float64)
    total = w.sum()
    if total <= 0:
        return 0.0
    p = w[w > 0] / total
    return float(-(p * np.log2(p)).sum())


def _nominal_gain(x: np.ndarray, y: np.ndarray, w: np.ndarray, n_classes: int) -> float:
    values = x.astype(np.int64)
    n_values = int(values.max()) + 1 if values.size else 0
    table = np.zeros((n_values, n_classes))
    np.add.at(table, (values, y), w)
    total = w.sum()
    before = entropy(table.sum(axis=0))
    after = sum(row.sum() / total * entropy(row) for row in table if row.sum() > 0)
    return before - after


def _numeric_gain(x: np.ndarray, y: np.ndarray, w: np.ndarray, n_classes: int) -> float:
    order = np.argsort(x, kind="stable")
    xs, ys, ws = x[order], y[order], w[order]
    onehot = np.zeros((xs.size, n_classes))
    onehot[np.arange(xs.size), ys] = ws
    left = np.cumsum(onehot, axis=0)[:-1]  # class weights of x <= xs[i], split after row i
    cut = xs[1:] > xs[:-1]  # only between distinct values
    if not cut.any():
        return 0.0
    left = left[cut]
    total_counts = onehot.sum(axis=0)
    right = total_counts - left
    total = total_counts.sum()
    n_left, n_right = left.sum(axis=1), right.sum(axis=1)

    def rows_entropy(counts: np.ndarray, n: np.ndarray) -> np.ndarray:
        with np.errstate(divide="ignore", invalid="ignore"):
            p = counts / n[:, None]
            terms = np.where(p > 0, -p * np.log2(np.where(p > 0, p, 1.0)), 0.0)
        return terms.sum(axis=1)

    after = (n_left * rows_entropy(left, n_left) + n_right * rows_entropy(right, n_right)) / total
    return float(entropy(total_counts) - after.min())


def information_gain(x: np.ndarray, y: np.ndarray, *, nominal: bool, n_classes: int | None = None,
                     sample_weight: np.ndarray | None = None) -> float:
    """Gain(S, A) of one encoded attribute column ``x`` (NaN = missing) for class codes ``y``.

    Eq. 4 for a nominal attribute (one branch per value); the best binary split for a numeric
    one; times the known fraction when values are missing (see the module docstring).
    """
    x = np.asarray(x, dtype=np.float64)
    y = np.asarray(y, dtype=np.int64)
    w = np.ones(x.size) if sample_weight is None else np.asarray(sample_weight, dtype=np.float64)
    k = int(y.max()) + 1 if n_classes is None else int(n_classes)
    known = ~np.isnan(x)
    total = w.sum()
    if total <= 0 or not known.any():
        return 0.0
    xk, yk, wk = x[known], y[known], w[known]
    gain = _nominal_gain(xk, yk, wk, k) if nominal else _numeric_gain(xk, yk, wk, k)
    return max(0.0, gain) * float(wk.sum() / total)


def feature_gains(X: np.ndarray, y: np.ndarray, is_nominal: np.ndarray, n_classes: int,
                  sample_weight: np.ndarray | None = None) -> np.ndarray:
    """:func:`information_gain` of every column of the encoded matrix ``X``."""
    return np.array([
        information_gain(X[:, j], y, nominal=bool(is_nominal[j]), n_classes=n_classes,
                         sample_weight=sample_weight)
        for j in range(X.shape[1])
    ])
