"""Class-probability metrics of chapter 7 (spec Part 2 M10): MSE and the area under the lift chart.

Chapter 7 asks which examples to label so that the *probabilities* become good, so its curves
are measured by the mean squared error of the predicted class distribution and by the area
under the lift chart (Nielsen 2004), not by accuracy.
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["area_under_lift_chart", "multiclass_mse"]


def _check(proba, y_codes) -> tuple[np.ndarray, np.ndarray]:
    p = np.asarray(proba, dtype=np.float64)
    y = np.asarray(y_codes, dtype=np.int64)
    if p.ndim != 2 or y.ndim != 1 or p.shape[0] != y.shape[0] or p.shape[0] == 0:
        raise ValueError(f"need (n, classes) probabilities and n class codes, got {p.shape} and {y.shape}")
    if (y < 0).any() or (y >= p.shape[1]).any():
        raise ValueError(f"class codes must be in [0, {p.shape[1]}), got {sorted(set(y.tolist()))[:5]}")
    return p, y


def multiclass_mse(proba, y_codes) -> float:
    """Mean over instances of Σ_k (P_true(k|x) − P̂(k|x))²: the multi-class Brier score.

    Summed over classes, not divided by K (M10), so a one-hot correct prediction scores 0, a
    one-hot wrong one 2, and the uniform distribution (K − 1)/K.
    """
    p, y = _check(proba, y_codes)
    truth = np.zeros_like(p)
    truth[np.arange(len(y)), y] = 1.0
    return float(np.mean(np.sum((truth - p) ** 2, axis=1)))


def area_under_lift_chart(proba, y_codes, priors, step: int = 5) -> float:
    """AULC = Σ_k π_k · AULC_k with the training-set priors π (M10).

    For class k the test instances are sorted by P̂(k|x), descending (ties in their order);
    for α = step, 2·step, …, 100 the top ⌈α·n/100⌉ instances give r_α, the fraction of class
    k among them, and the lift l(α) = r_α / r_100; AULC_k = Σ_α step · l(α) (the rectangle
    rule: l(0) is undefined). A class absent from the test set is skipped and the priors of
    the others renormalised. A random ranking has lift about 1 everywhere (AULC ≈ 100); a
    perfect one more, the more so the rarer the class.
    """
    p, y = _check(proba, y_codes)
    pi = np.asarray(priors, dtype=np.float64)
    if pi.shape != (p.shape[1],) or (pi < 0).any():
        raise ValueError(f"priors must be {p.shape[1]} non-negative numbers, got {priors!r}")
    if not 0 < step <= 100 or 100 % step:
        raise ValueError(f"step must divide 100, got {step!r}")
    n = len(y)
    alphas = range(step, 101, step)
    total, weight = 0.0, 0.0
    for k in range(p.shape[1]):
        is_k = y == k
        base = is_k.mean()
        if base == 0 or pi[k] == 0:
            continue
        order = np.argsort(-p[:, k], kind="stable")
        hits = np.cumsum(is_k[order])
        lift = [hits[math.ceil(a * n / 100) - 1] / math.ceil(a * n / 100) / base for a in alphas]
        total += pi[k] * step * float(np.sum(lift))
        weight += pi[k]
    if weight == 0:
        raise ValueError("no class with a positive prior occurs in the test set")
    return total / weight
