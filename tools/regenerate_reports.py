"""Rewrite committed experiment reports from their committed records with today's code.

Usage: ``python3 tools/regenerate_reports.py [EXPERIMENT ...] [--records reproduced]``
(default: every directory under ``reproduced/``, one or two levels down, with combined records,
a summary, a provenance file and an experiment file: ``config/experiments/<name>.yaml`` for a
directory named after a shipped experiment, else the experiment file its provenance records,
kept beside it or at that path in the repository, e.g. ``ch7_readings``,
``ch7_readings_schedule/ch7_binary_linear``).

Why: a committed report is otherwise rewritten only when its experiment runs again, so it keeps
the layout and the measures of the code that ran it; a campaign that finishes an experiment, a
fix to a measure, or an edited known disagreement must reach its report without rerunning a
job. The report is made by the workflow's own function
(:func:`redecorate.experiment_report.write_experiment_report`) from the committed
``records.parquet`` and ``summary.csv``, with the experiment file read at the scale its
``provenance.json`` records (and sliced as it records, for the run of a slice) and the
published values of ``config/published/``. Rewritten in
place: ``tables/``, the PNG figures (the committed root keeps no PDF), ``replication.md``,
``replication.csv`` and ``replication_conclusions.csv``. Records, summary and provenance are
never touched. Then run ``tools/replication_report.py`` for the report of every table.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

os.environ.setdefault("MPLBACKEND", "Agg")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
# NumPy's AVX-512 loops off before NumPy loads, as in the workflow's processes: the report's
# last bits (a geometric mean's log) then do not depend on the CPU.
from redecorate.determinism import pin_cpu_dispatch  # noqa: E402

pin_cpu_dispatch()

import pandas as pd  # noqa: E402

from redecorate.experiment_report import ReportFiles, write_experiment_report  # noqa: E402
from redecorate.experiments import load_experiment, report_settings, slice_experiments  # noqa: E402
from redecorate.layout import SLICE_MARK  # noqa: E402
from redecorate.provenance import recorded_file  # noqa: E402

KEPT = ("replication.md", "replication.csv", "replication_conclusions.csv")
"""The replication files a committed experiment directory keeps (no HTML page)."""


def experiment_file(directory: Path) -> Path | None:
    """The experiment file of a committed run's directory: the shipped one for a directory
    named after a shipped experiment; else the file its provenance records, kept beside it or
    found at the longest tail of that (other checkout's) path that exists here
    (:func:`redecorate.provenance.recorded_file`)."""
    shipped = ROOT / "config" / "experiments" / f"{directory.name}.yaml"
    if shipped.is_file():
        return shipped
    provenance = directory / "provenance.json"
    if not provenance.is_file():
        return None
    recorded = Path(str(json.loads(provenance.read_text(encoding="utf-8"))["experiment"].get("file") or ""))
    if recorded.name and (directory / recorded.name).is_file():
        return directory / recorded.name
    return recorded_file(recorded, ROOT)


def committed(records: Path) -> list[str]:
    """Every run directory under ``records`` (one or two levels down) this tool can rewrite,
    relative to ``records``."""
    found = []
    for d in sorted([*records.glob("*/"), *records.glob("*/*/")]):
        if ((d / "records.parquet").is_file() and (d / "summary.csv").is_file()
                and (d / "provenance.json").is_file() and experiment_file(d) is not None):
            found.append(d.relative_to(records).as_posix())
    return found


def regenerate(directory: Path) -> list[str]:
    """Rewrite the report in ``directory`` (``<root>/<experiment>``); the files that changed."""
    provenance = json.loads((directory / "provenance.json").read_text(encoding="utf-8"))
    scale = provenance["experiment"]["settings"]["scale"]
    path = experiment_file(directory)
    assert path is not None, directory  # committed() lists only directories with one
    spec = load_experiment(path, schema=ROOT / "workflow" / "schemas" / "experiment.schema.yaml", scale=scale)
    if SLICE_MARK in provenance["experiment"]["name"]:  # the run of a slice: its report says so
        settings = provenance["experiment"]["settings"]
        spec = slice_experiments({spec.name: spec}, list(settings["algorithms"]), settings["datasets"],
                                 source=str(directory / "provenance.json"))[spec.name]  # fmt: skip
    report = report_settings(spec, ROOT / "config" / "published").to_json()
    with tempfile.TemporaryDirectory(prefix=f"report_{directory.name}_") as tmp:
        out = Path(tmp)
        write_experiment_report(pd.read_parquet(directory / "records.parquet"),
                                pd.read_csv(directory / "summary.csv"), report, ReportFiles.in_directory(out))
        fresh = {**{f: out / f for f in KEPT},
                 **{f"tables/{p.name}": p for p in sorted((out / "tables").iterdir())},
                 **{f"figures/{p.name}": p for p in sorted((out / "figures").glob("*.png"))}}
        old = {f"{sub}/{p.name}" for sub, pattern in (("tables", "*"), ("figures", "*.png"))
               for p in (directory / sub).glob(pattern) if p.is_file()}
        changed = [rel for rel, src in fresh.items()
                   if not (directory / rel).is_file() or (directory / rel).read_bytes() != src.read_bytes()]
        for rel in changed:
            (directory / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(fresh[rel], directory / rel)
        gone = sorted(old - set(fresh))  # tables and figures today's report no longer writes
        for rel in gone:
            (directory / rel).unlink()
    return changed + [f"{rel} (removed)" for rel in gone]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("experiments", nargs="*", help="default: every committed experiment")
    parser.add_argument("--records", type=Path, default=ROOT / "reproduced")
    args = parser.parse_args(argv)
    available = committed(args.records)
    unknown = [e for e in args.experiments if e not in available]
    if unknown:
        parser.error(f"not under {args.records} with records, summary, provenance and an experiment file: "
                     f"{', '.join(unknown)} (available: {', '.join(available)})")
    for name in args.experiments or available:
        changed = regenerate(args.records / name)
        print(f"{name}: {len(changed)} files changed" + "".join(f"\n  {c}" for c in changed), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
