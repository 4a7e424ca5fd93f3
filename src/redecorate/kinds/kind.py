"""What an experiment kind is: the four things the workflow needs to know about a family.

A *kind* (``kind:`` of an experiment file) is one family of experiments of the sources: the
§4.1 learning curves (``passive``), the Chapter-5 noise studies (``noise``), and later the
active-learning loops, prequential streams and feature-subset ensembles. The workflow is the
same for all of them — prepare data, run jobs, combine records, report — so a kind only has
to say:

1. **its settings**: the YAML keys it adds to the common ones (a JSON-schema fragment,
   validated together with the rest of the file before any job starts) and which of them
   a scale profile may override;
2. **its unit of work**: a pure function ``(dataset, settings, unit) -> records`` where a
   unit is a small JSON mapping (for ``passive``: one algorithm × one run of k-fold CV);
3. **the record columns** it adds after the common ones
   (:data:`redecorate.stats.summary.RECORD_COLUMNS`);
4. **its report**: tables, figures and the reproduced-vs-published comparison written from
   the combined records.

How units are grouped into jobs (:mod:`redecorate.kinds.jobs`) is the same for every kind:
by estimated cost, so interpreter start-up stays a small share of each job.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

__all__ = [
    "DatasetShape",
    "ExperimentKind",
    "Progress",
    "ReportOutputs",
    "Unit",
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


@dataclass(frozen=True)
class ReportOutputs:
    """Where a kind's report writes (staged paths: renamed into place only on success)."""

    tables: Path
    figures: Path
    replication_md: Path
    replication_csv: Path
    replication_conclusions: Path


@dataclass(frozen=True)
class ExperimentKind:
    """One experiment family: settings, unit of work, record columns and report.

    Attributes:
        name: the ``kind:`` value of experiment files.
        description: one line for error messages and docs.
        schema: the kind's settings as a JSON-schema fragment: ``properties`` (top-level
            keys it adds), ``required`` (those it needs), ``profile_properties`` (those a
            ``profiles:`` entry may override) and optionally ``allOf`` (conditions between
            them). Merged with ``workflow/schemas/experiment.schema.yaml``.
        points_key: the setting that holds the experiment's points (the records' ``point``:
            curve points, noise levels, ...), or None when the kind has no such list.
        job_settings: ``spec -> dict``: everything a job needs besides its units; it is a
            rule parameter, so changing it reruns the experiment's jobs and nothing else.
        units: ``spec -> [unit, ...]``: the units of work of one dataset, in a fixed order.
        run_unit: ``(dataset, job_settings, unit, progress) -> records`` (a DataFrame with
            :data:`~redecorate.stats.summary.RECORD_COLUMNS` and then ``record_columns``).
            Pure: the same arguments give the same records, whenever and wherever it runs.
        unit_cost: ``(job_settings, unit, shape) -> float``: estimated CPU seconds of one
            unit on a dataset of that shape; only job sizes depend on it, never results.
        report: ``(records, summary, outputs, settings) -> None`` writes the report files.
        check: ``spec -> None``: checks across keys that a schema cannot express; raises
            :class:`redecorate.config.ConfigError` naming the file and key.
        check_datasets: ``(spec, entries) -> None``: checks that need the registry's
            declared sizes of the experiment's datasets (``entries``: dataset -> its
            :class:`redecorate.data.DatasetEntry`), e.g. a batch larger than a dataset's
            training fold; run when the experiment is read with the registry, so before any
            job rather than inside one.
        record_columns: columns the kind's records carry after the common ones.
        algorithm_settings: the job setting that maps each algorithm label to that
            algorithm's own settings. A unit's records depend on the other job settings, its
            own entry and the unit, and on the ``experiment`` setting only as the label written
            into their ``experiment`` column: so identical units of two experiments (the
            same system under the same protocol) share records (:mod:`redecorate.job_records`).
        algorithms_are_learners: whether the ``algorithms:`` entries are learners of
            :mod:`redecorate.learners.registry` (checked, with their parameters, before any
            job). A kind whose ``algorithms`` name something else (active-learning systems,
            a baseline rule) sets False and checks them in ``check``.
    """

    name: str
    description: str
    schema: Mapping[str, Any]
    job_settings: Callable[[Any], dict[str, Any]]
    units: Callable[[Any], Sequence[Unit]]
    run_unit: Callable[[Any, Mapping[str, Any], Unit, Progress], pd.DataFrame]
    unit_cost: Callable[[Mapping[str, Any], Unit, DatasetShape], float]
    report: Callable[[pd.DataFrame, pd.DataFrame, ReportOutputs, Mapping[str, Any]], None]
    points_key: str | None = "points"
    check: Callable[[Any], None] | None = None
    check_datasets: Callable[[Any, Mapping[str, Any]], None] | None = None
    record_columns: tuple[str, ...] = field(default_factory=tuple)
    algorithms_are_learners: bool = True
    algorithm_settings: str = "algorithms"
