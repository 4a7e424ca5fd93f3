"""How far chapters 6–8 agree with the dissertation, recomputed from the committed records.

Usage: ``python3 tools/replication_agreement.py [RESULTS_DIR] [--out FILE]`` (default
``reproduced``; writes ``RESULTS_DIR/agreement_ch6-8.md`` and prints it).

Why a separate command: a report's own ``replication.csv`` is what is being checked, so this
recomputes every cell from ``records.parquet`` with the library's summaries and sets it
beside the transcribed tables. Per table it gives measures that can fail, each beside the
trivial prediction it must beat:

* *per dataset*: does the reproduced comparison have the published sign (Tables 6.2-style
  reductions, 7.1–7.3, 8.2–8.3), or is the published best system the reproduced best
  (Tables 6.1, 6.2, 6.3, 6.4)? *Trivial*: "the proposed method always wins" for signs, and
  "always the published most frequent winner" for best systems;
* *Spearman*: rank correlation of the published and reproduced values of the table's cells;
* *inside*: share of published cells inside the reproduced 95 % interval (paired bootstrap
  over runs × folds), the measure that says whether a difference is more than noise.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from redecorate.report.active_learning import active_intervals, active_summary  # noqa: E402
from redecorate.report.agreement import AGREES, PRINTED_ROUNDING, REPRODUCED, cell_status  # noqa: E402
from redecorate.report.conclusions import rank_correlation, sign_agreement  # noqa: E402
from redecorate.report.probability import aulc_reading, probability_comparisons  # noqa: E402
from redecorate.report.published import read_published  # noqa: E402

PUBLISHED = ROOT / "config" / "published"


def _scale(records: pd.DataFrame, thesis_runs: int) -> str:
    runs = records["run"].nunique()
    return "thesis" if runs >= thesis_runs else f"{runs} of {thesis_runs} runs"


def _published(name: str) -> pd.DataFrame:
    rows = read_published([PUBLISHED / name])
    rows["value"] = pd.to_numeric(rows["value"], errors="coerce")
    return rows


def _best(values: Mapping[str, float], lowest: bool) -> set[str]:
    """The systems with the best value (ties all count); none if no value is defined."""
    known = {k: v for k, v in values.items() if v is not None and np.isfinite(v)}
    if not known:
        return set()
    target = min(known.values()) if lowest else max(known.values())
    return {k for k, v in known.items() if v == target}


def _best_system_row(table: str, what: str, scale: str, published: pd.DataFrame, reproduced: pd.DataFrame,
                     statistic: str, lowest: bool, never: float) -> dict[str, object]:
    """Per dataset: is a published best system a reproduced best system? Beside "always the
    published most frequent winner". ``never`` stands for a target never reached."""
    agree, trivial_hits, datasets = [], [], []
    pub_best = {}
    for dataset, rows in published.groupby("dataset"):
        values = {s: (never if np.isnan(v) else v) for s, v in zip(rows["system"], rows["value"], strict=True)}
        pub_best[dataset] = _best(values, lowest)
    counts = pd.Series([s for best in pub_best.values() for s in best]).value_counts()
    favourite = counts.index[0] if len(counts) else ""
    for dataset, best in pub_best.items():
        mine = reproduced[reproduced["dataset"] == dataset]
        if mine.empty:
            continue
        values = {s: (never if v is None or not np.isfinite(v) else v)
                  for s, v in zip(mine["system"], mine[statistic], strict=True)}  # fmt: skip
        ours = _best(values, lowest)
        agree.append(bool(ours & best))
        trivial_hits.append(favourite in best)
        datasets.append(dataset)
    merged = published.merge(reproduced, on=["dataset", "system"])
    return {"table": table, "measure": what, "scale": scale, "datasets": len(datasets),
            "agreement": float(np.mean(agree)) if agree else np.nan,
            "trivial": float(np.mean(trivial_hits)) if trivial_hits else np.nan,
            "trivial_prediction": f"always {favourite}",
            "spearman": rank_correlation(merged[statistic].astype(float), merged["value"])}


def _inside(published: pd.DataFrame, reproduced: pd.DataFrame, intervals: pd.DataFrame,
            statistic: str) -> float:
    """Share of published cells inside the reproduced 95 % interval."""
    merged = (published.merge(reproduced[["dataset", "system", statistic]], on=["dataset", "system"])
              .merge(intervals[intervals["statistic"] == statistic], on=["dataset", "system"]))  # fmt: skip
    statuses = [cell_status(p, r, lo, hi, ran=True, tolerance=PRINTED_ROUNDING)
                for p, r, lo, hi in zip(merged["value"], merged[statistic], merged["low"], merged["high"], strict=True)]
    statuses = [s for s in statuses if s in REPRODUCED]
    return float(np.mean([s == AGREES for s in statuses])) if statuses else np.nan


def chapter_6(results: Path) -> list[dict[str, object]]:
    """Tables 6.1–6.4 from ch6_active, ch6_utility and ch6_committees."""
    published = _published("ch6_tables_6.1-6.4.tsv")
    rows = []
    specs = [("ch6_active", ["qbag", "qboost", "active_decorate"], "6.1", "6.2"),
             ("ch6_utility", ["active_decorate", "active_decorate_jsdiv"], "6.3", "6.3")]
    for experiment, others, count_table, reduction_table in specs:
        path = results / experiment / "records.parquet"
        if not path.is_file():
            continue
        records = pd.read_parquet(path)
        datasets = sorted(records["dataset"].unique())
        summary = active_summary(records, "decorate", others, datasets)
        intervals = active_intervals(records, "decorate", others, datasets)
        scale = _scale(records, 2)
        counts = published[(published["table"] == count_table) & (published["statistic"] == "examples_to_target")
                           & published["system"].isin(["decorate", *others])]  # fmt: skip
        counts = counts[counts["system"].isin(others)] if count_table == "6.3" else counts
        rows.append(_best_system_row(count_table, "examples to the target: fastest system", scale, counts,
                                     summary, "examples_to_target", lowest=True, never=np.inf))
        rows[-1]["inside"] = _inside(counts, summary, intervals, "examples_to_target")
        reductions = published[(published["table"] == reduction_table)
                               & (published["statistic"] == "top20_error_reduction")]  # fmt: skip
        row = _best_system_row(reduction_table, "top-20 % reduction: best system", scale, reductions,
                               summary, "top20_error_reduction", lowest=False, never=-np.inf)
        row["inside"] = _inside(reductions, summary, intervals, "top20_error_reduction")
        rows.append(row)
    path = results / "ch6_committees" / "records.parquet"
    if path.is_file():
        records = pd.read_parquet(path)
        others = ["select_with_bagging", "select_with_adaboost", "select_with_decorate"]
        datasets = sorted(records["dataset"].unique())
        summary = active_summary(records, "decorate", others, datasets)
        intervals = active_intervals(records, "decorate", others, datasets)
        reductions = published[(published["table"] == "6.4") & (published["statistic"] == "error_reduction")]
        row = _best_system_row("6.4", "all-points reduction: best committee", _scale(records, 2), reductions,
                               summary, "error_reduction", lowest=False, never=-np.inf)
        row["inside"] = _inside(reductions, summary, intervals, "error_reduction")
        rows.append(row)
    return rows


def _sign_row(table: str, measure: str, scale: str, reproduced: pd.Series, published: pd.Series,
              inside: float) -> dict[str, object]:
    signs = sign_agreement(reproduced, published)
    return {"table": table, "measure": measure, "scale": scale, "datasets": signs.compared,
            "agreement": signs.agreement, "trivial": signs.trivial,
            "trivial_prediction": "A always better", "spearman": rank_correlation(reproduced, published),
            "inside": inside}


def chapter_7(results: Path) -> list[dict[str, object]]:
    """Tables 7.1–7.3: sign per dataset and comparison, MSE and AULC."""
    import yaml

    published = _published("ch7_tables_7.1-7.4.tsv")
    rows = []
    for experiment, table in [("ch7_cpe", "7.1"), ("ch7_binary", "7.2"), ("ch7_multiclass", "7.3")]:
        path = results / experiment / "records.parquet"
        if not path.is_file():
            continue
        records, _ = aulc_reading(pd.read_parquet(path))
        spec = yaml.safe_load((ROOT / "config" / "experiments" / f"{experiment}.yaml").read_text())
        comparisons = [c for c in spec["report"]["comparisons"] if str(c["table"]) == table]
        cells = probability_comparisons(records, comparisons, sorted(records["dataset"].unique()))
        for statistic, label in [("mse_reduction", "MSE"), ("aulc_increase", "AULC")]:
            pub = published[(published["table"] == table) & (published["statistic"] == statistic)]
            merged = pub.merge(cells, on=["comparison", "dataset"])
            statuses = [cell_status(p, r, lo, hi, ran=True, tolerance=PRINTED_ROUNDING) for p, r, lo, hi in zip(
                merged["value"], merged[statistic], merged[f"{statistic}_low"], merged[f"{statistic}_high"], strict=True)]
            inside = float(np.mean([s == AGREES for s in statuses])) if statuses else np.nan
            rows.append(_sign_row(table, f"{label}: sign per dataset and comparison", _scale(records, 10),
                                  merged[statistic], merged["value"], inside))
    return rows


def chapter_8(results: Path) -> list[dict[str, object]]:
    """Tables 8.2 and 8.3: sign of the all-points error reduction per (UCI) dataset."""
    published = _published("ch8_tables_8.2-8.3.tsv")
    rows = []
    for path, a, b, table in [(results / "ch8_afa" / "records.parquet", "j48_error_sampling", "j48_random", "8.2"),
                              (results / "ch8_afa" / "table_8.3_pilot" / "records.parquet",
                               "decorate_error_sampling", "decorate_random", "8.3")]:  # fmt: skip
        if not path.is_file():
            continue
        records = pd.read_parquet(path)
        datasets = sorted(records["dataset"].unique())
        summary = active_summary(records, b, [a], datasets)
        summary = summary[summary["system"] == a]
        intervals = active_intervals(records, b, [a], datasets)
        pub = published[(published["table"] == table) & (published["statistic"] == "error_reduction")
                        & published["dataset"].isin(datasets)].assign(system=a)  # fmt: skip
        merged = pub.merge(summary, on=["dataset", "system"])
        rows.append(_sign_row(table, "error reduction: sign per dataset", _scale(records, 5),
                              merged["error_reduction"], merged["value"],
                              _inside(pub, summary, intervals, "error_reduction")))
    return rows


def agreement_table(results: Path) -> pd.DataFrame:
    """Every table of chapters 6–8 that ``results`` holds records for, one row per measure."""
    return pd.DataFrame(chapter_6(results) + chapter_7(results) + chapter_8(results))


def render(table: pd.DataFrame, results: Path) -> str:
    def fmt(value: object) -> str:
        return "–" if value is None or (isinstance(value, float) and not np.isfinite(value)) else f"{value:.2f}"

    lines = [f"# Chapters 6–8 against the dissertation, recomputed from `{results}/*/records.parquet`", "",
             "Command: `python3 tools/replication_agreement.py " + str(results) + "`. *Agreement*: share of "
             "datasets where the reproduced comparison has the published sign, or where a published best "
             "system is the reproduced best; *trivial*: what the named trivial prediction scores on the same "
             "datasets; *Spearman*: published vs reproduced values; *inside*: share of published cells "
             "inside the reproduced 95 % interval (paired bootstrap over runs × folds).", "",
             "| table | measure | scale | datasets | agreement | trivial | trivial prediction | Spearman | inside |",
             "| --- | --- | --- | --: | --: | --: | --- | --: | --: |"]
    for _, r in table.iterrows():
        lines.append(f"| {r['table']} | {r['measure']} | {r['scale']} | {r['datasets']} | {fmt(r['agreement'])} | "
                     f"{fmt(r['trivial'])} | {r['trivial_prediction']} | {fmt(r['spearman'])} | {fmt(r['inside'])} |")
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", nargs="?", default="reproduced", type=Path)
    parser.add_argument("--out", type=Path, default=None, help="default: RESULTS/agreement_ch6-8.md")
    args = parser.parse_args(argv)
    text = render(agreement_table(args.results), args.results)
    out = args.out or args.results / "agreement_ch6-8.md"
    out.write_text(text, encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
