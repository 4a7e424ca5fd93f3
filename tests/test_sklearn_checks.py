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
from redecorate.learners.online_mlp import OnlineMLP
from redecorate.learners.online_tree import OnlineTree
from redecorate.online import OnlineBagging, OnlineBoosting, PrimedOnlineBoosting


def _estimators():
    base = J48()
    return [
        J48(),
        J48(unpruned=True, laplace=True),
        J48(unpruned=True, min_instances=1, max_features=2, random_state=0),
        Decorate(base, ensemble_size=5, max_iterations=10),
        Decorate(base, ensemble_size=4, max_iterations=8, artificial="uniform", rejection_loss="mse"),
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


# Resampling learners draw their bootstrap/artificial data from the weights (or the number
# of rows), so weight k and k copies of a row are equal in distribution, not draw for draw.
_RESAMPLED = (
    "a weight of k and k copies of an example are equivalent only in distribution: the random "
    "bootstrap (Weka's resampleWithWeights) draws different replicates from them"
)
_DECORATE = (
    "|R| = floor(R_size * m) and the nominal Laplace counts are per row (as in Weka), so "
    "k copies of an example change the artificial data that a weight of k leaves alone"
)

_ONLINE = (
    "online backpropagation visits examples one at a time in a shuffled order: k copies of "
    "an example are k separate updates at other places in the order, a weight of k is one "
    "update k times as large"
)

_POISSON = (
    "online ensembles draw each member's copies of an example from Poisson(weight): a weight "
    "of k and k copies are equal in distribution, not draw for draw"
)

_PRECISION = (
    "Weka's numeric precision is the mean gap between the distinct training values, counted "
    "without weights, so a zero-weight row still shapes it while a removed row does not"
)


def _expected_failures(estimator) -> dict[str, str]:
    failures: dict[str, str] = {}
    if isinstance(estimator, Bagging | RandomForest | FeatureSubsetEnsemble):
        failures["check_sample_weight_equivalence_on_dense_data"] = _RESAMPLED
    if isinstance(estimator, Decorate):
        failures["check_sample_weight_equivalence_on_dense_data"] = _DECORATE
    if isinstance(estimator, MLP | OnlineMLP):
        failures["check_sample_weight_equivalence_on_dense_data"] = _ONLINE
    if isinstance(estimator, OnlineBagging | OnlineBoosting):
        failures["check_sample_weight_equivalence_on_dense_data"] = _POISSON
    if isinstance(estimator, NaiveBayes):
        failures["check_sample_weight_equivalence_on_dense_data"] = _PRECISION
    return failures


@parametrize_with_checks(_estimators(), expected_failed_checks=_expected_failures,
                         xfail_strict=True)
def test_sklearn_compatible(estimator, check):
    check(estimator)


def test_estimator_list_covers_every_learner():
    names = {type(e).__name__ for e in _estimators()}
    assert {"Decorate", "Bagging", "AdaBoostM1", "J48", "RandomForest", "NaiveBayes", "MLP",
            "FeatureSubsetEnsemble"} <= names
