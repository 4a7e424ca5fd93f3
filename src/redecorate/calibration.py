"""The cost plan against measured CPU: what each experiment's jobs were planned to cost
(:func:`redecorate.kinds.jobs.plan_experiment`) and what they took (``provenance.json``).

Why: jobs are packed by estimated CPU (``job_seconds``), so a cost model that is off by 2–5×
makes jobs of ten minutes where a few were meant, and cluster time limits (``runtime``) that
kill them. The model is a guess per learner and kind; the committed provenance files are the
measurement it is calibrated against, and ``tests/test_cost_calibration.py`` keeps it there.

The plan is rebuilt from what the provenance file says was run (kind, scale, datasets,
algorithms, runs, folds, points, seed, the kind's settings) on top of the experiment file of
the same name in ``config/experiments`` (for the learners' registry names), so it prices the
units that ran, with today's cost model. The measured CPU of a job is its records' own process
CPU plus, for units taken from an earlier run (``records_from``), the CPU they took there;
Snakemake's sampled benchmark CPU where a job has no records metadata (it misses a job's last
seconds).

The model prices today's code, and the code got faster: CPU measured at a commit listed in
``config/engine_revisions.tsv`` (with the engines whose speed levers it lacked) is converted
to today's code by the model's own ratio for that dataset's units, today's price over the
price before those levers (:func:`redecorate.learners.cost.priced_before_levers`), so a 0.46×
lever counts only for the learners that run on that engine, and chapter 8's merged masked
rows only for the fits that merge them. A provenance file
lists each job's CPU by the commit that computed it (``cpu_s_by_commit``); an older one
counts a job's CPU at the job's commit, and a job without one at the engines before the levers.
"""

from __future__ import annotations

import csv
import dataclasses
import json
import warnings
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from redecorate.data import load_registry
from redecorate.experiments import load_experiment
from redecorate.kinds import get_kind
from redecorate.kinds.jobs import (
    DEFAULT_TARGET_SECONDS,
    data_loader,
    dataset_shape,
    plan_experiment,
)
from redecorate.learners.cost import priced_before_levers
from redecorate.learners.registry import ALGORITHMS
from redecorate.provenance import recorded_file

__all__ = ["ENGINE_REVISIONS", "Calibration", "Lacked", "engine_revisions", "levers_lacked", "measured_job_cpu",
           "plan_of_provenance", "planned_vs_measured", "spec_of_provenance"]

ENGINE_REVISIONS = Path("config") / "engine_revisions.tsv"
"""The commits that ran an engine before its speed levers, relative to the repository
(written by ``tools/engine_revisions.py`` from git)."""


_NO_COMMIT = frozenset({"None", "unknown"})
"""A measurement that names no commit (a job before records named theirs, a reused unit whose
origin file is gone) is older than the engines' levers, which came after commits were recorded."""


def engine_revisions(repo: str | Path) -> dict[str, frozenset[str]]:
    """Commit -> the engines whose speed levers its units ran without
    (:data:`ENGINE_REVISIONS`; empty when the repository has no such file). A commit not
    listed ran today's code."""
    path = Path(repo) / ENGINE_REVISIONS
    if not path.is_file():
        return {}
    found: dict[str, set[str]] = {}
    with path.open(encoding="utf-8", newline="") as handle:
        for row in csv.DictReader((line for line in handle if not line.startswith("#")), delimiter="\t"):
            found.setdefault(row["commit"], set()).add(row["engine"])
    return {commit: frozenset(engines) for commit, engines in found.items()}


def levers_lacked(commit: str | None, earlier: Mapping[str, frozenset[str]]) -> frozenset[str] | None:
    """The engines whose levers a unit computed at ``commit`` lacked: those ``earlier`` lists
    for it, none for a commit it does not list, every engine's (None) for a measurement that
    names no commit (:data:`_NO_COMMIT`)."""
    if commit is None or str(commit) in _NO_COMMIT:
        return None
    return earlier.get(str(commit), frozenset())


@dataclasses.dataclass(frozen=True)
class Calibration:
    """Planned and measured CPU seconds of one experiment's jobs, in total and per dataset."""

    experiment: str
    scale: str
    planned: float
    measured: float
    per_dataset: dict[str, tuple[float, float]]  # dataset -> (planned, measured)

    @property
    def ratio(self) -> float:
        """Planned / measured CPU (1 = exact; below 1 the plan underestimates)."""
        return self.planned / self.measured


Lacked = frozenset[str] | None
"""The engines whose speed levers a measurement ran without (None: every engine's)."""


def measured_job_cpu(provenance: Mapping[str, Any], earlier: Mapping[str, frozenset[str]] | None = None,
                     ) -> dict[str, dict[Lacked, float]]:
    """``dataset/chunkN`` -> its CPU seconds by the levers their code lacked
    (:func:`levers_lacked`: an empty set is today's code), for every experiment job with a
    measurement; ``earlier`` is :func:`engine_revisions`."""
    earlier = earlier or {}
    out: dict[str, dict[Lacked, float]] = {}
    for job in provenance["jobs"]:
        label = job["job"]
        if not label.startswith("experiment_job/"):
            continue
        records = job.get("records") or {}
        if records.get("cpu_s_by_commit"):
            by_commit = {c: float(s) for c, s in records["cpu_s_by_commit"].items()}
        elif records.get("cpu_s") is not None:
            by_commit = {str(records.get("commit")): float(records["cpu_s"]) + float(records.get("reused_cpu_s") or 0.0)}
        elif job.get("cpu_s") is not None:
            by_commit = {str(records.get("commit")): float(job["cpu_s"])}
        else:
            continue
        by_levers: dict[Lacked, float] = {}
        for commit, seconds in by_commit.items():
            lacked = levers_lacked(commit, earlier)
            by_levers[lacked] = by_levers.get(lacked, 0.0) + seconds
        out[label.removeprefix("experiment_job/")] = by_levers
    return out


def _experiment_file(provenance: Mapping[str, Any], repo: Path) -> Path | None:
    """The experiment file in ``repo``: ``config/experiments/<name>.yaml``, or the file the run
    recorded, found by the longest tail of its (absolute, other checkout's) path that exists
    here (:func:`redecorate.provenance.recorded_file`), e.g.
    ``reproduced/ch7_readings/ch7_readings_rejection.yaml`` for a readings run."""
    default = repo / "config" / "experiments" / f"{provenance['experiment']['name']}.yaml"
    if default.is_file():
        return default
    return recorded_file(provenance["experiment"].get("file"), repo)


def spec_of_provenance(provenance: Mapping[str, Any], repo: str | Path) -> Any | None:
    """The :class:`~redecorate.protocol.experiment.ExperimentSpec` a provenance file says was run, or
    None when the file predates the record of settings or the repository has no experiment
    file of that name or at the recorded path (it supplies the learners' registry names)."""
    repo = Path(repo)
    ran = provenance["experiment"]["settings"]
    path = _experiment_file(provenance, repo)
    if "settings" not in ran or path is None:
        return None
    spec = load_experiment(path, schema=repo / "workflow" / "schemas" / "experiment.schema.yaml",
                           scale=ran["scale"], known_algorithms=list(ALGORITHMS),
                           known_datasets=load_registry(repo / "config" / "datasets.yaml"))
    protocol = dataclasses.replace(spec.protocol, runs=ran["runs"], folds=ran["folds"],
                                   points=tuple(ran["points"]), seed=ran["seed"],
                                   datasets=tuple(ran["datasets"]))
    own = get_kind(spec.kind).settings
    return dataclasses.replace(
        spec, kind=ran["kind"], protocol=protocol, algorithms=dict(ran["algorithms"]),
        settings=own.from_mapping({k: v for k, v in ran["settings"].items() if k in own.names()}),
        learners={label: spec.learner_of(label) for label in ran["algorithms"]})


def plan_of_provenance(provenance: Mapping[str, Any], repo: str | Path,
                       target_seconds: float | None = None) -> dict[str, list[Any]] | None:
    """Today's plan (dataset -> chunks) of the experiment a provenance file describes, or None
    (see :func:`spec_of_provenance`)."""
    with warnings.catch_warnings():
        # A run recorded before a parameter was renamed spells it the old way: that is its
        # record, not a mistake in a file someone edits now.
        warnings.simplefilter("ignore", FutureWarning)
        spec = spec_of_provenance(provenance, repo)
        if spec is None:
            return None
        if target_seconds is None:
            target_seconds = float(provenance["config"]["values"].get("job_seconds") or DEFAULT_TARGET_SECONDS)
        return plan_experiment(spec, load_registry(Path(repo) / "config" / "datasets.yaml"), target_seconds)


def _priced_seconds(provenance: Mapping[str, Any], repo: str | Path) -> dict[str, float] | None:
    """Today's CPU of each dataset's units of the run a provenance file describes, priced as
    the plan command and the cluster limits price them: from the data where a kind's cost
    depends on it (chapter 8's coinciding masked rows, Oza's online boosting), loaded from the
    run's ``data_dir`` or ``data_mirror`` (relative paths from ``repo``, where the run was
    made); from the declared sizes alone where neither is at hand."""
    plan = plan_of_provenance(provenance, repo)
    if plan is None:
        return None
    spec = spec_of_provenance(provenance, repo)
    kind = get_kind(spec.kind)
    settings = kind.job_settings(spec)
    registry = load_registry(Path(repo) / "config" / "datasets.yaml")
    values = provenance["config"]["values"]
    mirror = values.get("data_mirror")
    data_dir = Path(repo) / (values.get("data_dir") or "data")
    out: dict[str, float] = {}
    for dataset, chunks in plan.items():
        shape = dataclasses.replace(dataset_shape(registry[dataset], dataset),
                                    data=data_loader(dataset, registry, data_dir,
                                                     None if mirror is None else Path(repo) / mirror))
        out[dataset] = sum(max(0.0, float(kind.unit_cost(settings, unit, shape)))
                           for chunk in chunks for unit in chunk.units)
    return out


def planned_vs_measured(path: str | Path, repo: str | Path) -> Calibration | None:
    """Planned vs measured CPU of the experiment of one ``provenance.json``; None when it has
    no measured experiment jobs or its experiment file is gone."""
    provenance = json.loads(Path(path).read_text(encoding="utf-8"))
    measured = measured_job_cpu(provenance, engine_revisions(repo))
    if not measured:
        return None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)  # as in plan_of_provenance
        plan = _priced_seconds(provenance, repo)
        if plan is None:
            return None
        earlier_plans: dict[Lacked, dict[str, float]] = {}
        for lacked in {lacked for by_levers in measured.values() for lacked in by_levers if lacked != frozenset()}:
            with priced_before_levers(lacked):
                earlier_plans[lacked] = _priced_seconds(provenance, repo) or {}
    per_dataset: dict[str, tuple[float, float]] = {}
    for dataset, today in plan.items():
        jobs = [by_levers for label, by_levers in measured.items() if label.split("/")[0] == dataset]
        if jobs:  # the plan prices only the datasets whose jobs were measured
            total = 0.0
            for by_levers in jobs:
                for lacked, seconds in by_levers.items():
                    if lacked == frozenset():
                        total += seconds
                        continue
                    then = earlier_plans[lacked].get(dataset, 0.0)
                    total += seconds * (today / then if then > 0 else 1.0)  # the model's own levers
            per_dataset[dataset] = (today, total)
    ran = provenance["experiment"]["settings"]
    return Calibration(provenance["experiment"]["name"], ran["scale"],
                       sum(p for p, _ in per_dataset.values()), sum(m for _, m in per_dataset.values()),
                       per_dataset)
