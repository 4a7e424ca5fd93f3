"""Workflow entry point: comparison tables, figures and the reproduced-vs-published report.

Called by rule ``report_experiment`` (workflow/rules/aggregate.smk). Each output directory is
built in a temporary sibling and renamed into place, so an interrupted report never leaves a
half-filled ``tables/`` that Snakemake would take for complete.
"""

import os

os.environ.setdefault("MPLBACKEND", "Agg")  # no display on cluster nodes or CI

from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

import pandas as pd  # noqa: E402

from redecorate.protocol.io import atomic_dir, atomic_files, job_log  # noqa: E402
from redecorate.report.analyses import run_analyses  # noqa: E402
from redecorate.report.figures import write_figures  # noqa: E402
from redecorate.report.replication import write_replication  # noqa: E402
from redecorate.report.tables import write_comparison_tables  # noqa: E402

THESIS_SCATTER_POINTS = (1, 20)  # Figures 4.1-4.4 show 1 % and 20 %


def _write_replication(
    summary: pd.DataFrame, records: pd.DataFrame, settings: dict[str, Any], staged: list[Path]
) -> None:
    """Reproduced vs published: cells, conclusions (Sig. W/D/L, GM ratio) and the summary.

    ``staged`` are the staged ``replication.md``, ``replication.csv`` and
    ``replication_conclusions.csv`` in one directory, the names the writer uses. The
    experiment's own published tables are used (``report.published``); without them, the
    directory of Tables 4.2-4.5.
    """
    published = settings["published"] or settings["published_dir"]
    write_replication(
        summary, published, staged[0].parent, records=records, experiment=settings["experiment"]
    )


def main(smk: Any) -> None:
    """Write tables/, figures/, replication.md and replication.csv for one experiment."""
    settings = dict(smk.params.report)
    with job_log(smk.log[0] if smk.log else None):
        records = pd.read_parquet(smk.input.records)
        summary = pd.read_csv(smk.input.summary)
        baseline = settings["baseline"]
        others = settings["others"]
        points = settings["points"]
        if baseline is None or not others:
            print("no report.baseline/others in the experiment file: no comparison tables or figures")
        with atomic_dir(smk.output.tables) as tables, atomic_dir(smk.output.figures) as figures:
            if baseline and others:
                written = write_comparison_tables(
                    records,
                    tables,
                    baseline,
                    others,
                    datasets=settings["datasets"],
                    points=points,
                    experiment=settings["experiment"],
                )
                print(f"{len(written)} table files")
                scatter = [p for p in THESIS_SCATTER_POINTS if p in points] or points[:1]
                written = write_figures(
                    records,
                    figures,
                    baseline,
                    others,
                    scatter_points=scatter,
                    experiment=settings["experiment"],
                )
                print(f"{len(written)} figure files")
            if settings["analyses"]:
                written = run_analyses(settings["analyses"], records, tables, figures, settings)
                print(f"analyses {', '.join(settings['analyses'])}: {len(written)} files")
        with atomic_files(
            smk.output.replication_md,
            smk.output.replication_csv,
            smk.output.replication_conclusions,
        ) as staged:
            _write_replication(summary, records, settings, staged)


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake's script directive
