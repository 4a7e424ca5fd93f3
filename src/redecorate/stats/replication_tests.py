"""The tests a replication's verdict rests on: is a reproduction's sign agreement with the
source better than a trivial prediction's beyond chance, and is a published value within the
noise of two independent estimates of the same quantity?

Why these and not a plain comparison: a table whose published signs are mostly positive is
matched by "always positive" on most cells, so a reproduction that matches a few more may be
lucky; and a published mean is itself an estimate, as noisy as the reproduced one, so the
question is whether their *difference* is within the noise of both.

* :func:`mcnemar_exact`: the paired exact test on the cells where the reproduction and the
  trivial prediction differ in correctness (McNemar 1947; exact binomial form).
* :func:`cluster_sign_flip`: the same comparison with the cells of one dataset moved together
  (a learning curve's points are not independent): a sign-flip permutation test over datasets.
* :func:`difference_half_width`: the half-width of the interval of rep − pub for two
  independent estimates with standard errors ``se_rep`` and ``se_pub``, the errors estimated
  from ``df`` degrees of freedom (Student's t).

Every function is exact or seeded, and adds in a fixed order: the same inputs give the same
p-value on every machine (:mod:`redecorate.arithmetic`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

import numpy as np

__all__ = ["EXACT_CLUSTERS", "SIGN_FLIP_DRAWS", "cluster_sign_flip", "difference_half_width", "mcnemar_exact",
           "t_quantile"]


def mcnemar_exact(better: int, worse: int) -> float:
    """One-sided exact McNemar p-value that the reproduction beats the trivial prediction.

    ``better``: cells the reproduction gets right and the trivial prediction wrong; ``worse``:
    the reverse (cells both get right, or both wrong, say nothing about which is better).
    Under H0 (neither is better) each discordant cell is a fair coin: p = P(X ≥ better) with
    X ~ Binomial(better + worse, 1/2), computed in exact integers. 1.0 with no discordant cell.
    """
    better, worse = int(better), int(worse)
    if better < 0 or worse < 0:
        raise ValueError(f"counts must be non-negative, got {better}, {worse}")
    n = better + worse
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, k) for k in range(better, n + 1))
    return float(Fraction(tail, 2**n))


EXACT_CLUSTERS = 20
"""Up to this many clusters with a non-zero difference, :func:`cluster_sign_flip` enumerates
all 2^m sign vectors (a million at 20); beyond, it draws :data:`SIGN_FLIP_DRAWS` of them."""
SIGN_FLIP_DRAWS = 200_000


def cluster_sign_flip(differences: Sequence[int], *, seed: int = 0) -> float:
    """One-sided p-value of Σ d_j under random sign flips of whole clusters.

    ``differences``: per cluster (dataset), the cells the reproduction gets right minus those
    the trivial prediction gets right. Under H0 the two are exchangeable within a cluster, so
    each d_j is as likely to be −d_j; p = P(Σ ε_j d_j ≥ Σ d_j) over independent fair signs
    ε_j. Exact enumeration up to :data:`EXACT_CLUSTERS` non-zero clusters, else a seeded Monte
    Carlo estimate (the observed vector counted, so p > 0). Integer arithmetic throughout.
    """
    d = np.asarray([int(x) for x in differences if int(x) != 0], dtype=np.int64)
    if d.size == 0:
        return 1.0
    observed = int(d.sum())
    m = d.size
    if m <= EXACT_CLUSTERS:
        codes = np.arange(2**m, dtype=np.int64)[:, None]
        signs = 1 - 2 * ((codes >> np.arange(m, dtype=np.int64)) & 1)  # every sign vector, once
        totals = (signs * d).sum(axis=1)
        return float(Fraction(int((totals >= observed).sum()), 2**m))
    rng = np.random.default_rng(seed)
    hits = 0
    for start in range(0, SIGN_FLIP_DRAWS, 10_000):
        signs = 1 - 2 * rng.integers(0, 2, size=(min(10_000, SIGN_FLIP_DRAWS - start), m), dtype=np.int64)
        hits += int(((signs * d).sum(axis=1) >= observed).sum())
    return (hits + 1) / (SIGN_FLIP_DRAWS + 1)


def t_quantile(probability: float, df: float) -> float:
    """Student's t quantile (``scipy.special.stdtrit``)."""
    # imported here: the workflow imports the replication report's modules to parse, and
    # parsing must not pay for SciPy (tests/test_architecture.py)
    from scipy.special import stdtrit

    return float(stdtrit(df, probability))


def difference_half_width(se_rep: float, se_pub: float, df: float, level: float = 0.95) -> float:
    """Half-width of the ``level`` interval of rep − pub: t_{(1+level)/2, df} · √(se_rep² + se_pub²).

    Two independent estimates of one quantity differ by a variable with variance
    se_rep² + se_pub²; with the errors estimated from ``df`` degrees of freedom the ratio is
    Student's t. NaN when a standard error or ``df`` is unknown (``df`` < 1)."""
    if not (math.isfinite(se_rep) and math.isfinite(se_pub)) or not df >= 1:
        return math.nan
    return t_quantile(0.5 + level / 2.0, df) * math.sqrt(se_rep * se_rep + se_pub * se_pub)
