"""The ``passive`` kind's report: chapter 4's comparison tables, figures, analyses and
reproduced vs published.

"Baseline vs others" tables in the thesis's layout (Tables 4.2–4.5, :mod:`redecorate.report.tables`),
scatter plots and learning curves (Figures 4.1–4.6, :mod:`redecorate.report.figures`), the
Friedman test over several algorithms, the named analyses of the §4.4 and §4.5 studies
(:mod:`redecorate.report.analyses`), and every published cell beside its reproduction
(:mod:`redecorate.report.replication`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pandas as pd

from redecorate.report.analyses import run_analyses
from redecorate.report.figures import write_figures
from redecorate.report.friedman import write_friedman
from redecorate.report.published import read_published, table_numbers
from redecorate.report.replication import summary_replication
from redecorate.report.replication_report import ReplicationReport
from redecorate.report.tables import write_comparison_tables
from redecorate.stats.summary import summarise

if TYPE_CHECKING:
    from redecorate.protocol.settings import ReportOutputs, ReportSettings

__all__ = ["THESIS_SCATTER_POINTS", "write_report"]

THESIS_SCATTER_POINTS = (1, 20)
"""Figures 4.1–4.4 show 1 % and 20 %."""


def write_report(records: pd.DataFrame, out: ReportOutputs, settings: ReportSettings) -> ReplicationReport:
    """Comparison tables, figures, analyses and reproduced vs published."""
    baseline = settings.report.get("baseline")
    others = list(settings.report.get("others", []))
    points = settings.points
    if baseline and others:
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
    return summary_replication(summarise(records), list(settings.published) or settings.published_dir,
                               records=records, experiment=settings.experiment, scale=settings.scale,
                               disagreements=settings.disagreements)  # fmt: skip
