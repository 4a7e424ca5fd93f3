"""Learners: J48 (C4.5), DECORATE and the ensembles it is compared with, batch and online
(Oza's online bagging and boosting, :mod:`redecorate.learners.online_ensembles`).

Every name below is imported on first use (module ``__getattr__``), not with the package:
the workflow imports :mod:`redecorate.learners.registry` when it parses (to validate
algorithm names) and a job imports only the learners its units build, so neither pays for
scikit-learn and the numba-compiled engines (~1-2 s of CPU) of learners it does not use.
It also lets the package and the registry import where the tree engine (numba) is not
compiled yet.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from redecorate.util import lazy_exports

if TYPE_CHECKING:
    from redecorate.learners.adaboost_m1 import AdaBoostM1
    from redecorate.learners.bagging import Bagging
    from redecorate.learners.base import EncodedClassifier, fit_member, member_proba
    from redecorate.learners.decorate import Decorate
    from redecorate.learners.diversity import ensemble_diversity
    from redecorate.learners.feature_subsets import FeatureSubsetEnsemble
    from redecorate.learners.features import FeatureSchema
    from redecorate.learners.j48 import J48
    from redecorate.learners.mlp import MLP
    from redecorate.learners.naive_bayes import NaiveBayes
    from redecorate.learners.online_ensembles import (
        OnlineBagging,
        OnlineBoosting,
        PrimedOnlineBoosting,
    )
    from redecorate.learners.random_forest import RandomForest
    from redecorate.learners.registry import ALGORITHMS, UnknownAlgorithmError, make_learner

_EXPORTS = {
    "ALGORITHMS": "registry",
    "AdaBoostM1": "adaboost_m1",
    "Bagging": "bagging",
    "Decorate": "decorate",
    "EncodedClassifier": "base",
    "FeatureSchema": "features",
    "FeatureSubsetEnsemble": "feature_subsets",
    "J48": "j48",
    "MLP": "mlp",
    "NaiveBayes": "naive_bayes",
    "OnlineBagging": "online_ensembles",
    "OnlineBoosting": "online_ensembles",
    "PrimedOnlineBoosting": "online_ensembles",
    "RandomForest": "random_forest",
    "UnknownAlgorithmError": "registry",
    "ensemble_diversity": "diversity",
    "fit_member": "base",
    "make_learner": "registry",
    "member_proba": "base",
}

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
    "OnlineBagging",
    "OnlineBoosting",
    "PrimedOnlineBoosting",
    "RandomForest",
    "UnknownAlgorithmError",
    "ensemble_diversity",
    "fit_member",
    "make_learner",
    "member_proba",
]

__getattr__ = lazy_exports(__name__, _EXPORTS)
