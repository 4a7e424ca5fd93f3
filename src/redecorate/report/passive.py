"""The ``passive`` kind's report: chapter 4's comparison tables, figures, analyses and
reproduced vs published.

"Baseline vs others" tables in the thesis's layout (Tables 4.2–4.5, :mod:`redecorate.report.tables`),
scatter plots and learning curves (Figures 4.1–4.6, :mod:`redecorate.report.figures`), the
Friedman test over several algorithms, the named analyses of the §4.4 and §4.5 studies
(:mod:`redecorate.report.analyses`), and every published cell beside its reproduction
(:mod:`redecorate.report.replication`).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from redecorate.report.agreement import (
    NOT_RUN,
    cell_status,
    difference_interval,
    evidence_frame,
    explanations,
    gm_ratio_interval,
    gm_ratio_run_spread,
    mean_intervals,
    printed_cells,
    signed_differences,
    significance_rows,
    with_agreement_section,
)
from redecorate.report.analyses import analyses_evidence, run_analyses
from redecorate.report.figures import write_figures
from redecorate.report.friedman import write_friedman
from redecorate.report.published import (
    read_disagreements,
    read_published,
    table_numbers,
)
from redecorate.report.replication import (
    NOT_PUBLISHED,
    check_conclusions,
    compare_cells,
    published_cells_and_summary,
    summary_replication,
)
from redecorate.report.replication_report import ReplicationReport
from redecorate.report.tables import write_comparison_tables
from redecorate.stats.summary import summarise

if TYPE_CHECKING:
    from redecorate.protocol.settings import ReportOutputs, ReportSettings

__all__ = ["THESIS_SCATTER_POINTS", "evidence", "write_report"]

THESIS_SCATTER_POINTS = (1, 20)
"""Figures 4.1–4.4 show 1 % and 20 %."""


def write_report(records: pd.DataFrame, out: ReportOutputs, settings: ReportSettings) -> ReplicationReport:
    """Comparison tables, figures, analyses and reproduced vs published."""
    baseline = settings.report.get("baseline")
    # A slice (--config algorithms=...) runs some of them; its banner says what it left out.
    others = [name for name in settings.report.get("others", []) if name in settings.algorithms]
    points = settings.points
    if baseline and baseline not in settings.algorithms:
        print(f"the baseline {baseline!r} was not run (left out of a slice): no comparison tables or figures")
    elif baseline and others:
        numbers = table_numbers(read_published(list(settings.published))) if settings.published else {}
        written = write_comparison_tables(
            records, out.tables, baseline, others, datasets=list(settings.datasets), points=points,
            experiment=settings.experiment, table_numbers=numbers,
        )  # fmt: skip
        print(f"{len(written)} table files")
        scatter = [p for p in THESIS_SCATTER_POINTS if p in points] or points[:1]
        written = write_figures(records, out.figures, baseline, others, scatter_points=scatter,
                                experiment=settings.experiment)  # fmt: skip
        print(f"{len(written)} figure files")
    else:
        print("no report.baseline/others in the experiment file: no comparison tables or figures")
    if len(settings.algorithms) >= 3 and len(settings.datasets) >= 2:
        written = write_friedman(records, out.tables, out.figures, algorithms=settings.algorithms,
                                 experiment=settings.experiment)  # fmt: skip
        print(f"Friedman test and critical-difference diagram: {len(written)} files")
    analyses = list(settings.report.get("analyses", []))
    if analyses:
        written = run_analyses(analyses, records, out.tables, out.figures, settings)
        print(f"analyses {', '.join(analyses)}: {len(written)} files")
    if not settings.published:  # a user's own experiment: nothing to compare with
        return ReplicationReport(
            f"# {settings.experiment}: results without published values\n\nThis experiment names no "
            "published values (`report.published` in its file): nothing is compared with the "
            "dissertation.\n")
    report = summary_replication(summarise(records), list(settings.published),
                                 records=records, experiment=settings.experiment, scale=settings.scale,
                                 disagreements=settings.disagreements)  # fmt: skip
    return replace(report, markdown=with_agreement_section(report.markdown, evidence(records, settings)))


GM_ROUNDING = 0.00005
"""Half a unit of the GM error ratios' last printed digit (four decimals)."""


def _gm_interval(accuracy: pd.Series, a: str, b: str, point: float) -> tuple[float, float, float, float]:
    """:func:`~redecorate.report.agreement.gm_ratio_interval` of A over B at ``point``, over
    the datasets where both ran (as the reproduced ratio is), and the half-width and degrees
    of freedom of its difference interval (:func:`~redecorate.report.agreement.gm_ratio_run_spread`);
    ``accuracy``: the mean accuracy per (algorithm, dataset, point, run, fold)."""
    pairs = []
    for dataset in sorted(set(accuracy.index.get_level_values("dataset"))):
        try:
            mine, theirs = accuracy.loc[(a, dataset, point)], accuracy.loc[(b, dataset, point)]
        except KeyError:
            continue
        both = pd.concat([mine, theirs], axis=1, join="inner")
        if len(both):
            pairs.append((both.iloc[:, 0].to_numpy(), both.iloc[:, 1].to_numpy(),
                          both.index.get_level_values("run").to_numpy()))
    low, high = gm_ratio_interval([(x, y) for x, y, _ in pairs])
    sd, runs = gm_ratio_run_spread(pairs)
    half, df = difference_interval(sd, runs, low=low, high=high, splits=min((len(x) for x, _, _ in pairs), default=0))
    return low, high, half, df


def _summary_evidence(conclusions: pd.DataFrame, records: pd.DataFrame) -> pd.DataFrame:
    """For a table that prints only its summary rows (Tables 4.8–4.16): per comparison and
    point the printed GM error ratio with its 95 % interval (each dataset's splits resampled,
    :func:`~redecorate.report.agreement.gm_ratio_interval`) and status, and as signed cells
    Sig. W − L and 1 − the GM ratio (positive: A ahead), reproduced beside published."""
    accuracy = (records[records["metric"] == "accuracy"]
                .groupby(["algorithm", "dataset", "point", "run", "fold"], sort=True)["value"].mean())  # fmt: skip
    rows = []
    for r in conclusions.itertuples():
        ran = r.status != NOT_RUN
        key = {"table": r.table, "system": r.comparison, "point": r.point, "status": "" if ran else NOT_RUN}
        low, high, half, df = _gm_interval(accuracy, r.baseline, r.other, float(r.point)) if ran else (np.nan,) * 4
        status = cell_status(r.published_gm, r.reproduced_gm, low, high, ran=ran, tolerance=GM_ROUNDING,
                             half_width=half)
        rows += [{**key, "statistic": "gm_ratio", "published": r.published_gm, "reproduced": r.reproduced_gm,
                  "low": low, "high": high, "status": status, "printed": True, "half_width": half, "df": df,
                  "rounding": GM_ROUNDING},
                 {**key, "statistic": "1 - gm_ratio", "published": 1.0 - r.published_gm,
                  "reproduced": 1.0 - r.reproduced_gm, "signed": True}]  # fmt: skip
    return evidence_frame(pd.concat([evidence_frame(rows), significance_rows(conclusions, scored=True)],
                                    ignore_index=True))


def evidence(records: pd.DataFrame, settings: ReportSettings) -> pd.DataFrame:
    """Every published cell of the experiment's tables beside its reproduction
    (:data:`redecorate.report.agreement.EVIDENCE_COLUMNS`), without writing anything.

    The printed cells are the per-dataset mean accuracies with their intervals; a file that
    prints one set of means for several tables (Tables 4.2–4.5 share DECORATE's column) gives
    each table the cells of its two systems. The signed cells are the differences A − B of
    each table's comparison per (dataset, point) (from the summary rows' ``A_vs_B``, or the
    file's ``report.baseline`` against each of ``report.others`` for a table without one,
    Table 4.6). A table that prints only summary rows is scored on them; the analyses that
    compare with a published table (§4.4, Table 4.7) add theirs.
    """
    parts = [*analyses_evidence(list(settings.report.get("analyses", [])), records, settings)]
    if settings.published:
        rows = read_published(list(settings.published))
        pub_cells, pub_summary = published_cells_and_summary(rows)
        summary = summarise(records)
        cells = compare_cells(summary, pub_cells, experiment=settings.experiment)
        cells = cells[cells["status"] != NOT_PUBLISHED].rename(columns={"algorithm": "system"})
        known = read_disagreements(settings.disagreements)
        cells["explanation"] = explanations(cells, known)
        intervals = mean_intervals(records[records["metric"] == "accuracy"], ["dataset", "algorithm", "point"])
        printed = evidence_frame(printed_cells(cells, intervals.rename(columns={"algorithm": "system"}),
                                               ["dataset", "system", "point"], ran=cells["status"] != NOT_RUN)
                                 .assign(statistic="mean"))  # fmt: skip
        tables, pairs, shared = [], [], pd.Series(False, index=printed.index)
        for (a, b), number in table_numbers(rows).items():
            mine = printed["system"].isin([a, b])
            if mine.any():
                tables.append(printed[mine].assign(table=number))
                pairs.append((number, a, b))
                shared |= mine
        rest = printed[~shared]
        baseline, others = settings.report.get("baseline"), list(settings.report.get("others", []))
        for key, group in rest.groupby("table", sort=True):
            pairs += [(str(key), baseline, o) for o in others if {baseline, o} <= set(group["system"])]
        printed = pd.concat([*tables, rest], ignore_index=True)
        parts += [printed, signed_differences(printed, pairs)]
        only_summary = sorted(set(pub_summary["table"]) - set(printed["table"]))
        if len(pub_summary):
            conclusions = check_conclusions(summary, pub_cells, pub_summary, records=records,
                                            experiment=settings.experiment)  # fmt: skip
            alone = conclusions["table"].isin(only_summary)
            if alone.any():
                found = _summary_evidence(conclusions[alone], records)
                found["explanation"] = explanations(found, known)
                parts.append(found)
            # the tables printed cell by cell: their Sig. W/D/L rows under both tests, not scored
            parts.append(significance_rows(conclusions[~alone], scored=False))
    return evidence_frame(pd.concat(parts, ignore_index=True)) if parts else evidence_frame([])
