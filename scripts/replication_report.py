"""Workflow entry point of the replication report of every published table.

Called by rule ``replication_report`` (workflow/rules/replication.smk): builds the index from
the records under the rule's root (:func:`redecorate.report.replication_index.build_index`)
and writes ``REPLICATION.md`` with its figures there, and the HTML page the Snakemake report
shows (:func:`redecorate.report.replication_index.write_report`).
"""

import os

os.environ.setdefault("MPLBACKEND", "Agg")  # no display on cluster nodes or CI

from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

from redecorate.report.replication_index import summary_line, write_report  # noqa: E402
from redecorate.reproduction import Inputs, replication_index  # noqa: E402
from redecorate.util import job_log  # noqa: E402


def main(smk: Any) -> None:
    """Write REPLICATION.md, its figures and its HTML page."""
    with job_log(smk.log[0] if smk.log else None):
        inputs = Inputs(Path(smk.params.root), Path(smk.params.published), Path(smk.params.experiments),
                        Path(smk.params.schema), Path(smk.params.registry), scale=str(smk.params.scale))
        index = replication_index(inputs)
        written = write_report(index, inputs.records, page=smk.output.page)
        print(f"{len(index.rows)} tables and figures, {len(written)} files: {summary_line(index)}")


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake's script directive
