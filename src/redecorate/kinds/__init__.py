"""The experiment-kind registry: ``kind:`` of an experiment file -> :class:`ExperimentKind`.

Every experiment family plugs into the same workflow (one job rule, one combine rule, one
report rule) by registering one kind here; ``docs/adding-an-experiment-kind.md`` walks
through it. Kinds are resolved lazily from ``"module:attribute"`` strings, as the report
analyses are, so reading an experiment file does not import every family's learners.

A kind defined outside this package (a user's own study) is named in the experiment file by
its import path, ``kind: my_package.my_module:MY_KIND``; it must be importable wherever the
jobs run (installed, or on ``PYTHONPATH``).
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from types import MappingProxyType

from redecorate.config import did_you_mean
from redecorate.kinds.kind import (
    DatasetShape,
    ExperimentKind,
    ExperimentSpec,
    Fold,
    Progress,
    Record,
    ReportOutputs,
    Unit,
    algorithm_run_units,
    learner_entry,
)
from redecorate.protocol.job import JobError
from redecorate.protocol.settings import (
    JobSettings,
    KeyLayout,
    KindSettings,
    NoSettings,
    ReportSettings,
)

__all__ = [
    "KINDS",
    "DatasetShape",
    "ExperimentKind",
    "ExperimentSpec",
    "Fold",
    "JobError",
    "JobSettings",
    "KeyLayout",
    "KindSettings",
    "NoSettings",
    "Progress",
    "Record",
    "ReportOutputs",
    "ReportSettings",
    "Unit",
    "UnknownKindError",
    "algorithm_run_units",
    "get_kind",
    "learner_entry",
]

KINDS: Mapping[str, str] = MappingProxyType({
    "passive": "redecorate.kinds.passive:PASSIVE",  # §4.1 learning curves (ch. 4)
    "noise": "redecorate.kinds.noise:NOISE",  # §5.1 imperfect data (ch. 5)
    "active": "redecorate.kinds.active:ACTIVE",  # §6-7 active learning with committees
    "acquisition": "redecorate.kinds.acquisition:ACQUISITION",  # §8 feature-value acquisition
    "feature_subsets": "redecorate.kinds.feature_subsets:FEATURE_SUBSETS",  # Bommaganti §3-4
    "online": "redecorate.kinds.online:ONLINE",  # Oza §3.5: batch vs online ensembles
})
"""Registered kinds: name -> ``"module:attribute"`` of its :class:`ExperimentKind`."""


class UnknownKindError(ValueError):
    """A ``kind:`` that is neither registered nor an importable ``module:attribute``."""


def get_kind(name: str) -> ExperimentKind:
    """The kind called ``name``: a registered name, or a ``module:attribute`` path."""
    target = KINDS.get(name)
    if target is None and ":" not in str(name):
        raise UnknownKindError(
            f"unknown experiment kind {name!r}; registered kinds: {', '.join(KINDS)}, or "
            f"'module:attribute' of an ExperimentKind defined elsewhere.{did_you_mean(name, KINDS)}"
        )
    module_name, _, attribute = (target or str(name)).partition(":")
    try:
        module = importlib.import_module(module_name)
        kind = getattr(module, attribute)
    except (ImportError, AttributeError) as exc:
        raise UnknownKindError(
            f"experiment kind {name!r}: cannot import {module_name}:{attribute} ({exc}); a kind "
            "defined outside redecorate must be importable where the jobs run"
        ) from exc
    if not isinstance(kind, ExperimentKind):
        raise UnknownKindError(
            f"experiment kind {name!r}: {module_name}:{attribute} is a {type(kind).__name__}, "
            "not a redecorate.kinds.ExperimentKind"
        )
    return kind
