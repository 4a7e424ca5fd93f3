"""Workflow entry point of every experiment's report: tables, figures, reproduced vs published.

Called by rule ``report_experiment`` (workflow/rules/aggregate.smk); the library writes it
(:func:`redecorate.experiment_report.write_experiment_report`, also what
``tools/regenerate_reports.py`` rewrites the committed reports with).
"""

import os

os.environ.setdefault("MPLBACKEND", "Agg")  # no display on cluster nodes or CI

from typing import Any  # noqa: E402

import pandas as pd  # noqa: E402

from redecorate.experiment_report import ReportFiles, write_experiment_report  # noqa: E402
from redecorate.util import job_log  # noqa: E402


def main(smk: Any) -> None:
    """Write tables/, figures/, replication.{md,csv} (+ conclusions) and replication.html (the
    Markdown as a page of Snakemake's HTML report) for one experiment."""
    with job_log(smk.log[0] if smk.log else None):
        files = ReportFiles(tables=smk.output.tables, figures=smk.output.figures,
                            markdown=smk.output.replication_md, csv=smk.output.replication_csv,
                            conclusions=smk.output.replication_conclusions, html=smk.output.replication_html)
        write_experiment_report(pd.read_parquet(smk.input.records), pd.read_csv(smk.input.summary),
                                smk.params.report, files)


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake's script directive
