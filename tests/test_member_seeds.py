"""Member streams derived in bulk are numpy's own: SeedSequence words, PCG64 states, draws."""

from __future__ import annotations

import numpy as np
import pytest

from redecorate.learners import J48, AdaBoostM1, Bagging, RandomForest
from redecorate.learners.member_seeds import bootstrap_streams, child_seeds


def _numpy_streams(seed: np.random.SeedSequence, n: int) -> list[tuple[np.random.Generator, int]]:
    """What the ensembles did member by member before the bulk derivation."""
    fresh = np.random.SeedSequence(seed.entropy, spawn_key=seed.spawn_key, pool_size=seed.pool_size,
                                   n_children_spawned=seed.n_children_spawned)
    out = []
    for child in fresh.spawn(n):
        draw_seed, learner_seed = child.spawn(2)
        out.append((np.random.default_rng(draw_seed), int(learner_seed.generate_state(1)[0])))
    return out


OS_ENTROPY = np.random.SeedSequence()
"""A seed from the OS's entropy, drawn anew by each process that collects the tests."""


def _seed_id(seed: np.random.SeedSequence) -> str:
    """A test id that is the same in every process (each pytest-xdist worker collects the
    tests and must find the same ids), also for the seed drawn from the OS's entropy."""
    return "os-entropy" if seed is OS_ENTROPY else str(seed.entropy)[:12]


SEEDS = [
    np.random.SeedSequence(0),
    np.random.SeedSequence(5),
    np.random.SeedSequence(2**32 - 1),
    np.random.SeedSequence(2**40 + 3),  # two entropy words
    np.random.SeedSequence(2**200 + 17),  # more entropy words than the pool holds
    np.random.SeedSequence([20050801, 1, 2, 3, 4, 5]),  # the pipeline's keyed entropy
    np.random.SeedSequence(7, spawn_key=(3, 2**33)),
    np.random.SeedSequence(9, pool_size=8),
    np.random.SeedSequence(11, n_children_spawned=4),
    OS_ENTROPY,
] + [np.random.SeedSequence(int(s)) for s in np.random.default_rng(1).integers(0, 2**32, 30)]


@pytest.mark.parametrize("seed", SEEDS, ids=_seed_id)
def test_bulk_streams_equal_numpys_spawned_generators(seed):
    ours = bootstrap_streams(seed, 15)
    theirs = _numpy_streams(seed, 15)
    for (rng, learner), (ref_rng, ref_learner), state in zip(ours, theirs, ours.draw_states,
                                                             strict=True):
        assert state == ref_rng.bit_generator.state
        assert learner == ref_learner
        np.testing.assert_array_equal(rng.integers(0, 37, size=37), ref_rng.integers(0, 37, size=37))
        np.testing.assert_array_equal(rng.choice(9, size=9, p=np.arange(9) / 36),
                                      ref_rng.choice(9, size=9, p=np.arange(9) / 36))


@pytest.mark.parametrize("seed", SEEDS, ids=_seed_id)
def test_bulk_child_seeds_equal_numpys(seed):
    fresh = np.random.SeedSequence(seed.entropy, spawn_key=seed.spawn_key, pool_size=seed.pool_size,
                                   n_children_spawned=seed.n_children_spawned)
    expected = [int(c.generate_state(1)[0]) for c in fresh.spawn(15)]
    assert child_seeds(seed, 15).tolist() == expected


def test_the_seed_is_not_advanced():
    seed = np.random.SeedSequence(3)
    bootstrap_streams(seed, 4)
    child_seeds(seed, 4)
    assert seed.n_children_spawned == 0


@pytest.mark.parametrize("Learner", [Bagging, RandomForest])
def test_ensembles_draw_the_replicates_and_seeds_of_numpys_spawned_streams(Learner):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 3))
    y = (X[:, 0] > 0).astype(int)
    model = Learner(n_estimators=6, random_state=42).fit(X, y)
    reference = _numpy_streams(np.random.SeedSequence(42), 6)
    for idx, est, (ref_rng, ref_learner) in zip(model.estimators_samples_, model.estimators_,
                                                reference, strict=True):
        np.testing.assert_array_equal(idx, ref_rng.integers(0, 40, size=40))
        assert est.random_state == ref_learner


def test_boosted_members_get_the_seeds_of_numpys_spawned_children():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(60, 3))
    y = (X[:, 0] + rng.normal(scale=1.0, size=60) > 0).astype(int)
    model = AdaBoostM1(J48(), n_estimators=5, random_state=7).fit(X, y)
    expected = [int(c.generate_state(1)[0]) for c in np.random.SeedSequence(7).spawn(5)]
    assert [m.random_state for m in model.estimators_] == expected[: len(model.estimators_)]
    assert len(model.estimators_) > 1
