"""Helpers shared by the operational tests (reliability, SLURM, HTML report).

They run the repository's Snakefile on the ``smoke`` profile in a temporary working directory
(``--directory``), never writing into the repository. What "identical records" means is
defined once here: every column of ``records.parquet`` except the clock readings in
:data:`TIMING_COLUMNS`, compared exactly (same rows, same order, same dtypes, same bits).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pandas as pd

from redecorate.layout import results_root

REPO = Path(__file__).resolve().parents[1]
SNAKEFILE = REPO / "Snakefile"
MIRROR = (REPO / ".." / "shared" / "datasets" / "uci").resolve()
EXPERIMENT = "ch4_passive"
#: The smoke scale on the mirror, for any selection of experiments.
SMOKE_DATA = ("scale=smoke", f"data_mirror={MIRROR}")
#: ... of the chapter-4 experiment alone: the reference run of the operational tests.
SMOKE_CONFIG = (*SMOKE_DATA, f"experiments=[{EXPERIMENT}]")
#: Where a smoke run's experiments go, relative to its working directory (the thesis scale's
#: results/ is left to the thesis scale: redecorate.layout).
SMOKE_RESULTS = results_root("results", "smoke")
#: One unit of work (algorithm x run) per job: the 10 jobs of the smoke run instead of the
#: 2 (one per dataset) that cost-based packing makes. Records do not depend on the packing.
ONE_UNIT_PER_JOB = "job_seconds=1e-9"
#: Wall-clock measurements: they differ between any two runs by nature, so they are the only
#: record columns left out of "identical records".
TIMING_COLUMNS = ("fit_seconds",)


def mirror_missing_reason() -> str | None:
    """Why the smoke workflow cannot run here (``None`` when it can)."""
    if not (MIRROR / "iris.arff").is_file() or not (MIRROR / "labor.arff").is_file():
        return f"ARFF mirror not found at {MIRROR} (expected ../shared/datasets/uci beside the repo)"
    return None


def snakemake_env() -> dict[str, str]:
    """Environment of every test run: fixed hash seed, no display."""
    return {**os.environ, "PYTHONHASHSEED": "0", "MPLBACKEND": "Agg"}


def snakemake_command(workdir: Path, *args: str, cores: int | None = 2, profile: bool = False) -> list[str]:
    """``python -m snakemake`` on the repository's Snakefile with ``workdir`` as working dir.

    ``profile=False`` adds ``--workflow-profile none`` (the repository's local defaults off);
    ``profile=True`` is a plain ``snakemake`` as a user would type it.
    """
    command = [sys.executable, "-m", "snakemake", "--snakefile", str(SNAKEFILE), "--directory", str(workdir)]
    if cores is not None:
        command += ["--cores", str(cores)]
    if not profile:
        command += ["--workflow-profile", "none"]
    return [*command, *args]


def run_snakemake(
    workdir: Path, *args: str, cores: int | None = 2, profile: bool = False, timeout: float = 900,
    env: dict[str, str] | None = None,
) -> subprocess.CompletedProcess[str]:
    """Run Snakemake to completion and return the finished process (output captured)."""
    return subprocess.run(
        snakemake_command(workdir, *args, cores=cores, profile=profile),
        capture_output=True,
        text=True,
        timeout=timeout,
        env=snakemake_env() if env is None else env,
    )


def output_of(result: subprocess.CompletedProcess[str]) -> str:
    """stdout and stderr of a finished run, for assertion messages."""
    return (result.stdout or "") + (result.stderr or "")


def results_dir(workdir: Path) -> Path:
    """``results/_scales/smoke/ch4_passive`` of a smoke run."""
    return workdir / SMOKE_RESULTS / EXPERIMENT


def record_values(path: Path) -> pd.DataFrame:
    """The records of ``path`` without the timing columns: what must be identical."""
    frame = pd.read_parquet(path)
    return frame[[c for c in frame.columns if c not in TIMING_COLUMNS]]


def assert_same_records(left: Path, right: Path) -> None:
    """Exact equality of two records files, timing columns aside (see module docstring)."""
    a, b = record_values(left), record_values(right)
    assert list(a.columns) == list(b.columns)
    pd.testing.assert_frame_equal(a, b, check_exact=True)


def job_record_files(workdir: Path) -> list[Path]:
    """Every per-job records file of a smoke run, sorted."""
    return sorted((results_dir(workdir) / "records").glob("*/chunk*.parquet"))


def embedded_results(html: str) -> dict[str, Any]:
    """The ``results = {...}`` object a Snakemake HTML report embeds: one entry per file."""
    start = html.index("results = {") + len("results = ")
    value, _end = json.JSONDecoder().raw_decode(html, start)
    return value


def smoke_report(spec: Any, dataset_name: str, workdir: Path) -> tuple[Any, Any]:
    """The kind's report of ``spec`` computed on one dataset of the mirror, as the workflow's
    report rule makes it (same settings, outputs in ``workdir``): (replication report, outputs)."""
    from redecorate.data import load_dataset, load_registry
    from redecorate.experiments import report_settings
    from redecorate.kinds import ReportOutputs, get_kind
    from redecorate.kinds.jobs import run_units
    from redecorate.stats import summarise

    kind = get_kind(spec.kind)
    dataset = load_dataset(dataset_name, registry=load_registry(), mirror=MIRROR)
    records = pd.concat([r for r, _ in run_units(dataset, kind, kind.job_settings(spec), list(kind.units(spec)),
                                                 progress=lambda _: None)], ignore_index=True)  # fmt: skip
    out = ReportOutputs(workdir / "tables", workdir / "figures")
    out.tables.mkdir()
    out.figures.mkdir()
    settings = report_settings(spec, REPO / "config" / "published")
    return kind.report(records, summarise(records), out, settings), out
