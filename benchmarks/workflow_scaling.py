"""Benchmark: wall time of the whole workflow at ``--cores 1`` vs ``--cores 2``, and where it goes.

Why: the unit of work (one run of k-fold CV of one algorithm on one dataset) was chosen so
jobs spread over cores; this checks that they do (target: >= 1.8x speed-up on 2 cores) and
shows which rules cost what, from the ``benchmark:`` files every rule writes.

Method: for each core count, a fresh working directory (nothing cached but the numba cache
in the repository's ``__pycache__``, identical for both), one ``snakemake --cores N
--config scale=PROFILE`` timed from the outside (perf_counter around the whole process:
parsing, scheduling and all jobs). Per rule, the sum and maximum of the benchmark files'
wall seconds (``s``) and CPU seconds (``cpu_time``) of the 2-core run. The 1-minute load
average before and after each run is reported, because the machine is shared: a busy
second core caps the speed-up and the file says so. The records of both runs are compared
(every column but ``fit_seconds``) as a determinism check.

Usage (from the repository root)::

    python benchmarks/workflow_scaling.py                 # ch4_passive, quick profile
    python benchmarks/workflow_scaling.py --config experiments=all     # every experiment
    python benchmarks/workflow_scaling.py --scale smoke \\
        --config experiments=[ch4_passive] data_mirror=../shared/datasets/uci   # seconds

Writes ``benchmarks/results/workflow_scaling.md``.
"""

from __future__ import annotations

import argparse
import csv
import os
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from datetime import UTC, datetime
from pathlib import Path

import pandas as pd

from redecorate.layout import results_root

REPO = Path(__file__).resolve().parents[1]
RESULTS_FILE = REPO / "benchmarks" / "results" / "workflow_scaling.md"
TIMING_COLUMNS = ("fit_seconds",)


def _load() -> float:
    return os.getloadavg()[0]


def _path_without_slurm() -> str:
    """PATH with a stub ``scontrol`` in front, created once per process.

    The SLURM executor plugin, when installed (the ``slurm`` extra), runs ``scontrol show
    config`` every time Snakemake starts; on a machine with SLURM's client tools but no
    controller that call waits for its 10-second timeout, which has nothing to do with the
    workflow's own parallelism and is absent from the quickstart install. The stub fails at
    once, as a missing ``scontrol`` would.
    """
    stub_dir = Path(tempfile.gettempdir()) / f"workflow_scaling_stub_{os.getpid()}"
    stub_dir.mkdir(exist_ok=True)
    stub = stub_dir / "scontrol"
    stub.write_text("#!/bin/sh\nexit 1\n", encoding="utf-8")
    stub.chmod(0o755)
    return f"{stub_dir}{os.pathsep}{os.environ.get('PATH', '')}"


def run_workflow(workdir: Path, cores: int, scale: str, extra_config: list[str]) -> dict[str, float]:
    """One complete workflow run; returns wall seconds and the load averages around it."""
    command = [
        sys.executable, "-m", "snakemake", "--snakefile", str(REPO / "Snakefile"),
        "--directory", str(workdir), "--cores", str(cores), "--workflow-profile", "none",
        "--config", f"scale={scale}", *extra_config,
    ]  # fmt: skip
    env = {**os.environ, "PYTHONHASHSEED": "0", "MPLBACKEND": "Agg", "PATH": _path_without_slurm()}
    load_before = _load()
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, env=env)
    wall = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"snakemake --cores {cores} failed:\n{(done.stdout + done.stderr)[-4000:]}")
    return {"wall_s": wall, "load_before": load_before, "load_after": _load()}


def rule_costs(workdir: Path) -> pd.DataFrame:
    """Per rule: number of jobs, summed and maximal wall/CPU seconds from benchmark files."""
    rows = []
    for path in workdir.rglob("benchmarks/**/*.tsv"):
        relative = path.relative_to(workdir).as_posix()
        if relative.startswith("data/"):
            rule = "prepare_dataset"
        elif path.stem in ("combine_records", "report_experiment"):
            rule = path.stem
        else:
            rule = "passive_job"
        with path.open(encoding="utf-8", newline="") as handle:
            for record in csv.DictReader(handle, delimiter="\t"):
                rows.append({"rule": rule, "wall_s": float(record["s"]), "cpu_s": float(record["cpu_time"])})
    frame = pd.DataFrame(rows)
    grouped = frame.groupby("rule").agg(
        jobs=("wall_s", "size"),
        wall_sum=("wall_s", "sum"),
        wall_max=("wall_s", "max"),
        cpu_sum=("cpu_s", "sum"),
    )
    grouped["share_of_wall"] = grouped["wall_sum"] / grouped["wall_sum"].sum()
    return grouped.sort_values("wall_sum", ascending=False)


def same_records(a: Path, b: Path) -> bool:
    """Records identical but for clock readings (the project's definition)."""
    left, right = pd.read_parquet(a), pd.read_parquet(b)
    keep = [c for c in left.columns if c not in TIMING_COLUMNS]
    return left[keep].equals(right[keep])


def main() -> None:
    """Run both core counts, write the Markdown results file."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scale", default="quick")
    parser.add_argument(
        "--config",
        nargs="*",
        default=["experiments=[ch4_passive]"],
        help="extra --config KEY=VALUE items (default: the chapter-4 experiment alone)",
    )
    parser.add_argument("--output", type=Path, default=RESULTS_FILE)
    args = parser.parse_args()

    timings: dict[int, dict[str, float]] = {}
    with tempfile.TemporaryDirectory(prefix="workflow_scaling.") as tmp:
        dirs = {cores: Path(tmp) / f"cores{cores}" for cores in (1, 2)}
        for cores, workdir in dirs.items():
            workdir.mkdir()
            print(f"--cores {cores} ...", flush=True)
            timings[cores] = run_workflow(workdir, cores, args.scale, args.config)
            print(f"  {timings[cores]['wall_s']:.1f} s", flush=True)
        costs = rule_costs(dirs[2])
        records = defaultdict(list)
        for cores, workdir in dirs.items():
            records[cores] = sorted(workdir.glob(f"{results_root('results', args.scale)}/*/records.parquet"))
        identical = all(same_records(a, b) for a, b in zip(records[1], records[2], strict=True))

    speedup = timings[1]["wall_s"] / timings[2]["wall_s"]
    busy = max(t["load_before"] for t in timings.values())
    lines = [
        "# Workflow scaling: `--cores 1` vs `--cores 2`",
        "",
        f"Measured {datetime.now(UTC):%Y-%m-%d %H:%M} UTC with `benchmarks/workflow_scaling.py --scale "
        f"{args.scale} --config {' '.join(args.config)}` on {os.cpu_count()} cores ({sys.platform}, "
        f"Python {sys.version.split()[0]}).",
        "",
        "| cores | wall (s) | 1-min load before | after |",
        "| ---: | ---: | ---: | ---: |",
        *(
            f"| {c} | {t['wall_s']:.1f} | {t['load_before']:.2f} | {t['load_after']:.2f} |"
            for c, t in sorted(timings.items())
        ),
        "",
        f"**Speed-up 1 → 2 cores: {speedup:.2f}×** (target ≥ 1.8×). Records of both runs identical "
        f"(all columns but `fit_seconds`): **{identical}**.",
        "",
    ]
    # Amdahl's law from the two runs: serial + parallel at 1 core, serial + parallel/2 at 2.
    serial = max(0.0, 2 * timings[2]["wall_s"] - timings[1]["wall_s"])
    lines += [
        f"Serial part (Amdahl, 2·T₂ − T₁): {serial:.1f} s of {timings[1]['wall_s']:.1f} s: Snakemake "
        "start-up and DAG, the first `prepare_dataset` jobs, the aggregation at the end, and the "
        "tail while the last job runs alone. `scontrol` is stubbed out (see `_path_without_slurm`).",
        "",
    ]
    if busy > 0.5:
        lines += [
            f"Caveat: the 1-minute load average was up to {busy:.1f} before a run on "
            f"{os.cpu_count()} cores, so the second core was not entirely free and this speed-up "
            "is a lower bound of what an idle machine gives.",
            "",
        ]
    lines += [
        "## Where the time goes (2-core run, from the rules' `benchmark:` files)",
        "",
        "| rule | jobs | wall sum (s) | wall max (s) | CPU sum (s) | share of job wall |",
        "| --- | ---: | ---: | ---: | ---: | ---: |",
        *(
            f"| {rule} | {int(r.jobs)} | {r.wall_sum:.1f} | {r.wall_max:.1f} | {r.cpu_sum:.1f} | "
            f"{r.share_of_wall:.0%} |"
            for rule, r in costs.iterrows()
        ),
        "",
        "Wall sums exceed the run's wall time because jobs overlap. The difference between a "
        "job's wall and CPU time is mostly process start-up (Python, numba, pandas imports) and, "
        "on a loaded machine, waiting for a core.",
        "",
    ]
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text("\n".join(lines), encoding="utf-8")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
