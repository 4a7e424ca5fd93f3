"""Batch selection (spec §1.7, Algorithm 4 step 4): top-m, proportional and random sampling."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from scipy import stats

from redecorate.active.selection import proportional_sample, random_sample, top_m
from redecorate.active.strategy import QueryStrategy


# -- top-m -------------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", range(5))
def test_top_m_picks_the_m_best(seed):
    rng = np.random.default_rng(seed)
    u = rng.integers(0, 6, size=40).astype(float)  # many ties
    for m in (1, 3, 10, 40):
        chosen = top_m(u, m, np.random.default_rng(seed + 100))
        assert chosen.size == m and np.unique(chosen).size == m
        rest = np.setdiff1d(np.arange(u.size), chosen)
        assert rest.size == 0 or u[chosen].min() >= u[rest].max()
        assert (np.diff(u[chosen]) <= 0).all()  # most useful first


def test_top_m_breaks_ties_at_random_and_first_deterministically():
    u = np.array([1.0, 5.0, 5.0, 5.0, 0.0])
    picks = {int(top_m(u, 1, np.random.default_rng(s))[0]) for s in range(60)}
    assert picks == {1, 2, 3}
    assert top_m(u, 2, tie_break="first").tolist() == [1, 2]
    with pytest.raises(TypeError, match="Generator"):
        top_m(u, 1, None)


def test_top_m_refuses_bad_input():
    with pytest.raises(ValueError, match="NaN"):
        top_m([1.0, np.nan], 1, np.random.default_rng(0))
    with pytest.raises(ValueError, match="non-negative integer"):
        top_m([1.0, 2.0], -1, np.random.default_rng(0))
    with pytest.raises(ValueError, match="tie_break"):
        top_m([1.0, 2.0], 1, tie_break="last")


def test_strategy_margins_pick_the_smallest_margin():
    # A margin is most useful when small: the strategy negates it before top-m.
    from redecorate.active.committee import CommitteeOutput

    P = np.array([[[0.9, 0.1], [0.55, 0.45], [0.7, 0.3]]])
    out = CommitteeOutput(P, np.argmax(P, axis=2), np.ones(1))
    chosen, raw = QueryStrategy("probability_margin").select(out, 1, np.random.default_rng(0))
    assert chosen.tolist() == [1]
    np.testing.assert_allclose(raw, [0.8, 0.1, 0.4])


# -- proportional sampling ---------------------------------------------------------------------
def test_proportional_single_draws_follow_the_score_distribution():
    scores = np.array([0.5, 1.0, 2.0, 4.0, 0.0, 2.5])
    expected = scores / scores.sum()
    rng = np.random.default_rng(11)
    draws = 20000
    counts = np.bincount([proportional_sample(scores, 1, rng)[0] for _ in range(draws)],
                         minlength=scores.size)
    assert counts[4] == 0  # zero score, never drawn while positive scores remain
    keep = expected > 0
    _, p = stats.chisquare(counts[keep], draws * expected[keep])
    assert p > 1e-3
    # The same counts are far from uniform: the test has power to see a wrong distribution.
    _, p_uniform = stats.chisquare(counts[keep], np.full(keep.sum(), draws / keep.sum()))
    assert p_uniform < 1e-12


def test_proportional_batches_are_successive_sampling_without_replacement():
    # n = 4, m = 2: P({i, j}) = p_i p_j / (1 - p_i) + p_j p_i / (1 - p_j).
    scores = np.array([1.0, 2.0, 3.0, 4.0])
    p = scores / scores.sum()
    pairs = list(itertools.combinations(range(4), 2))
    exact = np.array([p[i] * p[j] / (1 - p[i]) + p[j] * p[i] / (1 - p[j]) for i, j in pairs])
    rng = np.random.default_rng(3)
    draws = 20000
    seen = {pair: 0 for pair in pairs}
    for _ in range(draws):
        batch = proportional_sample(scores, 2, rng)
        assert batch.size == 2 and batch[0] != batch[1]
        seen[tuple(sorted(batch.tolist()))] += 1
    _, pvalue = stats.chisquare(np.array([seen[q] for q in pairs]), draws * exact)
    assert pvalue > 1e-3
    # Inclusion in proportion to the score itself (a tempting wrong reading) is rejected.
    naive = np.array([p[i] + p[j] for i, j in pairs])
    _, p_naive = stats.chisquare(np.array([seen[q] for q in pairs]), draws * naive / naive.sum())
    assert p_naive < 1e-6


def test_proportional_edge_cases():
    rng = np.random.default_rng(0)
    # All scores zero: uniform, m distinct.
    batch = proportional_sample(np.zeros(10), 4, rng)
    assert np.unique(batch).size == 4
    # Fewer positives than m: every positive is taken, the rest filled from the others.
    scores = np.array([0.0, 3.0, 0.0, 0.0, 1.0, 0.0])
    for _ in range(20):
        batch = proportional_sample(scores, 4, rng)
        assert {1, 4} <= set(batch.tolist()) and np.unique(batch).size == 4
    assert sorted(proportional_sample(scores, 99, rng).tolist()) == list(range(6))
    with pytest.raises(ValueError, match="non-negative"):
        proportional_sample([1.0, -0.5], 1, rng)


def test_proportional_refuses_margins():
    with pytest.raises(ValueError, match="shrinks with utility"):
        QueryStrategy("probability_margin", "proportional")
    with pytest.raises(ValueError, match="unknown score"):
        QueryStrategy("js_divergnce")
    with pytest.raises(ValueError, match="unknown selection"):
        QueryStrategy("js_divergence", "greedy")


# -- random --------------------------------------------------------------------------------------
def test_random_sample_is_uniform_and_distinct():
    rng = np.random.default_rng(8)
    counts = np.zeros(8)
    for _ in range(4000):
        batch = random_sample(8, 3, rng)
        assert np.unique(batch).size == 3
        counts[batch] += 1
    _, p = stats.chisquare(counts)
    assert p > 1e-3
    assert random_sample(5, 9, rng).size == 5
