"""Run status: what `snakemake --report` shows when the run it reports on is incomplete.

Snakemake's report stops at the first output marked for the report that does not exist,
which is exactly the state `--keep-going` leaves after a failed job. So when the command
line asks for a report, the default target is narrowed to the experiments whose outputs
all exist, and `results/run_status.csv` (written here, while the workflow is parsed) lists
every missing job output of the others with the last error line of the job's log; the
report shows it first, as "0. Missing outputs". A plain run is unaffected: it never builds
this file and still targets every experiment.
"""

import sys

from redecorate.layout import finished_elsewhere
from redecorate.report.status import (
    ExpectedOutput,
    experiments_not_run,
    missing_outputs,
    nothing_to_report,
    write_run_status,
)

RUN_STATUS = f"{RESULTS}/run_status.csv"


def _report_requested(argv):
    """True when Snakemake was started to build a report (`--report` [FILE])."""
    return any(arg == "--report" or arg.startswith("--report=") for arg in argv)


REPORT_MODE = _report_requested(sys.argv)


def expected_outputs(experiment):
    """Every output one experiment needs, with the job that makes it and that job's log."""
    spec = EXPERIMENTS[experiment]
    base = f"{RESULTS}/{experiment}"
    outputs = [
        ExpectedOutput(f"prepare_dataset/{d}", prepared(d), f"{DATA}/logs/prepare_{d}.log")
        for d in spec.datasets
    ]
    for record in experiment_records(experiment):
        job = record_job(record)
        outputs.append(ExpectedOutput(f"experiment_job/{job}", str(record), f"{base}/logs/{job}.log"))
    outputs += [
        ExpectedOutput("combine_records", f"{base}/records.parquet", f"{base}/logs/combine_records.log"),
        ExpectedOutput("report_experiment", aggregate_target(experiment), f"{base}/logs/report.log"),
        ExpectedOutput("provenance", provenance_target(experiment), f"{base}/logs/provenance.log"),
        ExpectedOutput("report_experiment", page_target(experiment), f"{base}/logs/report.log"),
    ]
    return outputs


def report_targets():
    """Targets of a report: complete experiments, plus the run status if any is not."""
    missing = missing_outputs({name: expected_outputs(name) for name in EXPERIMENTS})
    incomplete = sorted({row["experiment"] for row in missing})
    if EXPERIMENTS and experiments_not_run(missing) == set(EXPERIMENTS):
        # No job of any of them finished at this scale: a --config other than the run's. Say so
        # and fail, rather than render an empty report (and docutils errors about its sections).
        elsewhere = finished_elsewhere(config["results_dir"], EXPERIMENTS, config["scale"])
        raise WorkflowError(nothing_to_report(EXPERIMENTS, RESULTS, config["scale"], elsewhere))
    config["incomplete_experiments"] = incomplete  # shown by workflow/report/workflow.rst
    targets = [
        target
        for name in EXPERIMENTS
        if name not in incomplete
        for target in (aggregate_target(name), provenance_target(name), page_target(name))
    ]
    if Path(replication_target()).is_file():
        targets.append(replication_target())  # the report of every published table, once built
    if missing:
        write_run_status(RUN_STATUS, missing)
        return targets + [RUN_STATUS]
    Path(RUN_STATUS).unlink(missing_ok=True)  # a stale status must not outlive its cause
    return targets


# A `run:` block of milliseconds: on a cluster it runs where Snakemake runs, not as a job.
localrules:
    run_status,


rule run_status:
    """Also buildable on its own: `snakemake results/run_status.csv` lists what is missing."""
    output:
        report(
            RUN_STATUS,
            category="0. Missing outputs",
            caption="../report/run_status.rst",
            labels={"table": "missing outputs"},
        ),
    run:
        write_run_status(
            output[0], missing_outputs({name: expected_outputs(name) for name in EXPERIMENTS})
        )
