"""Workflow entry point: Chapter 5 tables, figures and the reproduced-vs-published report.

Called by rule ``report_noise`` (workflow/rules/noise.smk), which writes the same outputs
as ``report_experiment`` for experiments of ``kind: noise``. The logic is in
:mod:`redecorate.corrupt.report`; outputs are staged and renamed into place so an
interrupted report never leaves a half-filled directory that looks complete.
"""

import os

os.environ.setdefault("MPLBACKEND", "Agg")  # no display on cluster nodes or CI

from typing import Any  # noqa: E402

import pandas as pd  # noqa: E402

from redecorate.corrupt.report import (  # noqa: E402
    load_published,
    noise_comparison_tables,
    render_replication,
    replication_frame,
    write_noise_figures,
    write_noise_tables,
)
from redecorate.protocol.io import atomic_dir, atomic_files, job_log  # noqa: E402


def main(smk: Any) -> None:
    """Write tables/, figures/, replication.md and replication.csv for one noise experiment."""
    settings = dict(smk.params.report)
    with job_log(smk.log[0] if smk.log else None):
        records = pd.read_parquet(smk.input.records)
        tables = noise_comparison_tables(
            records,
            settings["comparisons"],
            corruption=settings["corruption"],
            datasets=settings["datasets"],
            levels=settings["levels"],
            experiment=settings["experiment"],
        )
        with atomic_dir(smk.output.tables) as out:
            print(f"{len(write_noise_tables(tables, out))} table files")
        with atomic_dir(smk.output.figures) as out:
            written = write_noise_figures(
                records, out, settings["algorithms"], experiment=settings["experiment"]
            )
            print(f"{len(written)} figure files")
        published_cells, published_summary = load_published(settings["published"])
        replication = replication_frame(tables, published_cells)
        text = render_replication(
            tables,
            replication,
            published_summary,
            experiment=settings["experiment"],
            scale=settings["scale"],
        )
        with atomic_files(smk.output.replication_md, smk.output.replication_csv) as (md, csv):
            md.write_text(text, encoding="utf-8")
            replication.to_csv(csv, index=False, lineterminator="\n")


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake's script directive
