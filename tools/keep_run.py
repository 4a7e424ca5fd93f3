"""Keep a finished run of a whole experiment: its job files, combined records, summary and
provenance under ``reproduced/<experiment>/``, and its report rewritten from them.

Why: a campaign ends with a run of the whole experiment file that reads every unit kept so
far (``records_from=reproduced``) and writes the combined ``records.parquet``, the summary,
the provenance and the reports; those replace the committed ones. Copied by hand, a run that
is not the whole campaign (a pilot, a slice, a run from the wrong ``records_from``) replaces
committed records with fewer, and nothing says so until a report changes. So this tool:

* takes only a finished run (its ``provenance.json``, written last) of a whole experiment,
  or, with ``--slice``, of a slice (``<experiment>.slice-<hash>``: the datasets a machine
  has, say, when the rest is a cluster's job), kept as the experiment's committed run; its
  report says it is a slice and which datasets it covers;
* refuses to replace a committed ``records.parquet`` holding a record (by
  :data:`redecorate.reproduction.RECORD_KEYS`) that the run's does not: nothing computed is
  dropped by keeping a run; it names the datasets, algorithms and runs that would be lost;
* keeps the run's job files as ``tools/keep_records.py`` does (only those that computed
  something, never over the file a unit was read from);
* copies ``records.parquet``, ``summary.csv`` and ``provenance.json`` (each to a temporary
  name, then renamed; the provenance last, as the workflow writes it), and the experiment
  file beside them when it is neither a shipped one nor in this repository;
* rewrites the report in place from the copied records with today's code
  (``tools/regenerate_reports.py``: tables, PNG figures, ``replication.*``; no PDF or HTML).

Usage::

    python3 tools/keep_run.py ch8_afa --prefix thesis
    python3 tools/keep_run.py ch6_active --results /scratch/results --into reproduced
    python3 tools/keep_run.py oza_online_nn.slice-d4f390cb --slice --prefix thesis

Then ``python3 tools/replication_report.py`` for the report of every table.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
from pathlib import Path

os.environ.setdefault("MPLBACKEND", "Agg")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

import pandas as pd  # noqa: E402
from keep_records import keep_experiment, tally  # noqa: E402
from regenerate_reports import experiment_file, regenerate  # noqa: E402

from redecorate.layout import FINISHED_MARKER, SLICE_MARK, experiment_of_folder  # noqa: E402
from redecorate.reproduction import RECORD_KEYS  # noqa: E402

COMBINED = ("records.parquet", "summary.csv", FINISHED_MARKER)
"""The run's files copied as they are, in this order (the provenance, which marks a finished
run, last)."""


class RunNotKept(Exception):
    """Why a run cannot be kept, with what to do instead."""


def lost_records(kept: pd.DataFrame, run: pd.DataFrame) -> pd.DataFrame:
    """The records of ``kept`` that ``run`` lacks, by :data:`RECORD_KEYS` (those both have)."""
    keys = [k for k in RECORD_KEYS if k in kept.columns and k in run.columns]
    ours = run[keys].drop_duplicates()
    merged = kept[keys].drop_duplicates().merge(ours, on=keys, how="left", indicator=True)
    return merged[merged["_merge"] == "left_only"].drop(columns="_merge").reset_index(drop=True)


def _describe(lost: pd.DataFrame) -> str:
    groups = [c for c in ("dataset", "algorithm", "run") if c in lost.columns]
    if not groups:
        return f"{len(lost):,} records"
    counts = lost.groupby(groups, sort=True).size()
    shown = [f"{', '.join(str(v) for v in (key if isinstance(key, tuple) else (key,)))} ({n:,})"
             for key, n in counts.head(8).items()]
    more = f"; and {len(counts) - 8} more" if len(counts) > 8 else ""
    return (f"{len(lost):,} records in {len(counts)} ({'/'.join(groups)}) groups: " + "; ".join(shown) + more)


def check_run(source: Path, target: Path, slice_ok: bool = False) -> None:
    """Raise :class:`RunNotKept` unless ``source`` is a finished run of a whole experiment (or
    of a slice, when ``slice_ok``) holding every record the committed ``target`` holds."""
    name = source.name
    if SLICE_MARK in name and not slice_ok:
        raise RunNotKept(f"{source} is the run of a slice; run the whole experiment with "
                         f"records_from={target.parent} (it reads the slice's units) and keep that run, "
                         f"or pass --slice to keep the slice as {target} (its report says it is a slice)")
    if not source.is_dir():
        found = sorted(p.name for p in source.parent.glob("*/") if (p / FINISHED_MARKER).is_file())
        raise RunNotKept(f"no run of {name!r} under {source.parent} (finished runs there: "
                         f"{', '.join(found) or 'none'}; another scale's are under {source.parent}/_scales/<scale>)")
    if not (source / FINISHED_MARKER).is_file():
        raise RunNotKept(f"{source} has no {FINISHED_MARKER}: the run has not finished (the workflow writes it "
                         "last); finish it, or keep its job files alone with tools/keep_records.py")
    missing = [f for f in COMBINED if not (source / f).is_file()]
    if missing:
        raise RunNotKept(f"{source} lacks {', '.join(missing)}")
    experiment = json.loads((source / FINISHED_MARKER).read_text(encoding="utf-8"))["experiment"]
    if experiment["name"] != name:
        raise RunNotKept(f"{source / FINISHED_MARKER} records experiment {experiment['name']!r}, not {name!r}")
    recorded = Path(str(experiment.get("file") or ""))
    if experiment_file(source) is None and not recorded.is_file() and not (recorded.name and (target / recorded.name).is_file()):
        raise RunNotKept(f"the run's experiment file {recorded} is neither a shipped one nor found here, so its "
                         f"report cannot be rewritten; put it beside the records as {target / recorded.name}")
    if (target / "records.parquet").is_file():
        lost = lost_records(pd.read_parquet(target / "records.parquet"), pd.read_parquet(source / "records.parquet"))
        if len(lost):
            raise RunNotKept(
                f"{target / 'records.parquet'} holds records that {source / 'records.parquet'} does not: "
                f"{_describe(lost)}. Keeping the run would drop them: run the whole experiment with "
                f"records_from={target.parent} (it reads the committed units by key) and keep that run")


def _copy(source: Path, target: Path) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(target.name + ".tmp")
    shutil.copyfile(source, tmp)
    os.replace(tmp, target)


def keep_run(results: Path, into: Path, experiment: str, prefix: str = "", slice_ok: bool = False) -> list[str]:
    """Keep the finished run ``results/<experiment>`` under ``into/<name>`` (``name`` the
    experiment's, a slice's folder less its ``.slice-<hash>``; module docstring); what was
    done, one line each. Raises :class:`RunNotKept` before touching anything."""
    name = experiment_of_folder(experiment)
    source, target = results / experiment, into / name
    check_run(source, target, slice_ok)
    kept = keep_experiment(results, into, name, prefix)
    lines = [tally(kept)]
    recorded = Path(json.loads((source / FINISHED_MARKER).read_text(encoding="utf-8"))["experiment"].get("file") or "")
    if experiment_file(source) is None and recorded.is_file() and not (target / recorded.name).is_file():
        _copy(recorded, target / recorded.name)
        lines.append(f"experiment file: {recorded.name}")
    for name in COMBINED:
        _copy(source / name, target / name)
    lines.append("copied: " + ", ".join(COMBINED))
    changed = regenerate(target)
    lines.append(f"report: {len(changed)} files written" + "".join(f"\n  {c}" for c in changed))
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("experiments", nargs="+", help="experiment names (folders of the results directory)")
    parser.add_argument("--results", default="results", help="the results directory (default: results; "
                                                             "another scale's: results/_scales/<scale>)")
    parser.add_argument("--into", default="reproduced", help="where to keep them (default: reproduced)")
    parser.add_argument("--prefix", default="", help="name the job files' copies <prefix>-chunkN.parquet")
    parser.add_argument("--slice", action="store_true", dest="slice_ok",
                        help="keep the run of a slice (a folder <experiment>.slice-<hash>) as the experiment's")
    args = parser.parse_args(argv)
    status = 0
    for experiment in args.experiments:
        try:
            lines = keep_run(Path(args.results), Path(args.into), experiment, args.prefix, args.slice_ok)
        except RunNotKept as exc:
            print(f"{experiment}: not kept: {exc}", file=sys.stderr)
            status = 1
            continue
        print(f"{experiment}: kept under {Path(args.into) / experiment_of_folder(experiment)}" + "".join(f"\n  {line}" for line in lines))
    if status == 0:
        print("Then: python3 tools/replication_report.py (the report of every table).")
    return status


if __name__ == "__main__":
    sys.exit(main())
