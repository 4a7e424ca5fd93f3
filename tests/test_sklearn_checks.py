"""scikit-learn's estimator checks for every learner of the registry, and some variants.

The list is read from the registry, so a new learner is checked without a line here; an
ensemble is checked small (the checks fit dozens of times). Beside them runs scikit-learn's
``check_param_validation`` (which its own estimators pass, not in the checks it gives others):
every constructor parameter has a constraint (``_parameter_constraints``) and
``fit``/``partial_fit`` refuse a value outside it. The one
check some learners fail by design is named, with the reason, by the learner itself
(``sample_weight_departure``).
"""

from __future__ import annotations

import inspect

import pytest
from sklearn.utils.estimator_checks import check_param_validation, parametrize_with_checks

from redecorate.learners import (
    J48,
    Bagging,
    Decorate,
    FeatureSubsetEnsemble,
    NaiveBayes,
    OnlineBagging,
    OnlineBoosting,
    OnlineTree,
    PrimedOnlineBoosting,
)
from redecorate.learners.base import expected_failed_checks
from redecorate.learners.params import make_learner
from redecorate.learners.registry import ALGORITHMS, learner_class

SMALL = {"n_estimators": 3, "max_iterations": 8, "epochs": 20}
"""Settings that keep a check's many fits quick, for the learners that take them."""


def _registry_learners() -> list:
    """Every registry learner at its defaults, smaller where it takes a size."""
    out = []
    for name in ALGORITHMS:
        takes = inspect.signature(learner_class(name).__init__).parameters
        out.append(make_learner(name, {k: v for k, v in SMALL.items() if k in takes}, 0))
    return out


def _variants() -> list:
    """Settings the experiments use beyond the defaults."""
    base = J48()
    return [
        J48(unpruned=True, laplace=True),
        J48(unpruned=True, min_instances=1, max_features=2, random_state=0),
        Decorate(base, n_estimators=4, max_iterations=8, artificial="uniform", rejection_loss="mse"),
        Bagging(base, n_estimators=5, voting="hard"),
        Bagging(NaiveBayes(), n_estimators=3),
        FeatureSubsetEnsemble("top_gain", k=2, n_estimators=3),
        FeatureSubsetEnsemble("cumulative_gain", k=2, n_estimators=3),
        FeatureSubsetEnsemble("feature_boost", k=2, n_estimators=4),
        OnlineBagging(OnlineTree(), n_estimators=3, random_state=0),
        OnlineBoosting(learner_class("decision_stump")(), n_estimators=3, random_state=0),
        PrimedOnlineBoosting(NaiveBayes(), n_estimators=3, random_state=0),
    ]


@parametrize_with_checks([*_registry_learners(), *_variants()],
                         expected_failed_checks=expected_failed_checks, xfail_strict=True)
def test_sklearn_compatible(estimator, check):
    check(estimator)


@pytest.mark.parametrize("estimator", _registry_learners(), ids=lambda e: type(e).__name__)
def test_every_parameter_has_a_constraint_the_fit_enforces(estimator):
    check_param_validation(type(estimator).__name__, estimator)


def test_every_registry_learner_is_checked():
    checked = {type(e) for e in _registry_learners()}
    assert checked == {learner_class(name) for name in ALGORITHMS}
