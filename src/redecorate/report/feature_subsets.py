"""Report of the ``feature_subsets`` kind: Bommaganti's Tables 5–7 and Figs. 10–22, and
reproduced vs published.

The source prints test error (%) as mean±x at ensemble size 25, one table per subset size
(k = 2, ≤ 6, ≤ 12), with a star on the best technique of each row; its figures plot error
against ensemble size per dataset. Here ``x`` is read as the standard deviation over runs of
each run's cross-validated error (the source never defines it).

Reproduced vs published, per table: the cells (mean error) beside the printed ones; whether
our best technique per dataset is the starred one, beside what predicting the source's most
frequent winner everywhere scores; per technique, whether it beats all-feature Bagging on the
same datasets as in the source (sign agreement, beside "it always beats Bagging") and the
rank correlation of those differences. All through :mod:`redecorate.report.conclusions`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from redecorate.protocol.settings import ReportSettings
from redecorate.report.agreement import (
    evidence_frame,
    explanations,
    mean_intervals,
    printed_cells,
    signed_differences,
    with_agreement_section,
)
from redecorate.report.conclusions import (
    comparability,
    comparability_lines,
    rank_correlation,
    sign_agreement,
)
from redecorate.report.curves import ran_datasets
from redecorate.report.figures import MARKERS, new_figure, outside_legend, save_figure
from redecorate.report.published import (
    pivot_statistics,
    read_disagreements,
    read_published,
)
from redecorate.report.replication_report import ReplicationReport
from redecorate.report.tables import fmt, markdown_table

if TYPE_CHECKING:
    from redecorate.protocol.settings import ReportOutputs

__all__ = ["BASELINE", "column_name", "error_statistics", "evidence", "fs_conclusions", "write_report"]

BASELINE = "bagging"
"""All-feature Bagging: what every technique of Tables 5–7 is set against."""

STRATEGY_NAMES = {"random": "Random", "top_gain": "I. Gain", "cumulative_gain": "C. Gain",
                  "feature_boost": "F. Boost"}  # fmt: skip
"""The source's column headings of Tables 5–7."""


def column_name(label: str, params: Mapping[str, Any]) -> str:
    """A technique's column heading: the source's name for its strategy, or the baseline's."""
    if "strategy" in params:
        return STRATEGY_NAMES.get(str(params["strategy"]), str(params["strategy"]))
    return {"j48": "Single DT", "bagging": "Bagging Ensemble"}.get(label, label)


def error_statistics(records: pd.DataFrame) -> pd.DataFrame:
    """Per (dataset, algorithm, size): mean test error (%) over runs × folds and its
    standard deviation over the runs' own means (NaN with one run)."""
    acc = records[records["metric"] == "accuracy"].assign(error=lambda r: 100.0 - r["value"])
    per_run = acc.groupby(["dataset", "algorithm", "point", "run"])["error"].mean()
    sd = per_run.groupby(["dataset", "algorithm", "point"]).std(ddof=1)
    mean = acc.groupby(["dataset", "algorithm", "point"])["error"].mean()
    out = pd.DataFrame({"error_mean": mean, "error_sd": sd}).reset_index()
    return out.rename(columns={"point": "size"})


def _table_frame(stats: pd.DataFrame, tables: Mapping[str, Sequence[str]], size: int,
                 datasets: Sequence[str]) -> pd.DataFrame:
    """Long form of the reproduced Tables 5–7 with the best (lowest mean) marked per row."""
    rows = []
    at = stats[stats["size"] == size].set_index(["dataset", "algorithm"])
    for table, labels in tables.items():
        for dataset in datasets:
            cells = [(a, at.loc[(dataset, a)]) for a in labels if (dataset, a) in at.index]
            if not cells:
                continue
            best = min(cells, key=lambda c: c[1]["error_mean"])[0]
            rows += [{"table": str(table), "dataset": dataset, "algorithm": a, "size": size,
                      "error_mean": c["error_mean"], "error_sd": c["error_sd"], "best": a == best}
                     for a, c in cells]  # fmt: skip
    return pd.DataFrame(rows, columns=["table", "dataset", "algorithm", "size", "error_mean",
                                       "error_sd", "best"])


def _markdown_tables(frame: pd.DataFrame, tables: Mapping[str, Sequence[str]],
                     params: Mapping[str, Mapping[str, Any]], size: int) -> str:
    out = [f"# Error (%) of ensembles of feature subsets, ensemble size {size}", "",
           "mean±sd: mean test error over runs × folds ± standard deviation of the runs' "
           "errors; `*` = best technique of the row (Bommaganti Tables 5–7).", ""]  # fmt: skip
    for table, labels in tables.items():
        here = frame[frame["table"] == str(table)]
        if here.empty:
            continue
        header = ["Dataset", *(column_name(a, params.get(a, {})) for a in labels)]
        body = []
        for dataset, rows in here.groupby("dataset", sort=False):
            by = rows.set_index("algorithm")
            body.append([dataset, *(
                f"{fmt(by.loc[a, 'error_mean'])}±{fmt(by.loc[a, 'error_sd'])}"
                + ("*" if by.loc[a, "best"] else "") if a in by.index else "–" for a in labels)])
        ks = sorted({int(params.get(a, {}).get("k", 0)) for a in labels} - {0})
        out += [f"## Table {table} (replicated): subset size k = {', '.join(map(str, ks))} "
                "(capped at the number of features)", "", markdown_table(header, body), ""]
    return "\n".join(out)


def _figures(stats: pd.DataFrame, tables: Mapping[str, Sequence[str]],
             params: Mapping[str, Mapping[str, Any]], figures: Path) -> int:
    """Figs. 10–22: per dataset, error against ensemble size, one panel per table."""
    import matplotlib.style

    written = 0
    for dataset, rows in stats.groupby("dataset", sort=True):
        with matplotlib.style.context("default"):
            fig = new_figure((4.0 * len(tables), 3.6))
            axes = fig.subplots(1, len(tables), squeeze=False)[0]
            for ax, (table, labels) in zip(axes, tables.items(), strict=True):
                for i, label in enumerate(labels):
                    curve = rows[rows["algorithm"] == label].sort_values("size")
                    if curve.empty:
                        continue
                    ax.plot(curve["size"], curve["error_mean"], marker=MARKERS[i % len(MARKERS)],
                            markersize=3, label=column_name(label, params.get(label, {})))  # fmt: skip
                ks = sorted({int(params.get(a, {}).get("k", 0)) for a in labels} - {0})
                ax.set_title(f"Table {table}: k = {', '.join(map(str, ks))}", fontsize=9)
                ax.set_xlabel("Ensemble size", fontsize=8)
                ax.set_ylabel("Error (%)", fontsize=8)
                ax.grid(True, linewidth=0.3)
                ax.tick_params(labelsize=7)
            fig.suptitle(f"{dataset}: error against ensemble size", fontsize=10)
            outside_legend(fig, axes[0], fontsize=7)
            save_figure(fig, figures / f"fs_error_vs_size_{dataset}", ("png", "pdf"))
            written += 1
    return written


def _published(paths: Sequence[str]) -> pd.DataFrame:
    """The printed cells: table, dataset, system, mean, sd and best (the starred cell)."""
    rows = read_published(paths)
    wide = pivot_statistics(rows[rows["metric"] == "error"], ["table", "dataset", "system"], ("mean", "sd", "best"))
    return wide.assign(best=wide["best"].fillna(0).astype(bool))


def fs_conclusions(ours: pd.DataFrame, published: pd.DataFrame, baseline: str = BASELINE) -> pd.DataFrame:
    """The tables' claims tested on the reproduction (see the module docstring).

    ``ours`` is the long form of the reproduced tables (:func:`_table_frame`), ``published``
    the printed cells (``table, dataset, system, mean, best``).
    """
    rows = []
    # No published values (a custom experiment): no claims to test, an empty table of them.
    groups = published.groupby("table", sort=True) if not published.empty else []
    for table, pub in groups:
        mine = ours[ours["table"] == str(table)]
        if mine.empty:
            continue
        datasets = sorted(set(pub["dataset"]) & set(mine["dataset"]))
        pub_best = pub[pub["best"]].set_index("dataset")["system"].reindex(datasets)
        our_best = mine[mine["best"]].drop_duplicates("dataset").set_index("dataset")["algorithm"].reindex(datasets)
        modal = pub_best.mode().iloc[0] if pub_best.notna().any() else ""
        rows.append({"table": str(table), "claim": "best technique per dataset", "system": "",
                     "datasets": len(datasets),
                     "published": f"{modal} best on {int((pub_best == modal).sum())} of {len(datasets)}",
                     "reproduced": f"{modal} best on {int((our_best == modal).sum())} of {len(datasets)}",
                     "agreement": float((pub_best == our_best).mean()) if datasets else np.nan,
                     "trivial_agreement": float((pub_best == modal).mean()) if datasets else np.nan,
                     "rank_correlation": np.nan})  # fmt: skip
        p_wide = pub.pivot_table(index="dataset", columns="system", values="mean").reindex(datasets)
        o_wide = mine.pivot_table(index="dataset", columns="algorithm", values="error_mean").reindex(datasets)
        if baseline not in p_wide or baseline not in o_wide:
            continue
        for system in [s for s in p_wide.columns if s not in (baseline, "j48") and s in o_wide]:
            rep = o_wide[baseline] - o_wide[system]  # > 0: the technique beats Bagging
            pubd = p_wide[baseline] - p_wide[system]
            agree = sign_agreement(rep, pubd)
            rows.append({"table": str(table), "claim": f"beats {baseline} (sign per dataset)",
                         "system": system, "datasets": agree.compared,
                         "published": f"{int((pubd > 0).sum())} of {agree.compared}",
                         "reproduced": f"{int((rep > 0).sum())} of {agree.compared}",
                         "agreement": agree.agreement, "trivial_agreement": agree.trivial,
                         "rank_correlation": rank_correlation(rep, pubd)})  # fmt: skip
    return pd.DataFrame(rows, columns=["table", "claim", "system", "datasets", "published",
                                       "reproduced", "agreement", "trivial_agreement",
                                       "rank_correlation"])


@dataclass(frozen=True)
class _Comparison:
    """One run's tables at the reported size, and the published cells beside them."""

    size: int
    tables: dict[str, list[str]]
    datasets: list[str]
    stats: pd.DataFrame
    frame: pd.DataFrame
    published: pd.DataFrame
    cells: pd.DataFrame


def _comparison(records: pd.DataFrame, settings: ReportSettings) -> _Comparison:
    """Mean error per (dataset, technique, size), the tables at ``report.table_size`` with
    their best technique, and the published cells beside them (empty without published values)."""
    report = settings.report
    sizes = sorted(int(s) for s in settings.points)
    size = int(report.get("table_size", max(sizes)))
    if size not in sizes:
        raise ValueError(f"experiment {settings.experiment}: report.table_size {size} is not "
                         f"among ensemble_sizes {sizes}")
    tables = {str(t): list(labels) for t, labels in report.get("tables", {}).items()} or {
        "all": list(settings.algorithms)}
    datasets = ran_datasets(records, settings)
    stats = error_statistics(records)
    frame = _table_frame(stats, tables, size, datasets)
    published = _published(settings.published) if settings.published else pd.DataFrame()
    cells = pd.DataFrame()
    if not published.empty:
        cells = published.merge(frame.rename(columns={"algorithm": "system"}),
                                on=["table", "dataset", "system"], how="left")
        cells = cells.assign(published=cells["mean"], reproduced=cells["error_mean"],
                             published_best=cells["best_x"], reproduced_best=cells["best_y"])
        cells["difference"] = cells["reproduced"] - cells["published"]
        cells["status"] = np.where(cells["reproduced"].notna(), "ok", "not run")
        cells = cells[["table", "dataset", "system", "published", "reproduced", "difference",
                       "published_best", "reproduced_best", "status"]]
    return _Comparison(size, tables, datasets, stats, frame, published, cells)


def _evidence(records: pd.DataFrame, found: _Comparison, settings: ReportSettings) -> pd.DataFrame:
    """The published mean errors printed with their intervals, and per technique and dataset
    the signed "beats all-feature Bagging" (Bagging's error − the technique's)."""
    if found.cells.empty:
        return evidence_frame([])
    cells = found.cells.assign(point=float(found.size), statistic="error")
    cells["explanation"] = explanations(cells, read_disagreements(settings.disagreements))
    acc = records[(records["metric"] == "accuracy") & (records["point"] == found.size)]
    intervals = mean_intervals(acc.assign(value=100.0 - acc["value"]), ["dataset", "algorithm", "point"])
    printed = evidence_frame(printed_cells(cells.drop(columns="status"), intervals.rename(columns={"algorithm": "system"}),
                                           ["dataset", "system", "point"]))  # fmt: skip
    pairs = [(table, label, BASELINE) for table, labels in found.tables.items() if BASELINE in labels
             for label in labels if label not in (BASELINE, "j48")]  # fmt: skip
    return evidence_frame(pd.concat([printed, signed_differences(printed, pairs, lower_better=True)],
                                    ignore_index=True))  # fmt: skip


def evidence(records: pd.DataFrame, settings: ReportSettings) -> pd.DataFrame:
    """Every published cell of the experiment's tables beside its reproduction
    (:data:`redecorate.report.agreement.EVIDENCE_COLUMNS`), without writing anything."""
    return _evidence(records, _comparison(records, settings), settings)


def write_report(records: pd.DataFrame, out: ReportOutputs, settings: ReportSettings) -> ReplicationReport:
    """Tables 5–7 and Figs. 10–22 of one ``feature_subsets`` run (written to ``out.tables``
    and ``out.figures``), and its reproduced vs published comparison (returned)."""
    found = _comparison(records, settings)
    params, size, tables, datasets = settings.params, found.size, found.tables, found.datasets
    frame, published, cells = found.frame, found.published, found.cells
    tables_dir, figures_dir = Path(out.tables), Path(out.figures)
    found.stats.to_csv(tables_dir / "fs_error_by_size.csv", index=False, lineterminator="\n")
    frame.to_csv(tables_dir / "fs_tables.csv", index=False, lineterminator="\n")
    (tables_dir / "fs_tables.md").write_text(_markdown_tables(frame, tables, params, size), encoding="utf-8")
    print(f"{_figures(found.stats, tables, params, figures_dir)} figures")
    lines = [f"# Replication report: {settings.experiment} (scale {settings.scale})", "",
             f"This run: {len(datasets)} datasets, {records['run'].nunique()} run(s) of "
             f"{records['fold'].nunique()}-fold CV, ensemble size {size}. The source "
             "(Bommaganti): 10 runs of 10-fold CV on 13 datasets, ensemble size 25.", ""]  # fmt: skip
    if published.empty:
        return ReplicationReport(markdown="\n".join([*lines, "No published values for this experiment.", ""]),
                                 cells=pd.DataFrame(), conclusions=fs_conclusions(frame, published),
                                 comparable=False)  # fmt: skip
    comparable, why = comparability(settings.scale, cells["dataset"], datasets)
    conclusions = fs_conclusions(frame, published)
    lines += comparability_lines(comparable, why)
    done = cells[cells["status"] == "ok"]
    per_table = [[t, str(len(g)), fmt(g["difference"].abs().median()),
                  f"{int((g['published_best'] & g['reproduced_best'].fillna(False).astype(bool)).sum())}"
                  f" of {int(g['published_best'].sum())}"]
                 for t, g in done.groupby("table", sort=True)]  # fmt: skip
    lines += ["## Conclusions", "",
              "*Agreement*: share of datasets where the reproduction makes the source's call "
              "(the starred technique; the technique beating Bagging or not); *trivial*: what "
              "predicting the source's most frequent winner everywhere (best technique) or "
              "\"the technique always beats Bagging\" scores on the same datasets; *rank corr.*: "
              "Spearman's correlation of the error differences to Bagging, reproduced against "
              "published.", "",
              markdown_table(["Table", "Claim", "Technique", "Datasets", "Published", "Reproduced",
                              "Agreement", "Trivial", "Rank corr."],
                             [[r["table"], r["claim"], r["system"], str(r["datasets"]), r["published"],
                               r["reproduced"], fmt(r["agreement"]), fmt(r["trivial_agreement"]),
                               fmt(r["rank_correlation"])]
                              for _, r in conclusions.iterrows()]), "",
              "## Cells per table", "",
              markdown_table(["Table", "Cells", "Median abs. diff. (error points)",
                              "Starred cells also best here"], per_table), "",
              "## Cell by cell", "",
              markdown_table(["Table", "Dataset", "Technique", "Published", "Reproduced",
                              "Difference", "Best (pub./rep.)"],
                             [[r["table"], r["dataset"], r["system"], fmt(r["published"]),
                               fmt(r["reproduced"]), fmt(r["difference"]),
                               f"{'*' if r['published_best'] else ''}/"
                               f"{'*' if pd.notna(r['reproduced_best']) and r['reproduced_best'] else ''}"]
                              for _, r in cells.iterrows()]), ""]  # fmt: skip
    markdown = with_agreement_section("\n".join(lines), _evidence(records, found, settings))
    return ReplicationReport(markdown=markdown, cells=cells, conclusions=conclusions, comparable=comparable)
