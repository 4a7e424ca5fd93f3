"""Job record files: one job's records, with what produced them, and their reuse.

Why: a thesis-scale experiment can outlast the machine it runs on (a laptop, a cluster
allocation, a lost node), and experiments share work (ch6_utility's DECORATE baseline is
ch6_active's; Bootstrap-JS is in three chapter-7 files). Each job writes its records as parquet
with, in the file's metadata, its units in order with the rows, CPU seconds and *unit key* of
each, the commit of the code and the host. A unit key is the hash of everything the unit's
records depend on: the kind, the dataset, the unit, the job settings other than the experiment
name and the other algorithms' entries, and the unit's own algorithm entry
(:attr:`redecorate.kinds.kind.ExperimentKind.key_layout`). A later run given
``records_from`` (a directory laid out like ``results/``: ``<experiment>/records/<dataset>/``,
e.g. the committed records of an unfinished experiment) takes a unit's rows from any earlier
file holding a unit with the same key, writing its own experiment name into them, and
computes only the other units, and only from files computed on the same data (the job
records the :meth:`~redecorate.data.Dataset.content_sha256` of the data it read; a file
written before jobs recorded it is taken as it is). Records never depend on how units are grouped into jobs
(:mod:`redecorate.kinds.jobs`), so a ``pilot`` run (one run of CV) continues to the thesis scale
with its run 0 reused, and a different ``job_seconds`` still reuses. The match is by key, never
by file name or modification time: a changed setting computes afresh, and nothing computed
under other settings is ever taken. Provenance says, job by job, where each unit came from and
what it cost (:func:`job_record_info`).
"""

from __future__ import annotations

import functools
import json
import os
import resource
import socket
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from types import MappingProxyType
from typing import Any

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from redecorate.kinds.jobs import run_units
from redecorate.kinds.kind import ExperimentKind, Unit
from redecorate.learners.registry import ALGORITHMS
from redecorate.protocol.settings import JobSettings, key_settings
from redecorate.provenance import (
    arithmetic_environment,
    canonical_hash,
    cpu_description,
    recorded_file,
)
from redecorate.util import atomic_write

__all__ = ["APPORTIONED_FILE", "KeptUnit", "UnitOrigin", "arithmetic_revision", "job_record_info", "kept_units", "key_params",
           "process_cpu_seconds", "run_job_records", "unit_commits", "unit_id", "unit_key", "unit_origins",
           "with_unit_commits", "write_job_records"]

_METADATA_KEY = b"redecorate.job"

APPORTIONED_FILE = "combined.parquet"
"""The job file, per dataset, of a run keyed after the fact (``tools/key_combined_records.py``):
its units' CPU is apportioned, not measured one by one (:attr:`KeptUnit.cpu_apportioned`)."""


def unit_key(kind: ExperimentKind, settings: JobSettings, unit: Unit, dataset: str, *,
             revision: int | None = None) -> str:
    """The hash of everything a unit's records depend on (see the module docstring).

    The job settings are hashed in the kind's key layout
    (:func:`redecorate.protocol.settings.key_settings`), the one the committed records were
    keyed under.

    An algorithm whose arithmetic has changed since its first records
    (:attr:`~redecorate.kinds.ExperimentKind.arithmetic_revision` above 0) hashes its revision
    too: its old records then have other keys and are never reused. ``revision`` overrides
    it (0: the key the unit had under its first arithmetic, to find superseded records).

    A learner's parameters are hashed in one spelling, the one its records were first keyed
    under (:func:`_key_entry`), so renaming a parameter in an experiment file (DECORATE's
    ``ensemble_size`` is now ``n_estimators``) keeps the committed records' keys."""
    keyed = key_settings(kind, settings)
    own = kind.key_layout.algorithms
    shared = {k: v for k, v in keyed.items() if k not in ("experiment", own)}
    given = (keyed.get(own) or {}).get(unit.get("algorithm"))
    entry = _key_entry(given, unit.get("algorithm"))
    hashed = {"kind": kind.name, "dataset": dataset, "unit": dict(unit), "settings": shared, "algorithm": entry}
    if revision is None:
        revision = arithmetic_revision(kind, given)
    if revision:  # absent at 0, so the units of the first arithmetic keep their keys
        hashed["arithmetic"] = int(revision)
    return canonical_hash(hashed)


def arithmetic_revision(kind: ExperimentKind, entry: Mapping[str, Any] | None) -> int:
    """The arithmetic revision of one algorithm entry of ``kind`` (0 when the kind has none)."""
    if kind.arithmetic_revision is None or entry is None:
        return 0
    return int(kind.arithmetic_revision(entry))


FIRST_SPELLINGS: Mapping[str, Mapping[str, str]] = MappingProxyType({
    "decorate": MappingProxyType({"n_estimators": "ensemble_size"}),
})
"""Registry learner -> parameter -> the name its committed records were keyed under, for the
parameters renamed since (to scikit-learn's words). Every meta-learner's ``estimator`` is
also keyed as ``base``, the experiment files' key for it."""

_BASE_SPELLINGS = ("base", "estimator", "base_estimator")


def key_params(name: str, params: Any) -> Any:
    """``params`` of learner ``name`` with every parameter spelled as unit keys hash it.

    Why: a unit key hashes each algorithm's parameters, and the committed records
    (``reproduced/*/records``) are reused by a later run only under an equal key. The
    parameters now have scikit-learn's names, and an experiment file that says
    ``n_estimators: 15`` where it said ``ensemble_size: 15`` describes the same learner: so
    the new names are hashed under the names the records were first computed with
    (:data:`FIRST_SPELLINGS`; ``estimator`` as ``base``). Every name that existed before
    hashes as it always did (``ensemble_size``, ``base``, ``base_estimator``, Bagging's
    ``n_estimators``), and a nested ``{name, params}`` base is spelled the same way. An
    unknown learner, parameters that are not a mapping, or both spellings of one parameter
    (refused before any job) are returned as given. (Only meta-learners take an
    ``estimator``: the rename touches no other learner's parameters.)
    """
    known = isinstance(name, str) and name.strip().lower() in ALGORITHMS
    if not known or not isinstance(params, Mapping):
        return params
    spelling = {"estimator": "base", **FIRST_SPELLINGS.get(name.strip().lower(), {})}
    out: dict[str, Any] = {}
    for key, value in params.items():
        if key in _BASE_SPELLINGS and isinstance(value, Mapping) and "params" in value:
            value = {**value, "params": key_params(value.get("name"), value["params"])}
        out[spelling.get(key, key)] = value
    return out if len(out) == len(params) else dict(params)


def _key_entry(entry: Any, label: Any) -> Any:
    """An algorithm's entry with its learner parameters spelled as unit keys hash them
    (:func:`key_params`): an entry of a learner (``{"params":
    ..., "learner": registry name}``, the learner being the label when not named). The active
    kind's entries (``{"system": ..., "params": ...}``) take system parameters, not a
    learner's, and are hashed as they are."""
    if not isinstance(entry, Mapping) or "system" in entry or not isinstance(entry.get("params"), Mapping):
        return entry
    return {**entry, "params": key_params(entry.get("learner", label), entry["params"])}


def unit_id(unit: Mapping[str, Any]) -> str:
    """A unit as canonical JSON (for messages)."""
    return json.dumps(dict(unit), sort_keys=True, separators=(",", ":"), default=str)


def process_cpu_seconds() -> float:
    """User + system CPU of this process so far (a job is one process)."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def write_job_records(frame: pd.DataFrame, path: str | os.PathLike[str], *, units: Sequence[Mapping[str, Any]],
                      unit_keys: Sequence[str], unit_rows: Sequence[int], unit_cpu_s: Sequence[float],
                      unit_sources: Sequence[str | None], git: Mapping[str, Any], cpu_s: float,
                      data_sha256: str | None = None,
                      unit_commits: Sequence[str | None] | None = None) -> None:
    """Write a job's records atomically with, in the parquet metadata, its units in order with
    their keys, rows, CPU, source (None: computed by this job; else the earlier file they
    were taken from) and the commit that computed them (``unit_commits``: a reused unit keeps
    its own, so its CPU is known to be that code's even after the source file is renamed), the
    checksum of the data they were computed on, the code's commit (and whether the tree was
    dirty: :func:`redecorate.provenance.git_state`), the job's CPU, host and time, and what
    did its arithmetic (library versions, BLAS kernel: :func:`~redecorate.provenance.arithmetic_environment`)."""
    unit_commits = list(unit_commits) if unit_commits is not None else [None] * len(units)
    lengths = {len(units), len(unit_keys), len(unit_rows), len(unit_cpu_s), len(unit_sources), len(unit_commits)}
    if sum(unit_rows) != len(frame) or len(lengths) != 1:
        raise ValueError("unit_keys, unit_rows, unit_cpu_s, unit_sources and unit_commits need one entry "
                         "per unit, rows summing to the frame")
    commits = [commit if source else git.get("commit") for commit, source in zip(unit_commits, unit_sources, strict=True)]
    info = {"units": [dict(u) for u in units], "unit_keys": list(unit_keys),
            "unit_rows": [int(n) for n in unit_rows], "unit_cpu_s": [round(float(c), 3) for c in unit_cpu_s],
            "unit_sources": list(unit_sources), "unit_commits": commits, "data_sha256": data_sha256,
            "commit": git.get("commit"), "dirty": git.get("dirty"),
            "cpu_s": round(cpu_s, 3), "host": socket.gethostname(), "cpu": cpu_description(),
            "arithmetic": arithmetic_environment(),
            "written_at": datetime.now(UTC).isoformat(timespec="seconds")}
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


_SOURCE_DEPTH = 8
"""How many reuses deep :func:`unit_origins` follows a unit to the file that computed it."""


@dataclass(frozen=True)
class UnitOrigin:
    """Where one unit of a records file was computed, found by following its reuses.

    Attributes:
        commit: the commit whose code computed it (None: unknown: a broken chain, or a file
            that does not say).
        apportioned: it was reused, through any number of jobs, from a file keyed after the
            fact (:data:`APPORTIONED_FILE`), so its CPU is a share of a whole run's, not its
            own (:attr:`KeptUnit.cpu_apportioned`).
    """

    commit: str | None = None
    apportioned: bool = False


def unit_origins(info: Mapping[str, Any], base: str | os.PathLike[str] = ".") -> list[UnitOrigin]:
    """Each unit's :class:`UnitOrigin` in a records file (:func:`job_record_info`).

    Why: a unit's CPU says what the code of one commit cost on it, and code gets faster (the
    planner's calibration, :mod:`redecorate.calibration`, compares each measurement with the
    engine it ran on), and a job that reuses a unit copies its CPU and names only the file it
    read: a second reuse would hide both which commit spent it and that it was a share of a
    whole run's (a J48 unit of 0.03 s planned carried 2.6 s of a run's share into two later
    experiments). A computed unit is the file's; a reused one is followed to the file it was
    taken from (``unit_sources``: absolute, or relative to ``base``, the directory the workflow
    ran in; a path another checkout recorded is found by its tail under ``base``), which may
    itself have taken it from another. Files written since jobs record it carry
    ``unit_commits``, which give the commit where they know it; a chain that breaks (a source
    file gone) gives an unknown commit and a measured CPU, never a guess.
    """
    return _unit_origins(info, Path(base), _SOURCE_DEPTH)


def _unit_origins(info: Mapping[str, Any], base: Path, depth: int) -> list[UnitOrigin]:
    keys = info.get("unit_keys", [])
    sources = info.get("unit_sources") or [None] * len(keys)
    commits = info.get("unit_commits")
    origins = []
    for index, (key, source) in enumerate(zip(keys, sources, strict=True)):
        origin = _source_origin(source, key, base, depth - 1) if source else UnitOrigin(info.get("commit"))
        if commits is not None and commits[index] is not None:
            origin = UnitOrigin(commits[index], origin.apportioned)
        origins.append(origin)
    return origins


def _source_path(source: str, base: Path) -> Path | None:
    """The records file a job recorded it reused a unit from: at the recorded path (absolute,
    or relative to ``base``, the directory the workflow ran in), else at the longest tail of it
    under ``base`` (a path another checkout recorded); None when it is nowhere."""
    recorded = Path(source)
    at = recorded if recorded.is_absolute() else base / recorded
    return at if at.is_file() else recorded_file(recorded, base)


def _source_origin(source: str, key: str, base: Path, depth: int) -> UnitOrigin:
    shared = Path(source).name == APPORTIONED_FILE
    path = _source_path(source, base)
    if depth <= 0 or path is None:
        return UnitOrigin(None, shared)
    stat = path.stat()
    found = _file_origins(str(path.resolve()), stat.st_mtime_ns, stat.st_size, str(base), depth).get(key, UnitOrigin())
    return UnitOrigin(found.commit, found.apportioned or shared)


@functools.lru_cache(maxsize=4096)
def _file_origins(path: str, mtime_ns: int, size: int, base: str, depth: int) -> dict[str, UnitOrigin]:
    """Unit key -> :class:`UnitOrigin` of one records file, read once per version of the file
    (a campaign's files are sources of many units each)."""
    info = job_record_info(path)
    if info is None or "unit_keys" not in info:
        return {}
    return dict(zip(info["unit_keys"], _unit_origins(info, Path(base), depth), strict=True))


def unit_commits(info: Mapping[str, Any], base: str | os.PathLike[str] = ".") -> list[str | None]:
    """The commit whose code computed each unit of a records file (None where unknown;
    :func:`unit_origins`)."""
    return [origin.commit for origin in unit_origins(info, base)]


def with_unit_commits(info: Mapping[str, Any] | None, base: str | os.PathLike[str] = ".") -> dict[str, Any] | None:
    """``info`` (:func:`job_record_info`) with ``unit_commits`` filled in (:func:`unit_commits`);
    a file without unit keys (written before records carried them) as it is."""
    if info is None or "unit_keys" not in info:
        return None if info is None else dict(info)
    return {**info, "unit_commits": unit_commits(info, base)}


@dataclass(frozen=True)
class KeptUnit:
    """Where an earlier run left one unit's records: rows ``start:stop`` of ``path``."""

    path: Path
    start: int
    stop: int
    cpu_s: float
    index: int  # the unit's place among the file's units
    source: str | None = None  # the file the unit was read from when the job reused it
    origin: UnitOrigin = UnitOrigin()  # the commit that computed it, and whether its CPU is shared

    @property
    def cpu_apportioned(self) -> bool:
        """Whether ``cpu_s`` is a share of a whole run's CPU rather than the unit's own: runs
        committed before job files carried unit keys were keyed after the fact
        (:data:`APPORTIONED_FILE`), their jobs' CPU shared among the units by the cost plan
        of the day, so it says nothing of how far today's plan is off on one unit. A job
        that reused such a unit carries the share on, and so does every job that reused it
        from that job (:attr:`UnitOrigin.apportioned`)."""
        return self.origin.apportioned or self.path.name == APPORTIONED_FILE

    @property
    def commit(self) -> str | None:
        """The commit that computed the unit (:attr:`UnitOrigin.commit`)."""
        return self.origin.commit

    def frame(self, experiment: str) -> pd.DataFrame:
        """The unit's records, labelled with ``experiment`` (the only column that names it)."""
        frame = pd.read_parquet(self.path).iloc[self.start:self.stop].reset_index(drop=True)
        frame["experiment"] = experiment
        return frame


def kept_units(root: str | os.PathLike[str], dataset: str, prefer: str | None = None,
               data_sha256: str | None = None) -> dict[str, KeptUnit]:
    """Unit key -> its earlier records in ``root/*/records/<dataset>/*.parquet`` (the
    experiment ``prefer`` first, then the others by name; the first file holding a key wins),
    leaving out files computed on data other than ``data_sha256``."""
    folders = sorted(Path(root).glob(f"*/records/{dataset}"), key=lambda f: (f.parent.parent.name != prefer, str(f)))
    found: dict[str, KeptUnit] = {}
    for folder in folders:
        for path in sorted(folder.glob("*.parquet")):
            info = job_record_info(path)
            if info is None or "unit_keys" not in info:
                continue
            if data_sha256 is not None and info.get("data_sha256") not in (None, data_sha256):
                continue
            start = 0
            sources = info.get("unit_sources") or [None] * len(info["unit_keys"])
            origins = unit_origins(info, Path(root).parent)  # sources are recorded from the repository
            for index, (key, rows, cpu, source, origin) in enumerate(
                    zip(info["unit_keys"], info["unit_rows"], info["unit_cpu_s"], sources, origins, strict=True)):
                found.setdefault(key, KeptUnit(path, start, start + rows, cpu, index, source, origin))
                start += rows
    return found


def run_job_records(
    dataset: Any,
    kind: ExperimentKind,
    settings: JobSettings,
    units: Sequence[Unit],
    *,
    records_from: str | os.PathLike[str] | None,
    progress: Callable[[str], None] = print,
) -> tuple[pd.DataFrame, dict[str, Any]]:
    """One job's records, in unit order: units kept under ``records_from`` (same unit key) are
    read, the others computed (never from records of other data). Returns the records and the
    metadata arguments of :func:`write_job_records`."""
    if not units:
        raise ValueError("a job needs at least one unit of work")
    experiment = settings.experiment
    keys = [unit_key(kind, settings, unit, dataset.name) for unit in units]
    data_sha256 = dataset.content_sha256()
    kept = kept_units(records_from, dataset.name, prefer=experiment, data_sha256=data_sha256) if records_from else {}
    todo = [unit for unit, key in zip(units, keys, strict=True) if key not in kept]
    for unit, key in zip(units, keys, strict=True):
        if key in kept:
            progress(f"unit {unit_id(unit)} reused from {kept[key].path} (same unit key {key[:12]})")
    computed = iter(run_units(dataset, kind, settings, todo, progress))
    frames, rows, cpus, sources, commits = [], [], [], [], []
    for key in keys:
        if key in kept:
            frame, cpu, source = kept[key].frame(experiment), kept[key].cpu_s, str(kept[key].path)
            commit = kept[key].commit
        else:
            (frame, cpu), source, commit = next(computed), None, None  # this job's commit
        frames.append(frame)
        rows.append(len(frame))
        cpus.append(cpu)
        sources.append(source)
        commits.append(commit)
    records = pd.concat(frames, ignore_index=True)
    return records, {"units": [dict(u) for u in units], "unit_keys": keys, "unit_rows": rows,
                     "unit_cpu_s": cpus, "unit_sources": sources, "unit_commits": commits,
                     "data_sha256": data_sha256}
