"""``python3 -m redecorate.verify``: committed units computed again and compared to the last bit.

The sample is seeded and covers every algorithm before any twice; a record that differs in
one value, or only in the sign of a zero, is reported as differing, with the provenance of the
committed unit; and every algorithm of labor's committed units comes out identical here (in
CI), which is the reader's check that the committed numbers are what this code computes.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from redecorate.verify import compare_records, record_digest, sample_units

REPO = Path(__file__).resolve().parents[1]
MIRROR = (REPO / ".." / "shared" / "datasets" / "uci").resolve()
needs_mirror = pytest.mark.skipif(not (MIRROR / "labor.arff").is_file(), reason=f"ARFF mirror not found at {MIRROR}")


class _Kept:
    def __init__(self, cpu_s: float) -> None:
        self.cpu_s = cpu_s


class _Unit:
    def __init__(self, experiment: str, algorithm: str, run: int, cpu_s: float = 1.0) -> None:
        self.experiment, self.algorithm, self.run, self.kept = experiment, algorithm, run, _Kept(cpu_s)


def test_the_sample_covers_every_algorithm_before_drawing_one_twice_and_is_seeded() -> None:
    units = [_Unit(e, a, r) for e in ("x", "y") for a in ("a", "b", "c") for r in range(10)]
    drawn = sample_units(units, 6, seed=3, max_unit_cpu=None)
    assert {(u.experiment, u.algorithm) for u in drawn} == {(e, a) for e in ("x", "y") for a in ("a", "b", "c")}
    assert [id(u) for u in drawn] == [id(u) for u in sample_units(units, 6, seed=3, max_unit_cpu=None)]
    assert [u.run for u in drawn] != [u.run for u in sample_units(units, 6, seed=4, max_unit_cpu=None)]
    assert len(sample_units(units, None, seed=0, max_unit_cpu=None)) == len(units)
    assert len(sample_units(units, 1000, seed=0, max_unit_cpu=None)) == len(units)
    cheap = [_Unit("x", "a", 0, 5.0), _Unit("x", "b", 0, 50.0)]
    assert [u.algorithm for u in sample_units(cheap, None, seed=0, max_unit_cpu=30.0)] == ["a"]


def _records(values: list[float]) -> pd.DataFrame:
    return pd.DataFrame({"experiment": "e", "dataset": "d", "algorithm": "a", "run": 0, "fold": range(len(values)),
                         "point": 1, "n_train": 10, "metric": "accuracy", "value": values,
                         "fit_seconds": np.random.default_rng().random(len(values)), "ensemble_size": 1})


def test_records_are_compared_bit_for_bit_the_clock_aside() -> None:
    a = _records([90.0, 80.0, np.nan])
    assert compare_records(a, _records([90.0, 80.0, np.nan])) == (30, 0, 0.0)  # fit_seconds differ, not counted
    values, differing, largest = compare_records(a, _records([90.0, 80.5, np.nan]))
    assert (differing, largest) == (1, 0.5)
    assert compare_records(_records([0.0]), _records([-0.0]))[1] == 1  # not the same bits
    assert compare_records(a, _records([90.0, 80.0]))[2] == np.inf  # another shape
    assert record_digest(a) == record_digest(_records([90.0, 80.0, np.nan]))
    assert record_digest(a) != record_digest(_records([90.0, 80.0, 1.0]))


def _verify(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "redecorate.verify", *args], capture_output=True, text=True,
                          cwd=REPO, timeout=3000)


def test_bad_values_are_refused_before_anything_runs() -> None:
    done = _verify("sample=0")
    assert done.returncode == 2 and "sample=0" in done.stderr and "sample=all" in done.stderr
    done = _verify("records=no-such-dir")
    assert done.returncode == 2 and "no-such-dir" in done.stderr
    done = _verify("experiments=[no_such_experiment]")
    assert done.returncode == 2 and "no_such_experiment" in done.stderr


@needs_mirror
def test_a_changed_value_in_a_committed_unit_is_reported_with_its_provenance(tmp_path: Path) -> None:
    from redecorate.job_records import job_record_info, write_job_records

    source = REPO / "reproduced" / "ch4_passive" / "records" / "labor"
    target = tmp_path / "records" / "ch4_passive" / "records" / "labor"
    target.mkdir(parents=True)
    file = sorted(source.glob("*.parquet"))[0]
    info = job_record_info(file)
    frame = pd.read_parquet(file)
    frame.loc[0, "value"] += 1e-9  # one record, off in the ninth decimal
    write_job_records(frame, target / file.name, units=info["units"], unit_keys=info["unit_keys"],
                      unit_rows=info["unit_rows"], unit_cpu_s=info["unit_cpu_s"],
                      unit_sources=info["unit_sources"], git={"commit": info["commit"], "dirty": False},
                      cpu_s=info["cpu_s"], data_sha256=info.get("data_sha256"))
    first = info["units"][0]
    done = _verify("experiments=[ch4_passive]", "datasets=[labor]", f"algorithms=[{first['algorithm']}]",
                   "sample=all", "max_unit_cpu=none", f"records={tmp_path / 'records'}", f"data_mirror={MIRROR}")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "DIFFERING" in done.stdout and "1 of" in done.stdout and "committed:" in done.stdout


@needs_mirror
@pytest.mark.slow
def test_every_algorithm_of_labors_committed_units_comes_out_identical() -> None:
    """One committed unit of every (experiment, algorithm) that ran on labor, the smallest
    dataset of chapters 4–6, computed again: all identical, to the last bit."""
    from redecorate.job_records import kept_units, unit_key
    from redecorate.kinds import get_kind
    from redecorate.run_config import load_run
    from redecorate.verify import committed_units

    run = load_run({"data_mirror": str(MIRROR)}, REPO)
    kept = kept_units(REPO / "reproduced", "labor")
    uncovered = []
    for spec in (s for s in run.experiments.values() if "labor" in s.datasets):
        kind = get_kind(spec.kind)
        settings = kind.job_settings(spec)
        for label in spec.algorithms:
            keys = [unit_key(kind, settings, u, "labor") for u in kind.units(spec) if u["algorithm"] == label]
            if not any(k in kept for k in keys):
                uncovered.append((spec.name, label))
    assert not uncovered, f"algorithms with no committed unit on labor: {uncovered}"
    strata = {(u.experiment, u.algorithm) for u in committed_units(run.experiments, REPO / "reproduced")
              if u.dataset == "labor"}
    done = _verify("datasets=[labor]", f"sample={len(strata)}", "max_unit_cpu=none", f"data_mirror={MIRROR}")
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert f"{len(strata)} identical" in done.stdout
