"""Aggregation: job records -> one records table -> summary, tables, figures, replication.

Two steps so that a problem in the reporting code never costs the (expensive) combined
records, and so the report can be rebuilt alone after editing the report library. One rule
each for every kind: the report script calls the experiment kind's own report
(redecorate.kinds), which writes the same files for every kind.
"""

from redecorate.experiment_report import ReportFiles
from redecorate.experiments import report_settings

# The report's files, spelled once (the library's layout; the wildcard left in place).
REPORT_FILES = ReportFiles.in_directory(f"{RESULTS}/{{experiment}}")


def aggregate_target(experiment):
    """The file that marks an experiment as fully aggregated."""
    return str(REPORT_FILES.markdown).format(experiment=experiment)


def page_target(experiment):
    """The replication report as an HTML page: what `--report` shows of replication.md."""
    return str(REPORT_FILES.html).format(experiment=experiment)


def _report_settings(wildcards):
    return report_settings(EXPERIMENTS[wildcards.experiment], PUBLISHED).to_json()


def _report_sources(wildcards):
    """The transcribed values a report compares with: editing one rebuilds the report."""
    settings = report_settings(EXPERIMENTS[wildcards.experiment], PUBLISHED)
    return [*settings.published, *([settings.disagreements] if settings.disagreements else [])]


rule combine_records:
    input:
        experiment_records,
    output:
        records=f"{RESULTS}/{{experiment}}/records.parquet",
        summary=f"{RESULTS}/{{experiment}}/summary.csv",
    params:
        # How summary.csv lines up the folds' curves (by point, or by batch: chapter 7).
        align=lambda wildcards: get_kind(EXPERIMENTS[wildcards.experiment].kind).alignment(
            EXPERIMENTS[wildcards.experiment]
        ),
    log:
        f"{RESULTS}/{{experiment}}/logs/combine_records.log",
    benchmark:
        f"{RESULTS}/{{experiment}}/benchmarks/combine_records.tsv"
    threads: 1
    resources:
        mem_mb=2000,
        runtime=15,
    script:
        "../../scripts/combine_records.py"


rule report_experiment:
    input:
        records=f"{RESULTS}/{{experiment}}/records.parquet",
        summary=f"{RESULTS}/{{experiment}}/summary.csv",
        published=_report_sources,
    output:
        # report(...): what `snakemake --report results/report.html` shows (captions in
        # workflow/report/; the numbered categories put reproduced-vs-published first).
        tables=report(
            directory(str(REPORT_FILES.tables)),
            patterns=["{name}.csv"],
            category="2. Tables",
            subcategory="{experiment}",
            caption="../report/tables.rst",
            labels={"experiment": "{experiment}", "table": "{name}"},
        ),
        figures=report(
            directory(str(REPORT_FILES.figures)),
            patterns=["{name}.png"],
            category="3. Figures",
            subcategory="{experiment}",
            caption="../report/figures.rst",
            labels={"experiment": "{experiment}", "figure": "{name}"},
        ),
        replication_md=str(REPORT_FILES.markdown),
        # replication.md as a page of the HTML report: the verdict (comparable or not, and why)
        # and the conclusions exist only there. Written by this job from the Markdown it has
        # just written, not by a rule of its own, which would start a process (on a cluster a
        # job) to convert a few kilobytes.
        replication_html=report(
            str(REPORT_FILES.html),
            category="1. Reproduced vs published",
            subcategory="{experiment}",
            caption="../report/replication_page.rst",
            labels={"experiment": "{experiment}", "table": "replication report (verdict, conclusions)"},
        ),
        replication_csv=report(
            str(REPORT_FILES.csv),
            category="1. Reproduced vs published",
            subcategory="{experiment}",
            caption="../report/replication.rst",
            labels={"experiment": "{experiment}", "table": "replication"},
        ),
        replication_conclusions=report(
            str(REPORT_FILES.conclusions),
            category="1. Reproduced vs published",
            subcategory="{experiment}",
            caption="../report/conclusions.rst",
            labels={"experiment": "{experiment}", "table": "conclusions"},
        ),
    params:
        report=_report_settings,
    log:
        f"{RESULTS}/{{experiment}}/logs/report.log",
    benchmark:
        f"{RESULTS}/{{experiment}}/benchmarks/report_experiment.tsv"
    threads: 1
    resources:
        mem_mb=2000,
        runtime=30,
    script:
        "../../scripts/report_experiment.py"
