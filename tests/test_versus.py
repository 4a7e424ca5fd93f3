"""``python3 -m redecorate.versus``: a new learner against a chapter's systems, at its protocol.

End to end with the toy learner of ``tests/learners/class_prior.py`` (a copy of the package
with its module and registry line, as ``tests/test_adding_a_learner.py`` makes it): the file
the command writes keeps the chapter's protocol and systems as they are, so a run of it with
``records_from`` pointing at a finished run of the chapter computes the toy's units alone and
reads every other; its report sets the toy against every system.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
import smoke_support as smoke
import yaml
from test_adding_a_learner import _package_with_the_toy

from redecorate.config import ExperimentConfigError, load_yaml
from redecorate.job_records import job_record_info
from redecorate.versus import CHAPTERS, versus_experiment

REPO = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("chapter", sorted(CHAPTERS))
def test_the_file_keeps_the_chapters_protocol_and_systems_and_compares_the_new_one_with_each(chapter) -> None:
    source = load_yaml(REPO / "config" / "experiments" / f"{chapter}.yaml")
    data = versus_experiment(chapter, "bagging", label="bag50", params={"n_estimators": 50}, repo=REPO)
    assert data["name"] == f"{chapter}_vs_bag50"
    for key in ("kind", "seed", "datasets", "runs", "folds", "points", "profiles", "noise", "corruption"):
        assert data.get(key) == source.get(key), key
    assert {k: v for k, v in data["algorithms"].items() if k != "bag50"} == source["algorithms"]
    assert data["algorithms"]["bag50"] == {"learner": "bagging", "n_estimators": 50}
    report = data["report"]
    assert "published" not in report
    pairs = ([(report["baseline"], other) for other in report["others"]] if "baseline" in report
             else [(c["a"], c["b"]) for c in report["comparisons"]])
    assert pairs == [("bag50", system) for system in source["algorithms"]]


def test_a_wrong_chapter_learner_or_label_is_refused_with_the_fix() -> None:
    with pytest.raises(ExperimentConfigError, match="one of ch4_passive"):
        versus_experiment("ch6_active", "naive_bayes", repo=REPO)
    with pytest.raises(ExperimentConfigError, match="unknown algorithm 'naive_baye'.*naive_bayes"):
        versus_experiment("ch4_passive", "naive_baye", repo=REPO)
    with pytest.raises(ExperimentConfigError, match="already has a system 'rf'.*--label"):
        versus_experiment("ch4_passive", "naive_bayes", label="rf", repo=REPO)


@pytest.mark.workflow
def test_a_new_learner_against_chapter_4_computes_only_its_own_units(smoke_reference: Path, tmp_path: Path) -> None:
    env = {**smoke.snakemake_env(), "PYTHONPATH": str(_package_with_the_toy(tmp_path / "package"))}
    written = subprocess.run([sys.executable, "-m", "redecorate.versus", "ch4_passive", "class_prior",
                              "--repo", str(REPO), "--out", str(tmp_path)],
                             capture_output=True, text=True, env=env, timeout=120)  # fmt: skip
    assert written.returncode == 0, written.stderr
    experiment = tmp_path / "ch4_passive_vs_class_prior.yaml"
    assert f"wrote {experiment}" in written.stdout and "records_from=reproduced" in written.stdout
    work = tmp_path / "work"
    done = smoke.run_snakemake(work, "--config", *smoke.SMOKE_DATA, f"experiments=[{experiment}]",
                               f"records_from={smoke_reference / smoke.SMOKE_RESULTS}", env=env)  # fmt: skip
    assert done.returncode == 0, smoke.output_of(done)[-5000:]
    results = work / smoke.SMOKE_RESULTS / "ch4_passive_vs_class_prior"
    computed, read = set(), set()
    for file in (results / "records").rglob("*.parquet"):
        info = job_record_info(file)
        for unit, source in zip(info["units"], info["unit_sources"], strict=True):
            (read if source else computed).add(unit["algorithm"])
    assert computed == {"class_prior"}, computed
    assert read == set(yaml.safe_load(experiment.read_text())["algorithms"]) - {"class_prior"}
    # The chapter's systems' records are the reference run's, value for value.
    records = pd.read_parquet(results / "records.parquet")
    reference = pd.read_parquet(smoke.results_dir(smoke_reference) / "records.parquet")
    keys = ["dataset", "algorithm", "run", "fold", "point", "metric"]
    merged = records.merge(reference, on=keys, suffixes=("", "_ref"))
    assert len(merged) == len(reference) and (merged["value"] == merged["value_ref"]).all()
    report = (results / "replication.md").read_text(encoding="utf-8")
    assert report.startswith("# ch4_passive_vs_class_prior: results without published values")
    tables = "\n".join(p.read_text(encoding="utf-8") for p in (results / "tables").glob("*.md"))
    for system in ("DECORATE", "J48", "Bagging", "AdaBoost", "Random Forests"):
        assert f"Class Prior vs {system}" in tables, system
    assert any((results / "figures").glob("*critical*")) or any((results / "figures").glob("*cd*"))
