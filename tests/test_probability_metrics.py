"""Chapter 7's class-probability metrics on cases whose value is known by hand."""

from __future__ import annotations

import numpy as np
import pytest

from redecorate.stats.probability import area_under_lift_chart, multiclass_mse


@pytest.mark.parametrize("k", [2, 3, 7])
def test_mse_of_correct_one_hot_is_zero_and_of_uniform_is_k_minus_one_over_k(k: int) -> None:
    y = np.arange(20) % k
    assert multiclass_mse(np.eye(k)[y], y) == 0.0
    assert multiclass_mse(np.full((20, k), 1 / k), y) == pytest.approx((k - 1) / k)
    assert multiclass_mse(np.eye(k)[(y + 1) % k], y) == pytest.approx(2.0)


def test_aulc_of_a_perfect_ranking_beats_a_random_one() -> None:
    rng = np.random.default_rng(0)
    y = (rng.random(400) < 0.2).astype(int)  # 20 % positives
    perfect = np.column_stack([1.0 - y, y]).astype(float)
    priors = np.array([0.8, 0.2])
    random = [area_under_lift_chart(rng.random((400, 2)), y, priors) for _ in range(30)]
    # Random: lift ~1 at every step -> about 20 steps x 5 = 100.
    assert np.mean(random) == pytest.approx(100.0, abs=5.0)
    best = area_under_lift_chart(perfect, y, priors)
    # Perfect ranking: for class k with n_k of the n test instances, the top m = ceil(a n / 100)
    # hold min(m, n_k) of them, so the lift is min(m, n_k) / m / (n_k / n); the area is the
    # rectangle rule in steps of 5 %. Computed from the sample's own class counts, exactly.
    n = len(y)
    cut = np.ceil(np.arange(5, 101, 5) * n / 100)
    expected = sum(prior * 5 * np.sum(np.minimum(cut, n_k) / cut / (n_k / n))
                   for prior, n_k in zip(priors, [np.sum(y == 0), np.sum(y == 1)], strict=True))
    assert best == pytest.approx(expected, rel=1e-12)
    assert best > max(random)


def test_aulc_skips_a_class_absent_from_the_test_set() -> None:
    y = np.array([0, 0, 1, 1])
    proba = np.array([[0.9, 0.1, 0], [0.8, 0.2, 0], [0.1, 0.9, 0], [0.2, 0.8, 0]])
    with_absent = area_under_lift_chart(proba, y, [0.4, 0.4, 0.2])
    without = area_under_lift_chart(proba[:, :2], y, [0.5, 0.5])
    assert with_absent == pytest.approx(without)


def test_bad_input_is_refused() -> None:
    with pytest.raises(ValueError, match="class codes"):
        multiclass_mse(np.eye(2), [0, 2])
    with pytest.raises(ValueError, match="step"):
        area_under_lift_chart(np.eye(2), [0, 1], [0.5, 0.5], step=7)
