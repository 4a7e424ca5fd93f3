"""Job record files: one job's records, with what produced them, and their reuse.

Why: a thesis-scale experiment can outlast the machine it runs on (a laptop, a cluster
allocation, a lost node). Each job writes its records as parquet with, in the file's
metadata, the job's *key* (a hash of everything that determines its records: the kind, the
experiment's job settings, the units and the dataset), the commit of the code, the CPU it
took and the host. A later run given ``records_from`` (a directory laid out like
``results/``: ``<experiment>/records/<dataset>/*.parquet``, e.g. the committed partial
records of an unfinished experiment) copies an earlier file whose key equals the job's instead
of recomputing it. The match is by key, not by file name or modification time: changed
settings, more runs or a re-planned grouping compute afresh, and nothing computed for other
settings is ever taken. Provenance then says, job by job, which commit computed the records
and how much CPU that took (:func:`job_record_info`).
"""

from __future__ import annotations

import json
import os
import resource
import socket
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from redecorate.provenance import canonical_hash
from redecorate.util import atomic_write

__all__ = ["find_job_records", "job_key", "job_record_info", "process_cpu_seconds", "reuse_job_records",
           "write_job_records"]

_METADATA_KEY = b"redecorate.job"


def job_key(kind: str, settings: Mapping[str, Any], units: Sequence[Mapping[str, Any]], dataset: str) -> str:
    """The hash of what determines a job's records (the rule's parameters and its dataset)."""
    return canonical_hash({"kind": kind, "settings": dict(settings), "units": [dict(u) for u in units],
                           "dataset": dataset})


def process_cpu_seconds() -> float:
    """User + system CPU of this process so far (a job is one process)."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _write(table: pa.Table, info: Mapping[str, Any], path: str | os.PathLike[str]) -> None:
    metadata = {**(table.schema.metadata or {}), _METADATA_KEY: json.dumps(dict(info), sort_keys=True).encode()}
    table = table.replace_schema_metadata(metadata)
    atomic_write(path, lambda tmp: pq.write_table(table, tmp))


def write_job_records(frame: pd.DataFrame, path: str | os.PathLike[str], *, key: str,
                      git: Mapping[str, Any], cpu_s: float) -> None:
    """Write a job's records atomically, with its key, the code's commit (and whether the tree
    was dirty: :func:`redecorate.provenance.git_state`), its CPU, host and time."""
    info = {"key": key, "commit": git.get("commit"), "dirty": git.get("dirty"), "cpu_s": round(cpu_s, 3),
            "host": socket.gethostname(),
            "written_at": datetime.now(UTC).isoformat(timespec="seconds")}
    _write(pa.Table.from_pandas(frame, preserve_index=False), info, path)


def job_record_info(path: str | os.PathLike[str]) -> dict[str, Any] | None:
    """What :func:`write_job_records` stored in a records file (None for a file without it:
    written before records carried it, or by another program)."""
    try:
        metadata = pq.read_schema(path).metadata or {}
    except (OSError, pa.ArrowInvalid):
        return None
    raw = metadata.get(_METADATA_KEY)
    return json.loads(raw) if raw else None


def find_job_records(root: str | os.PathLike[str], experiment: str, dataset: str, key: str) -> Path | None:
    """An earlier records file of this job under ``root`` (same key), or None."""
    folder = Path(root) / experiment / "records" / dataset
    for candidate in sorted(folder.glob("*.parquet")):
        info = job_record_info(candidate)
        if info is not None and info.get("key") == key:
            return candidate
    return None


def reuse_job_records(source: str | os.PathLike[str], path: str | os.PathLike[str]) -> dict[str, Any]:
    """Copy an earlier job's records to ``path`` (atomically), noting where they came from;
    returns the stored information (commit and CPU of the run that computed them)."""
    table = pq.read_table(source)
    info = dict(job_record_info(source) or {})
    info["reused_from"] = str(source)
    _write(table, info, path)
    return info
