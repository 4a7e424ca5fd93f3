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

import math

import numpy as np
from numba import njit

from redecorate.learners.compilation import announce_compilation
from redecorate.learners.cost import FitCost
from redecorate.learners.features import FeatureSchema
from redecorate.learners.incremental import AttributeCounts, IncrementalClassifier

announce_compilation()

__all__ = ["NaiveBayes", "log_class_prior", "nominal_log_column", "normal_estimate", "numeric_precision", "posterior_row",
           "weka_estimators"]

DEFAULT_NUM_PRECISION = 0.01
"""Weka's ``NaiveBayes.DEFAULT_NUM_PRECISION``."""

_FLOOR = 1e-75
_SQRT1_2 = math.sqrt(0.5)


def numeric_precision(values: np.ndarray) -> float:
    """Weka's per-attribute precision: the mean gap between distinct sorted values.

    With ``d`` distinct non-missing values spanning ``[lo, hi]`` this is
    ``(hi - lo) / (d - 1)``; with fewer than two it is :data:`DEFAULT_NUM_PRECISION`.
    """
    v = np.unique(values[~np.isnan(values)])
    return float(_precision(v, 0, v.size))


@njit(cache=True)
def _precision(values, lo, hi):
    """Weka's precision of the sorted distinct ``values[lo:hi]``: its gaps summed in order,
    as Weka's loop does, over their number."""
    if hi - lo < 2:
        return DEFAULT_NUM_PRECISION
    total = 0.0
    for i in range(lo + 1, hi):
        total += values[i] - values[i - 1]
    return total / (hi - lo - 1)


@njit(cache=True)
def log_class_prior(class_w, out):
    """Weka's Laplace-smoothed class prior, log of (Σw_y + 1) / (Σw + K), into ``out``."""
    K = class_w.size
    total = 0.0
    for c in range(K):
        total += class_w[c]
    for c in range(K):
        out[c] = math.log((class_w[c] + 1.0) / (total + K))


@njit(cache=True)
def nominal_log_column(counts, lo, hi, c, out):
    """log of (Σw_{y,v} + 1) / (Σw_y + |domain|) of class ``c`` for the declared values
    ``lo:hi`` of one nominal attribute (rows of the packed table), into ``out``. A new row of
    class y changes only column y, which is all a stream needs to recompute."""
    total = 0.0
    for v in range(lo, hi):
        total += counts[v, c]
    for v in range(lo, hi):
        out[v, c] = math.log((counts[v, c] + 1.0) / (total + (hi - lo)))


@njit(cache=True)
def normal_estimate(values, weights, lo, hi, j, precision, mean, sd):
    """Precision and per-class mean and sd of one numeric attribute ``j`` from its sorted
    distinct ``values[lo:hi]`` and their (values × classes) ``weights``.

    Rounding depends on the precision, which changes with every new distinct value, so the
    sums are taken afresh over the distinct values (sorted: the same order whatever the
    stream), not kept running."""
    K = weights.shape[1]
    delta = _precision(values, lo, hi)
    precision[j] = delta
    sw, s1, s2 = np.zeros(K), np.zeros(K), np.zeros(K)
    for i in range(lo, hi):
        r = np.rint(values[i] / delta) * delta
        rr = r * r
        for c in range(K):
            wc = weights[i, c]
            sw[c] += wc
            s1[c] += wc * r
            s2[c] += wc * rr
    floor = delta / 6.0
    for c in range(K):
        m, d = 0.0, 0.0
        if sw[c] > 0:
            m = s1[c] / sw[c]
            d = math.sqrt(abs(s2[c] - m * s1[c]) / sw[c])
        mean[c, j] = m
        sd[c, j] = max(floor, d) if d > 1e-10 else floor


@njit(cache=True)
def weka_estimators(class_w, counts, nominal_offsets, starts, ends, values, weights, numeric, n_features):
    """Weka's estimators from the sufficient statistics (:class:`AttributeCounts`): the
    log class prior; per declared nominal value (a row of the packed table) log of
    (Σw_{y,v} + 1) / (Σw_y + |domain|); per numeric attribute the precision and, per class,
    mean and sd. Numeric attribute ``numeric[a]`` holds ``values[starts[a]:ends[a]]``
    (a packed table has ``starts, ends = offsets[:-1], offsets[1:]``; a stream's member
    leaves room between attributes)."""
    K = class_w.size
    log_prior = np.empty(K)
    log_class_prior(class_w, log_prior)
    log_table = np.empty(counts.shape)
    for a in range(nominal_offsets.size - 1):
        for c in range(K):
            nominal_log_column(counts, nominal_offsets[a], nominal_offsets[a + 1], c, log_table)
    precision = np.full(n_features, np.nan)
    mean = np.full((K, n_features), np.nan)
    sd = np.full((K, n_features), np.nan)
    for a in range(numeric.size):
        normal_estimate(values, weights, starts[a], ends[a], numeric[a], precision, mean, sd)
    return log_prior, log_table, precision, mean, sd


@njit(cache=True, inline="always")
def _ndtr(a):
    """Standard normal CDF, Weka's ``Statistics.normalProbability`` (the Cephes form)."""
    x = a * _SQRT1_2
    z = abs(x)
    if z < _SQRT1_2:
        return 0.5 + 0.5 * math.erf(x)
    y = 0.5 * math.erfc(z)
    return 1.0 - y if x > 0 else y


@njit(cache=True)
def posterior_row(x, nominal_index, nominal_offsets, log_table, class_log_prior, precision, mean, sd, out):
    """Class probabilities of one example into ``out``: log P(y) + Σ_j log max(1e-75,
    P(x_j | y)) over the non-missing attributes, in attribute order, normalised."""
    K = class_log_prior.size
    log_floor = math.log(_FLOOR)
    for c in range(K):
        out[c] = class_log_prior[c]
    for j in range(x.size):
        v = x[j]
        if np.isnan(v):
            continue
        a = nominal_index[j]
        if a >= 0:
            code = np.int64(v)
            lo = nominal_offsets[a]
            if 0 <= code < nominal_offsets[a + 1] - lo:
                for c in range(K):
                    out[c] += max(log_table[lo + code, c], log_floor)
            continue
        delta = precision[j]
        r = np.rint(v / delta) * delta
        for c in range(K):
            mu, s = mean[c, j], sd[c, j]
            p = _ndtr((r - mu + delta / 2) / s) - _ndtr((r - mu - delta / 2) / s)
            out[c] += math.log(max(p, _FLOOR))
    top = out.max()
    total = 0.0
    for c in range(K):
        out[c] = math.exp(out[c] - top)
        total += out[c]
    for c in range(K):
        out[c] = out[c] / total


@njit(cache=True)
def _posterior(X, nominal_index, nominal_offsets, log_table, class_log_prior, precision, mean, sd):
    """Class probabilities of every row (one compiled pass: a stream predicts one example at
    a time, where per-attribute array calls would cost more than the arithmetic)."""
    out = np.empty((X.shape[0], class_log_prior.size))
    for r in range(X.shape[0]):
        posterior_row(X[r], nominal_index, nominal_offsets, log_table, class_log_prior, precision, mean, sd,
                       out[r])
    return out


class NaiveBayes(IncrementalClassifier):
    """Weka 3.6 ``NaiveBayes`` (default options: Gaussian numeric estimators).

    It has no parameters: the dissertation used Weka's defaults, and exposing kernel
    estimation or supervised discretisation would invite settings the thesis never ran.
    It learns from a stream too (``partial_fit``): the statistics are weighted counts and
    per-value histograms, so the model after any sequence of batches is the batch model on
    their union (lossless, Oza §2.3), and a weight of k is k copies (proportional). The
    estimators are computed when the model is next used, not after every update: a stream
    of small batches pays for them once per prediction.

    Attributes
    ----------
    class_log_prior_: log of the Laplace-smoothed class prior, shape (K,).
    precision_: numeric precision δ per attribute (NaN for nominal attributes).
    mean_, sd_: per (class, attribute) Normal parameters (NaN for nominal attributes).
    nominal_log_prob_: per nominal attribute index, a (K, |domain|) array of log P(v | y).
    """

    display_name = "Naive Bayes"

    fit_cost = FitCost(4.9e-9, per_value=6.6e-10)
    sample_weight_departure = (
        "Weka's numeric precision is the mean gap between the distinct training values, counted "
        "without weights, so a zero-weight row still shapes it while a removed row does not"
    )

    def __init__(self) -> None:
        pass

    def _reset_stream(self, schema: FeatureSchema, n_classes: int) -> None:
        """Empty sufficient statistics: class weights, nominal counts, and per numeric
        attribute its distinct values with their per-class weights (Weka's precision and
        rounding depend on the distinct values of the whole training set, so those are kept
        rather than running sums: the model after any stream is the batch model)."""
        self._schema = schema
        self._stats = AttributeCounts(schema, n_classes)
        nominal_index = np.full(schema.n_features, -1, dtype=np.int64)
        nominal_index[self._stats.nominal] = np.arange(self._stats.nominal.size)
        self._nominal_index = nominal_index
        self.n_classes_ = n_classes
        self._cache: dict[str, object] = {}

    def _partial_fit_encoded(self, X: np.ndarray, y: np.ndarray, sample_weight: np.ndarray) -> None:
        self._stats.add(X, y, sample_weight)
        self._cache = {}

    def _grow_classes(self, n_classes: int) -> None:
        self._stats.grow_classes(n_classes)
        self.n_classes_ = n_classes
        self._cache = {}

    def _model(self) -> dict[str, np.ndarray]:
        """The Weka estimators from the sufficient statistics (see the module docstring),
        computed once after new data, into a memo that a prediction fills without changing
        the estimator's attributes (scikit-learn's rule that ``predict`` leaves ``__dict__``
        alone)."""
        if not self._cache:
            stats = self._stats
            stats.flush()
            log_prior, log_table, precision, mean, sd = weka_estimators(
                stats.class_w, stats.counts, stats.nominal_offsets, stats.numeric_offsets[:-1],
                stats.numeric_offsets[1:], stats.values, stats.weights, stats.numeric, self._schema.n_features)
            self._cache.update(class_log_prior=log_prior, log_table=log_table, precision=precision,
                               mean=mean, sd=sd)
        return self._cache

    @property
    def class_log_prior_(self) -> np.ndarray:
        return self._model()["class_log_prior"]

    @property
    def precision_(self) -> np.ndarray:
        return self._model()["precision"]

    @property
    def mean_(self) -> np.ndarray:
        return self._model()["mean"]

    @property
    def sd_(self) -> np.ndarray:
        return self._model()["sd"]

    @property
    def nominal_log_prob_(self) -> dict[int, np.ndarray]:
        table, offsets = self._model()["log_table"], self._stats.nominal_offsets
        return {int(j): table[offsets[a]:offsets[a + 1]].T for a, j in enumerate(self._stats.nominal)}

    def _proba_encoded(self, X: np.ndarray) -> np.ndarray:
        e = self._model()
        return _posterior(np.asarray(X, dtype=np.float64), self._nominal_index, self._stats.nominal_offsets,
                          e["log_table"], e["class_log_prior"], e["precision"], e["mean"], e["sd"])
