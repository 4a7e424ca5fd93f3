"""Workflow entry point: one Chapter 5 (experiment, dataset, algorithm, run) → records parquet.

Called by rule ``noise_job`` (workflow/rules/noise.smk); all the logic is in
:func:`redecorate.protocol.noise.run_noise_job`. A separate script from ``run_passive.py``
on purpose: Snakemake reruns a script rule's jobs when its script is newer than their
outputs, so editing the passive entry point would recompute every finished Chapter 4 job.
"""

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMBA_NUM_THREADS"):
    os.environ.setdefault(_var, "1")  # one core per job: Snakemake schedules the cores

import dataclasses  # noqa: E402
from typing import Any  # noqa: E402

from redecorate.data import load_prepared  # noqa: E402
from redecorate.protocol import write_parquet_atomic  # noqa: E402
from redecorate.protocol.io import job_log  # noqa: E402
from redecorate.protocol.noise import run_noise_job  # noqa: E402


def main(smk: Any) -> None:
    """Run the job described by ``smk.params.job`` on the prepared dataset."""
    job = dict(smk.params.job)
    with job_log(smk.log[0] if smk.log else None):
        dataset = load_prepared(smk.input.dataset)
        if dataset.name != smk.wildcards.dataset:
            # Records and seeds are keyed by the registry key the workflow asked for.
            dataset = dataclasses.replace(dataset, name=smk.wildcards.dataset)
        print(f"job {job}", flush=True)
        records = run_noise_job(dataset, **job, progress=lambda line: print(line, flush=True))
        write_parquet_atomic(records, smk.output.records)
        print(f"wrote {len(records)} records to {smk.output.records}", flush=True)


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake's script directive
