"""The one job rule: every kind of experiment, one job per chunk of units of work.

A chunk is a run of units (for passive and noise experiments: one algorithm x one run of
k-fold CV) of one dataset, packed by estimated cost (common.smk: JOB_PLANS; library:
redecorate.kinds.jobs). The rule parameters are exactly what determines the records (the
experiment's shared job settings and the chunk's units), so changing e.g. the folds or an
algorithm's parameters reruns the affected jobs, and adding runs or datasets adds jobs.
"""

import functools

from redecorate.kinds.jobs import dataset_shape, priced_runtime_minutes


def experiment_records(wildcards_or_name):
    """Every job output of one experiment at the selected scale, whatever its kind."""
    name = getattr(wildcards_or_name, "experiment", wildcards_or_name)
    return [
        f"{RESULTS}/{name}/records/{dataset}/chunk{index}.parquet"
        for dataset, chunks in JOB_PLANS[name].items()
        for index in range(len(chunks))
    ]


def record_job(record):
    """results/<exp>/records/<job>.parquet -> <job> (e.g. iris/chunk0): the name under which
    the job's log (logs/<job>.log) and benchmark (benchmarks/<job>.tsv) are kept."""
    return str(record).rpartition("/records/")[2].removesuffix(".parquet")


def _chunk(wildcards):
    chunks = JOB_PLANS[wildcards.experiment].get(wildcards.dataset)
    if chunks is None or int(wildcards.chunk) >= len(chunks):
        raise WorkflowError(
            f"experiment {wildcards.experiment!r} has no job {wildcards.dataset}/chunk"
            f"{wildcards.chunk} at scale {config['scale']!r}"
        )
    return chunks[int(wildcards.chunk)]


def _job_params(wildcards):
    spec = EXPERIMENTS[wildcards.experiment]
    return {
        "kind": spec.kind,
        "settings": JOB_SETTINGS[wildcards.experiment],
        "units": [dict(unit) for unit in _chunk(wildcards).units],
    }


def _job_runtime(wildcards, input):
    """Minutes for cluster schedulers (SLURM -t), priced with the prepared data once they
    exist (redecorate.kinds.jobs.priced_runtime_minutes; until then Snakemake defers it)."""
    kind = get_kind(EXPERIMENTS[wildcards.experiment].kind)
    shape = dataset_shape(DATASET_REGISTRY[wildcards.dataset], wildcards.dataset)
    return priced_runtime_minutes(kind, _settings(wildcards.experiment), _chunk(wildcards), shape, input.dataset)


@functools.cache
def _settings(experiment):
    """The job settings of an experiment as its kind's cost model reads them."""
    spec = EXPERIMENTS[experiment]
    return get_kind(spec.kind).job_settings(spec)


rule experiment_job:
    input:
        dataset=lambda wildcards: prepared(wildcards.dataset),
    output:
        records=f"{RESULTS}/{{experiment}}/records/{{dataset}}/chunk{{chunk}}.parquet",
    params:
        job=_job_params,
    log:
        f"{RESULTS}/{{experiment}}/logs/{{dataset}}/chunk{{chunk}}.log",
    benchmark:
        f"{RESULTS}/{{experiment}}/benchmarks/{{dataset}}/chunk{{chunk}}.tsv"
    threads: 1
    resources:
        # Peak RSS measured 317-330 MB per chapter-4 job (benchmark max_rss); 2 GB leaves
        # headroom for the chapter-5 jobs on whole training folds.
        mem_mb=2000,
        runtime=_job_runtime,
    script:
        "../../scripts/run_job.py"
