"""Our fitted models as scikit-activeml classifiers, for the peer cross-checks.

Both cross-check modules (``test_active_peers.py``: the dissertation's committees;
``test_query_strategies_peers.py``: the textbook's strategies) hand the peers our *fitted*
model or committee, so that any difference in the chosen examples is a difference of the
strategies, never of two separately trained models.
"""

from __future__ import annotations

import numpy as np
from skactiveml.base import SkactivemlClassifier

from redecorate.learners.base import member_classify, member_proba


class FittedView(SkactivemlClassifier):
    """A scikit-activeml classifier that answers with one of our fitted models.

    ``model`` is a committee member (``predict`` = its own vote, the one our vote scores
    count), a whole ensemble (``predict_proba`` = the committee's distribution) or a single
    model. The peer never fits it (``fit_ensemble=False`` / ``fit_clf=False``).
    """

    def __init__(self, model=None, n_classes=2, classes=None, missing_label=np.nan,
                 cost_matrix=None, random_state=None):
        super().__init__(classes=classes, missing_label=missing_label, cost_matrix=cost_matrix,
                         random_state=random_state)
        self.model = model
        self.n_classes = n_classes

    def fit(self, X, y, sample_weight=None):  # pragma: no cover - never called
        raise AssertionError("the peer must use our fitted model, not refit it")

    def predict_proba(self, X):
        return member_proba(self.model, np.asarray(X, dtype=np.float64))

    def predict(self, X):
        return member_classify(self.model, np.asarray(X, dtype=np.float64)).astype(float)

    def __deepcopy__(self, memo):  # the peers deep-copy models; a view is read-only
        return self


def view(model, n_classes: int = 2) -> FittedView:
    """``model`` as a fitted peer classifier over class codes ``0 .. n_classes - 1``."""
    v = FittedView(model, n_classes)
    v.classes_ = np.arange(n_classes, dtype=float)  # fitted: scikit-learn's check_is_fitted
    return v
