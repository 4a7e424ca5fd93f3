"""Chapter 6's open readings, scored against the printed Tables 6.1, 6.3 and 6.4.

Why: the dissertation leaves several aggregation choices open (docs/experiments.md, Chapter
6): which points form the target error's "last 50 training examples" when the folds' pools
differ, which crossing of the target counts, how ties and the top 20 % are counted, what the
significance test pairs. This script recomputes Tables 6.1 and 6.3 from the committed records
under every reading and scores each with measures that can fail: the per-dataset winner
against the printed one (beside the trivial rule "always the printed most frequent winner"),
Spearman's rho of printed vs reproduced counts, and the target error's distance from the
printed one. It adds a bootstrap over folds of "examples needed", and Table 6.4 under the
selection-utility readings run by ch6_committees_readings.yaml (when its records exist).

It also checks the intervals every report sets beside a printed cell (a paired bootstrap over
runs × folds, ``redecorate.report.agreement.bootstrap_interval``) without the printed values:
where the cell's value sits among its replicates, and whether the interval of one run's folds
holds the other run's value, missing on either side about equally, as it should.

Run from the repository root: ``PYTHONPATH=src python3 reproduced/ch6_readings/readings.py``.
Writes readings.md, readings.csv and bootstrap.csv next to this file.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats as scipy_stats

from redecorate.report.active_learning import active_summary, curve_statistics, system_fold_errors
from redecorate.report.agreement import BOOTSTRAP_REPLICATES, _replicate_weights, bootstrap_interval
from redecorate.report.curves import fold_curve_pair, fold_errors
from redecorate.report.published import read_published
from redecorate.report.tables import markdown_table
from redecorate.stats.learning_curves import (
    AVERAGINGS,
    CROSSINGS,
    PAIRINGS,
    ROUNDINGS,
    SELECTIONS,
    WINDOWS,
    bootstrap_examples_needed,
    fold_data_utilization,
    fold_first_crossings,
    top_error_reduction,
)

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
PUBLISHED = ROOT / "config" / "published" / "ch6_tables_6.1-6.4.tsv"
ACTIVE = ("decorate", ["qbag", "qboost", "active_decorate"])
UTILITY = ("decorate", ["active_decorate", "active_decorate_jsdiv"])
RESAMPLES = 300
TIES = ("all", "none")


def _records(experiment: str) -> pd.DataFrame:
    return pd.read_parquet(ROOT / "reproduced" / experiment / "records.parquet")


def _scale(experiment: str, runs: int = 2) -> str:
    """The runs an experiment's committed records hold, against the thesis's 2 (read, not
    written by hand: the header stays true as the campaign adds runs)."""
    held = int(_records(experiment)["run"].nunique())
    return "thesis scale, 2 runs" if held >= runs else f"pilot: {held} of {runs} runs"


def _published(table: str, statistic: str) -> pd.DataFrame:
    """dataset × system of one printed statistic (NaN for "-")."""
    p = read_published([str(PUBLISHED)])
    rows = p[(p["table"] == table) & (p["statistic"] == statistic)]
    return rows.pivot_table(index="dataset", columns="system", values="value", dropna=False)


def _winners(row: pd.Series, lower_is_better: bool) -> set[str]:
    values = row.dropna()
    if values.empty:
        return set()
    best = values.min() if lower_is_better else values.max()
    return set(values.index[values == best])


def _agreement(reproduced: pd.DataFrame, published: pd.DataFrame, lower_is_better: bool,
               ties: str) -> tuple[int, dict[str, int]]:
    """Datasets whose reproduced winner is the printed one, and the "No. of wins" row.

    ``ties="all"``: a tie gives a win to every tied system (and agrees when the printed
    winner is among them); ``"none"``: a tie gives no win and never agrees.
    """
    agree, wins = 0, dict.fromkeys(reproduced.columns, 0)
    for dataset in published.index:
        mine = _winners(reproduced.loc[dataset], lower_is_better)
        theirs = _winners(published.loc[dataset], lower_is_better)
        if ties == "none" and len(mine) > 1:
            continue
        for system in mine:
            wins[system] += 1
        agree += bool(mine & theirs)
    return agree, wins


def _trivial(published: pd.DataFrame, lower_is_better: bool) -> tuple[str, int]:
    """The printed most frequent winner and on how many datasets it wins."""
    counts = pd.Series(0, index=published.columns)
    for dataset in published.index:
        for system in _winners(published.loc[dataset], lower_is_better):
            counts[system] += 1
    return str(counts.idxmax()), int(counts.max())


def _spearman(a: pd.DataFrame, b: pd.DataFrame) -> tuple[float, int]:
    x = a.to_numpy(dtype=float).ravel()
    y = b.reindex_like(a).to_numpy(dtype=float).ravel()
    both = np.isfinite(x) & np.isfinite(y)
    if both.sum() < 3:
        return float("nan"), int(both.sum())
    return float(scipy_stats.spearmanr(x[both], y[both]).statistic), int(both.sum())


def _counts(summary: pd.DataFrame, column: str) -> pd.DataFrame:
    return summary.pivot_table(index="dataset", columns="system", values=column, dropna=False)


Curves = dict[tuple[str, str], tuple[np.ndarray, np.ndarray, np.ndarray]]


def fold_curves(records: pd.DataFrame, baseline: str, others: Sequence[str], datasets: Sequence[str]) -> Curves:
    """(dataset, system) -> the system's and the baseline's per-fold errors on every size
    (:func:`fold_curve_pair`), read once: every reading below starts from these."""
    out: Curves = {}
    for dataset in datasets:
        base = fold_errors(records, dataset, baseline)
        for system in [baseline, *others]:
            out[dataset, system] = fold_curve_pair(fold_errors(records, dataset, system), base)
    return out


def utilization_summary(curves: Curves, window: str, crossing: str) -> pd.DataFrame:
    """active_summary's M8 columns under one reading (without its M9 columns, which do not
    depend on the window or the crossing and cost most of its time)."""
    rows = []
    for (dataset, system), (n, mine, base) in curves.items():
        util = fold_data_utilization(n, mine, base, window=window, crossing=crossing)
        rows.append({"dataset": dataset, "system": system, "target_error": util.target_error,
                     "examples_to_target": util.examples, "utilization_ratio": util.ratio})
    return pd.DataFrame(rows)


def utilization_readings(curves: Curves, table: str, systems: Sequence[str]) -> list[dict[str, Any]]:
    """Table 6.1 / 6.3's data-utilization columns under every window × crossing × tie rule."""
    published = _published(table, "examples_to_target")[list(systems)]
    printed_target = _published("6.1", "target_error")["decorate"]
    trivial_system, trivial = _trivial(published, lower_is_better=True)
    datasets = list(published.index)
    rows = []
    for window, crossing in itertools.product(WINDOWS, CROSSINGS):
        summary = utilization_summary(curves, window, crossing)
        counts = _counts(summary, "examples_to_target").reindex(index=published.index)[list(systems)]
        rho, cells = _spearman(published, counts)
        ratio_rho, _ = _spearman(_published(table, "utilization_ratio")[list(systems)],
                                 _counts(summary, "utilization_ratio").reindex(index=published.index)[list(systems)])
        target = summary.drop_duplicates("dataset").set_index("dataset")["target_error"].reindex(published.index)
        missing = int((published.isna() == counts.isna()).to_numpy().sum())
        for ties in TIES:
            agree, wins = _agreement(counts, published, True, ties)
            rows.append({
                "table": table, "window": window, "crossing": crossing, "ties": ties,
                "winner_agreement": agree, "trivial": trivial, "trivial_system": trivial_system,
                "datasets": len(datasets), "spearman_counts": rho, "cells": cells,
                "spearman_ratios": ratio_rho, "dash_cells_agree": missing,
                "target_mae": float((target - printed_target.reindex(target.index)).abs().mean()),
                "wins": " ".join(f"{s}={wins[s]}" for s in systems),
            })  # fmt: skip
    return rows


def reduction_readings(records: pd.DataFrame, table: str, baseline: str, others: Sequence[str],
                       statistic: str = "top20_error_reduction") -> list[dict[str, Any]]:
    """Tables 6.2 / 6.3's top-20 % reductions under every rounding × pairing."""
    p = read_published([str(PUBLISHED)])
    rows_p = p[(p["table"] == table) & (p["statistic"] == statistic)]
    published = rows_p.pivot_table(index="dataset", columns="system", values="value")[list(others)]
    trivial_system, trivial = _trivial(published, lower_is_better=False)
    rows = []
    # The pairing changes only the p-values, so it is varied at the default rounding alone.
    for rounding, pairing in [(r, PAIRINGS[0]) for r in ROUNDINGS] + [(ROUNDINGS[0], p) for p in PAIRINGS[1:]]:
        summary = active_summary(records, baseline, others, list(published.index),
                                 rounding=rounding, pairing=pairing)
        mine = summary[summary["system"] != baseline]
        values = _counts(mine, statistic).reindex(index=published.index)[list(others)]
        rho, cells = _spearman(published, values)
        agree, wins = _agreement(values, published, False, "all")
        rows.append({
            "table": table, "rounding": rounding, "pairing": pairing,
            "winner_agreement": agree, "trivial": trivial, "trivial_system": trivial_system,
            "datasets": len(published), "spearman_values": rho, "cells": cells,
            "mae": float(np.nanmean((values - published).abs().to_numpy(dtype=float))),
            "significant": int(mine["top20_significant"].sum()), "of": len(mine),
            "wins": " ".join(f"{s}={wins[s]}" for s in others),
        })  # fmt: skip
    return rows


def selection_readings(records: pd.DataFrame, table: str, baseline: str, others: Sequence[str]
                       ) -> list[dict[str, Any]]:
    """Tables 6.2 / 6.3's top-20 % reductions under every selection × averaging, scored
    against the printed values (the report's reading is relative × points)."""
    published = _published(table, "top20_error_reduction")[list(others)]
    trivial_system, trivial = _trivial(published, lower_is_better=False)
    curves = {(d, s): (b.mean(axis=0), m.mean(axis=0))
              for d, s, _, m, b in system_fold_errors(records, baseline, others, list(published.index))
              if s != baseline}  # fmt: skip
    rows = []
    for selection, averaging in itertools.product(SELECTIONS, AVERAGINGS):
        values = pd.Series({key: top_error_reduction(b, m, undefined="nan", selection=selection, averaging=averaging)
                            for key, (b, m) in curves.items()}
                           ).unstack().reindex(index=published.index)[list(others)]
        difference = (published - values).to_numpy(dtype=float)
        rho, cells = _spearman(published, values)
        agree, _ = _agreement(values, published, False, "all")
        rows.append({"table": table, "selection": selection, "averaging": averaging,
                     "winner_agreement": agree, "trivial": trivial, "spearman_values": rho, "cells": cells,
                     "mae": float(np.nanmean(np.abs(difference))),
                     "printed_minus_ours": float(np.nanmean(difference))})
    return rows


INTERVAL_STATISTICS = ("top20_error_reduction", "error_reduction", "examples_to_target")


def interval_checks(records: pd.DataFrame, baseline: str, others: Sequence[str], datasets: Sequence[str],
                    experiment: str) -> list[dict[str, Any]]:
    """Per statistic: the value's percentile among its bootstrap replicates (median over the
    cells; 50 % for an unbiased statistic), and, with the folds split by run, how often one
    run's value falls below or above the other run's plain and centred 95 % intervals."""
    rows = []
    for statistic in INTERVAL_STATISTICS:
        positions: list[float] = []
        misses = dict.fromkeys(("plain_below", "plain_above", "centred_below", "centred_above"), 0)
        cells = 0
        for _, system, n, e_mine, e_base in system_fold_errors(records, baseline, others, datasets):
            if system == baseline:
                continue
            f = curve_statistics(n)[statistic]
            value = float(f(e_base.mean(axis=0)[None, :], e_mine.mean(axis=0)[None, :])[0])
            weights = _replicate_weights(len(e_base), BOOTSTRAP_REPLICATES, 0)  # the reports' replicates
            replicates = f(weights @ e_base, weights @ e_mine)
            replicates = replicates[np.isfinite(replicates)]
            if np.isfinite(value) and replicates.size:
                positions.append(100.0 * float((replicates < value).mean()))
        for fit, check in ((0, 1), (1, 0)):
            halves = [{(d, s): (n, m, b) for d, s, n, m, b in system_fold_errors(records[records["run"] == r],
                                                                                baseline, others, datasets)}
                      for r in (fit, check)]
            for key, (n, e_mine, e_base) in halves[0].items():
                if key[1] == baseline or key not in halves[1]:
                    continue
                n2, m2, b2 = halves[1][key]
                other = float(curve_statistics(n2)[statistic](b2.mean(axis=0)[None, :], m2.mean(axis=0)[None, :])[0])
                f = curve_statistics(n)[statistic]
                plain = bootstrap_interval(f, e_base, e_mine, vectorized=True, centered=False)
                centred = bootstrap_interval(f, e_base, e_mine, vectorized=True)
                if not (np.isfinite(other) and np.isfinite(plain[0]) and np.isfinite(centred[0])):
                    continue
                cells += 1
                for name, (low, high) in (("plain", plain), ("centred", centred)):
                    misses[f"{name}_below"] += other < low
                    misses[f"{name}_above"] += other > high
        rows.append({"experiment": experiment, "statistic": statistic,
                     "value_percentile": float(np.median(positions)) if positions else float("nan"),
                     "split_cells": cells, **misses})
    return rows


def fold_spread(curves: Curves, readings: Sequence[tuple[str, str]]) -> pd.DataFrame:
    """Per (dataset, system, reading): the count, its bootstrap over folds and the folds' own
    first crossings (mean, standard error, how many folds never reach the target)."""
    rows = []
    for (dataset, system), (n, mine, base) in curves.items():
        for window, crossing in readings:
            boot = bootstrap_examples_needed(n, mine, base, resamples=RESAMPLES, window=window,
                                             crossing=crossing)
            util = fold_data_utilization(n, mine, base, window=window, crossing=crossing)
            first = fold_first_crossings(n, mine, util.target_error)
            reached, hit = first[~np.isnan(first)], boot[~np.isnan(boot)]
            rows.append({
                "dataset": dataset, "system": system, "window": window, "crossing": crossing,
                "examples": util.examples,
                "boot_mean": hit.mean() if hit.size else np.nan,
                "boot_se": hit.std(ddof=1) if hit.size > 1 else np.nan,
                "boot_p05": np.percentile(hit, 5) if hit.size else np.nan,
                "boot_p95": np.percentile(hit, 95) if hit.size else np.nan,
                "boot_never": float(np.isnan(boot).mean()),
                "fold_mean": reached.mean() if reached.size else np.nan,
                "fold_se": reached.std(ddof=1) / np.sqrt(reached.size) if reached.size > 1 else np.nan,
                "folds_never": int(np.isnan(first).sum()), "folds": first.size,
            })  # fmt: skip
    return pd.DataFrame(rows)


def committee_readings(records: pd.DataFrame, thesis: pd.DataFrame) -> pd.DataFrame:
    """Table 6.4: % error reduction over all points, printed vs each selection reading (run 0
    of this experiment; the thesis-scale ch6_committees beside it)."""
    published = _published("6.4", "error_reduction")
    rows = []
    for source, frame in (("ch6_committees (2 runs)", thesis), ("ch6_committees run 0", thesis[thesis["run"] == 0]),
                          ("ch6_committees_readings (pilot)", records)):
        present = sorted(set(frame["algorithm"]) - {"decorate"})
        datasets = [d for d in published.index if d in set(records["dataset"])]
        summary = active_summary(frame, "decorate", present, datasets)
        for row in summary[summary["system"] != "decorate"].itertuples():
            printed_as = next((c for c in published.columns if row.system.startswith(str(c))), None)
            printed = np.nan if printed_as is None else published.at[row.dataset, printed_as]
            rows.append({"source": source, "dataset": row.dataset, "system": row.system,
                         "error_reduction": row.error_reduction, "p": row.error_reduction_p,
                         "significant": row.error_reduction_significant, "printed": printed})
    return pd.DataFrame(rows)


def baseline_check(run: pd.DataFrame, thesis: pd.DataFrame) -> str:
    """Is this run's DECORATE baseline ch6_committees' run 0 (same seed and settings)? If not,
    the vote-margin rows are compared with a baseline other than the margin rows'."""
    key = ["dataset", "fold", "point"]
    mine = run[(run["algorithm"] == "decorate") & (run["run"] == 0)].set_index(key)["value"]
    theirs = thesis[(thesis["algorithm"] == "decorate") & (thesis["run"] == 0)].set_index(key)["value"]
    both = mine.index.intersection(theirs.index)
    gap = float((mine[both] - theirs[both]).abs().max()) if len(both) else float("nan")
    return (f"DECORATE on random samples, this run vs ch6_committees run 0: {len(both)} shared curve "
            f"points, largest accuracy difference {gap:.4f} points.")


def _table(frame: pd.DataFrame, columns: Sequence[str], digits: Mapping[str, str] | None = None) -> str:
    digits = digits or {}
    body = [[("–" if pd.isna(v) else format(v, digits.get(c, ""))) if not isinstance(v, str) else v
             for c, v in zip(columns, row, strict=True)] for row in frame[list(columns)].itertuples(index=False)]
    return markdown_table(list(columns), body)


def main() -> None:
    active, utility = _records("ch6_active"), _records("ch6_utility")
    datasets = list(_published("6.1", "examples_to_target").index)
    curves_61 = fold_curves(active, *ACTIVE, datasets)
    curves_63 = fold_curves(utility, *UTILITY, datasets)
    # The shortcut must be active_summary's own reading: check it on the default.
    default = active_summary(active, *ACTIVE, datasets).set_index(["dataset", "system"])
    mine = utilization_summary(curves_61, WINDOWS[0], CROSSINGS[0]).set_index(["dataset", "system"])
    pd.testing.assert_series_equal(default["examples_to_target"].astype(float).sort_index(),
                                   mine["examples_to_target"].astype(float).sort_index())
    t61 = pd.DataFrame(utilization_readings(curves_61, "6.1", ["decorate", *ACTIVE[1]]))
    t63 = pd.DataFrame(utilization_readings(curves_63, "6.3", UTILITY[1]))
    r62 = pd.DataFrame(reduction_readings(active, "6.2", *ACTIVE))
    r63 = pd.DataFrame(reduction_readings(utility, "6.3", *UTILITY))
    selections = pd.DataFrame(selection_readings(active, "6.2", *ACTIVE) + selection_readings(utility, "6.3", *UTILITY))
    selections.to_csv(HERE / "selections.csv", index=False)
    intervals = pd.DataFrame(interval_checks(active, *ACTIVE, datasets, "ch6_active")
                             + interval_checks(utility, *UTILITY, datasets, "ch6_utility"))
    intervals.to_csv(HERE / "intervals.csv", index=False)
    spread = fold_spread(curves_61, [("common", "first"), ("union", "first")])
    spread.to_csv(HERE / "bootstrap.csv", index=False)
    readings = pd.concat([t61.assign(kind="utilization"), t63.assign(kind="utilization"),
                          r62.assign(kind="reduction"), r63.assign(kind="reduction")], ignore_index=True)
    readings.to_csv(HERE / "readings.csv", index=False)

    own = HERE / "records.parquet"
    committees, same_baseline = pd.DataFrame(), ""
    if own.is_file():
        run, thesis = pd.read_parquet(own), _records("ch6_committees")
        committees = committee_readings(run, thesis)
        committees.to_csv(HERE / "committees.csv", index=False)
        same_baseline = baseline_check(run, thesis)

    u_cols = ["window", "crossing", "ties", "winner_agreement", "trivial", "spearman_counts", "cells",
              "spearman_ratios", "dash_cells_agree", "target_mae", "wins"]
    fmt = {"spearman_counts": ".3f", "spearman_ratios": ".3f", "target_mae": ".3f", "mae": ".2f",
           "spearman_values": ".3f", "error_reduction": ".2f", "p": ".3f", "printed": ".2f",
           "examples": ".0f", "boot_mean": ".0f", "boot_se": ".0f", "boot_p05": ".0f", "boot_p95": ".0f",
           "boot_never": ".2f", "fold_mean": ".0f", "fold_se": ".0f"}
    r_cols = ["rounding", "pairing", "winner_agreement", "trivial", "spearman_values", "mae", "significant",
              "of", "wins"]
    lines = [
        "# Chapter 6 readings, scored against the printed tables",
        "",
        "Generated by `PYTHONPATH=src python3 reproduced/ch6_readings/readings.py` from the committed",
        f"records: reproduced/ch6_active ({_scale('ch6_active')}), reproduced/ch6_utility "
        f"({_scale('ch6_utility')}),",
        f"reproduced/ch6_committees ({_scale('ch6_committees')}) and, for Table 6.4's selection "
        "readings, this",
        "folder's records.parquet (pilot). The readings are defined in docs/experiments.md, Chapter 6.",
        "",
        "`winner_agreement`: datasets whose reproduced fastest (or largest-reduction) system is the",
        "printed one; `trivial`: the same for always answering the printed most frequent winner",
        f"(Table 6.1: {t61['trivial_system'].iloc[0]}, Table 6.3: {t63['trivial_system'].iloc[0]}). "
        "`spearman_counts`: printed vs reproduced counts over the cells both have (`cells`);",
        "`dash_cells_agree`: cells where both have a count or both have \"-\"; `target_mae`: mean",
        "|reproduced − printed| target error (points of %).",
        "",
        "## Table 6.1: examples to reach the target error (ch6_active)",
        "",
        _table(t61, u_cols, fmt),
        "",
        "## Table 6.3: margins vs JS divergence, data utilization (ch6_utility)",
        "",
        _table(t63, u_cols, fmt),
        "",
        "## Tables 6.2 and 6.3: top-20 % error reduction (rounding of 20 % of P; test pairing)",
        "",
        "`significant`: cells with a significant reduction (printed: Table 6.3 says all 30 are).",
        "",
        _table(pd.concat([r62, r63]), ["table", *r_cols], fmt),
        "",
        "## Tables 6.2 and 6.3: which points are the top 20 %, and what is averaged over them",
        "",
        "\"The percentage error reduction averaged over only the 20 % of points on the learning curve,",
        "where the largest improvements are produced\" [L1249]: `selection` relative picks the points",
        "with the largest % reduction, absolute the largest difference of the errors; `averaging`",
        "points takes the mean of the % reductions there, errors the % reduction of the mean errors",
        "there. `printed_minus_ours`: the mean signed difference (the report's reading is relative ×",
        "points).",
        "",
        _table(selections, ["table", "selection", "averaging", "winner_agreement", "trivial", "spearman_values",
                            "cells", "mae", "printed_minus_ours"], {**fmt, "printed_minus_ours": ".2f"}),
        "",
        "## Intervals: are they centred on the value they bound?",
        "",
        "Without the printed values. `value_percentile`: where a cell's value on all folds sits among",
        f"its {BOOTSTRAP_REPLICATES} bootstrap replicates (median over the cells; 50 for an unbiased",
        "statistic). With the folds split by run, `plain_*`/`centred_*` count how often one run's value",
        "falls below or above the other run's 95 % interval, plain percentile or centred on the value",
        "(the reports' intervals, `redecorate.report.agreement.bootstrap_interval`): an interval around",
        "the value misses on both sides about equally.",
        "",
        _table(intervals, ["experiment", "statistic", "value_percentile", "split_cells", "plain_below",
                           "plain_above", "centred_below", "centred_above"], {"value_percentile": ".0f"}),
        "",
        f"## How stable is a first crossing? Bootstrap over folds ({RESAMPLES} resamples), Table 6.1",
        "",
        "`examples`: the count on the mean curve; `boot_*`: the same count over resampled folds",
        "(standard deviation = bootstrap standard error, 5-95 % interval, share of resamples that",
        "never reach the target); `fold_mean`/`fold_se`: the folds' own first crossings of the",
        "target (mean and standard error over the folds that reach it; `folds_never` did not).",
        "",
        _table(spread, ["dataset", "system", "window", "examples", "boot_mean", "boot_se", "boot_p05",
                        "boot_p95", "boot_never", "fold_mean", "fold_se", "folds_never"], fmt),
        "",
    ]
    if not committees.empty:
        lines += [
            "## Table 6.4: which utility do the Bagging and AdaBoost selection committees use?",
            "",
            "% error reduction over DECORATE, all points up to the maximum train size. `printed` is",
            "Table 6.4's value for the system the row reads (select_with_bagging_* = \"Select w/",
            "Bagging\", select_with_adaboost_* = \"Select w/ AdaBoost\").",
            "",
            _table(committees, ["source", "dataset", "system", "error_reduction", "p", "printed"], fmt),
            "",
            same_baseline,
            "",
        ]
    (HERE / "readings.md").write_text("\n".join(lines), encoding="utf-8")


if __name__ == "__main__":
    main()
