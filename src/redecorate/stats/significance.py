"""Paired significance tests used to mark a table cell as a significant win or loss.

The dissertation (§4.1, [L541]) counts a win or loss as *significant* when "the difference
in values is determined to be significant at the 0.05 level by a paired t-test" over the
runs × folds of 10×10 cross-validation. :func:`paired_t_test` is that test, kept exactly
as the thesis used it so the replicated "Sig. W/D/L" rows are comparable.

The plain paired t-test treats the 100 run × fold differences as independent although the
training sets of different folds overlap heavily, which makes it liberal (Dietterich 1998;
Nadeau & Bengio 2003). :func:`corrected_resampled_t_test` is the Nadeau–Bengio correction.
It is reported *next to* the thesis's test, as an extra row, so that a reader can see which
conclusions survive a more conservative test; it never replaces the thesis's test.

Both tests treat degenerate inputs the way Weka's ``PairedStats`` does, because the
thesis's numbers came out of Weka: with zero variance of the differences, identical
systems (all differences 0) give p = 1, and a constant non-zero difference gives p = 0.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

__all__ = ["TestResult", "paired_t_test", "corrected_resampled_t_test", "paired_differences"]

ArrayLike = Sequence[float] | np.ndarray


class TestResult(NamedTuple):
    """A t statistic and its two-sided p-value (unpacks as ``t, p``)."""

    t: float
    p: float


def paired_differences(a: ArrayLike, b: ArrayLike) -> np.ndarray:
    """Return ``a - b`` as float64 after checking that the two samples can be paired.

    Pairing is positional: element *i* of ``a`` and of ``b`` must come from the same run and
    fold (the same train/test split). The caller is responsible for aligning them; this
    function only refuses inputs that cannot possibly be aligned (different lengths, NaN).
    """
    a_arr = np.asarray(a, dtype=np.float64).ravel()
    b_arr = np.asarray(b, dtype=np.float64).ravel()
    if a_arr.shape != b_arr.shape:
        raise ValueError(f"paired samples differ in length: {a_arr.size} vs {b_arr.size}")
    if a_arr.size == 0:
        raise ValueError("paired samples are empty")
    if not (np.all(np.isfinite(a_arr)) and np.all(np.isfinite(b_arr))):
        raise ValueError("paired samples contain NaN or infinite values")
    return a_arr - b_arr


def _t_from_differences(d: np.ndarray, variance_factor: float) -> TestResult:
    """Two-sided t-test of mean(d) = 0 with variance ``variance_factor * var(d)`` and n-1 dof.

    ``variance_factor`` is 1/n for the plain paired test and (1/n + n_test/n_train) for the
    Nadeau–Bengio corrected test; everything else (degenerate cases, dof) is shared.
    """
    n = d.size
    mean = float(d.mean())
    if not np.any(d):
        # Identical results on every split: there is no evidence of any difference, so the
        # cell must be a draw. scipy would return NaN (0/0); NaN would propagate into the
        # tables and look like a missing result instead of a draw. Weka does the same.
        return TestResult(0.0, 1.0)
    if n < 2:
        # One pair and a non-zero difference: no degrees of freedom, no test (Weka: p = 1).
        return TestResult(math.nan, 1.0)
    # Compare the differences themselves rather than var(d) == 0: the variance of many
    # equal non-zero values can carry rounding noise and yield an absurd finite t.
    if np.all(d == d[0]):
        # A constant non-zero difference is as certain as a difference can be (Weka: p = 0).
        return TestResult(math.copysign(math.inf, mean), 0.0)
    var = float(d.var(ddof=1))
    t = mean / math.sqrt(variance_factor * var)
    # Student's t survival function itself (what scipy.stats.t.sf evaluates, bit for bit),
    # imported here: scipy.special is 0.2 s, scipy.stats 0.6 s, and a report of hundreds of
    # tests that needs nothing else of scipy.stats must not pay for it, nor a job that tests
    # nothing for either.
    from scipy.special import stdtr

    p = float(2.0 * stdtr(n - 1, -abs(t)))
    return TestResult(t, min(p, 1.0))


def paired_t_test(a: ArrayLike, b: ArrayLike) -> TestResult:
    """Two-sided paired t-test of H0: mean(a - b) = 0, with n - 1 degrees of freedom.

    This is the test behind the thesis's bold cells and "Sig. W/D/L" rows (M3). It equals
    ``scipy.stats.ttest_rel(a, b)`` except in the degenerate cases: when every difference is
    0 (e.g. two learners that both predict the majority class at 1 % of the data) it returns
    ``(0.0, 1.0)`` instead of NaN, because such a cell is a draw, not a missing value; a
    constant non-zero difference returns ``(±inf, 0.0)``; a single non-zero pair returns
    ``(nan, 1.0)``.
    """
    d = paired_differences(a, b)
    return _t_from_differences(d, 1.0 / d.size)


def corrected_resampled_t_test(
    a: ArrayLike, b: ArrayLike, n_train: float, n_test: float
) -> TestResult:
    """Nadeau & Bengio (2003) corrected resampled t-test, two-sided, J - 1 dof.

    ``t = mean(d) / sqrt((1/J + n_test/n_train) * var(d))`` where J is the number of paired
    values (runs × folds) and ``var`` uses ddof = 1. The extra ``n_test/n_train`` term
    inflates the variance to account for the correlation between resamples whose training
    sets overlap, which the plain paired t-test ignores.

    ``n_train`` and ``n_test`` are the training- and test-set sizes of one resample. On a
    learning curve ``n_train`` is the size of the training *subset* at that point, so the
    correction is strongest at small points, where few training examples face a full test
    fold. This is a property of the formula, not a bug; read the corrected row accordingly.
    """
    if not (n_train > 0 and n_test > 0):
        raise ValueError(f"n_train and n_test must be positive, got {n_train}, {n_test}")
    d = paired_differences(a, b)
    return _t_from_differences(d, 1.0 / d.size + float(n_test) / float(n_train))
