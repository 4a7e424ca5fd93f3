"""Kind ``feature_subsets``: its settings, its unit of work over ensemble sizes, its report."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest
import yaml
from uci_mirror import mirror_dir  # noqa: E402 - tools/ is on sys.path (conftest)

from redecorate.config import ExperimentConfigError
from redecorate.data import load_dataset
from redecorate.experiments import load_experiment, report_settings
from redecorate.job_records import unit_key
from redecorate.kinds import ReportOutputs, get_kind
from redecorate.kinds.feature_subsets import evaluate_sizes
from redecorate.kinds.unit import run_unit
from redecorate.protocol.settings import JobSettings, ReportSettings, key_settings
from redecorate.report.replication_report import ReplicationPaths, write_replication_report

REPO = Path(__file__).resolve().parents[1]
SCHEMA = REPO / "workflow" / "schemas" / "experiment.schema.yaml"
FS = REPO / "config" / "experiments" / "fs_ensembles.yaml"
KIND = get_kind("feature_subsets")


def _variant(tmp_path: Path, **changes) -> Path:
    data = yaml.safe_load(FS.read_text())
    for key, value in changes.items():
        data[key] = value
    path = tmp_path / "fs.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return path


def test_the_experiment_file_resolves_its_sizes_and_tables() -> None:
    spec = load_experiment(FS, schema=SCHEMA)
    assert list(spec.protocol.points) == [5, 10, 15, 20, 25]
    assert len(spec.runs) == 10
    assert spec.report["tables"]["6"][2:] == ["random_k6", "top_gain_k6", "cumulative_gain_k6",
                                               "feature_boost_k6"]
    assert list(load_experiment(FS, schema=SCHEMA, scale="smoke").protocol.points) == [5, 25]


def test_an_ensemble_smaller_than_an_evaluated_size_fails_before_any_job(tmp_path: Path) -> None:
    data = yaml.safe_load(FS.read_text())
    data["algorithms"]["random_k2"]["n_estimators"] = 10
    with pytest.raises(ExperimentConfigError, match=r"algorithms.random_k2.n_estimators': 10 .*25"):
        load_experiment(_variant(tmp_path, algorithms=data["algorithms"]), schema=SCHEMA)


def test_a_table_column_that_is_not_an_algorithm_fails_naming_the_key(tmp_path: Path) -> None:
    report = yaml.safe_load(FS.read_text())["report"]
    report["tables"]["5"].append("random_k3")
    with pytest.raises(ExperimentConfigError, match=r"report.tables.5': '?random_k3'? not among"):
        load_experiment(_variant(tmp_path, report=report), schema=SCHEMA)


def test_the_table_size_must_be_an_evaluated_size(tmp_path: Path) -> None:
    report = yaml.safe_load(FS.read_text())["report"]
    report["table_size"] = 30
    with pytest.raises(ExperimentConfigError, match=r"report.table_size': 30 is not among"):
        load_experiment(_variant(tmp_path, report=report), schema=SCHEMA)


#: Unit keys the smoke run's records were stored under before the kinds declared their settings
#: as typed objects (dataset iris, run 0): committed records are reused by these keys.
LEGACY_KEYS = {
    "j48": "914e86100823c3b5172453bad88dc7d9ab23a1b1e915df4c35bc4f6603afc738",
    "bagging": "a3fa2c01f524e9f044736dde880262d3cb085cc9a326b0cb3e37e6d3dc01e0a5",
    "random_k2": "207afacbabd0126a49908f6cf59daed007109c203aa3fd876dce34011cba9065",
    "feature_boost_k12": "3fbfa491e85a6b3dae94373b74262bc55f4fc86aed542abb937a2661a707e34b",
}


def _legacy_job_settings(spec) -> dict:
    """The job settings of the kind as its records were first keyed."""
    return {"experiment": spec.name, "n_folds": spec.protocol.folds,
            "sizes": sorted(int(s) for s in spec.protocol.points), "seed": spec.protocol.seed,
            "algorithms": {label: {"params": dict(params),
                                   **({"learner": spec.learner_of(label)} if spec.learner_of(label) != label else {})}
                           for label, params in spec.algorithms.items()}}  # fmt: skip


def test_unit_keys_are_the_legacy_ones() -> None:
    # The files list their sizes in ascending order, as the keys have them (sorted).
    for scale in ("thesis", *yaml.safe_load(FS.read_text())["profiles"]):
        spec = load_experiment(FS, schema=SCHEMA, scale=scale)
        assert list(spec.protocol.points) == sorted(spec.protocol.points), scale
        assert key_settings(KIND, KIND.job_settings(spec)) == _legacy_job_settings(spec), scale
    spec = load_experiment(FS, schema=SCHEMA, scale="smoke")
    job = KIND.job_settings(spec)
    for algorithm, key in LEGACY_KEYS.items():
        assert unit_key(KIND, job, {"algorithm": algorithm, "run": 0}, "iris") == key, algorithm


def test_sizes_are_evaluated_in_ascending_order_whatever_the_file_s_order() -> None:
    """Records list the sizes in ascending order (as they always have), and the learner's seed
    is keyed by the largest size, not the last listed."""
    rng = np.random.default_rng(0)
    X = pd.DataFrame({"a": rng.normal(size=30), "b": rng.normal(size=30)})
    y = pd.Series(pd.Categorical(np.where(X["a"] > 0, "p", "n")))
    data = SimpleNamespace(name="toy", X=X, y=y)
    entry = {"bagging": {"params": {"n_estimators": 4, "voting": "hard"}}}
    frames = [run_unit(KIND, data, JobSettings(experiment="x", folds=3, seed=1, points=points, algorithms=entry),
                       {"algorithm": "bagging", "run": 0}, lambda _line: None).drop(columns="fit_seconds")
              for points in ((1, 4, 2), (1, 2, 4))]  # fmt: skip
    pd.testing.assert_frame_equal(frames[0], frames[1])
    assert list(frames[0]["point"][:3]) == [1, 2, 4]


def test_evaluate_sizes_of_a_single_model_is_one_prediction_at_every_size() -> None:
    class Single:
        def predict_proba_prepared(self, X):
            return np.tile([0.2, 0.8], (len(X), 1))

    out = evaluate_sizes(Single(), np.zeros((3, 1)), [5, 25])
    assert sorted(out) == [5, 25] and (out[5] == 1).all() and out[5] is out[25]


@pytest.fixture(scope="module")
def iris_records() -> pd.DataFrame:
    mirror = mirror_dir()
    if mirror is None:
        pytest.skip("ARFF mirror ../shared/datasets/uci not found")
    spec = load_experiment(FS, schema=SCHEMA, scale="smoke")
    settings = KIND.job_settings(spec)
    data = load_dataset("iris", registry=REPO / "config" / "datasets.yaml", mirror=mirror)
    frames = [run_unit(KIND, data, settings, unit, lambda _line: None)
              for unit in KIND.units(spec) if unit["algorithm"] in ("j48", "bagging", "random_k2")]
    return pd.concat(frames, ignore_index=True)


def test_a_unit_records_every_fold_at_every_ensemble_size(iris_records: pd.DataFrame) -> None:
    assert set(iris_records["point"]) == {5, 25}
    per = iris_records.groupby(["algorithm", "point"])["fold"].nunique()
    assert (per == 3).all()
    # A single tree has one size: the same accuracy at every point, ensemble_size 1.
    j48 = iris_records[iris_records["algorithm"] == "j48"].pivot_table(index="fold", columns="point",
                                                                       values="value")
    assert (j48[5] == j48[25]).all()
    assert set(iris_records.loc[iris_records["algorithm"] == "j48", "ensemble_size"]) == {1}
    bag = iris_records[iris_records["algorithm"] == "bagging"]
    assert set(bag["ensemble_size"]) == {5, 25}


def test_the_report_compares_with_tables_5_to_7_and_says_not_comparable(tmp_path: Path,
                                                                        iris_records) -> None:
    spec = load_experiment(FS, schema=SCHEMA, scale="smoke")
    settings = report_settings(spec, REPO / "config" / "published")
    # iris is not one of the source's datasets: rename it to one so cells get compared.
    records = iris_records.assign(dataset="breast-w")
    out = ReportOutputs(tmp_path / "tables", tmp_path / "figures")
    paths = ReplicationPaths(tmp_path / "replication.md", tmp_path / "replication.csv",
                             tmp_path / "replication_conclusions.csv")  # fmt: skip
    out.tables.mkdir()
    out.figures.mkdir()
    settings = dataclasses.replace(ReportSettings.from_json(KIND, settings.to_json()), datasets=("breast-w",))
    replication = KIND.report(records, pd.DataFrame(), out, settings)
    write_replication_report(replication, paths, experiment=spec.name)
    text = paths.markdown.read_text()
    assert "**Not comparable with the dissertation**" in text
    cells = pd.read_csv(paths.cells)
    compared = cells[cells["status"] == "ok"]
    assert set(compared["system"]) == {"j48", "bagging", "random_k2"}
    assert (compared["difference"] == compared["reproduced"] - compared["published"]).all()
    conclusions = pd.read_csv(paths.conclusions)
    assert (~conclusions["comparable"]).all()
    assert "Table 5 (replicated)" in (out.tables / "fs_tables.md").read_text()
    assert (out.figures / "fs_error_vs_size_breast-w.png").stat().st_size > 0


def test_error_statistics_sd_is_over_the_runs_means() -> None:
    from redecorate.report.feature_subsets import error_statistics

    rows = [("x", "d", "a", run, fold, 25, 10, "accuracy", acc, 0.0, 25)
            for run, accs in enumerate([[90.0, 80.0], [70.0, 70.0]]) for fold, acc in enumerate(accs)]
    records = pd.DataFrame(rows, columns=["experiment", "dataset", "algorithm", "run", "fold", "point",
                                          "n_train", "metric", "value", "fit_seconds", "ensemble_size"])
    stats = error_statistics(records).iloc[0]
    assert stats["error_mean"] == pytest.approx(22.5)  # errors 10, 20, 30, 30
    assert stats["error_sd"] == pytest.approx(pd.Series([15.0, 30.0]).std())


def test_the_kind_is_registered() -> None:
    assert KIND.name == "feature_subsets" and KIND.points_key == "ensemble_sizes"
    assert set(KIND.report_schema) == {"tables", "table_size"}


def test_the_order_of_the_sizes_in_the_file_leaves_the_unit_keys(tmp_path: Path) -> None:
    """The records do not depend on the order sizes are listed in, so neither do the keys
    (the first layout hashed them sorted)."""
    data = yaml.safe_load(FS.read_text())
    data["ensemble_sizes"] = list(reversed(data["ensemble_sizes"]))
    path = tmp_path / "reversed.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    forward, backward = load_experiment(FS, schema=SCHEMA), load_experiment(path, schema=SCHEMA)
    assert forward.protocol.points != backward.protocol.points
    unit = {"algorithm": next(iter(forward.algorithms)), "run": 0}
    assert (unit_key(KIND, KIND.job_settings(forward), unit, "iris")
            == unit_key(KIND, KIND.job_settings(backward), unit, "iris"))
