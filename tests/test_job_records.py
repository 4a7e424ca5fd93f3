"""Job record files (redecorate.job_records): the unit key, the metadata records carry, reuse
of an earlier run's units (of any experiment) only under the same key, and provenance totals."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pandas as pd
import pytest
from uci_mirror import mirror_dir  # noqa: E402 - tools/ is on sys.path (conftest)

from redecorate.job_records import (
    APPORTIONED_FILE,
    UnitOrigin,
    job_record_info,
    kept_units,
    run_job_records,
    unit_commits,
    unit_key,
    unit_origins,
    with_unit_commits,
    write_job_records,
)
from redecorate.kinds import JobSettings, get_kind
from redecorate.kinds.noise import NoiseSettings
from redecorate.kinds.passive import PassiveSettings
from redecorate.provenance import build_provenance

REPO = Path(__file__).resolve().parents[1]
GIT = {"commit": "a" * 40, "dirty": False}
PASSIVE = get_kind("passive")
SETTINGS = JobSettings(experiment="t", folds=3, points=(50,), seed=7, options=PassiveSettings(),
                       algorithms={"j48": {"learner": "j48", "params": {}},
                                   "bagging": {"learner": "bagging", "params": {"n_estimators": 3}}})  # fmt: skip


def _frame(unit: int, n: int = 2) -> pd.DataFrame:
    return pd.DataFrame({"experiment": ["t"] * n, "algorithm": [f"a{unit}"] * n,
                         "value": [90.0 + unit + i / 4 for i in range(n)]})  # fmt: skip


def _write(path: Path, keys: list[str]) -> None:
    frame = pd.concat([_frame(u) for u in range(len(keys))], ignore_index=True)
    write_job_records(frame, path, units=[{"algorithm": f"a{u}", "run": 0} for u in range(len(keys))],
                      unit_keys=keys, unit_rows=[2] * len(keys), unit_cpu_s=[10.0 * (u + 1) for u in range(len(keys))],
                      unit_sources=[None] * len(keys), git=GIT, cpu_s=5.0)  # fmt: skip


def test_the_unit_key_is_what_the_records_depend_on() -> None:
    unit = {"algorithm": "j48", "run": 0}
    base = unit_key(PASSIVE, SETTINGS, unit, "iris")
    # Not the experiment's name, nor another algorithm's entry, nor key order.
    assert base == unit_key(PASSIVE, replace(SETTINGS, experiment="other"), unit, "iris")
    assert base == unit_key(PASSIVE, replace(SETTINGS, algorithms={"j48": SETTINGS.algorithms["j48"]}), unit, "iris")
    assert base == unit_key(PASSIVE, replace(SETTINGS, algorithms=dict(reversed(SETTINGS.algorithms.items()))),
                            unit, "iris")  # fmt: skip
    others = [
        unit_key(get_kind("noise"), replace(SETTINGS, options=NoiseSettings("class")), unit, "iris"),
        unit_key(PASSIVE, replace(SETTINGS, seed=8), unit, "iris"),
        unit_key(PASSIVE, replace(SETTINGS, algorithms={"j48": {"learner": "j48", "params": {"unpruned": True}}}),
                 unit, "iris"),
        unit_key(PASSIVE, SETTINGS, {"algorithm": "j48", "run": 1}, "iris"),
        unit_key(PASSIVE, SETTINGS, {"algorithm": "bagging", "run": 0}, "iris"),
        unit_key(PASSIVE, SETTINGS, unit, "labor"),
        unit_key(PASSIVE, replace(SETTINGS, options=PassiveSettings(metrics=("accuracy", "diversity"))), unit,
                 "iris"),
    ]  # fmt: skip
    assert len({base, *others}) == 8
    # The active kind's per-algorithm settings are its systems.
    active_kind = get_kind("active")
    active = JobSettings(experiment="t", folds=3, seed=1, options=active_kind.settings(),
                         algorithms={"a": {"system": "random", "params": {}}, "b": {"system": "qbag", "params": {}}})
    key = unit_key(active_kind, active, {"algorithm": "a", "run": 0}, "iris")
    assert key == unit_key(active_kind, replace(active, algorithms={"a": active.algorithms["a"]}),
                           {"algorithm": "a", "run": 0}, "iris")  # fmt: skip


def test_records_carry_their_units_commit_and_cpu(tmp_path: Path) -> None:
    path = tmp_path / "chunk0.parquet"
    _write(path, ["k0", "k1"])
    pd.testing.assert_frame_equal(pd.read_parquet(path), pd.concat([_frame(0), _frame(1)], ignore_index=True))
    info = job_record_info(path)
    assert info["commit"] == "a" * 40 and info["dirty"] is False and info["cpu_s"] == 5.0 and info["host"]
    assert info["units"] == [{"algorithm": "a0", "run": 0}, {"algorithm": "a1", "run": 0}]
    assert info["unit_keys"] == ["k0", "k1"] and info["unit_rows"] == [2, 2]
    assert info["unit_cpu_s"] == [10.0, 20.0] and info["unit_sources"] == [None, None]
    assert info["unit_commits"] == ["a" * 40, "a" * 40]  # computed here: this job's commit
    with pytest.raises(ValueError, match="one entry per unit"):
        write_job_records(_frame(0), tmp_path / "bad.parquet", units=[{}], unit_keys=["k"], unit_rows=[3],
                          unit_cpu_s=[1.0], unit_sources=[None], git=GIT, cpu_s=1.0)  # fmt: skip


def test_files_without_metadata_are_never_used_and_keys_are_found_in_any_experiment(tmp_path: Path) -> None:
    folder = tmp_path / "exp" / "records" / "iris"
    folder.mkdir(parents=True)
    _frame(0).to_parquet(folder / "chunk0.parquet", index=False)
    (folder / "broken.parquet").write_bytes(b"not parquet")
    assert job_record_info(folder / "chunk0.parquet") is None
    assert job_record_info(folder / "broken.parquet") is None
    assert kept_units(tmp_path, "iris") == {}
    _write(folder / "chunk2.parquet", ["k0", "k1"])
    _write(tmp_path / "another" / "records" / "iris" / "chunk0.parquet", ["k1"])
    kept = kept_units(tmp_path, "iris", prefer="exp")
    assert set(kept) == {"k0", "k1"} and kept["k1"].path == folder / "chunk2.parquet"
    assert kept_units(tmp_path, "iris", prefer="another")["k1"].path.parts[-4] == "another"
    second = kept["k1"]
    pd.testing.assert_frame_equal(second.frame("t"), _frame(1))
    assert (second.frame("renamed")["experiment"] == "renamed").all() and second.cpu_s == 20.0
    assert kept_units(tmp_path, "labor") == {}


@pytest.fixture(scope="module")
def iris():
    from redecorate.data import load_dataset

    mirror = mirror_dir()
    if mirror is None:
        pytest.skip("ARFF mirror ../shared/datasets/uci not found")
    return load_dataset("iris", registry=REPO / "config" / "datasets.yaml", mirror=mirror)


def test_a_job_computes_only_the_units_not_kept_and_equals_a_fresh_job(iris, tmp_path: Path) -> None:
    """Real units of a small passive protocol on iris: a job of three units whose first two
    another experiment's job (grouped differently) left behind."""
    units = [{"algorithm": "j48", "run": r} for r in range(3)]
    fresh, meta = run_job_records(iris, PASSIVE, SETTINGS, units, records_from=None)
    assert meta["unit_sources"] == [None, None, None] and sum(meta["unit_rows"]) == len(fresh)
    other = replace(SETTINGS, experiment="elsewhere")
    earlier, earlier_meta = run_job_records(iris, PASSIVE, other, units[:2], records_from=None)
    assert (earlier["experiment"] == "elsewhere").all()
    write_job_records(earlier, tmp_path / "elsewhere" / "records" / "iris" / "chunk0.parquet", git=GIT, cpu_s=1.0,
                      **earlier_meta)  # fmt: skip
    lines: list[str] = []
    again, again_meta = run_job_records(iris, PASSIVE, SETTINGS, units, records_from=tmp_path,
                                        progress=lines.append)  # fmt: skip
    assert [s is not None for s in again_meta["unit_sources"]] == [True, True, False]
    assert sum("reused from" in line for line in lines) == 2 and sum("unit 1/1" in line for line in lines) == 1
    columns = [c for c in fresh.columns if c != "fit_seconds"]
    pd.testing.assert_frame_equal(again[columns], fresh[columns], check_exact=True)
    # Another seed, or another learner setting: nothing is reused.
    for changed in (replace(SETTINGS, seed=8),
                    replace(SETTINGS, algorithms={"j48": {"learner": "j48", "params": {"unpruned": True}}})):
        _, changed_meta = run_job_records(iris, PASSIVE, changed, units[:1], records_from=tmp_path)
        assert changed_meta["unit_sources"] == [None]


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
    assert totals["cpu_s"] == pytest.approx(5.0)  # Snakemake's sampled benchmarks
    # What this run spent: iris's own process CPU from its records, labor's benchmark.
    assert totals["jobs_cpu_s"] == pytest.approx(5.5)
    assert totals["records_cpu_s"] == pytest.approx(45.5)  # plus the reused unit's own CPU
    assert totals["units_reused"] == 1 and totals["units_with_metadata"] == 2
    iris = {job["job"]: job for job in data["jobs"]}["experiment_job/iris/chunk0"]["records"]
    assert iris["reused_from"] == ["kept/iris/chunk0.parquet"] and iris["units_reused"] == 1


def test_a_reused_unit_keeps_the_commit_that_computed_it_through_renamed_and_older_files(
        iris, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The calibration compares a unit's CPU with the code that spent it: a unit reused twice
    still names its first job's commit, in a new file (``unit_commits``) and, for a file
    written before files carried them, by following its sources."""
    monkeypatch.chdir(tmp_path)  # sources are recorded relative to the workflow's directory
    units = [{"algorithm": "j48", "run": r} for r in range(2)]
    first, meta = run_job_records(iris, PASSIVE, SETTINGS, units[:1], records_from=None)
    assert meta["unit_commits"] == [None]  # filled in with the job's commit when written
    write_job_records(first, Path("kept/t/records/iris/chunk0.parquet"), git={"commit": "1" * 40}, cpu_s=1.0, **meta)
    second, meta = run_job_records(iris, PASSIVE, SETTINGS, units, records_from="kept")
    assert meta["unit_commits"] == ["1" * 40, None]
    write_job_records(second, Path("later/t/records/iris/chunk0.parquet"), git={"commit": "2" * 40}, cpu_s=1.0, **meta)
    assert job_record_info("later/t/records/iris/chunk0.parquet")["unit_commits"] == ["1" * 40, "2" * 40]
    # An older file (no unit_commits): its reused unit is followed to the file it came from.
    old = {k: v for k, v in job_record_info("later/t/records/iris/chunk0.parquet").items() if k != "unit_commits"}
    assert unit_commits(old) == ["1" * 40, "2" * 40]
    assert with_unit_commits(old)["unit_commits"] == ["1" * 40, "2" * 40]
    Path("kept/t/records/iris/chunk0.parquet").unlink()  # its source gone: unknown, not guessed
    assert unit_commits(old) == [None, "2" * 40]
    assert with_unit_commits({"commit": "3" * 40}) == {"commit": "3" * 40}  # files before unit keys


def test_a_share_of_a_whole_runs_cpu_stays_a_share_through_every_reuse(
        iris, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A unit keyed after the fact carries a share of its run's CPU; jobs that reuse it copy
    the share and name only the file they read, so the chain is followed to its start, also
    when a checkout elsewhere recorded it (its absolute path's tail is looked for here)."""
    monkeypatch.chdir(tmp_path)
    units = [{"algorithm": "j48", "run": r} for r in range(2)]
    shared, meta = run_job_records(iris, PASSIVE, SETTINGS, units, records_from=None)
    write_job_records(shared, Path(f"kept/t/records/iris/{APPORTIONED_FILE}"), git=GIT, cpu_s=9.0, **meta)
    first, meta = run_job_records(iris, PASSIVE, SETTINGS, units[:1], records_from="kept")
    write_job_records(first, Path("first/t/records/iris/chunk0.parquet"), git=GIT, cpu_s=1.0, **meta)
    second, meta = run_job_records(iris, PASSIVE, SETTINGS, units[:1], records_from="first")
    assert meta["unit_sources"] == ["first/t/records/iris/chunk0.parquet"]  # only the file it read
    meta["unit_sources"] = ["/another/checkout/first/t/records/iris/chunk0.parquet"]
    write_job_records(second, Path("second/t/records/iris/chunk0.parquet"), git=GIT, cpu_s=1.0, **meta)
    assert [o.apportioned for o in unit_origins(job_record_info("second/t/records/iris/chunk0.parquet"))] == [True]
    assert all(unit.cpu_apportioned for unit in kept_units("second", "iris").values())
    # A unit the job computed itself is measured; so is one whose chain is lost.
    computed, meta = run_job_records(iris, PASSIVE, SETTINGS, units[1:], records_from=None)
    write_job_records(computed, Path("own/t/records/iris/chunk0.parquet"), git=GIT, cpu_s=1.0, **meta)
    assert [o.apportioned for o in unit_origins(job_record_info("own/t/records/iris/chunk0.parquet"))] == [False]
    Path("first/t/records/iris/chunk0.parquet").unlink()
    assert [o.apportioned for o in unit_origins(job_record_info("second/t/records/iris/chunk0.parquet"))] == [False]


def test_a_kept_units_origin_is_read_from_the_repository_of_its_records_not_the_working_directory(
        iris, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Sources are recorded relative to the directory the workflow ran in, the repository
    holding the records; a run elsewhere (another checkout given ``records_from`` by its
    absolute path) still finds the commit and the shared CPU of a unit reused twice."""
    repo = tmp_path / "repo"
    repo.mkdir()
    monkeypatch.chdir(repo)
    units = [{"algorithm": "j48", "run": 0}]
    shared, meta = run_job_records(iris, PASSIVE, SETTINGS, units, records_from=None)
    write_job_records(shared, Path(f"kept/t/records/iris/{APPORTIONED_FILE}"), git={"commit": "1" * 40}, cpu_s=9.0,
                      **meta)
    first, meta = run_job_records(iris, PASSIVE, SETTINGS, units, records_from="kept")
    meta["unit_commits"] = [None]  # not known when the job ran: followed by its sources
    write_job_records(first, Path("reproduced/t/records/iris/chunk0.parquet"), git={"commit": "2" * 40}, cpu_s=1.0,
                      **meta)
    elsewhere = tmp_path / "other-checkout"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    (kept,) = kept_units(repo / "reproduced", "iris").values()
    assert kept.origin == UnitOrigin("1" * 40, True)
    assert kept.commit == "1" * 40 and kept.cpu_apportioned
    _, meta = run_job_records(iris, PASSIVE, SETTINGS, units, records_from=repo / "reproduced")
    assert meta["unit_commits"] == ["1" * 40]  # the commit that computed it, not the one that read it


def test_provenance_lists_a_jobs_cpu_by_the_commit_that_spent_it(tmp_path: Path) -> None:
    bench = tmp_path / "b.tsv"
    bench.write_text("s\th:m:s\tmax_rss\tcpu_time\n3.0\t0:00:03\t100\t2.5\n")
    data = build_provenance(
        experiment="exp", repo=tmp_path, config={}, experiment_settings={"seed": 1}, sidecars=[],
        benchmarks={"experiment_job/iris/chunk0": bench},
        job_records={"experiment_job/iris/chunk0": {
            "commit": "b" * 40, "cpu_s": 3.0, "unit_cpu_s": [40.0, 2.0, 1.0, 5.0],
            "unit_sources": ["kept/a.parquet", "kept/b.parquet", None, "kept/c.parquet"],
            "unit_commits": ["c" * 40, "c" * 40, "b" * 40, None]}},
    )  # fmt: skip
    records = data["jobs"][-1]["records"]
    assert records["cpu_s_by_commit"] == {"b" * 40: 3.0, "c" * 40: 42.0, "unknown": 5.0}
