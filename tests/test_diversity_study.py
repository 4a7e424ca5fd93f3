"""§4.4 of the dissertation: the ``member_error`` record metric, the Spearman study
(E4.4a), Table 4.7's diversity win-loss counts (E4.4b) and the learning-curve points given
as numbers of examples (``point_unit: examples``) that Table 4.7 needs."""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats as scipy_stats
from test_protocol import Recorder, iris_like

from redecorate.experiments import ExperimentConfigError, load_experiment
from redecorate.kinds.passive import run_job
from redecorate.protocol import JobError, curve_sizes, run_folds
from redecorate.protocol.curve import example_size
from redecorate.protocol.settings import JobSettings, ReportSettings
from redecorate.report.diversity_study import (
    diversity_correlation,
    diversity_win_loss,
    error_reduction_observations,
)

REPO = Path(__file__).resolve().parents[1]
SCHEMA = REPO / "workflow" / "schemas" / "experiment.schema.yaml"
PUBLISHED = REPO / "config" / "published"



def _report_settings(experiment: str, published: Path, options: dict) -> ReportSettings:
    """The report settings an analysis reads (no records needed of the job part)."""
    return ReportSettings(job=JobSettings(experiment=experiment, folds=10, seed=1), kind="passive",
                          scale="thesis", datasets=(), params={}, published_dir=str(published),
                          report={"analysis_options": options})

def _toy(n: int = 60, seed: int = 0) -> tuple[pd.DataFrame, pd.Series]:
    rng = np.random.default_rng(seed)
    X = pd.DataFrame({"a": rng.normal(size=n), "b": rng.normal(size=n)})
    y = pd.Series(pd.Categorical(np.where(X["a"] + 0.8 * rng.normal(size=n) > 0, "p", "q")))
    return X, y


# ------------------------------------------------------------------ member_error
def test_member_error_is_the_mean_of_the_members_own_errors() -> None:
    from redecorate.learners import J48, Bagging, Decorate, member_proba
    from redecorate.learners.diversity import fitted_member_error

    X, y = _toy()
    X_test, y_test = _toy(seed=1)
    truth = y_test.to_numpy(dtype=object)
    for model in (Bagging(J48(), n_estimators=7, random_state=1),
                  Decorate(n_estimators=5, max_iterations=10, random_state=2)):
        model.fit(X, y)
        Xe = model.feature_schema_.encode(X_test)
        classes = np.asarray(model.classes_, dtype=object)
        errors = [np.mean(classes[np.argmax(member_proba(m, Xe), axis=1)] != truth)
                  for m in model.estimators_]  # fmt: skip
        assert len(errors) > 1 and len(set(errors)) > 1, "members must differ for a real check"
        assert fitted_member_error(model, X_test, truth) == pytest.approx(np.mean(errors))


def test_member_error_of_a_one_member_ensemble_is_its_error() -> None:
    from redecorate.learners import J48, Bagging
    from redecorate.learners.diversity import fitted_member_error

    X, y = _toy()
    X_test, y_test = _toy(seed=1)
    truth = y_test.to_numpy(dtype=object)
    for model in (Bagging(J48(), n_estimators=1, random_state=1), J48()):
        model.fit(X, y)
        error = float(np.mean(np.asarray(model.predict(X_test), dtype=object) != truth))
        assert fitted_member_error(model, X_test, truth) == pytest.approx(error)


def test_run_job_records_member_error_in_percent() -> None:
    X, y = _toy()

    class DS:
        name = "toy"

    DS.X, DS.y = X, y
    common = dict(experiment="e", run=0, n_folds=3, points=[50, 100], seed=1,
                  progress=lambda _: None, metrics=["accuracy", "member_error"])  # fmt: skip
    j48 = run_job(DS(), algorithm="j48", params={}, **common)
    wide = j48.pivot_table(index=["fold", "point"], columns="metric", values="value")
    np.testing.assert_allclose(wide["member_error"], 100.0 - wide["accuracy"])  # one member
    bag = run_job(DS(), algorithm="bagging", params={"n_estimators": 5}, **common)
    assert list(bag["metric"]) == ["accuracy", "member_error"] * 6
    member = bag.loc[bag["metric"] == "member_error", "value"]
    assert ((member >= 0) & (member <= 100)).all()


# ------------------------------------------------------------------ Spearman (E4.4a)
def _study_records(seed: int = 0) -> pd.DataFrame:
    """Hand-made records: j48 and two DECORATE variants on 2 datasets x 3 folds x 2 points."""
    rng = np.random.default_rng(seed)
    rows = []
    for dataset, fold, point in itertools.product(["d1", "d2"], range(3), [10, 100]):
        base = rng.uniform(50, 90)
        rows.append(("j48", dataset, fold, point, "accuracy", base))
        for algorithm in ("decorate_r05", "decorate_r10"):
            rows.append((algorithm, dataset, fold, point, "accuracy", rng.uniform(50, 95)))
            rows.append((algorithm, dataset, fold, point, "diversity", rng.uniform(0, 0.4)))
            rows.append((algorithm, dataset, fold, point, "member_error", rng.uniform(10, 50)))
    frame = pd.DataFrame(rows, columns=["algorithm", "dataset", "fold", "point", "metric", "value"])
    frame["experiment"], frame["run"] = "ch4_diversity", 0
    return frame


def test_spearman_study_matches_scipy(tmp_path: Path) -> None:
    records = _study_records()
    value = records.set_index(["algorithm", "dataset", "fold", "point", "metric"])["value"]
    div, ens_red, base_red = [], [], []
    for algorithm, dataset, fold, point in itertools.product(
        ["decorate_r05", "decorate_r10"], ["d1", "d2"], range(3), [10, 100]
    ):
        key = (algorithm, dataset, fold, point)
        error = 100.0 - value[(*key, "accuracy")]
        div.append(value[(*key, "diversity")])
        ens_red.append(value[(*key, "member_error")] - error)
        base_red.append((100.0 - value[("j48", dataset, fold, point, "accuracy")]) - error)
    published = tmp_path / "published"
    published.mkdir()
    (published / "spearman.tsv").write_text(
        "table\tcomparison\tdataset\tpoint\tsystem\tmetric\tstatistic\tvalue\tnote\n"
        "4.4\tdiversity_vs_ensemble_error_reduction\t\t\t\tdiversity\trho\t0.5\tL721\n"
        "4.4\tdiversity_vs_ensemble_error_reduction\t\t\t\tdiversity\tp_value\t<<1e-50\tL721\n"
        "4.4\tdiversity_vs_base_error_reduction\t\t\t\tdiversity\trho\t0.25\tL721\n"
        "4.4\tdiversity_vs_base_error_reduction\t\t\t\tdiversity\tp_value\t<<1e-50\tL721\n",
        encoding="utf-8",
    )
    settings = _report_settings("ch4_diversity", published,
                                {"diversity_correlation": {"published": "spearman.tsv"}})
    paths = diversity_correlation(records, tmp_path / "tables", tmp_path / "figures", settings)
    assert {p.name for p in paths} == {"diversity_correlation.csv", "diversity_correlation.md"}
    result = pd.read_csv(tmp_path / "tables" / "diversity_correlation.csv").set_index("quantity")
    for quantity, other, published_rho in (("ensemble_error_reduction", ens_red, 0.5),
                                           ("base_error_reduction", base_red, 0.25)):
        expected = scipy_stats.spearmanr(div, other)
        row = result.loc[quantity]
        assert row["n"] == 24
        assert row["rho"] == pytest.approx(expected.statistic, abs=1e-12)
        assert row["p_value"] == pytest.approx(expected.pvalue, rel=1e-9)
        assert row["published_rho"] == published_rho
        assert row["difference"] == pytest.approx(expected.statistic - published_rho)
    text = (tmp_path / "tables" / "diversity_correlation.md").read_text(encoding="utf-8")
    assert "0.5000" in text and "0.2500" in text and "spearman.tsv" in text


def test_spearman_reads_the_published_values_from_config() -> None:
    from redecorate.report.diversity_study import published_spearman

    published = published_spearman(PUBLISHED / "section_4_4_spearman.tsv").set_index("quantity")
    assert published.loc["ensemble_error_reduction", "rho"] == 0.6602
    assert published.loc["base_error_reduction", "rho"] == 0.1607
    assert (published["p_value"] == "<<1e-50").all() and (published["source"] == "L721").all()


def test_observations_pair_each_ensemble_with_j48_on_the_same_split() -> None:
    records = _study_records()
    obs = error_reduction_observations(records)
    assert len(obs) == 2 * 2 * 3 * 2 and set(obs["algorithm"]) == {"decorate_r05", "decorate_r10"}
    row = obs.iloc[0]
    j48 = records[(records["algorithm"] == "j48") & (records["dataset"] == row["dataset"])
                  & (records["fold"] == row["fold"]) & (records["point"] == row["point"])]
    assert row["base_error"] == pytest.approx(100.0 - j48["value"].item())
    with pytest.raises(ValueError, match="member_error"):
        error_reduction_observations(records[records["metric"] != "member_error"])
    with pytest.raises(ValueError, match="base learner 'j48'"):
        error_reduction_observations(records[records["algorithm"] != "j48"])


# ------------------------------------------------------------------ Table 4.7 (E4.4b)
def _diversity_records() -> pd.DataFrame:
    """DECORATE vs Bagging/AdaBoost diversity on 3 datasets x 5 folds at 10 and 20 examples.

    At 10 examples: d_high DECORATE clearly higher (win), d_low clearly lower (loss), d_same
    identical (draw) -> 1-1 with one draw. At 20 examples DECORATE is higher on all three -> 3-0.
    AdaBoost is the same as Bagging but 0.01 lower everywhere, so d_same becomes a constant
    difference at 10 examples: a win (Weka's p = 0 for a constant non-zero difference).
    """
    rng = np.random.default_rng(3)
    rows = []
    for dataset, fold in itertools.product(["d_high", "d_low", "d_same"], range(5)):
        for point in (10, 20):
            other = 0.2 + 0.02 * rng.standard_normal()
            if point == 20 or dataset == "d_high":
                decorate = other + 0.15 + 0.01 * rng.standard_normal()
            elif dataset == "d_low":
                decorate = other - 0.15 + 0.01 * rng.standard_normal()
            else:
                decorate = other
            for algorithm, value in (("decorate", decorate), ("bagging", other),
                                     ("adaboost", other - 0.01)):
                for metric, v in (("accuracy", 80.0), ("diversity", value)):
                    rows.append(("t47", dataset, algorithm, 0, fold, point, point, metric, v, 0.0, 15))
    columns = ["experiment", "dataset", "algorithm", "run", "fold", "point", "n_train", "metric",
               "value", "fit_seconds", "ensemble_size"]  # fmt: skip
    return pd.DataFrame(rows, columns=columns)


def test_win_loss_counts_significant_differences(tmp_path: Path) -> None:
    published = tmp_path / "published"
    published.mkdir()
    (published / "t47.tsv").write_text(
        "table\tcomparison\tdataset\tpoint\tsystem\tmetric\tstatistic\tvalue\tnote\n"
        "4.7\tdecorate_vs_bagging\t\t10\t\tdiversity\tsig_w\t2\t\n"
        "4.7\tdecorate_vs_bagging\t\t10\t\tdiversity\tsig_l\t1\t\n"
        "4.7\tdecorate_vs_bagging\t\t20\t\tdiversity\tsig_w\t3\t\n"
        "4.7\tdecorate_vs_bagging\t\t20\t\tdiversity\tsig_l\t0\t\n"
        "4.7\tdecorate_vs_adaboost\t\t10\t\tdiversity\tsig_w\t3\t\n"
        "4.7\tdecorate_vs_adaboost\t\t10\t\tdiversity\tsig_l\t0\t\n"
        "4.7\tdecorate_vs_adaboost\t\t20\t\tdiversity\tsig_w\t2\t\n"
        "4.7\tdecorate_vs_adaboost\t\t20\t\tdiversity\tsig_l\t1\t\n",
        encoding="utf-8",
    )
    settings = _report_settings("t47", published, {"diversity_win_loss": {"published": "t47.tsv"}})
    paths = diversity_win_loss(_diversity_records(), tmp_path / "tables", tmp_path / "figs", settings)
    assert all(p.is_file() for p in paths)
    cells = pd.read_csv(tmp_path / "tables" / "diversity_win_loss_cells.csv")
    got = {(r.comparison, r.point): (r.sig_w, r.sig_d, r.sig_l) for r in cells.itertuples()}
    assert got == {
        ("decorate_vs_bagging", 10): (1, 1, 1),
        ("decorate_vs_bagging", 20): (3, 0, 0),
        ("decorate_vs_adaboost", 10): (2, 0, 1),
        ("decorate_vs_adaboost", 20): (3, 0, 0),
    }
    # Published W>L holds where the reproduced W-L has the same sign: bagging@10 is 1-1 (no).
    holds = {(r.comparison, r.point): bool(r.holds) for r in cells.itertuples()}
    assert holds == {("decorate_vs_bagging", 10): False, ("decorate_vs_bagging", 20): True,
                     ("decorate_vs_adaboost", 10): True, ("decorate_vs_adaboost", 20): True}
    wide = pd.read_csv(tmp_path / "tables" / "diversity_win_loss.csv", dtype=str)
    assert list(wide.columns) == ["comparison", "source", "10", "20"]
    assert wide.iloc[0].tolist() == ["DECORATE vs Bagging", "reproduced", "1-1", "3-0"]
    assert wide.iloc[1].tolist() == ["DECORATE vs Bagging", "published", "2-1", "3-0"]
    text = (tmp_path / "tables" / "diversity_win_loss.md").read_text(encoding="utf-8")
    assert "3 of 4 published cells' conclusion (W > L) hold" in text
    assert "Bagging at 10: 1" in text  # the draw is reported, not hidden


def test_win_loss_uses_the_project_paired_test() -> None:
    """One dataset's sign equals stats.paired_t_test's on the same folds (no second test)."""
    from redecorate.report.diversity_study import win_loss_cells
    from redecorate.stats import paired_t_test

    records = _diversity_records()
    cells = win_loss_cells(records, "decorate", "bagging")
    row = cells[(cells["dataset"] == "d_high") & (cells["point"] == 10)].iloc[0]
    pick = records[(records["dataset"] == "d_high") & (records["point"] == 10)
                   & (records["metric"] == "diversity")]
    a = pick[pick["algorithm"] == "decorate"].sort_values("fold")["value"]
    b = pick[pick["algorithm"] == "bagging"].sort_values("fold")["value"]
    assert row["p_value"] == pytest.approx(paired_t_test(a, b).p)


def test_published_table_4_7_has_ten_cells_that_sum_to_15() -> None:
    from redecorate.report.diversity_study import published_win_loss

    table = published_win_loss(PUBLISHED / "ch4_diversity_4.7.tsv", "diversity")
    assert len(table) == 10 and set(table["point"]) == {10, 15, 20, 25, 30}
    assert ((table["sig_w"] + table["sig_l"]) == 15).all()


# ------------------------------------------------------------------ points in examples
def test_example_points_are_the_numbers_themselves_and_checked() -> None:
    assert curve_sizes(51, [10, 15, 20, 25, 30], "examples") == [10, 15, 20, 25, 30]
    assert curve_sizes(30, [30.0], "examples") == [30]
    with pytest.raises(ValueError, match="exceeds the training fold of 27 examples"):
        example_size(27, 30)
    for bad in (0, 2.5, -3):
        with pytest.raises(ValueError, match="whole numbers"):
            example_size(50, bad)
    with pytest.raises(ValueError, match="point unit"):
        curve_sizes(50, [10], "fraction")


def test_example_points_train_on_nested_prefixes_of_the_same_order() -> None:
    data = iris_like()
    by_unit = {}
    for unit, points in (("examples", [10, 15, 20, 24]), ("percent", [20])):
        recorder = Recorder()
        for algorithm in ("j48", "bagging"):
            records = run_job(data, experiment="e", algorithm=algorithm, params={}, run=0,
                              n_folds=5, points=points, seed=42, progress=lambda _: None,
                              learner_factory=recorder, point_unit=unit)  # fmt: skip
        by_unit[unit] = recorder.fits
    fits = by_unit["examples"]
    j48 = [rows for algorithm, rows in fits if algorithm == "j48"]
    assert j48 == [rows for algorithm, rows in fits if algorithm == "bagging"]
    assert [len(rows) for rows in j48] == [10, 15, 20, 24] * 5
    folds = run_folds(data, 5, run=0, seed=42)
    for fold, (_, test) in enumerate(folds):
        subsets = j48[4 * fold : 4 * fold + 4]
        assert all(a == b[: len(a)] for a, b in zip(subsets, subsets[1:], strict=False))
        assert not set(subsets[-1]) & set(test.tolist())
        # 20 % of a 120-example fold is 24 examples: the very same prefix.
        assert by_unit["percent"][fold] == ("j48", subsets[-1])
    assert sorted(set(records["point"])) == [20] and records["point"].dtype == np.int64
    again = Recorder()
    run_job(data, experiment="e", algorithm="j48", params={}, run=0, n_folds=5,
            points=[10, 15, 20, 24], seed=42, progress=lambda _: None, learner_factory=again,
            point_unit="examples")  # fmt: skip
    assert again.fits == [("j48", rows) for rows in j48]


def test_example_points_are_recorded_as_numbers_of_examples() -> None:
    records = run_job(iris_like(), experiment="e", algorithm="j48", params={}, run=0,
                      n_folds=3, points=[10, 25], seed=1, progress=lambda _: None,
                      learner_factory=Recorder(), point_unit="examples")  # fmt: skip
    assert (records["point"] == records["n_train"]).all()
    assert sorted(set(records["point"])) == [10, 25]


def test_a_point_beyond_the_training_fold_is_a_clear_error() -> None:
    with pytest.raises(JobError) as info:
        run_job(iris_like(), experiment="e", algorithm="j48", params={}, run=0, n_folds=3,
                points=[10, 101], seed=1, progress=lambda _: None, learner_factory=Recorder(),
                point_unit="examples")  # fmt: skip
    text = str(info.value)
    assert "dataset='iris'" in text and "fold=0" in text
    assert "point 101 examples exceeds the training fold of 100 examples" in text


# ------------------------------------------------------------------ experiment files
_BASE = "name: t\nseed: 1\ndatasets: [iris]\nruns: 1\nfolds: 2\nalgorithms:\n  j48: {}\n"


def _experiment(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "exp.yaml"
    path.write_text(_BASE + text, encoding="utf-8")
    return path


def test_point_unit_reaches_the_protocol(tmp_path: Path) -> None:
    spec = load_experiment(_experiment(tmp_path, "point_unit: examples\npoints: [10, 150]\n"),
                           schema=SCHEMA)  # fmt: skip
    assert spec.settings.point_unit == "examples" and spec.protocol.points == (10, 150)
    plain = load_experiment(_experiment(tmp_path, "points: [10]\n"), schema=SCHEMA)
    assert plain.settings.point_unit == "percent"  # the default, filled when the file is read


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("point_unit: exmples\npoints: [10]\n", "point_unit"),
        ("points: [150]\n", "points[0]"),
        ("point_unit: examples\npoints: [10.5]\n", "points[0]"),
        ("point_unit: examples\npoints: [10]\nprofiles:\n  smoke: {points: [2.5]}\n",
         "profiles.smoke.points[0]"),
        ("points: [10]\nprofiles:\n  smoke: {point_unit: examples}\n", "profiles.smoke"),
        ("kind: noise\ncorruption: class\nlevels: [0]\npoint_unit: examples\n", "point_unit"),
    ],
)
def test_point_unit_errors_name_file_and_key(tmp_path: Path, text: str, key: str) -> None:
    path = _experiment(tmp_path, text)
    with pytest.raises(ExperimentConfigError) as info:
        load_experiment(path, schema=SCHEMA)
    assert str(path) in str(info.value) and key in str(info.value), str(info.value)


def test_unknown_analysis_name_is_a_config_error(tmp_path: Path) -> None:
    path = _experiment(tmp_path, "points: [10]\nreport: {analyses: [diversity_corelation]}\n")
    with pytest.raises(ExperimentConfigError) as info:
        load_experiment(path, schema=SCHEMA)
    text = str(info.value)
    assert str(path) in text and "report.analyses" in text and "'diversity_corelation'" in text
    assert "diversity_correlation" in text  # the known names are listed


def test_the_two_analyses_are_registered() -> None:
    from redecorate.report import diversity_study
    from redecorate.report.analyses import resolve

    assert resolve("diversity_correlation") is diversity_study.diversity_correlation
    assert resolve("diversity_win_loss") is diversity_study.diversity_win_loss


@pytest.mark.parametrize("scale", ["thesis", "quick", "smoke"])
def test_section_4_4_experiment_files_load(scale: str) -> None:
    from redecorate.data import load_registry
    from redecorate.experiments import check_learner_params

    registry = load_registry(REPO / "config" / "datasets.yaml")
    names = registry.names() if callable(getattr(registry, "names", None)) else list(registry)
    table = load_experiment(REPO / "config" / "experiments" / "ch4_diversity_table.yaml",
                            schema=SCHEMA, scale=scale, known_datasets=names)  # fmt: skip
    check_learner_params(table)
    assert table.settings.point_unit == "examples" and table.settings.metrics == ("accuracy", "diversity")
    assert table.report["analyses"] == ["diversity_win_loss"]
    correlation = load_experiment(REPO / "config" / "experiments" / "ch4_diversity.yaml",
                                  schema=SCHEMA, scale=scale, known_datasets=names)  # fmt: skip
    assert "member_error" in correlation.settings.metrics
    assert correlation.report["analyses"] == ["diversity_correlation"]
    if scale == "thesis":
        assert table.protocol.points == (10, 15, 20, 25, 30) and table.protocol.folds == 10
        assert len(table.datasets) == 15 and table.protocol.runs == 1
