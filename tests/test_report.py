"""Tables, figures and the replication report, plus the thesis's own consistency checks."""

from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from shipped_experiments import shipped_experiment_files

from redecorate.report import (
    check_conclusions,
    compare_cells,
    comparison_table,
    difference_summary,
    learning_curves,
    load_published,
    render_latex,
    render_markdown,
    scatter_plot,
    summary_replication,
    table_frame,
    write_comparison_tables,
    write_figures,
)
from redecorate.report.published import read_published, table_numbers
from redecorate.report.replication_report import (
    ReplicationPaths,
    ReplicationReport,
    write_replication_report,
)
from redecorate.stats import (
    RECORD_COLUMNS,
    error_from_accuracy,
    geometric_mean_error_ratio,
    strict_win_draw_loss,
    summarise,
    win_draw_loss,
)

PUBLISHED = Path(__file__).resolve().parents[1] / "config" / "published"



def _write(report: ReplicationReport, out: Path) -> list[Path]:
    """The three replication files of ``report`` in ``out``: cells, conclusions, Markdown."""
    paths = [out / "replication.csv", out / "replication_conclusions.csv", out / "replication.md"]
    write_replication_report(report, ReplicationPaths(paths[2], paths[0], paths[1]), experiment="test")
    return paths

def test_table_numbers_come_from_the_published_rows() -> None:
    numbers = table_numbers(read_published(sorted(PUBLISHED.glob("ch4_summary_*.tsv"))))
    assert numbers[("decorate", "j48")] == "4.2" and numbers[("decorate", "rf")] == "4.4"
    assert numbers[("decorate_unlabeled", "decorate_sampled")] == "4.9"
    assert numbers[("decorate_norej", "adaboost")] == "4.16"
    assert len(numbers) == 13


@pytest.fixture(scope="module")
def published() -> tuple[pd.DataFrame, pd.DataFrame]:
    return load_published(PUBLISHED)


def synthetic_records(seed: int = 0) -> pd.DataFrame:
    """2 runs × 5 folds; decorate clearly beats j48 on iris, ties it exactly on labor."""
    rng = np.random.default_rng(seed)
    rows = []
    for dataset in ("iris", "labor", "glass"):
        for point in (1.0, 20.0, 100.0):
            noise = rng.normal(0, 1.0, 10)
            base = 60 + point / 5 + rng.normal(0, 3, 10)
            values = {
                "j48": base,
                "decorate": base + (5 + noise if dataset == "iris" else 0.0),
                "bagging": base + rng.normal(0.5, 2.0, 10),
            }
            for algorithm, vals in values.items():
                for i, v in enumerate(vals):
                    rows.append(
                        {
                            "experiment": "synthetic",
                            "dataset": dataset,
                            "algorithm": algorithm,
                            "run": i // 5,
                            "fold": i % 5,
                            "point": point,
                            "n_train": max(1, round(point * 1.2)),
                            "metric": "accuracy",
                            "value": float(v),
                            "fit_seconds": 0.01,
                            "ensemble_size": 15,
                        }
                    )
    return pd.DataFrame(rows, columns=list(RECORD_COLUMNS))


# --- the thesis's own consistency (spec Part 7, checks 1 and 3) ----------------------


def test_published_summary_transcription(published) -> None:
    cells, summary = published
    assert len(cells) == 15 * 10 * 5
    assert list(summary["table"].unique()) == ["4.2", "4.3", "4.4", "4.5"]
    # captions: 4.4 is Random Forests, 4.5 is AdaBoost
    by_table = summary.groupby("table")["other"].first().to_dict()
    assert by_table == {"4.2": "j48", "4.3": "bagging", "4.4": "rf", "4.5": "adaboost"}
    assert (summary["wdl_w"] + summary["wdl_d"] + summary["wdl_l"] == 15).all()
    assert (summary["sig_w"] + summary["sig_d"] + summary["sig_l"] == 15).all()
    assert (summary["wdl_d"] == 0).all()


def test_raw_wdl_and_gm_recomputed_from_published_accuracies(published) -> None:
    cells, summary = published
    wide = cells.pivot_table(index=["dataset", "point"], columns="algorithm", values="published")
    for _, row in summary.iterrows():
        at = wide.xs(row["point"], level="point")
        a, b = at["decorate"].to_numpy(), at[row["other"]].to_numpy()
        assert tuple(win_draw_loss(a, b)) == (row["wdl_w"], row["wdl_d"], row["wdl_l"]), row
        gm = geometric_mean_error_ratio(error_from_accuracy(a), error_from_accuracy(b))
        if (row["table"], row["point"]) == ("4.5", 100.0):
            # the one known misprint (spec M4): 1.0972 recomputed vs 1.0964 printed
            assert round(gm, 4) == pytest.approx(1.0972)
        else:
            assert abs(round(gm, 4) - row["gm_ratio"]) <= 0.0002 + 1e-9, row


def test_tie_rule_is_needed_to_reproduce_the_thesis(published) -> None:
    # spec M2: strict recounts 4.2@1 % 8/7/0, 4.3@1 % 11/4/0, 4.5@1 % 7/7/1, 4.5@2 % 10/1/4
    cells, _ = published
    wide = cells.pivot_table(index=["dataset", "point"], columns="algorithm", values="published")
    expected = {
        ("j48", 1.0): (8, 7, 0),
        ("bagging", 1.0): (11, 4, 0),
        ("adaboost", 1.0): (7, 7, 1),
        ("adaboost", 2.0): (10, 1, 4),
    }
    for (other, point), wdl in expected.items():
        at = wide.xs(point, level="point")
        assert tuple(strict_win_draw_loss(at["decorate"], at[other])) == wdl


# --- tables --------------------------------------------------------------------------


def test_markdown_table_bold_and_summary_rows() -> None:
    recs = synthetic_records()
    numbers = table_numbers(read_published([PUBLISHED / "ch4_summary_4.2-4.5.tsv"]))
    table = comparison_table(recs, "decorate", "j48", datasets=["iris", "labor", "glass", "splice"],
                             table_number=numbers[("decorate", "j48")])  # fmt: skip
    md = render_markdown(table)
    assert md.startswith("### Table 4.2 (replicated): DECORATE vs J48")
    lines = {line.split(" | ")[0].strip("| "): line for line in md.splitlines() if "|" in line}
    header = lines["Dataset"]
    assert "| 1% | 20% | 100% |" in header
    iris = table.cells[table.cells["dataset"] == "iris"]
    assert (iris["sig"] == 1).all()
    for _, cell in iris.iterrows():
        assert f"**{cell['mean_a']:.2f}**/{cell['mean_b']:.2f}" in lines["iris"]
    labor = table.cells[table.cells["dataset"] == "labor"]
    assert (labor["p_value"] == 1.0).all() and "**" not in lines["labor"]
    assert lines["splice"].count("–/–") == 3  # not run, still listed
    # labor ties count as wins for DECORATE (thesis rule), as draws in the strict row
    assert "| Win/Draw/Loss | 3/0/0 | 3/0/0 | 3/0/0 |" in md
    assert "| W/D/L, ties as draws (not in thesis) | " in md
    assert "| Sig. W/D/L, corrected resampled t-test (not in thesis) |" in md
    assert "| Datasets compared | 3 of 4 |" in md
    gm = [f"{v:.4f}" for v in table.summary["gm_error_ratio"]]
    assert f"| GM error ratio | {gm[0]} | {gm[1]} | {gm[2]} |" in md
    sig = "/".join(str(table.summary.loc[0, c]) for c in ("sig_wins", "sig_draws", "sig_losses"))
    assert f"| Sig. W/D/L | {sig} |" in md


def test_latex_and_csv_renderings() -> None:
    recs = synthetic_records()
    table = comparison_table(recs, "decorate", "j48")
    tex = render_latex(table)
    assert r"\begin{tabular}{lrrr}" in tex and r"\end{tabular}" in tex
    assert r"\textbf{" in tex and r"1\%" in tex and "**" not in tex
    # No published table given: the same comparison in a user's own experiment is not Table 4.2.
    assert r"\caption{DECORATE vs J48}" in tex
    frame = table_frame(table)
    assert list(frame["dataset"][:3]) == ["glass", "iris", "labor"]  # thesis order
    assert frame.loc[frame["dataset"] == "iris", "1%_bold_decorate"].item()
    assert not frame.loc[frame["dataset"] == "labor", "1%_bold_j48"].item()
    assert frame.loc[frame["dataset"] == "Win/Draw/Loss", "1%"].item() == "3/0/0"
    assert pd.isna(frame.loc[frame["dataset"] == "Win/Draw/Loss", "1%_bold_decorate"].item())


def test_write_comparison_tables(tmp_path: Path) -> None:
    recs = synthetic_records()
    written = write_comparison_tables(recs, tmp_path, "decorate", ["j48", "bagging", "rf"])
    names = {p.name for p in written}
    for other in ("j48", "bagging", "rf"):
        for ext in ("md", "tex", "csv"):
            assert f"decorate_vs_{other}.{ext}" in names
        assert f"decorate_vs_{other}_cells.csv" in names
    summary = pd.read_csv(tmp_path / "comparison_summary.csv")
    assert set(summary["comparison"]) == {
        "decorate_vs_j48",
        "decorate_vs_bagging",
        "decorate_vs_rf",
    }
    assert (summary.loc[summary["other"] == "rf", "n_datasets"] == 0).all()  # visibly not run
    assert "–/–" not in (tmp_path / "decorate_vs_rf.md").read_text()
    assert "/–" in (tmp_path / "decorate_vs_rf.md").read_text()


# --- figures -------------------------------------------------------------------------


def _digest(paths: list[Path]) -> list[str]:
    return [hashlib.sha256(p.read_bytes()).hexdigest() for p in paths]


def test_figures_are_written_and_byte_identical(tmp_path: Path) -> None:
    recs = synthetic_records()
    first = [
        *scatter_plot(recs, tmp_path / "a" / "scatter", others=["j48", "bagging"], point=1.0),
        *learning_curves(recs, tmp_path / "a" / "curve", dataset="iris", x="n_train"),
    ]
    second = [
        *scatter_plot(recs, tmp_path / "b" / "scatter", others=["j48", "bagging"], point=1.0),
        *learning_curves(recs, tmp_path / "b" / "curve", dataset="iris", x="n_train"),
    ]
    assert [p.name for p in first] == ["scatter.png", "scatter.pdf", "curve.png", "curve.pdf"]
    for path in first:
        assert path.stat().st_size > 1000
    assert first[0].read_bytes().startswith(b"\x89PNG")
    assert first[1].read_bytes().startswith(b"%PDF")
    assert _digest(first) == _digest(second)


def test_figures_label_datasets_and_keep_the_legend_off_the_data(tmp_path: Path, monkeypatch) -> None:
    import redecorate.report.figures as figures

    drawn = []
    monkeypatch.setattr(figures, "save_figure", lambda fig, path, formats: drawn.append(fig) or [])
    recs = synthetic_records()
    scatter_plot(recs, tmp_path / "scatter", others=["j48"], point=1.0)
    learning_curves(recs, tmp_path / "curve", dataset="iris")
    scatter, curve = drawn
    (ax,) = scatter.axes
    plotted = recs[recs["algorithm"].isin(["decorate", "j48"]) & (recs["point"] == 1.0)]
    both = set(plotted[plotted.algorithm == "decorate"].dataset) & set(plotted[plotted.algorithm == "j48"].dataset)
    assert sorted(t.get_text() for t in ax.texts) == sorted(both)  # one label per dot
    for fig in (scatter, curve):
        assert fig.axes[0].get_legend() is None and len(fig.legends) == 1  # below, not inside


def test_write_figures(tmp_path: Path) -> None:
    recs = synthetic_records()
    written = write_figures(
        recs, tmp_path, "decorate", ["j48"], scatter_points=[1.0], formats=("png",)
    )
    names = sorted(p.name for p in written)
    assert names == [
        "learning_curve_glass.png",
        "learning_curve_iris.png",
        "learning_curve_labor.png",
        "scatter_decorate_vs_j48_1pct.png",
    ]


# --- replication ---------------------------------------------------------------------


def test_replication_cells_not_run_and_median(published) -> None:
    pub_cells, _ = published
    pub = pub_cells.set_index(["dataset", "algorithm", "point"])["published"]
    offsets = {("iris", "decorate", 1.0): 1.0, ("iris", "decorate", 2.0): -2.0,
               ("iris", "decorate", 5.0): 3.0, ("iris", "j48", 1.0): -0.5}  # fmt: skip
    summary = pd.DataFrame(
        [
            {
                "dataset": d,
                "algorithm": a,
                "point": p,
                "metric": "accuracy",
                "mean": pub[(d, a, p)] + o,
            }
            for (d, a, p), o in offsets.items()
        ]
        + [
            {
                "dataset": "sk-wine",
                "algorithm": "j48",
                "point": 1.0,
                "metric": "accuracy",
                "mean": 90.0,
            }
        ]
    )
    cells = compare_cells(summary, pub_cells)
    ok = cells[cells["status"] == "ok"]
    assert len(ok) == 4
    assert (cells["status"] == "not run").sum() == 750 - 4
    assert (cells["status"] == "not published").sum() == 1  # kept, not dropped
    iris_dec = ok[ok["algorithm"] == "decorate"].set_index("point")["difference"]
    assert iris_dec.to_dict() == pytest.approx({1.0: 1.0, 2.0: -2.0, 5.0: 3.0})
    diffs = difference_summary(cells).set_index("algorithm")
    assert diffs.loc["decorate", "median_abs_difference"] == pytest.approx(2.0)
    assert diffs.loc["decorate", "mean_abs_difference"] == pytest.approx(2.0)
    assert diffs.loc["decorate", "mean_difference"] == pytest.approx(2.0 / 3)
    assert diffs.loc["decorate", "n_not_run"] == 147
    assert diffs.loc["all", "median_abs_difference"] == pytest.approx(1.5)  # |1, 2, 3, 0.5|
    assert diffs.loc["all", "n_published"] == 750
    assert np.isnan(diffs.loc["rf", "median_abs_difference"])


def test_replication_conclusions_and_files(tmp_path: Path, published) -> None:
    recs = synthetic_records()
    summary = summarise(recs)
    pub_cells, pub_summary = published
    conclusions = check_conclusions(summary, pub_cells, pub_summary, records=recs)
    assert len(conclusions) == 40
    j48_1 = conclusions[(conclusions["other"] == "j48") & (conclusions["point"] == 1.0)].iloc[0]
    assert j48_1["status"] == "ok" and j48_1["n_datasets"] == 3
    # iris significantly better, labor tied, glass tied: 1/2/0 vs published 7/8/0
    assert j48_1["reproduced_sig_wdl"] == "1/2/0" and bool(j48_1["sig_holds"])
    assert j48_1["reproduced_gm"] < 1 and bool(j48_1["gm_holds"]) and bool(j48_1["holds"])
    assert (conclusions.loc[conclusions["other"] == "rf", "status"] == "not run").all()
    assert (conclusions.loc[conclusions["point"] == 2.0, "status"] == "not run").all()
    without = check_conclusions(summary, pub_cells, pub_summary)
    assert (without.loc[without["n_datasets"] > 0, "status"] == "no records").all()
    assert without["holds"].isna().all()

    paths = _write(summary_replication(summary, PUBLISHED, records=recs), tmp_path)
    assert [p.name for p in paths] == [
        "replication.csv",
        "replication_conclusions.csv",
        "replication.md",
    ]
    md = paths[2].read_text()
    assert md.index("## Accuracy differences") < md.index("## Do the conclusions hold?")
    assert md.index("## Do the conclusions hold?") < md.index("## Cell by cell")
    # Not-run cells collapse: one line for an algorithm none of whose cells ran, and none in
    # the cell-by-cell table or among the conclusions (their counts are given).
    assert "| Random Forests | all 15 datasets | all points |" in md
    assert "| Random Forests | splice |" not in md
    assert "| not run |" not in md.split("## Cell by cell")[1]
    assert "The 723 published cells not run are listed above." in md
    assert "not run |" not in md.split("## Do the conclusions hold?")[1].split("##")[0]
    written = pd.read_csv(paths[0])
    assert {"dataset", "algorithm", "point", "published", "reproduced", "difference"} <= set(
        written.columns
    )
    assert (written["status"] == "not run").sum() == 750 - 27


def test_replication_accepts_a_list_of_summary_only_files(tmp_path: Path) -> None:
    recs = synthetic_records().replace({"algorithm": {"decorate": "decorate_norej"}})
    paths = _write(summary_replication(summarise(recs), [PUBLISHED / "ch4_summary_4.8-4.16.tsv"],
                                      records=recs), tmp_path)
    conclusions = pd.read_csv(paths[1])
    norej = conclusions[conclusions["comparison"] == "decorate_norej_vs_j48"]
    assert set(norej["table"].astype(str)) == {"4.14"}
    assert (norej.loc[norej["point"].isin([1.0, 20.0, 100.0]), "status"] == "ok").all()
    assert "No published accuracies." in paths[2].read_text()


def test_per_table_summary_counts_conclusions_and_pools_both_algorithms_cells() -> None:
    from redecorate.report.replication import per_table_summary

    conclusions = pd.DataFrame(
        {
            "table": ["4.2", "4.2", "4.3"],
            "baseline": ["decorate"] * 3,
            "other": ["j48", "j48", "bagging"],
            "point": [1.0, 2.0, 1.0],
            "sig_holds": [True, False, True],
            "gm_holds": [True, True, True],
            "holds": [True, False, True],
            "trivial_holds": [True, True, False],
            "winner_agreement": [1.0, 0.5, 0.8],
            "trivial_winner_agreement": [1.0, 1.0, 0.6],
            "winner_compared": [15, 5, 10],
        }
    )
    cells = pd.DataFrame(
        {
            "dataset": ["iris"] * 5,
            "algorithm": ["decorate", "j48", "j48", "bagging", "j48"],
            "point": [1.0, 1.0, 2.0, 1.0, 5.0],
            "published": [80.0] * 5,
            "difference": [0.5, -1.5, 3.0, 2.0, 9.0],
            "status": ["ok", "ok", "ok", "ok", "ok"],
        }
    )
    cells["reproduced"] = cells["published"] + cells["difference"]
    out = per_table_summary(cells, conclusions).set_index("table")
    assert np.isnan(out.loc["4.2", "rank_correlation"])  # one (dataset, point) pair: no ranking
    assert out.loc["4.2", ["tested", "sig_holds", "gm_holds", "holds", "cells"]].tolist() == [2, 1, 2, 1, 3]
    assert out.loc["4.2", "median_abs_difference"] == 1.5  # |0.5|, |-1.5|, |3| at points 1 and 2
    assert out.loc["4.3", "cells"] == 2 and out.loc["4.3", "median_abs_difference"] == 1.25
    # Beside what "A always wins" scores; winner agreement weighted by the datasets compared.
    assert out.loc["4.2", "trivial_holds"] == 2 and out.loc["4.3", "trivial_holds"] == 0
    assert out.loc["4.2", "winner_agreement"] == (15 * 1.0 + 5 * 0.5) / 20
    assert out.loc["4.2", "trivial_winner_agreement"] == 1.0


def test_per_table_rank_correlation_orders_the_differences_a_minus_b() -> None:
    from redecorate.report.replication import per_table_summary

    conclusions = pd.DataFrame({"table": ["4.2"], "baseline": ["decorate"], "other": ["j48"],
                                "point": [10.0], "sig_holds": [True], "gm_holds": [True],
                                "holds": [True], "trivial_holds": [True], "winner_agreement": [1.0],
                                "trivial_winner_agreement": [1.0], "winner_compared": [4]})
    # Published A − B: 1, 2, 3, 4 on datasets a–d; reproduced A − B: 4, 3, 2, 1 (all A wins, so
    # the winners agree everywhere, yet the sizes are ordered the other way round).
    rows = []
    for dataset, pub_gap, rep_gap in zip("abcd", [1, 2, 3, 4], [4, 3, 2, 1], strict=True):
        rows += [(dataset, "decorate", 70.0 + pub_gap, 70.0 + rep_gap), (dataset, "j48", 70.0, 70.0)]
    cells = pd.DataFrame(rows, columns=["dataset", "algorithm", "published", "reproduced"])
    cells = cells.assign(point=10.0, difference=cells["reproduced"] - cells["published"], status="ok")
    out = per_table_summary(cells, conclusions).set_index("table")
    assert out.loc["4.2", "rank_correlation"] == pytest.approx(-1.0)


def test_a_failed_conclusion_is_explained_only_when_every_disagreeing_dataset_is() -> None:
    from redecorate.report.replication import explained_failures

    conclusions = pd.DataFrame({"baseline": ["decorate"] * 3, "other": ["rf"] * 3,
                                "point": [1.0, 2.0, 5.0], "holds": [False, False, True]})
    rows = []
    for point in (1.0, 2.0, 5.0):
        # splice: published DECORATE ahead, reproduced behind; iris: same order on both sides.
        rows += [("splice", "decorate", point, 90.0, 80.0), ("splice", "rf", point, 50.0, 88.0),
                 ("iris", "decorate", point, 95.0, 95.0), ("iris", "rf", point, 94.0, 94.0)]
    cells = pd.DataFrame(rows, columns=["dataset", "algorithm", "point", "published", "reproduced"])
    cells = cells.assign(status="ok", explained="")
    at_1 = (cells["dataset"] == "splice") & (cells["algorithm"] == "rf") & (cells["point"] == 1.0)
    cells.loc[at_1, "explained"] = "the thesis's RF split on an ID attribute"
    out = explained_failures(conclusions, cells)
    assert bool(out[0]) is True and bool(out[1]) is False and pd.isna(out[2])


@pytest.mark.parametrize("path", shipped_experiment_files(), ids=lambda p: p.stem)
def test_every_system_a_report_compares_has_one_display_name(path: Path) -> None:
    """Legends and table headings name every compared system the thesis's way (its learner's
    ``display_name``, or :data:`redecorate.report.tables.DISPLAY_NAMES` for a label that is not
    a registry name), never ``active_decorate_js`` beside ``ActiveDecorate``. The shipped
    files: a user's own labels are shown as they are."""
    import yaml

    from redecorate.report.tables import display_name

    report = yaml.safe_load(path.read_text(encoding="utf-8")).get("report") or {}
    compared = [report.get("baseline"), *report.get("others", []),
                *(pair[side] for pair in report.get("comparisons", []) for side in ("a", "b"))]
    assert [name for name in compared if name and display_name(name) == name] == []


def test_every_learner_names_itself_and_the_captions_table_holds_no_learner() -> None:
    """One place per name: a registry learner's display name is its class's (what a user's
    new learner sets, docs/adding-a-learner.md), and the captions table only names labels
    that are not a learner's registry name."""
    from redecorate.learners.registry import ALGORITHMS, learner_class
    from redecorate.report.tables import DISPLAY_NAMES, display_name

    for name in ALGORITHMS:
        cls = learner_class(name)
        assert isinstance(cls.display_name, str) and cls.display_name, f"{cls.__name__} gives no display_name"
        assert display_name(name) == cls.display_name
    assert not set(DISPLAY_NAMES) & set(ALGORITHMS)
    assert display_name("rf") == "Random Forests" and display_name("my_own_label") == "my_own_label"


def test_a_new_learners_display_name_reaches_the_report(monkeypatch) -> None:
    """The ExtraTrees case: a learner added with one registry line is named by its class in
    tables and legends, not by its registry name."""
    import sys
    from types import MappingProxyType

    from redecorate.learners import registry
    from redecorate.report.tables import display_name

    examples = str(Path(__file__).resolve().parent / "learners")
    sys.path.insert(0, examples)
    try:
        monkeypatch.setattr(registry, "ALGORITHMS",
                            MappingProxyType({**registry.ALGORITHMS, "class_prior": "class_prior:ClassPrior"}))
        assert display_name("class_prior") == "Class Prior"
    finally:
        sys.path.remove(examples)


def test_every_report_leads_with_the_runs_protocol_and_its_own_numbers(tmp_path: Path) -> None:
    """Whatever the kind: after the title (and a slice's banner), the scale, datasets, runs,
    folds and points of this run, and its main measure at the last point of each curve."""
    from redecorate.report.this_run import this_run_lines

    recs = synthetic_records()
    summary = summarise(recs)
    lines = this_run_lines(recs, summary, scale="quick", folds=5)
    report = ReplicationReport("# Reproduced vs published (Melville 2005)\n\nThe comparison.\n")
    paths = [tmp_path / "replication.csv", tmp_path / "replication_conclusions.csv", tmp_path / "replication.md"]
    write_replication_report(report, ReplicationPaths(paths[2], paths[0], paths[1]), experiment="test",
                             this_run=lines)
    md = paths[2].read_text()
    assert md.startswith("# Reproduced vs published (Melville 2005)\n\n## This run\n\n"
                         "Scale quick: 3 dataset(s), 2 run(s) of 5-fold CV, 3 algorithm(s); "
                         "curve points: 1, 20, 100.")
    assert md.index("## This run") < md.index("The comparison.")
    assert "| Dataset | Last point | Bagging | DECORATE | J48 |" in md
    iris = summary[(summary["dataset"] == "iris") & (summary["point"] == 100.0)].set_index("algorithm")["mean"]
    assert f"| iris | 100 (120 examples) | {iris['bagging']:.2f} | {iris['decorate']:.2f} | {iris['j48']:.2f} |" in md
