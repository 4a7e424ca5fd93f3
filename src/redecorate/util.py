"""General helpers every layer of the library uses: atomic file output, seeds, exact numbers.

Kept in one module, at the bottom of the import graph (it imports nothing from the
package), so that data, learners, protocol, corruption and report code share one
implementation of each instead of re-deriving them.

Atomic output: Snakemake decides what to (re)run from which outputs exist. A half-written
file that survives a ``kill -9`` or a power cut would look complete and poison everything
built on it, so every writer writes a temporary sibling (same directory, hence the same file
system) and renames it into place, which POSIX makes atomic. The temporary files are created
with the permissions an ordinary ``open()`` would give (``0666`` / ``0777`` less the umask),
not ``mkstemp``'s private ``0600``: collaborators on a shared cluster file system must be able
to read the results.
"""

from __future__ import annotations

import contextlib
import importlib
import logging
import numbers
import os
import shutil
import sys
import tempfile
import traceback
from collections.abc import Callable, Iterator, Mapping
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np

__all__ = [
    "RandomStateLike",
    "SeedLike",
    "as_generator",
    "as_seed_sequence",
    "atomic_dir",
    "atomic_files",
    "atomic_path",
    "atomic_write",
    "exact_fraction",
    "job_log",
    "lazy_exports",
    "write_csv_atomic",
    "write_parquet_atomic",
]

SeedLike = int | np.random.SeedSequence | np.random.Generator
"""What the protocol's random functions accept: a SeedSequence (their currency), an int or a
ready Generator."""

RandomStateLike = None | int | np.random.SeedSequence | np.random.Generator | np.random.RandomState
"""What a learner's ``random_state`` may be."""


# -- permissions ----------------------------------------------------------------------------
def _umask() -> int:
    """The process umask (read by setting and restoring it: POSIX offers no getter)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _as_if_opened(path: Path, *, directory: bool = False) -> None:
    """Give a ``mkstemp``/``mkdtemp`` result the mode a plain ``open``/``mkdir`` would."""
    os.chmod(path, (0o777 if directory else 0o666) & ~_umask())


# -- atomic output --------------------------------------------------------------------------
@contextlib.contextmanager
def atomic_path(path: str | os.PathLike[str]) -> Iterator[Path]:
    """Yield a temporary path next to ``path``; rename it onto ``path`` only on success."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    os.close(fd)
    tmp = Path(tmp_name)
    _as_if_opened(tmp)
    try:
        yield tmp
        os.replace(tmp, target)
    finally:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()


def atomic_write(path: str | os.PathLike[str], write: Callable[[Path], Any]) -> Path:
    """Call ``write(tmp)`` on a temporary sibling of ``path`` and rename it into place."""
    with atomic_path(path) as tmp:
        write(tmp)
    return Path(path)


@contextlib.contextmanager
def atomic_dir(path: str | os.PathLike[str]) -> Iterator[Path]:
    """Yield a temporary directory next to ``path``; it replaces ``path`` only on success.

    For outputs that are whole directories (tables/, figures/).
    """
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent))
    _as_if_opened(tmp, directory=True)
    try:
        yield tmp
        if target.exists():
            shutil.rmtree(target)
        os.replace(tmp, target)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


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


def write_parquet_atomic(frame: Any, path: str | os.PathLike[str]) -> None:
    """Write a DataFrame as parquet without the index, atomically.

    No timestamps are embedded by pyarrow, so identical frames give identical bytes.
    """
    atomic_write(path, lambda tmp: frame.to_parquet(tmp, index=False, engine="pyarrow"))


def write_csv_atomic(frame: Any, path: str | os.PathLike[str]) -> None:
    """Write a DataFrame as CSV without the index, atomically."""
    atomic_write(path, lambda tmp: frame.to_csv(tmp, index=False))


@contextlib.contextmanager
def job_log(path: str | os.PathLike[str] | None) -> Iterator[None]:
    """Send ``print``, warnings and ``logging`` output of a job to its log file.

    A workflow's ``log:`` only names the file; a script job must write to it itself.
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


# -- seeds ----------------------------------------------------------------------------------
def as_generator(seed: SeedLike) -> np.random.Generator:
    """A Generator from a SeedSequence, an int, or a ready Generator (returned as is)."""
    if isinstance(seed, np.random.Generator):
        return seed
    return np.random.default_rng(seed)


def as_seed_sequence(random_state: RandomStateLike) -> np.random.SeedSequence:
    """Turn a learner's ``random_state`` into a *fresh* :class:`~numpy.random.SeedSequence`.

    A SeedSequence passed in is copied (same entropy and spawn key, spawn counter reset),
    because ``spawn`` mutates its argument and a refit must see the same children: that is
    what makes every learner bit-identical on refit. ``None`` draws fresh OS entropy
    (non-deterministic, like scikit-learn).
    """
    if random_state is None:
        return np.random.SeedSequence()
    if isinstance(random_state, np.random.SeedSequence):
        return np.random.SeedSequence(
            random_state.entropy, spawn_key=random_state.spawn_key,
            pool_size=random_state.pool_size,
        )
    if isinstance(random_state, numbers.Integral) and not isinstance(random_state, bool):
        return np.random.SeedSequence(int(random_state))
    if isinstance(random_state, np.random.Generator):
        return np.random.SeedSequence(int(random_state.integers(2**63)))
    if isinstance(random_state, np.random.RandomState):
        return np.random.SeedSequence(int(random_state.randint(2**31 - 1)))
    raise ValueError(
        f"random_state must be None, an int, a numpy SeedSequence or generator; got {random_state!r}"
    )


# -- exact numbers --------------------------------------------------------------------------
def exact_fraction(value: float | int) -> Fraction:
    """The exact rational of a number as written (``2.5`` -> 5/2), so that percentages and
    noise levels are rounded without binary floating-point noise."""
    if isinstance(value, numbers.Integral):
        return Fraction(int(value))
    return Fraction(str(value))


# -- lazy package exports -------------------------------------------------------------------
def lazy_exports(package: str, exports: Mapping[str, str]) -> Callable[[str], Any]:
    """A module ``__getattr__`` (PEP 562) for ``package``: ``exports`` maps each public name
    to the submodule that defines it, imported on first access. The package's ``__dir__`` is
    set too, so ``dir(package)`` (and a notebook's completion) lists the exported names
    before any is used.

    Why: a package ``__init__`` that imports its submodules makes every import of any one of
    them pay for all; the workflow parses with a few light modules of ``report`` and
    ``learners`` and must not load matplotlib, scikit-learn or numba for that.
    """
    module_globals = sys.modules[package].__dict__

    def __getattr__(name: str) -> Any:
        module = exports.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(importlib.import_module(f"{package}.{module}"), name)

    def __dir__() -> list[str]:
        return sorted({*module_globals, *exports})

    module_globals["__dir__"] = __dir__
    return __getattr__
