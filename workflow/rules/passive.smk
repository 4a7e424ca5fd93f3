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


def record_job(record):
    """results/<exp>/records/<job>.parquet -> <job> (e.g. iris/j48/run0): the name under
    which the job's log (logs/<job>.log) and benchmark (benchmarks/<job>.tsv) are kept."""
    return str(record).rpartition("/records/")[2].removesuffix(".parquet")


def _job_settings(wildcards):
    """Protocol numbers and learner parameters of one job (checked against the experiment)."""
    spec = EXPERIMENTS[wildcards.experiment]
    if wildcards.algorithm not in spec.algorithms:
        raise WorkflowError(
            f"{spec.path}: algorithm {wildcards.algorithm!r} is not in 'algorithms'"
        )
    settings = {
        "experiment": spec.name,
        "algorithm": wildcards.algorithm,
        "params": spec.algorithms[wildcards.algorithm],
        "run": int(wildcards.run),
        "n_folds": spec.protocol.folds,
        "points": list(spec.protocol.points),
        "seed": spec.protocol.seed,
    }
    learner = spec.learner_of(wildcards.algorithm)
    if learner != wildcards.algorithm:
        # Only for labelled variants, so the params of existing jobs (and thus
        # Snakemake's params rerun trigger) are unchanged by the labelled form.
        settings["learner"] = learner
    if spec.metrics != ("accuracy",):
        settings["metrics"] = list(spec.metrics)  # likewise only when asked for
    if spec.protocol.point_unit != "percent":
        settings["point_unit"] = spec.protocol.point_unit  # points are numbers of examples
    return settings


def _job_runtime(wildcards):
    """Minutes for cluster schedulers (SLURM -t), from measured costs with headroom.

    Measured (benchmark files of the pilot run, one run of 10-fold CV x 10 points, i.e. one
    thesis-scale job, on a loaded 2-core VM): 6-70 s wall, 3-18 s CPU; DECORATE is the
    slowest (it explores up to 50 members). The limits are ~10x the slowest measurement so
    the larger datasets (splice, soybean) and slow nodes stay inside; SLURM kills a job that
    overruns, so err high. README "Cluster use" says how to remeasure.
    """
    learner = EXPERIMENTS[wildcards.experiment].learner_of(wildcards.algorithm)
    return 60 if learner == "decorate" else 20


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
        # Peak RSS measured 317-330 MB per job (benchmark max_rss); 1 GB leaves headroom.
        mem_mb=1000,
        runtime=_job_runtime,
    script:
        "../../scripts/run_passive.py"
