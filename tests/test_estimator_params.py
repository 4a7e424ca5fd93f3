"""Estimator parameters in scikit-learn's words: ``estimator`` and ``n_estimators``.

Every ensemble takes its base learner as ``estimator`` and its size as ``n_estimators``, and
those are its only names: ``get_params`` shows no placeholder of an old one. An experiment
file may still use the old names (``base_estimator``; DECORATE's ``ensemble_size``), which
:func:`make_learner` accepts for one release with a FutureWarning and which build the
identical model; giving both names is an error. Unit keys hash the parameters in the spelling
the committed records were keyed under, so the experiment files' rename to ``n_estimators``
keeps every committed unit reusable.
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import numpy as np
import pytest
import yaml
from sklearn.datasets import load_iris

from redecorate.experiments import load_experiment
from redecorate.job_records import job_record_info, key_params, unit_key
from redecorate.kinds import get_kind
from redecorate.learners import (
    J48,
    AdaBoostM1,
    Bagging,
    Decorate,
    FeatureSubsetEnsemble,
    NaiveBayes,
    OnlineBagging,
    OnlineBoosting,
    PrimedOnlineBoosting,
)
from redecorate.learners.params import UnknownParameterError, make_learner
from redecorate.learners.registry import ALGORITHMS, learner_class

REPO = Path(__file__).resolve().parents[1]
SCHEMA = REPO / "workflow" / "schemas" / "experiment.schema.yaml"

#: (registry name, class, new-name params, the same with the old names): small, fast ensembles.
CASES = [
    ("decorate", Decorate, {"base": "j48", "n_estimators": 4, "max_iterations": 8},
     {"base_estimator": "j48", "ensemble_size": 4, "max_iterations": 8}),
    ("bagging", Bagging, {"base": "j48", "n_estimators": 4}, {"base_estimator": "j48", "n_estimators": 4}),
    ("adaboost", AdaBoostM1, {"base": "j48", "n_estimators": 4}, {"base_estimator": "j48", "n_estimators": 4}),
    ("feature_subset_ensemble", FeatureSubsetEnsemble, {"k": 2, "n_estimators": 4, "base": "j48"},
     {"k": 2, "n_estimators": 4, "base_estimator": "j48"}),
    ("online_bagging", OnlineBagging, {"base": "naive_bayes", "n_estimators": 4},
     {"base_estimator": "naive_bayes", "n_estimators": 4}),
    ("online_boosting", OnlineBoosting, {"base": "naive_bayes", "n_estimators": 4},
     {"base_estimator": "naive_bayes", "n_estimators": 4}),
    ("primed_online_boosting", PrimedOnlineBoosting, {"base": "naive_bayes", "n_estimators": 4},
     {"base_estimator": "naive_bayes", "n_estimators": 4}),
]  # fmt: skip
IDS = [name for name, *_ in CASES]


@pytest.fixture(scope="module")
def iris():
    data = load_iris()
    order = np.random.default_rng(0).permutation(len(data.target))  # online learners: mixed classes
    return data.data[order], data.target[order]


@pytest.mark.parametrize(("name", "cls", "new", "old"), CASES, ids=IDS)
def test_the_new_names_are_the_only_parameters(name, cls, new, old) -> None:
    params = cls().get_params(deep=False)
    assert {"estimator", "n_estimators"} <= set(params) and params["estimator"] is None
    assert not set(cls.renamed_parameters) & set(params)
    assert "deprecated" not in [v for v in params.values() if isinstance(v, str)]
    with pytest.raises(TypeError):
        cls(**{next(iter(cls.renamed_parameters)): None})


@pytest.mark.parametrize(("name", "cls", "new", "old"), CASES, ids=IDS)
def test_old_names_in_a_file_warn_and_fit_the_identical_model(name, cls, new, old, iris) -> None:
    X, y = iris
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the new names warn about nothing
        current = make_learner(name, new, 3).fit(X, y)
    with pytest.warns(FutureWarning, match="renamed") as caught:
        before = make_learner(name, old, 3)
    renamed = {w.message.args[0].split("'")[1] for w in caught}
    assert renamed == set(old) & set(cls.renamed_parameters)
    before.fit(X, y)
    np.testing.assert_array_equal(before.predict_proba(X), current.predict_proba(X))
    np.testing.assert_array_equal(before.predict(X), current.predict(X))
    assert before.ensemble_size_ == current.ensemble_size_


def test_decorate_reads_the_renamed_size(iris) -> None:
    X, y = iris
    with pytest.warns(FutureWarning, match="'ensemble_size' was renamed 'n_estimators'"):
        model = make_learner("decorate", {"ensemble_size": 2, "max_iterations": 10, "rejection": False}, 0)
    assert model.fit(X, y).ensemble_size_ == 2
    assert Decorate(n_estimators=3, max_iterations=10, rejection=False, random_state=0).fit(X, y).ensemble_size_ == 3
    with pytest.raises(ValueError, match="'n_estimators' parameter of Decorate must be an int in the range"):
        Decorate(n_estimators=0).fit(X, y)


def test_the_ensemble_fit_checks_its_base_learners_parameters(iris) -> None:
    """Members are fitted through the encoded protocol, never through ``fit``: the ensemble's
    fit is where their parameters are checked."""
    X, y = iris
    with pytest.raises(ValueError, match="'confidence' parameter of J48"):
        Bagging(J48(confidence=2.0), n_estimators=2).fit(X, y)
    with pytest.raises(ValueError, match="'confidence' parameter of J48"):
        Bagging(Decorate(J48(confidence=2.0), n_estimators=2), n_estimators=2).fit(X, y)


def test_a_setting_found_valid_is_remembered_with_its_type(iris) -> None:
    """The check is skipped for settings already found valid, but True is not the 1 that was."""
    X, y = iris
    Bagging(n_estimators=1, random_state=0).fit(X, y)
    with pytest.raises(ValueError, match="'n_estimators' parameter of Bagging"):
        Bagging(n_estimators=True, random_state=0).fit(X, y)
    with pytest.raises(ValueError, match="'n_estimators' parameter of Bagging"):
        Bagging(n_estimators=1.0, random_state=0).fit(X, y)


# -- the registry: experiment files' names ------------------------------------------------
def test_the_registry_takes_the_new_names_and_base() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        est = make_learner("decorate", {"n_estimators": 5, "base": {"name": "j48", "params": {"unpruned": True}}})
        assert est.n_estimators == 5 and "ensemble_size" not in est.get_params()
        assert isinstance(est.estimator, J48) and est.estimator.unpruned is True
        assert isinstance(make_learner("bagging", {"estimator": "naive_bayes"}).estimator, NaiveBayes)


@pytest.mark.parametrize(("params", "expected"), [
    ({"ensemble_size": 7}, {"n_estimators": 7}),
    ({"base_estimator": "naive_bayes"}, {"estimator": NaiveBayes}),
])  # fmt: skip
def test_the_registry_takes_the_old_names_with_a_warning(params, expected) -> None:
    with pytest.warns(FutureWarning, match="renamed .* experiment.yaml"):
        est = make_learner("decorate", params, where="experiment.yaml")
    for name, value in expected.items():
        got = getattr(est, name)
        assert isinstance(got, value) if isinstance(value, type) else got == value


@pytest.mark.parametrize("params", [
    {"ensemble_size": 5, "n_estimators": 5},
    {"base_estimator": "j48", "base": "j48"},
    {"base_estimator": "j48", "estimator": "j48"},
    {"base": "j48", "estimator": "j48"},
])  # fmt: skip
def test_the_registry_refuses_two_names_of_one_parameter(params) -> None:
    with pytest.raises(ValueError, match="give either"):
        make_learner("decorate", params)


def test_the_registry_suggests_the_new_names_only() -> None:
    with pytest.raises(UnknownParameterError) as caught:
        make_learner("decorate", {"n_estimator": 5})
    assert "n_estimators" in caught.value.valid and "ensemble_size" not in caught.value.valid
    assert "base_estimator" not in caught.value.valid and "Did you mean 'n_estimators'?" in str(caught.value)


# -- unit keys: one spelling, the committed records' ----------------------------------------
def test_unit_keys_hash_the_new_names_as_the_records_were_keyed() -> None:
    assert key_params("decorate", {"n_estimators": 15, "max_iterations": 50}) == {
        "ensemble_size": 15, "max_iterations": 50}
    assert key_params("decorate", {"ensemble_size": 15}) == {"ensemble_size": 15}
    assert key_params("bagging", {"n_estimators": 15, "estimator": "j48"}) == {"n_estimators": 15, "base": "j48"}
    assert key_params("rf", {"n_estimators": 15}) == {"n_estimators": 15}
    assert key_params("adaboost", {"base_estimator": "j48"}) == {"base_estimator": "j48"}  # as always
    nested = {"base": {"name": "decorate", "params": {"n_estimators": 3}}}
    assert key_params("bagging", nested) == {"base": {"name": "decorate", "params": {"ensemble_size": 3}}}
    # Not a known learner, not parameters, or two spellings at once: as given.
    assert key_params("majority", {"n_estimators": 1}) == {"n_estimators": 1}
    assert key_params("decorate", None) is None
    both = {"n_estimators": 5, "ensemble_size": 5}
    assert key_params("decorate", both) == both


@pytest.mark.parametrize("name", sorted(ALGORITHMS))
def test_every_renamed_parameter_has_one_key_spelling(name: str) -> None:
    """A parameter renamed in a learner hashes alike under its new and its old name (for a
    base learner, the experiment files' ``base``), so a rename never orphans records."""
    renamed = learner_class(name).renamed_parameters
    for old, new in renamed.items():
        config_name = "base" if new == "estimator" else old
        assert key_params(name, {new: 1}) == key_params(name, {config_name: 1}), (name, old, new)


#: Committed per-job records whose DECORATE entries were keyed with ``ensemble_size``:
#: chapter 4's large-ensemble comparison, Table 4.x's base learners (DECORATE around the MLP,
#: nested ``base``) and chapter 5's class noise.
COMMITTED = ["ch4_large", "ch4_base_learners", "ch5_class_noise"]


def _stored_and_recomputed(experiment: str, text: str, tmp_path: Path):
    """The (stored, recomputed) unit keys of every committed records file of ``experiment``,
    recomputed from the experiment file ``text`` at the scale the run used."""
    provenance = json.loads((REPO / "reproduced" / experiment / "provenance.json").read_text())
    path = tmp_path / f"{experiment}.yaml"
    path.write_text(text)
    spec = load_experiment(path, schema=SCHEMA, scale=provenance["experiment"]["settings"]["scale"])
    kind = get_kind(spec.kind)
    job = kind.job_settings(spec)
    stored, recomputed = [], []
    for records in sorted((REPO / "reproduced" / experiment / "records").glob("*/*.parquet")):
        info = job_record_info(records)
        for unit, key in zip(info["units"], info["unit_keys"], strict=True):
            stored.append(key)
            recomputed.append(unit_key(kind, job, unit, records.parent.name))
    return stored, recomputed


def _respelled(text: str, old: str, new: str) -> str:
    """The experiment file with ``old:`` written ``new:`` in its DECORATE entries."""
    data = yaml.safe_load(text)
    for label, params in data["algorithms"].items():
        if (params or {}).get("learner", label) == "decorate" and old in params:
            data["algorithms"][label] = {(new if k == old else k): v for k, v in params.items()}
    return yaml.safe_dump(data, sort_keys=False)


@pytest.mark.parametrize("experiment", COMMITTED)
def test_committed_records_keep_their_unit_keys(experiment: str, tmp_path: Path) -> None:
    """The unit keys of the current experiment file, and of the same file in the other
    spelling (``ensemble_size`` / ``n_estimators``), equal the keys stored in the committed
    per-job records: a later ``records_from=reproduced`` run reuses every unit."""
    text = (REPO / "config" / "experiments" / f"{experiment}.yaml").read_text()
    assert "ensemble_size" in text or "n_estimators" in text
    for spelling in (text, _respelled(text, "n_estimators", "ensemble_size"),
                     _respelled(text, "ensemble_size", "n_estimators")):
        stored, recomputed = _stored_and_recomputed(experiment, spelling, tmp_path)
        assert stored and recomputed == stored
