"""Stable derivation of every random stream of an experiment from one experiment seed.

Why not ``hash()`` or a global RNG: Python salts ``hash(str)`` per process, and a global
stream makes a job's randomness depend on which jobs ran before it in the same process.
Both break the promise of DESIGN.md that any single job, re-run anywhere, in any order,
gives bit-identical records. Instead every stream is a :class:`numpy.random.SeedSequence`
whose entropy is the experiment seed followed by a BLAKE2b digest of each key, so:

* folds are keyed by ``(seed, "folds", dataset, run)`` and are therefore the same for
  every algorithm (paired tests are truly paired);
* learning-curve orders are keyed by ``(seed, "order", dataset, run, fold)``;
* learner seeds are keyed by ``(seed, "learner", dataset, run, fold, algorithm, point)``.
"""

from __future__ import annotations

import hashlib

import numpy as np

__all__ = ["key_words", "seed_sequence", "derive_seed"]

_WORDS_PER_KEY = 4  # 128 bits of digest per key: collisions are not a practical concern.


def key_words(key: str | int) -> list[int]:
    """Digest one key into ``uint32`` words, stably across processes and machines.

    The key's type is part of the digest (``1`` and ``"1"`` differ) so that a dataset
    literally called ``"3"`` cannot collide with run number 3. Booleans are refused because
    ``True == 1`` would make that distinction ambiguous.
    """
    if isinstance(key, bool) or not isinstance(key, str | int | np.integer):
        raise TypeError(f"seed keys must be str or int, got {type(key).__name__}: {key!r}")
    text = f"s:{key}" if isinstance(key, str) else f"i:{int(key)}"
    digest = hashlib.blake2b(text.encode("utf-8"), digest_size=4 * _WORDS_PER_KEY).digest()
    return [int.from_bytes(digest[i : i + 4], "little") for i in range(0, len(digest), 4)]


def seed_sequence(experiment_seed: int, *keys: str | int) -> np.random.SeedSequence:
    """Return the ``SeedSequence`` of the stream named by ``keys`` within an experiment.

    Args:
        experiment_seed: the experiment's non-negative integer seed (from its YAML file).
        *keys: names of the stream, most general first, e.g.
            ``("folds", "iris", 3)``. Order matters.
    """
    if isinstance(experiment_seed, bool) or not isinstance(experiment_seed, int | np.integer):
        raise TypeError(f"experiment_seed must be an int, got {experiment_seed!r}")
    if experiment_seed < 0:
        raise ValueError(f"experiment_seed must be >= 0, got {experiment_seed}")
    entropy: list[int] = [int(experiment_seed)]
    for key in keys:
        entropy.extend(key_words(key))
    return np.random.SeedSequence(entropy)


def derive_seed(experiment_seed: int, *keys: str | int) -> int:
    """An ``int`` in ``[0, 2**32)`` for APIs (scikit-learn ``random_state``) that want one."""
    return int(seed_sequence(experiment_seed, *keys).generate_state(1, dtype=np.uint32)[0])
