"""Defining properties of the textbook's query strategies (Aggarwal §11.7) in the loop:
uncertainty sampling (least confident, margin, entropy), query by committee (vote entropy, KL
divergence to the mean), expected error reduction, information density and expected model
change, as :mod:`redecorate.active.systems` names them."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from redecorate.active import (
    SYSTEMS,
    ActiveLearner,
    CommitteeOutput,
    QueryStrategy,
    js_divergence,
    make_system,
)
from redecorate.active.committee import Committee
from redecorate.active.density import Density, mean_similarity, similarity_features
from redecorate.active.expected_error import ExpectedErrorReduction, expected_loss_of
from redecorate.active.model_change import ExpectedModelChange, mlp_gradient_norms
from redecorate.active.scores import kl_to_mean, least_confident, predictive_entropy
from redecorate.active.strategy import SCORES, PoolView
from redecorate.learners import J48, Bagging
from redecorate.learners.features import FeatureSchema
from redecorate.learners.mlp import MLP
from redecorate.learners.naive_bayes import NaiveBayes


def one_model(proba: np.ndarray) -> CommitteeOutput:
    """A committee of one model with these class distributions on the candidates."""
    return CommitteeOutput(proba[None], np.argmax(proba, axis=1)[None], np.ones(1))


def dirichlet(n: int, k: int, seed: int, members: int | None = None) -> np.ndarray:
    size = (n,) if members is None else (members, n)
    return np.random.default_rng(seed).dirichlet(np.full(k, 0.7), size=size)


def make_data(n: int = 60, classes: int = 3, seed: int = 0) -> tuple[pd.DataFrame, pd.Series]:
    rng = np.random.default_rng(seed)
    a, b = rng.normal(size=n), rng.normal(size=n)
    colour = rng.integers(0, 3, size=n)
    raw = a + 0.8 * b + 0.5 * colour + rng.normal(scale=0.6, size=n)
    y = np.searchsorted(np.quantile(raw, np.linspace(0, 1, classes + 1)[1:-1]), raw)
    X = pd.DataFrame({"a": a, "b": b, "colour": pd.Categorical.from_codes(
        colour, categories=["red", "green", "blue"])})
    return X, pd.Series(pd.Categorical.from_codes(y, categories=[f"c{k}" for k in range(classes)]))


def partial(y: pd.Series, labeled) -> pd.Series:
    mask = np.zeros(len(y), dtype=bool)
    mask[np.asarray(labeled, dtype=np.int64)] = True
    return y.where(mask)


# -- uncertainty sampling -------------------------------------------------------------------------
@pytest.mark.parametrize("k", [2, 3, 7])
def test_entropy_sampling_picks_the_example_of_maximal_predictive_entropy(k):
    for seed in range(20):
        P = dirichlet(40, k, seed)
        chosen, raw = QueryStrategy("entropy").select(one_model(P), 1, np.random.default_rng(0))
        H = stats.entropy(P, axis=1)
        np.testing.assert_allclose(raw, H, rtol=1e-12)
        assert chosen[0] == np.argmax(H)


@pytest.mark.parametrize("k", [2, 3, 7])
def test_least_confident_and_margin_pick_their_own_optimum(k):
    for seed in range(20):
        P = dirichlet(40, k, seed)
        rng = np.random.default_rng(0)
        lc, raw_lc = QueryStrategy("least_confident").select(one_model(P), 1, rng)
        np.testing.assert_allclose(raw_lc, 1 - P.max(axis=1), rtol=1e-12)
        assert lc[0] == np.argmin(P.max(axis=1))
        top2 = -np.sort(-P, axis=1)[:, :2]
        mg, _ = QueryStrategy("probability_margin").select(one_model(P), 1, rng)
        assert mg[0] == np.argmin(top2[:, 0] - top2[:, 1])


def test_the_three_uncertainty_measures_differ_with_more_than_two_classes():
    # x0: confident top class, the rest flat; x1: two-way split; x2: three-way split with a clear
    # leader. Least confident, margin and entropy each prefer a different example.
    P = np.array([[0.50, 0.25, 0.25, 0.0], [0.45, 0.44, 0.11, 0.0], [0.40, 0.20, 0.20, 0.20]])
    rng = np.random.default_rng(0)
    picks = {s: int(QueryStrategy(s).select(one_model(P), 1, rng)[0][0])
             for s in ("least_confident", "probability_margin", "entropy")}
    assert picks == {"least_confident": 2, "probability_margin": 1, "entropy": 2}
    P[2] = [0.55, 0.15, 0.15, 0.15]
    picks = {s: int(QueryStrategy(s).select(one_model(P), 1, rng)[0][0])
             for s in ("least_confident", "probability_margin", "entropy")}
    assert picks == {"least_confident": 1, "probability_margin": 1, "entropy": 2}


def test_with_two_classes_the_uncertainty_measures_rank_alike():
    P = dirichlet(200, 2, 3)
    order = np.argsort(-least_confident(P[None]), kind="stable")
    np.testing.assert_array_equal(np.argsort(-predictive_entropy(P[None]), kind="stable"), order)
    margin = np.abs(P[:, 0] - P[:, 1])
    np.testing.assert_array_equal(np.argsort(margin, kind="stable"), order)


def test_a_committee_mean_is_what_uncertainty_reads():
    proba = dirichlet(30, 4, 1, members=5)
    w = np.array([1.0, 2.0, 0.5, 1.0, 3.0])
    mean = np.tensordot(w / w.sum(), proba, axes=1)
    np.testing.assert_allclose(least_confident(proba, w), 1 - mean.max(axis=1))
    np.testing.assert_allclose(predictive_entropy(proba, w), stats.entropy(mean, axis=1))


@pytest.mark.parametrize("measure", ["least_confident", "margin", "entropy"])
def test_uncertainty_system_queries_the_most_uncertain_example_of_its_j48(measure):
    X, y = make_data(80)
    learner = make_system("uncertainty", {"measure": measure}, batch_size=1, random_state=0)
    learner.fit(X, partial(y, range(0, 80, 8)))
    for _ in range(5):
        batch = learner.query()
        model = learner.committee_
        assert isinstance(model, J48) and model.laplace  # a J48 with Laplace estimates
        P = model.predict_proba_prepared(learner.X_[learner.last_candidates_])
        top2 = -np.sort(-P, axis=1)[:, :2]
        utility = {"least_confident": 1 - P.max(axis=1), "margin": top2[:, 1] - top2[:, 0],
                   "entropy": stats.entropy(P, axis=1)}[measure]
        best = learner.last_candidates_[np.isclose(utility, utility.max(), rtol=0, atol=1e-12)]
        assert batch[0] in best
        learner.teach(batch, y.iloc[batch])


# -- query by committee ---------------------------------------------------------------------------
def test_kl_to_mean_is_the_mean_kl_divergence_and_equals_js_for_any_weights():
    proba = dirichlet(50, 3, 2, members=6)
    proba[0, :5] = [1.0, 0.0, 0.0]  # zeros: 0 log 0 = 0
    w = np.array([0.5, 1.0, 2.0, 1.0, 0.1, 3.0])
    wn = w / w.sum()
    mean = np.tensordot(wn, proba, axes=1)
    brute = sum(wi * stats.entropy(p, mean, axis=1) for wi, p in zip(wn, proba, strict=True))
    np.testing.assert_allclose(kl_to_mean(proba, w), brute, rtol=1e-10, atol=1e-13)
    np.testing.assert_allclose(kl_to_mean(proba, w), js_divergence(proba, w), atol=1e-12)
    assert (kl_to_mean(np.repeat(proba[:1], 4, axis=0)) == 0).all()  # agreement: 0


@pytest.mark.parametrize("measure", ["vote_entropy", "kl_to_mean"])
def test_qbc_system_queries_the_committee_s_largest_disagreement(measure):
    X, y = make_data(70, seed=2)
    learner = make_system("qbc", {"measure": measure, "n_estimators": 7}, batch_size=2,
                          random_state=1)
    learner.fit(X, partial(y, range(0, 70, 7)))
    for _ in range(4):
        batch = learner.query()
        out = learner.committee.outputs(learner.committee_, learner.X_[learner.last_candidates_])
        if measure == "vote_entropy":
            counts = np.stack([(out.votes == c).sum(axis=0) for c in range(3)], axis=1)
            expected = stats.entropy(counts / counts.sum(axis=1, keepdims=True), axis=1)
        else:
            expected = kl_to_mean(out.proba)
        np.testing.assert_allclose(learner.last_scores_, expected, atol=1e-12)
        chosen = expected[np.isin(learner.last_candidates_, batch)]
        others = expected[~np.isin(learner.last_candidates_, batch)]
        assert chosen.min() >= others.max() - 1e-12
        learner.teach(batch, y.iloc[batch])


# -- expected error reduction ---------------------------------------------------------------------
def numeric_data(n: int, classes: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    centres = rng.normal(scale=2.0, size=(classes, 3))
    y = np.arange(n) % classes
    return centres[y] + rng.normal(size=(n, 3)), y


def brute_force_expected_losses(learner: ActiveLearner, candidates: np.ndarray, loss: str):
    """E(x) for each candidate by refitting a fresh NaiveBayes by hand, V = all unlabeled."""
    labeled = learner.labeled_indices_
    unlabeled = np.flatnonzero(~learner.is_labeled_)
    codes = learner.labels_
    K = len(learner.classes_)
    current = learner.committee_.predict_proba_prepared(learner.X_[candidates])
    out = []
    for x, p in zip(candidates, current, strict=True):
        total = 0.0
        for i in range(K):
            rows = np.sort(np.append(labeled, x))
            y = codes[rows].copy()
            y[rows == x] = i
            nb = NaiveBayes().fit_prepared(learner.X_[rows], y, classes=np.arange(K),
                                           schema=learner.schema_,
                                           columns=pd.DataFrame(columns=["f0", "f1", "f2"]))
            P = nb.predict_proba_prepared(learner.X_[unlabeled])
            value = (-(P * np.log(np.where(P > 0, P, 1))).sum(axis=1).mean() if loss == "log"
                     else (1 - P.max(axis=1)).mean())
            total += p[i] * value
        out.append(total)
    return np.array(out)


@pytest.mark.parametrize("loss", ["log", "zero_one"])
def test_eer_scores_are_the_expected_loss_after_retraining(loss):
    X, y = numeric_data(45, 3, seed=4)
    learner = make_system("eer", {"model": "naive_bayes", "loss": loss, "candidates": 12,
                                  "evaluation": 10_000}, batch_size=1, random_state=2)
    learner.fit(X, np.where(np.isin(np.arange(45), range(0, 45, 5)), y, None).astype(object),
                classes=[0, 1, 2])
    for _ in range(3):
        batch = learner.query()
        scored = np.isfinite(learner.last_scores_)
        assert scored.sum() == 12  # the candidate subsample
        candidates = learner.last_candidates_[scored]
        expected = brute_force_expected_losses(learner, candidates, loss)
        np.testing.assert_allclose(learner.last_scores_[scored], expected, rtol=1e-9)
        assert batch[0] == candidates[np.argmin(expected)]
        learner.teach(batch, y[batch])
    eer_log = [e for e in learner.fit_log_ if e["role"] == "eer"]
    assert len(eer_log) == 3 and all(e["fits"] == 12 * 3 for e in eer_log)


def test_eer_zero_one_loss_is_the_textbook_binary_criterion():
    # Eq. 11.28: maximise sum_j |P'_j - 0.5| = 2 max_j P'_j - 1, i.e. minimise 1 - max_j P'_j.
    P = dirichlet(300, 2, 5)
    assert expected_loss_of(P, "zero_one") == pytest.approx(
        1 - (np.abs(P - 0.5).sum(axis=1).mean() + 1) / 2)


def test_eer_with_a_perfectly_confident_model_picks_at_random():
    # Every labeled example is of one class: an unsmoothed J48 is a single leaf predicting it
    # with probability 1 everywhere, before and after adding any candidate with that label
    # (the only label of non-zero probability). Every expected loss is 0, so the choice is
    # the random tie-break: uniform over the candidate subsample, and over the pool.
    X, y = make_data(40, classes=2, seed=3)
    first = np.flatnonzero(y.cat.codes.to_numpy() == 0)[:4]
    picks = []
    for seed in range(300):
        learner = make_system("eer", {"model": "j48", "learner_params": {}, "candidates": 5,
                                      "loss": "log"},
                              batch_size=1, random_state=seed)
        learner.fit(X, partial(y, first))
        batch = learner.query()
        raw = learner.last_scores_
        assert np.isfinite(raw).sum() == 5 and (raw[np.isfinite(raw)] == 0).all()
        picks.append(int(batch[0]))
    counts = np.bincount(picks, minlength=40)[np.setdiff1d(np.arange(40), first)]
    assert stats.chisquare(counts).pvalue > 1e-3


def test_eer_subsamples_are_seeded_and_queries_are_repeatable():
    X, y = make_data(50, seed=5)
    def run():
        learner = make_system("eer", {"candidates": 6, "evaluation": 15}, batch_size=2,
                              random_state=7)
        learner.fit(X, partial(y, range(0, 50, 10)))
        batches = []
        for _ in range(3):
            b = learner.query()
            np.testing.assert_array_equal(learner.query(), b)  # repeated: the same batch
            batches.append(b)
            learner.teach(b, y.iloc[b])
        return np.concatenate(batches), learner
    a, learner = run()
    b, _ = run()
    np.testing.assert_array_equal(a, b)
    assert sum(e["role"] == "eer" for e in learner.fit_log_) == 3  # not refitted on a repeat


# -- information density --------------------------------------------------------------------------
@dataclass(frozen=True)
class ConstantDensity:
    """A density that is the same everywhere (weights c^beta)."""

    value: float
    beta: float = 2.0

    def weights(self, pool) -> np.ndarray:
        return np.full(pool.candidates.size, self.value) ** self.beta


def pool_view(learner: ActiveLearner) -> PoolView:
    return learner._pool_view(np.flatnonzero(~learner.is_labeled_))


@pytest.mark.parametrize("score", sorted(set(SCORES) - {"local_variance"}))
@pytest.mark.parametrize("value", [1.0, 0.37])
def test_a_constant_density_changes_no_choice(score, value):
    rng_seed = 11
    for seed in range(10):
        members = 1 if score in ("least_confident", "entropy") else 5
        proba = dirichlet(60, 3, seed, members=members)
        out = CommitteeOutput(proba, np.argmax(proba, axis=2), np.ones(members))

        @dataclass(frozen=True)
        class FakePool:
            candidates: np.ndarray

        pool = FakePool(np.arange(60))
        for selection in ("top", "proportional") if SCORES[score].higher_is_better else ("top",):
            plain = QueryStrategy(score, selection)
            dense = QueryStrategy(score, selection, density=ConstantDensity(value))
            a, raw_a = plain.select(out, 4, np.random.default_rng(rng_seed))
            b, raw_b = dense.select(out, 4, np.random.default_rng(rng_seed), pool=pool)
            np.testing.assert_array_equal(a, b)
            np.testing.assert_array_equal(raw_a, raw_b)


def test_a_constant_density_changes_no_eer_choice():
    X, y = make_data(50, seed=6)
    batches = []
    for density in (None, ConstantDensity(0.5)):
        learner = make_system("eer", {"candidates": 8, "evaluation": 20}, batch_size=2,
                              random_state=4)
        learner.strategy = QueryStrategy(learner.strategy.score, density=density)
        learner.fit(X, partial(y, range(0, 50, 10)))
        batches.append(learner.query())
    np.testing.assert_array_equal(*batches)


def test_identical_examples_have_a_constant_density_and_the_system_is_unweighted():
    X = pd.DataFrame({"a": np.ones(30), "b": np.full(30, 2.0)})
    y = pd.Series(pd.Categorical.from_codes(np.arange(30) % 2, categories=["p", "n"]))
    for similarity in ("cosine", "euclidean"):
        learner = make_system("uncertainty", {"density": {"similarity": similarity}},
                              batch_size=1, random_state=0).fit(X, partial(y, [0, 1]))
        np.testing.assert_array_equal(Density(1.0, similarity).weights(pool_view(learner)),
                                      np.ones(28))


def test_mean_similarity_by_brute_force():
    rng = np.random.default_rng(0)
    A, B = rng.random((7, 4)), rng.random((11, 4))
    cos = [[a @ b / np.linalg.norm(a) / np.linalg.norm(b) for b in B] for a in A]
    euc = [[1 / (1 + np.linalg.norm(a - b)) for b in B] for a in A]
    np.testing.assert_allclose(mean_similarity(A, B, "cosine"), np.mean(cos, axis=1))
    np.testing.assert_allclose(mean_similarity(A, B, "euclidean"), np.mean(euc, axis=1))


def test_similarity_features_scale_numeric_and_one_hot_nominal():
    schema = FeatureSchema(("x", "c"), (None, ("u", "v", "w")))
    X = np.array([[0.0, 0.0], [5.0, 2.0], [10.0, np.nan], [np.nan, 1.0]])
    F = similarity_features(X, schema)
    r = 1 / np.sqrt(2)
    np.testing.assert_allclose(F, [[0.0, r, 0, 0], [0.5, 0, 0, r], [1.0, 0, 0, 0],
                                   [0.5, 0, r, 0]])
    # two different nominal values are at distance 1, as the range of a numeric attribute
    assert np.linalg.norm(F[0, 1:] - F[1, 1:]) == pytest.approx(1.0)


def test_density_weighting_prefers_a_dense_region_over_an_isolated_uncertain_example():
    # A tight cluster of candidates and one far outlier; the outlier is the most uncertain
    # for the model, but its density is low: entropy picks it, information density does not.
    rng = np.random.default_rng(0)
    X = np.vstack([rng.normal(0, 0.1, size=(40, 2)) + [5.0, 0.0], [[0.0, 5.0]]])
    proba = np.tile([0.8, 0.2], (41, 1))
    proba[-1] = [0.5, 0.5]
    proba[:40, 0] -= rng.random(40) * 0.1
    proba[:40, 1] = 1 - proba[:40, 0]
    out = one_model(proba)
    schema = FeatureSchema(("a", "b"), (None, None))
    pool = PoolView(X=X, labels=np.full(41, -1), candidates=np.arange(41), schema=schema,
                    n_classes=2, committee=None, model=None, seed_for=None)
    assert QueryStrategy("entropy").select(out, 1, np.random.default_rng(0))[0][0] == 40
    for similarity in ("cosine", "euclidean"):
        chosen = QueryStrategy("entropy", density=Density(1.0, similarity)).select(
            out, 1, np.random.default_rng(0), pool=pool)[0]
        assert chosen[0] != 40
    # beta = 0 switches the weight off
    assert QueryStrategy("entropy", density=Density(0.0)).select(
        out, 1, np.random.default_rng(0), pool=pool)[0][0] == 40


@pytest.mark.parametrize("beta", [0.5, 2.0, 3.0])
def test_the_density_weight_is_the_scaled_mean_similarity_to_the_power_beta(beta):
    """Settles & Craven's weight (mean similarity to the unlabeled pool, here scaled to a
    maximum of 1) raised to beta, computed by hand from the similarity features."""
    rng = np.random.default_rng(3)
    X = np.vstack([rng.normal(0, 0.3, size=(12, 2)), rng.normal(4, 0.3, size=(4, 2))])
    labels = np.full(16, -1)
    labels[[0, 13]] = [0, 1]
    schema = FeatureSchema(("a", "b"), (None, None))
    pool = PoolView(X=X, labels=labels, candidates=np.flatnonzero(labels < 0), schema=schema,
                    n_classes=2, committee=None, model=None, seed_for=None)
    F = similarity_features(X, schema)
    unlabeled = F[labels < 0]
    mean = np.array([np.mean([f @ g / np.linalg.norm(f) / np.linalg.norm(g) for g in unlabeled])
                     for f in F[pool.candidates]])
    scaled = mean / mean.max()
    assert scaled.min() < 0.9, "the candidates' densities must differ for beta to matter"
    np.testing.assert_allclose(Density(beta).weights(pool), scaled**beta, rtol=1e-12)


# -- expected model change ------------------------------------------------------------------------
def test_mlp_gradient_norms_match_finite_differences():
    X, y = numeric_data(30, 3, seed=8)
    model = MLP(hidden=3, epochs=20, random_state=0).fit(X, y)
    Xe = X[:4]
    norms = mlp_gradient_norms(model, Xe)

    def loss(W1, W2, x, i):
        z = model._inputs(x[None])[0]
        h = 1 / (1 + np.exp(-(W1[:, 1:] @ z + W1[:, 0])))
        o = 1 / (1 + np.exp(-(W2[:, 1:] @ h + W2[:, 0])))
        t = np.eye(3)[i]
        return 0.5 * ((t - o) ** 2).sum()

    eps = 1e-6
    for row in range(4):
        for i in range(3):
            grads = []
            for W in (model.W1_, model.W2_):
                for idx in np.ndindex(W.shape):
                    W[idx] += eps
                    up = loss(model.W1_, model.W2_, Xe[row], i)
                    W[idx] -= 2 * eps
                    down = loss(model.W1_, model.W2_, Xe[row], i)
                    W[idx] += eps
                    grads.append((up - down) / (2 * eps))
            assert norms[row, i] == pytest.approx(np.linalg.norm(grads), rel=1e-5)


def test_emc_queries_the_largest_expected_gradient_length():
    X, y = numeric_data(40, 3, seed=9)
    learner = make_system("emc", {"learner_params": {"epochs": 10}}, batch_size=1,
                          random_state=0)
    learner.fit(X, np.where(np.arange(40) < 6, y, None).astype(object), classes=[0, 1, 2])
    batch = learner.query()
    cand = learner.last_candidates_
    P = learner.committee_.predict_proba_prepared(learner.X_[cand])
    C = (P * mlp_gradient_norms(learner.committee_, learner.X_[cand])).sum(axis=1)
    np.testing.assert_allclose(learner.last_scores_, C)
    assert batch[0] == cand[np.argmax(C)]


def test_emc_refuses_a_model_without_a_gradient():
    X, y = numeric_data(20, 2, seed=1)
    learner = ActiveLearner(J48(), QueryStrategy(ExpectedModelChange()), random_state=0)
    learner.fit(X, np.where(np.arange(20) < 4, y, None).astype(object), classes=[0, 1])
    with pytest.raises(ValueError, match="gradient-trained model"):
        learner.query()


# -- the loop, for every new strategy ----------------------------------------------------------------
VARIANTS = [
    ("uncertainty", {"measure": "least_confident"}),
    ("uncertainty", {"measure": "margin"}),
    ("uncertainty", {"measure": "entropy"}),
    ("uncertainty", {"model": "bagging", "measure": "entropy", "n_estimators": 3}),
    ("uncertainty", {"model": "naive_bayes", "measure": "margin"}),
    ("qbc", {"measure": "vote_entropy", "n_estimators": 4}),
    ("qbc", {"measure": "kl_to_mean", "n_estimators": 4}),
    ("eer", {"loss": "log", "candidates": 5, "evaluation": 10}),
    ("eer", {"loss": "zero_one", "candidates": 5, "evaluation": 10}),
    ("eer", {"model": "bagging", "n_estimators": 2, "candidates": 3, "evaluation": 8}),
    ("eer", {"model": "j48", "loss": "zero_one", "candidates": 4, "evaluation": 8}),
    ("emc", {"learner_params": {"epochs": 5}}),
    ("uncertainty", {"density": {"beta": 1}}),
    ("uncertainty", {"measure": "margin", "density": {"beta": 2, "similarity": "euclidean"}}),
    ("qbc", {"n_estimators": 3, "density": {"beta": 1}, "selection": "proportional"}),
    ("eer", {"candidates": 4, "evaluation": 8, "density": {"beta": 1}}),
    ("active_decorate", {"n_estimators": 3, "max_iterations": 6, "density": {"beta": 1}}),
    ("uncertainty", {"predict": "bagging", "n_estimators": 3}),
]


@pytest.mark.parametrize(("name", "params"), VARIANTS, ids=[f"{n}-{i}" for i, (n, _) in
                                                             enumerate(VARIANTS)])
def test_the_loop_never_labels_an_example_twice(name, params):
    X, y = make_data(36, classes=3, seed=1)
    learner = make_system(name, params, batch_size=4, random_state=3)
    learner.fit(X, partial(y, [0, 13, 20]))
    queried: list[int] = []
    while learner.n_unlabeled_:
        before = set(np.flatnonzero(~learner.is_labeled_).tolist())
        batch = learner.query()
        assert batch.size == min(4, len(before)) and set(batch.tolist()) <= before
        learner.teach(batch, y.iloc[batch])
        queried.extend(batch.tolist())
    assert len(queried) == len(set(queried)) == 33
    assert sorted(learner.acquisition_order_) == list(range(36))
    assert 0 <= learner.score(X, y) <= 1


def test_a_predict_ensemble_is_the_predictor():
    learner = make_system("uncertainty", {"predict": "decorate", "n_estimators": 3,
                                          "max_iterations": 6})
    assert type(learner.committee.ensemble).__name__ == "J48"
    assert type(learner.predictor).__name__ == "Decorate"


# -- naming them in an experiment file ------------------------------------------------------------
@pytest.mark.parametrize(("name", "params", "message"), [
    ("uncertainty", {"measure": "entropie"}, "uncertainty: measure must be one of"),
    ("uncertainty", {"model": "svm"}, "uncertainty: model must be one of"),
    ("uncertainty", {"modle": "j48"}, "'modle'.*Did you mean 'model'"),
    ("qbc", {"committee": "j48"}, "qbc: committee must be one of"),
    ("qbc", {"measure": "margin"}, "qbc: measure must be one of vote_entropy, kl_to_mean"),
    ("eer", {"loss": "hinge"}, "eer: eer loss must be one of log, zero_one"),
    ("eer", {"candidates": 0}, "eer: eer candidates must be a positive integer"),
    ("eer", {"candidate": 20}, "'candidate'.*Did you mean 'candidates'"),
    ("emc", {"model": "j48"}, "emc: model must be one of mlp"),
    ("uncertainty", {"density": {"beta": -1}}, "density beta must be"),
    ("uncertainty", {"density": {"similarity": "manhattan"}}, "density similarity must be"),
    ("uncertainty", {"density": 1}, "density must be null or a mapping"),
    ("uncertainty", {"model": "bagging", "learner_params": {"laplace": True}},
     "learner_params apply to a single model"),
    ("uncertainty", {"learner_params": {"lapalce": True}}, "lapalce"),
    ("uncertainty", {"predict": "j48"}, "predict must be one of"),
    ("qbc", {"selection": "random"}, "random selection uses no score"),
])
def test_invalid_parameters_fail_at_make_system(name, params, message):
    with pytest.raises(ValueError, match=message):
        make_system(name, params)


def test_every_new_system_is_registered_with_its_parameters():
    assert {"uncertainty", "qbc", "eer", "emc"} <= set(SYSTEMS)
    assert SYSTEMS["uncertainty"].defaults["measure"] == "entropy"
    assert SYSTEMS["qbc"].defaults["committee"] == "bagging"
    assert SYSTEMS["eer"].defaults["candidates"] == 20
    assert SYSTEMS["eer"].defaults["model"] == "naive_bayes"
    assert isinstance(make_system("eer").strategy.score, ExpectedErrorReduction)
    assert make_system("uncertainty", {"density": {"beta": 1}}).strategy.density == Density(1)


def test_votes_are_computed_exactly_when_the_score_reads_them():
    """A score that reads the members' votes gets them; the others get ``None``, which saves
    a second pass down every Laplace PET. A score that silently read absent votes would fall
    back to the arg-max of each member's distribution, which J48 with Laplace leaves does not
    vote: so every score whose result depends on the votes must say it reads them."""
    rng = np.random.default_rng(3)
    proba = rng.dirichlet(np.ones(2), size=(5, 40))
    votes = rng.integers(0, 2, size=(5, 40))  # votes that are not the arg-max of proba
    with_votes = CommitteeOutput(proba, votes, np.ones(5))
    without = CommitteeOutput(proba, None, np.ones(5))
    counts = np.array([3, 2])
    for name, spec in SCORES.items():
        differ = not np.array_equal(spec.compute(with_votes, counts), spec.compute(without, counts),
                                    equal_nan=True)
        assert not differ or spec.reads_votes, name
        assert QueryStrategy(score=name).needs_votes == spec.reads_votes, name
    assert not QueryStrategy.random().needs_votes


def test_a_committee_without_votes_gives_the_same_distributions():
    X, y = make_data(80)
    schema = FeatureSchema.from_input(X)
    Xe = schema.encode(X)
    committee = Committee(Bagging(J48(unpruned=True, laplace=True), n_estimators=5))
    fitted = committee.fit(Xe, y.cat.codes.to_numpy(), schema, 3, np.random.SeedSequence(1))
    full, light = committee.outputs(fitted, Xe), committee.outputs(fitted, Xe, votes=False)
    assert light.votes is None and full.votes.shape == (5, len(y))
    np.testing.assert_array_equal(light.proba, full.proba)
    np.testing.assert_array_equal(light.weights, full.weights)
