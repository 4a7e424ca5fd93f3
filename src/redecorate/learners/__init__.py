"""Learners: J48 (C4.5), DECORATE and the ensembles it is compared with.

``J48`` is imported lazily (module ``__getattr__``) so that the package, the ensembles
and the registry import even where the tree engine (numba) is not compiled yet; the
ensembles themselves only import J48 when they need their default base learner.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from redecorate.learners.adaboost_m1 import AdaBoostM1
from redecorate.learners.bagging import Bagging
from redecorate.learners.base import EncodedClassifier, fit_member, member_proba
from redecorate.learners.decorate import Decorate
from redecorate.learners.diversity import ensemble_diversity
from redecorate.learners.feature_subsets import FeatureSubsetEnsemble
from redecorate.learners.features import FeatureSchema
from redecorate.learners.naive_bayes import NaiveBayes
from redecorate.learners.random_forest import RandomForest
from redecorate.learners.registry import ALGORITHMS, UnknownAlgorithmError, make_learner

if TYPE_CHECKING:
    from redecorate.learners.j48 import J48
    from redecorate.learners.mlp import MLP

__all__ = [
    "ALGORITHMS",
    "AdaBoostM1",
    "Bagging",
    "Decorate",
    "EncodedClassifier",
    "FeatureSchema",
    "FeatureSubsetEnsemble",
    "J48",
    "MLP",
    "NaiveBayes",
    "RandomForest",
    "UnknownAlgorithmError",
    "ensemble_diversity",
    "fit_member",
    "make_learner",
    "member_proba",
]


def __getattr__(name: str) -> Any:
    if name == "J48":
        from redecorate.learners.j48 import J48

        return J48
    if name == "MLP":  # numba-compiled, like J48's engine: imported on first use
        from redecorate.learners.mlp import MLP

        return MLP
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
