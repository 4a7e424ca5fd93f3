"""Workflow entry point: write ``results/<experiment>/provenance.json``.

Called by rule ``provenance`` (workflow/rules/provenance.smk); the content is defined by
:func:`redecorate.provenance.build_provenance`.
"""

from typing import Any

from redecorate.job_records import job_record_info, with_unit_commits
from redecorate.provenance import build_provenance, write_provenance
from redecorate.util import job_log


def main(smk: Any) -> None:
    """Collect the provenance of ``smk.wildcards.experiment`` and write it atomically."""
    settings = dict(smk.params.provenance)
    with job_log(smk.log[0] if smk.log else None):
        data = build_provenance(
            experiment=smk.wildcards.experiment,
            repo=settings["repo"],
            config=settings["config"],
            experiment_settings=settings["experiment"],
            sidecars=list(smk.input.sidecars),
            benchmarks=settings["benchmarks"],
            experiment_file=settings["experiment_file"],
            job_records={job: with_unit_commits(job_record_info(path))
                         for job, path in settings["job_records"].items()},
        )
        write_provenance(data, smk.output[0])
        missing = [j["job"] for j in data["jobs"] if j["wall_s"] is None]
        print(f"provenance: {data['totals']}; jobs without benchmark: {missing or 'none'}")


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake's script directive
