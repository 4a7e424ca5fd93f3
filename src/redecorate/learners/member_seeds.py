"""The random streams of an ensemble's members, derived in bulk exactly as numpy would.

Member ``i`` of a bagged ensemble seeded with ``seed`` (a
:class:`numpy.random.SeedSequence`) draws its bootstrap replicate from
``default_rng(seed.spawn(n)[i].spawn(2)[0])`` and gives its base learner the seed
``seed.spawn(n)[i].spawn(2)[1].generate_state(1)[0]``. Done that way, one member costs
three SeedSequence objects and a Generator, ~80 µs: more than fitting J48 on the small
training sets at the start of a learning curve, and more than Weka spends on a whole
member there. :func:`bootstrap_streams` produces the same numbers from numpy arrays, the
hashing of every member's seeds at once (O'Neill's ``seed_seq_fe``, which SeedSequence
implements) and PCG64's seeding of each member's generator state, so the ensembles keep
their random streams (and every recorded result) while a member's set-up falls to a few
microseconds. :func:`child_seeds` does the same for AdaBoost.M1's members, seeded with
``seed.spawn(n)[i].generate_state(1)[0]``. ``tests/test_member_seeds.py`` checks the
words against numpy's own.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import numpy as np
from numba import njit

from redecorate.learners.compilation import announce_compilation

announce_compilation()

__all__ = ["BootstrapStreams", "bootstrap_streams", "child_seeds"]

_MASK32 = 0xFFFFFFFF

# PCG64 (pcg_setseq_128 with numpy's default multiplier).
_PCG_MULT = (2549297995355413924 << 64) | 4865540595714422341
_MASK128 = (1 << 128) - 1


def _words(value: object) -> list[int]:
    """``value`` as SeedSequence reads entropy: an int in little-endian 32-bit words
    (``[0]`` for zero), a sequence as the concatenation of its items' words."""
    if isinstance(value, np.ndarray) and value.dtype == np.uint32:
        return [int(v) for v in value]
    if isinstance(value, int | np.integer) and not isinstance(value, bool):
        n = int(value)
        if n < 0:
            raise ValueError(f"seed entropy must be non-negative, got {n}")
        out = [] if n else [0]
        while n > 0:
            out.append(n & _MASK32)
            n >>= 32
        return out
    if isinstance(value, Sequence | np.ndarray) and not isinstance(value, str):
        return [w for item in value for w in _words(item)]
    raise TypeError(f"cannot derive member seeds from entropy {value!r}")


@njit(cache=True)
def _hash_state(entropy, pool_size, n_words):
    """SeedSequence's ``mix_entropy`` then ``generate_state(n_words, np.uint32)``, for
    each row of ``entropy`` (uint32 words held in uint64, rows of equal length).

    Arithmetic is done in uint64 and masked to 32 bits, which is uint32 arithmetic.
    """
    mask = np.uint64(0xFFFFFFFF)
    shift = np.uint64(16)
    rows, length = entropy.shape
    out = np.empty((rows, n_words), dtype=np.uint64)
    pool = np.empty(pool_size, dtype=np.uint64)
    for r in range(rows):
        hc = np.uint64(0x43B0D7E5)
        for i in range(pool_size):
            v = entropy[r, i] if i < length else np.uint64(0)
            v = v ^ hc
            hc = (hc * np.uint64(0x931E8875)) & mask
            v = (v * hc) & mask
            pool[i] = v ^ (v >> shift)
        for i_src in range(pool_size + max(length - pool_size, 0)):
            for i_dst in range(pool_size):
                if i_src < pool_size:
                    if i_src == i_dst:
                        continue
                    v = pool[i_src]
                else:
                    v = entropy[r, i_src]
                v = v ^ hc
                hc = (hc * np.uint64(0x931E8875)) & mask
                v = (v * hc) & mask
                v = v ^ (v >> shift)
                m = (np.uint64(0xCA01F9DD) * pool[i_dst] - np.uint64(0x4973F715) * v) & mask
                pool[i_dst] = m ^ (m >> shift)
        hb = np.uint64(0x8B51F9DD)
        for i in range(n_words):
            v = pool[i % pool_size] ^ hb
            hb = (hb * np.uint64(0x58F38DED)) & mask
            v = (v * hb) & mask
            out[r, i] = v ^ (v >> shift)
    return out


def _pcg64_state(words: Sequence[int]) -> dict:
    """The ``PCG64.state`` numpy sets up from ``generate_state(4, np.uint64)``, given as
    eight 32-bit words (``pcg64_set_seed``: ``srandom_r(seed, inc)``)."""
    u64 = [int(words[2 * i]) | (int(words[2 * i + 1]) << 32) for i in range(4)]
    init_state = (u64[0] << 64) | u64[1]
    init_seq = (u64[2] << 64) | u64[3]
    inc = ((init_seq << 1) | 1) & _MASK128
    state = inc  # step from state 0
    state = (state + init_state) & _MASK128
    state = (state * _PCG_MULT + inc) & _MASK128
    return {"bit_generator": "PCG64", "state": {"state": state, "inc": inc},
            "has_uint32": 0, "uinteger": 0}


@dataclass(frozen=True)
class BootstrapStreams:
    """Per member: the generator its replicate is drawn from and its base-learner seed."""

    draw_states: list[dict]
    learner_seeds: np.ndarray  # uint32, what ``generate_state(1)[0]`` gives

    def __iter__(self) -> Iterator[tuple[np.random.Generator, int]]:
        """``(generator, learner seed)`` per member; one generator, reset for each."""
        bit_generator = np.random.PCG64(0)
        generator = np.random.Generator(bit_generator)
        for state, learner in zip(self.draw_states, self.learner_seeds, strict=True):
            bit_generator.state = state
            yield generator, int(learner)


def _spawned_words(seed: np.random.SeedSequence, n_children: int, suffixes: Sequence[tuple[int, ...]],
                   n_words: int) -> np.ndarray:
    """``generate_state(n_words)`` of ``c.spawn(...)[s]``-style descendants of the next
    ``n_children`` children ``c`` of ``seed``: one row per (child, suffix), child-major.
    A suffix ``()`` is the child itself, ``(j,)`` its ``j``-th child."""
    run = _words(seed.entropy)
    if len(run) < seed.pool_size:  # numpy (≥ 1.19) pads the entropy of spawned sequences
        run = run + [0] * (seed.pool_size - len(run))
    prefix = run + _words(list(seed.spawn_key))
    first = seed.n_children_spawned
    rows = [prefix + _words(i) + _words(list(sfx)) for i in range(first, first + n_children)
            for sfx in suffixes]
    if len({len(r) for r in rows}) == 1:
        return _hash_state(np.array(rows, dtype=np.uint64), seed.pool_size, n_words)
    # child indices past 2**32 take two words; never in practice
    return np.concatenate([_hash_state(np.array([r], dtype=np.uint64), seed.pool_size, n_words)
                           for r in rows])


def child_seeds(seed: np.random.SeedSequence, n_children: int) -> np.ndarray:
    """``[c.generate_state(1)[0] for c in seed.spawn(n_children)]`` as uint32, without
    advancing ``seed``: the base-learner seeds of AdaBoost.M1's members."""
    return _spawned_words(seed, n_children, [()], 1)[:, 0].astype(np.uint32)


def bootstrap_streams(seed: np.random.SeedSequence, n_members: int) -> BootstrapStreams:
    """The streams of ``seed.spawn(n_members)``: for child ``c``, ``default_rng`` of
    ``c.spawn(2)[0]`` and ``c.spawn(2)[1].generate_state(1)[0]``. Children are numbered
    from ``seed.n_children_spawned`` like ``spawn``'s, but ``seed`` is not advanced."""
    states = _spawned_words(seed, n_members, [(0,), (1,)], 8)
    learner_seeds = states[1::2, 0].astype(np.uint32)  # generate_state(1): the first word
    return BootstrapStreams([_pcg64_state(w) for w in states[0::2].tolist()], learner_seeds)
