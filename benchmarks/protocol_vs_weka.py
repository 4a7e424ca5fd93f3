"""Benchmark: the whole chapter-4 protocol, end to end, against Weka 3.6 running the same.

Why: the learners alone are at parity with Weka's (``j48_vs_weka.py``,
``ensembles_vs_weka.py``), but a user pays for the whole workflow: process start-up of
every job, data preparation, combining and reporting. This script measures what the
replication of Tables 4.2–4.5 costs on a set of datasets, in CPU seconds, both ways, in one
run on one machine:

* **ours**: ``snakemake --cores 1`` on a copy of ``config/experiments/ch4_passive.yaml``
  restricted to the datasets (and ``--runs``), from an empty results directory, with the
  ARFF mirror. CPU = user + system time of the Snakemake process and all its children
  (``getrusage(RUSAGE_CHILDREN)``), i.e. everything: start-up, preparation, every job,
  combining, the report and provenance. The experiment jobs alone (each job process's own
  ``getrusage``, start-up included, from its log) are reported beside it.
* **Weka**: for every dataset and each of the five learners (J48, Bagging, AdaBoost.M1,
  Random Forest, DECORATE with Weka's options of ``ensembles_vs_weka.py``), ONE JVM fits
  every training set of the protocol (the same runs × folds × curve points, the same rows,
  through ``tools/weka_oracle``) and predicts its test fold. CPU = user + system time of the
  JVMs, start-up and ARFF parsing included. Weka's Decorate refuses training sets of fewer
  than 15 instances; it fails those sets quickly, so its time is slightly flattered.

Ratios are ours / Weka: above 1 we are slower.

Usage (from the repository root)::

    python benchmarks/protocol_vs_weka.py --datasets iris,labor,lymph,hepatitis
    python benchmarks/protocol_vs_weka.py --datasets iris --runs 2   # a quick look
    # our side only, at git revisions in turns (where a change made the protocol slower)
    python benchmarks/protocol_vs_weka.py --datasets iris,labor --revs 7eba7c3,9bcb5d8,HEAD \
        --name protocol_revisions

Results: ``benchmarks/results/protocol_vs_weka.md`` (+ ``.csv``; ``--name`` for another stem).
"""

from __future__ import annotations

import argparse
import csv
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

import ensembles_vs_weka as eb  # noqa: E402
import j48_vs_weka as jb  # noqa: E402
from j48_vs_weka import oracle  # noqa: E402

SMALL = ("iris", "labor", "lymph", "hepatitis")
WEKA_LEARNERS = {
    "j48": ("weka.classifiers.trees.J48", "-C 0.25 -M 2"),
    **{name: (lr.weka_class, lr.weka_options) for name, lr in
       ((lr.registry_name, lr) for lr in eb._learners().values())},
}


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_ours(datasets: Sequence[str], runs: int, workdir: Path, repo: Path = REPO) -> dict[str, float]:
    """The workflow on ``datasets``; returns total CPU, wall and per-dataset job CPU.

    ``repo``: the tree whose workflow and code run (another revision's, :mod:`revisions`;
    its ``src`` then comes first on ``PYTHONPATH``)."""
    spec = yaml.safe_load((repo / "config" / "experiments" / "ch4_passive.yaml").read_text())
    spec.update(name="bench_ch4", datasets=list(datasets), runs=runs, profiles={})
    experiment = workdir / "bench_ch4.yaml"
    experiment.write_text(yaml.safe_dump(spec, sort_keys=False), encoding="utf-8")
    command = [
        sys.executable, "-m", "snakemake", "--snakefile", str(repo / "Snakefile"),
        "--directory", str(workdir), "--cores", "1", "--quiet", "all",
        "--config", f"experiments=[{experiment}]", f"data_mirror={jb.UCI}",
    ]  # fmt: skip
    cpu0, wall0 = _children_cpu(), time.perf_counter()
    env = None if repo == REPO else {**os.environ, "PYTHONPATH": str(repo / "src")}
    done = subprocess.run(command, capture_output=True, text=True, env=env)
    cpu, wall = _children_cpu() - cpu0, time.perf_counter() - wall0
    if done.returncode != 0:
        log = (workdir / "snakemake.log")
        log.write_text(done.stdout + done.stderr)
        raise RuntimeError(f"workflow failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
    out: dict[str, float] = {"cpu": cpu, "wall": wall}
    logs = workdir / "results" / "bench_ch4" / "logs"
    for dataset in datasets:
        # Each job logs its own process's CPU (getrusage; Snakemake's benchmark files sample
        # and undercount it).
        total = 0.0
        for log in (logs / dataset).glob("chunk*.log"):
            lines = [ln for ln in log.read_text().splitlines() if ln.startswith("process CPU ")]
            total += float(lines[-1].split()[2])
        prepare = workdir / "data" / "benchmarks" / f"prepare_{dataset}.tsv"
        with prepare.open() as handle:
            out[f"prepare:{dataset}"] = float(next(csv.DictReader(handle, delimiter="\t"))["cpu_time"])
        out[f"jobs:{dataset}"] = total
        out[f"n_jobs:{dataset}"] = len(list((logs / dataset).glob("chunk*.log")))
    return out


def run_weka(datasets: Sequence[str], runs: int, seed: int) -> dict[str, float]:
    """Every learner on every training set of the protocol, one JVM per (dataset, learner)."""
    import dataclasses

    from redecorate.data import load_registry
    from redecorate.protocol import learner_seed

    registry = load_registry(REPO / "config" / "datasets.yaml")
    out: dict[str, float] = {}
    for dataset in datasets:
        # The registry key names the dataset on both sides: the folds and seeds are keyed by
        # it, so Weka sees exactly the workflow's training sets (file stems differ: breast.w).
        data = oracle.load_oracle_data(jb.UCI / registry[dataset].file, "last")
        data = dataclasses.replace(data, name=dataset)
        sets = [(r, s) for r in range(runs) for s in jb.protocol_sets(data, seed=seed, run=r)]
        train = [data.file_rows[s.train] for _, s in sets]
        test = [data.file_rows[s.test] for _, s in sets]
        for name, (cls, options) in WEKA_LEARNERS.items():
            # Per-set seeds as the experiments derive them (31-bit: Java int).
            seeds = [int(learner_seed(seed, dataset, r, s.fold, name, s.point)) & 0x7FFFFFFF
                     for r, s in sets]  # fmt: skip
            cpu0 = _children_cpu()
            oracle.run_weka(data.arff_path, data.class_index, train, test, cls, options,
                            seed=seeds, dump_model=False)  # fmt: skip
            out[f"{dataset}:{name}"] = _children_cpu() - cpu0
        out[dataset] = sum(out[f"{dataset}:{n}"] for n in WEKA_LEARNERS)
    out["total"] = sum(out[d] for d in datasets)
    return out


def compare_revisions(datasets: Sequence[str], args: argparse.Namespace, revs: Sequence[str]) -> int:
    """Our whole workflow at each git revision, the revisions in turns (the order rotating),
    ``args.reps`` times: where a change of the code made the protocol slower or faster. On a
    shared machine only figures measured in one such run compare."""
    from revisions import WORKFLOW_PATHS, subject, tree

    trees = [tree(r, WORKFLOW_PATHS) for r in revs]
    load_start = Path("/proc/loadavg").read_text().split()[:3]
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="protocol_revs_") as td:
        for i, (_, folder) in enumerate(trees):  # numba compiles each tree's kernels once
            run_ours(datasets[:1], 1, Path(td) / f"warm{i}", folder)
        cpu: dict[int, list[float]] = {i: [] for i in range(len(trees))}
        jobs: dict[int, list[float]] = {i: [] for i in range(len(trees))}
        for r in range(args.reps):
            order = list(range(len(trees)))
            for i in order[r % len(order):] + order[:r % len(order)]:
                out = run_ours(datasets, args.runs, Path(td) / f"r{r}_{i}", trees[i][1])
                cpu[i].append(out["cpu"])
                jobs[i].append(sum(out[f"jobs:{d}"] for d in datasets))
                print(f"rep {r + 1} {trees[i][0]}: {out['cpu']:.1f} s CPU, jobs {jobs[i][-1]:.1f} s", flush=True)
    med = {i: statistics.median(v) for i, v in cpu.items()}
    med_jobs = {i: statistics.median(v) for i, v in jobs.items()}
    lines = [
        "# The chapter-4 protocol end to end at revisions of the code (ours only)",
        "",
        f"Command: `python benchmarks/protocol_vs_weka.py --datasets {','.join(datasets)} --runs {args.runs} "
        f"--revs {','.join(revs)} --reps {args.reps}`; {time.strftime('%Y-%m-%d')}; 1-minute load average "
        f"at the start / end {' '.join(load_start)} / {' '.join(Path('/proc/loadavg').read_text().split()[:3])}; "
        f"{jb.machine_info().get('cpu', '')}; {time.perf_counter() - started:.0f} s.",
        "",
        "Each revision's workflow (`snakemake --cores 1`, its own code, from an empty results directory) "
        f"in turns, {args.reps} times; CPU = user + system seconds of everything it ran. Median, "
        "with every measurement in brackets.",
        "",
        "| revision | whole workflow (CPU s) | experiment jobs (CPU s) | whole / first | jobs / first |",
        "| --- | ---: | ---: | ---: | ---: |",
        *(f"| {c} ({subject(c)}) | {med[i]:.1f} [{', '.join(f'{x:.1f}' for x in cpu[i])}] | "
          f"{med_jobs[i]:.1f} [{', '.join(f'{x:.1f}' for x in jobs[i])}] | {med[i] / med[0]:.2f} | "
          f"{med_jobs[i] / med_jobs[0]:.2f} |" for i, (c, _) in enumerate(trees)),
        "",
    ]
    args.out_dir.mkdir(parents=True, exist_ok=True)
    Path(args.out_dir / f"{args.name}.md").write_text("\n".join(lines), encoding="utf-8")
    print("\n".join(lines))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--datasets", default=",".join(SMALL),
                        help="registry keys (config/datasets.yaml), e.g. breast-w, audio")
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--seed", type=int, default=jb.SEED)
    parser.add_argument("--out-dir", type=Path, default=HERE / "results")
    parser.add_argument("--name", default="protocol_vs_weka", help="stem of the result files")
    parser.add_argument("--revs", default="",
                        help="git revisions: compare our workflow's CPU at each (no Weka), in turns")
    parser.add_argument("--reps", type=int, default=3, help="with --revs: repetitions (median kept)")
    args = parser.parse_args(argv)
    datasets = [d for d in args.datasets.split(",") if d]
    if args.revs:
        return compare_revisions(datasets, args, [r for r in args.revs.split(",") if r])
    if reason := oracle.weka_available():
        print(f"Weka is not available: {reason}", file=sys.stderr)
        return 2
    load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="protocol_vs_weka_") as td:
        print(f"ours: {datasets}, {args.runs} runs ...", flush=True)
        ours = run_ours(datasets, args.runs, Path(td))
    print(f"Weka: {datasets}, {args.runs} runs ...", flush=True)
    weka = run_weka(datasets, args.runs, args.seed)
    rows = []
    for d in datasets:
        own = ours[f"prepare:{d}"] + ours[f"jobs:{d}"]
        rows.append({
            "dataset": d, "jobs": int(ours[f"n_jobs:{d}"]), "ours_prepare_cpu_s": ours[f"prepare:{d}"],
            "ours_jobs_cpu_s": ours[f"jobs:{d}"], "weka_cpu_s": weka[d],
            "jobs_ratio": ours[f"jobs:{d}"] / weka[d], "dataset_ratio": own / weka[d],
        })  # fmt: skip
    jobs_total = sum(r["ours_jobs_cpu_s"] for r in rows)
    args.out_dir.mkdir(parents=True, exist_ok=True)
    stem = args.out_dir / args.name
    with open(f"{stem}.csv", "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    machine = jb.machine_info()
    lines = [
        "# The chapter-4 protocol end to end: redecorate's workflow vs Weka 3.6",
        "",
        f"Command: `python benchmarks/protocol_vs_weka.py --datasets {','.join(datasets)} "
        f"--runs {args.runs}{'' if args.name == 'protocol_vs_weka' else ' --name ' + args.name}`; "
        f"{time.strftime('%Y-%m-%d')}; 1-minute load average at the start "
        f"{load:.2f}; {machine.get('cpu', '')}.",
        "",
        f"Protocol: `ch4_passive` (5 learners, {args.runs} runs of 10-fold CV, 10 curve points), "
        "same training sets on both sides. CPU = user + system seconds.",
        "",
        "| | ours | Weka 3.6 | ratio |",
        "| --- | ---: | ---: | ---: |",
        f"| whole workflow (`snakemake --cores 1`: preparation, jobs, combine, report, "
        f"provenance) | {ours['cpu']:.1f} | {weka['total']:.1f} | {ours['cpu'] / weka['total']:.2f} |",
        f"| experiment jobs only | {jobs_total:.1f} | {weka['total']:.1f} | "
        f"{jobs_total / weka['total']:.2f} |",
        "",
        f"Wall time of the workflow: {ours['wall']:.1f} s.",
        "",
        "Per dataset: its preparation and its experiment jobs (the experiment-level steps, "
        "Snakemake's own process, combining, the report and provenance, are the difference "
        "between the two rows above and are shared by all datasets).",
        "",
        "| dataset | jobs | ours: prepare CPU s (sampled) | ours: jobs CPU s | Weka CPU s | jobs ratio | "
        "prepare + jobs ratio |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
        *(f"| {r['dataset']} | {r['jobs']} | {r['ours_prepare_cpu_s']:.1f} | "
          f"{r['ours_jobs_cpu_s']:.1f} | {r['weka_cpu_s']:.1f} | {r['jobs_ratio']:.2f} | "
          f"{r['dataset_ratio']:.2f} |" for r in rows),
        "",
        "Weka per learner (CPU s): " + "; ".join(
            f"{d}: " + ", ".join(f"{n} {weka[f'{d}:{n}']:.1f}" for n in WEKA_LEARNERS)
            for d in datasets),
        "",
    ]  # fmt: skip
    Path(f"{stem}.md").write_text("\n".join(lines), encoding="utf-8")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
