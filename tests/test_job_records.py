"""Job record files (redecorate.job_records): a job's key, the metadata its records carry,
and reuse only for the same job; provenance totals over reused and computed jobs."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from redecorate.job_records import find_job_records, job_key, job_record_info, reuse_job_records, write_job_records
from redecorate.provenance import build_provenance

GIT = {"commit": "a" * 40, "dirty": False}
FRAME = pd.DataFrame({"algorithm": pd.Categorical(["j48", "decorate"]), "value": [93.5, 95.25], "fold": [0, 1]})


def _key(**change: object) -> str:
    args = {"kind": "passive", "settings": {"folds": 10, "seed": 1}, "units": [{"algorithm": "j48", "run": 0}],
            "dataset": "iris"}
    args.update(change)
    return job_key(args["kind"], args["settings"], args["units"], args["dataset"])


def test_the_key_changes_with_anything_that_determines_the_records() -> None:
    base = _key()
    assert base == _key(settings={"seed": 1, "folds": 10})  # key order is not content
    others = [_key(kind="noise"), _key(settings={"folds": 5, "seed": 1}),
              _key(units=[{"algorithm": "j48", "run": 1}]), _key(dataset="labor")]  # fmt: skip
    assert len({base, *others}) == 5


def test_records_carry_their_key_commit_and_cpu(tmp_path: Path) -> None:
    path = tmp_path / "chunk0.parquet"
    write_job_records(FRAME, path, key=_key(), git=GIT, cpu_s=12.3456)
    pd.testing.assert_frame_equal(pd.read_parquet(path), FRAME, check_exact=True)
    info = job_record_info(path)
    assert info["key"] == _key() and info["commit"] == "a" * 40 and info["dirty"] is False
    assert info["cpu_s"] == 12.346 and info["host"] and "reused_from" not in info


def test_a_file_without_job_metadata_is_never_matched(tmp_path: Path) -> None:
    folder = tmp_path / "exp" / "records" / "iris"
    folder.mkdir(parents=True)
    FRAME.to_parquet(folder / "chunk0.parquet", index=False)
    (folder / "broken.parquet").write_bytes(b"not parquet")
    assert job_record_info(folder / "chunk0.parquet") is None
    assert job_record_info(folder / "broken.parquet") is None
    assert find_job_records(tmp_path, "exp", "iris", _key()) is None


def test_only_the_file_with_the_same_key_is_found_and_reused(tmp_path: Path) -> None:
    folder = tmp_path / "exp" / "records" / "iris"
    write_job_records(FRAME.iloc[:1], folder / "chunk0.parquet", key=_key(units=[]), git=GIT, cpu_s=1.0)
    write_job_records(FRAME, folder / "chunk3.parquet", key=_key(), git=GIT, cpu_s=2.0)
    found = find_job_records(tmp_path, "exp", "iris", _key())
    assert found == folder / "chunk3.parquet"
    assert find_job_records(tmp_path, "exp", "labor", _key()) is None
    assert find_job_records(tmp_path, "other", "iris", _key()) is None
    out = tmp_path / "results" / "chunk0.parquet"
    info = reuse_job_records(found, out)
    pd.testing.assert_frame_equal(pd.read_parquet(out), FRAME, check_exact=True)
    assert info["reused_from"] == str(found) and info["cpu_s"] == 2.0
    assert job_record_info(out) == info


def test_provenance_counts_the_cpu_of_the_records_wherever_computed(tmp_path: Path) -> None:
    bench = tmp_path / "b.tsv"
    bench.write_text("s\th:m:s\tmax_rss\tcpu_time\n3.0\t0:00:03\t100\t2.5\n")
    data = build_provenance(
        experiment="exp", repo=tmp_path, config={}, experiment_settings={"seed": 1}, sidecars=[],
        benchmarks={"experiment_job/iris/chunk0": bench, "experiment_job/labor/chunk0": bench},
        job_records={"experiment_job/iris/chunk0": {"commit": "b" * 40, "cpu_s": 40.0, "reused_from": "x"},
                     "experiment_job/labor/chunk0": None},
    )  # fmt: skip
    totals = data["totals"]
    assert totals["cpu_s"] == pytest.approx(5.0)  # what this run spent
    assert totals["records_cpu_s"] == pytest.approx(42.5)  # reused: its own CPU; unmarked: this run's
    assert totals["jobs_reused"] == 1 and totals["records_commits"] == ["b" * 40]
