"""Workflow entry point: one (experiment, dataset, algorithm, run) → records parquet.

Called by rule ``passive_job`` (workflow/rules/passive.smk); all the logic is in
:func:`redecorate.protocol.run_job`. Progress lines (one per fold) go to the job's log.
"""

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMBA_NUM_THREADS"):
    os.environ.setdefault(_var, "1")  # one core per job: Snakemake schedules the cores

from redecorate.protocol import run_job  # noqa: E402
from redecorate.protocol.io import run_records_job  # noqa: E402

if __name__ == "__main__":
    run_records_job(snakemake, run_job)  # noqa: F821 - injected by Snakemake's script directive
