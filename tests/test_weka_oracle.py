"""Sanity checks of the Weka oracle harness itself.

Differential tests are only as trustworthy as the oracle: these pin down that rows are
selected by index, weights and seeds reach Weka, and per-set failures are reported
rather than fatal, using facts about Weka 3.6 that do not depend on our own learners.
"""

from __future__ import annotations

import numpy as np
import pytest

pytestmark = pytest.mark.weka

from uci_mirror import MIRROR  # noqa: E402 - tools/ is on sys.path (conftest)

UCI = MIRROR
IRIS = UCI / "iris.arff"
J48 = "weka.classifiers.trees.J48"


@pytest.fixture(scope="module")
def oracle(weka_oracle):
    """The oracle module, skipping when the UCI mirror is absent too."""
    if not IRIS.is_file():
        pytest.skip(f"UCI mirror not found at {UCI} (set REDECORATE_UCI_DIR)")
    return weka_oracle


def test_j48_on_all_of_iris_matches_the_textbook_tree(oracle):
    rows = list(range(150))
    (res,) = oracle.run_weka(IRIS, "last", [rows], [rows], J48, "-C 0.25 -M 2")
    assert res["error"] is None
    assert res["tree_size"] == 9 and res["num_leaves"] == 5
    assert "petalwidth <= 0.6: Iris-setosa (50.0)" in res["model"]
    assert res["dist"].shape == (150, 3)
    np.testing.assert_allclose(res["dist"].sum(axis=1), 1.0)
    # Resubstitution errors of this tree: 3 of 150.
    truth = np.repeat([0, 1, 2], 50)
    assert int((res["pred"] != truth).sum()) == 3
    assert res["fit_seconds"] >= 0 and res["predict_seconds"] >= 0


def test_rows_are_selected_by_index_and_in_order(oracle):
    # Setosa only: a single leaf, whatever the rest of the file holds.
    setosa, virginica = list(range(50)), [100, 120]
    res = oracle.run_weka(IRIS, "last", [setosa, setosa[::-1]], [virginica, None], J48, "")
    assert [r["n_train"] for r in res] == [50, 50]
    assert res[0]["tree_size"] == 1
    assert res[0]["pred"].tolist() == [0, 0]
    # Weka's distribution has a column for every DECLARED class, even unseen ones.
    assert res[0]["dist"].shape == (2, 3)
    assert res[1]["n_test"] == 0 and res[1]["dist"].shape[0] == 0


def test_weights_reach_weka(oracle):
    rows = list(range(150))
    ones = np.ones(150)
    skewed = np.where(np.arange(150) >= 100, 10.0, 0.5)
    plain, unit, heavy = oracle.run_weka(
        IRIS, "last", [rows] * 3, [rows] * 3, J48, "-C 0.25 -M 2", weights=[None, ones, skewed]
    )
    assert plain["model"] == unit["model"]
    np.testing.assert_array_equal(plain["dist"], unit["dist"])
    assert heavy["model"] != plain["model"]
    assert not np.allclose(heavy["dist"], plain["dist"])


def test_weights_length_mismatch_is_rejected_before_java(oracle):
    with pytest.raises(ValueError, match="weights"):
        oracle.run_weka(IRIS, "last", [[0, 1, 2]], None, J48, "", weights=[[1.0, 2.0]])


def test_decorate_failure_on_five_instances_is_reported_not_fatal(oracle):
    rows = list(range(150))
    small, full = oracle.run_weka(
        IRIS,
        "last",
        [[0, 1, 50, 51, 100], rows],
        [[0], [0, 60]],
        "weka.classifiers.meta.Decorate",
        "-E 15 -I 50 -R 1.0 -W weka.classifiers.trees.J48",
        seed=1,
    )
    assert small["error"] is not None and "Not enough training instances" in small["error"]
    assert full["error"] is None and full["dist"].shape == (2, 3)


def test_seeds_reach_randomized_learners(oracle):
    rows = list(range(0, 150, 2))
    test = list(range(1, 150, 2))
    res = oracle.run_weka(
        IRIS,
        "last",
        [rows] * 3,
        [test] * 3,
        "weka.classifiers.trees.RandomForest",
        ["-I", "15"],
        seed=[1, 1, 2],
        dump_model=False,
    )
    assert all(r["error"] is None and "model" not in r for r in res)
    np.testing.assert_array_equal(res[0]["dist"], res[1]["dist"])
    assert not np.array_equal(res[0]["dist"], res[2]["dist"])


def test_meta_options_with_base_learner_options(oracle):
    rows = list(range(150))
    (res,) = oracle.run_weka(
        IRIS,
        "last",
        [rows],
        [rows],
        "weka.classifiers.meta.AdaBoostM1",
        ["-I", "15", "-W", J48, "--", "-C", "0.25", "-M", "2"],
    )
    assert res["error"] is None
    assert "AdaBoostM1" in res["model"] and res["dist"].shape == (150, 3)


def test_time_mode_reports_medians(oracle):
    rows = list(range(150))
    res = oracle.run_weka(
        IRIS, "last", [rows, rows[:30]], [rows, rows], J48, "", time_reps=3, dump_model=False
    )
    for r in res:
        assert r["reps"] == 3
        assert r["fit_seconds"] > 0 and r["predict_seconds"] > 0


def test_info_describes_the_header(oracle):
    info = oracle.weka_info(IRIS)
    assert info["num_instances"] == 150 and info["class_index"] == 4
    assert info["attributes"][4]["values"] == ["Iris-setosa", "Iris-versicolor", "Iris-virginica"]
    assert info["missing_class_rows"] == []
    wine = UCI / "wine.arff"
    if wine.is_file():
        assert oracle.weka_info(wine, "first")["class_index"] == 0


def test_compile_is_cached(oracle, tmp_path):
    first = oracle.compile_oracle(tmp_path)
    stamp = (first / "WekaOracle.class").stat().st_mtime_ns
    again = oracle.compile_oracle(tmp_path)
    assert again == first and (again / "WekaOracle.class").stat().st_mtime_ns == stamp


def test_weka_frame_keeps_declared_domains_and_missing_values(oracle):
    labor = UCI / "labor.arff"
    if not labor.is_file():
        pytest.skip(f"{labor} not found")
    X, y, info = oracle.weka_frame(labor)
    assert X.shape == (57, 16) and len(y) == 57
    assert list(y.cat.categories) == info["attributes"][-1]["values"] == ["bad", "good"]
    assert X.isna().to_numpy().any()  # labor is full of missing values: NaN, not a category
    nominal = [a for a in info["attributes"][:-1] if a["type"] == "nominal"]
    for attr in nominal:
        assert list(X[attr["name"]].cat.categories) == attr["values"]


def test_load_oracle_data_maps_python_rows_to_file_rows(oracle):
    data = oracle.load_oracle_data(IRIS)
    assert data.class_index == 4 and data.file_rows.tolist() == list(range(150))
    assert data.source in ("load_arff", "weka")
    assert data.class_values == ["Iris-setosa", "Iris-versicolor", "Iris-virginica"]


def test_total_row_sums_counts_and_keeps_the_worst_difference() -> None:
    """The TOTAL row of the differential tests' tables (pure Python, no Weka needed)."""
    from dataclasses import dataclass, field

    from weka_oracle import oracle as harness

    @dataclass
    class Row:
        name: str
        folds: int = 0
        max_prob_diff: float = 0.0
        our_seconds: float = 0.0
        errors: list[str] = field(default_factory=list)

    rows = [Row("a", 10, 1e-15, 0.5, ["x"]), Row("b", 5, 3e-15, 0.25)]
    total = harness.total_row(rows, Row("TOTAL"))
    assert (total.name, total.folds, total.max_prob_diff, total.our_seconds) == ("TOTAL", 15, 3e-15, 0.75)
    assert total.errors == []
