"""Atomic file output: a killed job must leave either the whole file or nothing.

Snakemake decides what to (re)run from which outputs exist. A half-written parquet that
survives a ``kill -9`` or a power cut would look complete and poison every aggregate built
on it, so every writer here writes a temporary sibling (same directory, hence the same file
system) and renames it into place, which POSIX makes atomic.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pandas as pd

__all__ = ["atomic_dir", "atomic_path", "write_csv_atomic", "write_parquet_atomic"]


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
