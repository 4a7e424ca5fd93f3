"""The config-name → learner-class registry, building a learner from a file, and the error
messages of both."""

from __future__ import annotations

from pathlib import Path

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
from redecorate.learners.base import EncodedClassifier
from redecorate.learners.params import UnknownParameterError
from redecorate.learners.registry import learner_class

REPO = Path(__file__).resolve().parents[1]


def test_every_learner_an_experiment_file_names_is_registered():
    """Without a hard-coded list of names (a new learner needs no line here): the names the
    experiment files use, their base learners included, are registry names."""
    import yaml

    from redecorate.experiments import split_algorithms

    used = set()
    for path in (REPO / "config" / "experiments").glob("*.yaml"):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        learners, params = split_algorithms(data["algorithms"])
        if data.get("kind", "passive") in ("passive", "noise", "online", "feature_subsets"):
            used |= set(learners.values())
        for entry in params.values():
            base = entry.get("base")
            used |= {base.get("name") if isinstance(base, dict) else base} - {None}
    assert used and used <= set(ALGORITHMS), used - set(ALGORITHMS)
    assert all(name == name.strip().lower() for name in ALGORITHMS)


@pytest.mark.parametrize("name", sorted(ALGORITHMS))
def test_every_learner_says_what_it_is_and_is_exported(name):
    """The registry holds a class and nothing else: what the thesis calls the learner is its
    docstring's first line, and the package exports it under its class name."""
    import redecorate.learners

    cls = learner_class(name)
    assert issubclass(cls, EncodedClassifier) and cls.__doc__.strip().splitlines()[0]
    assert getattr(redecorate.learners, cls.__name__) is cls
    assert cls.__name__ in redecorate.learners.__all__ and cls.__name__ in dir(redecorate.learners)


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
