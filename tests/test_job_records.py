"""Job record files (redecorate.job_records): the settings key, the metadata records carry,
reuse of an earlier run's units only under the same key, and provenance totals."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from redecorate.job_records import (
    job_record_info,
    kept_units,
    run_job_records,
    settings_key,
    unit_id,
    write_job_records,
)
from redecorate.kinds import get_kind
from redecorate.provenance import build_provenance

GIT = {"commit": "a" * 40, "dirty": False}


def _frame(unit: int, n: int = 2) -> pd.DataFrame:
    return pd.DataFrame({"algorithm": [f"a{unit}"] * n, "value": [90.0 + unit + i / 4 for i in range(n)]})


def _write(path: Path, key: str, units: list[int], sources: list[str | None] | None = None) -> None:
    frame = pd.concat([_frame(u) for u in units], ignore_index=True)
    write_job_records(frame, path, key=key, units=[{"algorithm": f"a{u}", "run": 0} for u in units],
                      unit_rows=[2] * len(units), unit_cpu_s=[10.0 * (u + 1) for u in units],
                      unit_sources=sources or [None] * len(units), git=GIT, cpu_s=5.0)  # fmt: skip


def test_the_settings_key_changes_with_anything_the_records_depend_on() -> None:
    base = settings_key("passive", {"folds": 10, "seed": 1}, "iris")
    assert base == settings_key("passive", {"seed": 1, "folds": 10}, "iris")  # key order is not content
    others = [settings_key("noise", {"folds": 10, "seed": 1}, "iris"),
              settings_key("passive", {"folds": 5, "seed": 1}, "iris"),
              settings_key("passive", {"folds": 10, "seed": 1}, "labor")]  # fmt: skip
    assert len({base, *others}) == 4
    assert unit_id({"run": 0, "algorithm": "j48"}) == unit_id({"algorithm": "j48", "run": 0})


def test_records_carry_their_units_commit_and_cpu(tmp_path: Path) -> None:
    path = tmp_path / "chunk0.parquet"
    _write(path, "k", [0, 1])
    pd.testing.assert_frame_equal(pd.read_parquet(path), pd.concat([_frame(0), _frame(1)], ignore_index=True))
    info = job_record_info(path)
    assert info["key"] == "k" and info["commit"] == "a" * 40 and info["dirty"] is False and info["cpu_s"] == 5.0
    assert info["units"] == [{"algorithm": "a0", "run": 0}, {"algorithm": "a1", "run": 0}]
    assert info["unit_rows"] == [2, 2] and info["unit_cpu_s"] == [10.0, 20.0] and info["unit_sources"] == [None, None]
    with pytest.raises(ValueError, match="one entry per unit"):
        write_job_records(_frame(0), tmp_path / "bad.parquet", key="k", units=[{}], unit_rows=[3], unit_cpu_s=[1.0],
                          unit_sources=[None], git=GIT, cpu_s=1.0)  # fmt: skip


def test_files_without_metadata_or_with_another_key_are_never_used(tmp_path: Path) -> None:
    folder = tmp_path / "exp" / "records" / "iris"
    folder.mkdir(parents=True)
    _frame(0).to_parquet(folder / "chunk0.parquet", index=False)
    (folder / "broken.parquet").write_bytes(b"not parquet")
    _write(folder / "chunk1.parquet", "other", [0])
    assert job_record_info(folder / "chunk0.parquet") is None
    assert job_record_info(folder / "broken.parquet") is None
    assert kept_units(tmp_path, "exp", "iris", "k") == {}
    _write(folder / "chunk2.parquet", "k", [0, 1])
    kept = kept_units(tmp_path, "exp", "iris", "k")
    assert set(kept) == {unit_id({"algorithm": "a0", "run": 0}), unit_id({"algorithm": "a1", "run": 0})}
    second = kept[unit_id({"algorithm": "a1", "run": 0})]
    pd.testing.assert_frame_equal(second.frame(), _frame(1))
    assert second.cpu_s == 20.0 and second.commit == "a" * 40
    assert kept_units(tmp_path, "exp", "labor", "k") == {} and kept_units(tmp_path, "other", "iris", "k") == {}


def test_a_job_computes_only_the_units_not_kept_and_equals_a_fresh_job(tmp_path: Path) -> None:
    """Real units of the smoke ch4_passive protocol on iris: a job of three units whose first
    two an earlier job (grouped differently) left behind."""
    from redecorate.data import load_dataset

    repo = Path(__file__).resolve().parents[1]
    mirror = repo.parent / "shared" / "datasets" / "uci"
    dataset = load_dataset("iris", registry=repo / "config" / "datasets.yaml", mirror=mirror)
    kind = get_kind("passive")
    settings = {"experiment": "t", "n_folds": 3, "points": [50], "seed": 7,
                "algorithms": {"j48": {"learner": "j48", "params": {}}}}  # fmt: skip
    units = [{"algorithm": "j48", "run": r} for r in range(3)]
    fresh, meta = run_job_records(dataset, "passive", kind, settings, units, experiment="t", records_from=None)
    assert meta["unit_sources"] == [None, None, None] and sum(meta["unit_rows"]) == len(fresh)
    earlier, earlier_meta = run_job_records(dataset, "passive", kind, settings, units[:2], experiment="t",
                                            records_from=None)  # fmt: skip
    write_job_records(earlier, tmp_path / "t" / "records" / "iris" / "chunk0.parquet", git=GIT, cpu_s=1.0,
                      **earlier_meta)  # fmt: skip
    lines: list[str] = []
    again, again_meta = run_job_records(dataset, "passive", kind, settings, units, experiment="t",
                                        records_from=tmp_path, progress=lines.append)  # fmt: skip
    assert [s is not None for s in again_meta["unit_sources"]] == [True, True, False]
    assert sum("reused from" in line for line in lines) == 2 and sum("unit 1/1" in line for line in lines) == 1
    columns = [c for c in fresh.columns if c != "fit_seconds"]
    pd.testing.assert_frame_equal(again[columns], fresh[columns], check_exact=True)
    # Other settings (another seed): nothing is reused.
    other, other_meta = run_job_records(dataset, "passive", kind, {**settings, "seed": 8}, units[:1],
                                        experiment="t", records_from=tmp_path)  # fmt: skip
    assert other_meta["unit_sources"] == [None]


def test_provenance_counts_the_cpu_of_reused_units_where_they_were_computed(tmp_path: Path) -> None:
    bench = tmp_path / "b.tsv"
    bench.write_text("s\th:m:s\tmax_rss\tcpu_time\n3.0\t0:00:03\t100\t2.5\n")
    data = build_provenance(
        experiment="exp", repo=tmp_path, config={}, experiment_settings={"seed": 1}, sidecars=[],
        benchmarks={"experiment_job/iris/chunk0": bench, "experiment_job/labor/chunk0": bench},
        job_records={"experiment_job/iris/chunk0": {"commit": "b" * 40, "cpu_s": 3.0, "unit_cpu_s": [40.0, 1.0],
                                                    "unit_sources": ["kept/iris/chunk0.parquet", None]},
                     "experiment_job/labor/chunk0": None},
    )  # fmt: skip
    totals = data["totals"]
    assert totals["cpu_s"] == pytest.approx(5.0)  # what this run spent
    assert totals["records_cpu_s"] == pytest.approx(45.0)  # plus the reused unit's own CPU
    assert totals["units_reused"] == 1 and totals["units_with_metadata"] == 2
    iris = {job["job"]: job for job in data["jobs"]}["experiment_job/iris/chunk0"]["records"]
    assert iris["reused_from"] == ["kept/iris/chunk0.parquet"] and iris["units_reused"] == 1
