"""Every experiment file runs end to end at the smoke scale (markers ``workflow``, ``slow``).

Why: an experiment that only passes a dry run can still fail in its jobs or its report (a
learner parameter a job rejects, an analysis that chokes on real records). One Snakemake run
builds all experiment files of ``config/experiments/`` at ``scale=smoke`` on the ARFF mirror
(iris and labor, a few folds); ch4_passive and ch5_class_noise are left to their own, more
detailed smoke tests (test_workflow.py, test_workflow_noise.py), which this would only repeat. A new experiment file is covered by adding it to the directory, nothing else.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
import smoke_support as smoke
import yaml

pytestmark = [pytest.mark.workflow, pytest.mark.slow]

EXPERIMENT_DIR = smoke.REPO / "config" / "experiments"
COVERED_ELSEWHERE = {"ch4_passive", "ch5_class_noise"}
EXPERIMENTS = sorted(p.stem for p in EXPERIMENT_DIR.glob("*.yaml") if p.stem not in COVERED_ELSEWHERE)


def _experiment(name: str) -> dict:
    return yaml.safe_load((EXPERIMENT_DIR / f"{name}.yaml").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def all_experiments(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One smoke run of every experiment not covered by a dedicated smoke test."""
    reason = smoke.mirror_missing_reason()
    if reason:
        pytest.skip(reason)
    workdir = tmp_path_factory.mktemp("all_experiments")
    config = ("--config", f"experiments=[{','.join(EXPERIMENTS)}]", *smoke.SMOKE_DATA)
    result = smoke.run_snakemake(workdir, *config, timeout=2400)
    assert result.returncode == 0, smoke.output_of(result)[-6000:]
    return workdir


def test_the_directory_has_experiments_to_cover() -> None:
    assert len(EXPERIMENTS) >= 5, EXPERIMENTS


@pytest.mark.parametrize("name", EXPERIMENTS)
def test_experiment_runs_at_smoke_scale(all_experiments: Path, name: str) -> None:
    spec = _experiment(name)
    smoke_profile = spec["profiles"]["smoke"]
    results = all_experiments / smoke.SMOKE_RESULTS / spec["name"]
    for output in ("records.parquet", "summary.csv", "replication.md", "provenance.json"):
        assert (results / output).is_file(), output

    records = pd.read_parquet(results / "records.parquet")
    datasets = smoke_profile.get("datasets", spec["datasets"])
    assert set(records["dataset"]) == set(datasets)
    assert set(records["algorithm"]) == set(spec["algorithms"])
    accuracy = records.loc[records["metric"] == "accuracy", "value"]
    assert len(accuracy) > 0 and accuracy.between(0.0, 100.0).all()  # percent
    folds = smoke_profile.get("folds", spec.get("folds"))
    per_job = records.groupby(["dataset", "algorithm", "run"])["fold"].nunique()
    assert (per_job == folds).all(), per_job

    report = spec.get("report") or {}
    tables = [p for p in (results / "tables").iterdir() if p.stat().st_size > 0]
    figures = [p for p in (results / "figures").glob("*.png") if p.stat().st_size > 0]
    if (report.get("baseline") and report.get("others")) or report.get("comparisons") or report.get("tables"):
        assert tables and figures, (tables, figures)
    if report.get("analyses"):
        log = (results / "logs" / "report.log").read_text(encoding="utf-8")
        assert f"analyses {', '.join(report['analyses'])}:" in log, log[-2000:]
        assert tables, "an analysis writes at least one table"


def test_second_invocation_has_nothing_to_do(all_experiments: Path) -> None:
    config = ("--config", f"experiments=[{','.join(EXPERIMENTS)}]", *smoke.SMOKE_DATA)
    result = smoke.run_snakemake(all_experiments, "--dry-run", *config)
    text = smoke.output_of(result)
    assert result.returncode == 0, text[-3000:]
    assert "Nothing to be done" in text, text[-3000:]
