"""What an experiment kind is: the parts the workflow needs to know about a family.

A *kind* (``kind:`` of an experiment file) is one family of experiments of the sources: the
§4.1 learning curves (``passive``), the Chapter-5 noise studies (``noise``), the active
learning loops of Chapters 6–7 (``active``), Chapter 8's feature-value acquisition
(``acquisition``), Oza's online ensembles (``online``) and ensembles of feature subsets
(``feature_subsets``). The workflow is the same for all of them — prepare data, run jobs,
combine records, report — so a kind only has to say:

1. **its settings**: a frozen dataclass of its own YAML keys with their defaults
   (:class:`~redecorate.protocol.settings.KindSettings`), the JSON-schema fragments that
   validate them and its ``report:`` keys before any job starts, and which keys a scale
   profile (and a ``pilot`` profile) may change;
2. **its unit of work**: which units an experiment has (``units``), what one costs
   (``unit_cost``), and how to evaluate one fold of one unit (``evaluate_fold``: a
   :class:`Fold` in, :class:`Record` rows out); the fold loop, error context, progress and
   record validation are shared (:mod:`redecorate.kinds.unit`), and so are fitting a learner
   and the encoded dataset (:mod:`redecorate.kinds.fitting`);
3. **the record columns** it adds after the common ones
   (:data:`redecorate.stats.summary.RECORD_COLUMNS`);
4. **its report**: tables and figures written from the combined records, and the
   reproduced-vs-published comparison returned as one
   :class:`~redecorate.report.replication_report.ReplicationReport`.

How units are grouped into jobs (:mod:`redecorate.kinds.jobs`) is the same for every kind:
by estimated cost, so interpreter start-up stays a small share of each job.

This module is the whole contract: what a kind is given (:class:`ExperimentSpec`,
:class:`Fold`, :class:`~redecorate.protocol.settings.JobSettings`, :class:`DatasetShape`) and
what it gives back (:class:`ExperimentKind`, :class:`Record`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from redecorate.protocol.experiment import ExperimentSpec
from redecorate.protocol.job import LearnerFactory
from redecorate.protocol.settings import (
    JobSettings,
    KeyLayout,
    KindSettings,
    NoSettings,
    ReportOutputs,
    ReportSettings,
)

if TYPE_CHECKING:
    from redecorate.report.replication_report import ReplicationReport

__all__ = [
    "DatasetShape",
    "ExperimentKind",
    "ExperimentSpec",
    "Fold",
    "Progress",
    "Record",
    "ReportOutputs",
    "Unit",
    "algorithm_run_units",
    "learner_entry",
]

Unit = Mapping[str, Any]
"""One unit of work: a small JSON-able mapping, e.g. ``{"algorithm": "j48", "run": 3}``."""

Progress = Callable[[str], None]
"""Where a unit of work sends its progress lines (the job's log in the workflow)."""


@dataclass(frozen=True)
class DatasetShape:
    """The size of a dataset as the registry declares it, known before it is loaded.

    Used to estimate what a unit of work costs, so that jobs can be sized before any data
    exist (the workflow plans every job when it starts).
    """

    n_instances: int
    n_attributes: int
    name: str = ""  # the dataset's key in the experiment, for per-dataset settings
    n_classes: int = 2  # what a query strategy that tries every label costs depends on it
    # Inputs after nominal-to-binary (the registry's 'inputs'; None: one per attribute): what a
    # network's width, and so its fit, depends on.
    n_inputs: int | None = None
    # Loads the dataset itself, when the caller can (the planner, python3 -m redecorate.plan):
    # a kind whose cost depends on the data, not only its size, prices from it, and only such
    # a kind calls it. The workflow packs jobs without it, so every invocation plans the same.
    data: Callable[[], Any] | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class Record:
    """One row of a unit's records: what a fold measured at one point.

    ``experiment``, ``dataset``, ``algorithm``, ``run`` and ``fold`` are filled in by
    :func:`redecorate.kinds.unit.run_unit`; ``extra`` holds the kind's own columns
    (``record_columns``), by name.
    """

    point: float | int
    n_train: int
    metric: str
    value: float
    fit_seconds: float
    ensemble_size: int = 1
    extra: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Fold:
    """One fold of one unit, as a kind's ``evaluate_fold`` sees it: a plain value.

    Fitting the unit's learner and the dataset encoded for the learners' fast path are
    :mod:`redecorate.kinds.fitting`'s (``fold_learner``, ``encoded``).

    Attributes:
        dataset: the dataset (``name``, ``X``, ``y``).
        job: the experiment's job settings (``job.options``: the kind's own).
        unit: the unit of work.
        index: the fold number (0-based).
        train, test: row positions of the training and test fold.
        progress: where progress lines go (the job's log).
        first: whether this is the unit's first fold (a kind's once-per-unit work).
        learner_factory: ``(name, params, random_state) -> estimator`` that builds the unit's
            learners; None: the learner registry's. Tests inject stand-ins.
    """

    dataset: Any
    job: JobSettings
    unit: Mapping[str, Any]
    index: int
    train: np.ndarray
    test: np.ndarray
    progress: Progress
    first: bool = False
    learner_factory: LearnerFactory | None = None

    @property
    def algorithm(self) -> str:
        """The unit's algorithm label."""
        return str(self.unit["algorithm"])

    @property
    def run(self) -> int:
        """The unit's run number."""
        return int(self.unit["run"])

    @property
    def entry(self) -> Mapping[str, Any]:
        """The job entry of the unit's algorithm (:attr:`ExperimentKind.algorithm_entry`)."""
        return self.job.algorithms[self.algorithm]

    def where(self, **more: Any) -> str:
        """``dataset='iris' algorithm='j48' run=0 fold=3`` and ``more``, for messages."""
        text = (f"dataset={self.dataset.name!r} algorithm={self.algorithm!r} run={self.run} "
                f"fold={self.index}")  # fmt: skip
        return " ".join([text, *(f"{key}={value}" for key, value in more.items())])


def learner_entry(spec: ExperimentSpec, label: str) -> dict[str, Any]:
    """The job entry of an algorithm that is a learner: ``{"params": ...}`` and, when the
    label is a variant (``decorate_norej``), ``"learner"``: the registry name."""
    entry: dict[str, Any] = {"params": dict(spec.algorithms[label])}
    if spec.learner_of(label) != label:
        entry["learner"] = spec.learner_of(label)
    return entry


def algorithm_run_units(spec: ExperimentSpec) -> list[Unit]:
    """One unit per (run, algorithm), run-major: more runs only append units."""
    return [{"algorithm": a, "run": r} for r in spec.runs for a in spec.algorithms]


@dataclass(frozen=True)
class ExperimentKind:
    """One experiment family: settings, unit of work, record columns and report.

    Attributes:
        name: the ``kind:`` value of experiment files.
        description: one line for error messages and docs.
        settings: the kind's own YAML keys, a :class:`KindSettings` dataclass (defaults
            filled when the file is read; ``spec.settings`` and ``job.options`` are one).
        schema: JSON-schema fragment of those keys: ``properties``, ``required``,
            ``profile_properties`` (keys a ``profiles:`` entry may override) and optionally
            ``allOf``. Merged with ``workflow/schemas/experiment.schema.yaml``.
        report_schema: the ``properties`` the kind adds to the ``report:`` section.
        pilot_keys: own keys a ``pilot`` profile may change besides runs and datasets
            (online: ``orders``); a pilot keeps the source's protocol otherwise.
        points_key: the setting that holds the experiment's points (the records' ``point``:
            curve points, noise levels, ...), or None when the kind has no such list.
        algorithm_entry: ``(spec, label) -> dict``: the job entry of one algorithm (default
            :func:`learner_entry`). A unit's records depend on its own entry, the other job
            settings and the unit, never on the other algorithms' entries.
        units: ``spec -> [unit, ...]``: the units of work of one dataset, in a fixed order.
        evaluate_fold: ``fold -> records``: one fold of one unit (a :class:`Fold`)
            evaluated, as :class:`Record` rows. Pure: the same arguments give the
            same records, whenever and wherever it runs.
        unit_cost: ``(job, unit, shape) -> float``: estimated CPU seconds of one unit on a
            dataset of that shape; only job sizes depend on it, never results.
        report: ``(records, summary, outputs, settings) -> ReplicationReport``: writes the
            tables and figures and returns the reproduced-vs-published comparison, which
            :func:`redecorate.report.replication_report.write_replication_report` writes.
            Every built-in kind names it with
            :func:`redecorate.kinds.report_keys.deferred_report` (a report module with
            ``write_report`` and ``evidence``, the latter read by the replication report of
            every published table).
        check: ``spec -> None``: checks across keys that a schema cannot express; raises
            :class:`redecorate.config.ExperimentConfigError` naming the file and key.
        check_datasets: ``(spec, entries) -> None``: checks that need the registry's
            declared sizes of the experiment's datasets (``entries``: dataset -> its
            :class:`redecorate.data.DatasetEntry`); run before any job.
        record_columns: columns the kind's records carry after the common ones.
        key_layout: how the kind's job settings were laid out when its first records were
            keyed (:func:`redecorate.protocol.settings.key_settings`).
        algorithms_are_learners: whether the ``algorithms:`` entries are learners of
            :mod:`redecorate.learners.registry` (checked, with their parameters, before any
            job). A kind whose ``algorithms`` name something else (active-learning systems,
            a baseline rule) sets False and checks them in ``check``.
        point_alignment: ``settings -> "size" | "batch"``: how the folds' curves are lined
            up in ``summary.csv`` (:data:`redecorate.stats.summary.ALIGNMENTS`); None: by
            their points ("size").
        arithmetic_revision: ``algorithm entry -> int``: the revision of the arithmetic an
            algorithm's records depend on, 0 for the arithmetic they were first keyed under.
            A change of code that changes an algorithm's values raises it, which changes the
            keys of exactly its units (:func:`redecorate.job_records.unit_key`), so records
            of the old arithmetic are never reused for them; None: always 0.
    """

    name: str
    description: str
    evaluate_fold: Callable[[Fold], Iterable[Record]]
    unit_cost: Callable[[JobSettings, Unit, DatasetShape], float]
    report: Callable[[pd.DataFrame, pd.DataFrame, ReportOutputs, ReportSettings], ReplicationReport]
    units: Callable[[ExperimentSpec], Sequence[Unit]] = algorithm_run_units
    settings: type[KindSettings] = NoSettings
    schema: Mapping[str, Any] = field(default_factory=dict)
    report_schema: Mapping[str, Any] = field(default_factory=dict)
    pilot_keys: tuple[str, ...] = ()
    points_key: str | None = None
    algorithm_entry: Callable[[ExperimentSpec, str], dict[str, Any]] = learner_entry
    check: Callable[[ExperimentSpec], None] | None = None
    check_datasets: Callable[[ExperimentSpec, Mapping[str, Any]], None] | None = None
    record_columns: tuple[str, ...] = ()
    key_layout: KeyLayout = field(default_factory=KeyLayout)
    algorithms_are_learners: bool = True
    point_alignment: Callable[[Any], str] | None = None
    arithmetic_revision: Callable[[Mapping[str, Any]], int] | None = None

    def alignment(self, spec: Any) -> str:
        """How the summary lines up the folds' curves of experiment ``spec``."""
        return "size" if self.point_alignment is None else self.point_alignment(spec.settings)

    def job_settings(self, spec: ExperimentSpec) -> JobSettings:
        """The :class:`JobSettings` of an experiment of this kind."""
        return JobSettings(
            experiment=spec.name, folds=spec.protocol.folds, seed=spec.protocol.seed,
            points=tuple(spec.protocol.points),
            algorithms={label: self.algorithm_entry(spec, label) for label in spec.algorithms},
            options=spec.settings,
        )  # fmt: skip
