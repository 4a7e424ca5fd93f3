"""Readings of Table 7.1, scored against the published cells: ``python3 reproduced/ch7_readings/readings.py``.

Writes ``reproduced/ch7_readings/readings.md`` and ``readings.csv`` from the committed
records (``reproduced/ch7_cpe`` for the chapter's own systems, ``reproduced/ch7_readings`` for
and ``reproduced/ch7_readings_rejection`` for the alternative random baselines and margins
systems), so the evidence behind the Table 7.1 rows of
``config/published/known_disagreements.tsv`` can be recomputed.

Two kinds of reading:

* *aggregation* (from ch7_cpe, all 24 datasets): "% MSE reduction ... averaged along the
  points of the learning curve" read as the mean of per-point reductions of the mean curves
  (the report's), the reduction of the mean over points, or the mean over folds of each
  fold's own mean of per-point reductions;
* *schedule* (from ch7_cpe): the dissertation's 33 batches "incrementally ... larger" but
  unprinted, read as ours (geometric from 10), as batches growing linearly, or as equal
  batches. Approximated by interpolating our mean curves (in log n) at the other schedule's
  sizes, which reweights the curve's points; the selection path itself would differ with
  other batch sizes, so this bounds what the weighting of points alone can do;
* *AULC priors* (from ch7_readings_aulc, 6 datasets of Tables 7.2-7.3): each class's area
  weighted by its prior in the labeled set at that point, or in the whole training fold;
* *baseline* (from ch7_readings, 10 datasets): which model the random-sampling curve of
  "Rand." is — DECORATE of PETs (ch7_cpe), of chapter 6's J48 (pruned, no Laplace), of
  pruned J48 with Laplace, of unpruned J48 without Laplace — and margins with chapter 6's J48.

Each reading is scored on the published cells it covers by measures that can fail: share of
datasets with the published sign (beside "A always better"), Spearman's rank correlation,
the share of published values inside the reproduced 95 % interval, and the median
|reproduced − published|.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT / "src"))

from redecorate.report.agreement import AGREES, PRINTED_ROUNDING, cell_status  # noqa: E402
from redecorate.report.conclusions import rank_correlation, sign_agreement  # noqa: E402
from redecorate.report.curves import common_points, fold_values  # noqa: E402
from redecorate.report.probability import curve_change, probability_comparisons  # noqa: E402
from redecorate.report.published import read_published  # noqa: E402
from redecorate.report.tables import fmt  # noqa: E402

STATISTICS = {"mse": "mse_reduction", "aulc": "aulc_increase"}


def published_71() -> pd.DataFrame:
    rows = read_published([ROOT / "config" / "published" / "ch7_tables_7.1-7.4.tsv"])
    rows = rows[(rows["table"] == "7.1") & (rows["dataset"] != "")].copy()
    rows["value"] = pd.to_numeric(rows["value"], errors="coerce")
    return rows[["comparison", "dataset", "statistic", "value"]]


def score(cells: pd.DataFrame, published: pd.DataFrame, reading: str, comparison: str) -> list[dict]:
    """One row per statistic: the reading's agreement with the published cells of
    ``comparison`` (cells name the comparison in the reading's own labels)."""
    rows = []
    for metric, statistic in STATISTICS.items():
        pub = published[(published["comparison"] == comparison) & (published["statistic"] == statistic)]
        merged = pub.merge(cells, on="dataset")
        if merged.empty:
            continue
        low = merged.get(f"{statistic}_low", pd.Series(np.nan, index=merged.index))
        high = merged.get(f"{statistic}_high", pd.Series(np.nan, index=merged.index))
        inside = [cell_status(p, r, lo, hi, ran=True, tolerance=PRINTED_ROUNDING) == AGREES
                  for p, r, lo, hi in zip(merged["value"], merged[statistic], low, high, strict=True)]
        signs = sign_agreement(merged[statistic], merged["value"])
        rows.append({"reading": reading, "comparison": comparison, "metric": metric, "datasets": len(merged),
                     "sign_agreement": signs.agreement, "trivial": signs.trivial,
                     "spearman": rank_correlation(merged[statistic], merged["value"]),
                     "inside": float(np.mean(inside)) if np.isfinite(low).all() else np.nan,
                     "median_abs_difference": float((merged[statistic] - merged["value"]).abs().median()),
                     "reproduced_mean": float(merged[statistic].mean()), "published_mean": float(merged["value"].mean())})
    return rows


def aggregations(records: pd.DataFrame, a: str, b: str) -> pd.DataFrame:
    """The comparison under the three aggregation readings (MSE and AULC)."""
    out = []
    for dataset in sorted(records["dataset"].unique()):
        row = {"dataset": dataset}
        for metric, statistic in STATISTICS.items():
            lower = metric == "mse"
            _, ma, mb = common_points(fold_values(records, dataset, a, metric, align="batch"),
                                fold_values(records, dataset, b, metric, align="batch"))
            mean_a, mean_b = ma.mean(axis=0), mb.mean(axis=0)
            row[f"{statistic}_per_point"] = curve_change(mean_a, mean_b, lower_better=lower)
            row[f"{statistic}_of_means"] = curve_change(mean_a.mean(keepdims=True), mean_b.mean(keepdims=True),
                                                       lower_better=lower)
            row[f"{statistic}_per_fold"] = float(np.mean([curve_change(x, y, lower_better=lower)
                                                          for x, y in zip(ma, mb, strict=True)]))
        out.append(row)
    return pd.DataFrame(out)


SCHEDULES = {
    "geometric (ours)": lambda pool, initial=10, batches=33: initial * (pool / initial) ** (np.arange(batches + 1) / batches),
    "batches growing linearly": lambda pool, initial=10, batches=33: initial + (pool - initial) * np.arange(batches + 1)
    * np.arange(1, batches + 2) / (batches * (batches + 1)),
    "equal batches": lambda pool, initial=10, batches=33: np.linspace(initial, pool, batches + 1),
}


def schedules(records: pd.DataFrame, a: str, b: str) -> pd.DataFrame:
    """The comparison's mean curves reweighted to each schedule's sizes (MSE and AULC)."""
    out = []
    for dataset in sorted(records["dataset"].unique()):
        rows = records[(records["dataset"] == dataset) & (records["algorithm"] == b) & (records["metric"] == "mse")]
        sizes = np.asarray(sorted(rows.groupby(["run", "fold"])["point"].apply(list).iloc[0]), dtype=float)
        row = {"dataset": dataset}
        for metric, statistic in STATISTICS.items():
            _, ma, mb = common_points(fold_values(records, dataset, a, metric, align="batch"),
                                fold_values(records, dataset, b, metric, align="batch"))
            for name, schedule in SCHEDULES.items():
                at = np.log(schedule(sizes[-1]))
                curve_a = np.interp(at, np.log(sizes), ma.mean(axis=0))
                curve_b = np.interp(at, np.log(sizes), mb.mean(axis=0))
                row[f"{statistic}|{name}"] = curve_change(curve_a, curve_b, lower_better=metric == "mse")
        out.append(row)
    return pd.DataFrame(out)


def aulc_priors(records: pd.DataFrame) -> list[dict]:
    """Tables 7.2-7.3's AULC under the two readings of "weighted by the prior class
    probability of k according to the training set": the labeled set's priors (``aulc``) and
    the whole training fold's (``aulc_fold``), on the same curves."""
    rows = read_published([ROOT / "config" / "published" / "ch7_tables_7.1-7.4.tsv"])
    rows = rows[rows["table"].isin(["7.2", "7.3"]) & (rows["dataset"] != "")].copy()
    rows["value"] = pd.to_numeric(rows["value"], errors="coerce")
    published = rows[["comparison", "dataset", "statistic", "value"]]
    datasets = sorted(records["dataset"].unique())
    out = []
    for metric, reading in [("aulc", "AULC priors of the labeled set"), ("aulc_fold", "AULC priors of the training fold")]:
        chosen = records[records["metric"].isin(["accuracy", "mse", metric])].replace({"metric": {metric: "aulc"}})
        cells = probability_comparisons(chosen, [{"a": "bootstrap_js", "b": "bagged_pets"}], datasets)
        out += [r for r in score(cells, published, reading, "bootstrap_js_vs_bagged_pets") if r["metric"] == "aulc"]
    return out


def main() -> int:
    published = published_71()
    results = []
    cpe = pd.read_parquet(ROOT / "reproduced" / "ch7_cpe" / "records.parquet")
    for a, b in [("active_decorate", "decorate"), ("active_decorate_js", "decorate")]:
        frame = aggregations(cpe, a, b)
        for reading in ("per_point", "of_means", "per_fold"):
            cells = frame[["dataset"]].assign(**{s: frame[f"{s}_{reading}"] for s in STATISTICS.values()})
            results += score(cells, published, f"aggregation: {reading.replace('_', ' ')}", f"{a}_vs_{b}")
        frame = schedules(cpe, a, b)
        for name in SCHEDULES:
            cells = frame[["dataset"]].assign(**{s: frame[f"{s}|{name}"] for s in STATISTICS.values()})
            results += score(cells, published, f"schedule: {name}", f"{a}_vs_{b}")
    frames = [pd.read_parquet(p) for p in (ROOT / "reproduced" / "ch7_readings" / "records.parquet",
                                           ROOT / "reproduced" / "ch7_readings_rejection" / "records.parquet")
              if p.is_file()]
    if frames:
        keys = ["dataset", "algorithm", "run", "fold", "point", "metric"]
        records = pd.concat(frames, ignore_index=True).drop_duplicates(keys)
        baselines = {"decorate": "Rand. = DECORATE of PETs (ch7_cpe)",
                     "decorate_mse": "Rand. = DECORATE of PETs with MSE rejection",
                     "pet": "Rand. = a single PET",
                     "decorate_j48": "Rand. = DECORATE of J48, pruned, no Laplace (chapter 6)",
                     "decorate_j48_laplace": "Rand. = DECORATE of pruned J48 with Laplace",
                     "decorate_j48_unpruned": "Rand. = DECORATE of unpruned J48 without Laplace"}
        for baseline, reading in baselines.items():
            if baseline not in set(records["algorithm"]):
                continue
            for a in ("active_decorate", "active_decorate_js"):
                datasets = sorted(set(records.loc[records["algorithm"] == baseline, "dataset"])
                                  & set(records.loc[records["algorithm"] == a, "dataset"]))
                cells = probability_comparisons(records, [{"a": a, "b": baseline}], datasets)
                results += score(cells, published, reading, f"{a}_vs_decorate")
        if {"active_decorate_mse"} <= set(records["algorithm"]):
            datasets = sorted(set(records.loc[records["algorithm"] == "active_decorate_mse", "dataset"]))
            for baseline, reading in [("decorate", "Margin with MSE rejection, Rand. = DECORATE of PETs"),
                                      ("decorate_mse", "Margin and Rand. both with MSE rejection")]:
                cells = probability_comparisons(records, [{"a": "active_decorate_mse", "b": baseline}], datasets)
                results += score(cells, published, reading, "active_decorate_vs_decorate")
            cells = probability_comparisons(records, [{"a": "active_decorate_js", "b": "active_decorate"}], datasets)
            results += score(cells, published, "Margin with 0/1 rejection (ch7_cpe; JS vs. Margin, same datasets)",
                             "active_decorate_js_vs_active_decorate")
            cells = probability_comparisons(records, [{"a": "active_decorate_js", "b": "active_decorate_mse"}], datasets)
            results += score(cells, published, "Margin with MSE rejection (JS vs. Margin)",
                             "active_decorate_js_vs_active_decorate")
        if {"active_decorate_j48", "decorate_j48"} <= set(records["algorithm"]):
            datasets = sorted(set(records.loc[records["algorithm"] == "active_decorate_j48", "dataset"]))
            cells = probability_comparisons(records, [{"a": "active_decorate_j48", "b": "decorate_j48"}], datasets)
            results += score(cells, published, "Margin and Rand. both chapter 6's J48", "active_decorate_vs_decorate")
            cells = probability_comparisons(records, [{"a": "active_decorate_js", "b": "active_decorate_j48"}], datasets)
            results += score(cells, published, "Margin = chapter 6's J48 (JS vs. Margin)",
                             "active_decorate_js_vs_active_decorate")
    published_72_73 = read_published([ROOT / "config" / "published" / "ch7_tables_7.1-7.4.tsv"])
    published_72_73 = published_72_73[published_72_73["table"].isin(["7.2", "7.3"]) & (published_72_73["dataset"] != "")]
    published_72_73 = published_72_73.assign(value=pd.to_numeric(published_72_73["value"], errors="coerce"))
    for experiment in ("ch7_binary", "ch7_multiclass"):
        records = pd.read_parquet(ROOT / "reproduced" / experiment / "records.parquet")
        frame = schedules(records, "bootstrap_js", "bagged_pets")
        for name in SCHEDULES:
            cells = frame[["dataset"]].assign(**{s: frame[f"{s}|{name}"] for s in STATISTICS.values()})
            results += [r for r in score(cells, published_72_73, f"{experiment}: schedule: {name}",
                                         "bootstrap_js_vs_bagged_pets") if r["metric"] == "mse"]
    path = ROOT / "reproduced" / "ch7_readings_aulc" / "records.parquet"
    if path.is_file():
        results += aulc_priors(pd.read_parquet(path))
    table = pd.DataFrame(results)
    table.to_csv(HERE / "readings.csv", index=False, lineterminator="\n")

    lines = ["# Readings of Table 7.1 against the published cells", "",
             "Recomputed by `python3 reproduced/ch7_readings/readings.py` from the committed records "
             "(pilot: one run of 10-fold CV). *Sign*: share of datasets with the published sign, beside "
             "*trivial* (\"A always better\"); *inside*: share of published values inside the reproduced 95 % "
             "interval (paired bootstrap over folds; – where the reading has no interval).", "",
             "| reading | comparison | metric | datasets | sign | trivial | Spearman | inside | median abs. diff. "
             "| mean rep. | mean pub. |", "| --- | --- | --- | --: | --: | --: | --: | --: | --: | --: | --: |"]
    for _, r in table.iterrows():
        lines.append(f"| {r['reading']} | {r['comparison']} | {r['metric']} | {r['datasets']} | "
                     f"{fmt(r['sign_agreement'])} | {fmt(r['trivial'])} | {fmt(r['spearman'])} | {fmt(r['inside'])} | "
                     f"{fmt(r['median_abs_difference'])} | {fmt(r['reproduced_mean'])} | {fmt(r['published_mean'])} |")
    (HERE / "readings.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
