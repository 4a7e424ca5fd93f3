"""One experiment's report files, written from its records: what rule ``report_experiment``
writes for a run, and what ``tools/regenerate_reports.py`` rewrites for the committed records.

Why one function for both: a committed report rewritten by other code than the workflow's would
drift from what a run writes (a committed report is otherwise rewritten only when its
experiment runs again, so it keeps the layout of the code that ran it). The content is the
experiment kind's own report (:class:`redecorate.kinds.ExperimentKind`), then the replication
report every kind shares: the run's protocol and numbers first, a slice says so. Each output
directory is built in a temporary sibling and renamed into place, and the replication files
are staged together, so an interrupted report never leaves a half-filled ``tables/`` that
Snakemake would take for complete. This module sits above the kinds and the report package,
which it both uses.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from redecorate.kinds import ReportOutputs, ReportSettings, get_kind
from redecorate.report.markdown_html import markdown_to_html
from redecorate.report.replication_report import ReplicationPaths, write_replication_report
from redecorate.report.this_run import this_run_lines
from redecorate.util import atomic_dir, atomic_files

__all__ = ["ReportFiles", "write_experiment_report"]

PathLike = str | os.PathLike[str]


@dataclass(frozen=True)
class ReportFiles:
    """Where an experiment's report goes: the two directories, the replication report
    (Markdown, its cells as CSV, its conclusions) and the Markdown as an HTML page (the page of
    Snakemake's HTML report)."""

    tables: PathLike
    figures: PathLike
    markdown: PathLike
    csv: PathLike
    conclusions: PathLike
    html: PathLike

    @classmethod
    def in_directory(cls, directory: PathLike) -> ReportFiles:
        """The layout of ``results/<experiment>/`` (and ``reproduced/<experiment>/``)."""
        d = Path(directory)
        return cls(d / "tables", d / "figures", d / "replication.md", d / "replication.csv",
                   d / "replication_conclusions.csv", d / "replication.html")


def write_experiment_report(records: pd.DataFrame, summary: pd.DataFrame, report: Mapping[str, Any],
                            files: ReportFiles) -> None:
    """Write ``files`` for one experiment from its combined ``records`` and ``summary``;
    ``report``: its report settings as JSON (:meth:`ReportSettings.to_json`, from
    :func:`redecorate.experiments.report_settings`)."""
    kind = get_kind(report["kind"])
    settings = ReportSettings.from_json(kind, report)
    with (
        atomic_dir(files.tables) as tables,
        atomic_dir(files.figures) as figures,
        atomic_files(files.markdown, files.csv, files.conclusions, files.html) as (md, csv, conclusions, html),
    ):
        replication = kind.report(records, summary, ReportOutputs(tables, figures), settings)
        write_replication_report(replication, ReplicationPaths(md, csv, conclusions),
                                 experiment=settings.experiment, slice_=settings.slice,
                                 published=list(settings.published),
                                 this_run=this_run_lines(records, summary, scale=settings.scale,
                                                         folds=settings.job.folds))  # fmt: skip
        page = markdown_to_html(md.read_text(encoding="utf-8"), f"Replication report: {settings.experiment}")
        html.write_text(page, encoding="utf-8")
