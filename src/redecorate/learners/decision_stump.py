"""Decision stump (Oza §2.1.1): a one-level tree, batch and online alike.

One test on the attribute of highest information gain (the ID3 criterion), one branch per
value of a nominal attribute, each leaf predicting its class distribution. Oza is silent on
numeric attributes; here they split in two at the best threshold (C4.5's midpoint between
adjacent distinct values), which needs every distinct value's class weights, so those are
the statistics kept. Examples missing the tested attribute take no part in choosing it; at
prediction they, and an empty branch, get the class distribution of all training examples.

All statistics are weighted counts, so the stump after any stream of mini-batches is the
batch stump on their union (lossless) and a weight of k is k copies (proportional): Oza's
"lossless online stump".
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from redecorate.learners.compilation import announce_compilation
from redecorate.learners.cost import FitCost
from redecorate.learners.features import FeatureSchema
from redecorate.learners.incremental import AttributeCounts, IncrementalClassifier

announce_compilation()

__all__ = ["DecisionStump", "best_test", "stump_leaves", "stump_row"]


_GAIN_MARGIN = 1e-12
"""A later attribute must beat the best gain so far by this much (ties go to the first)."""


@njit(cache=True)
def _entropy(w):
    """Entropy in bits of the class weights ``w`` (zero weights contribute nothing)."""
    total = 0.0
    for c in range(w.size):
        total += w[c]
    if total <= 0:
        return 0.0
    h = 0.0
    for c in range(w.size):
        if w[c] > 0:
            p = w[c] / total
            h -= p * math.log2(p)
    return h


@njit(cache=True)
def best_test(class_w, counts, nominal, nominal_offsets, numeric, starts, ends, values, weights, n_features):
    """The test of highest information gain over the statistics of :class:`AttributeCounts`:
    (attribute or -1, threshold or NaN, branches × classes weights of its leaves).

    Attributes are scanned in order; a nominal one splits into its declared values (the gain
    of the values observed, scaled by the known fraction), a numeric one at the midpoint of
    the adjacent distinct values with the best binary gain (the first on ties), also scaled
    by its known fraction. Numeric attribute ``numeric[a]`` holds ``values[starts[a]:ends[a]]``.
    One compiled pass: online boosting asks a member for its test
    after every example, where per-attribute array calls cost more than the arithmetic."""
    K = class_w.size
    total = 0.0
    for c in range(K):
        total += class_w[c]
    where = np.full(n_features, -1, dtype=np.int64)  # attribute -> position among its kind
    is_numeric = np.zeros(n_features, dtype=np.bool_)
    for a in range(nominal.size):
        where[nominal[a]] = a
    for a in range(numeric.size):
        where[numeric[a]] = a
        is_numeric[numeric[a]] = True
    best_gain, best_attr, best_threshold = 0.0, -1, np.nan
    best_lo, best_hi, best_split = 0, 0, 0
    column = np.empty(K)
    left = np.empty(K)
    right = np.empty(K)
    for j in range(n_features):
        a = where[j]
        if a < 0:
            continue
        if not is_numeric[j]:
            lo, hi = nominal_offsets[a], nominal_offsets[a + 1]
            observed, known_w, n = 0, 0.0, 0.0
            column[:] = 0.0
            for v in range(lo, hi):
                size = 0.0
                for c in range(K):
                    size += counts[v, c]
                    column[c] += counts[v, c]
                if size > 0:
                    observed += 1
                    known_w += size
                n += size
            if observed < 2 or n <= 0:
                continue
            after = 0.0
            for v in range(lo, hi):
                size = 0.0
                for c in range(K):
                    size += counts[v, c]
                if size > 0:
                    after += size / n * _entropy(counts[v])
            gain = known_w / total * (_entropy(column) - after)
            if gain > best_gain + _GAIN_MARGIN:
                best_gain, best_attr, best_threshold = gain, j, np.nan
                best_lo, best_hi, best_split = lo, hi, -1
        else:
            lo, hi = starts[a], ends[a]
            if hi - lo < 2:
                continue
            known_w = 0.0
            column[:] = 0.0
            for i in range(lo, hi):
                for c in range(K):
                    known_w += weights[i, c]
                    column[c] += weights[i, c]
            left[:] = 0.0
            split_gain, split = -np.inf, -1
            h_all = 0.0
            for i in range(lo, hi - 1):
                n_left, n_right = 0.0, 0.0
                for c in range(K):
                    left[c] += weights[i, c]
                    right[c] = column[c] - left[c]
                    n_left += left[c]
                    n_right += right[c]
                if i == lo:
                    for c in range(K):
                        right[c] += left[c]  # the parent's weights as the first split sees them
                    h_all = _entropy(right)
                    for c in range(K):
                        right[c] = column[c] - left[c]
                n_all = n_left + n_right
                after = (n_left * _entropy(left) + n_right * _entropy(right)) / (n_all if n_all > 0 else 1.0)
                g = h_all - after
                if g > split_gain:
                    split_gain, split = g, i
            gain = known_w / total * split_gain
            if gain > best_gain + _GAIN_MARGIN:
                best_gain, best_attr = gain, j
                best_threshold = (values[split] + values[split + 1]) / 2
                best_lo, best_hi, best_split = lo, hi, split
    if best_attr < 0:
        return -1, np.nan, np.empty((0, K))
    if best_split < 0:
        return best_attr, best_threshold, counts[best_lo:best_hi].copy()
    branches = np.zeros((2, K))  # left as accumulated in the scan, right = parent - left
    for i in range(best_lo, best_split + 1):
        for c in range(K):
            branches[0, c] += weights[i, c]
    for c in range(K):
        column[c] = 0.0
        for i in range(best_lo, best_hi):
            column[c] += weights[i, c]
        branches[1, c] = column[c] - branches[0, c]
    return best_attr, best_threshold, branches


@njit(cache=True)
def stump_leaves(class_w, branches, attribute):
    """(prior, leaves): the class distribution of all training examples, and each branch's
    (an empty branch, or no test at all, predicts the prior)."""
    K = class_w.size
    total = 0.0
    for c in range(K):
        total += class_w[c]
    prior = np.full(K, 1.0 / K)
    if total > 0:
        for c in range(K):
            prior[c] = class_w[c] / total
    if attribute < 0:
        return prior, prior.reshape((1, K)).copy()
    leaves = np.empty(branches.shape)
    for b in range(branches.shape[0]):
        size = 0.0
        for c in range(K):
            size += branches[b, c]
        for c in range(K):
            leaves[b, c] = branches[b, c] / size if size > 0 else prior[c]
    return prior, leaves


@njit(cache=True)
def stump_row(x, attribute, threshold, leaves, prior, out):
    """Class distribution the stump gives one example, into ``out``: its branch's leaf, or
    the prior when the tested value is missing or not a declared one."""
    row = -1
    if attribute >= 0 and not np.isnan(x[attribute]):
        v = x[attribute]
        if np.isnan(threshold):
            code = np.int64(v)
            if 0 <= code < leaves.shape[0]:
                row = code
        else:
            row = 1 if v > threshold else 0
    for c in range(prior.size):
        out[c] = leaves[row, c] if row >= 0 else prior[c]


@njit(cache=True)
def _stump_proba(X, attribute, threshold, leaves, prior):
    """:func:`stump_row` for every row."""
    out = np.empty((X.shape[0], prior.size))
    for r in range(X.shape[0]):
        stump_row(X[r], attribute, threshold, leaves, prior, out[r])
    return out


class DecisionStump(IncrementalClassifier):
    """One-level decision tree on the attribute of highest information gain (lossless online).

    Attributes
    ----------
    attribute_: index of the tested attribute (-1: no attribute gains; predicts the prior).
    threshold_: the split point of a numeric attribute (NaN for a nominal one).
    leaf_distribution_: (branches, K) class distributions of the leaves.
    prior_: class distribution of all training examples.
    """

    display_name = "Decision Stump"

    fit_cost = FitCost(7.4e-9, per_value=5e-9)

    def __init__(self) -> None:
        pass

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.poor_score = True  # one test node: a weak learner by design
        return tags

    def _reset_stream(self, schema: FeatureSchema, n_classes: int) -> None:
        self._schema = schema
        self.n_classes_ = n_classes
        self._stats = AttributeCounts(schema, n_classes)
        self._cache: dict[str, object] = {}

    def _partial_fit_encoded(self, X: np.ndarray, y: np.ndarray, sample_weight: np.ndarray) -> None:
        w = np.asarray(sample_weight, dtype=np.float64)
        if not np.all(w > 0):  # a weightless row must not add a value (a split point)
            X, y, w = X[w > 0], y[w > 0], w[w > 0]
        self._stats.add(X, y, w)
        self._cache = {}

    def _grow_classes(self, n_classes: int) -> None:
        self._stats.grow_classes(n_classes)
        self.n_classes_ = n_classes
        self._cache = {}

    def _choose(self) -> dict[str, object]:
        """Pick the best test from the statistics (the same code for batch and online), when
        the stump is next used after new data: a stream of small batches chooses once per
        prediction. The choice goes into a memo that a prediction fills without changing the
        estimator's attributes (scikit-learn's rule that ``predict`` leaves ``__dict__``
        alone)."""
        if self._cache:
            return self._cache
        stats = self._stats
        stats.flush()
        attribute, threshold, branches = best_test(
            stats.class_w, stats.counts, stats.nominal, stats.nominal_offsets, stats.numeric,
            stats.numeric_offsets[:-1], stats.numeric_offsets[1:], stats.values, stats.weights,
            self._schema.n_features)
        attribute = int(attribute)
        prior, leaves = stump_leaves(stats.class_w, branches, attribute)
        self._cache.update(attribute=attribute, threshold=threshold, leaves=leaves, prior=prior)
        return self._cache

    @property
    def attribute_(self) -> int:
        return self._choose()["attribute"]

    @property
    def threshold_(self) -> float:
        return self._choose()["threshold"]

    @property
    def leaf_distribution_(self) -> np.ndarray:
        return self._choose()["leaves"]

    @property
    def prior_(self) -> np.ndarray:
        return self._choose()["prior"]

    def _proba_encoded(self, X: np.ndarray) -> np.ndarray:
        stump = self._choose()
        return _stump_proba(np.asarray(X, dtype=np.float64), stump["attribute"], stump["threshold"],
                            stump["leaves"], stump["prior"])
