"""Workflow entry point: concatenate an experiment's job records and summarise them.

Called by rule ``combine_records`` (workflow/rules/aggregate.smk). Rows are sorted by their
keys so the combined table does not depend on the order Snakemake lists the inputs in.
"""

from typing import Any

from redecorate.protocol import RECORD_COLUMNS, write_csv_atomic, write_parquet_atomic
from redecorate.protocol.io import job_log
from redecorate.stats import load_records, summarise

SORT_KEYS = ["experiment", "dataset", "algorithm", "run", "fold", "point", "metric"]


def main(smk: Any) -> None:
    """Write ``records.parquet`` and ``summary.csv`` for one experiment."""
    with job_log(smk.log[0] if smk.log else None):
        records = load_records(list(smk.input))
        records = records[list(RECORD_COLUMNS)].sort_values(SORT_KEYS, kind="stable")
        records = records.reset_index(drop=True)
        write_parquet_atomic(records, smk.output.records)
        summary = summarise(records)
        write_csv_atomic(summary, smk.output.summary)
        print(f"{len(records)} records from {len(smk.input)} jobs; {len(summary)} summary rows")


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake's script directive
