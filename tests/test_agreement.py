"""Cell agreement (intervals, statuses, known disagreements) and the axes of the curve summaries.

Every summary of chapters 6–8 averages a (runs × folds, points) matrix twice, once over each
axis, and the order matters for a ratio. These tests use synthetic curves that differ along
the folds and along the points, so averaging over the wrong axis, or taking the change of the
means instead of the mean of the changes, gives a different number and fails.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from redecorate.report.agreement import (
    AGREES,
    DISAGREES,
    NEVER_REACHED,
    NOT_RUN,
    bootstrap_interval,
    cell_status,
    table_agreement,
    with_known_disagreements,
)
from redecorate.report.published import read_disagreements
from redecorate.stats.summary import RECORD_COLUMNS, summarise


def _records(curves: dict[str, list[list[float]]], metric: str, sizes: list[list[int]] | None = None) -> pd.DataFrame:
    """Records of one dataset: ``curves[system][fold]`` is that fold's curve; ``sizes[fold]``
    its labeled-set sizes (default 10, 20, ...)."""
    rows = []
    for system, folds in curves.items():
        for fold, curve in enumerate(folds):
            points = sizes[fold] if sizes else [10 * (i + 1) for i in range(len(curve))]
            rows += [("x", "d", system, 0, fold, n, n, metric, v, 0.0, 15)
                     for n, v in zip(points, curve, strict=True)]  # fmt: skip
    return pd.DataFrame(rows, columns=list(RECORD_COLUMNS))


def _mse_reduction(records: pd.DataFrame) -> float:
    from redecorate.report.probability import probability_comparisons

    both = pd.concat([records, records.assign(metric="aulc")], ignore_index=True)
    return float(probability_comparisons(both, [{"a": "a", "b": "b"}], ["d"]).iloc[0]["mse_reduction"])


def test_chapter_7_averages_over_folds_first_then_the_changes_over_points() -> None:
    # B differs between the folds (2 and 4): the mean curve is 3, so the change is 2/3 at
    # every point = 66.67 %. Averaging over the points first (per-fold changes 50 % and 75 %)
    # would give 62.5 %.
    folds = _records({"a": [[1, 1], [1, 1]], "b": [[2, 2], [4, 4]]}, "mse")
    assert _mse_reduction(folds) == pytest.approx(200 / 3)
    # B differs along the points (2 then 4): per-point changes 50 % and 75 % average to
    # 62.5 %; the change of the means over points, (3 − 1)/3, would be 66.67 %.
    points = _records({"a": [[1, 1], [1, 1]], "b": [[2, 4], [2, 4]]}, "mse")
    assert _mse_reduction(points) == pytest.approx(62.5)


def test_chapter_7_lines_up_folds_by_batch_when_their_pools_differ() -> None:
    # Two folds whose pools differ by one example: their batches end at different sizes
    # (10, 20, 30 and 10, 21, 31). By batch, both folds' three points count; by size only
    # the shared size 10 would, and the reduction would be that of the first point alone.
    records = _records({"a": [[1, 1, 1], [1, 1, 1]], "b": [[2, 4, 4], [2, 4, 4]]}, "mse",
                       sizes=[[10, 20, 30], [10, 21, 31]])
    assert _mse_reduction(records) == pytest.approx(100 * (0.5 + 0.75 + 0.75) / 3)


def test_summarise_takes_the_mean_not_the_median() -> None:
    # Three folds at one point: 0, 0, 90. The median is 0, the mean 30.
    records = _records({"a": [[0.0], [0.0], [90.0]]}, "accuracy")
    summary = summarise(records)
    assert summary["mean"].tolist() == [30.0]
    assert summary["count"].tolist() == [3]


def test_the_bootstrap_interval_covers_the_statistic_and_narrows_with_more_folds() -> None:
    rng = np.random.default_rng(0)

    def mean(curve: np.ndarray) -> float:
        return float(curve.mean())

    few = rng.normal(10.0, 2.0, size=(10, 5))
    many = rng.normal(10.0, 2.0, size=(200, 5))
    low, high = bootstrap_interval(mean, few)
    assert low < few.mean() < high
    low_many, high_many = bootstrap_interval(mean, many)
    assert high_many - low_many < (high - low) / 2
    # deterministic, and undefined with one fold
    assert bootstrap_interval(mean, few) == (low, high)
    assert all(np.isnan(bootstrap_interval(mean, few[:1])))


def test_the_interval_of_a_selection_statistic_is_centred_on_its_value() -> None:
    """The largest point of a noisy mean curve (the top-20 % reduction selects so): a
    replicate's noisier mean curve has a larger maximum, so the plain percentile interval
    leans above the value; centred, its middle is the value, and a linear statistic's
    interval barely moves (its replicates are not biased)."""
    rng = np.random.default_rng(3)
    curves = rng.normal(size=(20, 40))  # a flat truth, noise only

    def top(curve: np.ndarray) -> float:
        return float(curve.max())

    def mean(curve: np.ndarray) -> float:
        return float(curve.mean())

    value = curves.mean(axis=0).max()
    plain_low, plain_high = bootstrap_interval(top, curves, centered=False)
    low, high = bootstrap_interval(top, curves)
    assert (plain_low + plain_high) / 2 - value > 0.05  # the plain interval leans above
    assert abs((low + high) / 2 - value) < 0.025 and high - low == pytest.approx(plain_high - plain_low)
    vectorized = bootstrap_interval(lambda m: m.max(axis=1), curves, vectorized=True)
    assert vectorized == pytest.approx((low, high))
    centred, plain = bootstrap_interval(mean, curves), bootstrap_interval(mean, curves, centered=False)
    assert centred == pytest.approx(plain, abs=0.005)


def test_the_bootstrap_pairs_the_rows_of_both_systems() -> None:
    # A = B + 1 on every fold, whatever B is: paired resampling keeps the difference at
    # exactly 1; resampling the two systems independently would not.
    b = np.random.default_rng(1).normal(0.0, 5.0, size=(20, 3))
    low, high = bootstrap_interval(lambda a, b: float((a - b).mean()), b + 1.0, b)
    assert low == pytest.approx(1.0) and high == pytest.approx(1.0)


@pytest.mark.parametrize(
    ("published", "reproduced", "low", "high", "ran", "expected"),
    [
        (5.0, np.nan, np.nan, np.nan, False, NOT_RUN),
        (5.0, np.nan, np.nan, np.nan, True, NEVER_REACHED),
        (5.0, 4.0, 3.0, 6.0, True, AGREES),
        (5.0, 4.0, 3.0, 4.5, True, DISAGREES),
        (np.nan, 4.0, 3.0, 6.0, True, DISAGREES),  # the source's "-" against a reached target
        (1.0, 1.0, np.nan, np.nan, True, AGREES),  # no interval: equal values agree
        (1.0, 0.0, np.nan, np.nan, True, DISAGREES),
    ],
)
def test_cell_status(published: float, reproduced: float, low: float, high: float, ran: bool,
                     expected: str) -> None:
    assert cell_status(published, reproduced, low, high, ran=ran) == expected


def test_the_printed_rounding_is_inside() -> None:
    assert cell_status(4.504, 4.0, 3.0, 4.5, ran=True, tolerance=0.005) == AGREES
    assert cell_status(4.51, 4.0, 3.0, 4.5, ran=True, tolerance=0.005) == DISAGREES


def test_table_agreement_sets_each_measure_beside_the_trivial_one() -> None:
    cells = pd.DataFrame({
        "table": ["t"] * 4, "statistic": ["r"] * 4,
        "published": [10.0, 5.0, -2.0, 3.0], "reproduced": [8.0, -1.0, -3.0, np.nan],
        "low": [7.0, -2.0, -4.0, np.nan], "high": [11.0, 0.0, -1.5, np.nan],
        "status": [AGREES, DISAGREES, AGREES, NOT_RUN], "printed": True, "signed": True,
        "explanation": ["", "a known cause", "", ""],
    })  # fmt: skip
    row = table_agreement(cells).iloc[0]
    assert row["cells"] == 4 and row["reproduced"] == 3
    assert row["median_abs_difference"] == pytest.approx(2.0)  # |8-10|, |-1-5|, |-3+2|
    assert row["inside_interval"] == pytest.approx(2 / 3)
    assert row["sign_agreement"] == pytest.approx(2 / 3)  # 10/8 and -2/-3 agree, 5/-1 does not
    assert row["trivial"] == pytest.approx(2 / 3)  # "always positive": 10 and 5 of 10, 5, -2
    assert row["disagreeing"] == 1 and row["explained"] == 1  # 5 against -1: outside and of the wrong sign
    assert row[NOT_RUN] == 1 and row[AGREES] == 2 and row[DISAGREES] == 1


def test_the_trivial_prediction_is_the_better_constant_sign() -> None:
    # Published mostly negative: "always negative" scores 3 of 4, "always positive" 1 of 4.
    cells = pd.DataFrame({"table": "t", "published": [-1.0, -2.0, -3.0, 4.0], "reproduced": [-1.0, 2.0, 3.0, 4.0],
                          "signed": True})  # fmt: skip
    row = table_agreement(cells).iloc[0]
    assert row["trivial"] == pytest.approx(0.75) and row["sign_agreement"] == pytest.approx(0.5)


def test_a_published_tie_reproduced_up_to_rounding_noise_is_a_tie() -> None:
    """Two systems right on every example differ by ±1e-14 after averaging (Oza's Table 3.5 on
    car, mushroom, synthetic3): that agrees with a published 0.00 and does not disagree."""
    from redecorate.report.agreement import disagreeing, evidence_frame

    noise = 0.1 + 0.2 - 0.3  # 5.6e-17, the kind of difference the order of additions leaves
    cells = pd.DataFrame({"table": "t", "published": [0.0, 0.0, 0.5, -0.5],
                          "reproduced": [noise, -1.4e-14, 0.4, 1e-6], "signed": True})  # fmt: skip
    row = table_agreement(cells).iloc[0]
    assert row["sign_agreement"] == pytest.approx(0.75)  # the last cell: 1e-6 is a real difference
    assert disagreeing(evidence_frame(cells)).tolist() == [False, False, False, True]


def test_known_disagreements_explain_only_what_disagrees(tmp_path: Path) -> None:
    tsv = tmp_path / "known_disagreements.tsv"
    tsv.write_text("table\tdataset\tpoint\tsystem\texplanation\n"
                   "7.1\t\t\tactive_decorate_vs_decorate\tthe baseline\n"
                   "8.2\tkr-vs-kp\t\t\tbiased sample\n", encoding="utf-8")  # fmt: skip
    cells = pd.DataFrame({
        "table": ["7.1", "7.1", "8.2", "8.2"], "dataset": ["anneal", "iris", "kr-vs-kp", "anneal"],
        "comparison": ["active_decorate_vs_decorate", "active_decorate_js_vs_decorate", "", ""],
        "status": [DISAGREES, DISAGREES, DISAGREES, AGREES],
    })  # fmt: skip
    notes = with_known_disagreements(cells, read_disagreements(tsv), system="comparison")["known_disagreement"]
    assert notes.tolist() == ["the baseline", "", "biased sample", ""]


def test_a_report_names_each_known_disagreement_behind_disagreeing_cells_once() -> None:
    from redecorate.report.agreement import agreement_lines, known_disagreement_lines

    cells = pd.DataFrame({
        "table": ["4.2", "4.3", "4.3", "4.4", "4.4"], "dataset": ["hepatitis", "hepatitis", "iris", "splice", "iris"],
        "statistic": "accuracy", "published": [52.0, 52.0, 90.0, 50.0, 95.0],
        "reproduced": [66.0, 66.0, 90.5, 78.0, 80.0], "low": [64.0, 64.0, 89.0, 76.0, 78.0],
        "high": [68.0, 68.0, 92.0, 80.0, 82.0], "status": [DISAGREES, DISAGREES, AGREES, DISAGREES, DISAGREES],
        "printed": True,
        "explanation": ["one example", "one example", "one example", "the forest", ""],
    })  # fmt: skip
    notes = known_disagreement_lines(cells)
    assert notes == ["- **Tables 4.2, 4.3** (2 cells; hepatitis): one example",
                     "- **Table 4.4** (1 cell; splice): the forest"]  # the agreeing iris cell is not counted
    assert known_disagreement_lines(cells, label="Table X") == ["- **Table X** (2 cells; hepatitis): one example",
                                                                "- **Table X** (1 cell; splice): the forest"]
    text = "\n".join(agreement_lines(cells, by=("table",)))
    assert "## Known disagreements" in text and "3 of the 4 disagreeing cells" in text
    assert "## Known disagreements" not in "\n".join(agreement_lines(cells.assign(explanation=""), by=("table",)))


def test_the_committed_known_disagreements_parse_and_cover_chapters_6_to_8() -> None:
    rows = read_disagreements(Path(__file__).resolve().parents[1] / "config/published/known_disagreements.tsv")
    assert (rows["explanation"].str.len() > 20).all()
    assert {"4.13", "6.1", "6.3", "6.4", "7.1", "8.2"} <= set(rows["table"])  # 8.3 autos agrees at 5 runs


def test_every_explanation_a_committed_report_carries_is_a_current_known_disagreement() -> None:
    """A report quotes ``known_disagreements.tsv`` as it was when the report was written, so an
    edited row leaves every committed report that quotes it stale until it is regenerated
    (``tools/regenerate_reports.py``): the explanation a reader sees would not be the one the
    evidence now supports."""
    from pandas.errors import EmptyDataError

    repo = Path(__file__).resolve().parents[1]
    current = set(read_disagreements(repo / "config/published/known_disagreements.tsv")["explanation"])
    quoted, stale = 0, []
    for path in sorted({*repo.glob("reproduced/**/replication.csv"), *repo.glob("reproduced/**/tables/*.csv")}):
        try:
            table = pd.read_csv(path, dtype=str)
        except EmptyDataError:  # a report with no cell to compare writes an empty file
            continue
        for column in ("explanation", "known_disagreement"):
            texts = set(table[column].dropna()) - {""} if column in table else set()
            quoted += len(texts)
            stale += [f"{path.relative_to(repo)} ({column}): {t[:80]}" for t in sorted(texts - current)]
    assert quoted > 20  # the chapters' reports do quote the file
    assert not stale, "regenerate these reports (tools/regenerate_reports.py):\n" + "\n".join(stale)


def test_the_report_takes_the_training_folds_aulc_when_the_records_have_it() -> None:
    from redecorate.report.probability import aulc_reading

    # the labeled set's priors favour A (50 vs 40), the fold's priors favour B (40 vs 50)
    records = pd.concat([_records({"a": [[50.0]], "b": [[40.0]]}, "aulc"),
                         _records({"a": [[40.0]], "b": [[50.0]]}, "aulc_fold")], ignore_index=True)
    chosen, reading = aulc_reading(records)
    assert reading == "aulc_fold"
    assert set(chosen["metric"]) == {"aulc"}
    assert chosen.set_index("algorithm")["value"].to_dict() == {"a": 40.0, "b": 50.0}
    older, reading = aulc_reading(records[records["metric"] == "aulc"])
    assert reading == "aulc" and older.set_index("algorithm")["value"].to_dict() == {"a": 50.0, "b": 40.0}


def test_a_reduction_report_of_a_slice_skips_the_comparisons_it_left_out(tmp_path: Path) -> None:
    from redecorate.kinds import JobSettings, ReportOutputs, ReportSettings
    from redecorate.report.acquisition import write_report as write_reduction_report

    curves = {"a": [[80.0, 90.0, 95.0]] * 4, "b": [[70.0, 85.0, 94.0]] * 4}
    records = _records(curves, "accuracy")
    out = ReportOutputs(tmp_path / "tables", tmp_path / "figures")
    out.tables.mkdir()
    out.figures.mkdir()
    settings = ReportSettings(
        job=JobSettings(experiment="x", folds=4, seed=0), kind="acquisition", scale="pilot",
        datasets=("d",), params={"a": {}, "b": {}},
        report={"comparisons": [{"a": "a", "b": "b", "table": "T1"}, {"a": "c", "b": "e", "table": "T2"}]},
    )  # fmt: skip
    report = write_reduction_report(records, out, settings, xlabel="n")
    cells = pd.read_csv(out.tables / "error_reductions.csv")
    assert cells["comparison"].tolist() == ["a_vs_b"]
    assert cells["error_reduction"].iloc[0] > 0
    assert report.markdown.startswith("# Replication report: x (scale pilot)\n\n")
    assert report.comparable is False  # nothing published to compare with


# --- the measures' plausible bugs, each checked by applying it ---------------------------------


def test_the_intervals_are_95_percent_intervals() -> None:
    """A 90 % interval where 95 % is promised is 16 % narrower: for a mean of 400 normal
    folds the percentile interval spans ±1.96 standard errors (±1.645 at 90 %)."""
    from redecorate.report.agreement import mean_intervals

    values = np.random.default_rng(3).normal(50.0, 10.0, size=400)
    expected = 2 * 1.959964 * values.std() / np.sqrt(values.size)
    low, high = bootstrap_interval(lambda curve: float(curve.mean()), values[:, None])
    assert (high - low) / expected == pytest.approx(1.0, abs=0.07)
    records = pd.DataFrame({"dataset": "d", "algorithm": "a", "run": np.arange(400) // 10,
                            "fold": np.arange(400) % 10, "value": values})  # fmt: skip
    row = mean_intervals(records, ["dataset", "algorithm"]).iloc[0]
    assert (row["high"] - row["low"]) / expected == pytest.approx(1.0, abs=0.07)


def test_chapter_7_intervals_resample_the_folds_not_the_points() -> None:
    """The MSE reduction's ``*_low``/``*_high`` come from resampling the (run, fold) rows: A's
    folds reduce B's error by r_f at every point, so the interval is that of the mean of the
    r_f (±1.96 sd/√n); resampling the points, identical here, would give a zero-width one."""
    from redecorate.report.probability import probability_comparisons

    r = np.random.default_rng(7).normal(0.2, 0.1, size=40)
    curves = {"a": [[10.0 * (1 - rf)] * 5 for rf in r], "b": [[10.0] * 5 for _ in r]}
    mse = _records(curves, "mse")
    cell = probability_comparisons(pd.concat([mse, mse.assign(metric="aulc")]), [{"a": "a", "b": "b"}], ["d"]).iloc[0]
    assert cell["mse_reduction"] == pytest.approx(100 * r.mean())
    assert cell["mse_reduction_low"] < cell["mse_reduction"] < cell["mse_reduction_high"]
    expected = 2 * 1.959964 * 100 * r.std() / np.sqrt(r.size)
    assert (cell["mse_reduction_high"] - cell["mse_reduction_low"]) / expected == pytest.approx(1.0, abs=0.15)


@pytest.mark.parametrize(("published", "tolerance"), [(1.0, 0.0), (2.0, 0.0), (0.5, 0.5), (2.5, 0.5)])
def test_a_published_value_on_an_interval_edge_is_inside(published: float, tolerance: float) -> None:
    # [1, 2], the printed rounding widening it by `tolerance` on both sides: the edges belong to it
    assert cell_status(published, 1.5, 1.0, 2.0, ran=True, tolerance=tolerance) == AGREES
    assert cell_status(published + (0.25 if published > 1.5 else -0.25), 1.5, 1.0, 2.0, ran=True,
                       tolerance=tolerance) == DISAGREES  # fmt: skip


def test_a_cell_that_never_reached_its_target_is_not_in_the_inside_share() -> None:
    """A count that never reached the target has no value to set beside the published one,
    even when most bootstrap replicates reached it (the interval is defined)."""
    cells = pd.DataFrame({
        "table": "6.1", "statistic": "examples_to_target", "published": [30.0, 40.0],
        "reproduced": [32.0, np.nan], "low": [20.0, 30.0], "high": [50.0, 90.0],
        "status": [AGREES, NEVER_REACHED], "printed": True,
    })  # fmt: skip
    row = table_agreement(cells).iloc[0]
    assert row["inside_interval"] == 1.0 and row["reproduced"] == 1
    assert row[NEVER_REACHED] == 1 and row["disagreeing"] == 1


def test_the_gm_ratio_interval_is_paired_centred_and_narrows_with_more_splits() -> None:
    from redecorate.report.agreement import gm_ratio_interval
    from redecorate.stats.comparison import geometric_mean_error_ratio

    rng = np.random.default_rng(3)

    def pairs(n: int) -> list[tuple[np.ndarray, np.ndarray]]:
        out = []
        for base in (80.0, 90.0, 70.0):
            b = base + rng.normal(0, 3, n)
            out.append((b + 2.0 + rng.normal(0, 1, n), b))  # A about 2 points ahead, split by split
        return out

    few, many = pairs(10), pairs(100)
    value = geometric_mean_error_ratio([100 - a.mean() for a, _ in few], [100 - b.mean() for _, b in few])
    low, high = gm_ratio_interval(few)
    assert low < value < high < 1.0  # A's error lower: the whole interval below 1
    assert gm_ratio_interval(few) == (low, high)  # deterministic
    lo100, hi100 = gm_ratio_interval(many)
    assert hi100 - lo100 < high - low
    same = [(b, b.copy()) for _, b in few]  # the same splits: every replicate's ratio is 1
    assert gm_ratio_interval(same) == pytest.approx((1.0, 1.0))
    assert np.isnan(gm_ratio_interval([])[0]) and np.isnan(gm_ratio_interval([(np.ones(1), np.ones(1))])[0])


def test_a_summary_only_table_scores_its_gm_ratios_inside_their_intervals() -> None:
    """Tables 4.8–4.16 print only summary rows: their GM error ratios are printed cells with a
    95 % interval and a status, so "inside" can fail."""
    from redecorate.report.passive import _summary_evidence

    rng = np.random.default_rng(0)
    rows = []
    for dataset, base in (("d1", 80.0), ("d2", 90.0)):
        for run in range(2):
            for fold in range(10):
                b = base + rng.normal(0, 2)
                rows += [{"algorithm": "a", "dataset": dataset, "point": 10.0, "run": run, "fold": fold,
                          "metric": "accuracy", "value": b + 3.0},
                         {"algorithm": "b", "dataset": dataset, "point": 10.0, "run": run, "fold": fold,
                          "metric": "accuracy", "value": b}]  # fmt: skip
    records = pd.DataFrame(rows)
    means = records.groupby(["algorithm", "dataset"])["value"].mean()
    gm = float(np.exp(np.mean([np.log((100 - means["a", d]) / (100 - means["b", d])) for d in ("d1", "d2")])))
    conclusions = pd.DataFrame({"table": ["4.11", "4.11"], "comparison": ["a_vs_b"] * 2, "baseline": ["a"] * 2,
                                "other": ["b"] * 2, "point": [10.0, 10.0], "published_gm": [gm + 1e-5, 0.5],
                                "reproduced_gm": [gm, gm], "published_sig_wdl": ["2/0/0"] * 2,
                                "reproduced_sig_wdl": ["2/0/0"] * 2, "status": ["ok", "ok"]})  # fmt: skip
    found = _summary_evidence(conclusions, records)
    printed = found[found["printed"]]
    assert (printed["low"] < gm).all() and (printed["high"] > gm).all()
    assert printed["status"].tolist() == [AGREES, DISAGREES]  # a published 0.5 is far outside
