"""Chapter 7 report: class-probability estimation, reproduced vs published.

From the records of an ``active`` experiment whose systems record ``mse`` and ``aulc`` along
their learning curves (``report.variant: probability``), per comparison ``{a, b, table}`` of
``report.comparisons`` and dataset: the % MSE reduction and % AULC increase of A over B
averaged along the curve (spec M10, :func:`curve_change`), with a 95 % interval from a paired
bootstrap over runs × folds and the outcome of a paired t-test (the w/d/l of Tables
7.1–7.4); the tables in the thesis's layout, the MSE learning curves, and every published cell
beside its reproduction. The ``active`` kind's ``probability`` report (:func:`write_report`).
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from redecorate.report.agreement import (
    NOT_RUN,
    PRINTED_ROUNDING,
    REPRODUCED,
    agreement_lines,
    bootstrap_interval,
    cell_status,
    cells_lines,
    difference_interval,
    evidence_frame,
    explanations,
    known_disagreements_for,
    run_spread,
    with_known_disagreements,
)
from redecorate.report.conclusions import comparability_lines, held_sentence, sign_agreement
from redecorate.report.curves import (
    ALPHA,
    cells_comparability,
    common_points,
    common_runs,
    fold_values,
    ran_datasets,
    wdl_comparability,
)
from redecorate.report.figures import learning_curves
from redecorate.report.published import read_published
from redecorate.report.replication_report import ReplicationReport
from redecorate.report.tables import fmt, markdown_table
from redecorate.stats.significance import paired_t_test
from redecorate.stats.summary import by_batch

if TYPE_CHECKING:
    from redecorate.protocol.settings import ReportOutputs, ReportSettings

__all__ = ["AULC_PRIORS", "PROBABILITY_MEASURES", "PROBABILITY_STATISTICS", "aulc_reading",
           "curve_change", "evidence", "probability_comparisons", "write_report"]

#: chapter 7's measures: metric -> (name, True when lower is better)
PROBABILITY_MEASURES = {"mse": ("mse_reduction", True), "aulc": ("aulc_increase", False)}
PROBABILITY_STATISTICS = tuple(name for name, _ in PROBABILITY_MEASURES.values())


AULC_PRIORS = {
    "aulc_fold": "each class's area weighted by its prior in the whole training fold",
    "aulc": "each class's area weighted by its prior in the labeled set at that point",
}
"""The two readings of "AULC_k is weighted by the prior class probability of k according to
the training set" (§7.3.1), in the order the report prefers them. With the labeled set's
priors an active learner that buys more of a rare class also weights that class more, which
on hypothyroid or sick inflated AULC increases 30-fold over the thesis's; with the training
fold's the weights are the same for every system of a fold, and the reproduced increases come
within their intervals of the published (``reproduced/ch7_readings/readings.md``)."""


def aulc_reading(records: pd.DataFrame) -> tuple[pd.DataFrame, str]:
    """The records with the preferred AULC reading they hold as metric ``aulc``, and its name.

    Records that carry ``aulc_fold`` report it as the AULC; older records (labeled-set priors
    only) report ``aulc`` and say so.
    """
    metrics = set(records["metric"])
    if "aulc_fold" in metrics:
        kept = records[records["metric"] != "aulc"]
        return kept.assign(metric=kept["metric"].replace({"aulc_fold": "aulc"})), "aulc_fold"
    return records, "aulc"


def probability_comparisons(
    records: pd.DataFrame, comparisons: Sequence[Mapping[str, Any]], datasets: Sequence[str]
) -> pd.DataFrame:
    """Chapter 7's cells: % MSE reduction and % AULC increase of A over B (spec M10).

    Per dataset and comparison ``{a, b, table}``: :func:`curve_change` of the two systems'
    curves lined up by batch number (every fold makes the same 33 batches, whatever its pool
    size); its 95 % interval from a paired bootstrap over runs × folds (``*_low``,
    ``*_high``); and the significance outcome: +1 when A is significantly better (paired
    t-test over runs × folds of each system's values averaged over the points, p < 0.05), −1
    when significantly worse, 0 otherwise (the w/d/l of Tables 7.1–7.4).
    """
    rows = []
    for entry in comparisons:
        a, b = str(entry["a"]), str(entry["b"])
        for dataset in datasets:
            row: dict[str, Any] = {"table": str(entry.get("table", "")),
                                   "comparison": f"{a}_vs_{b}", "dataset": dataset}  # fmt: skip
            for metric, (name, lower_better) in PROBABILITY_MEASURES.items():
                va = fold_values(records, dataset, a, metric, align="batch")
                vb = fold_values(records, dataset, b, metric, align="batch")
                if va.empty or vb.empty:
                    row.update({name: np.nan, f"{name}_p": np.nan, f"{name}_outcome": np.nan,
                                f"{name}_low": np.nan, f"{name}_high": np.nan, f"{name}_half_width": np.nan,
                                f"{name}_df": np.nan})
                    continue
                _, ma, mb = common_points(va, vb)
                change = partial(curve_change, lower_better=lower_better)
                value = change(ma.mean(axis=0), mb.mean(axis=0))
                low, high = bootstrap_interval(change, ma, mb, vectorized=True)
                runs = common_runs(va, vb)
                sd, count = run_spread(change, runs, ma, mb, vectorized=True)
                half, df = difference_interval(sd, count, low=low, high=high, splits=len(runs))
                row.update({f"{name}_half_width": half, f"{name}_df": df})
                test = paired_t_test(ma.mean(axis=1), mb.mean(axis=1))
                better = (ma.mean() < mb.mean()) if lower_better else (ma.mean() > mb.mean())
                outcome = 0 if not test.p < ALPHA else (1 if better else -1)
                row.update({name: value, f"{name}_p": test.p, f"{name}_outcome": outcome,
                            f"{name}_low": low, f"{name}_high": high})
            rows.append(row)
    # The columns even without a row: a run on datasets the chapter does not print (the quick
    # scale's) has no cell to compare, and the report still reads the frame by its columns.
    columns = ["table", "comparison", "dataset", *(f"{name}{suffix}" for name, _ in PROBABILITY_MEASURES.values()
                                                   for suffix in ("", "_p", "_outcome", "_low", "_high",
                                                                  "_half_width", "_df"))]
    return pd.DataFrame(rows, columns=columns)


def curve_change(curve_a: np.ndarray, curve_b: np.ndarray, *, lower_better: bool) -> Any:
    """Chapter 7's "% reduction (increase) averaged along the learning curve" (spec M10).

    ``curve_a`` and ``curve_b`` are the two systems' *mean* curves (over runs × folds, on
    the same splits): the percentage change of A over B at every point, averaged over the
    points — the mean of per-point changes of the mean curves, not the change of the means
    over points, nor a mean of per-fold changes. Points where B's value is 0 are skipped.
    Matrices of curves (one per row, e.g. bootstrap replicates) give one value per row.
    """
    curve_a, curve_b = np.asarray(curve_a, dtype=np.float64), np.asarray(curve_b, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        change = (curve_b - curve_a) / curve_b if lower_better else (curve_a - curve_b) / curve_b
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # a curve without a defined point is NaN
        values = 100.0 * np.nanmean(np.where(np.isfinite(change), change, np.nan), axis=-1)
    return float(values) if np.ndim(values) == 0 else values


def _wdl(outcomes: pd.Series) -> str:
    o = outcomes.dropna()
    return f"{int((o > 0).sum())}/{int((o == 0).sum())}/{int((o < 0).sum())}"


def _probability_tables(cells: pd.DataFrame) -> list[str]:
    """The lines of ``probability_tables.md``: per table (7.1–7.4) its comparisons' cells per
    dataset, bold where significant, and the w/d/l of significant results."""
    text = []
    for table, group in cells.groupby("table", sort=False):
        names = list(dict.fromkeys(group["comparison"]))
        header = ["Dataset", *(f"% MSE red. {n}" for n in names), *(f"% AULC inc. {n}" for n in names)]
        body = []
        for dataset, rows in group.groupby("dataset", sort=False):
            by = rows.set_index("comparison")

            def cell(n: str, name: str, by: pd.DataFrame = by) -> str:
                v, o = by.at[n, name], by.at[n, f"{name}_outcome"]
                return "–" if pd.isna(v) else (f"**{v:.2f}**" if o != 0 else f"{v:.2f}")

            body.append([str(dataset), *(cell(n, "mse_reduction") for n in names),
                         *(cell(n, "aulc_increase") for n in names)])  # fmt: skip
        body.append(["w/d/l", *(_wdl(group[group["comparison"] == n]["mse_reduction_outcome"]) for n in names),
                     *(_wdl(group[group["comparison"] == n]["aulc_increase_outcome"]) for n in names)])  # fmt: skip
        text += [f"# Table {table} layout", "", "Bold: significant (paired t-test over runs × folds, "
                 "p < 0.05); w/d/l counts significant results only.", "", markdown_table(header, body), ""]  # fmt: skip
    return text


def _probability_replication(cells: pd.DataFrame, pub: pd.DataFrame, known: pd.DataFrame) -> pd.DataFrame:
    """Reproduced vs published, one row per published per-dataset cell (``pub``): the value
    with its interval and status, the known disagreements marked."""
    rows = []
    for _, p in pub.iterrows():
        mine = cells[(cells["table"] == p["table"]) & (cells["comparison"] == p["comparison"])
                     & (cells["dataset"] == p["dataset"])]  # fmt: skip
        name = p["statistic"]
        value, low, high, half, df = ((float(mine.iloc[0][name]), float(mine.iloc[0][f"{name}_low"]),
                                       float(mine.iloc[0][f"{name}_high"]), float(mine.iloc[0][f"{name}_half_width"]),
                                       float(mine.iloc[0][f"{name}_df"])) if len(mine) else (np.nan,) * 5)  # fmt: skip
        rows.append({"table": p["table"], "comparison": p["comparison"], "dataset": p["dataset"],
                     "statistic": name, "published": float(p["value"]), "reproduced": value,
                     "low": low, "high": high,
                     "status": cell_status(float(p["value"]), value, low, high, ran=bool(np.isfinite(value)),
                                           tolerance=PRINTED_ROUNDING, half_width=half),
                     "half_width": half, "df": df})  # fmt: skip
    replication = pd.DataFrame(rows, columns=["table", "comparison", "dataset", "statistic",
                                              "published", "reproduced", "low", "high", "status",
                                              "half_width", "df"])  # fmt: skip
    replication.insert(6, "difference", replication["reproduced"] - replication["published"])
    return with_known_disagreements(replication, known, system="comparison")


def _probability_conclusions(cells: pd.DataFrame, wdl: pd.DataFrame,
                             replication: pd.DataFrame) -> pd.DataFrame:
    """Per published w/d/l row (``wdl``: table × comparison × metric): the reproduced w/d/l,
    the sign agreement of the shared cells, and whether the W > L side holds."""
    conclusions = []
    for (table, comparison, metric), w in wdl.groupby(["table", "comparison", "metric"], sort=False):
        counts = w.set_index("statistic")["value"].astype(int)
        name = PROBABILITY_MEASURES[metric][0]
        mine = cells[(cells["table"] == table) & (cells["comparison"] == comparison)]
        ours = mine[f"{name}_outcome"].dropna()
        shared = replication[(replication["table"] == table) & (replication["comparison"] == comparison)
                             & (replication["statistic"] == name) & replication["status"].isin(REPRODUCED)]  # fmt: skip
        agree, trivial, _ = sign_agreement(shared["reproduced"], shared["published"])
        pub_side = int(np.sign(counts.get("sig_w", 0) - counts.get("sig_l", 0)))
        our_side = int(np.sign((ours > 0).sum() - (ours < 0).sum())) if len(ours) else None
        conclusions.append({"table": table, "comparison": comparison, "metric": metric,
                            "published_wdl": f"{counts.get('sig_w', 0)}/{counts.get('sig_d', 0)}/{counts.get('sig_l', 0)}",
                            "reproduced_wdl": _wdl(ours) if len(ours) else "",
                            "sign_agreement": agree, "trivial_agreement": trivial,
                            "holds": pd.NA if our_side is None else our_side == pub_side,
                            # "A is better than B" predicts W > L: it holds where the thesis has W > L
                            "trivial_holds": pd.NA if our_side is None else pub_side == 1})  # fmt: skip
    return pd.DataFrame(conclusions, columns=["table", "comparison", "metric", "published_wdl",
                                              "reproduced_wdl", "sign_agreement",
                                              "trivial_agreement", "holds", "trivial_holds"])  # fmt: skip


def _probability_conclusion_lines(conclusions: pd.DataFrame, comparable: bool) -> list[str]:
    """The replication report's conclusions section: how many W > L sides hold (only when
    comparable) and the table of published vs reproduced w/d/l."""
    counts = []
    if comparable:
        prediction = '"A is better than B"'
        counts = [f"All tables: {held_sentence(conclusions['holds'], conclusions['trivial_holds'], 'W > L sides', prediction)}."]
        counts += [f"Table {t}: {held_sentence(g['holds'], g['trivial_holds'], 'W > L sides', prediction)}."
                   for t, g in conclusions.groupby("table", sort=False)]  # fmt: skip
        counts = [" ".join(counts), ""]
    return ["## Conclusions (w/d/l of significant results)", "", *counts,
            "*sign agreement*: share of datasets whose value has the published sign; *trivial*: "
            "what always predicting an improvement would score.", "",
            markdown_table(["Table", "A vs B", "Metric", "W/D/L pub.", "W/D/L rep.", "Sign agreement",
                            "Trivial", "W > L side holds"],
                           [[r["table"], r["comparison"], r["metric"], r["published_wdl"],
                             r["reproduced_wdl"], fmt(r["sign_agreement"]), fmt(r["trivial_agreement"]),
                             "not comparable" if not comparable else
                             ("" if r["holds"] is pd.NA else str(r["holds"]))]
                            for _, r in conclusions.iterrows()]), ""]  # fmt: skip


@dataclass(frozen=True)
class _Replication:
    """Chapter 7's reproduced-vs-published comparison of one run, before any file is written."""

    records: pd.DataFrame
    aulc: str
    datasets: list[str]
    cells: pd.DataFrame
    replication: pd.DataFrame
    conclusions: pd.DataFrame
    wdl: pd.DataFrame
    known: pd.DataFrame


def _replication(records: pd.DataFrame, settings: ReportSettings) -> _Replication:
    """The comparisons' cells, the published per-dataset cells beside them, and the w/d/l."""
    comparisons = list(settings.report["comparisons"])
    datasets = ran_datasets(records, settings)
    records, aulc = aulc_reading(records)
    cells = probability_comparisons(records, comparisons, datasets)
    published = read_published(list(settings.published))
    tables = {str(c.get("table", "")) for c in comparisons}
    pub = published[published["table"].isin(tables)]
    known = known_disagreements_for(list(settings.published))
    replication = _probability_replication(cells, pub[pub["dataset"] != ""], known)
    wdl = pub[pub["dataset"] == ""]
    conclusions = _probability_conclusions(cells, wdl, replication)
    return _Replication(records, aulc, datasets, cells, replication, conclusions, wdl, known)


def _evidence(replication: _Replication) -> pd.DataFrame:
    """Every published per-dataset cell, printed and signed; for a table that prints only
    w/d/l counts (Table 7.4), the signed wins − losses of each comparison and measure."""
    cells = replication.replication
    printed = evidence_frame(cells.rename(columns={"comparison": "system"}).assign(
        printed=True, signed=True, explanation=explanations(cells, replication.known, system="comparison")))
    counted = set(cells["table"])
    signed = []
    for (table, comparison, metric), w in replication.wdl.groupby(["table", "comparison", "metric"], sort=False):
        if table in counted:
            continue  # the per-dataset cells of the table already say it
        counts = w.set_index("statistic")["value"]
        name = PROBABILITY_MEASURES[metric][0]
        mine = replication.cells
        ours = mine[(mine["table"] == table) & (mine["comparison"] == comparison)][f"{name}_outcome"].dropna()
        signed.append({"table": table, "system": comparison, "statistic": f"{name}: wins - losses",
                       "published": counts.get("sig_w", np.nan) - counts.get("sig_l", np.nan),
                       "reproduced": float((ours > 0).sum() - (ours < 0).sum()) if len(ours) else np.nan,
                       "status": "" if len(ours) else NOT_RUN, "signed": True})  # fmt: skip
    return evidence_frame(pd.concat([printed, evidence_frame(signed)], ignore_index=True))


def evidence(records: pd.DataFrame, settings: ReportSettings) -> pd.DataFrame:
    """Every published cell of the experiment's tables beside its reproduction
    (:data:`redecorate.report.agreement.EVIDENCE_COLUMNS`), without writing anything."""
    return _evidence(_replication(records, settings))


def write_report(records: pd.DataFrame, out: ReportOutputs, settings: ReportSettings) -> ReplicationReport:
    """Chapter 7: Tables 7.1–7.4 layouts of ``report.comparisons``, learning curves of MSE,
    reproduced vs published (the ``active`` kind's ``probability`` report)."""
    comparisons = list(settings.report["comparisons"])
    found = _replication(records, settings)
    cells, replication, conclusions, datasets = found.cells, found.replication, found.conclusions, found.datasets
    tables_dir, figures_dir = Path(out.tables), Path(out.figures)
    cells.to_csv(tables_dir / "probability_comparisons.csv", index=False, lineterminator="\n")
    text = _probability_tables(cells)
    (tables_dir / "probability_tables.md").write_text("\n".join(text), encoding="utf-8")
    systems = list(dict.fromkeys([s for c in comparisons for s in (str(c["a"]), str(c["b"]))]))
    for dataset in datasets:  # averaged by batch, as the tables are, at each batch's mean size
        learning_curves(by_batch(found.records), figures_dir / f"mse_curve_{dataset}", dataset=dataset,
                        algorithms=systems, metric="mse", experiment=settings.experiment, x="n_train",
                        xlabel="Number of labeled examples (mean over folds)")  # fmt: skip
    if len(replication):
        comparable, why = cells_comparability(settings, replication)
    elif len(conclusions):
        comparable, why = wdl_comparability(settings.scale, found.wdl, datasets)
    else:
        comparable, why = False, "no published values"
    lines = [f"# Replication report: {settings.experiment} (scale {settings.scale})", "",
             f"This run: {len(datasets)} datasets, {records['run'].nunique()} run(s) of "
             f"{records['fold'].nunique()}-fold CV. The dissertation: 10 runs of 10-fold CV on the "
             "24 datasets of chapter 7.", "",
             f"AULC: {AULC_PRIORS[found.aulc]} (`{found.aulc}`"
             + (")." if found.aulc == "aulc_fold" else "; these records predate `aulc_fold`, the reading "
                "the chapter's files now record).") + "", ""]  # fmt: skip
    lines += comparability_lines(comparable, why)
    if len(conclusions):
        lines += _probability_conclusion_lines(conclusions, comparable)
    done = replication[replication["status"].isin(REPRODUCED)]
    lines += agreement_lines(_evidence(found), by=("table", "system", "statistic"))
    lines += ["## Cells", "", f"{len(done)} of {len(replication)} published cells reproduced; median "
              f"|difference| {fmt(done['difference'].abs().median()) if len(done) else '–'}.", ""]
    if len(replication):
        lines += cells_lines(replication, ["table", "comparison", "dataset", "statistic"])
    return ReplicationReport("\n".join(lines), replication, conclusions, comparable)
