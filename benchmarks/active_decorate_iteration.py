"""Benchmark: the cost of one ActiveDecorate query iteration along a chapter-6 curve.

Why: chapter 6 refits a 15-member DECORATE committee (up to 50 J48 fits on T ∪ R) and
scores the whole unlabeled pool after every batch until the pool is exhausted, for 15
datasets × 2 runs × 10 folds × 4+ systems (spec Part 8 G.42). Whether a fold's curve takes
seconds or hours is decided by the cost of one iteration as the labeled set grows.

What is timed: one fold of the chapter-6 protocol (fold 0 of the seeded stratified 10-fold
split of run 0; the training fold is the pool), ActiveDecorate with the thesis settings
(DECORATE 15 / 50 / R_size 1, J48, probability margin, top-m) and the thesis batch size of
the dataset. Iteration cost grows with |T|, so it is sampled at checkpoints along the curve:
at each checkpoint size s the labeled set is s random pool examples, and ``--iterations``
real iterations follow (``query()`` — fit the committee on T, score the pool — then
``teach()``). The fit and scoring parts are reported separately. A warm-up iteration
(numba compilation, caches) is run first and not counted. The estimated cost of a whole
fold interpolates the per-iteration time linearly in |T| over all (pool − m) / m
iterations of the curve; unless ``--no-full-curve``, the whole fold is then run once with
:func:`redecorate.active.active_learning_curve` (evaluating on the test fold after every
batch) to check that estimate.

Usage (from the repository root)::

    python benchmarks/active_decorate_iteration.py                  # credit-g, ~1-2 minutes
    python benchmarks/active_decorate_iteration.py --dataset vowel --batch-size 3
    python benchmarks/active_decorate_iteration.py --quick          # smoke test

Result: ``benchmarks/results/active_decorate_iteration.md``.
"""

from __future__ import annotations

import argparse
import os
import shlex
import statistics
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
if str(ROOT / "src") not in sys.path:
    sys.path.insert(0, str(ROOT / "src"))

from redecorate.active import active_learning_curve, make_system  # noqa: E402
from redecorate.data import load_arff  # noqa: E402
from redecorate.protocol import seed_sequence, stratified_folds  # noqa: E402

if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))
from j48_vs_weka import load_average, run_setting  # noqa: E402 - one description of the machine for every benchmark

#: Batch sizes of §6.3.1: 3 for the larger datasets, 2 for primary, 1 otherwise.
THESIS_BATCH = {"credit-g": 3, "vowel": 3, "soybean": 3, "diabetes": 3, "breast-w": 3,
                "primary-tumor": 2}
SEED = 20050801


def mirror_dir() -> Path:
    env = os.environ.get("REDECORATE_MIRROR")
    return Path(env) if env else ROOT.parent / "shared" / "datasets" / "uci"


def time_checkpoint(X, y, size: int, batch: int, iterations: int, seed: int) -> list[dict]:
    """``iterations`` query+teach iterations of ActiveDecorate from a random labeled set."""
    n = len(y)
    order = np.random.default_rng(seed).permutation(n)
    labeled = np.zeros(n, dtype=bool)
    labeled[order[:size]] = True
    learner = make_system("active_decorate", batch_size=batch,
                          random_state=np.random.SeedSequence([SEED, size]))
    learner.fit(X, y.where(labeled))
    rows = []
    for _ in range(iterations):
        if learner.n_unlabeled_ <= batch:  # the last batch needs no committee
            break
        n_labeled, n_pool = learner.n_labeled_, learner.n_unlabeled_
        t0 = time.perf_counter()
        chosen = learner.query()
        total = time.perf_counter() - t0
        fit = sum(e["seconds"] for e in learner.fit_log_ if e["n_labeled"] == n_labeled)
        rows.append({"checkpoint": size, "n_labeled": n_labeled, "unlabeled": n_pool,
                     "seconds": total,
                     "fit": fit, "score": total - fit,
                     "members": len(learner.committee_.estimators_)})
        learner.teach(chosen, y.iloc[chosen])
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--dataset", default="credit-g", help="mirror file stem with '-' "
                        "for '.' (credit-g, vowel, soybean, ...)")
    parser.add_argument("--batch-size", type=int, default=None,
                        help="m; default the thesis's for the dataset (1 if not listed)")
    parser.add_argument("--checkpoints", type=int, default=8,
                        help="labeled-set sizes sampled along the curve")
    parser.add_argument("--iterations", type=int, default=6, help="timed iterations per checkpoint")
    parser.add_argument("--no-full-curve", dest="full_curve", action="store_false",
                        help="skip running the whole fold once")
    parser.add_argument("--quick", action="store_true",
                        help="3 checkpoints x 2 iterations, no full curve")
    parser.add_argument("--out", type=Path,
                        default=HERE / "results" / "active_decorate_iteration.md")
    args = parser.parse_args(argv)
    if args.quick:
        args.checkpoints, args.iterations, args.full_curve = 3, 2, False

    start_load = load_average()
    started = time.perf_counter()
    path = mirror_dir() / f"{args.dataset.replace('-', '.')}.arff"
    if not path.exists():
        parser.error(f"{path} not found: set REDECORATE_MIRROR to the UCI ARFF mirror")
    data = load_arff(path)
    batch = args.batch_size or THESIS_BATCH.get(args.dataset, 1)
    train, test = stratified_folds(data.y, 10, seed_sequence(SEED, "folds", args.dataset, 0))[0]
    X, y = data.X.iloc[train].reset_index(drop=True), data.y.iloc[train].reset_index(drop=True)
    pool = len(y)

    time_checkpoint(X, y, batch, batch, 1, seed=0)  # warm-up: numba, caches
    sizes = np.unique(np.linspace(batch, pool - 2 * batch, args.checkpoints).astype(int))
    rows: list[dict] = []
    for k, size in enumerate(sizes):
        rows.extend(time_checkpoint(X, y, int(size), batch, args.iterations, seed=k + 1))
    full = None
    if args.full_curve:
        t0 = time.perf_counter()
        curve = active_learning_curve(X, y, data.X.iloc[test], data.y.iloc[test],
                                      "active_decorate", batch_size=batch,
                                      seed=seed_sequence(SEED, "curve", args.dataset, 0, 0))
        full = (time.perf_counter() - t0, len(curve), sum(r["fit_seconds"] for r in curve),
                curve[-1]["accuracy"])

    secs = [r["seconds"] for r in rows]
    table = []
    for size in sizes:
        group = [r for r in rows if r["checkpoint"] == int(size)]
        if not group:
            continue
        table.append((int(size), len(group), statistics.median(r["seconds"] for r in group),
                      statistics.mean(r["seconds"] for r in group),
                      statistics.median(r["fit"] for r in group),
                      statistics.median(r["score"] for r in group),
                      statistics.mean(r["members"] for r in group)))
    curve_sizes = np.arange(batch, pool - batch, batch)
    per_iteration = np.interp(curve_sizes, [t[0] for t in table], [t[2] for t in table])
    fold_seconds = float(per_iteration.sum())

    command = "python benchmarks/" + Path(__file__).name + (
        " " + shlex.join(argv if argv is not None else sys.argv[1:])).rstrip()
    lines = [
        "# ActiveDecorate: seconds per query iteration",
        "",
        "One iteration = `query()`: fit the DECORATE committee on the labeled set T (15 "
        "members, at most 50 J48 fits on T ∪ R, R_size 1) and score every unlabeled pool "
        "example by its probability margin, top-m. Timed at checkpoints along one fold's "
        "curve; see the docstring of `benchmarks/active_decorate_iteration.py`.",
        "",
        "## Setting",
        "",
        f"- **command**: {command}",
        f"- **dataset**: {args.dataset} ({data.n_instances} instances); pool = training fold 0 "
        f"of run 0 (seed {SEED}): **{pool} examples**",
        f"- **batch size m**: {batch}",
        f"- **timed iterations**: {len(rows)} ({args.iterations} per checkpoint, after one "
        "warm-up iteration)",
        *run_setting(start_load, started),
    ]
    lines += [
        "",
        "## Per iteration",
        "",
        f"- **median**: {statistics.median(secs):.3f} s",
        f"- **mean**: {statistics.mean(secs):.3f} s",
        f"- **estimated whole fold** ({curve_sizes.size} iterations, per-iteration median "
        f"interpolated in |T|): {fold_seconds:.0f} s; × 20 folds (2 runs × 10-fold CV): "
        f"{fold_seconds * 20 / 60:.0f} min of one core for this system on this dataset",
    ]
    if full is not None:
        lines.append(
            f"- **measured whole fold** (`active_learning_curve`, {full[1]} points evaluated on "
            f"the test fold): {full[0]:.0f} s wall, of which {full[2]:.0f} s fitting models; "
            f"final accuracy {full[3]:.2f} %")
    lines += [
        "",
        "| labeled examples | iterations | median s | mean s | median fit s | median score s "
        "| mean members |",
        "|---:|---:|---:|---:|---:|---:|---:|",
    ]
    lines += [f"| {s} | {k} | {med:.3f} | {mean:.3f} | {fit:.3f} | {score:.4f} | {mem:.1f} |"
              for s, k, med, mean, fit, score, mem in table]
    lines += ["", "The machine is shared: read the times against the load average above.", ""]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("\n".join(lines))
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
