"""A lossless online decision tree: J48 over every example seen, in any order.

Oza's trees are ITI (Utgoff et al. 1997), which stores its examples in the tree and
restructures it as they arrive so that it always equals the batch tree. What the ensembles
need is that property, not ITI's bookkeeping, so this learner keeps the distinct examples seen
with their total weights (a mini-batch adds its rows; a weight of k is k copies) and builds
J48 from them, in one canonical order, when it is next asked to predict. After any sequence
of ``partial_fit`` calls it is therefore exactly ``J48`` fitted on all the rows seen, whatever
their order and grouping (``tests/test_online_learners.py``).

The cost of that simplicity is a rebuild per prediction after new data; the ensembles here
learn a mini-batch and then predict, so a stream of b batches costs b J48 fits of a growing
set. Memory is one row per distinct (example, class).

Integer weights (copies) pass to J48 as multiplicities, so its two instance-counting rules
(the minimum split size and the many-valued-attribute cut) see copies, as they would in the
batch set; fractional weights are passed as weights only.
"""

from __future__ import annotations

import numpy as np

from redecorate.learners.cost import FitCost
from redecorate.learners.features import FeatureSchema
from redecorate.learners.incremental import IncrementalClassifier
from redecorate.learners.j48 import J48

__all__ = ["OnlineTree"]


def _row_keys(X: np.ndarray, y: np.ndarray) -> np.ndarray:
    """One byte string per (row, class): equal rows (NaN included) give equal keys."""
    table = np.column_stack([X + 0.0, y.astype(np.float64)])  # + 0.0: -0.0 becomes 0.0
    table = np.ascontiguousarray(table)
    return table.view(np.dtype((np.void, table.dtype.itemsize * table.shape[1]))).ravel()


class _DistinctRows:
    """The distinct (example, class) rows seen with their total weights, in one canonical
    order (sorted by key). ``add`` only queues a batch; :meth:`rows` merges the queue when the
    rows are next needed, so a stream of small batches dedupes once per tree, not once per
    batch (and a queue never outgrows a quarter of the rows already merged, which bounds its
    memory). One object whose contents change, so that building a tree at prediction time
    leaves the estimator's attributes as they were."""

    def __init__(self, n_features: int) -> None:
        self.X = np.empty((0, n_features))
        self.y = np.empty(0, dtype=np.int64)
        self.w = np.empty(0)
        self._queue: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
        self._queued = 0

    def add(self, X: np.ndarray, y: np.ndarray, w: np.ndarray) -> None:
        """Queue rows of positive weight (copies: a caller may reuse its buffers)."""
        keep = w > 0
        self._queue.append((np.array(X[keep], dtype=np.float64), np.array(y[keep], dtype=np.int64),
                            np.array(w[keep], dtype=np.float64)))
        self._queued += int(np.count_nonzero(keep))
        if self._queued > max(1024, self.y.size // 4):
            self.rows()

    def rows(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(X, y, w) of the distinct rows, the queue merged in."""
        if self._queue:
            X_all = np.vstack([self.X, *(q[0] for q in self._queue)])
            y_all = np.concatenate([self.y, *(q[1] for q in self._queue)])
            w_all = np.concatenate([self.w, *(q[2] for q in self._queue)])
            self._queue, self._queued = [], 0
            unique, first, inverse = np.unique(_row_keys(X_all, y_all), return_index=True,
                                               return_inverse=True)
            self.X, self.y = X_all[first], y_all[first]
            self.w = np.bincount(inverse.ravel(), weights=w_all, minlength=unique.size)
        return self.X, self.y, self.w


class OnlineTree(IncrementalClassifier):
    """J48 that learns from a stream and always equals the batch J48 on the rows seen.

    Parameters
    ----------
    confidence, min_instances, unpruned:
        Passed to :class:`~redecorate.learners.j48.J48` (Weka's defaults; Oza's trees were
        pruned, with no depth limit).

    Attributes
    ----------
    n_distinct_: distinct (example, class) rows stored.
    tree_: the J48 built from them (built lazily, when first needed after new data).
    """

    display_name = "Decision Tree"

    _parameter_constraints = {key: J48._parameter_constraints[key]
                              for key in ("confidence", "min_instances", "unpruned")}
    fit_cost = FitCost(2.3e-8, engine="c45")
    fits_multiplicities = False  # ensembles give it weights; it keeps its own multiplicities

    def __init__(self, confidence: float = 0.25, min_instances: int = 2, unpruned: bool = False):
        self.confidence = confidence
        self.min_instances = min_instances
        self.unpruned = unpruned

    def _reset_stream(self, schema: FeatureSchema, n_classes: int) -> None:
        self._schema = schema
        self.n_classes_ = n_classes
        self._rows = _DistinctRows(schema.n_features)
        self._cache: dict[str, object] = {}

    def _partial_fit_encoded(self, X: np.ndarray, y: np.ndarray, sample_weight: np.ndarray) -> None:
        self._rows.add(X, y, np.asarray(sample_weight, dtype=np.float64))
        self._cache = {}

    def _grow_classes(self, n_classes: int) -> None:
        self.n_classes_ = n_classes
        self._cache = {}

    @property
    def n_distinct_(self) -> int:
        """Distinct (example, class) rows stored."""
        return int(self._rows.rows()[1].size)

    @property
    def tree_(self):
        """The J48 built from the rows seen (built when first needed after new rows)."""
        return self._tree()

    def _tree(self):
        """Build lazily, into a memo that a prediction fills without changing the estimator's
        attributes (scikit-learn's rule that ``predict`` leaves ``__dict__`` alone)."""
        if "tree" not in self._cache:
            X, y, w = self._rows.rows()
            tree = J48(confidence=self.confidence, min_instances=self.min_instances,
                       unpruned=self.unpruned)
            integral = np.all(w == np.round(w))
            multiplicity = w.astype(np.int64) if integral else None
            tree._fit_encoded(X, y, w, self._schema, self.n_classes_, multiplicity=multiplicity)
            tree.classes_ = np.arange(self.n_classes_)
            self._cache["tree"] = tree
        return self._cache["tree"]

    def _empty(self) -> bool:
        return self._rows.rows()[1].size == 0

    def _proba_encoded(self, X: np.ndarray) -> np.ndarray:
        if self._empty():
            return np.full((X.shape[0], self.n_classes_), 1.0 / self.n_classes_)
        return self._tree()._proba_encoded(X)

    def _proba_and_classify_encoded(self, X: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        if self._empty():
            return super()._proba_and_classify_encoded(X)
        return self._tree()._proba_and_classify_encoded(X)
