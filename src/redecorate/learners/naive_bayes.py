"""Naive Bayes as Weka 3.6's ``bayes.NaiveBayes`` with its defaults (§4.9, spec §1.2).

The dissertation used Weka's NaiveBayes unchanged, so its quirks are reproduced rather
than textbook Naive Bayes:

* Class prior: Laplace-smoothed *weighted* counts, ``(Σw_y + 1) / (Σw + K)``
  (Weka's ``DiscreteEstimator(K, laplace=true)``).
* Nominal attribute: per class, ``(Σw_{y,v} + 1) / (Σw_y + |domain|)`` over the declared
  domain, with weighted counts of the non-missing values.
* Numeric attribute: per class a ``NormalEstimator`` with a *numeric precision* ``δ``:
  ``δ`` is the mean gap between successive distinct values of the attribute in the whole
  training set (sorted, missing values ignored), 0.01 when there are fewer than two
  distinct values. Every value is rounded to a multiple of ``δ`` before it is counted and
  before it is scored. Mean and standard deviation are weighted and use the *population*
  divisor ``Σw``; ``sd = max(δ/6, sd)`` when ``sd > 1e-10`` and ``δ/6`` otherwise (also
  for a class that never saw the attribute, whose mean stays 0). The likelihood of ``x``
  is the probability mass of the interval ``[x - δ/2, x + δ/2]``, i.e.
  ``Φ((x - μ + δ/2)/sd) - Φ((x - μ - δ/2)/sd)``, not a density. This is why Weka's
  posteriors differ from a density-based Naive Bayes on data with coarse values.
* Missing values are ignored in training and at prediction (the attribute is skipped).
* Each factor is floored at 1e-75 (Weka's ``Math.max(1e-75, ...)``); we then work in
  log space, which equals Weka's rescaled product after normalisation.
"""

from __future__ import annotations

import numpy as np
from scipy.special import ndtr

from redecorate.learners.features import FeatureSchema
from redecorate.learners.incremental import IncrementalClassifier, add_value_weights

__all__ = ["NaiveBayes", "numeric_precision"]

DEFAULT_NUM_PRECISION = 0.01
"""Weka's ``NaiveBayes.DEFAULT_NUM_PRECISION``."""

_FLOOR = 1e-75


def numeric_precision(values: np.ndarray) -> float:
    """Weka's per-attribute precision: the mean gap between distinct sorted values.

    With ``d`` distinct non-missing values spanning ``[lo, hi]`` this is
    ``(hi - lo) / (d - 1)``; with fewer than two it is :data:`DEFAULT_NUM_PRECISION`.
    """
    v = np.unique(values[~np.isnan(values)])
    if v.size < 2:
        return DEFAULT_NUM_PRECISION
    return float(np.sum(np.diff(v)) / (v.size - 1))


def _round(values: np.ndarray, precision: float) -> np.ndarray:
    """Weka's ``NormalEstimator.round``: ``rint(x / δ) * δ`` (ties to even, as Java's rint)."""
    return np.rint(values / precision) * precision


class NaiveBayes(IncrementalClassifier):
    """Weka 3.6 ``NaiveBayes`` (default options: Gaussian numeric estimators).

    It has no parameters: the dissertation used Weka's defaults, and exposing kernel
    estimation or supervised discretisation would invite settings the thesis never ran.
    It learns from a stream too (``partial_fit``): the statistics are weighted counts and
    per-value histograms, so the model after any sequence of batches is the batch model on
    their union (lossless, Oza §2.3), and a weight of k is k copies (proportional).

    Attributes
    ----------
    class_log_prior_: log of the Laplace-smoothed class prior, shape (K,).
    precision_: numeric precision δ per attribute (NaN for nominal attributes).
    mean_, sd_: per (class, attribute) Normal parameters (NaN for nominal attributes).
    nominal_log_prob_: per nominal attribute index, a (K, |domain|) array of log P(v | y).
    """

    def __init__(self) -> None:
        pass

    def _reset_stream(self, schema: FeatureSchema, n_classes: int) -> None:
        """Empty sufficient statistics: class weights, nominal counts, and per numeric
        attribute its distinct values with their per-class weights (Weka's precision and
        rounding depend on the distinct values of the whole training set, so those are kept
        rather than running sums: the model after any stream is the batch model)."""
        self._schema = schema
        self._class_w = np.zeros(n_classes)
        self._nominal = {j: np.zeros((n_classes, len(schema.categories[j] or ())))
                         for j in range(schema.n_features) if schema.is_nominal[j]}
        self._numeric = {j: (np.empty(0), np.zeros((0, n_classes)))
                         for j in range(schema.n_features) if not schema.is_nominal[j]}
        self.n_classes_ = n_classes

    def _partial_fit_encoded(self, X: np.ndarray, y: np.ndarray, sample_weight: np.ndarray) -> None:
        w = np.asarray(sample_weight, dtype=np.float64)
        K = self.n_classes_
        self._class_w += np.bincount(y, weights=w, minlength=K)
        for j, counts in self._nominal.items():
            col = X[:, j]
            ok = ~np.isnan(col)
            codes = col[ok].astype(np.int64)
            inside = (codes >= 0) & (codes < counts.shape[1])
            np.add.at(counts, (y[ok][inside], codes[inside]), w[ok][inside])
        for j, (values, weights) in self._numeric.items():
            self._numeric[j] = add_value_weights(values, weights, X[:, j], y, w)
        self._finalise()

    def _grow_classes(self, n_classes: int) -> None:
        extra = n_classes - self.n_classes_
        self._class_w = np.concatenate([self._class_w, np.zeros(extra)])
        self._nominal = {j: np.vstack([c, np.zeros((extra, c.shape[1]))]) for j, c in self._nominal.items()}
        self._numeric = {j: (v, np.hstack([w, np.zeros((w.shape[0], extra))]))
                         for j, (v, w) in self._numeric.items()}
        self.n_classes_ = n_classes
        self._finalise()

    def _finalise(self) -> None:
        """The Weka estimators from the sufficient statistics (see the module docstring)."""
        K, d = self.n_classes_, self._schema.n_features
        class_w = self._class_w
        self.class_log_prior_ = np.log((class_w + 1.0) / (class_w.sum() + K))
        self.precision_ = np.full(d, np.nan)
        self.mean_ = np.full((K, d), np.nan)
        self.sd_ = np.full((K, d), np.nan)
        self.nominal_log_prob_: dict[int, np.ndarray] = {}
        for j, counts in self._nominal.items():
            size = counts.shape[1]
            with np.errstate(divide="ignore"):
                self.nominal_log_prob_[j] = np.log((counts + 1.0) / (counts.sum(axis=1, keepdims=True) + size))
        for j, (values, weights) in self._numeric.items():
            delta = (float(np.sum(np.diff(values)) / (values.size - 1)) if values.size >= 2
                     else DEFAULT_NUM_PRECISION)
            self.precision_[j] = delta
            v = _round(values, delta)
            sw = weights.sum(axis=0)
            s1 = weights.T @ v
            s2 = weights.T @ (v * v)
            with np.errstate(invalid="ignore", divide="ignore"):
                mean = np.where(sw > 0, s1 / sw, 0.0)
                sd = np.where(sw > 0, np.sqrt(np.abs(s2 - mean * s1) / sw), 0.0)
            floor = delta / 6.0
            self.mean_[:, j] = mean
            self.sd_[:, j] = np.where(sd > 1e-10, np.maximum(floor, sd), floor)

    def _joint_log(self, X: np.ndarray) -> np.ndarray:
        """log P(y) + Σ_j log max(1e-75, P(x_j | y)) over the non-missing attributes."""
        out = np.tile(self.class_log_prior_, (X.shape[0], 1))
        log_floor = np.log(_FLOOR)
        for j in range(X.shape[1]):
            col = X[:, j]
            ok = ~np.isnan(col)
            if not ok.any():
                continue
            if j in self.nominal_log_prob_:
                table = self.nominal_log_prob_[j]
                codes = col[ok].astype(np.int64)
                valid = (codes >= 0) & (codes < table.shape[1])
                rows = np.flatnonzero(ok)[valid]
                out[rows] += np.maximum(table[:, codes[valid]].T, log_floor)
                continue
            delta = self.precision_[j]
            x = _round(col[ok], delta)[:, None]
            mu, sd = self.mean_[:, j][None, :], self.sd_[:, j][None, :]
            p = ndtr((x - mu + delta / 2) / sd) - ndtr((x - mu - delta / 2) / sd)
            out[ok] += np.log(np.maximum(p, _FLOOR))
        return out

    def _proba_encoded(self, X: np.ndarray) -> np.ndarray:
        joint = self._joint_log(X)
        joint -= joint.max(axis=1, keepdims=True)
        p = np.exp(joint)
        return p / p.sum(axis=1, keepdims=True)
