"""Provenance of one experiment's results: what code, data, configuration and machine made them.

``results/<experiment>/provenance.json`` lets a reader of a results directory answer, without
the workflow at hand, "which commit, which package versions, which configuration, which data
files (by checksum), which seeds, on what machine, and how long did each job take?". It is
written by the workflow's ``provenance`` rule after every other output of the experiment, from:

* the git repository of the workflow (commit and whether the tree had uncommitted changes);
* installed distributions (``importlib.metadata``), not ``__version__`` attributes, so that
  editable installs and packages without the attribute are reported the same way;
* the configuration and resolved experiment, hashed as canonical JSON (sorted keys, no
  whitespace) so the hash does not depend on YAML formatting or key order;
* the prepared datasets' JSON sidecars (their ``source`` and ``sha256``), plus the sidecar's
  own checksum so a changed sidecar is visible too;
* Snakemake ``benchmark:`` files (wall ``s`` and ``cpu_time`` columns) for per-job costs;
* each job's records file (:mod:`redecorate.job_records`): the commit that computed its
  records and the CPU that took, which differ from this run's when ``records_from`` supplied
  them from an earlier run.

Nothing here influences any record: provenance is a pure description, so it is allowed to
contain clock readings and host names that differ between runs.
"""

from __future__ import annotations

import csv
import getpass
import hashlib
import json
import os
import platform
import socket
import subprocess
import sys
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any

import numpy  # noqa: F401 - loads the BLAS numpy links, which threadpoolctl finds
from threadpoolctl import threadpool_info

import redecorate
from redecorate.util import atomic_path

try:  # NumPy's CPU dispatch (numpy >= 2), to record which compiled loops run here
    from numpy._core import _multiarray_umath as _umath
except ImportError:  # pragma: no cover - numpy < 2
    _umath = None

__all__ = [
    "ARITHMETIC_PACKAGES",
    "DEFAULT_PACKAGES",
    "LOCK_FILE",
    "arithmetic_environment",
    "benchmark_times",
    "build_provenance",
    "canonical_hash",
    "dataset_sources",
    "file_sha256",
    "git_state",
    "locked_versions",
    "machine_info",
    "package_versions",
    "recorded_file",
    "unlocked_arithmetic",
    "write_provenance",
]

#: Distributions whose versions can change a record or a figure.
DEFAULT_PACKAGES: tuple[str, ...] = (
    "redecorate",
    "numpy",
    "pandas",
    "scipy",
    "scikit-learn",
    "numba",
    "llvmlite",
    "threadpoolctl",
    "pyarrow",
    "matplotlib",
    "pyyaml",
    "jsonschema",
    "openml",
    "snakemake",
    "snakemake-executor-plugin-slurm",
)


def canonical_hash(value: Any) -> str:
    """SHA-256 of ``value`` as canonical JSON: equal configurations give equal hashes.

    Non-JSON values (paths, tuples) are stringified/listified by ``default=str`` and
    ``json``'s tuple handling, which is stable across processes (no salted ``hash()``).
    """
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def file_sha256(path: str | os.PathLike[str]) -> str:
    """SHA-256 of a file's bytes, streamed so large files do not need to fit in memory."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def git_state(repo: str | os.PathLike[str]) -> dict[str, Any]:
    """Commit and dirtiness of the repository at ``repo``; ``None``s outside a git checkout.

    A dirty tree is recorded rather than refused: the commit alone would then claim more
    than it can prove, and the reader should know that.
    """

    def _git(*args: str) -> str | None:
        try:
            done = subprocess.run(
                ["git", "-C", str(repo), *args], capture_output=True, text=True, timeout=30
            )
        except (OSError, subprocess.TimeoutExpired):
            return None
        return done.stdout.strip() if done.returncode == 0 else None

    commit = _git("rev-parse", "HEAD")
    status = _git("status", "--porcelain", "--untracked-files=no") if commit else None
    return {
        "commit": commit,
        "dirty": None if status is None else bool(status),
        "describe": _git("describe", "--always", "--dirty") if commit else None,
    }


def code_checkout(fallback: str | os.PathLike[str]) -> Path:
    """The git checkout the imported ``redecorate`` package comes from, else ``fallback``.

    Why: a workflow run from one checkout imports the package from wherever it was installed
    (an editable install of another working tree), so the commit of the working directory can
    name other code than the one that computed the records; the commit of the package's own
    tree is the one that did."""
    root = Path(__file__).resolve().parents[2]
    return root if (root / ".git").exists() else Path(fallback)


def package_versions(names: Iterable[str] = DEFAULT_PACKAGES) -> dict[str, str | None]:
    """Installed version of each distribution (``None`` when not installed)."""
    versions: dict[str, str | None] = {"python": platform.python_version()}
    for name in names:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = None
    return versions


#: CPU features that select different compiled code paths in NumPy and numba (vectorised
#: ``log``/``exp`` and reductions), so two machines may differ in the last bit of a float.
CPU_FEATURES = ("sse4_2", "avx", "avx2", "fma", "avx512f")


def cpu_description() -> str | None:
    """The CPU's model and which of :data:`CPU_FEATURES` it has (Linux; None elsewhere).

    Why: records are computed bit for bit the same on one machine, but a committed unit was
    once not reproduced on another (docs/operations.md, "Determinism"); the CPU beside each
    job's records is what tells such runs apart."""
    try:
        text = Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    fields = dict(line.split(":", 1) for line in text.splitlines()[:40] if ":" in line)
    fields = {k.strip(): v.strip() for k, v in fields.items()}
    flags = set(fields.get("flags", "").split())
    have = [f for f in CPU_FEATURES if f in flags]
    return f"{fields.get('model name', platform.processor() or '?')} [{' '.join(have)}]"


#: The distributions whose code does a record's arithmetic (numba compiles with llvmlite's LLVM).
ARITHMETIC_PACKAGES: tuple[str, ...] = ("numpy", "scipy", "scikit-learn", "pandas", "numba", "llvmlite",
                                        "pyarrow")

#: Environment variables that choose a code path of the arithmetic: the BLAS kernel and its
#: threads, NumPy's and glibc's CPU dispatch, numba's target CPU.
ARITHMETIC_VARIABLES = ("OPENBLAS_CORETYPE", "OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS",
                        "NPY_DISABLE_CPU_FEATURES", "GLIBC_TUNABLES", "NUMBA_CPU_NAME", "NUMBA_NUM_THREADS")


def blas_libraries() -> list[dict[str, Any]]:
    """Each BLAS library loaded in this process (threadpoolctl; numpy, imported here, loads
    the one it links): its implementation, version, the kernel it chose for this CPU
    (``architecture``: Haswell, SkylakeX, ...) and threads."""
    keep = ("internal_api", "version", "architecture", "threading_layer", "num_threads")
    return [{k: info.get(k) for k in keep} for info in threadpool_info() if info.get("user_api") == "blas"]


def _numpy_dispatch() -> list[str] | None:
    """The CPU features NumPy's dispatched loops use on this machine (None if unknown)."""
    if _umath is None:
        return None
    umath = _umath
    features = getattr(umath, "__cpu_features__", {})
    return [f for f in getattr(umath, "__cpu_dispatch__", ()) if features.get(f)]


LOCK_FILE = "requirements.lock"


def locked_versions(lock: str | os.PathLike[str]) -> dict[str, str]:
    """Distribution -> version pinned in a pip constraints file (``name==version`` lines),
    names normalised as pip compares them (lower case, ``-`` for ``_`` and ``.``)."""
    pins: dict[str, str] = {}
    for line in Path(lock).read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if "==" in line:
            name, version = line.split("==", 1)
            pins[_normalised(name)] = version.strip()
    return pins


def _normalised(name: str) -> str:
    return "-".join(name.strip().lower().replace("_", "-").replace(".", "-").split("-"))


def unlocked_arithmetic(lock: str | os.PathLike[str]) -> dict[str, tuple[str | None, str]]:
    """Each of :data:`ARITHMETIC_PACKAGES` whose installed version is not the lock's:
    name -> (installed, locked). Empty when the install is the locked one."""
    pins = locked_versions(lock)
    installed = package_versions(ARITHMETIC_PACKAGES)
    return {name: (installed[name], pins[_normalised(name)]) for name in ARITHMETIC_PACKAGES
            if _normalised(name) in pins and installed[name] != pins[_normalised(name)]}


def arithmetic_environment() -> dict[str, Any]:
    """What did the arithmetic of this process's records: redecorate's version, the exact
    versions of :data:`ARITHMETIC_PACKAGES`, the BLAS and its kernel, NumPy's dispatched CPU
    features, the C library, the CPU and :data:`ARITHMETIC_VARIABLES` that are set.

    Why: a record is meant to depend on its unit key alone (docs/operations.md,
    "Determinism"); when one does not reproduce, this is what tells two machines apart.
    The CPU string alone could not: two BLAS kernels run on the same CPU."""
    return {
        "redecorate": redecorate.__version__,
        "packages": {name: package_versions((name,))[name] for name in ARITHMETIC_PACKAGES},
        "blas": blas_libraries(),
        "numpy_dispatch": _numpy_dispatch(),
        "libc": " ".join(platform.libc_ver()).strip() or None,
        "cpu": cpu_description(),
        "variables": {v: os.environ[v] for v in ARITHMETIC_VARIABLES if v in os.environ},
    }


def machine_info() -> dict[str, Any]:
    """Where the provenance was written (the aggregating host; jobs may have run elsewhere)."""
    return {
        "hostname": socket.gethostname(),
        "platform": platform.platform(),
        "machine": platform.machine(),
        "processor": platform.processor() or None,
        "cpu": cpu_description(),
        "cpu_count": os.cpu_count(),
        "python_executable": sys.executable,
        "user": _user(),
        "slurm_job_id": os.environ.get("SLURM_JOB_ID"),
    }


def _user() -> str | None:
    try:
        return getpass.getuser()
    except (KeyError, OSError):  # no passwd entry in some containers
        return None


def dataset_sources(sidecars: Iterable[str | os.PathLike[str]]) -> list[dict[str, Any]]:
    """Source and checksums of each prepared dataset, from its JSON sidecar."""
    out = []
    for sidecar in sorted(map(Path, sidecars)):
        meta = json.loads(sidecar.read_text(encoding="utf-8"))
        parquet = sidecar.with_suffix(".parquet")
        out.append(
            {
                "name": meta.get("name", sidecar.stem),
                "source": meta.get("source"),
                "sha256": meta.get("sha256"),
                "n_instances": meta.get("n_instances"),
                "n_classes": meta.get("n_classes"),
                "sidecar": str(sidecar),
                "sidecar_sha256": file_sha256(sidecar),
                "prepared_sha256": file_sha256(parquet) if parquet.is_file() else None,
            }
        )
    return out


def _number(text: str | None) -> float | None:
    try:
        return float(text) if text not in (None, "", "NA", "-") else None
    except ValueError:
        return None


def benchmark_times(benchmarks: Mapping[str, str | os.PathLike[str]]) -> list[dict[str, Any]]:
    """Wall/CPU seconds and peak memory per job, from Snakemake ``benchmark:`` TSV files.

    ``benchmarks`` maps a job label (e.g. ``passive_job/iris/j48/run0``) to its file. A
    missing file (a job that never ran, e.g. under ``--keep-going``) is listed with
    ``None``s rather than silently dropped. Files with several rows (``repeat()``) are
    averaged.
    """
    rows = []
    for job, path in sorted(benchmarks.items()):
        path = Path(path)
        entry: dict[str, Any] = {
            "job": job,
            "benchmark": str(path),
            "wall_s": None,
            "cpu_s": None,
            "max_rss_mb": None,
        }
        if path.is_file():
            with path.open(encoding="utf-8", newline="") as handle:
                records = list(csv.DictReader(handle, delimiter="\t"))
            if records:
                for key, column in (("wall_s", "s"), ("cpu_s", "cpu_time"), ("max_rss_mb", "max_rss")):
                    values = [v for v in (_number(r.get(column)) for r in records) if v is not None]
                    entry[key] = round(sum(values) / len(values), 3) if values else None
        rows.append(entry)
    return rows


def _cpu_by_commit(info: Mapping[str, Any]) -> dict[str, float]:
    """Commit -> CPU seconds of a job's records: the job's own process CPU under its commit,
    each reused unit's CPU under the commit that computed it ("unknown" where that is lost).
    What :mod:`redecorate.calibration` needs to compare each measurement with its code."""
    out: dict[str, float] = {}
    own = str(info.get("commit") or "unknown")
    out[own] = float(info["cpu_s"])
    for cpu_s, source, commit in zip(info["unit_cpu_s"], info["unit_sources"], info["unit_commits"], strict=True):
        if source:
            out[str(commit or "unknown")] = out.get(str(commit or "unknown"), 0.0) + float(cpu_s)
    return {commit: round(seconds, 3) for commit, seconds in out.items()}


def _attach_job_records(jobs: list[dict[str, Any]],
                        job_records: Mapping[str, Mapping[str, Any] | None] | None,
                        ) -> tuple[list[float | None], float, int, int]:
    """Add to each job what its records file says of itself (``job["records"]``: commit,
    units reused from an earlier run), so a reader sees where its records were computed.

    Returns each job's own CPU (its records' process CPU where known, else the benchmark's),
    the CPU of the reused units where they were computed, and the numbers of reused units
    and of units with metadata.
    """
    reused_cpu_total, units_reused, units_total = 0.0, 0, 0
    # Snakemake samples a benchmark's CPU every few seconds and misses what a job spends
    # after the last sample (about half of the CPU of the online experiments' short jobs); a
    # records file carries its job's own process CPU, which is exact, so that is preferred.
    own_cpu = [j["cpu_s"] for j in jobs]
    for i, job in enumerate(jobs):
        info = (job_records or {}).get(job["job"])
        if info is None:
            continue
        if info.get("cpu_s") is not None:
            own_cpu[i] = float(info["cpu_s"])
        sources = info.get("unit_sources", [])
        reused = [cpu_s for cpu_s, source in zip(info.get("unit_cpu_s", []), sources, strict=True) if source]
        job["records"] = {
            "commit": info.get("commit"), "dirty": info.get("dirty"), "cpu_s": info.get("cpu_s"),
            "host": info.get("host"), "written_at": info.get("written_at"), "units": len(sources),
            "units_reused": len(reused), "reused_cpu_s": round(sum(reused), 3),
            "reused_from": sorted({source for source in sources if source}),
        }  # fmt: skip
        if info.get("arithmetic") is not None:
            job["records"]["arithmetic"] = info["arithmetic"]
        if info.get("unit_commits") is not None and info.get("cpu_s") is not None:
            job["records"]["cpu_s_by_commit"] = _cpu_by_commit(info)
        units_reused += len(reused)
        units_total += len(sources)
        reused_cpu_total += sum(reused)
    return own_cpu, reused_cpu_total, units_reused, units_total


def _job_totals(jobs: list[dict[str, Any]],
                job_records: Mapping[str, Mapping[str, Any] | None] | None) -> dict[str, Any]:
    """The experiment's job counts and costs (``totals``), the jobs annotated with their
    records on the way (:func:`_attach_job_records`): what the results cost to compute."""
    wall = [j["wall_s"] for j in jobs if j["wall_s"] is not None]
    cpu = [j["cpu_s"] for j in jobs if j["cpu_s"] is not None]
    own_cpu, reused_cpu_total, units_reused, units_total = _attach_job_records(jobs, job_records)
    totals: dict[str, Any] = {
        "jobs": len(jobs),
        "jobs_with_benchmark": len(wall),
        "wall_s": round(sum(wall), 3),
        "cpu_s": round(sum(cpu), 3),
    }
    if job_records is not None:
        # What the records cost wherever they were computed: this run's CPU (each job's own
        # process CPU where its records say it) plus, for units taken from an earlier run
        # (records_from), the CPU they took there.
        jobs_cpu = sum(c for c in own_cpu if c is not None)
        totals["jobs_cpu_s"] = round(jobs_cpu, 3)
        totals["records_cpu_s"] = round(jobs_cpu + reused_cpu_total, 3)
        totals["units_reused"] = units_reused
        totals["units_with_metadata"] = units_total
    return totals


def _experiment_block(experiment: str, experiment_settings: Mapping[str, Any],
                      experiment_file: str | os.PathLike[str] | None) -> dict[str, Any]:
    """The experiment's name and resolved settings with their hash, and the experiment
    file's checksum when it exists: which configuration made the results."""
    experiment_block: dict[str, Any] = {
        "name": experiment,
        "settings": dict(experiment_settings),
        "settings_sha256": canonical_hash(experiment_settings),
    }
    if experiment_file is not None and Path(experiment_file).is_file():
        experiment_block["file"] = str(experiment_file)
        experiment_block["file_sha256"] = file_sha256(experiment_file)
    return experiment_block


def recorded_file(recorded: str | os.PathLike[str] | None,
                  repo: str | os.PathLike[str]) -> Path | None:
    """The file at a path a provenance file recorded (``experiment.file``), found in ``repo``.

    Why: the recorded path is absolute and names the checkout that ran the experiment, often
    another machine's. The file is looked for under ``repo`` at the longest tail of that path
    (the path without its first part, then without its first two, ...) that exists, so
    ``/home/x/redecorate/reproduced/ch7_readings/ch7_readings_rejection.yaml`` is found at
    ``reproduced/ch7_readings/ch7_readings_rejection.yaml`` here. None when no tail exists
    (or nothing was recorded).
    """
    parts = Path(str(recorded or "")).parts
    for start in range(1, len(parts)):
        candidate = Path(repo).joinpath(*parts[start:])
        if candidate.is_file():
            return candidate
    return None


def build_provenance(
    *,
    experiment: str,
    repo: str | os.PathLike[str],
    config: Mapping[str, Any],
    experiment_settings: Mapping[str, Any],
    sidecars: Iterable[str | os.PathLike[str]],
    benchmarks: Mapping[str, str | os.PathLike[str]],
    experiment_file: str | os.PathLike[str] | None = None,
    job_records: Mapping[str, Mapping[str, Any] | None] | None = None,
) -> dict[str, Any]:
    """Everything ``provenance.json`` holds, as a JSON-ready dict (see the module docstring).

    ``job_records`` maps a job label of ``benchmarks`` to what its records file says of
    itself (:func:`redecorate.job_records.job_record_info`; None for a file without it).
    """
    jobs = benchmark_times(benchmarks)
    totals = _job_totals(jobs, job_records)
    experiment_block = _experiment_block(experiment, experiment_settings, experiment_file)
    return {
        "format_version": 1,
        "written_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "experiment": experiment_block,
        "git": git_state(repo),
        "packages": package_versions(),
        "config": {"values": dict(config), "sha256": canonical_hash(config)},
        "seeds": {
            "experiment_seed": experiment_settings.get("seed"),
            "derivation": (
                "numpy.random.SeedSequence(experiment seed, BLAKE2b digest of named keys): folds "
                "from (dataset, run); curve subsets from (dataset, run, fold); learners from "
                "(dataset, run, fold, algorithm, point)"
            ),
        },
        "datasets": dataset_sources(sidecars),
        "machine": machine_info(),
        "arithmetic": arithmetic_environment(),
        "jobs": jobs,
        "totals": totals,
    }


def write_provenance(data: Mapping[str, Any], path: str | os.PathLike[str]) -> Path:
    """Write ``data`` as indented JSON, atomically (a killed job leaves no partial file)."""
    with atomic_path(path) as tmp:
        tmp.write_text(json.dumps(data, indent=2, sort_keys=False, default=str) + "\n", encoding="utf-8")
    return Path(path)
