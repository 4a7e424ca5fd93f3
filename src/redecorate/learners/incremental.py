"""Learning from a stream: scikit-learn's ``partial_fit`` for the project's learners.

Oza's online ensembles (:mod:`redecorate.online`) call their members' ``partial_fit`` with
the rows of a mini-batch and a weight per row (k ~ Poisson(λ) copies). A learner is
*lossless* (Oza §2.3) when, after any sequence of ``partial_fit`` calls, it equals the batch
learner fitted on all the rows seen, whatever their order and grouping; for a lossless learner
a weight of k is k copies, so an ensemble may hand it a whole mini-batch at once. Lossy
learners (backpropagation) see their examples one at a time, in order.

``partial_fit`` fixes the class list and the attribute schema on its first call (``classes``
must then be given, or all classes must appear in that first batch), as scikit-learn's
incremental estimators do, and ``fit`` is one ``partial_fit`` from an empty model.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from sklearn.utils.validation import _check_sample_weight

from redecorate.learners.base import EncodedClassifier
from redecorate.learners.features import FeatureSchema

__all__ = ["IncrementalClassifier", "add_value_weights", "class_codes", "first_batch_classes"]


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
    """The class list a stream fixes on its first batch: ``classes`` if given, else the
    categories of a Categorical ``y`` or the labels present (scikit-learn's convention)."""
    if len(y) != n_rows:
        raise ValueError(f"Found input variables with inconsistent numbers of samples: [{n_rows}, {len(y)}]")
    if classes is not None:
        return np.asarray(classes)
    if isinstance(y, pd.Series) and isinstance(y.dtype, pd.CategoricalDtype):
        return np.asarray(y.cat.categories)
    return np.unique(np.asarray(y))


def add_value_weights(values: np.ndarray, table: np.ndarray, column: np.ndarray, y: np.ndarray,
                      w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Add a batch to one attribute's histogram: its sorted distinct ``values`` and their
    (values × classes) weights ``table``. Missing values (NaN) are left out.

    The sufficient statistic of learners whose batch model depends on the distinct values
    themselves (Weka's naive Bayes precision, a stump's candidate thresholds): keeping the
    histogram, not running sums, is what makes them lossless.
    """
    ok = ~np.isnan(column)
    if not ok.any():
        return values, table
    new_values, inverse = np.unique(column[ok], return_inverse=True)
    new_table = np.zeros((new_values.size, table.shape[1]))
    np.add.at(new_table, (inverse, y[ok]), w[ok])
    merged = np.union1d(values, new_values)
    out = np.zeros((merged.size, table.shape[1]))
    out[np.searchsorted(merged, values)] += table
    out[np.searchsorted(merged, new_values)] += new_table
    return merged, out


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

    def partial_fit(self, X, y, classes=None, sample_weight=None):
        """Learn from one more mini-batch (``classes`` is needed on the first call unless
        every class occurs in it)."""
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
