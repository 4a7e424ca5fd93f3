"""``tools/regenerate_reports.py``: a committed experiment's report rewritten from its
committed records with today's code, nothing else touched."""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
NAME = "ch6_committees"  # 4 datasets, 2 runs: a report of a few seconds


@pytest.fixture(scope="module")
def tool():
    spec = importlib.util.spec_from_file_location("regenerate_reports", REPO / "tools" / "regenerate_reports.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_report_is_rewritten_from_the_records_and_nothing_else_is_touched(tmp_path: Path, tool) -> None:
    directory = tmp_path / NAME
    shutil.copytree(REPO / "reproduced" / NAME, directory)
    kept = {p: p.read_bytes() for p in [directory / "records.parquet", directory / "summary.csv",
                                       directory / "provenance.json", *sorted((directory / "records").rglob("*.parquet"))]}
    (directory / "replication.md").write_text("# a report of older code\n", encoding="utf-8")
    (directory / "tables" / "gone.csv").write_text("a table no report writes today\n", encoding="utf-8")

    changed = tool.regenerate(directory)

    assert "replication.md" in changed and "tables/gone.csv (removed)" in changed
    text = (directory / "replication.md").read_text(encoding="utf-8")
    assert text.startswith(f"# Replication report: {NAME}") and "## This run" in text
    assert not (directory / "tables" / "gone.csv").exists()
    assert not list(directory.rglob("*.pdf")) and not (directory / "replication.html").exists()
    assert {p: p.read_bytes() for p in kept} == kept  # records, summary and provenance as they were
    assert tool.regenerate(directory) == []  # a second pass finds nothing to rewrite


def test_an_experiment_that_is_not_committed_is_refused_with_the_available_ones(tmp_path: Path, tool) -> None:
    with pytest.raises(SystemExit):
        tool.main(["no_such_experiment", "--records", str(tmp_path)])


def test_readings_and_pilot_folders_are_rewritten_from_their_own_experiment_files(tool) -> None:
    """A folder named after a shipped experiment uses config/experiments/; a readings or pilot
    folder the experiment file its provenance recorded, kept beside it or at that path here."""
    listed = tool.committed(REPO / "reproduced")
    assert {"ch6_active", "ch7_readings", "ch8_afa_readings_decorate", "ch7_readings_schedule/ch7_binary_linear"} <= set(listed)
    assert tool.experiment_file(REPO / "reproduced" / "ch6_active") == REPO / "config/experiments/ch6_active.yaml"
    pilot = REPO / "reproduced" / "ch8_afa_readings_decorate"
    assert tool.experiment_file(pilot) == pilot / "ch8_afa_readings_decorate.yaml"
    aulc = tool.experiment_file(REPO / "reproduced" / "ch7_readings_aulc")
    assert aulc == REPO / "reproduced" / "ch7_readings" / "ch7_readings_aulc.yaml"


def test_the_report_of_a_slice_is_rewritten_as_a_slice(tmp_path: Path, tool) -> None:
    """A committed run of a slice (``--config datasets=[...]``) keeps the banner that says what
    it left out: the slice is rebuilt from what its provenance records."""
    import json

    directory = tmp_path / NAME
    shutil.copytree(REPO / "reproduced" / NAME, directory)
    provenance = json.loads((directory / "provenance.json").read_text(encoding="utf-8"))
    datasets = provenance["experiment"]["settings"]["datasets"]
    provenance["experiment"]["name"] = f"{NAME}.slice-0123abcd"
    provenance["experiment"]["settings"]["datasets"] = datasets[:2]
    (directory / "provenance.json").write_text(json.dumps(provenance), encoding="utf-8")

    tool.regenerate(directory)

    text = (directory / "replication.md").read_text(encoding="utf-8")
    assert f"**A slice of {NAME}**" in text
    assert f"left out: {', '.join(datasets[2:])}" in text
