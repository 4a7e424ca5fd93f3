"""Results of different scales live apart (redecorate.layout), and ``--report`` with a
``--config`` whose outputs do not exist fails saying so (issue: a smoke run replaced a quick
run's outputs; a report at the wrong scale exited 0 with docutils errors)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import smoke_support as smoke

from redecorate.config import load_yaml
from redecorate.layout import finished_elsewhere, results_root
from redecorate.report.status import (
    ExpectedOutput,
    experiments_not_run,
    missing_outputs,
    nothing_to_report,
)


def test_the_thesis_scale_keeps_results_and_the_others_get_a_folder_of_their_own() -> None:
    assert results_root("results", "thesis") == "results"
    assert results_root("results/", "quick") == "results/_scales/quick"
    assert results_root("out", "smoke") != results_root("out", "quick")


def test_another_scales_results_are_not_taken_for_an_experiment_or_its_records(tmp_path: Path) -> None:
    """results/*/records/<dataset>/ (what records_from=results reads) sees only the thesis
    scale's experiments, and no experiment name can be the scales' folder."""
    quick = Path(results_root(tmp_path, "quick")) / "ch6_active" / "records" / "iris"
    thesis = Path(results_root(tmp_path, "thesis")) / "ch6_active" / "records" / "iris"
    quick.mkdir(parents=True)
    thesis.mkdir(parents=True)
    assert sorted(tmp_path.glob("*/records/iris")) == [thesis]
    schema = load_yaml(smoke.REPO / "workflow" / "schemas" / "experiment.schema.yaml")
    assert not re.fullmatch(schema["$defs"]["name"]["pattern"], "_scales")


def test_a_report_at_the_wrong_scale_names_the_scales_that_have_results(tmp_path: Path) -> None:
    done = Path(results_root(tmp_path, "quick")) / "ch6_active"
    done.mkdir(parents=True)
    (done / "provenance.json").write_text("{}")
    (Path(results_root(tmp_path, "smoke")) / "ch6_active").mkdir(parents=True)  # unfinished
    elsewhere = finished_elsewhere(tmp_path, ["ch6_active", "ch4_passive"], "thesis")
    assert elsewhere == {"quick": ["ch6_active"]}
    message = nothing_to_report(["ch6_active", "ch4_passive"], "results", "thesis", elsewhere)
    assert "Nothing to report" in message and "scale 'thesis'" in message
    assert "--config scale=quick experiments=[ch6_active]" in message


def test_only_experiments_with_no_finished_job_count_as_not_run(tmp_path: Path) -> None:
    """A run that failed part-way is reported (with its missing outputs); only a selection
    none of whose jobs ran stops --report."""
    done = tmp_path / "records" / "iris.parquet"
    done.parent.mkdir()
    done.write_text("")
    expected = {
        "failed": [ExpectedOutput("experiment_job/iris", str(done), "a.log"),
                   ExpectedOutput("experiment_job/labor", str(tmp_path / "labor.parquet"), "b.log")],
        "never": [ExpectedOutput("experiment_job/iris", str(tmp_path / "x.parquet"), "c.log")],
    }
    assert experiments_not_run(missing_outputs(expected)) == {"never"}


@pytest.mark.workflow
def test_report_with_a_config_whose_outputs_are_missing_fails_with_the_reason(tmp_path: Path) -> None:
    reason = smoke.mirror_missing_reason()
    if reason:
        pytest.skip(reason)
    done = tmp_path / results_root("results", "smoke") / smoke.EXPERIMENT
    done.mkdir(parents=True)
    (done / "provenance.json").write_text("{}")  # as if a smoke run had finished
    result = smoke.run_snakemake(tmp_path, "--report", "report.html", "--config", *smoke.SMOKE_DATA,
                                 "scale=quick", f"experiments=[{smoke.EXPERIMENT}]", cores=None)
    text = smoke.output_of(result)
    assert result.returncode != 0, text[-3000:]
    assert "Nothing to report" in text and "Finished at scale 'smoke': ch4_passive" in text, text[-3000:]
    assert "ERROR/3" not in text and not (tmp_path / "report.html").exists()


@pytest.mark.workflow
def test_each_scale_plans_its_outputs_in_its_own_folder(tmp_path: Path) -> None:
    reason = smoke.mirror_missing_reason()
    if reason:
        pytest.skip(reason)
    planned = {}
    for scale in ("smoke", "quick"):
        result = smoke.run_snakemake(tmp_path, "--dry-run", "--config", *smoke.SMOKE_DATA,
                                     f"scale={scale}", f"experiments=[{smoke.EXPERIMENT}]", cores=None)
        assert result.returncode == 0, smoke.output_of(result)[-3000:]
        planned[scale] = smoke.output_of(result)
    for scale, text in planned.items():
        assert f"results/_scales/{scale}/{smoke.EXPERIMENT}/replication.md" in text
        assert f"results/{smoke.EXPERIMENT}/" not in text  # the thesis scale's folder
