"""The missing-output table of a partial run (redecorate.report.status), on hand-made files."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from redecorate.report.status import ExpectedOutput, last_error, missing_outputs, write_run_status


def _expected(tmp_path: Path, experiment: str, jobs: list[str]) -> list[ExpectedOutput]:
    base = tmp_path / experiment
    outputs = []
    for job in jobs:
        stem = job.replace("/", "_")
        outputs.append(ExpectedOutput(job, str(base / f"{stem}.parquet"), str(base / f"{stem}.log")))
    return outputs


def test_lists_each_missing_output_of_a_started_experiment(tmp_path: Path) -> None:
    started = _expected(tmp_path, "a", ["prepare_dataset/iris", "passive_job/iris", "passive_job/labor"])
    (tmp_path / "a").mkdir()
    Path(started[0].output).touch()
    Path(started[1].output).touch()
    Path(started[2].log).write_text(
        "job {...}\nTraceback (most recent call last):\nDataError: labor: not in the mirror\nexiting\n"
    )
    rows = missing_outputs({"a": started})
    assert [r["job"] for r in rows] == ["passive_job/labor"]
    assert rows[0]["last_error"] == "DataError: labor: not in the mirror"


def test_an_experiment_that_never_started_is_one_row(tmp_path: Path) -> None:
    never = _expected(tmp_path, "b", ["prepare_dataset/iris", "passive_job/iris", "combine_records"])
    (tmp_path / "b").mkdir()
    Path(never[0].output).touch()  # shared dataset preparation does not count as a start
    rows = missing_outputs({"b": never})
    assert len(rows) == 1
    assert rows[0]["job"] == "all 2 jobs" and "not run" in rows[0]["last_error"]


def test_last_error_without_log_and_with_plain_log(tmp_path: Path) -> None:
    assert "did not run" in last_error(tmp_path / "absent.log")
    plain = tmp_path / "plain.log"
    plain.write_text("first\nkilled by signal 9\n")
    assert last_error(plain) == "killed by signal 9"
    (tmp_path / "empty.log").write_text("\n")
    assert last_error(tmp_path / "empty.log") == "empty log"


def test_written_table_has_the_documented_columns(tmp_path: Path) -> None:
    path = write_run_status(tmp_path / "results" / "run_status.csv", [])
    assert list(pd.read_csv(path).columns) == ["experiment", "job", "missing_output", "log", "last_error"]
