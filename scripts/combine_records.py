"""Workflow entry point: concatenate an experiment's job records and summarise them.

Called by rule ``combine_records`` (workflow/rules/aggregate.smk). Rows are sorted by their
keys so the combined table does not depend on the order Snakemake lists the inputs in; the
summary lines up the folds' curves as the experiment's kind reads them (``params.align``).
"""

from typing import Any

from redecorate.stats import RECORD_COLUMNS, load_records, summarise
from redecorate.util import job_log, write_csv_atomic, write_parquet_atomic

SORT_KEYS = ["experiment", "dataset", "algorithm", "run", "fold", "point", "metric"]


def main(smk: Any) -> None:
    """Write ``records.parquet`` and ``summary.csv`` for one experiment."""
    with job_log(smk.log[0] if smk.log else None):
        records = load_records(list(smk.input))
        # The common columns first, then any a kind adds (redecorate.kinds.ExperimentKind).
        extra = [c for c in records.columns if c not in RECORD_COLUMNS]
        records = records[[*RECORD_COLUMNS, *extra]].sort_values(SORT_KEYS, kind="stable")
        records = records.reset_index(drop=True)
        write_parquet_atomic(records, smk.output.records)
        summary = summarise(records, align=smk.params.align)
        write_csv_atomic(summary, smk.output.summary)
        print(f"{len(records)} records from {len(smk.input)} jobs; {len(summary)} summary rows")


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake's script directive
