"""Workflow entry point of every experiment job: one chunk of units of work -> records.

Called by rule ``experiment_job`` (workflow/rules/jobs.smk) for every kind of experiment;
the work is :func:`redecorate.job_records.run_job_records` with the experiment kind's unit
of work.
With ``records_from`` configured, units an earlier run left there (in any experiment) with
the same unit key are read instead of computed (:mod:`redecorate.job_records`). Progress lines (the kind's, one per fold,
and one per finished unit) go to the job's log.
"""

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMBA_NUM_THREADS"):
    os.environ.setdefault(_var, "1")  # one core per job: Snakemake schedules the cores

from redecorate.determinism import pin_cpu_dispatch  # noqa: E402

pin_cpu_dispatch()  # before NumPy loads: the same functions on every CPU

import dataclasses  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

from redecorate.data import load_prepared  # noqa: E402
from redecorate.job_records import process_cpu_seconds, run_job_records, write_job_records  # noqa: E402
from redecorate.kinds import JobSettings, get_kind  # noqa: E402
from redecorate.provenance import code_checkout, git_state  # noqa: E402
from redecorate.util import job_log  # noqa: E402

REPO = Path(__file__).resolve().parents[1]


def main(smk: Any) -> None:
    """Run the units of ``smk.params.job`` on the prepared dataset (reusing the units an
    earlier run left under ``records_from``); write the records."""
    params = dict(smk.params.job)
    with job_log(smk.log[0] if smk.log else None):
        dataset = load_prepared(smk.input.dataset)
        if dataset.name != smk.wildcards.dataset:
            # Records and seeds are keyed by the registry key the workflow asked for.
            dataset = dataclasses.replace(dataset, name=smk.wildcards.dataset)
        print(f"job kind={params['kind']} units={params['units']}", flush=True)
        print(f"settings {params['settings']}", flush=True)
        kind = get_kind(params["kind"])
        records, meta = run_job_records(
            dataset,
            kind,
            JobSettings.from_json(kind, params["settings"]),
            params["units"],
            records_from=smk.config.get("records_from"),
            progress=lambda line: print(line, flush=True),
        )
        # The whole process, start-up and imports included (as Snakemake's benchmark samples).
        cpu = process_cpu_seconds()
        write_job_records(records, smk.output.records, git=git_state(code_checkout(REPO)), cpu_s=cpu, **meta)
        reused = sum(source is not None for source in meta["unit_sources"])
        print(f"wrote {len(records)} records to {smk.output.records} ({reused} of "
              f"{len(meta['units'])} units reused)", flush=True)
        print(f"process CPU {cpu:.2f} s", flush=True)


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake's script directive
