"""tools/keep_records.py: keeping finished job files never replaces the record of where a unit
was computed with a copy that only read it."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
from keep_records import keep_experiment, main  # tools/ is on sys.path (conftest)

from redecorate.job_records import job_record_info, write_job_records


def _job(path: Path, keys: list[str], sources: list[str | None], commit: str) -> None:
    frame = pd.DataFrame({"experiment": ["e"] * len(keys), "value": [float(i) for i in range(len(keys))]})
    write_job_records(frame, path, units=[{"algorithm": k, "run": 0} for k in keys], unit_keys=keys,
                      unit_rows=[1] * len(keys), unit_cpu_s=[1.0] * len(keys), unit_sources=sources,
                      git={"commit": commit * 40}, cpu_s=1.0)  # fmt: skip


def test_only_files_that_computed_something_are_kept_and_none_replaces_its_source(tmp_path: Path, capsys) -> None:
    results, into = tmp_path / "results", tmp_path / "reproduced"
    kept = into / "e" / "records" / "iris"
    _job(kept / "chunk0.parquet", ["a", "b"], [None, None], "1")  # a pilot's file
    before = (kept / "chunk0.parquet").read_bytes()
    run = results / "e" / "records" / "iris"
    _job(run / "chunk0.parquet", ["a", "c"], ["reproduced/e/records/iris/chunk0.parquet", None], "2")
    _job(run / "chunk1.parquet", ["a", "b"], ["reproduced/e/records/iris/chunk0.parquet"] * 2, "2")  # read only
    _job(run / "chunk2.parquet", ["d"], [None], "2")
    (run / "chunk3.parquet").write_bytes(b"")  # not a job file

    actions = {k.source.name: k.action for k in keep_experiment(results, into, "e")}
    assert actions == {"chunk0.parquet": "beside", "chunk1.parquet": "all reused", "chunk2.parquet": "copied",
                       "chunk3.parquet": "no metadata"}  # fmt: skip
    assert (kept / "chunk0.parquet").read_bytes() == before  # the units' record of origin stays
    assert job_record_info(kept / f"chunk0.{'2' * 7}.parquet")["unit_keys"] == ["a", "c"]
    assert {p.name for p in kept.iterdir()} == {"chunk0.parquet", f"chunk0.{'2' * 7}.parquet", "chunk2.parquet"}

    # With a prefix the pilot's chunkN stay beside; a later file with all of a kept file's
    # units, none read from it, replaces it; the same file again changes nothing.
    assert main(["e", "--results", str(results), "--into", str(into), "--prefix", "thesis"]) == 0
    assert (kept / "thesis-chunk0.parquet").is_file() and (kept / "thesis-chunk2.parquet").is_file()
    assert not (kept / "thesis-chunk1.parquet").exists()
    _job(run / "chunk2.parquet", ["d", "f"], [None, None], "3")
    again = {k.source.name: k.action for k in keep_experiment(results, into, "e", prefix="thesis")}
    assert again["chunk2.parquet"] == "replaced" and again["chunk0.parquet"] == "same"
    assert "e: 4 job files" in capsys.readouterr().out


def test_a_slices_job_files_are_kept_under_their_own_names(tmp_path: Path, capsys) -> None:
    results, into = tmp_path / "results", tmp_path / "reproduced"
    _job(results / "e" / "records" / "iris" / "chunk0.parquet", ["a"], [None], "1")
    _job(results / "e.slice-0123abcd" / "records" / "iris" / "chunk0.parquet", ["b"], [None], "1")
    _job(results / "e.slice-0123abcd" / "records" / "iris" / "chunk1.parquet", ["a"], ["results/e/x"], "1")
    _job(results / "e_other" / "records" / "iris" / "chunk0.parquet", ["z"], [None], "1")  # another experiment

    actions = {(k.source.parent.parent.parent.name, k.source.name): k.action
               for k in keep_experiment(results, into, "e", prefix="thesis")}  # fmt: skip
    assert actions == {("e", "chunk0.parquet"): "copied", ("e.slice-0123abcd", "chunk0.parquet"): "copied",
                       ("e.slice-0123abcd", "chunk1.parquet"): "all reused"}  # fmt: skip
    kept = into / "e" / "records" / "iris"
    assert {p.name for p in kept.iterdir()} == {"thesis-chunk0.parquet", "thesis-slice-0123abcd-chunk0.parquet"}
    assert job_record_info(kept / "thesis-slice-0123abcd-chunk0.parquet")["unit_keys"] == ["b"]

    # only a slice ran: its files are still found
    assert main(["f", "--results", str(results), "--into", str(into)]) == 0
    assert "f: no job files" in capsys.readouterr().out
    _job(results / "f.slice-99999999" / "records" / "iris" / "chunk0.parquet", ["c"], [None], "1")
    assert main(["f", "--results", str(results), "--into", str(into)]) == 0
    assert "f: 1 job files: 1 copied" in capsys.readouterr().out


def test_a_second_different_file_of_one_commit_is_kept_beside_not_over_the_first(tmp_path: Path) -> None:
    results, into = tmp_path / "results", tmp_path / "reproduced"
    kept = into / "e" / "records" / "iris"
    _job(kept / "chunk0.parquet", ["a", "b"], [None, None], "1")
    run = results / "e" / "records" / "iris" / "chunk0.parquet"
    _job(run, ["a", "c"], [None, None], "2")
    assert keep_experiment(results, into, "e")[0].action == "beside"
    first = (kept / f"chunk0.{'2' * 7}.parquet").read_bytes()
    _job(run, ["a", "d"], [None, None], "2")  # the same job again at that commit, other units
    second = keep_experiment(results, into, "e")[0]
    assert second.action == "beside" and second.target == kept / f"chunk0.{'2' * 7}.1.parquet"
    assert (kept / f"chunk0.{'2' * 7}.parquet").read_bytes() == first
    assert keep_experiment(results, into, "e")[0].action == "same"


def test_check_finds_a_computed_unit_that_is_kept_nowhere(tmp_path: Path, capsys) -> None:
    results, into = tmp_path / "results", tmp_path / "reproduced"
    _job(results / "e" / "records" / "iris" / "chunk0.parquet", ["a", "b"], [None, "elsewhere"], "1")
    _job(results / "e" / "records" / "iris" / "chunk1.parquet", ["c"], ["elsewhere"], "1")  # read only
    _job(results / "e.slice-0123abcd" / "records" / "iris" / "chunk0.parquet", ["d"], [None], "1")
    args = ["e", "--results", str(results), "--into", str(into), "--check"]
    assert main(args) == 1  # a and d were computed and are kept nowhere; b and c were read
    assert "2 computed unit(s) not kept" in capsys.readouterr().out
    assert not into.exists()  # --check copies nothing
    assert main(["e", "--results", str(results), "--into", str(into), "--prefix", "thesis"]) == 0
    assert main(args) == 0  # kept, the slice's under its own name
    assert "every computed unit is kept" in capsys.readouterr().out
