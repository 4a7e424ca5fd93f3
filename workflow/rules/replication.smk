"""The replication report of every published table: REPLICATION.md, one verdict per table.

Written at the root of the records it summarises (redecorate.report.replication_index): by
default this run's results root, after every selected experiment's records; with
`--config replication_records=reproduced`, the committed records as they are (nothing is
run), into reproduced/ itself (its HTML page and log stay in results/):

    snakemake --cores 2 --config replication_records=reproduced replication_report

The report reads only the records, the published values and the experiment files, so its
inputs are exactly those: editing a published table, a known disagreement or an experiment
file rebuilds it, and no job.
"""

from redecorate.layout import SLICE_MARK
from redecorate.report.replication_index import EXPLORER_FILE, FIGURES_DIR, REPORT_FILE

REPLICATION_ROOT = (config["replication_records"] or RESULTS).rstrip("/")


def replication_inputs():
    """The records the report reads: every experiment's combined records under its root as they
    are, and, unless replication_records is given, this run's own (built first).

    The report covers every experiment under the root, not only this run's selection, so a run
    of one experiment rewrites it with the others still in it; a slice's records
    (`<experiment>.slice-<hash>/`) are never part of it, so a slice leaves the whole run's
    report as it was (and up to date)."""
    root = Path(REPLICATION_ROOT)
    found = {str(p) for pattern in ("*/records.parquet", "*/*/records.parquet") for p in root.glob(pattern)}
    if config["replication_records"] is None:
        found |= {f"{RESULTS}/{name}/records.parquet" for name in EXPERIMENTS}
    return sorted(p for p in found if SLICE_MARK not in p)


def replication_target():
    """The HTML page of the report (what `rule all` and `--report` ask for): in this run's
    results, whatever root it summarises, since it belongs to this run's Snakemake report."""
    return f"{RESULTS}/REPLICATION.html"


# One job over every experiment's records, a minute or two of CPU: it runs where Snakemake
# runs (on a cluster, the login node), not as a cluster job of its own that would wait in the
# queue behind the run it summarises.
localrules:
    replication_report,


rule replication_report:
    input:
        records=replication_inputs(),
        published=sorted(str(p) for p in PUBLISHED.glob("*.tsv")),
        experiments=sorted(str(p) for p in (REPO / "config" / "experiments").glob("*.yaml")),
    output:
        markdown=f"{REPLICATION_ROOT}/{REPORT_FILE}",
        figures=directory(f"{REPLICATION_ROOT}/{FIGURES_DIR}"),
        explorer=f"{REPLICATION_ROOT}/{EXPLORER_FILE}",
        page=report(
            replication_target(),
            category="0. Replication report",
            caption="../report/replication_index.rst",
            labels={"report": "every published table: scale, verdict, evidence"},
        ),
    params:
        root=REPLICATION_ROOT,
        published=str(PUBLISHED),
        experiments=str(REPO / "config" / "experiments"),
        schema=str(REPO / "workflow" / "schemas" / "experiment.schema.yaml"),
        registry=str(RUN.registry_path),
        scale=config["scale"],
    log:
        f"{RESULTS}/logs/replication_report.log",
    threads: 1
    resources:
        mem_mb=4000,
        runtime=30,
    script:
        "../../scripts/replication_report.py"
