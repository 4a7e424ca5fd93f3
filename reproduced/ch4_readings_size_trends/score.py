"""Score two readings of §4.5's "the trends of the results are the same as with ensembles of size 15".

§4.5 (L735) says of Figures 4.8–4.9, whose curves did not survive: "Apart from slight
improvements in accuracies for all methods, the trends of the results are the same as with
ensembles of size 15." The text leaves open what "the same trends" is measured against:

* **the printed tables** (adopted by ``redecorate.report.size_trends``): DECORATE-100 minus
  each rival at 100, per dataset and curve point, has the sign of the size-15 difference that
  Tables 4.2–4.5 print. This is what a reader of the thesis can check, and it fails where the
  printed size-15 difference itself does not reproduce (Table 4.4's forests);
* **the same runs at size 15**: the sign of our own size-15 difference on the same splits
  (``ch4_passive``'s units, reused by unit key in ``ch4_large_ensembles``). This isolates
  the claim from the size-15 tables' own agreement.

For every cell that disagrees under the adopted reading, the script also gives the 95 %
interval of the reproduced size-100 difference (the reports' own
``redecorate.report.agreement.bootstrap_interval``: runs × folds resampled, the same rows
for both methods, centred, seeded) and our own size-15 difference, and for the gains (each
method at 100 against itself at 15, averaged over the curve) the interval and how often the two ensembles
are identical: AdaBoost.M1 stops adding members when one has zero training error, so on easy
data size 100 is size 15.

No new runs: the committed thesis-scale records of ``ch4_large_ensembles`` (10 runs of
10-fold CV) only.

    PYTHONPATH=src python3 reproduced/ch4_readings_size_trends/score.py    # writes readings.md here
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from redecorate.report.agreement import bootstrap_interval
from redecorate.report.tables import markdown_table

HERE = Path(__file__).resolve().parent
REPRODUCED = HERE.parent
ROOT = REPRODUCED.parent
RECORDS = REPRODUCED / "ch4_large_ensembles" / "records.parquet"
EVIDENCE = REPRODUCED / "ch4_large_ensembles" / "tables" / "size_trends.csv"
SIZE_15 = {"decorate_100": "decorate", "bagging_100": "bagging", "adaboost_100": "adaboost", "rf_100": "rf",
           "j48": "j48"}


def per_fold(records: pd.DataFrame) -> pd.DataFrame:
    """Accuracy per (dataset, point, run, fold) and algorithm."""
    accuracy = records[records["metric"] == "accuracy"]
    return accuracy.pivot_table(index=["dataset", "point", "run", "fold"], columns="algorithm", values="value")


def _difference_of_means(mean_a: np.ndarray, mean_b: np.ndarray) -> np.ndarray:
    """Per replicate, the curve-averaged difference of the two methods' mean curves."""
    return (mean_a - mean_b).mean(axis=1)


def interval(fold: pd.DataFrame, a: str, b: str) -> tuple[float, float]:
    """95 % interval of ``a`` minus ``b`` averaged over the points of ``fold``, folds paired.

    ``fold`` has one row per (point, run, fold); the matrices handed to the bootstrap have
    one row per (run, fold) and one column per point, as every report's.
    """
    matrix_a = fold[a].unstack("point").to_numpy()
    matrix_b = fold[b].unstack("point").to_numpy()
    return bootstrap_interval(_difference_of_means, matrix_a, matrix_b, vectorized=True)


def trivial(signs: pd.Series) -> float:
    """What the best constant sign scores on the published signs."""
    positive = float((signs > 0).mean())
    return max(positive, 1.0 - positive)


def main() -> None:
    folds = per_fold(pd.read_parquet(RECORDS))
    means = folds.groupby(level=["dataset", "point"]).mean()
    evidence = pd.read_csv(EVIDENCE)
    trends = evidence[evidence["statistic"].str.startswith("accuracy difference")].copy()
    gains = evidence[evidence["statistic"].str.startswith("mean accuracy gain")].copy()

    def own_15(row: pd.Series) -> float:
        a, _, b = row["system"].partition("_vs_")
        cell = means.loc[(row["dataset"], row["point"])]
        return float(cell[SIZE_15[a]] - cell[SIZE_15[b]])

    trends["own_15"] = trends.apply(own_15, axis=1)
    rows = []
    for comparison, group in trends.groupby("system", sort=False):
        rows.append([comparison, str(len(group)),
                     f"{int((np.sign(group['reproduced']) == np.sign(group['published'])).sum())} of {len(group)}",
                     f"{trivial(group['published']):.2f}",
                     f"{int((np.sign(group['reproduced']) == np.sign(group['own_15'])).sum())} of {len(group)}",
                     f"{trivial(group['own_15']):.2f}",
                     f"{group['published'].mean():+.2f}", f"{group['own_15'].mean():+.2f}",
                     f"{group['reproduced'].mean():+.2f}"])
    readings = markdown_table(
        ["comparison", "cells", "same sign: printed size 15 (adopted)", "trivial", "same sign: our size 15",
         "trivial", "mean printed 15", "mean ours 15", "mean ours 100"], rows)

    wrong = trends[np.sign(trends["reproduced"]) != np.sign(trends["published"])]
    cells = []
    for row in wrong.itertuples():
        a, _, b = row.system.partition("_vs_")
        low, high = interval(folds.loc[row.dataset].loc[[row.point]], a, b)
        cells.append([row.system, row.dataset, f"{row.point:g}", f"{row.published:+.2f}", f"{row.own_15:+.2f}",
                      f"{row.reproduced:+.2f}", f"[{low:+.2f}, {high:+.2f}]", "yes" if low <= 0 <= high else "no"])
    disagreeing = markdown_table(["comparison", "dataset", "point", "printed 15", "ours 15", "ours 100",
                                  "95 % interval (100)", "holds 0"], cells)

    gain_rows = []
    for row in gains.itertuples():
        a, _, b = row.system.partition("_vs_")
        fold = folds.loc[row.dataset]
        low, high = interval(fold, a, b)
        identical = float((fold[a] == fold[b]).mean())
        gain_rows.append([row.system, row.dataset, f"{row.reproduced:+.3f}", f"[{low:+.3f}, {high:+.3f}]",
                          f"{identical:.2f}"])
    gain_table = markdown_table(["comparison", "dataset", "mean gain (points)", "95 % interval",
                                 "share of units with equal accuracy"], gain_rows)

    records = pd.read_parquet(RECORDS)
    boosted = records[(records["metric"] == "accuracy") & (records["algorithm"] == "adaboost_100")]
    stops = boosted.groupby("dataset")["ensemble_size"].agg(
        median="median", below_15=lambda s: float((s < 15).mean()))
    stop_rows = [[d, f"{r['median']:g}", f"{r['below_15']:.2f}"] for d, r in stops.iterrows()]
    stop_table = markdown_table(["dataset", "median members (of 100)", "share of fits below 15"], stop_rows)

    text = (
        "# §4.5: two readings of \"the same trends as with ensembles of size 15\"\n\n"
        "Recomputed by `score.py` from the committed thesis-scale records of `ch4_large_ensembles` (10 runs of "
        "10-fold CV; size-15 units are `ch4_passive`'s, reused by unit key). Per comparison, the cells "
        "(dataset × point) whose size-100 difference has the sign of the printed size-15 difference (the "
        "reading the report adopts) and of our own size-15 difference on the same splits, each beside what "
        "the best constant sign scores.\n\n" + readings +
        "\nThe cells that disagree under the adopted reading, with our own size-15 difference and the 95 % "
        "interval of the size-100 difference (the reports' bootstrap over runs × folds: paired, centred):\n\n" + disagreeing +
        "\nThe gains (each method at 100 against itself at 15, per fold averaged over the curve's points):\n\n"
        + gain_table +
        "\nAdaBoost.M1 at 100 stops adding members when one has zero training error (or above 0.5):\n\n"
        + stop_table)
    (HERE / "readings.md").write_text(text, encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
