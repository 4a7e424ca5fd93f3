"""A learner as small as the contract allows: the training set's class distribution, smoothed.

``docs/adding-a-learner.md`` walks through it line by line, and
``tests/test_adding_a_learner.py`` adds it to a copy of the package (this file as
``redecorate/learners/class_prior.py`` and one registry line) and runs an experiment with it
through the Snakefile. It is no baseline of the sources: it exists to show what a learner of
the project has to say about itself.
"""

from __future__ import annotations

import numbers

import numpy as np

from redecorate.learners.base import EncodedClassifier, NumberInterval
from redecorate.learners.cost import FitCost
from redecorate.learners.features import FeatureSchema


class ClassPrior(EncodedClassifier):
    """Class prior: every example gets the training set's class distribution, smoothed.

    Parameters
    ----------
    smoothing:
        Pseudo-count added to every class before normalising (1: Laplace's rule).

    Attributes
    ----------
    class_distribution_: the distribution every prediction returns, one entry per class.
    """

    display_name = "Class Prior"
    _parameter_constraints = {"smoothing": [NumberInterval(numbers.Real, 0, None, closed="left")]}
    fit_cost = FitCost(per_example=1e-9)

    def __init__(self, smoothing: float = 1.0):
        self.smoothing = smoothing

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.poor_score = True  # it ignores the features by design
        return tags

    def _fit_encoded(self, X: np.ndarray, y: np.ndarray, sample_weight: np.ndarray,
                     schema: FeatureSchema, n_classes: int) -> None:
        counts = np.bincount(y, weights=sample_weight, minlength=n_classes) + self.smoothing
        total = counts.sum()
        self.class_distribution_ = counts / total if total > 0 else np.full(n_classes, 1.0 / n_classes)

    def _proba_encoded(self, X: np.ndarray) -> np.ndarray:
        return np.tile(self.class_distribution_, (X.shape[0], 1))
