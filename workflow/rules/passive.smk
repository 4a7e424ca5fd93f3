"""Passive learning-curve experiments (§4.1 protocol): one job per
(experiment, dataset, algorithm, run), each writing the long-form records of every fold and
curve point of that run. The rule parameters are exactly what determines the records, so
changing e.g. the folds or an algorithm's parameters reruns the affected jobs, while adding
runs or datasets only adds jobs.
"""


def passive_records(experiment):
    """Every job output of one passive experiment at the selected scale."""
    spec = EXPERIMENTS[experiment]
    return [
        f"{RESULTS}/{experiment}/records/{dataset}/{algorithm}/run{run}.parquet"
        for dataset in spec.datasets
        for algorithm in spec.algorithms
        for run in spec.runs
    ]


def _job_settings(wildcards):
    """Protocol numbers and learner parameters of one job (checked against the experiment)."""
    spec = EXPERIMENTS[wildcards.experiment]
    if wildcards.algorithm not in spec.algorithms:
        raise WorkflowError(
            f"{spec.path}: algorithm {wildcards.algorithm!r} is not in 'algorithms'"
        )
    return {
        "experiment": spec.name,
        "algorithm": wildcards.algorithm,
        "params": spec.algorithms[wildcards.algorithm],
        "run": int(wildcards.run),
        "n_folds": spec.protocol.folds,
        "points": list(spec.protocol.points),
        "seed": spec.protocol.seed,
    }


def _job_runtime(wildcards):
    """Rough minutes for cluster schedulers: DECORATE explores up to 50 members."""
    return 480 if wildcards.algorithm == "decorate" else 120


rule passive_job:
    input:
        dataset=lambda wildcards: prepared(wildcards.dataset),
    output:
        records=f"{RESULTS}/{{experiment}}/records/{{dataset}}/{{algorithm}}/run{{run}}.parquet",
    params:
        job=_job_settings,
    log:
        f"{RESULTS}/{{experiment}}/logs/{{dataset}}/{{algorithm}}/run{{run}}.log",
    benchmark:
        f"{RESULTS}/{{experiment}}/benchmarks/{{dataset}}/{{algorithm}}/run{{run}}.tsv"
    threads: 1
    resources:
        mem_mb=2000,
        runtime=_job_runtime,
    script:
        "../../scripts/run_passive.py"
