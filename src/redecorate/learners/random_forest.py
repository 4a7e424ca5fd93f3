"""Random Forests (Breiman 2001; dissertation §2.4), built from J48's random-tree mode.

Bagging plus random feature selection: every member is an unpruned tree grown on a
bootstrap replicate, choosing each split among ``K`` randomly drawn attributes.
Following the dissertation (and Breiman), ``K = floor(log2(k + 1))`` where ``k`` is the
number of attributes. Weka 3.6's ``trees.RandomForest`` instead uses
``(int) log2(numAttributes) + 1`` with the class attribute counted, i.e.
``floor(log2(k + 1)) + 1``; pass ``max_features="weka"`` to reproduce Weka exactly.
Where the two disagree the dissertation's text wins, hence the default.

Prediction averages the trees' class distributions, as Weka's RandomForest (a Bagging
of RandomTree) does. Random forests are only needed for the size-100 comparisons of
Figs 4.8/4.9.
"""

from __future__ import annotations

import math
import numbers

import numpy as np
from sklearn.utils._param_validation import StrOptions

from redecorate.learners.bagging import (
    RESAMPLED_DEPARTURE,
    combine_members,
    fit_bootstrap_members,
)
from redecorate.learners.base import POSITIVE_INT, RANDOM_STATE, EncodedClassifier, NumberInterval
from redecorate.learners.cost import FitCost
from redecorate.learners.features import FeatureSchema
from redecorate.learners.j48 import J48
from redecorate.util import as_seed_sequence

__all__ = ["RandomForest", "random_subspace_size"]


def random_subspace_size(n_features: int, max_features=None) -> int:
    """Number ``K`` of candidate attributes per node for ``n_features`` attributes.

    ``None`` → the thesis' ``floor(log2(k+1))``; ``"weka"`` → Weka 3.6's
    ``floor(log2(k+1)) + 1``; an int is used as given. Always clipped to ``[1, k]`` (as
    Weka's RandomTree clips it), so a one-attribute problem still grows a tree.
    """
    k = int(n_features)
    if max_features is None:
        K = int(math.floor(math.log2(k + 1)))
    elif isinstance(max_features, str) and max_features == "weka":
        K = int(math.floor(math.log2(k + 1))) + 1
    elif isinstance(max_features, numbers.Integral) and not isinstance(max_features, bool):
        if max_features < 1:
            raise ValueError(f"max_features must be at least 1, got {max_features}")
        K = int(max_features)
    else:
        raise ValueError(f"max_features must be None, 'weka' or a positive int, got {max_features!r}")
    return max(1, min(K, k))


class RandomForest(EncodedClassifier):
    """Bagged random trees: ``J48(unpruned=True, min_instances=1, max_features=K)``.

    Parameters
    ----------
    n_estimators:
        Number of trees (15 in chapter 4's comparisons, 100 in Figs 4.8/4.9).
    max_features:
        ``K``; see :func:`random_subspace_size`.
    draw_until_gain:
        When none of a node's ``K`` candidates has positive gain, draw more until one has
        (True, Weka's ``RandomTree``) or make the node a leaf (False); see
        :class:`~redecorate.learners.j48.J48`.
    min_instances:
        Minimum weight in a branch (``RandomTree``'s and J48's ``-M``): 1, ``RandomTree``'s
        default, or 2, J48's.
    criterion:
        How a node chooses among its candidates: ``"gain"``, information gain
        (``RandomTree``), or ``"gain_ratio"``, C4.5's own choice restricted to them (J48
        random trees). Together with ``min_instances=2`` the latter is the forest of J48
        trees that "J48 as the base learner" and "no pruning on the random trees" can mean
        (dissertation §2.4 and §4.1), a reading of Table 4.4 (``reproduced/ch4_readings_rf``).
    random_state:
        Seeds both the bootstrap of tree ``i`` and its attribute sampling (independent
        children of one :class:`numpy.random.SeedSequence`).

    Attributes
    ----------
    estimators_, estimators_samples_: as in :class:`~redecorate.learners.bagging.Bagging`.
    max_features_: the ``K`` actually used.
    """

    display_name = "Random Forests"

    _parameter_constraints = {
        "n_estimators": [POSITIVE_INT],
        "max_features": [StrOptions({"weka"}), POSITIVE_INT, None],
        "draw_until_gain": ["boolean"],
        "min_instances": [NumberInterval(numbers.Real, 0, None, closed="neither")],
        "criterion": [StrOptions({"gain", "gain_ratio"})],
        "random_state": RANDOM_STATE,
    }
    fit_cost = FitCost(9.2e-7, ensemble=True, engine="c45")
    sample_weight_departure = RESAMPLED_DEPARTURE

    def __init__(self, n_estimators: int = 15, max_features=None, draw_until_gain: bool = True,
                 min_instances: float = 1, criterion: str = "gain", random_state=None):
        self.n_estimators = n_estimators
        self.max_features = max_features
        self.draw_until_gain = draw_until_gain
        self.min_instances = min_instances
        self.criterion = criterion
        self.random_state = random_state

    def _fit_encoded(self, X: np.ndarray, y: np.ndarray, sample_weight: np.ndarray,
                     schema: FeatureSchema, n_classes: int) -> None:
        self.max_features_ = random_subspace_size(schema.n_features, self.max_features)
        tree = J48(unpruned=True, min_instances=self.min_instances, max_features=self.max_features_,
                   draw_until_gain=self.draw_until_gain, random_criterion=self.criterion)
        self.estimators_, self.estimators_samples_ = fit_bootstrap_members(
            tree, X, y, sample_weight, schema, n_classes, self.n_estimators,
            as_seed_sequence(self.random_state),
        )
        self.n_classes_ = n_classes

    def _proba_encoded(self, X: np.ndarray) -> np.ndarray:
        return combine_members(self.estimators_, X, self.n_classes_, "soft")
