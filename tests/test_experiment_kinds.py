"""The experiment-kind registry: a kind plugs into the real workflow as one module.

A toy kind (``tests/kinds/majority_kind.py``, defined outside the package as a user would)
runs through the shared unit skeleton and the real Snakefile, with its own setting, record
column and report; the registered kinds resolve; jobs are packed by cost. What every
registered kind must keep consistent (schema, settings, experiment files, the guide) is
``tests/test_kind_contract.py``.
"""

from __future__ import annotations

import os
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest
import yaml

from redecorate.config import ExperimentConfigError
from redecorate.experiments import load_experiment
from redecorate.kinds import KINDS, ExperimentKind, UnknownKindError, get_kind
from redecorate.kinds.jobs import Chunk, plan_chunks
from redecorate.stats import RECORD_COLUMNS

REPO = Path(__file__).resolve().parents[1]
KIND_DIR = Path(__file__).resolve().parent / "kinds"
SCHEMA = REPO / "workflow" / "schemas" / "experiment.schema.yaml"


def _toy_experiment(path: Path, **changes: object) -> Path:
    data = {
        "name": "toy_majority",
        "kind": "majority_kind:MAJORITY",
        "seed": 7,
        "datasets": ["iris", "labor"],
        "algorithms": {"majority": {}},
        "runs": 2,
        "folds": 3,
        "baseline_label": "the majority rule",
    }
    data.update(changes)
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return path


@pytest.fixture
def toy_on_path(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(KIND_DIR))


def test_every_registered_kind_resolves() -> None:
    for name in KINDS:
        kind = get_kind(name)
        assert isinstance(kind, ExperimentKind) and kind.name == name


def test_an_unknown_kind_names_the_registered_ones(tmp_path: Path) -> None:
    with pytest.raises(UnknownKindError, match="passive"):
        get_kind("pasive")
    bad = _toy_experiment(tmp_path / "bad.yaml", kind="pasive")
    with pytest.raises(ExperimentConfigError, match=r"bad.yaml: key 'kind'.*Did you mean 'passive'"):
        load_experiment(bad, schema=SCHEMA)


def test_a_key_of_another_kind_is_rejected(tmp_path: Path, toy_on_path: None) -> None:
    bad = _toy_experiment(tmp_path / "bad.yaml", corruption="class")
    with pytest.raises(ExperimentConfigError, match="corruption"):
        load_experiment(bad, schema=SCHEMA)


def test_the_kind_settings_are_typed_with_defaults_filled(tmp_path: Path, toy_on_path: None) -> None:
    from majority_kind import MAJORITY, MajoritySettings

    spec = load_experiment(_toy_experiment(tmp_path / "toy.yaml"), schema=SCHEMA)
    assert spec.settings == MajoritySettings(baseline_label="the majority rule")
    assert spec.protocol.points == () and list(spec.runs) == [0, 1]
    assert MAJORITY.job_settings(spec).options is spec.settings
    plain = _toy_experiment(tmp_path / "plain.yaml")
    plain.write_text(plain.read_text(encoding="utf-8").replace("baseline_label: the majority rule\n", ""),
                     encoding="utf-8")
    assert load_experiment(plain, schema=SCHEMA).settings == MajoritySettings(baseline_label="majority class")
    bad = _toy_experiment(tmp_path / "bad_label.yaml", baseline_label=3)
    with pytest.raises(ExperimentConfigError, match="baseline_label"):
        load_experiment(bad, schema=SCHEMA)


def _toy_dataset(n: int = 30) -> SimpleNamespace:
    labels = ["a"] * (n * 2 // 3) + ["b"] * (n - n * 2 // 3)
    return SimpleNamespace(name="toy", X=pd.DataFrame({"x": np.arange(n, dtype=float)}),
                           y=pd.Series(pd.Categorical(labels, categories=["a", "b"])))


def test_the_unit_skeleton_runs_the_toy_kind(toy_on_path: None) -> None:
    from majority_kind import MAJORITY, MajoritySettings

    from redecorate.kinds import JobSettings
    from redecorate.kinds.unit import run_unit

    job = JobSettings(experiment="toy", folds=3, seed=7, algorithms={"majority": {"params": {}}},
                      options=MajoritySettings())
    lines: list[str] = []
    records = run_unit(MAJORITY, _toy_dataset(), job, {"algorithm": "majority", "run": 1}, lines.append)
    assert list(records.columns) == [*RECORD_COLUMNS, "majority_class"]
    assert records["fold"].tolist() == [0, 1, 2] and (records["run"] == 1).all()
    assert (records["majority_class"] == "a").all() and (records["experiment"] == "toy").all()
    assert records["value"].between(60, 70).all()  # two thirds of every stratified test fold
    assert str(records["point"].dtype) == "int64" and str(records["n_train"].dtype) == "int64"
    assert len(lines) == 3 and "fold 3/3" in lines[-1]
    one = run_unit(MAJORITY, _toy_dataset(), job, {"algorithm": "majority", "run": 1, "fold": 2}, lines.append)
    pd.testing.assert_frame_equal(one.reset_index(drop=True), records.iloc[[2]].reset_index(drop=True))


def test_chunks_pack_units_in_order_up_to_the_target() -> None:
    units = [{"u": i} for i in range(7)]
    costs = [50, 50, 30, 200, 10, 10, 10]
    chunks = plan_chunks(units, lambda unit: costs[unit["u"]], target_seconds=100)
    assert [[u["u"] for u in c.units] for c in chunks] == [[0, 1], [2], [3], [4, 5, 6]]
    assert [c.estimated_seconds for c in chunks] == [100, 30, 200, 30]
    assert plan_chunks(units, lambda unit: 1.0, target_seconds=1e9) == [
        Chunk(tuple(units), 7.0)
    ]
    with pytest.raises(ValueError, match="target_seconds"):
        plan_chunks(units, lambda unit: 1.0, target_seconds=0)


@pytest.mark.workflow
def test_a_kind_defined_outside_the_package_runs_through_the_snakefile(tmp_path: Path) -> None:
    import smoke_support as smoke

    if smoke.mirror_missing_reason():
        pytest.skip(smoke.mirror_missing_reason())
    experiment = _toy_experiment(tmp_path / "toy.yaml")
    env = dict(smoke.snakemake_env())
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(KIND_DIR), env.get("PYTHONPATH")]))
    config = ("--config", f"experiments=[{experiment}]", f"data_mirror={smoke.MIRROR}")
    result = smoke.run_snakemake(tmp_path, *config, cores=2, env=env)
    assert result.returncode == 0, smoke.output_of(result)[-5000:]
    results = tmp_path / "results" / "toy_majority"
    records = pd.read_parquet(results / "records.parquet")
    # 2 datasets x 2 runs x 3 folds, with the kind's own column after the common ones.
    assert len(records) == 2 * 2 * 3
    assert list(records.columns) == [*RECORD_COLUMNS, "majority_class"]
    assert (records["algorithm"] == "majority").all() and (records["point"] == 100).all()
    iris = records[records["dataset"] == "iris"]
    # Iris has three classes of 50: the majority rule scores about a third on every fold.
    assert iris["value"].between(20, 45).all()
    assert set(iris["majority_class"]) <= {"Iris-setosa", "Iris-versicolor", "Iris-virginica"}
    # labor: 37 good, 20 bad; every training fold's majority is "good".
    assert (records.loc[records["dataset"] == "labor", "majority_class"] == "good").all()
    report = (results / "replication.md").read_text(encoding="utf-8")
    assert report.startswith("# toy_majority: the majority rule\n\n")
    assert "iris" in report and "labor" in report
    table = pd.read_csv(results / "tables" / "majority.csv")
    assert table["dataset"].tolist() == ["iris", "labor"]
    assert (results / "figures").is_dir()
    for name in ("replication.csv", "replication_conclusions.csv", "provenance.json", "summary.csv"):
        assert (results / name).is_file(), name
    conclusions = pd.read_csv(results / "replication_conclusions.csv")
    assert list(conclusions.columns) == ["table", "holds"] and conclusions.empty
    again = smoke.run_snakemake(tmp_path, *config, cores=2, env=env)
    assert again.returncode == 0, smoke.output_of(again)[-5000:]
    assert "Nothing to be done" in smoke.output_of(again), smoke.output_of(again)[-3000:]
