"""An experiment file, validated and resolved for a scale profile: what the kinds read of it.

:func:`redecorate.experiments.load_experiment` builds an :class:`ExperimentSpec` from a file;
a kind (:class:`redecorate.kinds.ExperimentKind`) reads it to list its units of work, build
its job settings and check what a schema cannot express. It lives below both, so the kind
contract is typed without the loader and the kinds importing each other.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from redecorate.protocol.job import Protocol
from redecorate.protocol.settings import KindSettings, NoSettings

__all__ = ["ExperimentSpec"]


@dataclass(frozen=True)
class ExperimentSpec:
    """One experiment file, validated and resolved for a scale profile.

    Attributes:
        name: experiment name (result directory, ``experiment`` column).
        kind: experiment family (:mod:`redecorate.kinds`); decides the unit of work and report.
        path: the file it came from (for messages).
        protocol: runs, folds, points, seed and datasets after the profile overlay.
        algorithms: algorithm label -> learner parameters, in file order. The label is the
            ``algorithm`` of the records; for the old form it is the registry name itself.
        learners: algorithm label -> learner registry name (``make_learner``'s ``name``).
        report: the ``report:`` section (baseline, others, published tables, analyses).
        scale: the profile the protocol was resolved for.
        settings: the kind's own keys after the profile overlay, typed and with their
            defaults filled (:attr:`redecorate.kinds.ExperimentKind.settings`), e.g.
            ``spec.settings.corruption`` of a noise experiment.
        slice: for a run restricted with ``--config algorithms=... datasets=...``
            (:func:`redecorate.experiments.slice_experiments`), what was kept and what left out; None for the whole
            experiment.
    """

    name: str
    kind: str
    path: Path
    protocol: Protocol
    algorithms: dict[str, dict[str, Any]]
    report: dict[str, Any] = field(default_factory=dict)
    scale: str = "thesis"
    learners: dict[str, str] = field(default_factory=dict)
    settings: KindSettings = field(default_factory=NoSettings)
    slice: dict[str, list[str]] | None = None

    def learner_of(self, algorithm: str) -> str:
        """Registry name of an algorithm label (the label itself in the old form)."""
        return self.learners.get(algorithm, algorithm)

    @property
    def datasets(self) -> tuple[str, ...]:
        """Datasets of the selected profile."""
        return self.protocol.datasets

    @property
    def runs(self) -> range:
        """Run numbers (0-based) of the selected profile."""
        return range(self.protocol.runs)
