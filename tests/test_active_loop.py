"""The active-learning loop, the named systems and the chapter-6 curve of one fold.

Defining properties: the loop never queries an example twice and ends with the whole pool
labeled; a query returns the m best candidates by the strategy's own scores; the same seed
gives the same run; every system of a fold starts from the same initial set; systems are
configurations of the one loop (committee, score, selection, predictor).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from redecorate.active import (
    SYSTEMS,
    ActiveLearner,
    Committee,
    NotFittedError,
    QueryStrategy,
    UnknownSystemError,
    active_learning_curve,
    committee_outputs,
    initial_labeled_set,
    labeled_set_sizes,
    make_system,
    query_by_committee,
)
from redecorate.learners import AdaBoostM1, Bagging, Decorate


def make_data(n: int = 60, classes: int = 3, seed: int = 0) -> tuple[pd.DataFrame, pd.Series]:
    """Two numeric attributes and one nominal attribute; the class depends on all three."""
    rng = np.random.default_rng(seed)
    a = rng.normal(size=n)
    b = rng.normal(size=n)
    colour = rng.integers(0, 3, size=n)
    raw = (a + 0.8 * b + 0.7 * (colour == 1) + rng.normal(scale=0.6, size=n))
    cuts = np.quantile(raw, np.linspace(0, 1, classes + 1)[1:-1])
    y = np.searchsorted(cuts, raw)
    names = [f"c{k}" for k in range(classes)]
    X = pd.DataFrame({
        "a": a, "b": b,
        "colour": pd.Categorical.from_codes(colour, categories=["red", "green", "blue"]),
    })
    return X, pd.Series(pd.Categorical.from_codes(y, categories=names), name="class")


def partial_labels(y: pd.Series, labeled) -> pd.Series:
    mask = np.zeros(len(y), dtype=bool)
    mask[np.asarray(labeled, dtype=np.int64)] = True
    return y.where(mask)


SMALL = {"n_estimators": 3}
SMALL_DECORATE = {"n_estimators": 3, "max_iterations": 6}


def small_params(name: str) -> dict:
    return SMALL_DECORATE if "max_iterations" in SYSTEMS[name].defaults else SMALL


# -- the defining loop properties ---------------------------------------------------------------
@pytest.mark.parametrize("name", sorted(SYSTEMS))
def test_loop_never_queries_twice_and_labels_the_whole_pool(name):
    X, y = make_data(48, classes=2, seed=1)  # two classes: Bootstrap-LV is binary only
    learner = make_system(name, small_params(name), batch_size=5, random_state=3)
    learner.fit(X, partial_labels(y, [0, 7, 20]))
    queried: list[int] = []
    while learner.n_unlabeled_:
        unlabeled_before = set(np.flatnonzero(~learner.is_labeled_).tolist())
        batch = learner.query()
        assert batch.size == min(5, len(unlabeled_before))
        assert set(batch.tolist()) <= unlabeled_before
        np.testing.assert_array_equal(learner.query(), batch)  # querying again: same batch
        learner.teach(batch, y.iloc[batch])
        queried.extend(batch.tolist())
    assert len(queried) == len(set(queried)) == 45
    assert set(queried) | {0, 7, 20} == set(range(48))
    assert learner.n_labeled_ == 48 and learner.query().size == 0
    assert sorted(learner.acquisition_order_) == list(range(48))
    assert learner.labels_.tolist() == y.cat.codes.tolist()


@pytest.mark.parametrize("name", ["qbag", "active_decorate_js", "random"])
def test_query_takes_scikit_activemls_call_shape_with_the_same_batches(name):
    """``query(X, y)`` with the pool's labels so far (NaN: scikit-activeml's MISSING_LABEL)
    in every call gives the batches of the fit/teach loop."""
    X, y = make_data(40, classes=2, seed=2)
    taught = make_system(name, small_params(name), batch_size=3, random_state=4)
    taught.fit(X, partial_labels(y, [0, 9, 30]))
    asked = make_system(name, small_params(name), batch_size=3, random_state=4)
    labels = partial_labels(y, [0, 9, 30])
    for _ in range(4):
        expected = taught.query()
        taught.teach(expected, y.iloc[expected])
        batch = asked.query(X, labels, batch_size=3)
        np.testing.assert_array_equal(batch, expected)
        labels = labels.copy()
        labels.iloc[batch] = y.iloc[batch]
    with pytest.raises(TypeError, match="query\\(batch_size=m\\)"):
        asked.query(3)


def test_query_returns_the_m_best_by_the_strategy_scores():
    X, y = make_data(60)
    learner = ActiveLearner(Decorate(n_estimators=4, max_iterations=8), "probability_margin",
                            batch_size=4, random_state=0).fit(X, partial_labels(y, range(0, 60, 6)))
    for _ in range(3):
        batch = learner.query()
        margins = pd.Series(learner.last_scores_, index=learner.last_candidates_)
        others = margins.drop(batch)
        assert margins[batch].max() <= others.min()  # smaller margin = more useful
        # The scores are those of the current committee on the candidates.
        out = committee_outputs(learner.committee_, learner.X_[learner.last_candidates_])
        expected = out.proba.mean(axis=0)
        top2 = -np.sort(-expected, axis=1)[:, :2]
        np.testing.assert_allclose(margins.to_numpy(), top2[:, 0] - top2[:, 1])
        learner.teach(batch, y.iloc[batch])


def test_js_top_and_proportional_pick_from_the_js_scores():
    X, y = make_data(60)
    start = partial_labels(y, range(0, 60, 5))
    top = ActiveLearner(Decorate(n_estimators=4, max_iterations=8),
                        QueryStrategy("js_divergence"), batch_size=3, random_state=1).fit(X, start)
    batch = top.query()
    js = pd.Series(top.last_scores_, index=top.last_candidates_)
    assert js[batch].min() >= js.drop(batch).max()
    prop = ActiveLearner(Decorate(n_estimators=4, max_iterations=8),
                         QueryStrategy("js_divergence", "proportional"), batch_size=3,
                         random_state=1).fit(X, start)
    batch = prop.query()
    js = pd.Series(prop.last_scores_, index=prop.last_candidates_)
    assert (js[batch] > 0).all() or (js > 0).sum() < 3


def test_same_seed_same_run_and_different_seed_different_run():
    X, y = make_data(60)
    start = partial_labels(y, [1, 2, 3, 30])

    def run(seed):
        learner = make_system("active_decorate", SMALL_DECORATE, batch_size=2, random_state=seed)
        learner.fit(X, start)
        for _ in range(8):
            batch = learner.query()
            learner.teach(batch, y.iloc[batch])
        return learner.acquisition_order_, learner.predict_proba(X)

    order_a, proba_a = run(np.random.SeedSequence(42))
    order_b, proba_b = run(np.random.SeedSequence(42))
    assert order_a == order_b
    np.testing.assert_array_equal(proba_a, proba_b)
    assert run(np.random.SeedSequence(43))[0] != order_a


def test_teach_refuses_repeats_and_foreign_labels():
    X, y = make_data(30)
    learner = make_system("random", SMALL_DECORATE, random_state=0).fit(X, partial_labels(y, [0, 1]))
    with pytest.raises(ValueError, match="already labeled"):
        learner.teach([1], ["c0"])
    with pytest.raises(ValueError, match="repeat"):
        learner.teach([5, 5], ["c0", "c0"])
    with pytest.raises(IndexError):
        learner.teach([30], ["c0"])
    with pytest.raises(ValueError, match="not one of the classes"):
        learner.teach([4], ["purple"])
    with pytest.raises(ValueError, match="missing"):
        learner.teach([4], [None])
    with pytest.raises(ValueError, match="2 labels for 1"):
        learner.teach([4], ["c0", "c1"])
    learner.teach(np.array([4]), y.iloc[[4]])
    assert learner.n_labeled_ == 3


def test_fit_and_constructor_errors():
    X, y = make_data(20)
    with pytest.raises(NotFittedError):
        ActiveLearner().query()
    with pytest.raises(ValueError, match="no example of the pool is labeled"):
        ActiveLearner().fit(X, partial_labels(y, []))
    with pytest.raises(ValueError, match="batch_size"):
        ActiveLearner(batch_size=0)
    with pytest.raises(ValueError, match="batch_size"):
        ActiveLearner(batch_size=2.5)
    with pytest.raises(TypeError, match="committee"):
        Committee(object())
    with pytest.raises(ValueError, match="vote_weights"):
        Committee(Bagging(), vote_weights="boosted")
    with pytest.raises(TypeError, match="strategy"):
        ActiveLearner(strategy=3)


def test_unknown_system_and_parameter_names_list_the_valid_ones():
    with pytest.raises(UnknownSystemError, match="qbag") as info:
        make_system("qbagg")
    assert "active_decorate" in str(info.value)
    with pytest.raises(ValueError, match="valid parameters: .*n_estimators"):
        make_system("qboost", {"n_estimator": 3})
    with pytest.raises(ValueError, match="Did you mean 'n_estimators'"):
        make_system("qboost", {"n_estimator": 3})
    with pytest.raises(ValueError, match="'rejection_loss' parameter of Decorate"):  # the learner's own check
        make_system("active_decorate", {"rejection_loss": "brier"})
    with pytest.raises(ValueError, match="random_state"):
        make_system("qbag", {"random_state": 1})
    with pytest.raises(ValueError, match="select must be one of"):
        make_system("select_predict", {"select": "forest"})


def test_a_committee_given_directly_has_its_parameters_checked_when_fitted():
    """The loop fits through the encoded protocol; it checks each model as fit would."""
    X, y = make_data(30)
    learner = ActiveLearner(Bagging(n_estimators=3, voting="majority"), "vote_margin",
                            random_state=0).fit(X, partial_labels(y, [0, 1, 2, 3]))
    with pytest.raises(ValueError, match="'voting' parameter of Bagging"):
        learner.query()


def test_the_old_name_of_the_committee_size_still_builds_the_same_committee():
    with pytest.warns(FutureWarning, match="'ensemble_size' was renamed 'n_estimators'"):
        old = make_system("qbag", {"ensemble_size": 4})
    new = make_system("qbag", {"n_estimators": 4})
    assert old.committee.ensemble.get_params() == new.committee.ensemble.get_params()
    with pytest.raises(ValueError, match="give either n_estimators or its old name"):
        make_system("qbag", {"ensemble_size": 4, "n_estimators": 4})


# -- systems are configurations of the one loop -------------------------------------------------
def test_system_configurations():
    ad = make_system("active_decorate")
    assert isinstance(ad.committee.ensemble, Decorate) and ad.predictor is None
    assert ad.strategy == QueryStrategy("probability_margin", "top")
    assert ad.committee.ensemble.n_estimators == 15 and ad.committee.ensemble.max_iterations == 50
    js = make_system("active_decorate_js")
    assert js.strategy == QueryStrategy("js_divergence", "proportional")
    assert js.committee.ensemble.rejection_loss == "mse"
    ch6_js = make_system("active_decorate", {"score": "js_divergence"})
    assert ch6_js.strategy == QueryStrategy("js_divergence", "top")
    qbag = make_system("qbag")
    assert isinstance(qbag.committee.ensemble, Bagging) and qbag.committee.ensemble.voting == "hard"
    assert qbag.strategy.score == "vote_margin"
    qboost = make_system("qboost")
    assert isinstance(qboost.committee.ensemble, AdaBoostM1)
    assert qboost.committee.vote_weights == "model"
    assert not make_system("random").strategy.needs_committee
    sel = make_system("select_with_bagging")
    assert isinstance(sel.committee.ensemble, Bagging) and isinstance(sel.predictor, Decorate)
    assert make_system("select_with_decorate").predictor is None
    pet = make_system("bootstrap_js", {"base": {"name": "j48",
                                                "params": {"unpruned": True, "laplace": True}}})
    assert pet.committee.ensemble.estimator.laplace is True


def test_select_with_bagging_selects_with_bagging_and_predicts_with_decorate():
    X, y = make_data(40)
    learner = make_system("select_with_bagging", SMALL_DECORATE, batch_size=3, random_state=0)
    learner.fit(X, partial_labels(y, range(0, 40, 4)))
    learner.query()
    assert isinstance(learner.committee_, Bagging)
    assert isinstance(learner.predictor_, Decorate)
    roles = [e["role"] for e in learner.fit_log_]
    assert roles == ["committee", "predictor"]


def test_qboost_margin_counts_log_one_over_beta_votes():
    X, y = make_data(60)
    learner = make_system("qboost", {"n_estimators": 5}, batch_size=2, random_state=0)
    learner.fit(X, partial_labels(y, range(0, 60, 2)))
    learner.query()
    booster = learner.committee_
    out = learner.committee.outputs(booster, learner.X_[learner.last_candidates_])
    np.testing.assert_array_equal(out.weights, booster.estimator_weights_)
    votes = np.zeros((out.votes.shape[1], 3))
    for member_votes, w in zip(out.votes, booster.estimator_weights_, strict=True):
        votes[np.arange(member_votes.size), member_votes] += w
    top2 = -np.sort(-votes, axis=1)[:, :2]
    np.testing.assert_allclose(learner.last_scores_, top2[:, 0] - top2[:, 1])
    uniform = Committee(AdaBoostM1(), vote_weights="uniform").outputs(
        booster, learner.X_[:5])
    np.testing.assert_array_equal(uniform.weights, np.ones(len(booster.estimators_)))


def test_random_sampling_builds_no_committee_to_select():
    X, y = make_data(40)
    learner = make_system("random", SMALL_DECORATE, batch_size=4, random_state=0)
    learner.fit(X, partial_labels(y, [0, 1, 2]))
    for _ in range(5):
        batch = learner.query()
        learner.teach(batch, y.iloc[batch])
    assert learner.fit_log_ == []  # no model until something is predicted
    learner.predict(X)
    assert len(learner.fit_log_) == 1


def test_same_labeled_set_same_seed_same_model_across_systems():
    # Common random numbers: a DECORATE fitted on the same labeled set with the same
    # random_state is the same model whichever system (and role) fitted it.
    X, y = make_data(36)
    start = partial_labels(y, [0, 5, 9])
    models = []
    for name in ("active_decorate", "random", "select_with_bagging"):
        learner = make_system(name, SMALL_DECORATE, batch_size=11, random_state=7).fit(X, start)
        while learner.n_unlabeled_:
            batch = learner.query()
            learner.teach(batch, y.iloc[batch])
        models.append(learner.predict_proba(X))
    np.testing.assert_array_equal(models[0], models[1])
    np.testing.assert_array_equal(models[0], models[2])


def test_query_by_committee_runs_k_iterations():
    X, y = make_data(40)
    learner = query_by_committee(X, y, [0, 1, 2], Bagging(n_estimators=3),
                                 "vote_margin", batch_size=3, iterations=4, random_state=0)
    assert learner.n_labeled_ == 3 + 4 * 3
    assert learner.predict(X).shape == (40,)
    assert 0.0 <= learner.score(X, y) <= 1.0


def test_plain_arrays_and_class_lists():
    X, y = make_data(30, classes=2)
    Xn = X[["a", "b"]].to_numpy()
    labels = np.array(y.astype(str), dtype=object)
    partial = labels.copy()
    partial[3:] = None
    partial[:3] = "c0"  # only one class seen so far: give the class list
    learner = ActiveLearner(Bagging(n_estimators=3), "vote_margin", random_state=0)
    learner.fit(Xn, partial, classes=["c0", "c1"])
    batch = learner.query(batch_size=2)
    learner.teach(batch, labels[batch])
    assert list(learner.classes_) == ["c0", "c1"]
    assert learner.predict_proba(Xn).shape == (30, 2)


# -- one fold of the chapter-6 protocol -----------------------------------------------------------
def test_curve_rows_cover_every_batch_until_the_pool_is_exhausted():
    X, y = make_data(50)
    rows = active_learning_curve(X.iloc[:40], y.iloc[:40], X.iloc[40:], y.iloc[40:],
                                 "active_decorate", SMALL_DECORATE, batch_size=3,
                                 seed=np.random.SeedSequence(5))
    assert [r["n_labeled"] for r in rows] == labeled_set_sizes(40, 3, 3)
    assert rows[-1]["n_labeled"] == 40 and rows[0]["n_labeled"] == 3
    for r in rows:
        assert set(r) == {"n_labeled", "accuracy", "fit_seconds", "ensemble_size"}
        assert 0.0 <= r["accuracy"] <= 100.0 and r["fit_seconds"] > 0
        assert 1 <= r["ensemble_size"] <= 3
        assert r["accuracy"] * 10 == pytest.approx(round(r["accuracy"] * 10))  # k/10 correct


def test_curve_aulc_fold_weights_classes_by_the_training_fold():
    """``aulc_fold`` weights each class by its frequency in the training fold (§7.3.1), ``aulc``
    by its frequency in the labeled set; at the end of the curve the labeled set is the whole
    training fold, so the two must agree there. The test fold's class frequencies are made
    very different from the training fold's (20/15/5 against 5/5/20), so priors taken from
    the test fold would give another value."""
    X, y = make_data(90, classes=3, seed=2)
    codes = y.cat.codes.to_numpy()
    by_class = [np.flatnonzero(codes == k) for k in range(3)]
    pool = np.concatenate([by_class[0][:20], by_class[1][:15], by_class[2][:5]])
    test = np.concatenate([by_class[0][20:25], by_class[1][15:20], by_class[2][5:25]])
    rows = active_learning_curve(X.iloc[pool].reset_index(drop=True), y.iloc[pool].reset_index(drop=True),
                                 X.iloc[test].reset_index(drop=True), y.iloc[test].reset_index(drop=True),
                                 "qbag", SMALL, batch_size=10, metrics=("accuracy", "aulc", "aulc_fold"),
                                 seed=np.random.SeedSequence(4))
    assert rows[-1]["n_labeled"] == 40
    assert rows[-1]["aulc_fold"] == pytest.approx(rows[-1]["aulc"], rel=1e-12)
    # Earlier, the labeled set is a sample of the fold: the readings differ somewhere.
    assert any(abs(r["aulc_fold"] - r["aulc"]) > 1e-9 for r in rows[:-1])


def test_curve_initial_set_is_shared_by_systems():
    X, y = make_data(50)
    seed = np.random.SeedSequence(9)
    first = {name: active_learning_curve(X.iloc[:40], y.iloc[:40], X.iloc[40:], y.iloc[40:],
                                         name, SMALL_DECORATE, batch_size=4, max_labeled=12,
                                         seed=seed)
             for name in ("random", "active_decorate")}
    # Same initial set, same seed -> the same DECORATE at the first point (and at none of
    # the later ones, generally, since the systems then label different examples).
    assert first["random"][0] == {**first["active_decorate"][0],
                                  "fit_seconds": first["random"][0]["fit_seconds"]}
    np.testing.assert_array_equal(initial_labeled_set(40, 4, seed),
                                  initial_labeled_set(40, 4, np.random.SeedSequence(9)))
    assert not np.array_equal(initial_labeled_set(40, 4, seed),
                              initial_labeled_set(40, 4, np.random.SeedSequence(10)))


def test_curve_maximum_and_evaluation_sizes():
    X, y = make_data(50)
    args = (X.iloc[:40], y.iloc[:40], X.iloc[40:], y.iloc[40:])
    rows = active_learning_curve(*args, "select_with_adaboost", SMALL_DECORATE, batch_size=3,
                                 initial_size=5, max_labeled=20, eval_sizes=[5, 14, 20],
                                 seed=np.random.SeedSequence(1))
    assert [r["n_labeled"] for r in rows] == [5, 14, 20]
    assert labeled_set_sizes(40, 3, 5, 20) == [5, 8, 11, 14, 17, 20]
    with pytest.raises(ValueError, match="not labeled-set sizes"):
        active_learning_curve(*args, "random", SMALL_DECORATE, batch_size=3, eval_sizes=[7],
                              seed=np.random.SeedSequence(1))
    with pytest.raises(TypeError, match="SeedSequence"):
        active_learning_curve(*args, "random", SMALL_DECORATE, seed=1)
    with pytest.raises(UnknownSystemError):
        active_learning_curve(*args, "activedecorate", seed=np.random.SeedSequence(1))
    with pytest.raises(ValueError, match="initial_size"):
        labeled_set_sizes(40, 3, 41)


def test_curve_is_deterministic():
    X, y = make_data(40)
    args = (X.iloc[:30], y.iloc[:30], X.iloc[30:], y.iloc[30:], "qbag", SMALL)

    def strip(rows):
        return [{k: v for k, v in r.items() if k != "fit_seconds"} for r in rows]

    a = active_learning_curve(*args, batch_size=2, seed=np.random.SeedSequence(3))
    b = active_learning_curve(*args, batch_size=2, seed=np.random.SeedSequence(3))
    assert strip(a) == strip(b)
