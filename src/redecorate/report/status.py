"""What a partial run lacks: the table the HTML report shows when some jobs failed.

Why: with ``--keep-going`` a failed job (say, a dataset that cannot be downloaded) leaves
its experiment without aggregate outputs while the other experiments finish. The report is
then built from the finished experiments only, and this table says, up front, which
experiments are incomplete, which job outputs are missing, and the error each failed job's
log ends with, so a reader knows what the report leaves out and why without opening logs.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from redecorate.util import write_csv_atomic

STATUS_COLUMNS = ("experiment", "job", "missing_output", "log", "last_error")
NOT_RUN = "not run: no job of this experiment has finished"


@dataclass(frozen=True)
class ExpectedOutput:
    """One job output an experiment needs, and the log its job writes."""

    job: str
    output: str
    log: str


def last_error(log: str | os.PathLike[str], max_chars: int = 300) -> str:
    """The most telling line of a job log: the last one naming an error, else the last line.

    A job that never started (its input failed first) has no log; that is said explicitly.
    """
    path = Path(log)
    if not path.is_file():
        return "no log: the job did not run (an input it needs is missing)"
    lines = [line.strip() for line in path.read_text(errors="replace").splitlines() if line.strip()]
    if not lines:
        return "empty log"
    errors = [line for line in lines if "error" in line.lower() or "exception" in line.lower()]
    line = (errors or lines)[-1]
    return line if len(line) <= max_chars else line[: max_chars - 1] + "…"


def missing_outputs(expected: Mapping[str, Iterable[ExpectedOutput]]) -> list[dict[str, str]]:
    """One row per expected output that does not exist, per experiment (sorted, stable).

    An experiment none of whose own jobs has finished (it was not part of the run, e.g. a
    report over more experiments than were run) gets one row saying so, not thousands.
    Dataset preparation is shared between experiments, so it does not count as started.
    """
    rows = []
    for experiment in sorted(expected):
        items = list(expected[experiment])
        own = [item for item in items if not item.job.startswith("prepare_dataset/")]
        if own and not any(Path(item.output).exists() for item in own):
            rows.append(
                {
                    "experiment": experiment,
                    "job": f"all {len(own)} jobs",
                    "missing_output": str(Path(own[-1].output).parent),
                    "log": "",
                    "last_error": NOT_RUN,
                }
            )
            continue
        for item in items:
            if not Path(item.output).exists():
                rows.append(
                    {
                        "experiment": experiment,
                        "job": item.job,
                        "missing_output": item.output,
                        "log": item.log,
                        "last_error": last_error(item.log),
                    }
                )
    return rows


def write_run_status(path: str | os.PathLike[str], rows: list[dict[str, str]]) -> Path:
    """Write the missing-output table as CSV, atomically (a report never reads half a file)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_csv_atomic(pd.DataFrame(rows, columns=list(STATUS_COLUMNS)), path)
    return path


def experiments_not_run(rows: Iterable[Mapping[str, str]]) -> set[str]:
    """The experiments of :func:`missing_outputs` rows none of whose own jobs has finished."""
    return {row["experiment"] for row in rows if row["last_error"] == NOT_RUN}


def nothing_to_report(experiments: Iterable[str], results: str, scale: str,
                      elsewhere: Mapping[str, list[str]]) -> str:
    """Why ``--report`` stops when no job of any selected experiment has finished at this
    scale (a run that failed part-way is reported instead, with its missing outputs).

    A report of nothing (usually a ``--config`` other than the run's) used to print docutils
    errors about missing sections and exit 0 listing every output as missing; this says what
    was looked for, where, and which scale does have results.
    """
    names = sorted(experiments)
    lines = [f"Nothing to report: no job of the selected experiments ({', '.join(names)}) has "
             f"finished at scale {scale!r} (looked in {results}/<experiment>/).",
             "Give --report the same --config as the run it reports on."]
    for other, done in sorted(elsewhere.items()):
        lines.append(f"Finished at scale {other!r}: {', '.join(done)} "
                     f"(--report ... --config scale={other} experiments=[{','.join(done)}]).")
    if not elsewhere:
        lines.append("No other scale has finished results for them either: run the workflow first.")
    return "\n".join(lines)

