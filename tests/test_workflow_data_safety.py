"""Nothing lost, nothing stale: a user's own dataset edited, a slice of a finished run, a
registry naming a file that is not there (issue 36, items 1-3).

Every test runs the repository's Snakefile in a temporary working directory on a small CSV
dataset of the user's (a registry of its own, given with ``registry=``) and a three-learner
experiment file, as a new user would set them up:

* an edited CSV (and its registry entry) is prepared again, and every job that read it reruns
  (``snakemake -n`` lists them); a registry whose declared sizes no longer match the prepared
  data fails the dry run naming both numbers; records of an earlier run on other data are not
  reused under ``records_from``;
* a slice (``algorithms=[...]``) of a finished run leaves every record of the whole run as it
  was, says before any job that it leaves out the report's baseline, and the whole experiment
  then reuses the slice's units under ``records_from``;
* a registry ``path`` to a missing CSV fails the dry run, naming the registry actually used,
  even when prepared data from an earlier run exists.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
from pathlib import Path

import pandas as pd
import pytest
import smoke_support as smoke
import yaml

pytestmark = [pytest.mark.workflow, pytest.mark.slow]

ROWS = 240
TOY = {"name": "my_toy", "kind": "passive", "seed": 7, "datasets": ["toy"],
       "algorithms": {"j48": {}, "bagging": {"n_estimators": 3},
                      "decorate": {"n_estimators": 3, "max_iterations": 6}},
       "runs": 1, "folds": 3, "points": [50, 100],
       "report": {"baseline": "decorate", "others": ["j48", "bagging"]}}  # fmt: skip


def _csv(path: Path, rows: int) -> None:
    """A two-class table whose class follows its attributes, with some noise (deterministic)."""
    lines = ["a,b,label"]
    for i in range(rows):
        a = (i * 37) % 101
        b = "xy"[(i * 11) % 7 > 3]
        label = "yes" if (a > 50) != (i % 9 == 0) else "no"
        lines.append(f"{a},{b},{label}")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def _registry(path: Path, csv: Path, instances: int) -> None:
    entry = {"source": "csv", "path": str(csv), "instances": instances, "classes": 2, "attributes": 2}
    path.write_text(yaml.safe_dump({"datasets": {"toy": entry}}), encoding="utf-8")


@pytest.fixture
def toy(tmp_path: Path) -> Path:
    """A working directory with mydata/toy.csv, mydata/datasets.yaml and my_toy.yaml."""
    (tmp_path / "mydata").mkdir()
    _csv(tmp_path / "mydata" / "toy.csv", ROWS)
    # The path as a user writes it: relative to the working directory.
    _registry(tmp_path / "mydata" / "datasets.yaml", Path("mydata/toy.csv"), ROWS)
    (tmp_path / "my_toy.yaml").write_text(yaml.safe_dump(TOY, sort_keys=False), encoding="utf-8")
    return tmp_path


def _run(workdir: Path, *args: str, config: tuple[str, ...] = ()) -> subprocess.CompletedProcess[str]:
    return smoke.run_snakemake(
        workdir, *args, "--config", f"registry={workdir / 'mydata' / 'datasets.yaml'}",
        f"experiments=[{workdir / 'my_toy.yaml'}]", *config, cores=1, timeout=600)  # fmt: skip


def _ok(result: subprocess.CompletedProcess[str]) -> str:
    output = smoke.output_of(result)
    assert result.returncode == 0, output[-5000:]
    return output


def _planned(output: str) -> set[str]:
    """The rules a dry run lists in its job table (``rule  count`` lines)."""
    rules = set()
    for line in output.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[1].isdigit() and parts[0] not in ("total", "job"):
            rules.add(parts[0])
    return rules


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _job_logs(workdir: Path, folder: str = "my_toy") -> str:
    return "".join(p.read_text() for p in sorted((workdir / "results" / folder / "logs" / "toy").glob("*.log")))


def test_a_finished_run_survives_a_slice_and_reruns_exactly_what_an_edit_changes(toy: Path) -> None:
    """One user's session (the issue's, in order): a finished run, a slice of it, a registry
    edit alone, the data edited, the data moved away. Each step fails on the workflow that
    had no dependency on the source and wrote slices over the whole run."""
    _ok(_run(toy))
    records = toy / "results" / "my_toy" / "records" / "toy"
    before = {p.name: _digest(p) for p in records.glob("*.parquet")}
    combined = _digest(toy / "results" / "my_toy" / "records.parquet")

    # A slice without the report's baseline says so before any job, and touches no record
    # of the whole run.
    dry = _ok(_run(toy, "-n", config=("algorithms=[j48,bagging]",)))
    assert "leaves out the report's baseline 'decorate'" in dry, dry[-3000:]
    _ok(_run(toy, config=("algorithms=[j48,bagging]",)))
    assert {p.name: _digest(p) for p in records.glob("*.parquet")} == before
    assert _digest(toy / "results" / "my_toy" / "records.parquet") == combined
    whole = pd.read_parquet(toy / "results" / "my_toy" / "records.parquet")
    assert set(whole["algorithm"]) == {"j48", "bagging", "decorate"}
    assert _planned(_ok(_run(toy, "-n"))) == set(), "the slice made the whole run incomplete"

    # The registry says 250 instances, the data has 240: the dry run fails naming both and
    # the registry given (no job would notice: the prepared data is up to date).
    registry = toy / "mydata" / "datasets.yaml"
    _registry(registry, Path("mydata/toy.csv"), ROWS + 10)
    result = _run(toy, "-n")
    output = smoke.output_of(result)
    assert result.returncode != 0, output[-3000:]
    assert str(registry) in output and f"has {ROWS} instances" in output and f"instances: {ROWS + 10}" in output, \
        output[-3000:]

    # Ten more rows in the data as well: the dataset is prepared again and every job that
    # read it reruns.
    _csv(toy / "mydata" / "toy.csv", ROWS + 10)
    planned = _planned(_ok(_run(toy, "-n")))
    assert {"prepare_dataset", "experiment_job", "combine_records", "report_experiment"} <= planned, planned
    # ... and records computed on the old data are not taken by records_from (a copy of them
    # where records_from looks, as another experiment's).
    old = toy / "old" / "my_toy" / "records" / "toy"
    old.mkdir(parents=True)
    for path in records.glob("*.parquet"):
        (old / path.name).write_bytes(path.read_bytes())
    _ok(_run(toy, config=(f"records_from={toy / 'old'}",)))
    log = _job_logs(toy)
    assert "0 of 3 units reused" in log and "reused from" not in log, log[-3000:]
    sidecar = json.loads((toy / "data" / "prepared" / "toy.json").read_text())
    assert sidecar["n_instances"] == ROWS + 10
    whole = pd.read_parquet(toy / "results" / "my_toy" / "records.parquet")
    assert whole["n_train"].max() > 2 * ROWS // 3, "the jobs did not read the edited data"

    # The data moved away: the dry run says which file, which key and which registry, though
    # prepared data exists.
    (toy / "mydata" / "toy.csv").rename(toy / "mydata" / "moved.csv")
    _assert_missing_csv(toy)


def test_the_whole_experiment_reuses_a_slices_units(toy: Path) -> None:
    _ok(_run(toy, config=("algorithms=[j48]",)))
    _ok(_run(toy, config=("records_from=results",)))
    log = _job_logs(toy)
    assert "1 of 3 units reused" in log and log.count("reused from") == 1, log[-3000:]
    assert "my_toy.slice-" in log[log.index("reused from"):].splitlines()[0], log[-3000:]
    whole = pd.read_parquet(toy / "results" / "my_toy" / "records.parquet")
    assert set(whole["algorithm"]) == {"j48", "bagging", "decorate"}


def _assert_missing_csv(workdir: Path) -> None:
    result = _run(workdir, "-n")
    output = smoke.output_of(result)
    assert result.returncode != 0, output[-3000:]
    registry = str(workdir / "mydata" / "datasets.yaml")
    assert registry in output and "key 'path' of 'toy'" in output and "mydata/toy.csv" in output, output[-3000:]
    assert "config/datasets.yaml" not in output.replace(registry, ""), output[-3000:]


def test_a_registry_path_to_a_missing_csv_fails_the_dry_run(toy: Path) -> None:
    (toy / "mydata" / "toy.csv").unlink()
    _assert_missing_csv(toy)
