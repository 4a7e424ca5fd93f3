"""Which of scikit-learn's estimator checks each learner fails by design, and why.

``check_estimator(est, expected_failed_checks=expected_failed_checks(est))`` runs scikit-learn's
checks with these marked as expected failures (``tests/test_sklearn_checks.py`` does, with
strict xfail). The only such check is sample-weight equivalence (a weight of k equals k copies
of the row, fit for fit): each learner below genuinely departs from it, and each reason says
how. Making it hold would change the learner the dissertation used (Weka's) or, for the online
ensembles, draw k Poisson(1) counts for k copies where Oza's weighted rule draws one
Poisson(k): equal in distribution, but not draw for draw, which is what the check compares.
"""

from __future__ import annotations

from typing import Any

__all__ = ["SAMPLE_WEIGHT_CHECK", "expected_failed_checks"]

SAMPLE_WEIGHT_CHECK = "check_sample_weight_equivalence_on_dense_data"

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


def expected_failed_checks(estimator: Any) -> dict[str, str]:
    """scikit-learn check name -> why ``estimator`` fails it (empty: it passes every check)."""
    from redecorate.learners.bagging import Bagging
    from redecorate.learners.decorate import Decorate
    from redecorate.learners.feature_subsets import FeatureSubsetEnsemble
    from redecorate.learners.mlp import MLP
    from redecorate.learners.naive_bayes import NaiveBayes
    from redecorate.learners.online_ensembles import OnlineBagging, OnlineBoosting
    from redecorate.learners.online_mlp import OnlineMLP
    from redecorate.learners.random_forest import RandomForest

    reasons = (
        (Bagging | RandomForest | FeatureSubsetEnsemble, _RESAMPLED),
        (Decorate, _DECORATE),
        (MLP | OnlineMLP, _ONLINE),
        (OnlineBagging | OnlineBoosting, _POISSON),
        (NaiveBayes, _PRECISION),
    )
    matching = [reason for kind, reason in reasons if isinstance(estimator, kind)]
    return {SAMPLE_WEIGHT_CHECK: matching[-1]} if matching else {}  # the most specific: last
