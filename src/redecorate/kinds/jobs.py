"""Jobs: units of work grouped by estimated cost, and the body of every job.

Why group: a workflow job is a fresh Python process, and importing the scientific stack and
loading compiled code costs 2–3 s, more than a whole J48 learning curve on a small dataset.
One job per (algorithm, run) made start-up the bulk of the CPU on iris or labor. Units are
therefore packed, in a fixed order, into chunks of about ``target_seconds`` of estimated CPU
(the kind's ``unit_cost``): a small dataset becomes one job, a large one a job per unit.
A killed job loses at most its own chunk, and chunks of a few minutes keep cluster jobs in
the minutes range.

The packing depends only on the configuration and the registry's declared sizes, never on
timings, so every invocation plans the same jobs. The units of a chunk are its job's
parameters: changing an experiment reruns exactly the chunks whose units or settings
changed, and records never depend on how units were grouped.
"""

from __future__ import annotations

import dataclasses
import errno
import functools
import math
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from redecorate.data import load_dataset, load_prepared
from redecorate.kinds import get_kind
from redecorate.kinds.kind import DatasetShape, ExperimentKind, ExperimentSpec, Unit
from redecorate.kinds.unit import run_unit
from redecorate.protocol.settings import JobSettings

__all__ = [
    "DEFAULT_TARGET_SECONDS",
    "Chunk",
    "chunk_units",
    "data_loader",
    "dataset_shape",
    "plan_chunks",
    "plan_experiment",
    "priced_runtime_minutes",
    "run_units",
    "runtime_minutes",
]

DEFAULT_TARGET_SECONDS = 120.0
"""Estimated CPU seconds per job: start-up (~3 s) stays a few % and a job lasts minutes."""


@dataclass(frozen=True)
class Chunk:
    """The units of one job, with its estimated CPU seconds."""

    units: tuple[Unit, ...]
    estimated_seconds: float


RUNTIME_MARGIN = 10.0
"""A job's cluster time limit as a multiple of its estimated CPU (see :func:`runtime_minutes`)."""

RUNTIME_FLOOR_MINUTES = 20
"""The shortest cluster time limit a job asks for: queue and start-up costs dwarf less."""


def runtime_minutes(chunk: Chunk) -> int:
    """Minutes a cluster scheduler should allow one job (SLURM ``-t``, the rule's ``runtime``).

    A time limit, not an estimate: SLURM kills a job that overruns, and the plan is off by up
    to 2–3x for single datasets (``docs/performance.md``), so it errs high: 10x the estimate,
    at least 20 minutes. Summing these over a run overstates its CPU many times over; the
    planner (``python3 -m redecorate.plan``) reports the estimate and the limits apart.
    """
    return max(RUNTIME_FLOOR_MINUTES, math.ceil(RUNTIME_MARGIN * chunk.estimated_seconds / 60))


def planned_hours(chunks: Iterable[Chunk]) -> float:
    """The CPU hours the cost model plans for ``chunks``: what a report or a document quotes
    as a dataset's price at a protocol (one definition, so the two agree)."""
    return sum(c.estimated_seconds for c in chunks) / 3600


def data_loader(dataset: str, registry: Mapping[str, Any], data_dir: str | Path,
                mirror: str | Path | None) -> Callable[[], Any]:
    """Loads ``dataset`` once, when a cost model asks for it: the workflow's prepared copy
    (``<data_dir>/prepared/<dataset>.parquet``) if there is one, else the mirror's file; None
    when neither is at hand (nothing is downloaded to plan)."""

    @functools.cache
    def load() -> Any:
        prepared = Path(data_dir) / "prepared" / f"{dataset}.parquet"
        if prepared.is_file():
            found = load_prepared(prepared)
        elif mirror is not None:
            try:
                found = load_dataset(dataset, registry=registry, data_dir=data_dir, mirror=mirror)
            except Exception:  # noqa: BLE001 - only what the mirror has is priced from data
                return None
        else:
            return None
        return dataclasses.replace(found, name=dataset)

    return load


def priced_runtime_minutes(kind: ExperimentKind, settings: JobSettings, chunk: Chunk, shape: DatasetShape,
                           prepared: str | Path) -> int:
    """:func:`runtime_minutes` of a job about to start, its units priced with the prepared
    dataset at hand (``shape.data``) and the limit never below the packed estimate's.

    Why: jobs are packed from the declared sizes alone, but some costs depend on the data:
    which masked rows coincide (chapter 8), how many numeric values an online-boosted member
    rescans after each update (Oza's boosting: waveform's stumps cost 300 times what the
    size says). A cluster kills a job at its limit, so the limit is priced from the data once
    they exist. Raises :class:`FileNotFoundError` naming ``prepared`` while it does not: a
    workflow prices the job again when its input is there (Snakemake's deferred resources).
    """
    path = Path(prepared)
    if not path.is_file():
        raise FileNotFoundError(errno.ENOENT, "the prepared dataset does not exist yet", str(prepared))
    name = shape.name
    priced = dataclasses.replace(shape, data=lambda: _prepared(str(path), path.stat().st_mtime_ns, name))
    seconds = sum(max(0.0, float(kind.unit_cost(settings, unit, priced))) for unit in chunk.units)
    return runtime_minutes(Chunk(chunk.units, max(seconds, chunk.estimated_seconds)))


@functools.lru_cache(maxsize=4)
def _prepared(path: str, stamp: int, name: str) -> Any:
    """A prepared dataset under the experiment's name for it, read once per version of the
    file (``stamp``: its modification time) while jobs of it are being priced."""
    return dataclasses.replace(load_prepared(path), name=name)


def plan_chunks(
    units: Sequence[Unit],
    cost: Callable[[Unit], float],
    target_seconds: float = DEFAULT_TARGET_SECONDS,
) -> list[Chunk]:
    """Pack ``units`` in order into chunks of at most ``target_seconds`` of estimated cost.

    A unit costlier than the target is a chunk of its own. Consecutive packing (rather than
    bin packing) keeps the plan stable: appending units (more runs) appends chunks and leaves
    earlier full chunks, and their finished jobs, untouched.
    """
    if not target_seconds > 0:
        raise ValueError(f"target_seconds must be > 0, got {target_seconds!r}")
    chunks: list[Chunk] = []
    current: list[Unit] = []
    total = 0.0
    for unit in units:
        seconds = max(0.0, float(cost(unit)))
        if current and total + seconds > target_seconds:
            chunks.append(Chunk(tuple(current), total))
            current, total = [], 0.0
        current.append(unit)
        total += seconds
    if current:
        chunks.append(Chunk(tuple(current), total))
    return chunks


def chunk_units(
    kind: ExperimentKind,
    settings: JobSettings,
    units: Sequence[Unit],
    shape: DatasetShape,
    target_seconds: float = DEFAULT_TARGET_SECONDS,
) -> list[Chunk]:
    """:func:`plan_chunks` with the kind's own cost model for one dataset."""
    return plan_chunks(units, lambda unit: kind.unit_cost(settings, unit, shape), target_seconds)


def _unit_text(unit: Unit) -> str:
    return " ".join(f"{key}={value}" for key, value in unit.items())


def run_units(
    dataset: Any,
    kind: ExperimentKind,
    settings: JobSettings,
    units: Sequence[Unit],
    progress: Callable[[str], None] = print,
) -> list[tuple[pd.DataFrame, float]]:
    """Run units of one job in order: each unit's records and the CPU seconds it took.

    Progress: the kind's own lines (one per fold for ``passive``), and one line per finished
    unit with the elapsed time and an estimate of the time left, so a long job's log says
    how far it is.
    """
    out = []
    started = time.perf_counter()
    for i, unit in enumerate(units, start=1):
        cpu = time.process_time()
        out.append((run_unit(kind, dataset, settings, unit, progress), time.process_time() - cpu))
        elapsed = time.perf_counter() - started
        left = elapsed / i * (len(units) - i)
        progress(
            f"unit {i}/{len(units)} ({_unit_text(unit)}) done; elapsed {elapsed:.1f}s, "
            f"about {math.ceil(left)}s left"
        )
    return out


def dataset_shape(entry: Any, name: str | None = None) -> DatasetShape:
    """The declared size of a registry entry (attributes unknown: assume 20, a typical UCI
    width; it only sizes jobs), under the name the experiment uses for it, with its classes
    and its inputs after nominal-to-binary (when declared)."""
    subsample = getattr(entry, "subsample", None)
    n = int(subsample[0]) if subsample else int(entry.instances)
    inputs = getattr(entry, "inputs", None)
    return DatasetShape(n, int(entry.attributes or 20), name or entry.name, int(getattr(entry, "classes", 2) or 2),
                        n_inputs=int(inputs) if inputs else None)


def plan_experiment(
    spec: ExperimentSpec, registry: Mapping[str, Any], target_seconds: float = DEFAULT_TARGET_SECONDS
) -> dict[str, list[Chunk]]:
    """The jobs of one experiment: dataset -> its chunks, in the experiment's dataset order.

    ``registry`` is the dataset registry (each entry's declared ``instances`` and
    ``attributes`` size the jobs).
    """
    kind = get_kind(spec.kind)
    settings = kind.job_settings(spec)
    units = list(kind.units(spec))
    return {
        dataset: chunk_units(
            kind, settings, units, dataset_shape(registry[dataset], dataset), target_seconds
        )
        for dataset in spec.datasets
    }
