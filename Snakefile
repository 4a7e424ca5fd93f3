"""redecorate: replicate Melville (2005) from public data with one command.

    snakemake --cores N                         # the thesis protocol (config/config.yaml)
    snakemake --cores 2 --config scale=quick    # minutes, offline

This file stays thin: it loads and validates the configuration, resolves the selected
experiment files and plans their jobs (workflow/rules/common.smk) and includes one rule file
per concern: one job rule, one combine rule and one report rule serve every kind of
experiment (redecorate.kinds). The science lives in the library (src/redecorate), the glue
in scripts/.
"""

from snakemake.utils import min_version

min_version("8.10")


# config/config.yaml is read by workflow/rules/common.smk (not by a `configfile:` directive),
# so that a mistake in it is reported with its file, line and key like any other config file.
# `snakemake --report results/report.html`: one self-contained HTML file (captions: workflow/report/).
report: "workflow/report/workflow.rst"


include: "workflow/rules/common.smk"
include: "workflow/rules/resume.smk"
include: "workflow/rules/data.smk"
include: "workflow/rules/jobs.smk"
include: "workflow/rules/aggregate.smk"
include: "workflow/rules/provenance.smk"
include: "workflow/rules/replication.smk"
include: "workflow/rules/status.smk"


rule all:
    default_target: True
    input:
        all_targets(),
