"""Workflow entry point of every experiment job: one chunk of units of work -> records.

Called by rule ``experiment_job`` (workflow/rules/jobs.smk) for every kind of experiment;
the work is :func:`redecorate.kinds.jobs.run_chunk` with the experiment kind's unit of work.
With ``records_from`` configured, an earlier records file of the same job (same key:
:mod:`redecorate.job_records`) is copied instead. Progress lines (the kind's, one per fold,
and one per finished unit) go to the job's log.
"""

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMBA_NUM_THREADS"):
    os.environ.setdefault(_var, "1")  # one core per job: Snakemake schedules the cores

import dataclasses  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

from redecorate.data import load_prepared  # noqa: E402
from redecorate.job_records import (  # noqa: E402
    find_job_records,
    job_key,
    process_cpu_seconds,
    reuse_job_records,
    write_job_records,
)
from redecorate.kinds import get_kind  # noqa: E402
from redecorate.kinds.jobs import run_chunk  # noqa: E402
from redecorate.provenance import git_state  # noqa: E402
from redecorate.util import job_log  # noqa: E402

REPO = Path(__file__).resolve().parents[1]


def main(smk: Any) -> None:
    """Run the units of ``smk.params.job`` on the prepared dataset (or reuse their earlier
    records); write the records."""
    params = dict(smk.params.job)
    name = smk.wildcards.dataset
    key = job_key(params["kind"], params["settings"], params["units"], name)
    with job_log(smk.log[0] if smk.log else None):
        records_from = smk.config.get("records_from")
        earlier = find_job_records(records_from, smk.wildcards.experiment, name, key) if records_from else None
        if earlier is not None:
            info = reuse_job_records(earlier, smk.output.records)
            print(f"reused the records of {earlier} (same job key {key[:12]}; computed at commit "
                  f"{info.get('commit')} on {info.get('host')} in {info.get('cpu_s')} CPU s)", flush=True)
            return
        dataset = load_prepared(smk.input.dataset)
        if dataset.name != name:
            # Records and seeds are keyed by the registry key the workflow asked for.
            dataset = dataclasses.replace(dataset, name=name)
        print(f"job kind={params['kind']} units={params['units']}", flush=True)
        print(f"settings {params['settings']}", flush=True)
        records = run_chunk(
            dataset,
            get_kind(params["kind"]),
            params["settings"],
            params["units"],
            progress=lambda line: print(line, flush=True),
        )
        # The whole process, start-up and imports included (as Snakemake's benchmark samples).
        cpu = process_cpu_seconds()
        write_job_records(records, smk.output.records, key=key, git=git_state(REPO), cpu_s=cpu)
        print(f"wrote {len(records)} records to {smk.output.records}", flush=True)
        print(f"process CPU {cpu:.2f} s", flush=True)


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake's script directive
