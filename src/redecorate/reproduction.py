"""A reproduction's records, as the replication report of every published table reads them.

A *records root* is a directory laid out like ``results/`` (``reproduced/`` for the committed
runs): each experiment's combined ``<experiment>/records.parquet``, and for an experiment run
in parts (one half of ``ch8_afa`` as a pilot of its own) the ``records.parquet`` of the
sub-directories whose ``provenance.json`` names the same experiment. This module reads them,
loads each experiment file at the thesis scale (the protocol a table is measured against) and
asks the experiment's kind for its evidence (:class:`redecorate.kinds.report_keys.DeferredReport`),
then hands everything to :func:`redecorate.report.replication_index.build_index`. It sits
above the kinds and the reports, which it both uses, so neither imports the other for it.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from redecorate.report.agreement import evidence_frame
from redecorate.report.contents import CONTENTS_FILE, read_contents
from redecorate.report.replication_index import (
    THESIS,
    ExperimentEvidence,
    ReplicationIndex,
    build_index,
)

__all__ = ["RECORD_KEYS", "Inputs", "experiment_evidence", "experiment_records", "replication_index"]

RECORD_KEYS: tuple[str, ...] = ("experiment", "dataset", "algorithm", "run", "fold", "point", "metric", "order")
"""What identifies a record (``order``: an online learner's stream order, where there is one)."""


@dataclass(frozen=True)
class Inputs:
    """Where the replication report's inputs are: the records root and the configuration.

    ``runs``: read only the records of runs ``0 .. runs - 1`` of every experiment (None: all).
    With 1, a campaign's first run alone, as its pilot measured it: what the thesis-scale runs
    changed in a table's verdict and measures (``tools/scale_comparison.py``).
    """

    records: Path
    published: Path
    experiments: Path
    schema: Path
    registry: Path
    runs: int | None = None
    scale: str = "thesis"
    """The scale the records under ``records`` were run at (the workflow's ``scale``): below the
    thesis's, every table they reach is not comparable with the source, and the report says so."""

    @classmethod
    def of_repository(cls, records: str | os.PathLike[str], repo: str | os.PathLike[str],
                      runs: int | None = None) -> Inputs:
        """The records under ``records`` with the configuration of the repository ``repo``."""
        repo = Path(repo)
        return cls(Path(records), repo / "config" / "published", repo / "config" / "experiments",
                   repo / "workflow" / "schemas" / "experiment.schema.yaml", repo / "config" / "datasets.yaml",
                   runs)


def _provenance_experiment(directory: Path) -> str | None:
    path = directory / "provenance.json"
    if not path.is_file():
        return None
    return str(json.loads(path.read_text(encoding="utf-8")).get("experiment", {}).get("name", "")) or None


def experiment_records(root: str | os.PathLike[str], experiment: str) -> pd.DataFrame | None:
    """The combined records of ``experiment`` under ``root``: ``<experiment>/records.parquet``
    and those of its sub-directories whose provenance names the experiment, with a record that
    two of them hold kept once; None when there is none.

    Only combined records count, never the per-job files beside them: the reports are made
    from the combined ones, and a job of an unfinished run is not part of any table yet.
    """
    directory = Path(root) / experiment
    paths = [directory / "records.parquet"] if (directory / "records.parquet").is_file() else []
    if directory.is_dir():
        paths += [sub / "records.parquet" for sub in sorted(p for p in directory.iterdir() if p.is_dir())
                  if (sub / "records.parquet").is_file() and _provenance_experiment(sub) == experiment]
    if not paths:
        return None
    frames = [pd.read_parquet(p) for p in paths]
    records = pd.concat(frames, ignore_index=True) if len(frames) > 1 else frames[0]
    keys = [k for k in RECORD_KEYS if k in records.columns]
    return records.drop_duplicates(keys, keep="first").reset_index(drop=True)


def experiment_evidence(inputs: Inputs, name: str,
                        registry: Mapping[str, Any] | None = None) -> ExperimentEvidence:
    """An experiment's records, its evidence and the thesis protocol it is measured against;
    with the dataset ``registry``, also each dataset's planned CPU hours at that protocol."""
    from redecorate.experiments import load_experiment, report_settings, without_datasets
    from redecorate.kinds import get_kind
    from redecorate.kinds.jobs import plan_experiment, planned_hours

    spec = load_experiment(inputs.experiments / f"{name}.yaml", schema=inputs.schema, scale=THESIS)
    # Priced where the registry knows the dataset: a user's own registry (a workflow run with
    # `registry=...`) may lack some of a shipped file's datasets, which then go unpriced.
    unknown = [d for d in spec.datasets if registry is None or d not in registry]
    planned = {} if len(unknown) == len(spec.datasets) else {
        dataset: planned_hours(chunks)
        for dataset, chunks in plan_experiment(without_datasets(spec, unknown), registry).items()}  # fmt: skip
    records = experiment_records(inputs.records, name)
    if records is not None and inputs.runs is not None and "run" in records.columns:
        records = records[records["run"] < inputs.runs].reset_index(drop=True)
    evidence = evidence_frame([])
    if records is not None and len(records):
        report = get_kind(spec.kind).report
        if not hasattr(report, "evidence"):
            raise TypeError(f"experiment {name}: kind {spec.kind!r} names its report without "
                            "redecorate.kinds.report_keys.deferred_report, so it has no evidence")
        evidence = report.evidence(records, report_settings(spec, inputs.published))
    orders = getattr(spec.settings, "orders", None)
    return ExperimentEvidence(name, records, evidence_frame(evidence), spec.protocol.runs,
                              int(orders) if orders is not None else None, tuple(spec.datasets), planned)


def replication_index(inputs: Inputs) -> ReplicationIndex:
    """The replication report's rows for every table and figure of the contents file."""
    from redecorate.data import load_registry

    items = read_contents(inputs.published / CONTENTS_FILE)
    names = list(dict.fromkeys(e for item in items for e in item.experiments))
    registry = load_registry(inputs.registry)
    experiments = {name: experiment_evidence(inputs, name, registry) for name in names}
    offline_only = {name for name, entry in registry.items() if entry.needs_network}
    return build_index(items, experiments, root=inputs.records, published=inputs.published,
                       offline_only=offline_only, run_scale=inputs.scale)
