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

import numpy as np

from redecorate.learners.features import FeatureSchema
from redecorate.learners.incremental import AttributeCounts, IncrementalClassifier
from redecorate.learners.information_gain import entropy

__all__ = ["DecisionStump"]


def _split_gain(table: np.ndarray) -> float:
    """Information gain of a split whose branches have the class weights ``table`` (rows)."""
    sizes = table.sum(axis=1)
    total = sizes.sum()
    if total <= 0:
        return 0.0
    return entropy(table.sum(axis=0)) - sum(s / total * entropy(r) for r, s in zip(table, sizes, strict=True) if s > 0)


def _binary_gains(left: np.ndarray, right: np.ndarray) -> np.ndarray:
    """Information gain of every binary split at once: ``left``/``right`` are (splits, K)."""

    def rows_entropy(counts: np.ndarray) -> np.ndarray:
        n = counts.sum(axis=1, keepdims=True)
        p = np.divide(counts, n, out=np.zeros_like(counts), where=n > 0)
        return -(p * np.log2(np.where(p > 0, p, 1.0))).sum(axis=1)

    n_left, n_right = left.sum(axis=1), right.sum(axis=1)
    total = n_left + n_right
    after = (n_left * rows_entropy(left) + n_right * rows_entropy(right)) / np.where(total > 0, total, 1.0)
    return rows_entropy((left + right)[:1]).item() - after


class DecisionStump(IncrementalClassifier):
    """One-level decision tree on the attribute of highest information gain (lossless online).

    Attributes
    ----------
    attribute_: index of the tested attribute (-1: no attribute gains; predicts the prior).
    threshold_: the split point of a numeric attribute (NaN for a nominal one).
    leaf_distribution_: (branches, K) class distributions of the leaves.
    prior_: class distribution of all training examples.
    """

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

    def _tables(self):
        """(attribute, distinct values or None, (values × classes) weights) per attribute,
        in attribute order; a nominal attribute's table has a row per declared value."""
        stats = self._stats
        tables: list = [None] * self._schema.n_features
        for a, j in enumerate(stats.numeric):
            tables[j] = (int(j), *stats.numeric_table(a))
        for a, j in enumerate(stats.nominal):
            tables[j] = (int(j), None, stats.nominal_table(a))
        return tables

    def _choose(self) -> dict[str, object]:
        """Pick the best test from the statistics (the same code for batch and online), when
        the stump is next used after new data: a stream of small batches chooses once per
        prediction. The choice goes into a memo that a prediction fills without changing the
        estimator's attributes (scikit-learn's rule that ``predict`` leaves ``__dict__``
        alone)."""
        if self._cache:
            return self._cache
        self._stats.flush()
        class_w = self._stats.class_w
        total = class_w.sum()
        prior = class_w / total if total > 0 else np.full(self.n_classes_, 1.0 / self.n_classes_)
        best = (0.0, -1, np.nan, None)
        for j, values, table in self._tables():
            if values is None:  # nominal: one branch per declared value
                observed = table.sum(axis=1) > 0
                if np.count_nonzero(observed) < 2:
                    continue
                known = table[observed].sum() / total
                gain, threshold, branches = known * _split_gain(table), np.nan, table
            else:
                if values.size < 2:
                    continue
                known = table.sum() / total
                left = np.cumsum(table, axis=0)[:-1]
                right = table.sum(axis=0) - left
                gains = _binary_gains(left, right)
                i = int(np.argmax(gains))
                gain, threshold = known * float(gains[i]), float((values[i] + values[i + 1]) / 2)
                branches = np.vstack([left[i], right[i]])
            if gain > best[0] + 1e-12:
                best = (gain, j, threshold, branches)
        _, attribute, threshold, branches = best
        if branches is None:
            leaves = prior[None, :]
        else:
            sizes = branches.sum(axis=1, keepdims=True)
            leaves = np.where(sizes > 0, branches / np.where(sizes > 0, sizes, 1.0), prior)
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
        attribute, threshold, leaves = stump["attribute"], stump["threshold"], stump["leaves"]
        out = np.tile(stump["prior"], (X.shape[0], 1))
        if attribute < 0:
            return out
        col = X[:, attribute]
        ok = ~np.isnan(col)
        if np.isnan(threshold):
            codes = col[ok].astype(np.int64)
            valid = (codes >= 0) & (codes < leaves.shape[0])
            rows = np.flatnonzero(ok)[valid]
            out[rows] = leaves[codes[valid]]
        else:
            out[ok] = leaves[(col[ok] > threshold).astype(np.int64)]
        return out
