"""Workflow entry point of every experiment job: one chunk of units of work -> records.

Called by rule ``experiment_job`` (workflow/rules/jobs.smk) for every kind of experiment;
the work is :func:`redecorate.kinds.jobs.run_chunk` with the experiment kind's unit of work.
Progress lines (the kind's, one per fold, and one per finished unit) go to the job's log.
"""

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMBA_NUM_THREADS"):
    os.environ.setdefault(_var, "1")  # one core per job: Snakemake schedules the cores

import dataclasses  # noqa: E402
import resource  # noqa: E402
from typing import Any  # noqa: E402

from redecorate.data import load_prepared  # noqa: E402
from redecorate.kinds import get_kind  # noqa: E402
from redecorate.kinds.jobs import run_chunk  # noqa: E402
from redecorate.util import job_log, write_parquet_atomic  # noqa: E402


def main(smk: Any) -> None:
    """Run the units of ``smk.params.job`` on the prepared dataset; write the records."""
    params = dict(smk.params.job)
    with job_log(smk.log[0] if smk.log else None):
        dataset = load_prepared(smk.input.dataset)
        if dataset.name != smk.wildcards.dataset:
            # Records and seeds are keyed by the registry key the workflow asked for.
            dataset = dataclasses.replace(dataset, name=smk.wildcards.dataset)
        print(f"job kind={params['kind']} units={params['units']}", flush=True)
        print(f"settings {params['settings']}", flush=True)
        records = run_chunk(
            dataset,
            get_kind(params["kind"]),
            params["settings"],
            params["units"],
            progress=lambda line: print(line, flush=True),
        )
        write_parquet_atomic(records, smk.output.records)
        print(f"wrote {len(records)} records to {smk.output.records}", flush=True)
        usage = resource.getrusage(resource.RUSAGE_SELF)
        # The whole process, start-up and imports included (Snakemake's benchmark samples).
        print(f"process CPU {usage.ru_utime + usage.ru_stime:.2f} s", flush=True)


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake's script directive
