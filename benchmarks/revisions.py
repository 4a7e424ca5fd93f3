"""Git revisions of this repository as trees on disk, for benchmarks that compare code versions.

A revision's files are taken with ``git archive`` once and kept in
``$REDECORATE_CACHE/revisions/<commit>/`` (default ``~/.cache/redecorate``), so numba compiles
each revision's kernels once there. A process runs that revision's code with the tree's
``src`` first on ``PYTHONPATH``.
"""

from __future__ import annotations

import os
import subprocess
import tarfile
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CACHE = Path(os.environ.get("REDECORATE_CACHE", Path.home() / ".cache" / "redecorate")) / "revisions"
#: What running the workflow at a revision needs.
WORKFLOW_PATHS = ("src", "Snakefile", "workflow", "config", "scripts")


def git(*args: str) -> str:
    """Output of a git command in this repository."""
    return subprocess.run(["git", *args], cwd=ROOT, check=True, capture_output=True, text=True).stdout


def subject(commit: str) -> str:
    """The first line of a commit's message."""
    return git("log", "-1", "--format=%s", commit).strip()


def tree(rev: str, paths: Sequence[str] = ("src",)) -> tuple[str, Path]:
    """(short commit, folder) holding ``paths`` of revision ``rev``, extracted once."""
    commit = git("rev-parse", "--verify", f"{rev}^{{commit}}").strip()
    folder = CACHE / commit
    missing = [p for p in paths if not (folder / p).exists()]
    if missing:
        folder.mkdir(parents=True, exist_ok=True)
        archive = folder / "tree.tar"
        subprocess.run(["git", "archive", "-o", str(archive), commit, *missing], cwd=ROOT, check=True)
        with tarfile.open(archive) as handle:
            handle.extractall(folder, filter="data")
        archive.unlink()
    return commit[:9], folder


def process_env(folder: Path) -> dict[str, str]:
    """The environment of a process that runs the code of the tree in ``folder``: its ``src``
    first on the path, one thread per library (a benchmark times one core, as the workflow's
    jobs use) and a fixed hash seed, so two revisions differ only in their code."""
    env = {**os.environ, "PYTHONPATH": str(folder / "src"), "PYTHONHASHSEED": "0"}
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMBA_NUM_THREADS"):
        env[var] = "1"
    return env
