"""Write ``config/engine_revisions.tsv``: the commits named by the committed records whose
code predates an engine's speed levers (the C4.5 engine's; chapter 8's merged masked rows; the
network kernel's).

Why: the cost model prices today's engine (``redecorate.learners.cost.ENGINE_SPEED``), and
the calibration against the committed runs (``redecorate.calibration``, the planner's
plan/measured column) must compare each measured CPU with the engine that spent it. A job
file names the commit that computed each unit; whether that commit had the levers is a
question for git, which a test run or a cluster node may not have, so the answer is
committed as a table. The levers are exact (the same trees), so no record depends on it.

Run after committing records computed at a commit not yet classified (a new commit descends
from the levers and needs no row: a commit absent from the table is today's engine)::

    python3 tools/engine_revisions.py            # rewrite the table
    python3 tools/engine_revisions.py --check    # exit 1 if it is out of date
"""

from __future__ import annotations

import argparse
import glob
import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))

from redecorate.calibration import ENGINE_REVISIONS  # noqa: E402
from redecorate.job_records import job_record_info  # noqa: E402

LEVERS = {"c45": ("86b06a4", "cd1e6af"), "masked_rows": ("e4e7f28",), "network": ("02690e153b",)}
"""Per engine, the commits with all of its speed levers: a descendant of any runs today's code.
``c45``: the C4.5 engine's levers (main's and the branch's that measured them,
``benchmarks/results/unit_cpu.md``); ``masked_rows``: chapter 8's acquisition loop fitting
each distinct masked row once (``redecorate.kinds.acquisition.MERGED_ROWS``); ``network``: the
backpropagation kernel with its first layer transposed (``NETWORK_WEIGHT_SPEED``)."""

HEADER = ("# Commits named by committed records whose code predates an engine's speed levers\n"
          "# (written by tools/engine_revisions.py; read by redecorate.calibration).\n")


def named_commits(repo: Path) -> Counter[str]:
    """Commit -> how many committed job files or provenance jobs name it."""
    found: Counter[str] = Counter()
    for path in glob.glob(str(repo / "reproduced" / "**" / "*.parquet"), recursive=True):
        info = job_record_info(path) or {}
        for commit in {info.get("commit"), *(info.get("unit_commits") or [])}:
            if commit:
                found[commit] += 1
    for path in glob.glob(str(repo / "reproduced" / "**" / "provenance.json"), recursive=True):
        for job in json.loads(Path(path).read_text(encoding="utf-8")).get("jobs", []):
            records = job.get("records") or {}
            for commit in {records.get("commit"), *(records.get("cpu_s_by_commit") or {})}:
                if commit and commit != "unknown":
                    found[commit] += 1
    return found


def _descends(ancestor: str, commit: str, repo: Path) -> bool:
    return subprocess.run(["git", "merge-base", "--is-ancestor", ancestor, commit], cwd=repo,
                          capture_output=True).returncode == 0


def _known(commit: str, repo: Path) -> bool:
    return subprocess.run(["git", "cat-file", "-e", f"{commit}^{{commit}}"], cwd=repo,
                          capture_output=True).returncode == 0


def table(repo: Path) -> str:
    """The TSV text: one row per (commit, engine) before that engine's levers."""
    lines = [HEADER, "commit\tengine\tdate\n"]
    for commit in sorted(named_commits(repo)):
        if not _known(commit, repo):
            print(f"warning: {commit} is not in this repository's history; left out", file=sys.stderr)
            continue
        date = subprocess.run(["git", "log", "-1", "--format=%cI", commit], cwd=repo,
                              capture_output=True, text=True, check=True).stdout.strip()
        for engine, levers in LEVERS.items():
            if not any(_descends(lever, commit, repo) for lever in levers):
                lines.append(f"{commit}\t{engine}\t{date}\n")
    return "".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if the table is out of date")
    args = parser.parse_args(argv)
    text = table(REPO)
    path = REPO / ENGINE_REVISIONS
    if args.check:
        current = path.read_text(encoding="utf-8") if path.is_file() else ""
        if current != text:
            print(f"{path.relative_to(REPO)} is out of date: run python3 tools/engine_revisions.py")
            return 1
        print(f"{path.relative_to(REPO)} is up to date")
        return 0
    path.write_text(text, encoding="utf-8")
    print(f"wrote {path.relative_to(REPO)}: {text.count(chr(10)) - 3} (commit, engine) rows before the levers")
    return 0


if __name__ == "__main__":
    sys.exit(main())
