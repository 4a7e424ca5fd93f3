"""The fixed-order arithmetic and the tie grid (:mod:`redecorate.arithmetic`) on their
defining properties: one stated order of operations (so the result is a function of the
inputs alone), the products they replace up to rounding, and ties that are ties in exact
arithmetic broken by the seeded shuffle, never by the last bit."""

from __future__ import annotations

import math

import numpy as np
import pytest

from redecorate.active.scores import js_divergence, probability_margin, weighted_mean_distribution
from redecorate.active.selection import proportional_sample, top_m
from redecorate.arithmetic import (
    TIE_GRID_BITS,
    matmul,
    matvec,
    on_tie_grid,
    row_norms,
    weighted_sum,
)


def test_weighted_sum_adds_member_by_member_in_committee_order() -> None:
    rng = np.random.default_rng(0)
    w, A = rng.random(15), rng.random((15, 40, 3))
    expected = w[0] * A[0]
    for i in range(1, 15):
        expected = expected + w[i] * A[i]
    assert np.array_equal(weighted_sum(w, A), expected)  # bit for bit: the stated order
    np.testing.assert_allclose(weighted_sum(w, A), np.tensordot(w, A, axes=1), rtol=1e-14)


def test_one_member_of_weight_one_is_that_member_exactly() -> None:
    A = np.random.default_rng(1).random((1, 9, 4))
    assert np.array_equal(weighted_sum([1.0], A), A[0])


def test_the_products_agree_with_blas_up_to_rounding_and_exactly_on_integers() -> None:
    rng = np.random.default_rng(2)
    A, B, x = rng.random((7, 5)), rng.random((5, 3)), rng.random(5)
    np.testing.assert_allclose(matvec(A, x), A @ x, rtol=1e-14)
    np.testing.assert_allclose(matmul(A, B), A @ B, rtol=1e-14)
    np.testing.assert_allclose(row_norms(A), np.linalg.norm(A, axis=1), rtol=1e-14)
    Ai, Bi = rng.integers(-9, 9, (6, 4)).astype(float), rng.integers(-9, 9, (4, 5)).astype(float)
    assert np.array_equal(matmul(Ai, Bi), Ai @ Bi)
    with pytest.raises(ValueError, match="matmul needs"):
        matmul(A, A)
    with pytest.raises(ValueError, match="one weight per array"):
        weighted_sum([1.0, 2.0], A[None])


def test_the_grid_makes_exact_ties_equal_and_keeps_distinct_values_apart() -> None:
    a, b = 0.1 + 0.2, 0.3  # 0.3 in exact arithmetic, two different doubles
    assert a != b
    ga, gb, _ = on_tie_grid([a, b, 0.7])
    assert ga == gb
    values = np.array([0.25, 0.25 + 2.0 ** -30, 0.5])
    assert len(set(on_tie_grid(values))) == 3  # a real difference far above 2^-40 stays
    assert np.array_equal(on_tie_grid(np.zeros(3)), np.zeros(3))
    assert on_tie_grid([]).size == 0
    assert TIE_GRID_BITS == 40
    # the quantum is a power of two of the largest magnitude: scaling by 2 commutes with it
    v = np.random.default_rng(4).random(50)
    assert np.array_equal(on_tie_grid(2.0 * v), 2.0 * on_tie_grid(v))


def test_top_m_breaks_a_tie_that_rounding_hid_at_random() -> None:
    """Two pool examples tied in exact arithmetic: before the grid, the one rounding made a
    hair larger was always taken; now each is taken about half the time."""
    utility = np.array([0.1 + 0.2, 0.3, 0.1])
    taken = [int(top_m(utility, 1, np.random.default_rng(seed))[0]) for seed in range(400)]
    assert set(taken) == {0, 1}
    assert 150 < taken.count(0) < 250


def test_an_agreeing_committee_has_zero_disagreement_for_proportional_sampling() -> None:
    """Identical members have a JS divergence of exactly 0 in exact arithmetic; a residue of
    rounding must not make such an example "positive" and so always drawn first."""
    residue = np.array([1e-17, 0.0, 0.4, 0.2])
    assert np.array_equal(on_tie_grid(residue)[:2], [0.0, 0.0])
    drawn = [tuple(sorted(proportional_sample(residue, 3, np.random.default_rng(s)))) for s in range(200)]
    # both positive examples, then one of the two zeros at random (not always the residue's)
    assert {d for d in drawn} == {(0, 2, 3), (1, 2, 3)}
    P = np.empty((15, 2, 3))
    P[:, 0] = [0.1, 0.2, 0.7]  # 15 identical members
    P[:8, 1], P[8:, 1] = [0.9, 0.05, 0.05], [0.05, 0.9, 0.05]  # a split committee
    js = js_divergence(P)
    assert 0 < js[0] < 1e-15 and js[1] > 0.4  # rounding leaves a residue where they agree ...
    assert on_tie_grid(js)[0] == 0.0  # ... which the grid takes as the 0 it is


def test_scores_follow_the_committee_order_not_blas() -> None:
    rng = np.random.default_rng(5)
    P = rng.dirichlet(np.ones(3), size=(15, 30))
    mean = weighted_mean_distribution(P)
    assert np.array_equal(mean, weighted_sum(np.full(15, 1 / 15), P))
    first, second = np.sort(mean, axis=1)[:, -1], np.sort(mean, axis=1)[:, -2]
    assert np.array_equal(probability_margin(P), first - second)
    assert math.isclose(float(mean.sum()), 30.0, rel_tol=1e-12)
