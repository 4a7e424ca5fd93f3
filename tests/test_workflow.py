"""End-to-end tests of the Snakemake workflow (marker ``workflow``).

They run the real ``Snakefile`` with ``--directory`` pointing into a temporary directory, so
the repository is never written to, on the ``smoke`` profile (1 run, 3 folds, 3 curve points)
and datasets read from the shared ARFF mirror (``../shared/datasets/uci`` beside the repo).
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pandas as pd
import pytest
import smoke_support as smoke
import yaml

pytestmark = pytest.mark.workflow

REPO = smoke.REPO
MIRROR = smoke.MIRROR
EXPERIMENT = REPO / "config" / "experiments" / "ch4_passive.yaml"
SMOKE = {"datasets": ["iris", "labor"], "runs": 1, "folds": 3, "points": [10, 50, 100]}
ALGORITHMS = ["j48", "bagging", "adaboost", "decorate", "rf"]

requires_mirror = pytest.mark.skipif(
    not (MIRROR / "iris.arff").is_file(),
    reason=f"ARFF mirror not found at {MIRROR} (expected ../shared/datasets/uci beside the repo)",
)


def snakemake(workdir: Path, *args: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    """Run Snakemake on the repository's Snakefile with ``workdir`` as working directory."""
    return smoke.run_snakemake(workdir, *args, timeout=timeout)


output_of = smoke.output_of


def write_experiment(path: Path, **changes: object) -> Path:
    """A copy of ch4_passive.yaml with top-level keys replaced (YAML is a JSON superset)."""
    import yaml

    data = yaml.safe_load(EXPERIMENT.read_text(encoding="utf-8"))
    data.update(changes)
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def smoke_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, subprocess.CompletedProcess[str]]:
    """One full smoke run of the thesis experiment (all 5 algorithms, iris + labor)."""
    if not (MIRROR / "iris.arff").is_file():
        pytest.skip(f"ARFF mirror not found at {MIRROR}")
    workdir = tmp_path_factory.mktemp("smoke")
    result = snakemake(workdir, "--config", *smoke.SMOKE_CONFIG)
    return workdir, result


@requires_mirror
def test_smoke_run_produces_every_output(smoke_run) -> None:
    workdir, result = smoke_run
    assert result.returncode == 0, output_of(result)[-5000:]
    results = smoke.results_dir(workdir)
    for dataset in SMOKE["datasets"]:
        assert (workdir / "data" / "prepared" / f"{dataset}.parquet").is_file()
        assert (workdir / "data" / "prepared" / f"{dataset}.json").is_file()
        # Small datasets: every unit (algorithm x run) in one job (redecorate.kinds.jobs).
        assert (results / "records" / dataset / "chunk0.parquet").is_file()
        assert (results / "logs" / dataset / "chunk0.log").is_file()
        assert (results / "benchmarks" / dataset / "chunk0.tsv").is_file()
    for name in ("records.parquet", "summary.csv", "replication.md", "replication.csv"):
        assert (results / name).is_file(), name
    assert (results / "tables").is_dir() and (results / "figures").is_dir()
    # Progress: one line per finished fold and one per finished unit in each job log.
    log = (results / "logs" / "labor" / "chunk0.log").read_text()
    assert "labor decorate run 0 fold 3/3" in log
    assert f"unit {len(ALGORITHMS)}/{len(ALGORITHMS)} (algorithm=" in log and "left" in log

    records = pd.read_parquet(results / "records.parquet")
    expected_rows = len(SMOKE["datasets"]) * len(ALGORITHMS) * SMOKE["runs"] * SMOKE["folds"] * len(SMOKE["points"])
    assert len(records) == expected_rows
    assert set(records["algorithm"]) == set(ALGORITHMS)
    assert set(records["dataset"]) == set(SMOKE["datasets"])
    assert sorted(records["point"].unique().tolist()) == SMOKE["points"]
    assert (records["experiment"] == "ch4_passive").all()
    assert records["value"].between(0, 100).all()
    # J48 is one tree; the ensembles are at most 15 members.
    assert (records.loc[records["algorithm"] == "j48", "ensemble_size"] == 1).all()
    assert records["ensemble_size"].between(1, 15).all()
    # Every algorithm trained on the same subset sizes (same folds, same curve points).
    sizes = records.pivot_table(index=["dataset", "fold", "point"], columns="algorithm", values="n_train")
    assert (sizes.nunique(axis=1) == 1).all()
    summary = pd.read_csv(results / "summary.csv")
    assert len(summary) == len(SMOKE["datasets"]) * len(ALGORITHMS) * len(SMOKE["points"])


@requires_mirror
def test_second_invocation_has_nothing_to_do(smoke_run) -> None:
    workdir, first = smoke_run
    assert first.returncode == 0, output_of(first)[-3000:]
    again = snakemake(workdir, "--config", *smoke.SMOKE_CONFIG)
    assert again.returncode == 0, output_of(again)[-3000:]
    assert "Nothing to be done" in output_of(again)


@requires_mirror
def test_rerunning_a_job_gives_bit_identical_values(smoke_run) -> None:
    workdir, first = smoke_run
    assert first.returncode == 0, output_of(first)[-3000:]
    target = smoke.results_dir(workdir) / "records" / "labor" / "chunk0.parquet"
    before = pd.read_parquet(target)
    result = snakemake(
        workdir, "--config", *smoke.SMOKE_CONFIG, "--force", str(target.relative_to(workdir)),
    )  # fmt: skip
    assert result.returncode == 0, output_of(result)[-3000:]
    after = pd.read_parquet(target)
    columns = [c for c in before.columns if c != "fit_seconds"]
    pd.testing.assert_frame_equal(before[columns], after[columns], check_exact=True)


# --------------------------------------------------------------------------- config errors


def _dry_run(workdir: Path, *config: str) -> subprocess.CompletedProcess[str]:
    return snakemake(workdir, "--dry-run", "--config", *config, timeout=180)


def test_unknown_config_key_names_the_file_and_key(tmp_path: Path) -> None:
    result = _dry_run(tmp_path, "scael=quick")
    text = output_of(result)
    assert result.returncode != 0
    assert "config/config.yaml" in text and "scael" in text, text[-3000:]


def test_unknown_scale_names_the_experiment_file(tmp_path: Path) -> None:
    result = _dry_run(tmp_path, "scale=huge", "experiments=[ch4_passive]")
    text = output_of(result)
    assert result.returncode != 0
    assert "ch4_passive.yaml" in text and "'huge'" in text, text[-3000:]


def test_unknown_algorithm_names_the_experiment_file(tmp_path: Path) -> None:
    bad = write_experiment(
        tmp_path / "bad_algorithm.yaml", name="bad_algorithm", algorithms={"j48": {}, "decorat": {}}
    )
    result = _dry_run(tmp_path, f"experiments=[{bad}]")
    text = output_of(result)
    assert result.returncode != 0
    assert str(bad) in text and "'decorat'" in text and "algorithm" in text, text[-3000:]


def test_unknown_dataset_names_the_experiment_file(tmp_path: Path) -> None:
    bad = write_experiment(tmp_path / "bad_dataset.yaml", name="bad_dataset", datasets=["iris", "irsi"])
    result = _dry_run(tmp_path, f"experiments=[{bad}]")
    text = output_of(result)
    assert result.returncode != 0
    assert str(bad) in text and "'irsi'" in text and "dataset" in text, text[-3000:]


def test_schema_violation_names_file_and_key(tmp_path: Path) -> None:
    bad = write_experiment(tmp_path / "bad_folds.yaml", name="bad_folds", folds=1)
    result = _dry_run(tmp_path, f"experiments=[{bad}]")
    text = output_of(result)
    assert result.returncode != 0
    assert str(bad) in text and "folds" in text, text[-3000:]


def test_dry_run_of_the_thesis_plans_every_job(tmp_path: Path) -> None:
    """ch4_passive at thesis scale: the 15 x 5 x 10 = 750 units of work, packed into jobs."""
    from redecorate.data import load_registry
    from redecorate.experiments import load_experiment
    from redecorate.kinds.jobs import plan_experiment

    spec = load_experiment(EXPERIMENT, schema=REPO / "workflow" / "schemas" / "experiment.schema.yaml")
    plan = plan_experiment(spec, load_registry(REPO / "config" / "datasets.yaml"))
    units = [(d, u["algorithm"], u["run"]) for d, chunks in plan.items() for c in chunks for u in c.units]
    assert len(units) == len(set(units)) == 15 * 5 * 10  # every unit exactly once
    jobs = sum(len(chunks) for chunks in plan.values())
    assert len(plan["iris"]) == 1 and len(plan["splice"]) >= 5  # small: one job; large: several
    result = snakemake(
        tmp_path, "--dry-run", "--quiet", "rules", "--config", "experiments=[ch4_passive]", timeout=300
    )
    text = output_of(result)
    assert result.returncode == 0, text[-3000:]
    assert any(line.split()[:2] == ["experiment_job", str(jobs)] for line in text.splitlines()), text[-3000:]
    assert any(line.split()[:2] == ["prepare_dataset", "15"] for line in text.splitlines()), text[-3000:]


def test_the_default_selects_every_experiment_file(tmp_path: Path) -> None:
    """No --config: the whole replication, one aggregate per file in config/experiments/ that
    defines the scale (a user's own file without a smoke profile is left out, saying so)."""
    files = [path for path in sorted((REPO / "config" / "experiments").glob("*.yaml"))
             if "smoke" in (yaml.safe_load(path.read_text(encoding="utf-8")).get("profiles") or {})]
    result = snakemake(tmp_path, "--dry-run", "--quiet", "rules", "--config", "scale=smoke", timeout=600)
    text = output_of(result)
    assert result.returncode == 0, text[-3000:]
    counts = {line.split()[0]: line.split()[1] for line in text.splitlines() if len(line.split()) == 2}
    assert counts.get("combine_records") == str(len(files)), text[-3000:]
    assert counts.get("provenance") == str(len(files)), text[-3000:]


# --------------------------------------------------------------------------- failures

#: One J48 run of 3-fold CV at two points: the cheapest experiment that still aggregates.
TINY_J48 = dict(algorithms={"j48": {}}, runs=1, folds=3, points=[50, 100], profiles={}, report={})


def _mirror_without_labor(tmp_path: Path) -> Path:
    """A mirror holding iris only, so every job that needs labor fails at preparation."""
    mirror = tmp_path / "mirror"
    mirror.mkdir()
    shutil.copy(MIRROR / "iris.arff", mirror / "iris.arff")
    return mirror


@requires_mirror
def test_a_failing_job_keeps_the_completed_outputs(tmp_path: Path) -> None:
    """labor is missing from this mirror: its jobs fail, iris's finish (--keep-going)."""
    mirror = _mirror_without_labor(tmp_path)
    experiment = write_experiment(
        tmp_path / "partial.yaml", name="partial", datasets=["iris", "labor"], **TINY_J48
    )
    result = snakemake(
        tmp_path, "--keep-going", "--config", f"experiments=[{experiment}]", f"data_mirror={mirror}"
    )
    text = output_of(result)
    assert result.returncode != 0, text[-3000:]
    assert "labor" in text
    results = tmp_path / "results" / "partial"
    iris = results / "records" / "iris" / "chunk0.parquet"
    assert iris.is_file(), text[-3000:]
    assert len(pd.read_parquet(iris)) == 3 * 2
    assert not (results / "records" / "labor" / "chunk0.parquet").exists()
    assert not (tmp_path / "data" / "prepared" / "labor.parquet").exists()
    assert not (results / "records.parquet").exists(), "no aggregate of incomplete records"
    log = (tmp_path / "data" / "logs" / "prepare_labor.log").read_text()
    assert "labor" in log and "mirror" in log
    # No half-written files anywhere.
    assert not [p for p in tmp_path.rglob("*.tmp")]


@requires_mirror
def test_the_report_of_a_partial_run_marks_what_is_missing(tmp_path: Path) -> None:
    """--keep-going past a failed dataset: the finished experiment is reported, the other listed."""
    pytest.importorskip("jinja2", reason="snakemake --report needs jinja2")
    mirror = _mirror_without_labor(tmp_path)
    done = write_experiment(tmp_path / "done.yaml", name="done", datasets=["iris"], **TINY_J48)
    partial = write_experiment(
        tmp_path / "partial.yaml", name="partial", datasets=["iris", "labor"], **TINY_J48
    )
    config = ("--config", f"experiments=[{done},{partial}]", f"data_mirror={mirror}")
    run = snakemake(tmp_path, "--keep-going", *config)
    assert run.returncode != 0, output_of(run)[-3000:]
    assert (tmp_path / "results" / "done" / "provenance.json").is_file(), output_of(run)[-3000:]

    # As a user types it (the repository's workflow profile on): Snakemake's default disk
    # resource, computed from input sizes, warns once per job under --report unless the
    # profile fixes disk_mb.
    report = smoke.run_snakemake(tmp_path, "--report", "report.html", *config, profile=True)
    assert report.returncode == 0, output_of(report)[-5000:]
    assert "RuntimeWarning" not in output_of(report), output_of(report)[-3000:]
    status = pd.read_csv(tmp_path / "results" / "run_status.csv")
    assert set(status["experiment"]) == {"partial"}
    by_job = status.set_index("job")
    assert {"prepare_dataset/labor", "experiment_job/labor/chunk0", "combine_records"} <= set(by_job.index)
    assert "experiment_job/iris/chunk0" not in by_job.index  # it finished
    assert "labor" in by_job.loc["prepare_dataset/labor", "last_error"]
    assert "did not run" in by_job.loc["experiment_job/labor/chunk0", "last_error"]

    html = (tmp_path / "report.html").read_text(encoding="utf-8")
    embedded = smoke.embedded_results(html)
    assert "results/run_status.csv" in embedded
    assert "results/done/replication.csv" in embedded
    assert not [name for name in embedded if name.startswith("results/partial/")]
    assert "0. Missing outputs" in html and "Incomplete, left out of this report" in html

    # Fixed and rerun: the status file goes, and a plain run never builds it.
    shutil.copy(MIRROR / "labor.arff", mirror / "labor.arff")
    assert snakemake(tmp_path, *config).returncode == 0
    report = snakemake(tmp_path, "--report", "report.html", *config)
    assert report.returncode == 0, output_of(report)[-5000:]
    assert not (tmp_path / "results" / "run_status.csv").exists()
    assert "results/partial/replication.csv" in (tmp_path / "report.html").read_text(encoding="utf-8")


@requires_mirror
def test_offline_runs_skip_datasets_only_openml_has(tmp_path: Path) -> None:
    """With data_mirror, a dataset that needs a download is dropped before any job, with a
    message naming it and the fix; the rest of the experiment is planned as usual."""
    exp = write_experiment(tmp_path / "offline.yaml", name="offline", datasets=["promoters", "iris"],
                           profiles={})
    result = snakemake(tmp_path, "--dry-run", "--quiet", "rules", "--config", f"experiments=[{exp}]",
                       f"data_mirror={smoke.MIRROR}", timeout=300)
    text = output_of(result)
    assert result.returncode == 0, text[-3000:]
    assert text.count("offline: skipping promoters (OpenML 164, 106 instances)") == 1, text[-3000:]
    assert "run without data_mirror to download it" in text
    counts = {line.split()[0]: line.split()[1] for line in text.splitlines() if len(line.split()) == 2}
    assert counts.get("prepare_dataset") == "1", text[-3000:]
    only_openml = write_experiment(tmp_path / "none.yaml", name="none", datasets=["promoters"], profiles={})
    result = snakemake(tmp_path, "--dry-run", "--config", f"experiments=[{only_openml}]",
                       f"data_mirror={smoke.MIRROR}", timeout=300)
    assert result.returncode != 0
    assert "experiment 'none'" in output_of(result) and "none of its datasets" in output_of(result)
