"""Learning from a stream: scikit-learn's ``partial_fit`` for the project's learners.

Oza's online ensembles (:mod:`redecorate.learners.online_ensembles`) call their members'
``partial_fit`` with the rows of a mini-batch and a weight per row (k ~ Poisson(λ) copies). A
learner is *lossless* (Oza §2.3) when, after any sequence of ``partial_fit`` calls, it equals
the batch learner fitted on all the rows seen, whatever their order and grouping; for a
lossless learner a weight of k is k copies, so an ensemble may hand it a whole mini-batch at
once. Lossy learners (backpropagation) see their examples one at a time, in order.

``partial_fit`` fixes the class list and the attribute schema on its first call (``classes``
must then be given, or all classes must appear in that first batch), as scikit-learn's
incremental estimators do, and ``fit`` is one ``partial_fit`` from an empty model.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from numba import njit
from sklearn.base import _fit_context
from sklearn.utils.validation import _check_sample_weight

from redecorate.learners.base import EncodedClassifier
from redecorate.learners.compilation import announce_compilation
from redecorate.learners.features import FeatureSchema

announce_compilation()

__all__ = ["AttributeCounts", "IncrementalClassifier", "class_codes", "first_batch_classes"]


def class_codes(classes: np.ndarray, y) -> np.ndarray:
    """Codes of the labels ``y`` in the fixed class list ``classes`` (unknown labels raise)."""
    values = y.to_numpy(dtype=object) if isinstance(y, pd.Series) else np.asarray(y, dtype=object)
    lookup = {label: i for i, label in enumerate(np.asarray(classes).tolist())}
    try:
        return np.fromiter((lookup[v] for v in values.tolist()), dtype=np.int64, count=len(values))
    except KeyError as exc:
        raise ValueError(f"label {exc.args[0]!r} is not among the classes given to the first "
                         f"partial_fit ({list(lookup)})") from None


def first_batch_classes(y, classes, n_rows: int) -> np.ndarray:
    """The class list a stream fixes on its first batch: ``classes``, or the categories of a
    Categorical ``y`` (which declares every class, seen or not).

    Anything else is refused, as scikit-learn refuses it: the labels present in a first batch
    are rarely all the classes, and a class list fixed to them fails on a later batch.
    """
    if len(y) != n_rows:
        raise ValueError(f"Found input variables with inconsistent numbers of samples: [{n_rows}, {len(y)}]")
    if classes is not None:
        return np.asarray(classes)
    if isinstance(y, pd.Series) and isinstance(y.dtype, pd.CategoricalDtype):
        return np.asarray(y.cat.categories)
    raise ValueError("classes must be passed on the first call to partial_fit "
                     "(or y given as a pandas Categorical whose categories are all the classes)")


@njit(cache=True)
def _absorb(X, y, w, order, numeric, nominal, nominal_offsets, counts, class_w, offsets, values, weights):
    """Add rows to the statistics; returns new arrays (the packed layout moves, and an
    unpickled model may hold read-only ones): class weights, nominal counts and the numeric
    histograms with the rows merged in. ``order[a]`` sorts the rows by numeric attribute
    ``numeric[a]``, missing values last.

    Per numeric attribute the rows' values, in sorted order, are merged with the stored
    sorted distinct values, so the histogram after any sequence of batches is the batch
    histogram (bit for bit when the weights are whole numbers, copies, whose sums are exact).
    """
    n, K = X.shape[0], class_w.size
    class_w, counts = class_w.copy(), counts.copy()
    for i in range(n):
        class_w[y[i]] += w[i]
    for a in range(nominal.size):
        j, lo = nominal[a], nominal_offsets[a]
        size = nominal_offsets[a + 1] - lo
        for i in range(n):
            v = X[i, j]
            if not np.isnan(v):
                code = np.int64(v)
                if 0 <= code < size:
                    counts[lo + code, y[i]] += w[i]
    # Count the new values not stored yet, so the merged arrays are allocated at their size.
    p = numeric.size
    n_known = np.zeros(p, dtype=np.int64)
    added = 0
    for a in range(p):
        j, lo, hi = numeric[a], offsets[a], offsets[a + 1]
        m = 0
        while m < n and not np.isnan(X[order[a, m], j]):
            v = X[order[a, m], j]
            if m == 0 or v != X[order[a, m - 1], j]:
                at = lo + np.searchsorted(values[lo:hi], v)
                if at == hi or values[at] != v:
                    added += 1
            m += 1
        n_known[a] = m
    out_values = np.empty(values.size + added)
    out_weights = np.empty((values.size + added, K))
    out_offsets = np.zeros(p + 1, dtype=np.int64)
    # Merge: runs of stored values between two new ones are copied as blocks (a stream
    # flushing one row moves the arrays, it does not walk them value by value).
    pos = 0
    for a in range(p):
        j, old, old_end, start = numeric[a], offsets[a], offsets[a + 1], pos
        for k in range(n_known[a]):
            i = order[a, k]
            v = X[i, j]
            run = np.searchsorted(values[old:old_end], v)
            if run:
                out_values[pos:pos + run] = values[old:old + run]
                out_weights[pos:pos + run] = weights[old:old + run]
                pos += run
                old += run
            if pos == start or out_values[pos - 1] != v:
                out_values[pos] = v
                if old < old_end and values[old] == v:
                    out_weights[pos] = weights[old]
                    old += 1
                else:
                    out_weights[pos] = 0.0
                pos += 1
            out_weights[pos - 1, y[i]] += w[i]
        run = old_end - old
        out_values[pos:pos + run] = values[old:old_end]
        out_weights[pos:pos + run] = weights[old:old_end]
        pos += run
        out_offsets[a + 1] = pos
    return class_w, counts, out_offsets, out_values, out_weights


class AttributeCounts:
    """Weighted class counts per attribute value: the sufficient statistics of naive Bayes
    and the decision stump.

    Class weights; per nominal attribute a (declared values × classes) table; per numeric
    attribute its sorted distinct values with their (values × classes) weights, packed into
    one array (``numeric_offsets[a]:numeric_offsets[a + 1]`` is attribute ``numeric[a]``).
    Missing values are left out. Weka's naive Bayes precision and a stump's candidate
    thresholds depend on the distinct values themselves, so keeping the histogram, not
    running sums, is what makes those learners lossless.

    ``add`` only queues the rows; :meth:`flush` merges everything queued in one compiled
    pass. A learner flushes when it next needs its model, so a stream of one-row updates
    costs one merge per prediction, not one per row (and a queue never outgrows a quarter
    of the rows already merged, which bounds its memory).
    """

    def __init__(self, schema: FeatureSchema, n_classes: int) -> None:
        self.n_classes = n_classes
        self.numeric = np.flatnonzero(~schema.is_nominal).astype(np.int64)
        self.nominal = np.flatnonzero(schema.is_nominal).astype(np.int64)
        sizes = schema.nominal_sizes[self.nominal]
        self.nominal_offsets = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
        self.class_w = np.zeros(n_classes)
        self.counts = np.zeros((int(self.nominal_offsets[-1]), n_classes))
        self.numeric_offsets = np.zeros(self.numeric.size + 1, dtype=np.int64)
        self.values = np.empty(0)
        self.weights = np.zeros((0, n_classes))
        self._queue: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
        self._queued = 0
        self._merged = 0

    def add(self, X: np.ndarray, y: np.ndarray, w: np.ndarray) -> None:
        """Queue encoded rows with their class codes and weights (merged by :meth:`flush`).
        The rows are copied: a caller may reuse its buffers before the merge."""
        self._queue.append((np.array(X, dtype=np.float64), np.array(y, dtype=np.int64),
                            np.array(w, dtype=np.float64)))
        self._queued += X.shape[0]
        if self._queued > max(1024, self._merged // 4):
            self.flush()

    def flush(self) -> None:
        """Merge the queued rows into the statistics."""
        if not self._queue:
            return
        if len(self._queue) == 1:
            X, y, w = self._queue[0]
        else:
            X = np.concatenate([q[0] for q in self._queue])
            y = np.concatenate([q[1] for q in self._queue])
            w = np.concatenate([q[2] for q in self._queue])
        order = np.argsort(X.T[self.numeric], axis=1)  # NaN last; one call for all attributes
        self.class_w, self.counts, self.numeric_offsets, self.values, self.weights = _absorb(
            X, y, w, order, self.numeric, self.nominal, self.nominal_offsets, self.counts, self.class_w,
            self.numeric_offsets, self.values, self.weights)
        self._merged += self._queued
        self._queue, self._queued = [], 0

    def grow_classes(self, n_classes: int) -> None:
        """Make room for classes first seen mid-stream (they have no weight yet)."""
        self.flush()
        extra = n_classes - self.n_classes
        self.class_w = np.concatenate([self.class_w, np.zeros(extra)])
        self.counts = np.hstack([self.counts, np.zeros((self.counts.shape[0], extra))])
        self.weights = np.hstack([self.weights, np.zeros((self.weights.shape[0], extra))])
        self.n_classes = n_classes

    def numeric_table(self, a: int) -> tuple[np.ndarray, np.ndarray]:
        """Sorted distinct values and their (values × classes) weights of numeric attribute
        ``numeric[a]`` (views; call :meth:`flush` first)."""
        lo, hi = self.numeric_offsets[a], self.numeric_offsets[a + 1]
        return self.values[lo:hi], self.weights[lo:hi]


class IncrementalClassifier(EncodedClassifier):
    """An :class:`EncodedClassifier` that learns from a stream of mini-batches.

    Subclasses keep sufficient statistics: ``_reset_stream(schema, n_classes)`` starts an
    empty model, ``_partial_fit_encoded(X, y, sample_weight)`` adds rows to it. ``fit`` is a
    reset followed by one update, so batch and online learning share one code path.
    """

    lossless: bool = True
    """Whether the model after a stream equals the batch model on the same rows (Oza §2.3)."""

    def _reset_stream(self, schema: FeatureSchema, n_classes: int) -> None:
        raise NotImplementedError

    def _partial_fit_encoded(self, X: np.ndarray, y: np.ndarray, sample_weight: np.ndarray) -> None:
        raise NotImplementedError

    def _grow_classes(self, n_classes: int) -> None:
        """Make room for classes first seen mid-stream (river's convention, used by the
        ensembles' ``learn_one``): the new classes have no weight yet."""
        raise NotImplementedError

    def _fit_encoded(self, X: np.ndarray, y: np.ndarray, sample_weight: np.ndarray,
                     schema: FeatureSchema, n_classes: int) -> None:
        self._reset_stream(schema, n_classes)
        self._partial_fit_encoded(X, y, sample_weight)

    @_fit_context(prefer_skip_nested_validation=True)
    def partial_fit(self, X, y, classes=None, sample_weight=None):
        """Learn from one more mini-batch (``classes`` is needed on the first call, unless
        ``y`` is a Categorical)."""
        first = not hasattr(self, "classes_")
        Xe = self._validate_X(X, reset=first)
        if first:
            self.classes_ = first_batch_classes(y, classes, Xe.shape[0])
            self._reset_stream(self.feature_schema_, len(self.classes_))
        elif len(y) != Xe.shape[0]:
            raise ValueError(f"Found input variables with inconsistent numbers of samples: "
                             f"[{Xe.shape[0]}, {len(y)}]")
        elif classes is not None and not np.array_equal(np.asarray(classes), self.classes_):
            raise ValueError(f"classes {list(classes)} differ from those of the first partial_fit "
                             f"({list(self.classes_)})")
        w = _check_sample_weight(sample_weight, Xe, dtype=np.float64)
        self._partial_fit_encoded(Xe, class_codes(self.classes_, y), w)
        return self

    def partial_fit_prepared(self, X_encoded: np.ndarray, y_codes: np.ndarray,
                             sample_weight: np.ndarray | None = None) -> IncrementalClassifier:
        """:meth:`partial_fit` on rows encoded with the schema of the first call (the ensembles'
        fast path: members skip validation)."""
        X = np.asarray(X_encoded, dtype=np.float64)
        w = np.ones(X.shape[0]) if sample_weight is None else np.asarray(sample_weight, dtype=np.float64)
        self._partial_fit_encoded(X, np.asarray(y_codes, dtype=np.int64), w)
        return self
