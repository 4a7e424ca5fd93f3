"""What a run has left to do: units, units already recorded, CPU left, jobs and their bundling.

Why: ``snakemake -n`` lists jobs but says nothing of effort, and adding up the jobs'
``runtime`` resources (cluster time limits, 10x the estimate and at least 20 minutes:
:func:`redecorate.kinds.jobs.runtime_minutes`) overstates it many times over. A researcher
planning a cluster allocation, or continuing a long campaign with ``records_from``, needs per
experiment: how many units of work it has, how many are already recorded (found by unit key
exactly as a job finds them, :func:`redecorate.job_records.kept_units`), the CPU the
calibrated cost plan puts on the rest, how far the plan was off on the units already
measured, and how many jobs (and, with the SLURM profile, cluster jobs) remain.

Usage, from the repository root, with the workflow's own ``--config`` values::

    python3 -m redecorate.plan records_from=reproduced data_mirror=../shared/datasets/uci
    python3 -m redecorate.plan --profile workflow/profiles/slurm experiments=[ch8_afa] --by-dataset
    python3 -m redecorate.plan experiments=[ch8_afa] --by-algorithm   # to slice a table by algorithm
    python3 -m redecorate.plan experiments=[ch8_afa] --targets        # the jobs left, as Snakemake targets

The configuration is read by :func:`redecorate.run_config.load_run`, the same function the
workflow uses, so the plan prices exactly the jobs Snakemake would run.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import yaml

from redecorate.calibration import engine_revisions, levers_lacked
from redecorate.config import ExperimentConfigError
from redecorate.job_records import kept_units, unit_key
from redecorate.kinds import ExperimentSpec, get_kind
from redecorate.kinds.jobs import data_loader, dataset_shape, plan_experiment, runtime_minutes
from redecorate.learners.cost import priced_before_levers
from redecorate.run_config import command_line, load_run, parse_config_values

__all__ = ["AlgorithmCost", "Bundling", "DatasetPlan", "ExperimentPlan", "experiment_plan", "format_plan", "left_job_targets", "main",
           "read_bundling"]

_HOUR = 3600.0


@dataclass(frozen=True)
class AlgorithmCost:
    """One algorithm label's units of a dataset plan: recorded (count, planned and measured
    seconds), planned seconds left, and all its units and their planned seconds.

    Why per algorithm: an experiment is sliced by algorithm (``algorithms=[...]``) to share
    a table between machines, and its algorithms' costs differ by orders of magnitude (a
    single network and online bagging of 100 of them)."""

    recorded: int = 0
    done_planned_s: float = 0.0
    done_measured_s: float = 0.0
    left_s: float = 0.0
    units: int = 0
    planned_s: float = 0.0

    def __add__(self, other: AlgorithmCost) -> AlgorithmCost:
        return AlgorithmCost(*(a + b for a, b in zip(dataclasses.astuple(self), dataclasses.astuple(other),
                                                     strict=True)))

    def as_plan(self, experiment: str, scale: str, label: str) -> ExperimentPlan:
        """This algorithm's units as a plan of their own, for a row of the table (its jobs
        are not its own: a job may hold units of several algorithms)."""
        row = DatasetPlan(label, self.units, self.recorded, 0, 0, self.planned_s, self.left_s,
                          self.done_planned_s, self.done_measured_s, 0, {label: self})
        return ExperimentPlan(experiment, scale, (row,))


@dataclass(frozen=True)
class DatasetPlan:
    """One dataset of one experiment: units and seconds, all and left."""

    dataset: str
    units: int
    recorded: int
    jobs: int
    jobs_left: int
    planned_s: float
    left_s: float
    done_planned_s: float
    done_measured_s: float
    limit_minutes_left: int
    algorithms: Mapping[str, AlgorithmCost] = field(default_factory=dict)
    left_jobs: tuple[int, ...] = ()
    """The indices of the jobs left (``records/<dataset>/chunk<index>.parquet``)."""


@dataclass(frozen=True)
class ExperimentPlan:
    """The plan of one experiment at the selected scale, summed over its datasets."""

    experiment: str
    scale: str
    datasets: tuple[DatasetPlan, ...] = field(default=())

    def _sum(self, name: str) -> float:
        return sum(getattr(d, name) for d in self.datasets)

    units = property(lambda self: int(self._sum("units")))
    recorded = property(lambda self: int(self._sum("recorded")))
    jobs = property(lambda self: int(self._sum("jobs")))
    jobs_left = property(lambda self: int(self._sum("jobs_left")))
    planned_s = property(lambda self: self._sum("planned_s"))
    left_s = property(lambda self: self._sum("left_s"))
    done_planned_s = property(lambda self: self._sum("done_planned_s"))
    done_measured_s = property(lambda self: self._sum("done_measured_s"))
    limit_minutes_left = property(lambda self: int(self._sum("limit_minutes_left")))

    @property
    def algorithms(self) -> dict[str, AlgorithmCost]:
        """Algorithm label -> its units summed over the datasets, in the file's order."""
        labels: dict[str, AlgorithmCost] = {}
        for d in self.datasets:
            for label, cost in d.algorithms.items():
                labels[label] = labels.get(label, AlgorithmCost()) + cost
        return labels

    @property
    def projected_left_s(self) -> float | None:
        """CPU left, each algorithm's share corrected by how far the plan was off on that
        algorithm's recorded units (from 3 on; else as planned): a ratio measured on J48's
        units says nothing of DECORATE's. None when no algorithm has 3 recorded units."""
        corrected, measured_any = 0.0, False
        for cost in self.algorithms.values():
            if cost.recorded >= 3 and cost.done_measured_s > 0 and cost.done_planned_s > 0:
                corrected += cost.left_s * cost.done_measured_s / cost.done_planned_s
                measured_any = True
            else:
                corrected += cost.left_s
        return corrected if measured_any else None

    @property
    def plan_ratio(self) -> float | None:
        """Planned / measured CPU over the units already recorded (1 = exact; None when
        nothing recorded carries a measured CPU)."""
        if self.done_measured_s <= 0:
            return None
        return self.done_planned_s / self.done_measured_s


@dataclass(frozen=True)
class Bundling:
    """How a cluster profile bundles experiment jobs: ``components`` per cluster job, run
    ``cores`` at a time inside it (Snakemake's ``group-components`` and ``cores``)."""

    profile: str
    components: int
    cores: int


@cache
def _kept(root: str, dataset: str) -> Mapping[str, Any]:
    """Unit key -> kept unit under one records directory (read once per dataset)."""
    return kept_units(root, dataset)


def _recorded(roots: Sequence[str], dataset: str) -> dict[str, tuple[float | None, str | None]]:
    """Unit key -> its measured CPU seconds (None: apportioned from a whole run's,
    :attr:`~redecorate.job_records.KeptUnit.cpu_apportioned`) and the commit that spent them,
    over every records directory given."""
    found: dict[str, tuple[float | None, str | None]] = {}
    for root in roots:
        if Path(root).is_dir():
            for key, kept in _kept(root, dataset).items():
                if key not in found:
                    found[key] = (None if kept.cpu_apportioned else float(kept.cpu_s), kept.commit)
    return found


def experiment_plan(spec: ExperimentSpec, registry: Mapping[str, Any], target_seconds: float,
                    record_roots: Sequence[str | Path],
                    data: Callable[[str], Callable[[], Any]] | None = None,
                    earlier: Mapping[str, frozenset[str]] | None = None) -> ExperimentPlan:
    """The plan of one experiment: its jobs
    as the workflow plans them, each unit priced by the kind's cost model and looked up by
    unit key under ``record_roots`` (``records_from`` and this scale's results directory).

    ``data`` (dataset -> a loader, :func:`data_loader`) lets a kind whose cost depends on the
    data price from it (chapter 8's: how many masked rows coincide); the jobs are packed as
    the workflow packs them, from the declared sizes alone.

    A recorded unit computed at a commit in ``earlier`` (commit -> the engines whose speed
    levers it lacked: :func:`redecorate.calibration.engine_revisions`) is compared with its
    price before those levers, so plan/measured says how far today's model is from what it
    prices."""
    kind = get_kind(spec.kind)
    settings = kind.job_settings(spec)
    roots = [str(r) for r in record_roots]
    rows = []
    for dataset, chunks in plan_experiment(spec, registry, target_seconds).items():
        shape = dataset_shape(registry[dataset], dataset)
        if data is not None:
            shape = dataclasses.replace(shape, data=data(dataset))
        recorded = _recorded(roots, dataset)
        units = done = jobs_left = limits = 0
        planned = left = done_planned = done_measured = 0.0
        algorithms: dict[str, AlgorithmCost] = {}
        left_jobs: list[int] = []
        for index, chunk in enumerate(chunks):
            chunk_left = False
            for unit in chunk.units:
                cost = max(0.0, float(kind.unit_cost(settings, unit, shape)))
                units += 1
                planned += cost
                key = unit_key(kind, settings, unit, dataset)
                if key in recorded and recorded[key][0] is None:  # recorded, its own CPU unknown
                    done += 1
                    share = AlgorithmCost(recorded=1, units=1, planned_s=cost)
                elif key in recorded:
                    done += 1
                    measured, commit = recorded[key]
                    lacked = levers_lacked(commit, earlier or {})
                    if lacked != frozenset():
                        with priced_before_levers(lacked):
                            then = max(0.0, float(kind.unit_cost(settings, unit, shape)))
                        measured *= cost / then if then > 0 else 1.0  # at today's engines
                    done_planned += cost
                    done_measured += measured
                    share = AlgorithmCost(1, cost, measured, 0.0, 1, cost)
                else:
                    left += cost
                    chunk_left = True
                    share = AlgorithmCost(left_s=cost, units=1, planned_s=cost)
                label = str(unit.get("algorithm"))
                algorithms[label] = algorithms.get(label, AlgorithmCost()) + share
            if chunk_left:
                jobs_left += 1
                left_jobs.append(index)
                limits += runtime_minutes(chunk)
        rows.append(DatasetPlan(dataset, units, done, len(chunks), jobs_left, planned, left,
                                done_planned, done_measured, limits, algorithms, tuple(left_jobs)))
    return ExperimentPlan(spec.name, str(spec.scale), tuple(rows))


def read_bundling(profile: str | Path) -> Bundling:
    """The experiment jobs' bundling of a Snakemake profile directory (or its
    ``config.yaml``): the group of rule ``experiment_job``, its ``group-components`` and the
    profile's ``cores``; one job per cluster job when the profile groups nothing."""
    path = Path(profile)
    path = path / "config.yaml" if path.is_dir() else path
    try:
        values = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except (OSError, yaml.YAMLError) as exc:
        raise SystemExit(f"--profile {profile}: cannot read {path}: {exc}") from None

    def pairs(key: str) -> dict[str, str]:
        items = values.get(key) or []
        items = [f"{k}={v}" for k, v in items.items()] if isinstance(items, Mapping) else items
        return dict(str(item).split("=", 1) for item in items if "=" in str(item))

    group = pairs("groups").get("experiment_job")
    components = int(pairs("group-components").get(group, 1)) if group else 1
    return Bundling(str(profile), max(1, components), max(1, int(values.get("cores") or 1)))


def left_job_targets(results: str | Path, plans: Mapping[str, ExperimentPlan]) -> list[str]:
    """The record file of every job left, as Snakemake names its output, for ``plans`` keyed by
    the experiment's folder under the ``results`` root (a slice's ``<name>.slice-<hash>``).

    Why: Snakemake takes output files as targets, so a list of the jobs left is how a table
    is shared between machines job by job (``snakemake ... $(sed -n '1~2p' left.txt)`` on one,
    ``'2~2p'`` on the other), where a slice by algorithm or dataset cannot split it further
    (one algorithm's units on one dataset); every machine then reads the others' records
    through ``records_from``, and a later run of the whole experiment combines them."""
    root = str(results).rstrip("/") or "."
    return [f"{root}/{folder}/records/{d.dataset}/chunk{index}.parquet"
            for folder, plan in plans.items() for d in plan.datasets for index in d.left_jobs]


@dataclass(frozen=True)
class FixedCosts:
    """CPU seconds a run spends besides its units' fits, which the cost model does not price.

    Why: a thesis run is all fits, but a quick run is mostly these (one quick ``ch4_passive``,
    measured on 2026-12-02 on the 2-core VM with the numba cache warm: 61 s of user CPU, of
    which the units' fits took 28 s). The figures are that run's: Snakemake's parse of the
    workflow, a job process's start-up (imports and the compiled kernels' cache), a dataset's
    preparation, an experiment's combining, figures and report, and the replication report.
    """

    parse_s: float = 4.0
    job_start_s: float = 2.0
    dataset_s: float = 1.5
    experiment_s: float = 8.0
    replication_s: float = 6.0
    first_compile_s: float = 110.0
    """The first run on an installation compiles the numba kernels: 171 s of user CPU from an
    empty cache against 61 s warm, the same quick run."""

    def seconds(self, *, jobs: int, datasets: int, experiments: int) -> float:
        """The fixed CPU of a run with ``jobs`` jobs left, over ``datasets`` and ``experiments``
        (a run with nothing left still parses, so that much is always paid)."""
        if not jobs:
            return self.parse_s
        return (self.parse_s + jobs * self.job_start_s + datasets * self.dataset_s
                + experiments * self.experiment_s + self.replication_s)


FIXED_COSTS = FixedCosts()


def _hours(seconds: float) -> str:
    hours = seconds / _HOUR
    return f"{hours:,.1f}" if hours >= 0.05 or seconds == 0 else "<0.1"


def _ratio(plan: ExperimentPlan) -> str:
    ratio = plan.plan_ratio
    return "–" if ratio is None else f"{ratio:.2f}"


def _projected(plan: ExperimentPlan) -> str:
    """CPU left corrected, algorithm by algorithm, by how far the plan was off on the recorded
    units (:attr:`ExperimentPlan.projected_left_s`)."""
    projected = plan.projected_left_s
    return "–" if projected is None else _hours(projected)


_HEADER = ("| experiment | scale | units | recorded | left | jobs | jobs left | CPU h, all (plan) "
           "| CPU h left (plan) | plan / measured, recorded units | CPU h left (× measured) |\n"
           "| --- | --- | --: | --: | --: | --: | --: | --: | --: | --: | --: |")


def _row(name: str, scale: str, plan: ExperimentPlan | Any, *, jobs: bool = True) -> str:
    job_cells = f"{plan.jobs:,} | {plan.jobs_left:,}" if jobs else "– | –"
    return (f"| {name} | {scale} | {plan.units:,} | {plan.recorded:,} | {plan.units - plan.recorded:,} "
            f"| {job_cells} | {_hours(plan.planned_s)} | {_hours(plan.left_s)} "
            f"| {_ratio(plan)} | {_projected(plan)} |")


def _algorithm_rows(plan: ExperimentPlan, indent: str) -> list[str]:
    """A row per algorithm label of ``plan``, summed over its datasets, in the file's order."""
    return [_row(f"{indent}{label}", "", cost.as_plan(plan.experiment, plan.scale, label), jobs=False)
            for label, cost in plan.algorithms.items()]


def format_plan(plans: Sequence[ExperimentPlan], *, records: Sequence[str], by_dataset: bool = False,
                by_algorithm: bool = False, bundling: Bundling | None = None, cores: int = 1,
                skipped: Mapping[str, Mapping[str, str]] | None = None) -> str:
    """The plan as Markdown: one row per experiment (and dataset), the total, what a local
    run or a cluster allocation needs, and how to read the columns."""
    lines = [f"Units already recorded are looked up by unit key in: {', '.join(records) or '(nothing)'}.",
             "", _HEADER]
    for plan in plans:
        lines.append(_row(f"`{plan.experiment}`", plan.scale, plan))
        if by_algorithm and not by_dataset:
            lines += _algorithm_rows(plan, "  · ")
        if by_dataset:
            for d in plan.datasets:
                one = ExperimentPlan(plan.experiment, plan.scale, (d,))
                lines.append(_row(f"  {d.dataset}", "", one))
                if by_algorithm:
                    lines += _algorithm_rows(one, "    · ")
    total = ExperimentPlan("total", "", tuple(d for plan in plans for d in plan.datasets))
    lines.append(_row("**total**", "", total))
    left_jobs, left_s = total.jobs_left, total.left_s
    lines += ["", f"Left: {total.units - total.recorded:,} units in {left_jobs:,} jobs, "
              f"{_hours(left_s)} CPU h by the plan."]
    busy = [p for p in plans if p.jobs_left]
    n_datasets = sum(1 for p in busy for d in p.datasets if d.jobs_left)
    fixed = FIXED_COSTS.seconds(jobs=left_jobs, datasets=n_datasets, experiments=len(busy))
    lines.append(f"Besides the units' fits: about {fixed / 60:,.1f} CPU min of fixed costs (Snakemake's parse, "
                 f"{left_jobs:,} job start-ups, {n_datasets:,} dataset preparations, {len(busy):,} experiment "
                 "report(s) and the replication report: most of a quick run's CPU, negligible at the thesis "
                 "scale), "
                 f"and about {FIXED_COSTS.first_compile_s / 60:.0f} CPU min more on the first run of an "
                 "installation, which compiles the numba kernels.")
    if bundling is None:
        lines.append(f"Locally with --cores {cores}: about {_hours(left_s / max(1, cores))} h of wall time "
                     "(single-threaded jobs, one per core).")
    else:
        cluster_jobs = math.ceil(left_jobs / bundling.components) if left_jobs else 0
        lines.append(
            f"With the profile {bundling.profile}: {bundling.components} experiment jobs per cluster job, "
            f"run {bundling.cores} at a time: about {cluster_jobs:,} cluster jobs of {bundling.cores} CPUs. "
            f"Their time limits (`runtime`: 10x each job's estimate, at least 20 min) add up to "
            f"{total.limit_minutes_left / 60:,.0f} job-hours: a kill limit, not the cost; "
            f"allocate by the CPU h above.")
    for name, dropped in (skipped or {}).items():
        for dataset in dropped:
            lines.append(f"Not planned: `{name}` on {dataset} (offline: not in the data mirror).")
    lines += ["", "Columns: *recorded* units are found by unit key as a job with `records_from` finds "
              "them, so they are read, not computed. *plan / measured* is the cost plan's CPU over the "
              "measured CPU of the recorded units (1 = exact; below 1 the plan underestimates), leaving "
              "out units of runs keyed after the fact (`combined.parquet`), whose CPU is a share of the "
              "whole run's; "
              "*× measured* corrects the CPU left by it, algorithm by algorithm (an algorithm with fewer "
              "than 3 recorded units as planned; shown when one has 3). A job is "
              "*left* when any of its units is."]
    if by_algorithm:
        lines[-1] += (" Rows marked · are an algorithm's units (`algorithms=[...]` slices by them); a job "
                      "may hold units of several algorithms, so they have no job counts.")
    return "\n".join(lines) + "\n"


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python3 -m redecorate.plan",
        description="What a run of the workflow has left to do: units, recorded units, CPU "
                    "hours by the calibrated plan, jobs and cluster bundling. Takes the "
                    "workflow's --config values as key=value.")
    parser.add_argument("config", nargs="*", metavar="key=value",
                        help="configuration values, as after snakemake --config (e.g. scale=pilot "
                             "experiments=[ch6_active] records_from=reproduced)")
    parser.add_argument("--profile", help="a Snakemake profile (e.g. workflow/profiles/slurm): show "
                                          "how its cluster jobs bundle the jobs left")
    parser.add_argument("--cores", type=int, default=1, help="cores of a local run (wall-time estimate)")
    parser.add_argument("--by-dataset", action="store_true", help="a row per dataset too")
    parser.add_argument("--by-algorithm", action="store_true",
                        help="a row per algorithm label too (under each dataset with --by-dataset)")
    parser.add_argument("--targets", action="store_true",
                        help="print only the record file of each job left, one per line: Snakemake "
                             "targets, to share the jobs left between machines")
    parser.add_argument("--repo", default=".", help="the repository (default: the current directory)")
    return parser


def main(argv: Iterable[str] | None = None) -> int:
    """Print the plan of the configuration given on the command line."""
    parsed = command_line(_parser(), argv)
    if parsed is None:
        return 2
    args, repo = parsed
    try:
        run = load_run(parse_config_values(args.config), repo)
    except ExperimentConfigError as exc:
        print(f"Invalid configuration.\n{exc}", file=sys.stderr)
        return 2
    roots = [r for r in (run.config.get("records_from"), run.results) if r]
    roots = list(dict.fromkeys(str(r) for r in roots))
    loaders: dict[str, Callable[[], Any]] = {}

    def data(dataset: str) -> Callable[[], Any]:
        return loaders.setdefault(dataset, data_loader(dataset, run.registry, run.config["data_dir"],
                                                       run.config.get("data_mirror")))

    earlier = engine_revisions(repo)
    by_folder = {folder: experiment_plan(spec, run.registry, float(run.config["job_seconds"]), roots, data, earlier)
                 for folder, spec in run.experiments.items()}
    if args.targets:
        print("".join(f"{target}\n" for target in left_job_targets(run.results, by_folder)), end="")
        return 0
    plans = list(by_folder.values())
    bundling = read_bundling(args.profile) if args.profile else None
    print(format_plan(plans, records=roots, by_dataset=args.by_dataset, by_algorithm=args.by_algorithm,
                      bundling=bundling, cores=args.cores, skipped=run.skipped), end="")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
