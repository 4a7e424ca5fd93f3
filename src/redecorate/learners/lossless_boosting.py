"""Oza's online boosting (Fig. 4.3) of naive Bayes and decision stumps, as one compiled loop.

Online boosting runs example by example and member by member: member m draws k ~ Poisson(λ)
copies of the example, learns them, classifies the example, and passes λ on, scaled by its
running error, to member m + 1. With a lossless counting member (naive Bayes, the decision
stump: Oza §2.3) each step is a few additions to weighted counts and one classification, but
in Python each costs tens of microseconds of calls, copies and dictionary look-ups: 26 µs
per member and example, against about 1 µs of arithmetic. This module holds every member's
statistics side by side in arrays, with room for each numeric attribute's distinct values,
and runs the whole loop in one compiled function.

It is the same model, bit for bit, as :class:`~redecorate.learners.online_ensembles.OnlineBoosting`'s
loop over the members' own ``partial_fit`` (``tests/test_lossless_boosting.py`` compares the
two on datasets with nominal, numeric and missing values, 2 to 19 classes):

* the Poisson draws are numpy's (``Generator.poisson``: its multiplication method below
  λ = 10, Hörmann's PTRS transformed rejection from 10 on, Stirling's series for log k!),
  taken from the ensemble's own generator in the same order, so the generator's state after
  the loop is the state numpy's draws leave; numba's own ``Generator.poisson`` takes other
  values for some λ (0.01 % of draws in a test of 200,000), which would change the members;
* a member's statistics change as :class:`~redecorate.learners.incremental.AttributeCounts`
  changes them for a one-row update (a new distinct value inserted in sorted order, weights
  added in the same order), and the members' estimators and classifications call the same
  compiled functions as the learners' own methods (naive Bayes recomputes only the class
  column a row changes: the other columns are the same numbers).

After the loop the statistics are written back into the members, which then predict as
before. Other members (the online tree, networks) take the loop of
:class:`~redecorate.learners.online_ensembles.OnlineBoosting`.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from redecorate.learners.compilation import announce_compilation
from redecorate.learners.decision_stump import DecisionStump, best_test, stump_leaves, stump_row
from redecorate.learners.incremental import AttributeCounts
from redecorate.learners.naive_bayes import (
    NaiveBayes,
    log_class_prior,
    nominal_log_column,
    normal_estimate,
    posterior_row,
    weka_estimators,
)

announce_compilation()

__all__ = ["boost_lossless_members", "compiled_member_kind"]

_NAIVE_BAYES, _STUMP = 0, 1
_KINDS = {NaiveBayes: _NAIVE_BAYES, DecisionStump: _STUMP}

_POISSON_LAM_MAX = 9.223372006484771e18
"""numpy's largest Poisson rate (it refuses larger ones with 'lam value too large')."""

_LOG_FACTORIAL_SERIES = np.array([
    8.333333333333333e-02, -2.777777777777778e-03, 7.936507936507937e-04, -5.952380952380952e-04,
    8.417508417508418e-04, -1.917526917526918e-03, 6.410256410256410e-03, -2.955065359477124e-02,
    1.796443723688307e-01, -1.39243221690590e+00])
"""Coefficients of Stirling's series for log Γ(x), as numpy's Poisson sampler evaluates it."""


def compiled_member_kind(members: list) -> int | None:
    """The compiled loop's code for these members, or None when they need the generic loop
    (members of another learner, or of a subclass that may change what a member does)."""
    kinds = {_KINDS.get(type(member)) for member in members}
    return kinds.pop() if len(kinds) == 1 and None not in kinds else None


@njit(cache=True)
def _log_gamma(x):
    """log Γ(x) by Stirling's series, shifted to x ≥ 7 and back (numpy's Poisson sampler's
    own evaluation, so the rejection test decides as numpy's does)."""
    if x == 1.0 or x == 2.0:
        return 0.0
    n = np.int64(7 - x) if x < 7.0 else 0
    x0 = x + n
    x2 = (1.0 / x0) * (1.0 / x0)
    series = _LOG_FACTORIAL_SERIES[9]
    for k in range(8, -1, -1):
        series *= x2
        series += _LOG_FACTORIAL_SERIES[k]
    result = series / x0 + 0.5 * 1.8378770664093453 + (x0 - 0.5) * math.log(x0) - x0
    for _ in range(n):
        result -= math.log(x0 - 1.0)
        x0 -= 1.0
    return result


@njit(cache=True)
def _poisson(rng, lam):
    """One Poisson(λ) draw as numpy's ``Generator.poisson`` makes it from ``rng``'s uniforms."""
    if lam >= 10:  # transformed rejection with squeeze (Hörmann 1993, PTRS)
        slam = math.sqrt(lam)
        loglam = math.log(lam)
        b = 0.931 + 2.53 * slam
        a = -0.059 + 0.02483 * b
        invalpha = 1.1239 + 1.1328 / (b - 3.4)
        vr = 0.9277 - 3.6224 / (b - 2)
        while True:
            u = rng.random() - 0.5
            v = rng.random()
            us = 0.5 - abs(u)
            k = np.int64(math.floor((2 * a / us + b) * u + lam + 0.43))
            if us >= 0.07 and v <= vr:
                return k
            if k < 0 or (us < 0.013 and v > us):
                continue
            if (math.log(v) + math.log(invalpha) - math.log(a / (us * us) + b)
                    <= -lam + k * loglam - _log_gamma(k + 1)):
                return k
    if lam == 0:
        return np.int64(0)
    limit = math.exp(-lam)  # multiplication of uniforms until their product falls below e^-λ
    k = np.int64(0)
    product = 1.0
    while True:
        product *= rng.random()
        if product > limit:
            k += 1
        else:
            return k


@njit(cache=True)
def _add_row(x, label, weight, class_w, counts, nominal, nominal_offsets, numeric, starts, ends, values,
             weights):
    """One weighted row into one member's statistics, as a one-row ``AttributeCounts`` merge:
    class weight, nominal counts, and per numeric attribute the value's weight (inserted in
    sorted order when the member has not seen the value)."""
    class_w[label] += weight
    for a in range(nominal.size):
        v = x[nominal[a]]
        if not np.isnan(v):
            code = np.int64(v)
            lo = nominal_offsets[a]
            if 0 <= code < nominal_offsets[a + 1] - lo:
                counts[lo + code, label] += weight
    for a in range(numeric.size):
        v = x[numeric[a]]
        if np.isnan(v):
            continue
        lo, hi = starts[a], ends[a]
        at = lo + np.searchsorted(values[lo:hi], v)
        if at == hi or values[at] != v:
            for i in range(hi, at, -1):
                values[i] = values[i - 1]
                weights[i] = weights[i - 1]
            values[at] = v
            weights[at] = 0.0
            ends[a] = hi + 1
        weights[at, label] += weight


@njit(cache=True)
def _refresh_stump(m, d, class_w, counts, nominal, nominal_offsets, numeric, starts, ends, values, weights,
                   attribute, threshold, leaves, n_leaves, prior):
    """Member m's stump from its statistics as they stand: the best test, its leaves and the
    prior, into the members' model arrays (at load and after every update that teaches it)."""
    best, cut, branches = best_test(class_w[m], counts[m], nominal, nominal_offsets, numeric, starts, ends[m],
                                    values[m], weights[m], d)
    member_prior, member_leaves = stump_leaves(class_w[m], branches, best)
    attribute[m], threshold[m] = best, cut
    n_leaves[m] = member_leaves.shape[0]
    leaves[m, :n_leaves[m]] = member_leaves
    prior[m] = member_prior


@njit(cache=True)
def _boost(X, y, rates, rng, kind, lambda_correct, lambda_wrong, seen,
           class_w, counts, nominal, nominal_offsets, numeric, starts, ends, values, weights,
           nominal_index, log_prior, log_table, precision, mean, sd,
           attribute, threshold, leaves, n_leaves, prior):
    """Oza's Fig. 4.3 over the rows of ``X`` in order, every member's statistics and model in
    the arrays (member first); the same steps as ``OnlineBoosting._learn``."""
    n_members, K = class_w.shape[0], class_w.shape[1]
    proba = np.empty(K)
    for i in range(X.shape[0]):
        lam = rates[i]
        if lam <= 0:  # a weightless example teaches nothing and tests nothing
            continue
        x, label = X[i], y[i]
        for m in range(n_members):
            if lam >= _POISSON_LAM_MAX or np.isnan(lam):
                raise ValueError("lam value too large")
            k = _poisson(rng, lam)
            if k:
                _add_row(x, label, float(k), class_w[m], counts[m], nominal, nominal_offsets, numeric, starts,
                         ends[m], values[m], weights[m])
                if kind == _NAIVE_BAYES:
                    log_class_prior(class_w[m], log_prior[m])
                    for a in range(nominal.size):
                        nominal_log_column(counts[m], nominal_offsets[a], nominal_offsets[a + 1], label,
                                            log_table[m])
                    for a in range(numeric.size):
                        if not np.isnan(x[numeric[a]]):
                            normal_estimate(values[m], weights[m], starts[a], ends[m, a], numeric[a],
                                             precision[m], mean[m], sd[m])
                else:
                    _refresh_stump(m, X.shape[1], class_w, counts, nominal, nominal_offsets, numeric, starts, ends,
                                   values, weights, attribute, threshold, leaves, n_leaves, prior)
                seen[m] = True
            correct = False
            if seen[m]:
                if kind == _NAIVE_BAYES:
                    posterior_row(x, nominal_index, nominal_offsets, log_table[m], log_prior[m], precision[m],
                                   mean[m], sd[m], proba)
                else:
                    stump_row(x, attribute[m], threshold[m], leaves[m, :n_leaves[m]], prior[m], proba)
                correct = np.argmax(proba) == label
            if correct:
                lambda_correct[m] += lam
                eps = lambda_wrong[m] / (lambda_correct[m] + lambda_wrong[m])
                lam *= 1.0 / (2.0 * (1.0 - eps))
            else:
                lambda_wrong[m] += lam
                eps = lambda_wrong[m] / (lambda_correct[m] + lambda_wrong[m])
                lam *= 1.0 / (2.0 * eps)


class _MemberArrays:
    """The members' :class:`AttributeCounts` side by side, member first, each numeric
    attribute with room for every distinct value it can hold after the rows to come (its
    values so far in any member and the rows' own), plus each member's current model."""

    def __init__(self, members: list, X: np.ndarray, kind: int) -> None:
        stats: list[AttributeCounts] = [member._stats for member in members]
        for s in stats:
            s.flush()
        first = stats[0]
        self.members, self.stats, self.kind = members, stats, kind
        self.nominal, self.nominal_offsets, self.numeric = first.nominal, first.nominal_offsets, first.numeric
        room = []
        for a, j in enumerate(self.numeric):
            seen = [X[:, j]] + [s.numeric_table(a)[0] for s in stats]
            column = np.concatenate(seen)
            room.append(np.unique(column[~np.isnan(column)]).size)
        self.starts = np.concatenate([[0], np.cumsum(room)]).astype(np.int64)
        n, K, size = len(members), first.n_classes, int(self.starts[-1])
        self.class_w = np.stack([s.class_w for s in stats])
        self.counts = np.stack([s.counts for s in stats])
        self.values = np.zeros((n, size))
        self.weights = np.zeros((n, size, K))
        self.ends = np.empty((n, self.numeric.size), dtype=np.int64)
        for m, s in enumerate(stats):
            for a in range(self.numeric.size):
                v, w = s.numeric_table(a)
                lo = self.starts[a]
                self.values[m, lo:lo + v.size] = v
                self.weights[m, lo:lo + v.size] = w
                self.ends[m, a] = lo + v.size
        d = X.shape[1]
        self.nominal_index = np.full(d, -1, dtype=np.int64)
        self.nominal_index[self.nominal] = np.arange(self.nominal.size)
        self.log_prior = np.zeros((n, K))
        self.log_table = np.zeros(self.counts.shape)
        self.precision = np.zeros((n, d))
        self.mean = np.zeros((n, K, d))
        self.sd = np.zeros((n, K, d))
        widths = [2, 1, *np.diff(self.nominal_offsets).tolist()]
        self.attribute = np.full(n, -1, dtype=np.int64)
        self.threshold = np.full(n, np.nan)
        self.leaves = np.zeros((n, max(widths), K))
        self.n_leaves = np.ones(n, dtype=np.int64)
        self.prior = np.zeros((n, K))
        for m in range(n):
            self._model(m, d)

    def _model(self, m: int, d: int) -> None:
        """Member m's model from its statistics as they stand."""
        starts = self.starts[:-1]
        if self.kind == _NAIVE_BAYES:
            (self.log_prior[m], self.log_table[m], self.precision[m], self.mean[m], self.sd[m]) = weka_estimators(
                self.class_w[m], self.counts[m], self.nominal_offsets, starts, self.ends[m], self.values[m],
                self.weights[m], self.numeric, d)
            return
        _refresh_stump(m, d, self.class_w, self.counts, self.nominal, self.nominal_offsets, self.numeric, starts,
                       self.ends, self.values, self.weights, self.attribute, self.threshold, self.leaves,
                       self.n_leaves, self.prior)

    def write_back(self, rows: int) -> None:
        """Each member's statistics back into its :class:`AttributeCounts` (packed), and its
        memo of estimators cleared, so it predicts from what it has learned."""
        for m, (member, s) in enumerate(zip(self.members, self.stats, strict=True)):
            s.class_w = self.class_w[m].copy()
            s.counts = self.counts[m].copy()
            pieces = [slice(self.starts[a], self.ends[m, a]) for a in range(self.numeric.size)]
            s.values = np.concatenate([self.values[m, p] for p in pieces]) if pieces else np.empty(0)
            s.weights = (np.concatenate([self.weights[m, p] for p in pieces]) if pieces
                         else np.zeros((0, s.n_classes)))
            s.numeric_offsets = np.concatenate([[0], np.cumsum([p.stop - p.start for p in pieces])]).astype(np.int64)
            s._merged += rows
            member._cache = {}


def boost_lossless_members(members: list, kind: int, X: np.ndarray, y: np.ndarray, rates: np.ndarray,
                           rng: np.random.Generator, lambda_correct: np.ndarray, lambda_wrong: np.ndarray,
                           seen: np.ndarray) -> None:
    """Online boosting of ``members`` (all of the learner :func:`compiled_member_kind` named
    ``kind``) over the encoded rows ``X`` with class codes ``y`` and Poisson rates ``rates``,
    updating λ_sc, λ_sw and ``seen`` in place and drawing from ``rng``."""
    arrays = _MemberArrays(members, X, kind)
    _boost(np.ascontiguousarray(X, dtype=np.float64), np.asarray(y, dtype=np.int64),
           np.asarray(rates, dtype=np.float64), rng, kind, lambda_correct, lambda_wrong, seen,
           arrays.class_w, arrays.counts, arrays.nominal, arrays.nominal_offsets, arrays.numeric,
           arrays.starts[:-1], arrays.ends, arrays.values, arrays.weights, arrays.nominal_index,
           arrays.log_prior, arrays.log_table, arrays.precision, arrays.mean, arrays.sd,
           arrays.attribute, arrays.threshold, arrays.leaves, arrays.n_leaves, arrays.prior)
    arrays.write_back(X.shape[0])
