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
from redecorate.learners.incremental import IncrementalClassifier, add_value_weights
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
        self._class_w = np.zeros(n_classes)
        # Per attribute: (distinct values, their per-class weights).
        self._tables = [(np.empty(0), np.zeros((0, n_classes))) for _ in range(schema.n_features)]

    def _partial_fit_encoded(self, X: np.ndarray, y: np.ndarray, sample_weight: np.ndarray) -> None:
        w = np.asarray(sample_weight, dtype=np.float64)
        if not np.all(w > 0):  # a weightless row must not add a value (a split point)
            X, y, w = X[w > 0], y[w > 0], w[w > 0]
        K = self.n_classes_
        self._class_w += np.bincount(y, weights=w, minlength=K)
        for j in range(X.shape[1]):
            self._tables[j] = add_value_weights(*self._tables[j], X[:, j], y, w)
        self._choose()

    def _grow_classes(self, n_classes: int) -> None:
        extra = n_classes - self.n_classes_
        self._class_w = np.concatenate([self._class_w, np.zeros(extra)])
        self._tables = [(v, np.hstack([t, np.zeros((t.shape[0], extra))])) for v, t in self._tables]
        self.n_classes_ = n_classes
        self._choose()

    def _choose(self) -> None:
        """Pick the best test from the statistics (the same code for batch and online)."""
        total = self._class_w.sum()
        self.prior_ = self._class_w / total if total > 0 else np.full(self.n_classes_, 1.0 / self.n_classes_)
        best = (0.0, -1, np.nan, None)
        for j, (values, table) in enumerate(self._tables):
            if values.size < 2:
                continue
            known = table.sum() / total if total > 0 else 0.0
            if self._schema.is_nominal[j]:
                size = len(self._schema.categories[j] or ())
                branches = np.zeros((size, self.n_classes_))
                branches[values.astype(np.int64)] = table
                gain, threshold = known * _split_gain(branches), np.nan
            else:
                left = np.cumsum(table, axis=0)[:-1]
                right = table.sum(axis=0) - left
                gains = _binary_gains(left, right)
                i = int(np.argmax(gains))
                gain, threshold = known * float(gains[i]), float((values[i] + values[i + 1]) / 2)
                branches = np.vstack([left[i], right[i]])
            if gain > best[0] + 1e-12:
                best = (gain, j, threshold, branches)
        _, self.attribute_, self.threshold_, branches = best
        if branches is None:
            self.leaf_distribution_ = self.prior_[None, :]
            return
        sizes = branches.sum(axis=1, keepdims=True)
        self.leaf_distribution_ = np.where(sizes > 0, branches / np.where(sizes > 0, sizes, 1.0), self.prior_)

    def _proba_encoded(self, X: np.ndarray) -> np.ndarray:
        out = np.tile(self.prior_, (X.shape[0], 1))
        if self.attribute_ < 0:
            return out
        col = X[:, self.attribute_]
        ok = ~np.isnan(col)
        if np.isnan(self.threshold_):
            codes = col[ok].astype(np.int64)
            valid = (codes >= 0) & (codes < self.leaf_distribution_.shape[0])
            rows = np.flatnonzero(ok)[valid]
            out[rows] = self.leaf_distribution_[codes[valid]]
        else:
            out[ok] = self.leaf_distribution_[(col[ok] > self.threshold_).astype(np.int64)]
        return out
