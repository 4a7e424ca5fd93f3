"""Job record files: one job's records, with what produced them, and their reuse.

Why: a thesis-scale experiment can outlast the machine it runs on (a laptop, a cluster
allocation, a lost node). Each job writes its records as parquet with, in the file's
metadata, its *settings key* (a hash of what every unit's records depend on besides the unit
itself: the kind, the experiment's job settings and the dataset), its units with the rows and
CPU seconds of each, the commit of the code and the host. A later run given ``records_from``
(a directory laid out like ``results/``: ``<experiment>/records/<dataset>/*.parquet``, e.g.
the committed records of an unfinished experiment) takes a unit's rows from an earlier file
with the same settings key that holds that unit, and computes only the other units. Records
never depend on how units are grouped into jobs (:mod:`redecorate.kinds.jobs`), so a unit is
the right grain: a `pilot` run (one run of CV) is continued to the thesis scale (its run 0
reused), and a different ``job_seconds`` grouping still reuses. The match is by key, never by
file name or modification time: changed settings compute afresh, and nothing computed for
other settings is ever taken. Provenance then says, job by job, which commit computed its
records and how much CPU that took (:func:`job_record_info`).
"""

from __future__ import annotations

import json
import os
import resource
import socket
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from redecorate.kinds.jobs import run_units
from redecorate.kinds.kind import ExperimentKind, Unit
from redecorate.provenance import canonical_hash
from redecorate.util import atomic_write

__all__ = ["KeptUnit", "job_record_info", "kept_units", "process_cpu_seconds", "run_job_records",
           "settings_key", "unit_id", "write_job_records"]

_METADATA_KEY = b"redecorate.job"


def settings_key(kind: str, settings: Mapping[str, Any], dataset: str) -> str:
    """The hash of what a unit's records depend on besides the unit: kind, job settings, dataset."""
    return canonical_hash({"kind": kind, "settings": dict(settings), "dataset": dataset})


def unit_id(unit: Mapping[str, Any]) -> str:
    """A unit as canonical JSON (equal units, equal ids)."""
    return json.dumps(dict(unit), sort_keys=True, separators=(",", ":"), default=str)


def process_cpu_seconds() -> float:
    """User + system CPU of this process so far (a job is one process)."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def write_job_records(frame: pd.DataFrame, path: str | os.PathLike[str], *, key: str,
                      units: Sequence[Mapping[str, Any]], unit_rows: Sequence[int],
                      unit_cpu_s: Sequence[float], unit_sources: Sequence[str | None],
                      git: Mapping[str, Any], cpu_s: float) -> None:
    """Write a job's records atomically with, in the parquet metadata, its settings key, its
    units in order with their rows, CPU and source (None: computed by this job; else the
    earlier file they were taken from), the code's commit (and whether the tree was dirty:
    :func:`redecorate.provenance.git_state`), the job's CPU, host and time."""
    if sum(unit_rows) != len(frame) or not len(units) == len(unit_rows) == len(unit_cpu_s) == len(unit_sources):
        raise ValueError("unit_rows, unit_cpu_s and unit_sources need one entry per unit, rows summing to the frame")
    info = {"key": key, "units": [dict(u) for u in units], "unit_rows": [int(n) for n in unit_rows],
            "unit_cpu_s": [round(float(c), 3) for c in unit_cpu_s], "unit_sources": list(unit_sources),
            "commit": git.get("commit"), "dirty": git.get("dirty"), "cpu_s": round(cpu_s, 3),
            "host": socket.gethostname(), "written_at": datetime.now(UTC).isoformat(timespec="seconds")}
    table = pa.Table.from_pandas(frame, preserve_index=False)
    table = table.replace_schema_metadata(
        {**(table.schema.metadata or {}), _METADATA_KEY: json.dumps(info, sort_keys=True, default=str).encode()})
    atomic_write(path, lambda tmp: pq.write_table(table, tmp))


def job_record_info(path: str | os.PathLike[str]) -> dict[str, Any] | None:
    """What :func:`write_job_records` stored in a records file (None for a file without it:
    written before records carried it, or by another program)."""
    try:
        metadata = pq.read_schema(path).metadata or {}
    except (OSError, pa.ArrowInvalid):
        return None
    raw = metadata.get(_METADATA_KEY)
    return json.loads(raw) if raw else None


@dataclass(frozen=True)
class KeptUnit:
    """Where an earlier run left one unit's records: rows ``start:stop`` of ``path``."""

    path: Path
    start: int
    stop: int
    cpu_s: float
    commit: str | None

    def frame(self) -> pd.DataFrame:
        return pd.read_parquet(self.path).iloc[self.start:self.stop].reset_index(drop=True)


def kept_units(root: str | os.PathLike[str], experiment: str, dataset: str, key: str) -> dict[str, KeptUnit]:
    """Unit id -> its earlier records under ``root/<experiment>/records/<dataset>/`` (files with
    the same settings key only; the first file in name order wins)."""
    found: dict[str, KeptUnit] = {}
    for path in sorted((Path(root) / experiment / "records" / dataset).glob("*.parquet")):
        info = job_record_info(path)
        if info is None or info.get("key") != key or "units" not in info:
            continue
        start = 0
        for unit, rows, cpu, source in zip(info["units"], info["unit_rows"], info["unit_cpu_s"],
                                           info["unit_sources"], strict=True):  # fmt: skip
            # A unit this file itself reused keeps the commit of the file it came from.
            commit = info.get("commit") if source is None else None
            found.setdefault(unit_id(unit), KeptUnit(path, start, start + rows, cpu, commit))
            start += rows
    return found


def run_job_records(
    dataset: Any,
    kind_name: str,
    kind: ExperimentKind,
    settings: Mapping[str, Any],
    units: Sequence[Unit],
    *,
    experiment: str,
    records_from: str | os.PathLike[str] | None,
    progress: Callable[[str], None] = print,
) -> tuple[pd.DataFrame, dict[str, Any]]:
    """One job's records, in unit order: units kept under ``records_from`` are read, the others
    computed. Returns the records and the metadata arguments of :func:`write_job_records`."""
    if not units:
        raise ValueError("a job needs at least one unit of work")
    key = settings_key(kind_name, settings, dataset.name)
    kept = kept_units(records_from, experiment, dataset.name, key) if records_from else {}
    todo = [unit for unit in units if unit_id(unit) not in kept]
    for unit in units:
        if unit_id(unit) in kept:
            progress(f"unit {dict(unit)} reused from {kept[unit_id(unit)].path} (same settings key {key[:12]})")
    computed = dict(zip(map(unit_id, todo), run_units(dataset, kind, settings, todo, progress), strict=True))
    frames, rows, cpus, sources = [], [], [], []
    for unit in units:
        if unit_id(unit) in computed:
            frame, cpu = computed[unit_id(unit)]
            source = None
        else:
            earlier = kept[unit_id(unit)]
            frame, cpu, source = earlier.frame(), earlier.cpu_s, str(earlier.path)
        frames.append(frame)
        rows.append(len(frame))
        cpus.append(cpu)
        sources.append(source)
    records = pd.concat(frames, ignore_index=True)
    return records, {"key": key, "units": [dict(u) for u in units], "unit_rows": rows, "unit_cpu_s": cpus,
                     "unit_sources": sources}
