"""The textbook's query strategies against two maintained active-learning libraries (test
oracles, never runtime dependencies; both in the ``test`` extra):

* scikit-activeml: ``UncertaintySampling`` (least confident, margin, entropy),
  ``QueryByCommittee`` (vote entropy, KL divergence) and ``MonteCarloEER`` (Roy & McCallum's
  expected error reduction, log and misclassification loss), each given our fitted model, or
  refitting the same learner class on the same labeled set, candidates and evaluation set;
* modAL: its uncertainty measures and ``uncertainty_sampling`` on our fitted model, and its
  committee disagreements ``vote_entropy`` and ``consensus_entropy`` on our committee's members.
  Where modAL differs it is said: ``KL_max_disagreement`` is the *largest* member KL divergence
  to the consensus, where QBC's KL-to-mean (ours, scikit-activeml's) averages them; modAL's
  expected error reduction does not import under NumPy 2 (``np.float``) and is not used.

Naive Bayes models (continuous posteriors) keep the comparisons free of ties, so the peers'
choices must be our choices exactly, query after query. The peers are imported plainly: a
missing peer fails, never skips, in CI.
"""

from __future__ import annotations

import numpy as np
import pytest
from modAL.disagreement import KL_max_disagreement, consensus_entropy
from modAL.disagreement import vote_entropy as modal_vote_entropy
from modAL.models import ActiveLearner as ModalLearner
from modAL.models import Committee as ModalCommittee
from modAL.uncertainty import (
    classifier_entropy,
    classifier_margin,
    classifier_uncertainty,
    uncertainty_sampling,
)
from peer_support import view
from skactiveml.classifier import SklearnClassifier
from skactiveml.pool import MonteCarloEER, QueryByCommittee, UncertaintySampling
from skactiveml.pool import uncertainty_scores as peer_uncertainty_scores

from redecorate.active import ActiveLearner, QueryStrategy, make_system
from redecorate.active.scores import (
    kl_to_mean,
    least_confident,
    predictive_entropy,
    probability_margin,
    vote_entropy,
)
from redecorate.learners.naive_bayes import NaiveBayes


def pool(n: int = 90, classes: int = 3, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    centres = rng.normal(scale=1.5, size=(classes, 4))
    y = np.arange(n) % classes
    return centres[y] + rng.normal(size=(n, 4)), y


def start(learner: ActiveLearner, X: np.ndarray, y: np.ndarray, per_class: int = 2):
    first = np.concatenate([np.flatnonzero(y == c)[:per_class] for c in np.unique(y)])
    partial = np.full(y.size, None, dtype=object)
    partial[first] = y[first]
    return learner.fit(X, partial, classes=list(np.unique(y)))


def peer_labels(learner: ActiveLearner) -> np.ndarray:
    y = learner.labels_.astype(float)
    y[y < 0] = np.nan
    return y


# -- scikit-activeml: scores on fixed probability matrices --------------------------------------------
@pytest.mark.parametrize("k", [2, 3, 6])
def test_uncertainty_scores_match_scikit_activeml(k):
    P = np.random.default_rng(k).dirichlet(np.full(k, 0.8), size=300)
    np.testing.assert_allclose(least_confident(P[None]),
                               peer_uncertainty_scores(P, method="least_confident"), atol=1e-12)
    np.testing.assert_allclose(1 - probability_margin(P[None]),
                               peer_uncertainty_scores(P, method="margin_sampling"), atol=1e-12)
    np.testing.assert_allclose(predictive_entropy(P[None]),
                               peer_uncertainty_scores(P, method="entropy"), atol=1e-12)


# -- scikit-activeml: whole runs with the same fitted model ----------------------------------------
PEER_METHOD = {"least_confident": "least_confident", "margin": "margin_sampling",
               "entropy": "entropy"}


@pytest.mark.parametrize("measure", ["least_confident", "margin", "entropy"])
@pytest.mark.parametrize("model", ["naive_bayes", "bagging"])
def test_uncertainty_runs_choose_as_scikit_activeml(measure, model):
    X, y = pool(80, seed=1)
    params = {"model": model, "measure": measure}
    if model == "bagging":
        params |= {"base": "naive_bayes", "n_estimators": 5}
    learner = start(make_system("uncertainty", params, batch_size=2, random_state=0), X, y)
    peer = UncertaintySampling(method=PEER_METHOD[measure], random_state=0)
    rounds = 0
    while learner.n_unlabeled_ > learner.batch_size:
        ours = learner.query()
        theirs, utilities = peer.query(X, peer_labels(learner), clf=view(learner.committee_, 3),
                                       fit_clf=False, batch_size=2, return_utilities=True)
        np.testing.assert_array_equal(theirs, ours)
        learner.teach(ours, y[ours])
        rounds += 1
    assert rounds >= 30


@pytest.mark.parametrize("measure", ["vote_entropy", "kl_to_mean"])
def test_qbc_runs_choose_as_scikit_activeml(measure):
    X, y = pool(70, seed=2)
    learner = start(make_system("qbc", {"measure": measure, "base": "naive_bayes",
                                        "n_estimators": 7}, batch_size=1, random_state=3), X, y)
    peer = QueryByCommittee(method="vote_entropy" if measure == "vote_entropy"
                            else "KL_divergence", random_state=0)
    rounds = unique = 0
    while learner.n_unlabeled_ > 1:
        ours = learner.query()
        members = [view(m, 3) for m in learner.committee_.estimators_]
        theirs, utilities = peer.query(X, peer_labels(learner), ensemble=members,
                                       fit_ensemble=False, return_utilities=True)
        u = utilities[0]
        np.testing.assert_array_equal(np.isnan(u), learner.is_labeled_)
        mine = dict(zip(learner.last_candidates_.tolist(), learner.last_scores_, strict=True))
        # the same utilities (vote entropy: ours in nats as the peer's; KL: the same mean KL,
        # up to the peer's clipping of probabilities at 1e-7)
        tol = 1e-12 if measure == "vote_entropy" else 1e-5
        np.testing.assert_allclose([u[i] for i in mine], list(mine.values()), atol=tol)
        best = np.nanmax(u)
        assert u[ours[0]] >= best - 2 * tol and mine[int(theirs[0])] >= max(mine.values()) - 2 * tol
        if np.sum(u >= best - 2 * tol) == 1:  # a unique optimum: the same example
            assert theirs[0] == ours[0]
            unique += 1
        learner.teach(ours, y[ours])
        rounds += 1
    assert rounds >= 60 and unique >= (0.8 * rounds if measure == "kl_to_mean" else 5)


@pytest.mark.parametrize(("loss", "method"), [("log", "log_loss"),
                                              ("zero_one", "misclassification_loss")])
def test_expected_error_reduction_matches_scikit_activeml_monte_carlo_eer(loss, method):
    # The same learner class (our Naive Bayes) refitted by both sides on T + (x, i), the same
    # candidate subsample and V = every unlabeled example (evaluation larger than the pool).
    X, y = pool(60, seed=4)
    learner = start(make_system("eer", {"model": "naive_bayes", "loss": loss, "candidates": 10,
                                        "evaluation": 10_000}, batch_size=1, random_state=1),
                    X, y)
    peer = MonteCarloEER(method=method, random_state=0)
    clf = SklearnClassifier(NaiveBayes(), classes=[0, 1, 2], missing_label=np.nan)
    for _ in range(6):
        ours = learner.query()
        scored = np.isfinite(learner.last_scores_)
        candidates = learner.last_candidates_[scored]
        unlabeled = np.flatnonzero(~learner.is_labeled_)
        theirs, utilities = peer.query(X, peer_labels(learner), clf, fit_clf=True,
                                       ignore_partial_fit=True, candidates=candidates,
                                       X_eval=X[unlabeled], return_utilities=True)
        # the peer's utility is minus the summed expected loss over X_eval; ours the mean
        np.testing.assert_allclose(-utilities[0][candidates] / unlabeled.size,
                                   learner.last_scores_[scored], rtol=1e-8)
        assert theirs[0] == ours[0]
        learner.teach(ours, y[ours])


# -- modAL -------------------------------------------------------------------------------------------
def test_modal_uncertainty_measures_and_sampling_on_our_model():
    X, y = pool(120, seed=5)
    model = NaiveBayes().fit(X[::4], y[::4])
    P = model.predict_proba(X)
    np.testing.assert_allclose(classifier_uncertainty(model, X), least_confident(P[None]),
                               atol=1e-12)
    np.testing.assert_allclose(classifier_margin(model, X), probability_margin(P[None]),
                               atol=1e-12)
    np.testing.assert_allclose(classifier_entropy(model, X), predictive_entropy(P[None]),
                               atol=1e-12)
    from redecorate.active import CommitteeOutput

    out = CommitteeOutput(P[None], np.argmax(P, axis=1)[None], np.ones(1))
    ours, _ = QueryStrategy("least_confident").select(out, 5, np.random.default_rng(0))
    theirs, _ = uncertainty_sampling(model, X, n_instances=5)
    assert set(theirs.tolist()) == set(ours.tolist())


def test_modal_committee_disagreements_on_our_members():
    X, y = pool(70, seed=6)
    learner = start(make_system("qbc", {"base": "naive_bayes", "n_estimators": 6},
                                batch_size=1, random_state=2), X, y, per_class=3)
    members = learner.committee_.estimators_
    committee = ModalCommittee([ModalLearner(estimator=view(m, 3)) for m in members])
    out = learner.committee.outputs(learner.committee_, X)
    np.testing.assert_allclose(modal_vote_entropy(committee, X),
                               vote_entropy(out.proba, votes=out.votes), atol=1e-12)
    np.testing.assert_allclose(consensus_entropy(committee, X), predictive_entropy(out.proba),
                               atol=1e-12)
    # modAL's KL disagreement is the largest member divergence, ours (QBC's) their mean
    kl_max = KL_max_disagreement(committee, X)
    mean_kl = kl_to_mean(out.proba)
    assert (kl_max >= mean_kl - 1e-12).all() and (kl_max > mean_kl + 1e-9).any()
