"""The smoke workflow through a real SLURM cluster (marker ``slurm``).

A single-node SLURM (munge, slurmctld, slurmd, and slurmdbd + MariaDB so that ``sacct``
works) is stood up on localhost with ``../shared/tools/slurm-localhost.sh`` (see its
``.md`` for the pitfalls that make Snakemake hang), and the smoke profile runs through
``snakemake-executor-plugin-slurm`` with the repository's ``workflow/profiles/slurm``. The test
checks through ``sacct`` that every cluster job Snakemake submitted really ran in SLURM and
completed, that tiny jobs were grouped, and that the records equal those of a local
``--cores 2`` run (every column but the ``fit_seconds`` clock reading, exactly).

Skips, with the reason, where SLURM cannot be started (not root, no apt/packages, script
missing) or the executor plugin is not installed. Daemons this test started are stopped on
teardown; a cluster that was already running (e.g. one CI started) is left as found.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import signal
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
import smoke_support as smoke

pytestmark = [pytest.mark.slurm, pytest.mark.workflow, pytest.mark.slow]

SCRIPT = (smoke.REPO / ".." / "shared" / "tools" / "slurm-localhost.sh").resolve()
PROFILE = smoke.REPO / "workflow" / "profiles" / "slurm"
ACCOUNT, PARTITION = "ci", "debug"  # what slurm-localhost.sh creates
RUN_TIMEOUT = 1200


def _cluster_answers() -> bool:
    if shutil.which("sinfo") is None:
        return False
    done = subprocess.run(["sinfo", "-h", "-o", "%T"], capture_output=True, text=True, timeout=30)
    return done.returncode == 0 and bool(done.stdout.strip())


def _accounting_works() -> bool:
    done = subprocess.run(["sacct", "-n", "-X", "-j", "1"], capture_output=True, text=True, timeout=30)
    return done.returncode == 0


@pytest.fixture(scope="module")
def slurm_cluster() -> Iterator[None]:
    """A running local SLURM with accounting; stopped afterwards if this fixture started it."""
    if importlib.util.find_spec("snakemake_executor_plugin_slurm") is None:
        pytest.skip("snakemake-executor-plugin-slurm is not installed (pip install -e '.[slurm]')")
    already_up = _cluster_answers() and _accounting_works()
    started = False
    if not already_up:
        if not SCRIPT.is_file():
            pytest.skip(f"cannot start SLURM: {SCRIPT} not found")
        if os.geteuid() != 0:
            pytest.skip("cannot start SLURM: slurm-localhost.sh needs root")
        try:
            done = subprocess.run(
                ["bash", str(SCRIPT), "start"], capture_output=True, text=True, timeout=600,
                env={**os.environ, "SLURM_WITH_ACCOUNTING": "1"},
            )  # fmt: skip
        except subprocess.TimeoutExpired:
            subprocess.run(["bash", str(SCRIPT), "stop"], capture_output=True, timeout=120)
            pytest.skip("cannot start SLURM: slurm-localhost.sh start took more than 600 s")
        started = True
        if done.returncode != 0 or not _cluster_answers():
            subprocess.run(["bash", str(SCRIPT), "stop"], capture_output=True, timeout=120)
            pytest.skip(f"cannot start SLURM (slurm-localhost.sh start failed): {done.stderr[-1500:]}")
    try:
        yield
    finally:
        if started:
            subprocess.run(["bash", str(SCRIPT), "stop"], capture_output=True, timeout=120)


def _run_through_slurm(workdir: Path) -> tuple[int, str]:
    """``snakemake --workflow-profile workflow/profiles/slurm`` on the smoke profile.

    Own process group so a hung run can be killed whole; its SLURM jobs are cancelled by id.
    ``--slurm-init-seconds-before-status-checks 1``: the plugin's default first poll at 40 s
    would triple the test's duration (slurm-localhost.md, pitfall 3).
    """
    command = smoke.snakemake_command(
        workdir, "--workflow-profile", str(PROFILE),
        "--slurm-init-seconds-before-status-checks", "1",
        "--default-resources", f"slurm_account={ACCOUNT}", f"slurm_partition={PARTITION}",
        "--config", *smoke.SMOKE_CONFIG,
        cores=None, profile=True,
    )  # fmt: skip
    log_path = workdir.parent / f"{workdir.name}.log"
    with log_path.open("w") as log:
        process = subprocess.Popen(
            command, stdout=log, stderr=subprocess.STDOUT, env=smoke.snakemake_env(), start_new_session=True
        )
        try:
            process.wait(timeout=RUN_TIMEOUT)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    text = log_path.read_text()
    if process.returncode != 0:
        ids = _submitted_job_ids(text)
        if ids:
            subprocess.run(["scancel", *ids], capture_output=True, timeout=60)
    return process.returncode, text


def _submitted_job_ids(text: str) -> list[str]:
    return re.findall(r"submitted with SLURM jobid (\d+)", text)


@pytest.mark.usefixtures("slurm_cluster")
def test_smoke_profile_through_slurm_matches_local_run(smoke_reference: Path, tmp_path: Path) -> None:
    workdir = tmp_path / "slurm"
    workdir.mkdir()
    returncode, text = _run_through_slurm(workdir)
    assert returncode == 0, text[-5000:]

    # Every cluster job Snakemake submitted is in SLURM's accounting, COMPLETED, in our account.
    ids = _submitted_job_ids(text)
    assert ids, text[-3000:]
    accounting = subprocess.run(
        ["sacct", "-X", "-P", "-n", "-j", ",".join(ids), "-o", "JobIDRaw,JobName,Account,State,AllocCPUS"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert accounting.returncode == 0, accounting.stderr
    rows = [line.split("|") for line in accounting.stdout.splitlines() if line.strip()]
    assert sorted(row[0] for row in rows) == sorted(ids), accounting.stdout
    for job_id, _name, account, state, cpus in rows:
        assert state == "COMPLETED" and account == ACCOUNT and int(cpus) >= 1, (job_id, state, account)
    assert len({row[1] for row in rows}) == 1, "all jobs carry the one run's name"

    # Jobs were grouped: 8 workflow steps (2 prepare, 2 experiment jobs, 4 aggregate) in
    # exactly one cluster job per group (prepare, jobs, aggregate), as the README states.
    assert len(ids) == 3, f"{len(ids)} SLURM jobs for the smoke run; grouping did not apply"
    assert "group_prepare" in text and "group_jobs" in text and "group_aggregate" in text

    # Same records as the local --cores 2 run, job by job and combined.
    smoke.assert_same_records(
        smoke.results_dir(smoke_reference) / "records.parquet",
        smoke.results_dir(workdir) / "records.parquet",
    )
    for reference in smoke.job_record_files(smoke_reference):
        smoke.assert_same_records(reference, workdir / reference.relative_to(smoke_reference))
    assert (smoke.results_dir(workdir) / "provenance.json").is_file()
