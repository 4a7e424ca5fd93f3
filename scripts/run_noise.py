"""Workflow entry point: one Chapter 5 (experiment, dataset, algorithm, run) → records parquet.

Called by rule ``noise_job`` (workflow/rules/noise.smk); all the logic is in
:func:`redecorate.protocol.noise.run_noise_job` and
:func:`redecorate.protocol.io.run_records_job`. A separate script from ``run_passive.py`` on
purpose: Snakemake reruns a script rule's jobs when its script changes, so editing one kind's
entry point must not recompute the other kind's finished jobs.
"""

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMBA_NUM_THREADS"):
    os.environ.setdefault(_var, "1")  # one core per job: Snakemake schedules the cores

from redecorate.protocol.io import run_records_job  # noqa: E402
from redecorate.protocol.noise import run_noise_job  # noqa: E402

if __name__ == "__main__":
    run_records_job(snakemake, run_noise_job)  # noqa: F821 - injected by Snakemake's script directive
