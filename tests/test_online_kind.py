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
from redecorate.kinds import ReportOutputs, get_kind
from redecorate.kinds.online import stream_order
from redecorate.report.online import online_conclusions, paired_significance, table_pairs

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
    assert (len(spec.runs), spec.protocol.folds, spec.settings["orders"]) == (10, 5, 5)
    assert spec.report["tables"]["3.5"] == ["stump", "bagging_stump", "online_bagging_stump"]
    assert load_experiment(OZA, schema=SCHEMA, scale="smoke").settings["orders"] == 2
    trees = load_experiment(REPO / "config" / "experiments" / "oza_online_trees.yaml", schema=SCHEMA)
    assert len(trees.datasets) == 8 and trees.settings["time_tables"] == ["3.8"]


def test_labels_of_the_kind_keys_must_be_algorithms(tmp_path: Path) -> None:
    with pytest.raises(ExperimentConfigError, match=r"key 'single_models': nb_typo not among"):
        load_experiment(_variant(tmp_path, single_models={"bagging_nb": ["nb_typo"]}), schema=SCHEMA)
    with pytest.raises(ExperimentConfigError, match=r"key 'time_tables': 3.11 not among report.tables"):
        load_experiment(_variant(tmp_path, time_tables=["3.11"]), schema=SCHEMA)
    with pytest.raises(ExperimentConfigError, match="orders"):
        load_experiment(_variant(tmp_path, orders=0), schema=SCHEMA)


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
        frames += [KIND.run_unit(data, settings, unit, lambda _line: None) for unit in KIND.units(spec)]
    return pd.concat(frames, ignore_index=True), spec


def test_online_algorithms_are_run_once_per_order_batch_ones_once(smoke_records) -> None:
    records, spec = smoke_records
    per = records.groupby(["dataset", "algorithm", "fold"])["order"].agg(["nunique", "max"])
    for (_, algorithm, _), row in per.iterrows():
        online = algorithm.startswith("online_")
        assert (row["nunique"], row["max"]) == ((2, 1) if online else (1, 0)), algorithm
    assert list(records.columns[-1:]) == ["order"]
    assert (records["point"] == 100).all()
    assert set(records.loc[records["algorithm"] == "bagging_nb", "ensemble_size"]) == {100}
    # Online bagging of naive Bayes over two different orders: different Poisson streams.
    nb = records[(records["algorithm"] == "online_bagging_nb") & (records["dataset"] == "breast-w")]
    assert nb["fit_seconds"].gt(0).all()


def _report(records: pd.DataFrame, spec, tmp_path: Path) -> ReportOutputs:
    """The online kind's report of ``records`` written under ``tmp_path``."""
    out = ReportOutputs(tmp_path / "tables", tmp_path / "figures", tmp_path / "replication.md",
                        tmp_path / "replication.csv", tmp_path / "replication_conclusions.csv")
    out.tables.mkdir()
    out.figures.mkdir()
    KIND.report(records, None, out, report_settings(spec, REPO / "config" / "published"))
    return out


def test_the_report_writes_tables_figures_and_the_comparison(smoke_records, tmp_path: Path) -> None:
    records, spec = smoke_records
    out = _report(records, spec, tmp_path)
    md = (out.tables / "online_tables.md").read_text()
    assert "## Table 3.4 (replicated): fraction correct" in md
    assert "## Table 3.10 (replicated): running times (seconds)" in md
    assert sorted(p.name for p in out.figures.glob("*.png")) == [
        "online_scatter_bagging_nb_vs_online_bagging_nb.png",
        "online_scatter_bagging_stump_vs_online_bagging_stump.png"]
    cells = pd.read_csv(out.replication_csv, dtype={"table": str})
    ran = cells[cells["status"] == "ok"]
    assert set(ran["dataset"]) == {"balance-scale", "breast-w"}
    assert set(ran["table"].astype(str)) == {"3.4", "3.5", "3.9", "3.10"}
    assert "Not comparable" in out.replication_md.read_text()
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
    settings = {"report": {"tables": {"T": ["batch", "online"]}}, "algorithms": ["batch", "online"],
                "settings": {"counterparts": {"batch": ["online"]}}}
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
    records = pd.concat([KIND.run_unit(data, settings, unit, lambda _line: None) for unit in KIND.units(spec)],
                        ignore_index=True)  # fmt: skip
    assert set(records["algorithm"]) == set(spec.algorithms)
    boosted = records[records["algorithm"] == "adaboost_stump"]
    assert (boosted["ensemble_size"] == 100).all()
    out = _report(records, spec, tmp_path)
    md = (out.tables / "online_tables.md").read_text()
    assert "Tables 4.2, 4.3, 4.8, 4.9" in md
    assert "## Table 4.3 (replicated; no published values): fraction correct" in md
    assert "**No published values**" in out.replication_md.read_text()
    assert pd.read_csv(out.replication_csv).empty
    tables = pd.read_csv(out.tables / "online_tables.csv", dtype={"table": str})
    cell = tables[(tables["table"] == "4.3") & (tables["system"] == "online_boosting_stump")]["value"].item()
    online = records[records["algorithm"] == "online_boosting_stump"]["value"].mean() / 100
    assert cell == pytest.approx(online)
