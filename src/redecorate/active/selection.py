"""How a batch of ``m`` pool examples is chosen once every example has a utility.

Three rules, each a pure function of the utilities and a :class:`numpy.random.Generator`:

* :func:`top_m` — the ``m`` most useful examples (Algorithm 4 step 4: "select a subset S
  of m examples that maximizes utility"); ties broken at random (spec §1.6) or, on
  request, by pool position.
* :func:`proportional_sample` — ``m`` distinct examples drawn with probability
  proportional to their score (ActiveDecorate-JS and the Bootstrap methods, §7.1–7.2,
  spec §1.7), which "reduces the probability of adding outliers to the training data and
  avoids selecting many similar or identical examples".
* :func:`random_sample` — ``m`` examples uniformly at random, the random-sampling baseline
  (DECORATE in Tables 6.1–6.4).

Each returns positions into the utility array, never the same position twice.
"""

from __future__ import annotations

import numbers

import numpy as np

from redecorate.arithmetic import on_tie_grid

__all__ = ["TIE_BREAKS", "proportional_sample", "random_sample", "top_m"]

TIE_BREAKS: tuple[str, ...] = ("random", "first")
"""How :func:`top_m` orders examples of equal utility: at random, or lowest position first."""


def _check_m(m: object) -> int:
    if not isinstance(m, numbers.Integral) or isinstance(m, bool) or m < 0:
        raise ValueError(f"the sample size m must be a non-negative integer, got {m!r}")
    return int(m)


def _check_rng(rng: object) -> np.random.Generator:
    if not isinstance(rng, np.random.Generator):
        raise TypeError(
            f"rng must be a numpy.random.Generator (e.g. numpy.random.default_rng(seed)), "
            f"got {type(rng).__name__}"
        )
    return rng


def _check_values(values, name: str) -> np.ndarray:
    v = np.asarray(values, dtype=np.float64)
    if v.ndim != 1:
        raise ValueError(f"{name} must be one value per pool example (1-D), got shape {v.shape}")
    if not np.isfinite(v).all():
        raise ValueError(f"{name} contain NaN or infinite values")
    return v


def top_m(utility, m: int, rng: np.random.Generator | None = None, *,
          tie_break: str = "random") -> np.ndarray:
    """Positions of the ``m`` highest utilities, most useful first.

    ``tie_break="random"`` (the spec's reading of the dissertation, §1.6: "break ties
    randomly") shuffles the positions with ``rng`` before a stable sort, so every example
    of a tied group is equally likely to be taken; committees of trees tie often, because
    all pool examples in the same leaves get the same scores. ``"first"`` takes the lowest
    positions among ties (no ``rng`` needed), which makes a selection reproducible by any
    other implementation. ``m`` larger than the pool returns the whole pool, ordered.

    Two utilities tie when they are equal on the grid of
    :func:`redecorate.arithmetic.on_tie_grid` (2^-40 of the largest magnitude): values equal
    in exact arithmetic that rounding left a few bits apart are a tie, broken as above, not
    an order decided by the last bit.
    """
    u = on_tie_grid(_check_values(utility, "utilities"))
    m = min(_check_m(m), u.size)
    if tie_break == "random":
        order = _check_rng(rng).permutation(u.size)
    elif tie_break == "first":
        order = np.arange(u.size)
    else:
        raise ValueError(f"tie_break must be one of {TIE_BREAKS}, got {tie_break!r}")
    ranked = order[np.argsort(-u[order], kind="stable")]
    return ranked[:m]


def proportional_sample(scores, m: int, rng: np.random.Generator) -> np.ndarray:
    """``m`` distinct positions drawn with probability proportional to ``scores`` (spec §1.7).

    D(x_j) = score_j / Σ score: the first example is drawn from D, each next one from D
    renormalised over the examples not yet drawn (successive sampling without replacement,
    ``Generator.choice(..., replace=False, p=D)``), so the batch has ``m`` different
    examples. The dissertation says "sample a subset S of m examples from U based on the
    distribution D"; drawing *with* replacement could return fewer than ``m`` examples.

    Edge cases the dissertation does not reach, resolved as the spec recommends: if every
    score is 0 (the committee agrees everywhere) the batch is uniform; if fewer than ``m``
    examples have a positive score, all of them are taken and the rest of the batch is
    drawn uniformly from the others. Scores must be finite and non-negative.

    The scores are taken on the tie grid of :func:`redecorate.arithmetic.on_tie_grid`, as
    :func:`top_m` takes them: a committee that agrees has a disagreement of exactly 0, and
    the rounding residue (1e-17) its sums can leave instead must not make it "positive".
    """
    s = _check_values(scores, "scores")
    if (s < 0).any():
        raise ValueError("proportional sampling needs non-negative scores (a disagreement, "
                         "not a margin)")
    s = on_tie_grid(s)
    m = min(_check_m(m), s.size)
    rng = _check_rng(rng)
    positive = np.flatnonzero(s > 0)
    if positive.size <= m:
        rest = np.flatnonzero(s <= 0)
        fill = rng.choice(rest, size=m - positive.size, replace=False)
        return np.concatenate([rng.permutation(positive), fill]).astype(np.int64)
    return rng.choice(s.size, size=m, replace=False, p=s / s.sum()).astype(np.int64)


def random_sample(n: int, m: int, rng: np.random.Generator) -> np.ndarray:
    """``m`` distinct positions out of ``n``, uniformly at random (random sampling)."""
    n = _check_m(n)
    return _check_rng(rng).choice(n, size=min(_check_m(m), n), replace=False).astype(np.int64)
