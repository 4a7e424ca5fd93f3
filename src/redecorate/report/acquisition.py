"""Chapter 8 report: % error reduction of Error Sampling over random acquisition.

From the records of an ``acquisition`` experiment (``point`` = complete instances acquired,
``value`` = test accuracy %), per comparison ``{a, b, table}`` of ``report.comparisons`` and
dataset: A's % error reduction over B averaged over all points and over the top 20 % of them
(Table 6.2/6.4's quantities, :func:`~redecorate.report.active_learning.active_summary`), bold
where significant, with 95 % intervals; the learning curves; and every published cell whose
data are public beside its reproduction (Tables 8.2 and 8.3). The ``acquisition`` kind's report
(:func:`write_report`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from redecorate.report.active_learning import active_intervals, active_summary
from redecorate.report.agreement import (
    PRINTED_ROUNDING,
    REPRODUCED,
    agreement_lines,
    cell_status,
    cells_lines,
    evidence_frame,
    explanations,
    known_disagreements_for,
    with_known_disagreements,
)
from redecorate.report.conclusions import comparability_lines, sign_agreement
from redecorate.report.curves import cells_comparability, ran_datasets
from redecorate.report.figures import learning_curves
from redecorate.report.published import read_published
from redecorate.report.replication_report import ReplicationReport
from redecorate.report.tables import display_name, fmt, markdown_table

if TYPE_CHECKING:
    from redecorate.protocol.settings import ReportOutputs, ReportSettings

__all__ = ["evidence", "write_report"]


def _reduction_cells(records: pd.DataFrame, comparisons: Sequence[Mapping[str, Any]],
                     datasets: Sequence[str]) -> tuple[pd.DataFrame, list[str]]:
    """Per comparison ``{a, b, table}`` that ran: A's reductions over B per dataset with
    their 95 % intervals (``error_reductions.csv``), and the lines of its table layout."""
    frames, text = [], []
    ran = set(records["algorithm"])
    for entry in (comparisons if datasets else []):  # no dataset of the chapter's tables ran
        a, b, table = str(entry["a"]), str(entry["b"]), str(entry.get("table", ""))
        if not {a, b} <= ran:  # a slice (--config algorithms=...) without one of the two
            continue
        summary = active_summary(records, b, [a], datasets)
        mine = summary[summary["system"] == a].assign(table=table, comparison=f"{a}_vs_{b}")
        bounds = active_intervals(records, b, [a], datasets)
        for statistic in ("error_reduction", "top20_error_reduction"):
            rows = bounds[(bounds["system"] == a) & (bounds["statistic"] == statistic)].set_index("dataset")
            mine = mine.assign(**{f"{statistic}_{end}": mine["dataset"].map(rows[end])
                                  for end in ("low", "high", "half_width", "df")})
        frames.append(mine)
        body = [[str(r["dataset"]),
                 (f"**{r['error_reduction']:.2f}**" if r["error_reduction_significant"] else fmt(r["error_reduction"])),
                 (f"**{r['top20_error_reduction']:.2f}**" if r["top20_significant"] else fmt(r["top20_error_reduction"]))]
                for _, r in mine.iterrows()]  # fmt: skip
        body.append(["Mean", fmt(mine["error_reduction"].mean()), fmt(mine["top20_error_reduction"].mean())])
        text += [f"# Table {table} layout: {display_name(a)} over {display_name(b)}", "",
                 "Bold: significant (paired t-test over runs × folds, p < 0.05).", "",
                 markdown_table(["Dataset", "% Error reduction", "Top-20 % error reduction"], body), ""]  # fmt: skip
    cells = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()
    return cells, text


def _reduction_replication(cells: pd.DataFrame, pub: pd.DataFrame, known: pd.DataFrame) -> pd.DataFrame:
    """Reproduced vs published, one row per public published cell (``pub``): a significance
    flag agrees only when equal, a reduction when inside its interval."""
    rows = []
    for _, p in pub.iterrows():
        match = cells[(cells["table"] == p["table"]) & (cells["dataset"] == p["dataset"])] if len(cells) else cells
        column = {"significant": "error_reduction_significant"}.get(p["statistic"], p["statistic"])
        value = float(match.iloc[0][column]) if len(match) and column in match.columns else np.nan
        low, high, half, df = ((float(match.iloc[0][f"{column}_low"]), float(match.iloc[0][f"{column}_high"]),
                                float(match.iloc[0][f"{column}_half_width"]), float(match.iloc[0][f"{column}_df"]))
                               if len(match) and f"{column}_low" in match.columns else (np.nan,) * 4)  # fmt: skip
        # a significance flag agrees only when equal; a reduction when within its interval
        bounded = np.isfinite(low) or np.isfinite(half)
        rows.append({"table": p["table"], "dataset": p["dataset"], "statistic": p["statistic"],
                     "published": float(p["value"]), "reproduced": value, "low": low, "high": high,
                     "status": cell_status(float(p["value"]), value, low, high, ran=bool(len(match)),
                                           tolerance=PRINTED_ROUNDING if bounded else 0.0, half_width=half),
                     "half_width": half, "df": df})  # fmt: skip
    replication = pd.DataFrame(rows, columns=["table", "dataset", "statistic", "published", "reproduced",
                                              "low", "high", "status", "half_width", "df"])  # fmt: skip
    replication.insert(5, "difference", replication["reproduced"] - replication["published"])
    return with_known_disagreements(replication, known)


def _reduction_conclusions(replication: pd.DataFrame, tables: set[str]) -> pd.DataFrame:
    """Per table: do the reductions have the published signs, and are the published
    significant ones significant again (on the reproduced cells)?"""
    conclusions = []
    for table in sorted(tables):
        shared = replication[(replication["table"] == table) & replication["status"].isin(REPRODUCED)]
        red = shared[shared["statistic"] == "error_reduction"]
        sig = shared[shared["statistic"] == "significant"]
        if len(red):
            signs = sign_agreement(red["reproduced"], red["published"])
            conclusions.append({"table": table, "claim": "sign of the error reduction per dataset",
                                "published": f"{int((red['published'] > 0).sum())} of {len(red)} positive",
                                "reproduced": f"{int((red['reproduced'] > 0).sum())} of {len(red)} positive",
                                "agreement": signs.agreement, "trivial_agreement": signs.trivial,
                                "holds": pd.NA})  # fmt: skip
        if len(sig):
            conclusions.append({"table": table, "claim": "the reductions are significant",
                                "published": f"{int(sig['published'].sum())} of {len(sig)}",
                                "reproduced": f"{int(sig['reproduced'].sum())} of {len(sig)}",
                                "agreement": float((sig["published"] == sig["reproduced"]).mean()),
                                "trivial_agreement": float((sig["published"] == 1).mean()),
                                "holds": bool((sig["reproduced"] == sig["published"]).all())})  # fmt: skip
    return pd.DataFrame(conclusions, columns=["table", "claim", "published", "reproduced",
                                              "agreement", "trivial_agreement", "holds"])  # fmt: skip


@dataclass(frozen=True)
class _Replication:
    """Chapter 8's reproduced-vs-published comparison of one run, before any file is written."""

    datasets: list[str]
    cells: pd.DataFrame
    text: list[str]
    replication: pd.DataFrame
    private: pd.DataFrame
    conclusions: pd.DataFrame
    comparisons: dict[str, str]
    known: pd.DataFrame


def _replication(records: pd.DataFrame, settings: ReportSettings) -> _Replication:
    """A's reductions over B per comparison and dataset, and the public published cells
    beside them; the published rows whose data are not public kept apart."""
    comparisons = list(settings.report.get("comparisons", []))
    datasets = ran_datasets(records, settings)
    cells, text = _reduction_cells(records, comparisons, datasets)
    published = read_published(list(settings.published))
    tables = {str(c.get("table", "")) for c in comparisons}
    pub = published[published["table"].isin(tables) & (published["dataset"] != "")]
    private = pub[pub["note"].str.contains("not public")]
    pub = pub[~pub.index.isin(private.index)]
    known = known_disagreements_for(list(settings.published))
    replication = _reduction_replication(cells, pub, known)
    return _Replication(datasets, cells, text, replication, private, _reduction_conclusions(replication, tables),
                        {str(c.get("table", "")): f"{c['a']}_vs_{c['b']}" for c in comparisons}, known)


def _evidence(replication: _Replication) -> pd.DataFrame:
    """The published reductions (printed and signed; the significance flags are the
    conclusions' business), named by their comparison."""
    cells = replication.replication
    cells = cells[cells["statistic"] != "significant"]
    return evidence_frame(cells.assign(system=cells["table"].map(replication.comparisons).fillna(""),
                                       explanation=explanations(cells, replication.known),
                                       printed=True, signed=True))  # fmt: skip


def evidence(records: pd.DataFrame, settings: ReportSettings) -> pd.DataFrame:
    """Every public published cell of the experiment's tables beside its reproduction
    (:data:`redecorate.report.agreement.EVIDENCE_COLUMNS`), without writing anything."""
    return _evidence(_replication(records, settings))


def write_report(records: pd.DataFrame, out: ReportOutputs, settings: ReportSettings, *,
                 xlabel: str) -> ReplicationReport:
    """Tables 8.2/8.3 layouts: % error reduction of A over B (all points; top 20 %).

    One table per ``report.comparisons`` entry ``{a, b, table}``; cells as in Table 6.2/6.4
    (:func:`active_summary`), bold where significant; reproduced vs published, with the
    published rows whose data are not public listed as such rather than as failures.
    """
    comparisons = list(settings.report.get("comparisons", []))
    found = _replication(records, settings)
    datasets, replication, private, conclusions = found.datasets, found.replication, found.private, found.conclusions
    tables_dir, figures_dir = Path(out.tables), Path(out.figures)
    found.cells.to_csv(tables_dir / "error_reductions.csv", index=False, lineterminator="\n")
    (tables_dir / "reduction_tables.md").write_text("\n".join(found.text), encoding="utf-8")
    systems = list(dict.fromkeys(s for c in comparisons for s in (str(c["a"]), str(c["b"]))))
    for dataset in datasets:
        learning_curves(records, figures_dir / f"curve_{dataset}", dataset=dataset,
                        algorithms=systems, experiment=settings.experiment, xlabel=xlabel)
    comparable, why = cells_comparability(settings, replication) if len(replication) else (False, "no published values")
    lines = [f"# Replication report: {settings.experiment} (scale {settings.scale})", "",
             f"This run: {len(datasets)} datasets, {records['run'].nunique()} run(s) of "
             f"{records['fold'].nunique()}-fold CV.", ""]  # fmt: skip
    lines += comparability_lines(comparable, why)
    if len(private):
        names = sorted(set(private["dataset"]))
        lines += [f"Published rows whose data are not public (not failures): {', '.join(names)} "
                  f"({private['note'].iloc[0]}).", ""]  # fmt: skip
    if len(conclusions):
        lines += ["## Conclusions", "", markdown_table(
            ["Table", "Claim", "Published", "Reproduced", "Agreement", "Trivial", "Holds"],
            [[r["table"], r["claim"], r["published"], r["reproduced"], fmt(r["agreement"]),
              fmt(r["trivial_agreement"]),
              "not comparable" if not comparable else ("" if r["holds"] is pd.NA else str(r["holds"]))]
             for _, r in conclusions.iterrows()]), ""]  # fmt: skip
    done = replication[replication["status"].isin(REPRODUCED)]
    lines += agreement_lines(_evidence(found))
    lines += ["## Cells", "", f"{len(done)} of {len(replication)} published UCI cells reproduced.", ""]
    if len(replication):
        lines += cells_lines(replication, ["table", "dataset", "statistic"])
    return ReplicationReport("\n".join(lines), replication, conclusions, comparable)
