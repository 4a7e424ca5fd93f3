"""Kind ``online``: its settings, its unit of work over stream orders, its report."""

from __future__ import annotations

from pathlib import Path

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
from redecorate.kinds.online import OnlineSettings, stream_order
from redecorate.kinds.unit import run_unit
from redecorate.protocol.settings import JobSettings, ReportSettings, key_settings
from redecorate.report.online import online_conclusions, paired_significance, table_pairs
from redecorate.report.replication_report import ReplicationPaths, write_replication_report

REPO = Path(__file__).resolve().parents[1]
SCHEMA = REPO / "workflow" / "schemas" / "experiment.schema.yaml"
OZA = REPO / "config" / "experiments" / "oza_online.yaml"
KIND = get_kind("online")


def _variant(tmp_path: Path, **changes) -> Path:
    data = yaml.safe_load(OZA.read_text())
    data.update(changes)
    path = tmp_path / "oza.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return path


def test_the_experiment_files_resolve_orders_and_tables() -> None:
    spec = load_experiment(OZA, schema=SCHEMA)
    assert isinstance(spec.settings, OnlineSettings)
    assert (len(spec.runs), spec.protocol.folds, spec.settings.orders) == (10, 5, 5)
    assert spec.report["tables"]["3.5"] == ["stump", "bagging_stump", "online_bagging_stump"]
    assert load_experiment(OZA, schema=SCHEMA, scale="smoke").settings.orders == 2
    # A pilot keeps the source's protocol but may stream fewer orders (the kind's pilot key).
    assert load_experiment(OZA, schema=SCHEMA, scale="pilot").settings.orders == 1
    trees = load_experiment(REPO / "config" / "experiments" / "oza_online_trees.yaml", schema=SCHEMA)
    assert len(trees.datasets) == 8 and trees.settings.time_tables == ("3.8",)


def test_orders_default_to_oza_s_five(tmp_path: Path) -> None:
    data = yaml.safe_load(OZA.read_text())
    del data["orders"]
    for profile in data["profiles"].values():
        profile.pop("orders", None)
    path = tmp_path / "oza.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    spec = load_experiment(path, schema=SCHEMA)
    assert spec.settings.orders == 5
    # Legacy keys always carried ``orders``, at its default too.
    assert key_settings(KIND, KIND.job_settings(spec))["orders"] == 5


def test_a_report_table_column_must_be_an_algorithm(tmp_path: Path) -> None:
    report = yaml.safe_load(OZA.read_text())["report"]
    report["tables"]["3.4"].append("nb_typo")
    with pytest.raises(ExperimentConfigError, match=r"report.tables.3.4': '?nb_typo'? not among"):
        load_experiment(_variant(tmp_path, report=report), schema=SCHEMA)
    report["tables"]["3.4"] = []
    with pytest.raises(ExperimentConfigError, match="tables"):
        load_experiment(_variant(tmp_path, report=report), schema=SCHEMA)


def test_labels_of_the_kind_keys_must_be_algorithms(tmp_path: Path) -> None:
    with pytest.raises(ExperimentConfigError, match=r"key 'single_models': '?nb_typo'? not among"):
        load_experiment(_variant(tmp_path, single_models={"bagging_nb": ["nb_typo"]}), schema=SCHEMA)
    with pytest.raises(ExperimentConfigError, match=r"key 'time_tables': 3.11 not among report.tables"):
        load_experiment(_variant(tmp_path, time_tables=["3.11"]), schema=SCHEMA)
    with pytest.raises(ExperimentConfigError, match="orders"):
        load_experiment(_variant(tmp_path, orders=0), schema=SCHEMA)


ONLINE_FILES = {name: REPO / "config" / "experiments" / f"{name}.yaml"
                for name in ("oza_online", "oza_online_boosting", "oza_online_nn", "oza_online_trees")}
ONLINE_FILES["oza_online_nn_momentum09"] = REPO / "reproduced" / "oza_readings_nn" / "oza_online_nn_momentum09.yaml"
"""Every online experiment file, and the network reading oza_online_nn.yaml had before
(reproduced/oza_readings_nn), whose pilot's records are kept under the keys pinned below."""

#: Unit keys the records of the smoke runs were stored under before the kinds declared their
#: settings as typed objects (dataset balance-scale, run 0): committed records are reused by
#: these keys (``records_from``), so they must not change.
LEGACY_KEYS = {
    ("oza_online", "nb"): "9e2866f70c3f45b172a04a6c33402e40cdbe8b16268578f20d211c555a38f71f",
    ("oza_online", "bagging_nb"): "1a94c3a464ef17c6fdb7f711e4d328e73f69cf9ecf145ef8dd3fef16137f91d5",
    ("oza_online", "online_bagging_nb"): "eb83ec56f46aebb26c25f93bb4525849f23a3d4ac30076d2702868140a36e391",
    ("oza_online", "stump"): "2db97397e73fdcad4995ef9d14a0072335c2ddc6b83c7dad130f61f9ec3b72e3",
    ("oza_online", "bagging_stump"): "2728b541e195354a770d48d1b7ddfe226dbb378a7e6f2f22c3ee9dc591743ccc",
    ("oza_online", "online_bagging_stump"): "8a96ba3c75e2a0c3eb43579029dbad2b902a1aa11271357e0e9d53cd121baed9",
    ("oza_online_boosting", "adaboost_nb"): "15e38d991ceb0d633c1c594c6b006c013e488fbb64114e6f97ce7519cad191b6",
    ("oza_online_boosting", "primed_online_boosting_stump"):
        "14be0c19453828e053af1c68aab1a2b2da63ea1ab3bfd4530422323cdee65bee",
    # The adopted network reading (momentum 0), as its pilot's records were keyed.
    ("oza_online_nn", "nn"): "b3fd421c00a7abec8eb46a0223caf3d35213e2f389c3f61ee43b95f00b871b7b",
    ("oza_online_nn", "online_bagging_nn10"): "73336645005f7ea1b6b900c038cc10a3646656fb3ee57a8f08b6f022fc02041a",
    ("oza_online_nn_momentum09", "nn"): "bee0d4e158c139f2e4638cb7df231bb384324b56ffd2686fd5d95bdc5613a669",
    ("oza_online_nn_momentum09", "online_bagging_nn10"):
        "8c7cca5eee6b1e39a0094d42f55cc7171b5b502cdcc8ae726cff333fc4e2c1c1",
    ("oza_online_trees", "online_bagging_tree"): "2365110aed50ae8e50b7c6c838c455f58287e1ded58e468926495d8864cb3bf1",
}


def _legacy_job_settings(spec) -> dict:
    """The job settings of the online kind as its records were first keyed."""
    return {"experiment": spec.name, "n_folds": spec.protocol.folds, "seed": spec.protocol.seed,
            "orders": int(spec.settings.orders),
            "algorithms": {label: {"params": dict(params),
                                   **({"learner": spec.learner_of(label)} if spec.learner_of(label) != label else {})}
                           for label, params in spec.algorithms.items()}}  # fmt: skip


@pytest.mark.parametrize("name", ONLINE_FILES)
def test_unit_keys_are_the_legacy_ones(name: str) -> None:
    path = ONLINE_FILES[name]
    for scale in ("thesis", *yaml.safe_load(path.read_text())["profiles"]):
        spec = load_experiment(path, schema=SCHEMA, scale=scale)
        assert key_settings(KIND, KIND.job_settings(spec)) == _legacy_job_settings(spec), scale
    spec = load_experiment(path, schema=SCHEMA, scale="smoke")
    job = KIND.job_settings(spec)
    for (experiment, algorithm), key in LEGACY_KEYS.items():
        if experiment == name:
            assert unit_key(KIND, job, {"algorithm": algorithm, "run": 0}, "balance-scale") == key, algorithm


def test_report_only_keys_stay_out_of_the_unit_keys(tmp_path: Path) -> None:
    spec = load_experiment(OZA, schema=SCHEMA)
    other = load_experiment(_variant(tmp_path, single_models={}, counterparts={}, time_tables=[]), schema=SCHEMA)
    assert other.settings != spec.settings
    assert key_settings(KIND, KIND.job_settings(other)) == key_settings(KIND, KIND.job_settings(spec))
    # ... nor the job rule's parameters, so changing one reruns the report and no job.
    assert KIND.job_settings(other).to_json() == KIND.job_settings(spec).to_json()
    shipped = report_settings(other, REPO / "config" / "published").to_json()  # the report rule's
    assert ReportSettings.from_json(KIND, shipped).options == other.settings


def test_stream_orders_are_permutations_fixed_by_their_key() -> None:
    a = stream_order(1, "car", 0, 2, 0, 50)
    assert sorted(a) == list(range(50))
    assert np.array_equal(a, stream_order(1, "car", 0, 2, 0, 50))
    assert not np.array_equal(a, stream_order(1, "car", 0, 2, 1, 50))


@pytest.fixture(scope="module")
def smoke_records() -> tuple[pd.DataFrame, object]:
    mirror = mirror_dir()
    if mirror is None:
        pytest.skip("ARFF mirror ../shared/datasets/uci not found")
    spec = load_experiment(OZA, schema=SCHEMA, scale="smoke")
    settings = KIND.job_settings(spec)
    frames = []
    for name in spec.datasets:
        data = load_dataset(name, registry=REPO / "config" / "datasets.yaml", mirror=mirror)
        frames += [run_unit(KIND, data, settings, unit, lambda _line: None) for unit in KIND.units(spec)]
    return pd.concat(frames, ignore_index=True), spec


def test_online_algorithms_are_run_once_per_order_batch_ones_once(smoke_records) -> None:
    records, spec = smoke_records
    per = records.groupby(["dataset", "algorithm", "fold"])["order"].agg(["nunique", "max"])
    for (_, algorithm, _), row in per.iterrows():
        online = algorithm.startswith("online_")
        assert (row["nunique"], row["max"]) == ((2, 1) if online else (1, 0)), algorithm
    assert list(records.columns[-1:]) == ["order"] and records["order"].dtype == np.int64
    assert (records["point"] == 100).all()
    assert set(records.loc[records["algorithm"] == "bagging_nb", "ensemble_size"]) == {100}
    # Online bagging of naive Bayes over two different orders: different Poisson streams.
    nb = records[(records["algorithm"] == "online_bagging_nb") & (records["dataset"] == "breast-w")]
    assert nb["fit_seconds"].gt(0).all()


def _report(records: pd.DataFrame, spec, tmp_path: Path) -> tuple[ReportOutputs, ReplicationPaths]:
    """The online kind's report of ``records`` written under ``tmp_path``, as the workflow's
    report rule writes it."""
    out = ReportOutputs(tmp_path / "tables", tmp_path / "figures")
    paths = ReplicationPaths(tmp_path / "replication.md", tmp_path / "replication.csv",
                             tmp_path / "replication_conclusions.csv")  # fmt: skip
    out.tables.mkdir()
    out.figures.mkdir()
    settings = report_settings(spec, REPO / "config" / "published")
    settings = ReportSettings.from_json(KIND, settings.to_json())  # as the report rule gets them
    replication = KIND.report(records, None, out, settings)
    write_replication_report(replication, paths, experiment=spec.name)
    return out, paths


def test_the_report_writes_tables_figures_and_the_comparison(smoke_records, tmp_path: Path) -> None:
    records, spec = smoke_records
    out, paths = _report(records, spec, tmp_path)
    md = (out.tables / "online_tables.md").read_text()
    assert "## Table 3.4 (replicated): fraction correct" in md
    assert "## Table 3.10 (replicated): running times (seconds)" in md
    assert sorted(p.name for p in out.figures.glob("*.png")) == [
        "online_scatter_bagging_nb_vs_online_bagging_nb.png",
        "online_scatter_bagging_stump_vs_online_bagging_stump.png"]
    cells = pd.read_csv(paths.cells, dtype={"table": str})
    ran = cells[cells["status"] == "ok"]
    assert set(ran["dataset"]) == {"balance-scale", "breast-w"}
    assert set(ran["table"].astype(str)) == {"3.4", "3.5", "3.9", "3.10"}
    assert "Not comparable" in paths.markdown.read_text()
    conclusions = pd.read_csv(paths.conclusions)
    assert len(conclusions) and not conclusions["comparable"].any()
    tables = pd.read_csv(out.tables / "online_tables.csv", dtype={"table": str})
    mine = tables[(tables["table"].astype(str) == "3.4") & (tables["dataset"] == "breast-w")]
    expected = records[(records["algorithm"] == "nb") & (records["dataset"] == "breast-w")]["value"].mean() / 100
    assert mine.set_index("system").loc["nb", "value"] == pytest.approx(expected)


def test_paired_significance_over_splits() -> None:
    rng = np.random.default_rng(0)
    base = rng.normal(80, 2, size=20)
    splits = pd.DataFrame({"dataset": "d", "run": np.repeat(np.arange(4), 5), "fold": np.tile(np.arange(5), 4)})
    frame = pd.concat([splits.assign(algorithm="a", value=base + 1.0 + rng.normal(0, 0.1, 20)),
                       splits.assign(algorithm="b", value=base),
                       splits.assign(algorithm="c", value=base + rng.normal(0, 3, 20))])
    assert paired_significance(frame, "d", "a", "b") == 1
    assert paired_significance(frame, "d", "b", "a") == -1
    assert paired_significance(frame, "d", "b", "b") == 0
    assert paired_significance(frame, "d", "a", "missing") == 0


def test_conclusions_count_signs_beside_the_trivial_prediction() -> None:
    datasets = ["d1", "d2", "d3", "d4"]
    ours = pd.DataFrame({"table": "T", "dataset": np.repeat(datasets, 2), "system": ["batch", "online"] * 4,
                         "value": [0.90, 0.80, 0.70, 0.75, 0.60, 0.50, 0.85, 0.84]})
    published = ours.assign(value=[0.90, 0.85, 0.70, 0.72, 0.60, 0.65, 0.85, 0.80])
    job = JobSettings(experiment="x", folds=5, seed=1, algorithms={"batch": {}, "online": {}},
                      options=OnlineSettings(counterparts={"batch": ("online",)}))
    settings = ReportSettings(job=job, kind="online", scale="thesis", datasets=tuple(datasets),
                              params={"batch": {}, "online": {}}, report={"tables": {"T": ["batch", "online"]}})
    row = online_conclusions(ours, published, settings).iloc[0]
    # Published batch - online: +5, -2, -5, +5; reproduced: +10, -5, +10, +1: d3 disagrees.
    assert (row["datasets"], row["agreement"], row["trivial_agreement"]) == (4, 0.75, 0.5)
    assert table_pairs(["x", "batch", "online"], {"batch": ["gone", "online"]}) == [("batch", "online")]


def test_the_boosting_experiment_reports_tables_without_published_values(tmp_path: Path) -> None:
    """Oza's chapter-4 tables are not in the seed: reproduced tables, marked as such, with
    each cell the mean of its records, and no published cell or conclusion."""
    mirror = mirror_dir()
    if mirror is None:
        pytest.skip("ARFF mirror ../shared/datasets/uci not found")
    spec = load_experiment(REPO / "config" / "experiments" / "oza_online_boosting.yaml", schema=SCHEMA,
                           scale="smoke")  # fmt: skip
    settings = KIND.job_settings(spec)
    data = load_dataset("balance-scale", registry=REPO / "config" / "datasets.yaml", mirror=mirror)
    records = pd.concat([run_unit(KIND, data, settings, unit, lambda _line: None) for unit in KIND.units(spec)],
                        ignore_index=True)  # fmt: skip
    assert set(records["algorithm"]) == set(spec.algorithms)
    boosted = records[records["algorithm"] == "adaboost_stump"]
    assert (boosted["ensemble_size"] == 100).all()
    out, paths = _report(records, spec, tmp_path)
    md = (out.tables / "online_tables.md").read_text()
    assert "Tables 4.2, 4.3, 4.8, 4.9" in md
    assert "## Table 4.3 (replicated; no published values): fraction correct" in md
    assert "**No published values**" in paths.markdown.read_text()
    assert pd.read_csv(paths.cells).empty
    tables = pd.read_csv(out.tables / "online_tables.csv", dtype={"table": str})
    cell = tables[(tables["table"] == "4.3") & (tables["system"] == "online_boosting_stump")]["value"].item()
    online = records[records["algorithm"] == "online_boosting_stump"]["value"].mean() / 100
    assert cell == pytest.approx(online)
