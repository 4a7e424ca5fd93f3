"""Provenance: results/<experiment>/provenance.json, written after everything else of the
experiment (it reads every job's benchmark file and the prepared datasets' sidecars).

The git commit is read inside the job, not passed as a rule parameter: a parameter would make
Snakemake rerun the rule (harmless) and, worse, suggest that a new commit changes results.
"""


def provenance_target(experiment):
    """The provenance file of one experiment (part of `rule all`)."""
    return f"{RESULTS}/{experiment}/provenance.json"


def _experiment_benchmarks(experiment):
    """Job label -> benchmark file of every job the experiment's results come from."""
    spec = EXPERIMENTS[experiment]
    files = {
        f"prepare_dataset/{dataset}": f"{DATA}/benchmarks/prepare_{dataset}.tsv"
        for dataset in spec.datasets
    }
    # Job records live in records/<job>.parquet and their benchmarks in benchmarks/<job>.tsv
    # (workflow/rules/jobs.smk).
    for record in experiment_records(experiment):
        job = record_job(record)
        files[f"experiment_job/{job}"] = f"{RESULTS}/{experiment}/benchmarks/{job}.tsv"
    for step in ("combine_records", "report_experiment"):
        files[step] = f"{RESULTS}/{experiment}/benchmarks/{step}.tsv"
    return files


def _provenance_settings(wildcards):
    spec = EXPERIMENTS[wildcards.experiment]
    return {
        "experiment": {
            "kind": spec.kind,
            "scale": spec.scale,
            "datasets": list(spec.datasets),
            "algorithms": spec.algorithms,
            "runs": spec.protocol.runs,
            "folds": spec.protocol.folds,
            "points": list(spec.protocol.points),
            "seed": spec.protocol.seed,
            "settings": spec.settings.to_json(),
            "jobs": {dataset: len(chunks) for dataset, chunks in JOB_PLANS[wildcards.experiment].items()},
        },
        "experiment_file": str(spec.path),
        "config": {key: config[key] for key in sorted(config)},
        "benchmarks": _experiment_benchmarks(wildcards.experiment),
        "job_records": {
            f"experiment_job/{record_job(record)}": record
            for record in experiment_records(wildcards.experiment)
        },
        "repo": str(REPO),
    }


rule provenance:
    input:
        replication=str(REPORT_FILES.markdown),
        records=f"{RESULTS}/{{experiment}}/records.parquet",
        sidecars=lambda wildcards: [
            f"{DATA}/prepared/{dataset}.json" for dataset in EXPERIMENTS[wildcards.experiment].datasets
        ],
    output:
        report(
            f"{RESULTS}/{{experiment}}/provenance.json",
            category="4. Provenance",
            subcategory="{experiment}",
            caption="../report/provenance.rst",
            labels={"experiment": "{experiment}", "file": "provenance.json"},
        ),
    params:
        provenance=_provenance_settings,
    log:
        f"{RESULTS}/{{experiment}}/logs/provenance.log",
    threads: 1
    resources:
        mem_mb=500,
        runtime=5,
    script:
        "../../scripts/write_provenance.py"
