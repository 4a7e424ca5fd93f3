"""Unit tests of redecorate.provenance (no workflow run needed)."""

from __future__ import annotations

import json
from pathlib import Path

from redecorate.provenance import (
    benchmark_times,
    build_provenance,
    canonical_hash,
    dataset_sources,
    recorded_file,
    write_provenance,
)

BENCHMARK = "s\th:m:s\tmax_rss\tmax_vms\tmax_uss\tmax_pss\tio_in\tio_out\tmean_load\tcpu_time\n"


def test_canonical_hash_ignores_key_order_but_not_values() -> None:
    assert canonical_hash({"a": 1, "b": [1, 2]}) == canonical_hash({"b": [1, 2], "a": 1})
    assert canonical_hash({"a": 1}) != canonical_hash({"a": 2})
    assert len(canonical_hash({})) == 64


def test_benchmark_times_reads_wall_cpu_rss_and_keeps_missing_jobs(tmp_path: Path) -> None:
    present = tmp_path / "a.tsv"
    present.write_text(BENCHMARK + "8.5\t0:00:08\t320.1\t1\t1\t1\t0\t0\t30\t3.25\n", encoding="utf-8")
    rows = benchmark_times({"job/a": present, "job/b": tmp_path / "missing.tsv"})
    assert rows[0] == {
        "job": "job/a", "benchmark": str(present), "wall_s": 8.5, "cpu_s": 3.25, "max_rss_mb": 320.1,
    }  # fmt: skip
    assert rows[1]["job"] == "job/b" and rows[1]["wall_s"] is None


def test_dataset_sources_and_whole_provenance_round_trip(tmp_path: Path) -> None:
    sidecar = tmp_path / "iris.json"
    sidecar.write_text(json.dumps({"name": "iris", "source": "mirror x", "sha256": "ab" * 32}), encoding="utf-8")
    (tmp_path / "iris.parquet").write_bytes(b"not really parquet")
    sources = dataset_sources([sidecar])
    assert sources[0]["source"] == "mirror x" and sources[0]["prepared_sha256"] is not None
    data = build_provenance(
        experiment="e",
        repo=tmp_path,  # not a git checkout: commit None, not an error
        config={"scale": "smoke"},
        experiment_settings={"seed": 7},
        sidecars=[sidecar],
        benchmarks={},
    )
    assert data["git"]["commit"] is None
    assert data["seeds"]["experiment_seed"] == 7
    assert data["config"]["sha256"] == canonical_hash({"scale": "smoke"})
    out = write_provenance(data, tmp_path / "out" / "provenance.json")
    assert json.loads(out.read_text(encoding="utf-8"))["experiment"]["name"] == "e"
    assert not list((tmp_path / "out").glob("*.tmp"))


def test_recorded_file_is_found_at_the_longest_tail_of_its_path_here(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    (repo / "reproduced" / "ch7_readings").mkdir(parents=True)
    (repo / "reproduced" / "ch7_readings" / "x.yaml").write_text("a: 1\n", encoding="utf-8")
    (repo / "ch7_readings").mkdir()
    (repo / "ch7_readings" / "x.yaml").write_text("a: 2\n", encoding="utf-8")
    # The other checkout's root "/home/u/redecorate" is dropped part by part; the longest tail
    # that exists here wins over a shorter one that exists too.
    found = recorded_file("/home/u/redecorate/reproduced/ch7_readings/x.yaml", repo)
    assert found == repo / "reproduced" / "ch7_readings" / "x.yaml"
    shorter = recorded_file(Path("/home/u/redecorate/ch7_readings/x.yaml"), str(repo))
    assert shorter == repo / "ch7_readings" / "x.yaml"
    assert recorded_file("/home/u/redecorate/reproduced/elsewhere.yaml", repo) is None
    assert recorded_file(None, repo) is None and recorded_file("", repo) is None
