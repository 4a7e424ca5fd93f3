"""Workflow entry point of every experiment's report: tables, figures, reproduced vs published.

Called by rule ``report_experiment`` (workflow/rules/aggregate.smk); the content is the
experiment kind's report (:class:`redecorate.kinds.ExperimentKind`). Each output directory
is built in a temporary sibling and renamed into place, and the three replication files are
staged together, so an interrupted report never leaves a half-filled ``tables/`` that
Snakemake would take for complete.
"""

import os

os.environ.setdefault("MPLBACKEND", "Agg")  # no display on cluster nodes or CI

from typing import Any  # noqa: E402

import pandas as pd  # noqa: E402

from redecorate.kinds import ReportOutputs, ReportSettings, get_kind  # noqa: E402
from redecorate.report.markdown_html import markdown_to_html  # noqa: E402
from redecorate.report.replication_report import ReplicationPaths, write_replication_report  # noqa: E402
from redecorate.report.this_run import this_run_lines  # noqa: E402
from redecorate.util import atomic_dir, atomic_files, job_log  # noqa: E402


def main(smk: Any) -> None:
    """Write tables/, figures/, replication.{md,csv} (+ conclusions) and replication.html (the
    Markdown as a page of Snakemake's HTML report) for one experiment."""
    with job_log(smk.log[0] if smk.log else None):
        records = pd.read_parquet(smk.input.records)
        summary = pd.read_csv(smk.input.summary)
        kind = get_kind(smk.params.report["kind"])
        settings = ReportSettings.from_json(kind, smk.params.report)
        with (
            atomic_dir(smk.output.tables) as tables,
            atomic_dir(smk.output.figures) as figures,
            atomic_files(
                smk.output.replication_md,
                smk.output.replication_csv,
                smk.output.replication_conclusions,
                smk.output.replication_html,
            ) as (md, csv, conclusions, html),
        ):
            replication = kind.report(records, summary, ReportOutputs(tables, figures), settings)
            # Whatever the kind: the run's own protocol and numbers first, a slice says so.
            write_replication_report(replication, ReplicationPaths(md, csv, conclusions),
                                     experiment=settings.experiment, slice_=settings.slice,
                                     published=list(settings.published),
                                     this_run=this_run_lines(records, summary, scale=settings.scale,
                                                             folds=settings.job.folds))
            page = markdown_to_html(md.read_text(encoding="utf-8"),
                                    f"Replication report: {settings.experiment}")
            html.write_text(page, encoding="utf-8")


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake's script directive
