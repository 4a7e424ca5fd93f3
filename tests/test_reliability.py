"""Reliability of the workflow as an operator sees it (markers ``workflow``, ``slow``).

* A Snakemake killed with SIGKILL mid-run (the whole process group, as the OOM killer or a
  lost SSH session would) is finished by a plain rerun, which recomputes nothing that had
  completed and ends with records identical to an uninterrupted run.
* ``--cores 1`` and ``--cores 2`` give identical records (scheduling order never matters).
* Every results directory carries a ``provenance.json``.

"Identical records" = every column of ``records.parquet`` except ``fit_seconds`` (a clock
reading), compared exactly; see ``smoke_support``.
"""

from __future__ import annotations

import base64
import json
import os
import re
import signal
import subprocess
import time
from pathlib import Path

import pytest
import smoke_support as smoke

pytestmark = [pytest.mark.workflow, pytest.mark.slow]

requires_mirror = pytest.mark.skipif(
    smoke.mirror_missing_reason() is not None, reason=smoke.mirror_missing_reason() or ""
)


def _incomplete_markers(workdir: Path) -> set[str]:
    """Outputs Snakemake had started but not finished (its .snakemake/incomplete markers)."""
    folder = workdir / ".snakemake" / "incomplete"
    names = set()
    for marker in folder.glob("*") if folder.is_dir() else []:
        try:
            names.add(base64.urlsafe_b64decode(marker.name.encode()).decode())
        except (ValueError, UnicodeDecodeError):
            continue
    return names


def _wait_for_group_exit(pgid: int, timeout: float = 20) -> None:
    """Until no process of group ``pgid`` is left (zombies of our own child are reaped)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.2)
    raise AssertionError(f"processes of group {pgid} survived SIGKILL")


def _rule_counts(text: str) -> dict[str, int]:
    """The 'Job stats' table Snakemake prints before running: rule -> number of jobs."""
    counts: dict[str, int] = {}
    block = text.split("Job stats:", 1)
    if len(block) < 2:
        return counts
    for line in block[1].splitlines()[3:]:
        match = re.fullmatch(r"\s*(\w+)\s+(\d+)\s*", line)
        if not match:
            break
        counts[match.group(1)] = int(match.group(2))
    return counts


@requires_mirror
def test_sigkill_mid_run_then_plain_rerun_finishes_without_recomputing(
    smoke_reference: Path, tmp_path: Path
) -> None:
    workdir = tmp_path / "killed"
    workdir.mkdir()
    # A plain `snakemake --cores 2` (the repository's default workflow profile applies), with
    # one unit per job so that there is a mid-run to kill in.
    config = ("--config", *smoke.SMOKE_CONFIG, smoke.ONE_UNIT_PER_JOB)
    command = smoke.snakemake_command(workdir, *config, cores=2, profile=True)
    with (tmp_path / "killed.log").open("w") as log:
        process = subprocess.Popen(
            command, stdout=log, stderr=subprocess.STDOUT, env=smoke.snakemake_env(), start_new_session=True
        )
        try:
            deadline = time.monotonic() + 600
            while len(smoke.job_record_files(workdir)) < 3:
                assert process.poll() is None, "the run ended before it could be killed"
                assert time.monotonic() < deadline, "no job finished within 600 s"
                time.sleep(0.1)
            os.killpg(process.pid, signal.SIGKILL)
        finally:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    _wait_for_group_exit(process.pid)
    assert process.returncode == -signal.SIGKILL

    in_flight = _incomplete_markers(workdir)
    finished = {
        path: path.stat().st_mtime_ns
        for path in [*smoke.job_record_files(workdir), *(workdir / "data" / "prepared").glob("*")]
        if str(path.relative_to(workdir)) not in in_flight
    }
    finished_jobs = [p for p in finished if p.suffix == ".parquet" and "records" in p.parts]
    assert finished_jobs, "nothing had completed before the kill"
    assert len(finished_jobs) < 10, "everything had completed before the kill"

    rerun = smoke.run_snakemake(workdir, *config, cores=2, profile=True)
    text = smoke.output_of(rerun)
    assert rerun.returncode == 0, text[-5000:]
    # Nothing that had completed was recomputed: same files (mtimes) and not in the job list.
    scheduled = [line for line in text.splitlines() if line.strip().startswith("output:")]
    for path, mtime in finished.items():
        assert path.stat().st_mtime_ns == mtime, f"{path} was rewritten"
        relative = str(path.relative_to(workdir))
        assert not [line for line in scheduled if relative in line], f"{relative} was scheduled again"
    counts = _rule_counts(text)
    assert counts.get("experiment_job") == 10 - len(finished_jobs), (counts, text[-3000:])
    prepared = {p.stem for p in finished if p.parent.name == "prepared"}
    both = [name for name in prepared if {f"{name}.parquet", f"{name}.json"} <= {p.name for p in finished}]
    assert counts.get("prepare_dataset", 0) == 2 - len(both), counts
    # ... and the result is the uninterrupted run's (packed into 2 jobs, not 10).
    smoke.assert_same_records(
        smoke.results_dir(smoke_reference) / "records.parquet",
        smoke.results_dir(workdir) / "records.parquet",
    )
    assert (smoke.results_dir(workdir) / "provenance.json").is_file()


@requires_mirror
def test_one_core_and_two_cores_give_identical_records(smoke_reference: Path, tmp_path: Path) -> None:
    result = smoke.run_snakemake(tmp_path, "--config", *smoke.SMOKE_CONFIG, cores=1)
    assert result.returncode == 0, smoke.output_of(result)[-5000:]
    smoke.assert_same_records(
        smoke.results_dir(smoke_reference) / "records.parquet",
        smoke.results_dir(tmp_path) / "records.parquet",
    )
    for reference in smoke.job_record_files(smoke_reference):
        smoke.assert_same_records(reference, tmp_path / reference.relative_to(smoke_reference))


@requires_mirror
def test_results_directory_carries_provenance(smoke_reference: Path) -> None:
    results = smoke.results_dir(smoke_reference)
    provenance = json.loads((results / "provenance.json").read_text(encoding="utf-8"))
    assert provenance["experiment"]["name"] == smoke.EXPERIMENT
    assert provenance["experiment"]["settings"]["seed"] == 20050801
    assert provenance["experiment"]["settings"]["jobs"] == {"iris": 1, "labor": 1}
    assert provenance["seeds"]["experiment_seed"] == 20050801
    assert re.fullmatch(r"[0-9a-f]{64}", provenance["config"]["sha256"])
    assert provenance["config"]["values"]["scale"] == "smoke"
    assert provenance["git"]["commit"] is None or re.fullmatch(r"[0-9a-f]{40}", provenance["git"]["commit"])
    assert provenance["packages"]["redecorate"] and provenance["packages"]["numpy"]
    assert {d["name"] for d in provenance["datasets"]} == {"iris", "labor"}
    for dataset in provenance["datasets"]:
        assert re.fullmatch(r"[0-9a-f]{64}", dataset["sha256"]), dataset
        assert "mirror" in dataset["source"]
    assert provenance["machine"]["hostname"]
    jobs = {job["job"]: job for job in provenance["jobs"]}
    # iris and labor are small: all 5 algorithms x 1 run of each in one job.
    assert sorted(name for name in jobs if name.startswith("experiment_job/")) == [
        "experiment_job/iris/chunk0", "experiment_job/labor/chunk0"
    ]
    assert {"prepare_dataset/iris", "combine_records", "report_experiment"} <= set(jobs)
    for job in jobs.values():
        assert job["wall_s"] is not None and job["wall_s"] > 0, job
        assert job["cpu_s"] is not None, job
    assert provenance["totals"]["jobs_with_benchmark"] == len(jobs)


@requires_mirror
def test_a_second_live_run_in_the_same_directory_is_refused(tmp_path: Path) -> None:
    """The README: stale locks of a killed run are removed, but two live runs are refused."""
    config = ("--config", *smoke.SMOKE_CONFIG, smoke.ONE_UNIT_PER_JOB)
    command = smoke.snakemake_command(tmp_path, *config, cores=1, profile=True)
    with (tmp_path / "first.log").open("w") as log:
        first = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT,
                                 env=smoke.snakemake_env(), start_new_session=True)  # fmt: skip
        try:
            # The owner file is written from `onstart`, after Snakemake has written its lock files
            # whole: a lock file seen the moment it is created may still be empty, and a second
            # run finds nothing of its own locked in it (a race seen once in CI).
            locks, owner = tmp_path / ".snakemake" / "locks", tmp_path / ".snakemake" / "redecorate-owner.json"
            deadline = time.monotonic() + 300
            while not (locks.is_dir() and any(locks.iterdir()) and owner.is_file()):
                assert first.poll() is None, "the first run ended before it held its locks"
                assert time.monotonic() < deadline, "the first run never took its locks"
                time.sleep(0.1)
            # Frozen, the first run stays alive and keeps its locks however slowly the second
            # starts on a loaded machine (it could otherwise finish first, leaving nothing to refuse).
            os.killpg(first.pid, signal.SIGSTOP)
            try:
                second = smoke.run_snakemake(tmp_path, *config, cores=1, profile=True, timeout=300)
            finally:
                os.killpg(first.pid, signal.SIGCONT)
            text = smoke.output_of(second)
            assert second.returncode != 0, text[-3000:]
            assert "cannot be locked" in text, text[-3000:]
            assert "Removed stale Snakemake locks" not in text
            assert first.wait(timeout=900) == 0, (tmp_path / "first.log").read_text()[-3000:]
        finally:
            if first.poll() is None:
                os.killpg(first.pid, signal.SIGKILL)
                first.wait()


@requires_mirror
def test_records_from_an_earlier_run_are_reused_only_under_the_same_settings(
    smoke_reference: Path, tmp_path: Path
) -> None:
    """An experiment continued elsewhere: the units whose records were kept (here labor's) are
    read, not recomputed, even with another grouping into jobs; kept records made under
    other settings (iris's, as if the seed had differed) are not taken."""
    import pandas as pd

    from redecorate.job_records import job_record_info, write_job_records

    earlier = tmp_path / "kept"
    kept = earlier / smoke.EXPERIMENT / "records"
    reference = smoke.results_dir(smoke_reference) / "records"
    (kept / "labor").mkdir(parents=True)
    (kept / "labor" / "chunk0.parquet").write_bytes((reference / "labor" / "chunk0.parquet").read_bytes())
    iris = job_record_info(reference / "iris" / "chunk0.parquet")
    decoy = {k: iris[k] for k in ("units", "unit_rows", "unit_cpu_s", "unit_sources")}
    write_job_records(pd.read_parquet(reference / "iris" / "chunk0.parquet"), kept / "iris" / "chunk0.parquet",
                      unit_keys=["0" * 64] * len(decoy["units"]), git={"commit": None, "dirty": None}, cpu_s=1.0,
                      **decoy)  # fmt: skip

    workdir = tmp_path / "continued"
    # One unit per job here (10 jobs), where the kept file holds all 5 units of labor.
    result = smoke.run_snakemake(workdir, "--config", *smoke.SMOKE_CONFIG, smoke.ONE_UNIT_PER_JOB,
                                 f"records_from={earlier}")  # fmt: skip
    assert result.returncode == 0, smoke.output_of(result)[-5000:]
    results = smoke.results_dir(workdir)
    logs = {p.relative_to(results / "logs").as_posix(): p.read_text() for p in (results / "logs").glob("*/*.log")}
    labor = [text for name, text in logs.items() if name.startswith("labor/")]
    iris_logs = [text for name, text in logs.items() if name.startswith("iris/")]
    assert len(labor) == 5 and len(iris_logs) == 5, sorted(logs)
    assert all("reused from" in text and "fold 1/3" not in text for text in labor)
    assert all("reused" not in text.replace("0 of 1 units reused", "") and "fold 3/3" in text for text in iris_logs)
    smoke.assert_same_records(smoke.results_dir(smoke_reference) / "records.parquet", results / "records.parquet")
    provenance = json.loads((results / "provenance.json").read_text(encoding="utf-8"))
    totals = provenance["totals"]
    assert totals["units_reused"] == 5 and totals["units_with_metadata"] == 10
    labor_cpu = sum(job_record_info(reference / "labor" / "chunk0.parquet")["unit_cpu_s"])
    assert totals["records_cpu_s"] == pytest.approx(totals["jobs_cpu_s"] + labor_cpu, abs=0.01)


@requires_mirror
def test_records_from_must_be_a_directory(tmp_path: Path) -> None:
    result = smoke.run_snakemake(tmp_path, "-n", "--config", *smoke.SMOKE_CONFIG, "records_from=no/such/dir")
    text = smoke.output_of(result)
    assert result.returncode != 0
    assert "key 'records_from'" in text and "is not a directory" in text, text[-2000:]
    # The run's own results_dir is the one directory that may be missing: a first run that
    # shares units between its experiments names it before it exists.
    own = smoke.run_snakemake(tmp_path, "-n", "--config", *smoke.SMOKE_CONFIG, "records_from=results")
    assert own.returncode == 0, smoke.output_of(own)[-2000:]
