"""Chapter 5 noise experiments (kind: noise): one job per (experiment, dataset, algorithm,
run), each writing the long-form records of every fold and noise level of that run (point =
noise level in %), and a Chapter 5 report in place of the Chapter 4 one.

The jobs write the same paths as the passive kind (records/, logs/, benchmarks/) so that
combine_records, provenance and every reader of the results need no special case. Two rules
can therefore make those paths; `ruleorder` plus a rule-level constraint on the experiment
wildcard (only noise experiments) picks these rules for noise experiments and leaves passive
experiments to passive.smk. Separate rules and scripts rather than a `kind` switch in the
passive ones: Snakemake reruns a job whose params or script changed, and a shared rule would
have recomputed every finished Chapter 4 job.
"""

import re


def _noise_experiment_pattern():
    """Regex of the selected noise experiments' names (never matches when there are none)."""
    names = experiments_of_kind("noise")
    return "|".join(re.escape(n) for n in names) if names else "(?!x)x"


NOISE_EXPERIMENTS = _noise_experiment_pattern()


def noise_records(experiment):
    """Every job output of one noise experiment at the selected scale."""
    return passive_records(experiment)


def _noise_job_settings(wildcards):
    """Protocol numbers, corruption and learner parameters of one noise job."""
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
        "levels": list(spec.protocol.points),
        "corruption": spec.corruption,
        "seed": spec.protocol.seed,
    }
    learner = spec.learner_of(wildcards.algorithm)
    if learner != wildcards.algorithm:
        settings["learner"] = learner
    return settings


def _noise_job_runtime(wildcards):
    """Rough minutes for cluster schedulers: full training folds at every level."""
    learner = EXPERIMENTS[wildcards.experiment].learner_of(wildcards.algorithm)
    return 600 if learner == "decorate" else 120


def _noise_report_settings(wildcards):
    spec = EXPERIMENTS[wildcards.experiment]
    return {
        "experiment": spec.name,
        "scale": spec.scale,
        "corruption": spec.corruption,
        "datasets": list(spec.datasets),
        "algorithms": list(spec.algorithms),
        "levels": list(spec.protocol.points),
        "comparisons": list(spec.report.get("comparisons", [])),
        "published": [str(PUBLISHED / name) for name in spec.report.get("published", [])],
    }


ruleorder: noise_job > passive_job
ruleorder: report_noise > report_experiment


rule noise_job:
    input:
        dataset=lambda wildcards: prepared(wildcards.dataset),
    output:
        records=f"{RESULTS}/{{experiment}}/records/{{dataset}}/{{algorithm}}/run{{run}}.parquet",
    wildcard_constraints:
        experiment=NOISE_EXPERIMENTS,
    params:
        job=_noise_job_settings,
    log:
        f"{RESULTS}/{{experiment}}/logs/{{dataset}}/{{algorithm}}/run{{run}}.log",
    benchmark:
        f"{RESULTS}/{{experiment}}/benchmarks/{{dataset}}/{{algorithm}}/run{{run}}.tsv"
    threads: 1
    resources:
        mem_mb=2000,
        runtime=_noise_job_runtime,
    script:
        "../../scripts/run_noise.py"


rule report_noise:
    input:
        records=f"{RESULTS}/{{experiment}}/records.parquet",
        summary=f"{RESULTS}/{{experiment}}/summary.csv",
    output:
        # report(...) as in aggregate.smk's report_experiment (same categories and captions).
        tables=report(
            directory(f"{RESULTS}/{{experiment}}/tables"),
            patterns=["{name}.csv"],
            category="2. Tables",
            subcategory="{experiment}",
            caption="../report/tables.rst",
            labels={"experiment": "{experiment}", "table": "{name}"},
        ),
        figures=report(
            directory(f"{RESULTS}/{{experiment}}/figures"),
            patterns=["{name}.png"],
            category="3. Figures",
            subcategory="{experiment}",
            caption="../report/figures.rst",
            labels={"experiment": "{experiment}", "figure": "{name}"},
        ),
        replication_md=f"{RESULTS}/{{experiment}}/replication.md",
        replication_csv=report(
            f"{RESULTS}/{{experiment}}/replication.csv",
            category="1. Reproduced vs published",
            subcategory="{experiment}",
            caption="../report/replication.rst",
            labels={"experiment": "{experiment}", "table": "replication"},
        ),
    wildcard_constraints:
        experiment=NOISE_EXPERIMENTS,
    params:
        report=_noise_report_settings,
    log:
        f"{RESULTS}/{{experiment}}/logs/report.log",
    benchmark:
        f"{RESULTS}/{{experiment}}/benchmarks/report_experiment.tsv"
    threads: 1
    resources:
        mem_mb=2000,
        runtime=30,
    script:
        "../../scripts/report_noise.py"
