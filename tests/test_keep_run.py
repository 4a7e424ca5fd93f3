"""tools/keep_run.py: keeping a finished run of a whole experiment never drops a committed
record, and writes the report from the records it keeps."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pandas as pd
import pytest
from keep_run import main  # tools/ is on sys.path (conftest)

REPO = Path(__file__).resolve().parents[1]
NAME = "ch4_base_learners"  # a small committed thesis-scale run with its job files


@pytest.fixture
def run(tmp_path: Path) -> Path:
    """A finished run of the whole experiment: the committed one, as the workflow left it."""
    results = tmp_path / "results"
    shutil.copytree(REPO / "reproduced" / NAME, results / NAME)
    return results


def _keep(results: Path, into: Path, name: str = NAME) -> int:
    return main([name, "--results", str(results), "--into", str(into), "--prefix", "thesis"])


def test_a_finished_run_is_kept_with_its_job_files_and_its_report_rewritten(run: Path, tmp_path: Path,
                                                                             capsys) -> None:
    into = tmp_path / "reproduced"
    (into / NAME / "tables").mkdir(parents=True)
    (into / NAME / "tables" / "stale.md").write_text("a table the report no longer writes")
    assert _keep(run, into) == 0
    kept, source = into / NAME, run / NAME
    for name in ("records.parquet", "summary.csv", "provenance.json"):
        assert (kept / name).read_bytes() == (source / name).read_bytes()
    assert sorted(p.name for p in (kept / "records").glob("*/thesis-*.parquet")) == sorted(
        f"thesis-{p.name}" for p in (source / "records").glob("*/*.parquet"))
    # The report is today's code's from the kept records: the committed report of those records.
    assert (kept / "replication.md").read_text() == (REPO / "reproduced" / NAME / "replication.md").read_text()
    assert not (kept / "tables" / "stale.md").exists()
    assert "replication_report.py" in capsys.readouterr().out


def test_a_run_lacking_a_committed_record_is_refused_and_nothing_is_touched(run: Path, tmp_path: Path,
                                                                             capsys) -> None:
    into = tmp_path / "reproduced"
    records = pd.read_parquet(run / NAME / "records.parquet")
    extra = records.iloc[:3].assign(run=99)  # a run the new records lack
    (into / NAME).mkdir(parents=True)
    pd.concat([records, extra]).to_parquet(into / NAME / "records.parquet")
    before = (into / NAME / "records.parquet").read_bytes()
    assert _keep(run, into) == 1
    err = capsys.readouterr().err
    assert "3 records" in err and ", 99 (" in err and "records_from=" in err
    assert (into / NAME / "records.parquet").read_bytes() == before
    assert sorted(p.name for p in (into / NAME).iterdir()) == ["records.parquet"]


def test_a_slice_or_an_unfinished_run_is_refused(run: Path, tmp_path: Path, capsys) -> None:
    into = tmp_path / "reproduced"
    sliced = f"{NAME}.slice-0123abcd"
    shutil.copytree(run / NAME, run / sliced)
    assert _keep(run, into, sliced) == 1
    err = capsys.readouterr().err
    assert "the run of a slice" in err and "pass --slice" in err
    (run / NAME / "provenance.json").unlink()
    assert _keep(run, into) == 1
    assert "has not finished" in capsys.readouterr().err
    assert _keep(run, into, "ch4_passive") == 1
    assert f"no run of 'ch4_passive' under {run} (finished runs there: {sliced};" in capsys.readouterr().err
    assert not into.exists()


def test_with_slice_a_slice_is_kept_as_the_experiment_and_its_report_stays_a_slice(tmp_path: Path,
                                                                                   capsys) -> None:
    """The committed Oza boosting run is a slice (the seven UCI sets of the mirror): kept with
    ``--slice`` from a results folder, it lands under the experiment's own name and its report,
    rewritten from the records, is the committed slice report, not a whole run's."""
    name = "oza_online_boosting"
    committed = REPO / "reproduced" / name
    sliced = json.loads((committed / "provenance.json").read_text())["experiment"]["name"]
    assert sliced.startswith(f"{name}.slice-")
    results, into = tmp_path / "results", tmp_path / "reproduced"
    shutil.copytree(committed, results / sliced)
    assert main([sliced, "--results", str(results), "--into", str(into), "--prefix", "thesis"]) == 1
    assert "pass --slice" in capsys.readouterr().err and not into.exists()
    assert main([sliced, "--results", str(results), "--into", str(into), "--prefix", "thesis", "--slice"]) == 0
    assert f"kept under {into / name}" in capsys.readouterr().out
    assert (into / name / "records.parquet").read_bytes() == (committed / "records.parquet").read_bytes()
    assert len(list((into / name / "records").glob("*/*.parquet"))) == len(list(committed.glob("records/*/*.parquet")))
    report = (into / name / "replication.md").read_text()
    assert report == (committed / "replication.md").read_text()
    assert "slice" in report
