"""Cross-checks against scikit-activeml, a maintained active-learning library (a test
oracle, never a runtime dependency).

1. Scores on fixed committee outputs: our JS divergence is scikit-activeml's
   ``average_kl_divergence`` (the mean KL divergence of each member to the committee mean,
   which with uniform weights *is* the JS divergence), our vote entropy is its
   ``vote_entropy``, and our probability / vote margins are its margin-sampling scores of the
   committee's mean distribution / vote shares.
2. Whole query-by-committee runs in which scikit-activeml's strategies see exactly our
   committee's member predictions: its choices must be ours. With continuous member
   probabilities (logistic-regression members) scores never tie and the batches must be
   identical; with a bagged J48 committee's hard votes (QBag) scores tie all the time and
   the two libraries break ties with different random streams, so there the check is that
   each side's batch is optimal for the other's scores, and identical whenever the best m
   are unique.
3. Score-proportional batches have the same distribution as scikit-activeml's
   ``simple_batch(method="proportional")``.

The peer is imported plainly: a missing peer must fail, not skip, in CI.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from peer_support import view
from scipy import stats
from skactiveml.pool import (
    QueryByCommittee,
    UncertaintySampling,
    average_kl_divergence,
    uncertainty_scores,
)
from skactiveml.pool import vote_entropy as peer_vote_entropy
from skactiveml.utils import compute_vote_vectors
from skactiveml.utils._selection import simple_batch
from sklearn.linear_model import LogisticRegression

from redecorate.active import (
    ActiveLearner,
    QueryStrategy,
    js_divergence,
    make_system,
    probability_margin,
    proportional_sample,
    vote_entropy,
    vote_margin,
)
from redecorate.learners import Decorate


def committee_outputs(members: int, n: int, k: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    proba = rng.dirichlet(np.full(k, 2.0), size=(members, n))
    return proba, np.argmax(proba, axis=2)


# -- 1. scores on fixed committee outputs ---------------------------------------------------------
@pytest.mark.parametrize(("members", "k", "seed"), [(15, 2, 0), (7, 3, 1), (5, 11, 2)])
def test_js_divergence_is_the_mean_kl_to_the_mean(members, k, seed):
    proba, _ = committee_outputs(members, 200, k, seed)
    assert proba.min() > 1e-6  # the peer clips at 1e-7: keep clear of it
    np.testing.assert_allclose(js_divergence(proba), average_kl_divergence(proba.copy()),
                               rtol=1e-9, atol=1e-12)


def test_js_divergence_with_zero_probabilities_matches_up_to_the_peer_clipping():
    rng = np.random.default_rng(3)
    proba = np.eye(4)[rng.integers(0, 4, size=(6, 100))]  # one-hot members, many zeros
    np.testing.assert_allclose(js_divergence(proba), average_kl_divergence(proba.copy()),
                               atol=1e-5)


@pytest.mark.parametrize(("members", "k", "seed"), [(15, 2, 4), (9, 4, 5)])
def test_vote_scores_match(members, k, seed):
    proba, votes = committee_outputs(members, 300, k, seed)
    classes = np.arange(k)
    np.testing.assert_allclose(vote_entropy(proba), peer_vote_entropy(votes.T, classes),
                               rtol=1e-12, atol=1e-15)
    shares = compute_vote_vectors(y=votes.T, classes=classes, missing_label=None) / members
    peer_margin = 1.0 - uncertainty_scores(shares, method="margin_sampling")
    np.testing.assert_allclose(vote_margin(proba) / members, peer_margin, atol=1e-12)


@pytest.mark.parametrize(("members", "k", "seed"), [(15, 2, 6), (4, 6, 7)])
def test_probability_margin_matches(members, k, seed):
    proba, _ = committee_outputs(members, 300, k, seed)
    peer = 1.0 - uncertainty_scores(proba.mean(axis=0), method="margin_sampling")
    np.testing.assert_allclose(probability_margin(proba), peer, atol=1e-12)


# -- 2. whole runs with identical committee predictions -------------------------------------------
def binary_pool(n: int = 80, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 3))
    y = (X[:, 0] + 0.7 * X[:, 1] - 0.4 * X[:, 2] + rng.normal(scale=0.7, size=n) > 0)
    return X, y.astype(np.int64)


def start(y: np.ndarray) -> np.ndarray:
    """Two examples of each class, so every logistic-regression member sees both."""
    return np.r_[np.flatnonzero(y == 0)[:2], np.flatnonzero(y == 1)[:2]]


def peer_labels(learner: ActiveLearner) -> np.ndarray:
    y = learner.labels_.astype(float)
    y[y < 0] = np.nan
    return y


def compare_batches(learner: ActiveLearner, ours: np.ndarray, theirs: np.ndarray,
                    utilities: np.ndarray) -> bool:
    """Check one query of a run; True if the batches had to be (and were) identical.

    Both sides must agree on which examples are candidates; our batch must be optimal for
    the peer's utilities and the peer's batch optimal for our scores. When the best
    ``m + 1`` peer utilities are all distinct there is only one optimal batch, and the two
    must be the same examples in the same order.
    """
    u = utilities[0]
    np.testing.assert_array_equal(np.isnan(u), learner.is_labeled_)
    m = ours.size
    ranked = np.sort(u[~np.isnan(u)])[::-1]
    np.testing.assert_allclose(np.sort(u[ours])[::-1], ranked[:m], rtol=0, atol=1e-12)
    ours_score = dict(zip(learner.last_candidates_.tolist(), learner.last_scores_, strict=True))
    np.testing.assert_allclose(sorted(ours_score[i] for i in theirs),
                               sorted(ours_score[i] for i in ours), rtol=0, atol=1e-12)
    if np.all(np.diff(ranked[: m + 1]) < -1e-12):
        np.testing.assert_array_equal(theirs, ours)
        return True
    return False


def run_against(learner: ActiveLearner, X: np.ndarray, y: np.ndarray, peer_query
                ) -> tuple[int, int]:
    """Run to the end, comparing every query with the peer's given our committee.

    Returns (rounds, rounds whose optimal batch was unique and therefore identical).
    """
    partial = np.full(y.size, None, dtype=object)
    first = start(y)
    partial[first] = y[first]
    learner.fit(X, partial, classes=[0, 1])
    rounds = unique = 0
    while learner.n_unlabeled_ > learner.batch_size:
        ours = learner.query()
        theirs, utilities = peer_query(learner, peer_labels(learner))
        unique += compare_batches(learner, ours, theirs, utilities)
        learner.teach(ours, y[ours])
        rounds += 1
    return rounds, unique


def test_probability_margin_run_matches_uncertainty_sampling():
    X, y = binary_pool()
    committee = Decorate(LogisticRegression(), n_estimators=4, max_iterations=8)
    learner = ActiveLearner(committee, QueryStrategy("probability_margin"), batch_size=3,
                            random_state=0)
    peer = UncertaintySampling(method="margin_sampling", random_state=0)

    def peer_query(al, y_peer):
        return peer.query(X, y_peer, clf=view(al.committee_), fit_clf=False,
                          batch_size=al.batch_size, return_utilities=True)

    rounds, unique = run_against(learner, X, y, peer_query)
    # Continuous member probabilities: margins essentially never tie.
    assert rounds >= 20 and unique == rounds


def test_js_divergence_run_matches_query_by_committee_kl():
    X, y = binary_pool(60, seed=1)
    committee = Decorate(LogisticRegression(), n_estimators=4, max_iterations=8)
    learner = ActiveLearner(committee, QueryStrategy("js_divergence"), batch_size=2,
                            random_state=1)
    peer = QueryByCommittee(method="KL_divergence", random_state=0)

    def peer_query(al, y_peer):
        members = [view(m) for m in al.committee_.estimators_]
        return peer.query(X, y_peer, ensemble=members, fit_ensemble=False,
                          batch_size=al.batch_size, return_utilities=True)

    rounds, unique = run_against(learner, X, y, peer_query)
    # Ties only where DECORATE kept a single member (JS = 0 for every candidate).
    assert rounds >= 25 and unique >= 0.8 * rounds


def test_query_by_bagging_run_matches_query_by_committee_vote_entropy():
    # QBag: bagged J48, hard votes, vote margin. With two classes the peer's vote entropy
    # ranks exactly like the vote margin (reversed), so its best batch is our best batch.
    X, y = binary_pool(90, seed=2)
    learner = make_system("qbag", {"n_estimators": 15}, batch_size=1, random_state=5)
    peer = QueryByCommittee(method="vote_entropy", random_state=0)

    def peer_query(al, y_peer):
        members = [view(m) for m in al.committee_.estimators_]
        return peer.query(X, y_peer, ensemble=members, fit_ensemble=False,
                          batch_size=al.batch_size, return_utilities=True)

    rounds, unique = run_against(learner, X, y, peer_query)
    assert rounds >= 80 and unique >= 10  # the literal comparison is not vacuous


# -- 3. proportional batches ------------------------------------------------------------------------
def test_proportional_batches_have_the_peer_distribution():
    scores = np.array([1.0, 2.0, 3.0, 0.5, 3.5])
    pairs = list(itertools.combinations(range(scores.size), 2))
    rng = np.random.default_rng(0)
    peer_rng = np.random.RandomState(0)
    draws = 8000
    ours = {p: 0 for p in pairs}
    theirs = {p: 0 for p in pairs}
    for _ in range(draws):
        ours[tuple(sorted(proportional_sample(scores, 2, rng).tolist()))] += 1
        picked = simple_batch(scores.copy(), peer_rng, batch_size=2, method="proportional")
        theirs[tuple(sorted(np.asarray(picked).tolist()))] += 1
    table = np.array([[ours[p] for p in pairs], [theirs[p] for p in pairs]])
    _, p_value, _, _ = stats.chi2_contingency(table)
    assert p_value > 1e-3
