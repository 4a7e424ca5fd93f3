"""End-to-end test of a Chapter 5 noise experiment in the Snakemake workflow (``workflow``).

One smoke run of ``ch5_class_noise`` (iris + labor from the shared ARFF mirror, 1 run of
3-fold CV, noise levels 0/20/40 %, the four algorithms) in a temporary directory, plus a
dry run showing that ``--config experiments=[...]`` selects Chapter 4 and Chapter 5
experiments side by side. Skipped without the mirror (../shared/datasets/uci beside the repo).
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pandas as pd
import pytest
import smoke_support as smoke

REPO = smoke.REPO
MIRROR = smoke.MIRROR

requires_mirror = pytest.mark.skipif(
    not (MIRROR / "iris.arff").is_file() or not (MIRROR / "labor.arff").is_file(),
    reason=f"ARFF mirror not found at {MIRROR} (expected ../shared/datasets/uci beside the repo)",
)


def snakemake(workdir: Path, *args: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    """The repository's Snakefile with ``workdir`` as working directory, no workflow profile."""
    return smoke.run_snakemake(workdir, *args, timeout=timeout)


output_of = smoke.output_of


pytestmark = pytest.mark.workflow

EXPERIMENT = "ch5_class_noise"
DATASETS = ["iris", "labor"]
ALGORITHMS = ["j48", "bagging", "adaboost", "decorate"]
LEVELS = [0, 20, 40]
CONFIG = ("--config", f"experiments=[{EXPERIMENT}]", "scale=smoke", f"data_mirror={MIRROR}")


@pytest.fixture(scope="module")
def noise_run(
    tmp_path_factory: pytest.TempPathFactory,
) -> tuple[Path, subprocess.CompletedProcess[str]]:
    if not (MIRROR / "iris.arff").is_file():
        pytest.skip(f"ARFF mirror not found at {MIRROR}")
    workdir = tmp_path_factory.mktemp("noise_smoke")
    return workdir, snakemake(workdir, *CONFIG, timeout=1200)


@requires_mirror
def test_noise_smoke_run_produces_the_chapter_5_outputs(noise_run) -> None:
    workdir, result = noise_run
    assert result.returncode == 0, output_of(result)[-5000:]
    assert "experiment_job" in output_of(result) and "report_experiment" in output_of(result)
    results = workdir / smoke.SMOKE_RESULTS / EXPERIMENT
    for dataset in DATASETS:
        assert (results / "records" / dataset / "chunk0.parquet").is_file()
        assert (results / "benchmarks" / dataset / "chunk0.tsv").is_file()
    for name in ("replication.md", "replication.csv", "replication_conclusions.csv"):
        assert (results / name).is_file(), name
    records = pd.read_parquet(results / "records.parquet")
    assert len(records) == len(DATASETS) * len(ALGORITHMS) * 3 * len(LEVELS)
    assert sorted(records["point"].unique().tolist()) == LEVELS, "point = noise level"
    assert (records["experiment"] == EXPERIMENT).all()
    assert (records["metric"] == "accuracy").all() and records["value"].between(0, 100).all()
    # Every level and algorithm trains on the whole training fold.
    sizes = records.groupby(["dataset", "fold"])["n_train"].nunique()
    assert (sizes == 1).all()
    iris = records[records["dataset"] == "iris"]
    assert set(iris["n_train"]) == {100}
    tables = results / "tables"
    for name in ("decorate_vs_j48", "bagging_vs_j48", "adaboost_vs_j48"):
        for ext in ("md", "tex", "csv"):
            assert (tables / f"{name}.{ext}").is_file()
    assert (
        "Table 5.6 (replicated): Class Noise: Bagging vs J48"
        in (tables / "bagging_vs_j48.md").read_text()
    )
    assert (results / "figures" / "noise_curve_labor.png").is_file()
    replication = (results / "replication.md").read_text()
    assert "Table 5.5" in replication and "0.8286" in replication
    rep = pd.read_csv(results / "replication.csv")
    assert set(rep["table"].astype(str)) == {"5.5", "5.6", "5.7"}
    assert rep["a_published"].notna().all(), "iris and labor are Table 5.1 datasets"
    assert (results / "provenance.json").is_file()


@requires_mirror
def test_noise_second_invocation_has_nothing_to_do(noise_run) -> None:
    workdir, first = noise_run
    assert first.returncode == 0, output_of(first)[-3000:]
    again = snakemake(workdir, *CONFIG)
    assert again.returncode == 0, output_of(again)[-3000:]
    assert "Nothing to be done" in output_of(again)


def test_chapter_4_and_5_experiments_are_selected_together(tmp_path: Path) -> None:
    result = snakemake(
        tmp_path, "--dry-run", "--config", "experiments=[ch4_passive,ch5_missing]",
        "scale=smoke", timeout=300,
    )  # fmt: skip
    text = output_of(result)
    assert result.returncode == 0, text[-3000:]
    assert "experiment_job" in text and "report_experiment" in text
    assert f"{smoke.SMOKE_RESULTS}/ch5_missing/records/labor/chunk0.parquet" in text
    assert f"{smoke.SMOKE_RESULTS}/ch4_passive/records/labor/chunk0.parquet" in text
