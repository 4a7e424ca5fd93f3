"""What the runs beyond a pilot changed: every published table's verdict and measures from its
experiments' first run alone beside those from every committed run.

Usage: ``python3 tools/scale_comparison.py [RECORDS_ROOT] [--runs N] [--out FILE]`` (default
``reproduced``, 1 run, the Markdown table on standard output).

A campaign's pilot is its first run (run 0; chapter 7's ten runs and chapters 6 and 8's two and
five start with it), so the report of run 0 alone is the pilot's, recomputed from today's
records with today's code, and the report of every run is the campaign's. Both are made by
:func:`redecorate.reproduction.replication_index`, the one that writes ``REPLICATION.md``, so a
measure means the same on both sides: sign agreement beside what the best constant prediction
("always positive" or "always negative") scores on the same cells (trivial), Spearman's rank
correlation of published and reproduced values, and
the share of published values inside the reproduced 95 % interval. Only tables with more runs
recorded than ``N`` are listed: for the others both sides are the same records.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path

os.environ.setdefault("MPLBACKEND", "Agg")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from redecorate.report.replication_index import ReplicationIndex, Row  # noqa: E402
from redecorate.report.tables import fmt  # noqa: E402
from redecorate.reproduction import Inputs, experiment_records, replication_index  # noqa: E402


def _cells(row: Row) -> list[str]:
    m = row.measures
    verdict = row.on_evidence
    return [verdict, f"{fmt(m['sign_agreement'])} ({fmt(m['trivial'])})", fmt(m["spearman"]),
            fmt(m["inside_interval"])]


def comparison(first: ReplicationIndex, every: ReplicationIndex, runs_recorded: dict[str, int],
               runs: int) -> str:
    """The Markdown table of the rows whose experiments recorded more than ``runs`` runs."""
    header = ["Table", "Experiments", "Runs", f"On evidence, {runs} run{'s' if runs > 1 else ''}",
              "Sign (trivial)", "Spearman", "Inside 95 %", "On evidence, every run", "Sign (trivial)",
              "Spearman", "Inside 95 %", "Scale now"]
    lines = ["| " + " | ".join(header) + " |", "|" + " --- |" * 3 + " --- | --: | --: | --: |" * 2 + " --- |"]
    for a, b in zip(first.scored, every.scored, strict=True):
        most = max((runs_recorded.get(e, 0) for e in b.item.experiments), default=0)
        if most <= runs or b.evidence.empty:
            continue
        lines.append("| " + " | ".join([f"{b.item.item}", ", ".join(b.item.experiments), str(most),
                                        *_cells(a), *_cells(b), b.scale.text]) + " |")
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("records", nargs="?", default=ROOT / "reproduced", type=Path)
    parser.add_argument("--runs", type=int, default=1, help="the pilot's runs (default 1: run 0)")
    parser.add_argument("--out", type=Path, help="write the table here too")
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error(f"--runs must be at least 1, got {args.runs}")
    first = replication_index(Inputs.of_repository(args.records, ROOT, runs=args.runs))
    every = replication_index(Inputs.of_repository(args.records, ROOT))
    runs_recorded = {}
    for name in every.experiments:
        records = experiment_records(args.records, name)
        runs_recorded[name] = int(records["run"].nunique()) if records is not None and "run" in records else 0
    table = comparison(first, every, runs_recorded, args.runs)
    print(table, end="")
    if args.out:
        args.out.write_text(table, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
