"""Utility scores of committee outputs (spec §1.6): defining properties and hand-worked cases.

The peer cross-checks (scikit-activeml, modAL) are in ``test_active_peers.py``.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from redecorate.active.scores import (
    js_divergence,
    local_variance,
    local_variance_ext,
    member_votes,
    probability_margin,
    vote_counts,
    vote_entropy,
    vote_margin,
    weighted_mean_distribution,
)


def dirichlet(members: int, n: int, k: int, seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed).dirichlet(np.ones(k), size=(members, n))


def one_hot(codes, k: int) -> np.ndarray:
    codes = np.asarray(codes)
    return np.eye(k)[codes]


# -- JS divergence ---------------------------------------------------------------------------
def test_js_is_zero_for_identical_members():
    P = dirichlet(1, 40, 4)
    identical = np.repeat(P, 7, axis=0)
    np.testing.assert_allclose(js_divergence(identical), 0.0, atol=1e-12)
    assert (js_divergence(identical) >= 0).all()


def test_js_is_positive_when_members_differ():
    P = dirichlet(5, 40, 3, seed=1)
    assert (js_divergence(P) > 1e-6).all()


@pytest.mark.parametrize(("members", "k"), [(2, 2), (3, 3), (3, 5), (4, 6)])
def test_js_is_maximal_for_disjoint_one_hot_members(members, k):
    # Member i puts all its mass on class i: the mean is uniform over `members` classes and
    # every member's entropy is 0, so JS = log(members), the largest value JS can take
    # with uniform weights (H of the weights).
    P = one_hot(np.tile(np.arange(members)[:, None], (1, 3)), k)
    np.testing.assert_allclose(js_divergence(P), math.log(members), rtol=1e-12)
    others = dirichlet(members, 2000, k, seed=members + k)
    assert js_divergence(others).max() < math.log(members)


def test_js_hand_worked_two_members():
    # P1 = (1, 0), P2 = (1/2, 1/2): mean (3/4, 1/4).
    P = np.array([[[1.0, 0.0]], [[0.5, 0.5]]])
    mean_entropy = -(0.75 * math.log(0.75) + 0.25 * math.log(0.25))
    expected = mean_entropy - 0.5 * (0.0 + math.log(2))
    np.testing.assert_allclose(js_divergence(P), [expected], rtol=1e-12)


def test_js_weights_are_normalised_vote_weights():
    P = np.array([[[1.0, 0.0]], [[0.0, 1.0]]])
    # Weights 3:1 -> mean (3/4, 1/4), members pure: JS = H(3/4, 1/4).
    expected = -(0.75 * math.log(0.75) + 0.25 * math.log(0.25))
    np.testing.assert_allclose(js_divergence(P, [3.0, 1.0]), [expected], rtol=1e-12)
    np.testing.assert_allclose(js_divergence(P, [30.0, 10.0]), [expected], rtol=1e-12)


def test_weighted_js_is_the_weighted_mean_kl_to_the_weighted_mean():
    """With impure members the member-entropy term must be weighted too: JS_w = sum_i w_i
    KL(P_i || sum_j w_j P_j) (the identity behind the unweighted test below)."""
    P = dirichlet(4, 50, 3, seed=7)
    w = np.array([5.0, 1.0, 3.0, 1.0])
    w_norm = w / w.sum()
    mean = np.tensordot(w_norm, P, axes=1)
    kl = np.tensordot(w_norm, (P * np.log(P / mean)).sum(axis=2), axes=1)
    np.testing.assert_allclose(js_divergence(P, w), kl, rtol=1e-10)


def test_js_equals_mean_kl_to_the_mean():
    # The dissertation: "the JS-divergence of a set of distributions is the average KL
    # divergence of each distribution to the mean of the set".
    P = dirichlet(6, 50, 4, seed=3)
    mean = P.mean(axis=0)
    kl = (P * np.log(P / mean)).sum(axis=2).mean(axis=0)
    np.testing.assert_allclose(js_divergence(P), kl, rtol=1e-10)


# -- margins -----------------------------------------------------------------------------------
def test_probability_margin_of_the_averaged_distribution():
    # Two members on one example: mean (0.5, 0.3, 0.2) -> margin 0.2. A member-wise margin
    # (0.6 and 0.4 for the two members) would be a different, wrong number.
    P = np.array([[[0.8, 0.2, 0.0]], [[0.2, 0.4, 0.4]]])
    np.testing.assert_allclose(probability_margin(P), [0.2])
    np.testing.assert_allclose(weighted_mean_distribution(P), [[0.5, 0.3, 0.2]])


def test_probability_margin_uses_vote_weights():
    P = np.array([[[1.0, 0.0]], [[0.0, 1.0]]])
    np.testing.assert_allclose(probability_margin(P, [3.0, 1.0]), [0.5])
    np.testing.assert_allclose(probability_margin(P), [0.0])


def test_vote_margin_counts_member_votes():
    # 5 members, 3 examples: votes (0,0,0,1,2) -> 3-1 = 2; (1,1,0,0,2) -> 2-2 = 0;
    # (2,2,2,2,2) -> 5-0 = 5.
    votes = np.array([[0, 1, 2], [0, 1, 2], [0, 0, 2], [1, 0, 2], [2, 2, 2]])
    P = one_hot(votes, 3)
    np.testing.assert_array_equal(vote_margin(P), [2, 0, 5])
    np.testing.assert_array_equal(vote_margin(P, votes=votes), [2, 0, 5])


def test_vote_margin_reads_the_given_votes_not_the_argmax():
    P = np.array([[[0.6, 0.4]], [[0.6, 0.4]], [[0.6, 0.4]]])
    np.testing.assert_array_equal(vote_margin(P), [3])
    np.testing.assert_array_equal(vote_margin(P, votes=[[1], [1], [0]]), [1])


def test_weighted_vote_margin_qboost():
    # Weights log(1/beta): 2.0, 0.5, 0.5 -> class 0 gets 2.0, class 1 gets 1.0: margin 1.0.
    votes = np.array([[0], [1], [1]])
    np.testing.assert_allclose(vote_margin(one_hot(votes, 2), [2.0, 0.5, 0.5]), [1.0])
    np.testing.assert_allclose(vote_margin(one_hot(votes, 2)), [1.0])  # 2 votes vs 1
    votes = np.array([[1], [0], [0]])
    np.testing.assert_allclose(vote_margin(one_hot(votes, 2), [2.0, 0.5, 0.5]), [1.0])
    np.testing.assert_allclose(vote_margin(one_hot(votes, 2), [0.5, 2.0, 2.0]), [3.5])


def test_vote_entropy_hand_worked():
    votes = np.array([[0, 0], [0, 1], [1, 1], [1, 1]])
    expected = [-(0.5 * math.log(0.5)) * 2, -(0.25 * math.log(0.25) + 0.75 * math.log(0.75))]
    np.testing.assert_allclose(vote_entropy(one_hot(votes, 2)), expected, rtol=1e-12)


def test_vote_entropy_ranks_like_vote_margin_with_two_classes():
    rng = np.random.default_rng(5)
    votes = rng.integers(0, 2, size=(9, 300))
    P = one_hot(votes, 2)
    margin, entropy = vote_margin(P), vote_entropy(P)
    # Strictly opposite orders: smaller margin <=> larger entropy, equal <=> equal.
    for i, j in rng.integers(0, 300, size=(500, 2)):
        assert np.sign(margin[i] - margin[j]) == -np.sign(round(entropy[i] - entropy[j], 12))


def test_member_votes_first_maximum():
    P = np.array([[[0.5, 0.5], [0.2, 0.8]]])
    np.testing.assert_array_equal(member_votes(P), [[0, 1]])
    np.testing.assert_array_equal(vote_counts([[0, 1], [1, 1]], 2), [[1, 1], [0, 2]])


# -- local variance (chapter 7) ---------------------------------------------------------------
def test_local_variance_hand_worked():
    # p_i(class 0) = 0.2, 0.4, 0.6: mean 0.4, sum of squares 0.08. Minority class 1:
    # mean P(class 1) = 0.6 -> 0.08 / 0.6. Minority class 0: 0.08 / 0.4.
    P = np.array([[[0.2, 0.8]], [[0.4, 0.6]], [[0.6, 0.4]]])
    np.testing.assert_allclose(local_variance(P, minority_class=1), [0.08 / 0.6])
    np.testing.assert_allclose(local_variance(P, minority_class=0), [0.08 / 0.4])


def test_local_variance_zero_when_members_agree_even_with_zero_minority_mass():
    P = np.array([[[1.0, 0.0], [0.3, 0.7]], [[1.0, 0.0], [0.3, 0.7]]])
    np.testing.assert_array_equal(local_variance(P, minority_class=1), [0.0, 0.0])


def test_strategy_takes_the_class_with_fewest_labeled_examples_as_minority():
    from redecorate.active.committee import CommitteeOutput
    from redecorate.active.strategy import QueryStrategy, minority_class

    P = np.array([[[0.2, 0.8], [0.9, 0.1]], [[0.4, 0.6], [0.5, 0.5]], [[0.6, 0.4], [0.7, 0.3]]])
    out = CommitteeOutput(P, np.argmax(P, axis=2), np.ones(3))
    strategy = QueryStrategy("local_variance", "proportional")
    np.testing.assert_allclose(strategy.scores(out, np.array([5, 2])), local_variance(P, 1))
    np.testing.assert_allclose(strategy.scores(out, np.array([1, 2])), local_variance(P, 0))
    assert minority_class(np.array([3, 3])) == 0


def test_local_variance_is_binary_only():
    with pytest.raises(ValueError, match="local_variance_ext"):
        local_variance(dirichlet(3, 4, 3), minority_class=0)


def test_local_variance_ext_hand_worked_and_reduces_to_lv_spread():
    # Three classes, two members: variances per class (pop.) of (0.2,0.6), (0.3,0.1), (0.5,0.3).
    P = np.array([[[0.2, 0.3, 0.5]], [[0.6, 0.1, 0.3]]])
    expected = np.mean([np.var([0.2, 0.6]), np.var([0.3, 0.1]), np.var([0.5, 0.3])])
    np.testing.assert_allclose(local_variance_ext(P), [expected])
    # Two classes: both class variances equal the class-0 spread / n.
    B = dirichlet(7, 30, 2, seed=9)
    spread = ((B[:, :, 0] - B[:, :, 0].mean(axis=0)) ** 2).sum(axis=0)
    np.testing.assert_allclose(local_variance_ext(B), spread / 7, rtol=1e-12)
    np.testing.assert_allclose(local_variance_ext(np.repeat(B[:1], 4, axis=0)), 0.0, atol=1e-15)


# -- input checks ------------------------------------------------------------------------------
@pytest.mark.parametrize("bad", [np.zeros((3, 4)), np.zeros((0, 2, 2)), np.full((2, 1, 2), np.nan)])
def test_bad_probability_arrays_are_refused(bad):
    with pytest.raises(ValueError):
        js_divergence(bad)


def test_bad_weights_and_votes_are_refused():
    P = dirichlet(3, 2, 2)
    with pytest.raises(ValueError, match="weights"):
        js_divergence(P, [1.0, -1.0, 1.0])
    with pytest.raises(ValueError, match="weights"):
        probability_margin(P, [1.0, 1.0])
    with pytest.raises(ValueError, match="votes"):
        vote_margin(P, votes=[[0, 1]])
    with pytest.raises(ValueError, match="class codes"):
        vote_margin(P, votes=[[0, 5], [0, 0], [1, 1]])
