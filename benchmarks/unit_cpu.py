"""Benchmark: the process CPU of whole units (one fold each) at git revisions of the code.

Why: ``tree_replay.py`` times the J48 engine alone; a unit also scores pools, predicts,
evaluates and draws artificial examples, so what a speed lever saves the campaign is
measured on the unit itself. Each revision is taken from git (``benchmarks/revisions.py``; numba compiles it once there), and each measurement is a fresh
process that imports that tree's ``redecorate``, warms up the compiled kernels, then runs
what a source of :data:`tree_replay.SOURCES` names and reports its process CPU: fold 0 of
run 0 of a unit (the thesis protocol), or for chapter 8's masked pools the DECORATE fits of
Table 8.3 at five checkpoints of that fold (a whole unit refits at every batch of its
curve: hours of CPU). Revisions take turns within each repetition (the order rotating); the
median over ``--reps`` is reported, since the machine is shared.

Usage (from the repository root)::

    python benchmarks/unit_cpu.py --revs 9bcb5d8,HEAD --sources car,segment-pets --reps 3

Result: ``benchmarks/results/unit_cpu.md`` (``--name`` for another stem).
"""

from __future__ import annotations

import argparse
import json
import shlex
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

from revisions import process_env, subject, tree  # noqa: E402

#: Run in a fresh process with the revision's ``src`` first on the path: imports that
#: tree's package before the benchmark modules (which would put this tree's ``src`` first).
_DRIVER = """
import json, sys, time
import redecorate
sys.path.insert(1, {benchmarks!r})
import tree_replay
tree_replay._warm_up()
cpu = time.process_time()
tree_replay._run_source(tree_replay.SOURCES[{source!r}])
print(json.dumps({{"cpu": time.process_time() - cpu, "package": redecorate.__file__}}))
"""


def unit_cpu(folder: Path, source: str) -> float:
    """Process CPU of fold 0 of ``source``'s unit with the code in ``folder``."""
    done = subprocess.run([sys.executable, "-c", _DRIVER.format(benchmarks=str(HERE), source=source)],
                          cwd=ROOT, env=process_env(folder), capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"{source} at {folder.name}: {done.stderr[-2000:]}")
    out = json.loads(done.stdout.strip().splitlines()[-1])
    if not out["package"].startswith(str(folder)):
        raise RuntimeError(f"{source}: imported {out['package']}, not the tree of {folder.name}")
    return float(out["cpu"])


def main(argv: Sequence[str] | None = None) -> int:
    from j48_vs_weka import load_average, run_setting
    from tree_replay import SOURCES

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--revs", default="HEAD~1,HEAD", help="comma-separated git revisions, the first the reference")
    parser.add_argument("--sources", default="car,nursery,segment-bootstrap,segment-pets",
                        help=f"of {', '.join(SOURCES)}")
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--labels", default="", help="comma-separated names of the revisions in the result")
    parser.add_argument("--out-dir", type=Path, default=HERE / "results")
    parser.add_argument("--name", default="unit_cpu")
    args = parser.parse_args(argv)
    sources = [s for s in args.sources.split(",") if s]
    if bad := [s for s in sources if s not in SOURCES]:
        parser.error(f"--sources: unknown {', '.join(bad)}; known: {', '.join(SOURCES)}")
    trees = [tree(r) for r in args.revs.split(",") if r]
    names = [n for n in args.labels.split(",") if n] or [c for c, _ in trees]
    if len(names) != len(trees):
        parser.error("--labels: one name per revision")
    load_start = load_average()
    started = time.perf_counter()
    for _, folder in trees:  # compile each tree's kernels before anything is timed
        unit_cpu(folder, "car")
    cpu: dict[tuple[str, int], list[float]] = {(s, i): [] for s in sources for i in range(len(trees))}
    for r in range(args.reps):
        order = list(range(len(trees)))
        order = order[r % len(order):] + order[:r % len(order)]
        for s in sources:
            for i in order:
                cpu[(s, i)].append(unit_cpu(trees[i][1], s))
                print(f"rep {r + 1} {s} {names[i]}: {cpu[(s, i)][-1]:.2f} s", flush=True)
    median = {key: statistics.median(v) for key, v in cpu.items()}
    lines = [
        "# Whole units at revisions of the code: process CPU of one fold",
        "",
        "Fold 0 of run 0 of each unit at the thesis protocol (masked pools: the DECORATE fits at five "
        "checkpoints of that fold), each measurement a fresh process "
        "(kernels warmed up first, not counted); see the docstring of `benchmarks/unit_cpu.py`. "
        f"Median of {args.reps}, revisions in turns; min-max in brackets.",
        "",
        "## Setting",
        "",
        f"- **command**: python benchmarks/unit_cpu.py {shlex.join(sys.argv[1:] if argv is None else argv)}",
        "- **revisions**: " + "; ".join(f"{n} = {c} ({subject(c)})"
                                        for n, (c, _) in zip(names, trees, strict=True)),
        *run_setting(load_start, started),
        "",
        "## CPU of one fold (s)",
        "",
        "| unit | what | " + " | ".join(names) + " | " + " | ".join(f"{n} / {names[0]}" for n in names[1:]) + " |",
        "| --- | --- | " + " | ".join("--:" for _ in names) + " | " + " | ".join("--:" for _ in names[1:]) + " |",
        *(f"| {s} | {SOURCES[s].what} | "
          + " | ".join(f"{median[(s, i)]:.2f} [{min(cpu[(s, i)]):.2f}-{max(cpu[(s, i)]):.2f}]"
                       for i in range(len(trees)))
          + " | " + " | ".join(f"{median[(s, i)] / median[(s, 0)]:.2f}" for i in range(1, len(trees))) + " |"
          for s in sources),
        "",
    ]
    out = args.out_dir / f"{args.name}.md"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("\n".join(lines), encoding="utf-8")
    print("\n".join(lines))
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
