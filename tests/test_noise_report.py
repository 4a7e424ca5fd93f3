"""Tests of the Chapter 5 published tables, experiment files and report rendering.

The transcription checks are the spec's Part 7 consistency checks, applied to
``config/published/ch5_*.tsv``: the printed GM error ratios follow from the printed
accuracies, the recovered bold reproduces the printed Sig. W/D/L where it survived, and the
0 % columns of the three corruption kinds are one experiment.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from redecorate.experiments import ExperimentConfigError, load_experiment
from redecorate.report.noise import (
    THESIS_CH5_DATASETS,
    load_published,
    noise_comparison_tables,
    render_replication,
    replication_frame,
    write_noise_tables,
)
from redecorate.stats import error_from_accuracy, geometric_mean_error_ratio

REPO = Path(__file__).resolve().parents[1]
PUBLISHED = [
    REPO / "config" / "published" / "ch5_tables_5.2-5.10.tsv",
    REPO / "config" / "published" / "ch5_summary_5.2-5.10.tsv",
]
SCHEMA = REPO / "workflow" / "schemas" / "experiment.schema.yaml"
TABLES = ["5.2", "5.3", "5.4", "5.5", "5.6", "5.7", "5.8", "5.9", "5.10"]


@pytest.fixture(scope="module")
def published() -> tuple[pd.DataFrame, pd.DataFrame]:
    return load_published(PUBLISHED)


def test_every_table_is_complete(published) -> None:
    cells, summary = published
    assert sorted(cells["table"].unique(), key=float) == sorted(TABLES, key=float)
    for table in TABLES:
        rows = cells[cells["table"] == table]
        assert set(rows["dataset"]) == set(THESIS_CH5_DATASETS)
        assert sorted(rows["noise"].unique()) == list(range(0, 45, 5))
        assert len(rows) == 11 * 9
        assert len(summary[summary["table"] == table]) == 9


def test_gm_error_ratios_follow_from_the_accuracies(published) -> None:
    cells, summary = published
    for (table, noise), rows in cells.groupby(["table", "noise"]):
        gm = geometric_mean_error_ratio(
            error_from_accuracy(rows["a"]), error_from_accuracy(rows["b"])
        )
        printed = summary[(summary["table"] == table) & (summary["noise"] == noise)]["gm_ratio"]
        assert gm == pytest.approx(float(printed.iloc[0]), abs=2.5e-4), (table, noise)


@pytest.mark.parametrize("table", ["5.2", "5.4", "5.5", "5.6", "5.7", "5.9", "5.10"])
def test_recovered_bold_reproduces_sig_wdl(published, table: str) -> None:
    cells, summary = published
    for noise, rows in cells[cells["table"] == table].groupby("noise"):
        wins, losses = int(rows["bold_a"].sum()), int(rows["bold_b"].sum())
        printed = summary[(summary["table"] == table) & (summary["noise"] == noise)].iloc[0]
        assert (wins, 11 - wins - losses, losses) == (
            printed["sig_w"],
            printed["sig_d"],
            printed["sig_l"],
        )


def test_lost_bold_is_empty_not_false(published) -> None:
    cells, _ = published
    t53 = cells[cells["table"] == "5.3"]
    assert t53["bold_a"].isna().all() and t53["bold_b"].notna().all()
    t58 = cells[cells["table"] == "5.8"]
    assert t58.loc[t58["noise"] > 0, ["bold_a", "bold_b"]].isna().all().all()
    zero = t58[t58["noise"] == 0]
    assert int(zero["bold_a"].sum()) == 8, "0 % significance copied from Table 5.2 (8/3/0)"


def test_zero_percent_columns_are_one_experiment(published) -> None:
    cells, _ = published
    zero = cells[cells["noise"] == 0].set_index("dataset")

    def column(table: str, side: str) -> pd.Series:
        return zero[zero["table"] == table][side].sort_index()

    for tables, side in ((["5.2", "5.5", "5.8"], "a"), (["5.6", "5.9"], "a"), (["5.7", "5.10"], "a"),
                         (["5.2", "5.5", "5.6", "5.7", "5.8", "5.9", "5.10"], "b")):  # fmt: skip
        first = column(tables[0], side)
        for other in tables[1:]:
            pd.testing.assert_series_equal(first, column(other, side), check_names=False)


def test_table_5_3_typo_is_mapped_to_the_registry_key(published) -> None:
    cells, _ = published
    row = cells[(cells["table"] == "5.3") & (cells["note"] == "printed row label berast-w")]
    assert set(row["dataset"]) == {"breast-w"} and len(row) == 9
    assert (cells.loc[cells["table"] != "5.3", "note"] == "").all()


# --------------------------------------------------------------------------- experiment files


@pytest.mark.parametrize(
    ("name", "corruption", "tables"),
    [("ch5_missing", "missing", ["5.2", "5.3", "5.4"]),
     ("ch5_class_noise", "class", ["5.5", "5.6", "5.7"]),
     ("ch5_feature_noise", "feature", ["5.8", "5.9", "5.10"])],
)  # fmt: skip
def test_ch5_experiment_files_are_the_thesis_protocol(name: str, corruption: str, tables) -> None:
    spec = load_experiment(REPO / "config" / "experiments" / f"{name}.yaml", schema=SCHEMA)
    assert spec.kind == "noise" and spec.settings.corruption == corruption
    assert spec.datasets == THESIS_CH5_DATASETS
    assert list(spec.algorithms) == ["j48", "bagging", "adaboost", "decorate"]
    assert spec.algorithms["decorate"] == {
        "n_estimators": 15,
        "max_iterations": 50,
        "artificial_size": 1.0,
    }
    assert (spec.protocol.runs, spec.protocol.folds) == (10, 10)
    assert spec.protocol.points == tuple(range(0, 45, 5))
    assert [c["table"] for c in spec.report["comparisons"]] == tables
    ch4 = load_experiment(REPO / "config" / "experiments" / "ch4_passive.yaml", schema=SCHEMA)
    assert spec.protocol.seed == ch4.protocol.seed, "same folds as chapter 4, shared 0 % level"
    smoke = load_experiment(
        REPO / "config" / "experiments" / f"{name}.yaml", schema=SCHEMA, scale="smoke"
    )
    assert smoke.datasets == ("iris", "labor") and smoke.protocol.points == (0, 20, 40)
    assert (smoke.protocol.runs, smoke.protocol.folds) == (1, 3)


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "exp.yaml"
    path.write_text(text, encoding="utf-8")
    return path


BASE = "name: x\nseed: 1\ndatasets: [iris]\nalgorithms: {j48: {}}\nruns: 1\nfolds: 2\n"


@pytest.mark.parametrize(
    "extra",
    [
        "kind: noise\ncorruption: missing\n",  # no levels
        "kind: noise\nlevels: [0, 10]\n",  # no corruption
        "kind: noise\ncorruption: gaussian\nlevels: [0]\n",  # unknown corruption
        "kind: noise\ncorruption: class\nlevels: [0]\npoints: [100]\n",  # curve points too
        "points: [100]\nlevels: [0, 10]\n",  # levels in a passive experiment
        "kind: noise\ncorruption: class\nlevels: [-5]\n",  # not a percentage
        "kind: noise\ncorruption: class\nlevels: [0]\nprofiles: {q: {points: [5]}}\n",
        "points: [100]\nprofiles: {q: {levels: [5]}}\n",
    ],
)
def test_schema_rejects_inconsistent_noise_files(tmp_path: Path, extra: str) -> None:
    with pytest.raises(ExperimentConfigError):
        load_experiment(_write(tmp_path, BASE + extra), schema=SCHEMA)


def test_report_comparisons_must_name_algorithms(tmp_path: Path) -> None:
    text = (
        BASE
        + "kind: noise\ncorruption: class\nlevels: [0]\nreport:\n  comparisons: [{a: j48, b: rf}]\n"
    )
    with pytest.raises(ExperimentConfigError, match="report.comparisons"):
        load_experiment(_write(tmp_path, text), schema=SCHEMA)


# --------------------------------------------------------------------------- rendering


def synthetic_records(accuracy: dict[str, float]) -> pd.DataFrame:
    """Noise records for iris at 0 and 20 %, 2 runs × 3 folds, with a little spread."""
    rows = []
    for algorithm, base in accuracy.items():
        for level in (0, 20):
            for run in range(2):
                for fold in range(3):
                    value = base - level / 10 + (run + fold) * 0.1
                    value += 0.3 * ((run + fold) % 2) if algorithm == "decorate" else 0.0
                    rows.append(
                        ("e", "iris", algorithm, run, fold, level, 100, "accuracy", value, 0.1, 1)
                    )
    columns = ["experiment", "dataset", "algorithm", "run", "fold", "point", "n_train", "metric",
               "value", "fit_seconds", "ensemble_size"]  # fmt: skip
    return pd.DataFrame(rows, columns=columns)


def test_tables_and_replication_against_published(tmp_path: Path, published) -> None:
    cells, summary = published
    records = synthetic_records({"decorate": 95.0, "j48": 90.0})
    tables = noise_comparison_tables(
        records, [{"a": "decorate", "b": "j48", "table": "5.2"}], corruption="missing",
        datasets=["iris", "labor"], levels=[0, 20], experiment="e",
    )  # fmt: skip
    assert tables[0].title == "Table 5.2 (replicated): Missing Features: DECORATE vs J48"
    written = {p.name for p in write_noise_tables(tables, tmp_path)}
    assert {"decorate_vs_j48.md", "decorate_vs_j48.tex", "decorate_vs_j48.csv",
            "decorate_vs_j48_cells.csv", "comparison_summary.csv"} <= written  # fmt: skip
    md = (tmp_path / "decorate_vs_j48.md").read_text()
    assert "Missing Features" in md and "| labor | –/– | –/– |" in md
    iris_row = next(line for line in md.splitlines() if line.startswith("| iris"))
    assert iris_row.count("**") == 4 and "| **95." in iris_row, "significantly better: bold"
    replication = replication_frame(tables, cells)
    iris0 = replication[(replication["dataset"] == "iris") & (replication["noise"] == 0)].iloc[0]
    assert iris0["a_published"] == 94.93 and iris0["b_published"] == 94.73
    assert iris0["a_difference"] == pytest.approx(iris0["a_reproduced"] - 94.93)
    assert iris0["sig_published"] == 0 and iris0["sig_reproduced"] == 1 and not iris0["sig_agrees"]
    text = render_replication(tables, replication, summary, experiment="e", scale="smoke")
    assert "GM error ratio, published | 0.8286 | 0.7921 |" in text
    assert "Sig. W/D/L, published | 8/3/0 | 11/0/0 |" in text


def test_n_test_is_not_inferred_from_noise_levels() -> None:
    from redecorate.report.noise import n_test_from_records

    records = synthetic_records({"decorate": 95.0, "j48": 90.0})
    assert n_test_from_records(records) == {"iris": 50.0}  # 100 training rows, 3 folds
    assert np.isfinite(
        noise_comparison_tables(records, [{"a": "decorate", "b": "j48"}], corruption="class")[
            0
        ].cells["p_corrected"]
    ).all()


def test_conclusions_count_held_levels_and_the_median_difference() -> None:
    """Hand-made table: level 0 agrees on both, level 20 on the GM side only, 40 unpublished."""
    from types import SimpleNamespace

    from redecorate.report.noise import _conclusion_line, noise_conclusions

    summary = pd.DataFrame(
        {"point": [0.0, 20.0, 40.0], "sig_wins": [3, 1, 5], "sig_draws": [7, 8, 6],
         "sig_losses": [1, 2, 0], "gm_error_ratio": [0.9, 0.95, 0.8]}
    )  # fmt: skip
    table = SimpleNamespace(summary=summary, points=[0.0, 20.0, 40.0], name="decorate_vs_j48",
                            table_number="5.2")  # fmt: skip
    published = pd.DataFrame(
        {"table": ["5.2", "5.2"], "noise": [0, 20], "sig_w": [4, 3], "sig_d": [7, 7],
         "sig_l": [0, 1], "gm_ratio": [0.85, 0.97]}
    )  # fmt: skip
    rep = pd.DataFrame({"comparison": ["decorate_vs_j48"] * 3, "noise": [0.0, 20.0, 40.0],
                        "a_difference": [1.0, -3.0, None], "b_difference": [-0.5, 2.0, 4.0],
                        "sig_agrees": [1.0, 0.0, None], "sig_published": [1.0, 0.0, None],
                        "a_reproduced": [80.0, 70.0, 60.0], "b_reproduced": [78.0, 72.0, 61.0],
                        "a_published": [79.0, 73.0, None], "b_published": [78.5, 70.0, None]})  # fmt: skip
    conclusions = noise_conclusions([table], rep, published)
    assert conclusions["sig_holds"].tolist()[:2] == [True, False]
    assert conclusions["gm_holds"].tolist()[:2] == [True, True]
    assert conclusions["holds"].tolist()[:2] == [True, False]
    assert conclusions["holds"].isna().tolist() == [False, False, True]  # 40 %: not published
    assert conclusions["reproduced_sig_wdl"].tolist()[0] == "3/7/1"
    assert conclusions["sig_agreement"].tolist()[:2] == [1.0, 0.0]
    # The trivial prediction "A always wins" holds at both published levels (W > L, GM < 1).
    assert conclusions["trivial_holds"].tolist()[:2] == [True, True]
    assert conclusions["trivial_sig_agreement"].tolist()[:2] == [1.0, 0.0]
    # Winner per cell: level 0 agrees (+2 vs +0.5), level 20 does not (-2 vs +3).
    assert conclusions["winner_agreement"].tolist()[:2] == [1.0, 0.0]
    assert conclusions["trivial_winner_agreement"].tolist()[:2] == [1.0, 1.0]
    # A level the run did not reach (its summary row all NA, as a smoke run's subset of the
    # thesis levels leaves) is reported as not reproduced, not as an error.
    reached = summary.astype({"sig_wins": "Int64", "sig_draws": "Int64", "sig_losses": "Int64"})
    reached.loc[1, ["sig_wins", "sig_draws", "sig_losses", "gm_error_ratio"]] = pd.NA
    partial = noise_conclusions([SimpleNamespace(**{**vars(table), "summary": reached})], rep, published)
    assert partial["reproduced_sig_wdl"].tolist() == ["3/7/1", "", "5/6/0"]
    assert partial["holds"].isna().tolist() == [False, True, True]
    line = _conclusion_line(conclusions, rep)
    assert '1 of 2 levels\' conclusions (both) hold (the trivial prediction "A always wins" would hold in 2 of 2)' in line
    assert "winner agrees with the thesis in 0.50 of 2 (dataset, level) cells (\"A always wins\": 1.00)" in line
    assert "Sig. W/D/L sign 1 of 2 levels" in line
    assert "GM-ratio side 2 of 2" in line
    assert "2.00 points (5 cells)" in line  # median of |1, 3, 0.5, 2, 4|
