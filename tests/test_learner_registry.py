"""The config-name → estimator registry and its error messages."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.tree import DecisionTreeClassifier

from redecorate.learners import (
    ALGORITHMS,
    AdaBoostM1,
    Bagging,
    Decorate,
    RandomForest,
    UnknownAlgorithmError,
    make_learner,
)
from redecorate.learners.registry import UnknownParameterError


def test_known_names():
    assert set(ALGORITHMS) == {"j48", "decorate", "bagging", "adaboost", "rf", "naive_bayes", "mlp",
                               "feature_subset_ensemble", "decision_stump", "online_tree",
                               "online_bagging", "online_boosting", "online_mlp",
                               "primed_online_boosting"}
    assert all(entry.description for entry in ALGORITHMS.values())


@pytest.mark.parametrize("name, cls", [("decorate", Decorate), ("bagging", Bagging),
                                       ("adaboost", AdaBoostM1), ("rf", RandomForest),
                                       ("Decorate", Decorate)])
def test_make_learner_builds_the_class(name, cls):
    est = make_learner(name, random_state=5)
    assert type(est) is cls and est.random_state == 5


def test_params_are_applied():
    est = make_learner("decorate", {"n_estimators": 10, "max_iterations": 30,
                                    "artificial": "uniform", "rejection": False})
    assert (est.n_estimators, est.max_iterations, est.artificial, est.rejection) == (
        10, 30, "uniform", False)


def test_j48_and_base_specifications():
    from redecorate.learners.j48 import J48
    assert isinstance(make_learner("j48", {"unpruned": True}), J48)
    est = make_learner("bagging", {"base": "j48", "n_estimators": 5})
    assert isinstance(est.estimator, J48) and est.n_estimators == 5
    est = make_learner("adaboost", {"base": {"name": "j48", "params": {"laplace": True}}})
    assert est.estimator.laplace is True
    nested = make_learner("bagging", {"base": {"name": "decorate", "params": {"base": "j48"}}})
    assert isinstance(nested.estimator.estimator, J48)


def test_base_may_be_an_estimator_instance():
    est = make_learner("decorate", {"base": DecisionTreeClassifier(max_depth=2)})
    assert isinstance(est.estimator, DecisionTreeClassifier)


def test_unknown_algorithm_names_close_matches_and_config_key():
    with pytest.raises(UnknownAlgorithmError) as info:
        make_learner("decorte")
    msg = str(info.value)
    assert "'decorte'" in msg and "'decorate'" in msg
    assert ", ".join(sorted(ALGORITHMS)) in msg
    assert "config/experiments" in msg and "algorithms" in msg
    assert isinstance(info.value, ValueError)
    with pytest.raises(UnknownAlgorithmError, match="ch4.yaml"):
        make_learner("boosting", where="config/experiments/ch4.yaml")


def test_unknown_parameters_list_valid_ones():
    with pytest.raises(UnknownParameterError) as info:
        make_learner("decorate", {"n_estimator": 15})
    msg = str(info.value)
    assert "'n_estimator'" in msg and "'n_estimators'" in msg and "max_iterations" in msg
    assert "base" in msg
    with pytest.raises(UnknownParameterError):
        make_learner("rf", {"base": "j48"})  # random forests fix their own trees
    with pytest.raises(ValueError, match="base"):
        make_learner("bagging", {"base": {"nam": "j48"}})
    with pytest.raises(UnknownAlgorithmError):
        make_learner("bagging", {"base": "c45"})


def test_random_state_comes_from_the_seed_scheme_not_params():
    with pytest.raises(ValueError, match="seed"):
        make_learner("bagging", {"random_state": 1})
    est = make_learner("bagging", random_state=np.random.SeedSequence(1))
    assert isinstance(est.random_state, np.random.SeedSequence)
