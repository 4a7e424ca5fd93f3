"""Atomic file output: a killed job must leave either the whole file or nothing.

Snakemake decides what to (re)run from which outputs exist. A half-written parquet that
survives a ``kill -9`` or a power cut would look complete and poison every aggregate built
on it, so every writer here writes a temporary sibling (same directory, hence the same file
system) and renames it into place, which POSIX makes atomic.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import os
import shutil
import tempfile
import traceback
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pandas as pd

__all__ = [
    "atomic_dir",
    "atomic_files",
    "atomic_path",
    "job_log",
    "run_records_job",
    "write_csv_atomic",
    "write_parquet_atomic",
]


@contextlib.contextmanager
def atomic_path(path: str | os.PathLike[str]) -> Iterator[Path]:
    """Yield a temporary path next to ``path``; rename it onto ``path`` only on success."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    os.close(fd)
    tmp = Path(tmp_name)
    try:
        yield tmp
        os.replace(tmp, target)
    finally:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()


@contextlib.contextmanager
def atomic_dir(path: str | os.PathLike[str]) -> Iterator[Path]:
    """Yield a temporary directory next to ``path``; it replaces ``path`` only on success.

    For outputs that are whole directories (tables/, figures/) or file pairs written by a
    library function we do not control (a parquet plus its sidecar JSON).
    """
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent))
    try:
        yield tmp
        if target.exists():
            shutil.rmtree(target)
        os.replace(tmp, target)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def write_parquet_atomic(frame: pd.DataFrame, path: str | os.PathLike[str]) -> None:
    """Write ``frame`` as parquet without the index, atomically.

    No timestamps are embedded by pyarrow, so identical frames give identical bytes.
    """
    with atomic_path(path) as tmp:
        frame.to_parquet(tmp, index=False, engine="pyarrow")


def write_csv_atomic(frame: pd.DataFrame, path: str | os.PathLike[str]) -> None:
    """Write ``frame`` as CSV without the index, atomically."""
    with atomic_path(path) as tmp:
        frame.to_csv(tmp, index=False)


@contextlib.contextmanager
def atomic_files(*paths: str | os.PathLike[str]) -> Iterator[list[Path]]:
    """Yield temporary paths (same names, in one hidden staging directory) for ``paths``.

    On success each is renamed onto its target; on failure nothing is touched. For writers
    that produce several files at once (a prepared parquet and its JSON sidecar). Each rename
    is atomic; if the process dies between two renames one target is missing, which
    Snakemake sees as an incomplete job and reruns.
    """
    targets = [Path(p) for p in paths]
    if not targets:
        raise ValueError("atomic_files needs at least one path")
    parent = targets[0].parent
    parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".staging.", suffix=".tmp", dir=parent))
    try:
        names = [t.name for t in targets]
        if len(set(names)) != len(names):
            raise ValueError(f"atomic_files needs distinct file names, got {names}")
        # One staging directory, so writers that put a sidecar next to their main file
        # (``x.parquet`` -> ``x.json``) write it where it is expected.
        staged = [staging / name for name in names]
        yield staged
        for path, target in zip(staged, targets, strict=True):
            if not path.exists():
                raise FileNotFoundError(f"writer did not produce {target.name} (staged at {path})")
        for path, target in zip(staged, targets, strict=True):
            target.parent.mkdir(parents=True, exist_ok=True)
            os.replace(path, target)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


@contextlib.contextmanager
def job_log(path: str | os.PathLike[str] | None) -> Iterator[None]:
    """Send ``print``, warnings and ``logging`` output of a workflow job to its log file.

    Snakemake's ``log:`` only names the file; a ``script:`` job must write to it itself.
    Appending (not truncating) keeps the log of an earlier failed attempt for diagnosis.
    """
    if path is None:
        yield
        return
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    with target.open("a", encoding="utf-8", buffering=1) as handle:
        handler = logging.StreamHandler(handle)
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
        root = logging.getLogger()
        root.addHandler(handler)
        if root.level > logging.INFO or root.level == logging.NOTSET:
            root.setLevel(logging.INFO)
        try:
            with contextlib.redirect_stdout(handle), contextlib.redirect_stderr(handle):
                yield
        except BaseException:
            traceback.print_exc(file=handle)
            raise
        finally:
            root.removeHandler(handler)


def run_records_job(smk: Any, job: Callable[..., pd.DataFrame]) -> None:
    """The body of every record-producing workflow script (``scripts/run_*.py``).

    Loads the prepared dataset named by the job's input, runs ``job(dataset, **params.job,
    progress=...)`` with one progress line per fold in the log, and writes the records
    parquet atomically. Each experiment kind keeps its own script only because Snakemake
    reruns a rule's jobs when its script changes: a shared script would tie the kinds'
    finished results together.
    """
    from redecorate.data import load_prepared

    params = dict(smk.params.job)
    with job_log(smk.log[0] if smk.log else None):
        dataset = load_prepared(smk.input.dataset)
        if dataset.name != smk.wildcards.dataset:
            # Records and seeds are keyed by the registry key the workflow asked for.
            dataset = dataclasses.replace(dataset, name=smk.wildcards.dataset)
        print(f"job {params}", flush=True)
        records = job(dataset, **params, progress=lambda line: print(line, flush=True))
        write_parquet_atomic(records, smk.output.records)
        print(f"wrote {len(records)} records to {smk.output.records}", flush=True)
