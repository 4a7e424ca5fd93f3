"""What every unit of work shares: the protocol numbers, learner seeds, the job error.

A unit of work (:mod:`redecorate.kinds.unit`) evaluates one algorithm on the folds of one run
of k-fold cross-validation; the kinds supply what happens inside a fold. This module holds
the pieces they share below that: :class:`Protocol` (runs, folds, points, seed, datasets of a
scale profile), :func:`learner_seed` and :class:`JobError`.

Determinism: folds, training orders and learner seeds all come from
:func:`redecorate.protocol.seeds.seed_sequence`, keyed by names rather than by call order,
so the ``value`` column is bit-identical whenever and wherever a job is re-run (only
``fit_seconds``, a wall-clock measurement, varies).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from redecorate.protocol.seeds import derive_seed
from redecorate.stats.summary import RECORD_COLUMNS  # the record schema, defined once
from redecorate.util import exact_fraction

__all__ = [
    "METRICS",
    "RECORD_COLUMNS",
    "JobError",
    "LearnerFactory",
    "Protocol",
    "learner_seed",
    "point_key",
    "point_value",
]


class JobError(RuntimeError):
    """A unit of work failed; the message names dataset/algorithm/run/fold (and point)."""


LearnerFactory = Callable[[str, Mapping[str, Any], int], Any]
"""``(algorithm, params, random_state) -> unfitted scikit-learn classifier``."""


@dataclass(frozen=True)
class Protocol:
    """The numbers of a §4.1-style protocol: what a scale profile is allowed to change.

    Attributes:
        runs: number of complete k-fold cross-validations (thesis: 10).
        folds: k (thesis: 10).
        points: learning-curve points (thesis: 1 … 100 % of the training fold).
        seed: the experiment seed every random stream is derived from.
    """

    runs: int
    folds: int
    points: tuple[float | int, ...]
    seed: int
    datasets: tuple[str, ...] = field(default_factory=tuple)

    def __post_init__(self) -> None:
        if self.runs < 1:
            raise ValueError(f"runs must be >= 1, got {self.runs}")
        if self.folds < 2:
            raise ValueError(f"folds must be >= 2, got {self.folds}")
        object.__setattr__(self, "points", tuple(self.points))
        object.__setattr__(self, "datasets", tuple(self.datasets))

    @classmethod
    def from_experiment(
        cls, experiment: Mapping[str, Any], scale: str = "thesis", points_key: str | None = "points"
    ) -> Protocol:
        """Build the protocol of an experiment mapping (its YAML) under a scale profile.

        ``scale="thesis"`` uses the top-level numbers; any other name overlays the matching
        entry of ``profiles:`` (which may only change protocol numbers and datasets).
        ``points_key`` names the kind's list of points (``points``; ``levels`` for the noise
        kind, whose points are noise %; None for a kind without points).
        """
        keys = ["runs", "folds", "seed", "datasets"] + ([points_key] if points_key else [])
        base = {k: experiment[k] for k in keys}
        if scale != "thesis":
            profiles = experiment.get("profiles") or {}
            if scale not in profiles:
                raise KeyError(
                    f"experiment {experiment.get('name')!r} has no profile {scale!r}; "
                    f"available: ['thesis', {', '.join(repr(p) for p in profiles)}]"
                )
            base.update(profiles[scale] or {})
        return cls(
            runs=int(base["runs"]),
            folds=int(base["folds"]),
            points=tuple(base[points_key]) if points_key else (),
            seed=int(base["seed"]),
            datasets=tuple(base["datasets"]),
        )


def point_key(point: float | int) -> str:
    """Canonical text of a percentage for seeding (``5``, ``5.0`` → "5"; ``2.5`` → "5/2")."""
    return str(exact_fraction(point))


def point_value(point: float | int) -> float | int:
    """Integral percentages are stored as ints so tables print ``5`` rather than ``5.0``."""
    exact = exact_fraction(point)
    return int(exact) if exact.denominator == 1 else float(exact)


def learner_seed(
    seed: int, dataset: str, run: int, fold: int, algorithm: str, point: float | int
) -> int:
    """The ``random_state`` of the learner at one (dataset, run, fold, algorithm, point)."""
    return derive_seed(seed, "learner", dataset, run, fold, algorithm, point_key(point))


METRICS: tuple[str, ...] = ("accuracy", "diversity", "member_error")
"""Record metrics a passive job can compute (``metrics:`` of an experiment file).

``accuracy`` (%), ``diversity`` (Eq. 3.2 on the test fold, a fraction) and ``member_error``
(the members' mean test error in %, so that ``member_error - (100 - accuracy)`` is §4.4's
ensemble error reduction in percentage points).
"""
