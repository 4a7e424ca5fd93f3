"""scikit-learn's estimator checks for every learner of the project.

Ensembles are checked with small sizes (the checks fit dozens of times), around J48.
"""

from __future__ import annotations

from sklearn.utils.estimator_checks import parametrize_with_checks

from redecorate.learners import (
    J48,
    AdaBoostM1,
    Bagging,
    Decorate,
    FeatureSubsetEnsemble,
    NaiveBayes,
    RandomForest,
)
from redecorate.learners.decision_stump import DecisionStump
from redecorate.learners.mlp import MLP
from redecorate.learners.online_ensembles import OnlineBagging, OnlineBoosting, PrimedOnlineBoosting
from redecorate.learners.online_mlp import OnlineMLP
from redecorate.learners.online_tree import OnlineTree
from redecorate.sklearn_checks import expected_failed_checks


def _estimators():
    base = J48()
    return [
        J48(),
        J48(unpruned=True, laplace=True),
        J48(unpruned=True, min_instances=1, max_features=2, random_state=0),
        Decorate(base, n_estimators=5, max_iterations=10),
        Decorate(base, n_estimators=4, max_iterations=8, artificial="uniform", rejection_loss="mse"),
        Bagging(base, n_estimators=5),
        Bagging(base, n_estimators=5, voting="hard"),
        AdaBoostM1(base, n_estimators=5),
        RandomForest(n_estimators=5),
        NaiveBayes(),
        MLP(epochs=20, random_state=0),
        Bagging(NaiveBayes(), n_estimators=3),
        FeatureSubsetEnsemble("random", k=2, n_estimators=5),
        FeatureSubsetEnsemble("top_gain", k=2, n_estimators=3),
        FeatureSubsetEnsemble("cumulative_gain", k=2, n_estimators=3),
        FeatureSubsetEnsemble("feature_boost", k=2, n_estimators=4),
        DecisionStump(),
        OnlineTree(),
        OnlineMLP(random_state=0),
        OnlineBagging(NaiveBayes(), n_estimators=3, random_state=0),
        OnlineBagging(OnlineTree(), n_estimators=3, random_state=0),
        OnlineBoosting(DecisionStump(), n_estimators=3, random_state=0),
        PrimedOnlineBoosting(NaiveBayes(), n_estimators=3, random_state=0),
    ]


@parametrize_with_checks(_estimators(), expected_failed_checks=expected_failed_checks,
                         xfail_strict=True)
def test_sklearn_compatible(estimator, check):
    check(estimator)


def test_estimator_list_covers_every_learner():
    names = {type(e).__name__ for e in _estimators()}
    assert {"Decorate", "Bagging", "AdaBoostM1", "J48", "RandomForest", "NaiveBayes", "MLP",
            "FeatureSubsetEnsemble"} <= names
