"""Benchmark: one model fit of chapter 8's acquisition loop, ours against Weka 3.6.

Why: Algorithm 7 refits the learner on the whole pool after every batch, and in that pool
most instances show only 30 % of their features. C4.5 sends an instance whose split value is
missing down every branch with a fraction of its weight, so a tree on this data costs several
times one on complete data, and DECORATE pays it for up to 50 J48 fits per model. Whether
Table 8.3 is a laptop run or a cluster job is decided by this cost on kr-vs-kp and
hypothyroid (144 and 170 fits per curve at batches of 20).

What is timed: fold 0 of run 0 of ``ch8_afa``'s split (seed 20050801; the training fold is the
pool; the dataset loaded through the registry, the folds by the experiment's own
``run_folds``), 30 % of the features known (drawn at random, as the experiment draws them,
from the benchmark's own seed), and at each checkpoint a fraction of the pool complete (random
instances) and the rest masked. At each checkpoint:
our J48 and DECORATE (15 members, 50 iterations, R_size 1) fitted on the masked pool
(``fit_prepared``, process CPU, after one warm-up fit per dataset; the median of as many fits
as Weka's side repeats) twice: on every row (the
copies) and as the loop fits, each distinct masked row once with its count
(``merge_identical=True``; the same model), and Weka's J48 and
Decorate (``-E 15 -I 50 -R 1.0``) on the same rows written as one ARFF file (every
checkpoint's pool), timed inside one warm JVM (the oracle's timing mode: a warm-up pass over
the checkpoints, then the median of ``--reps``). The estimated CPU of a curve is the
mean fit time over the checkpoints times the fits of a curve; of a table, that times 10
folds × the runs × 2 scorers (Error Sampling, random).

Usage (from the repository root)::

    python benchmarks/acquisition_fit.py                       # kr-vs-kp, hypothyroid, anneal
    python benchmarks/acquisition_fit.py --datasets anneal --quick

Result: ``benchmarks/results/acquisition_fit.md``.
"""

from __future__ import annotations

import argparse
import shlex
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
for path in (ROOT / "src", ROOT / "tools", HERE):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))

from j48_vs_weka import load_average, run_setting  # noqa: E402 - one description of the machine for every benchmark
from uci_mirror import MIRROR  # noqa: E402

from redecorate.active.acquisition import FeatureAcquisition, known_features  # noqa: E402
from redecorate.data import load_dataset, load_registry  # noqa: E402
from redecorate.learners.base import merge_identical_rows  # noqa: E402
from redecorate.learners.features import FeatureSchema  # noqa: E402
from redecorate.learners.params import make_learner  # noqa: E402
from redecorate.protocol import seed_sequence  # noqa: E402
from redecorate.protocol.folds import run_folds  # noqa: E402

SEED = 20050801
J48 = "weka.classifiers.trees.J48"
LEARNERS = {
    # name: (our registry name and parameters, Weka class and options, batch size of ch8_afa)
    "J48": (("j48", {}), (J48, "-C 0.25 -M 2"), 10),
    "DECORATE": (("decorate", {"n_estimators": 15, "max_iterations": 50, "artificial_size": 1.0}),
                 ("weka.classifiers.meta.Decorate", f"-E 15 -I 50 -R 1.0 -W {J48} -- -C 0.25 -M 2"), 20),
}
THESIS_RUNS = 5


def masked_pools(name: str, fractions: list[float]):
    """(checkpoint fraction, masked training frame, encoded view, class codes, schema, y) of fold 0."""
    dataset = load_dataset(name, registry=load_registry(ROOT / "config" / "datasets.yaml"), mirror=MIRROR)
    X, y = dataset.X, dataset.y
    train, _ = run_folds(dataset, 10, run=0, seed=SEED)[0]
    schema = FeatureSchema.from_input(X)
    Xe = schema.encode(X.iloc[train])
    rng = np.random.default_rng(seed_sequence(SEED, "benchmark", name))
    known = known_features(schema.n_features, 0.3, rng)
    for fraction in fractions:
        complete = rng.choice(len(train), size=max(20, int(fraction * len(train))), replace=False)
        view = FeatureAcquisition(Xe, known, complete).matrix()
        yield fraction, schema.decode(view), view, y.iloc[train].reset_index(drop=True), schema


def our_fit_seconds(learner: str, params: dict, view, y, schema, merge: bool = True,
                    reps: int = 1, seed: int = SEED) -> tuple[float, int, int]:
    """Process CPU of a fit (the median of ``reps`` fits, as Weka's side takes its median),
    the members it kept and the models it built (DECORATE's trials; 1 for J48); ``merge`` as
    the acquisition loop fits, ``seed`` the learner's random stream."""
    times = []
    for _ in range(reps):
        model = make_learner(learner, params, np.random.SeedSequence(seed))
        cpu = time.process_time()
        model.fit_prepared(view, y.cat.codes.to_numpy(), classes=np.asarray(y.cat.categories), schema=schema,
                           columns=schema.decode(view[:0]), merge_identical=merge)
        times.append(time.process_time() - cpu)
    return float(np.median(times)), int(model.ensemble_size_), int(getattr(model, "n_trials_", 1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--datasets", default="kr-vs-kp,hypothyroid,anneal")
    parser.add_argument("--fractions", default="0.05,0.25,0.5,0.75,0.95",
                        help="shares of the pool complete at the checkpoints")
    parser.add_argument("--reps", type=int, default=3, help="Weka's J48: timing repetitions per set")
    parser.add_argument("--decorate-reps", type=int, default=1,
                        help="Weka's Decorate: timing repetitions per set (each fit takes seconds)")
    parser.add_argument("--seeds", type=int, default=1,
                        help="DECORATE: fit each checkpoint with this many random streams on both sides and "
                             "compare the means (the trials a fit takes to reach 15 members depend on its "
                             "artificial examples, so one stream each compares draws as well as code)")
    parser.add_argument("--quick", action="store_true", help="two checkpoints, J48 only")
    parser.add_argument("--out", default=str(HERE / "results" / "acquisition_fit.md"))
    args = parser.parse_args()
    from weka_oracle import oracle

    fractions = [0.1, 0.9] if args.quick else [float(f) for f in args.fractions.split(",")]
    learners = {"J48": LEARNERS["J48"]} if args.quick else LEARNERS
    load_start = load_average()
    started = time.perf_counter()
    rows, totals = [], []
    failures: dict[tuple[str, str], str] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.datasets.split(","):
            pools = list(masked_pools(name, fractions))
            pool_size = len(pools[0][3])
            # Every checkpoint's pool in one file, so one warm JVM fits them all.
            frame = pd.concat([pool[1] for pool in pools], ignore_index=True)
            path = oracle.write_arff(Path(tmp) / f"{name}.arff", frame,
                                     pd.concat([pool[3] for pool in pools], ignore_index=True))
            sets = [list(range(i * pool_size, (i + 1) * pool_size)) for i in range(len(pools))]
            for label, ((learner, params), (weka_class, weka_options), batch) in learners.items():
                our_fit_seconds(learner, params, pools[0][2], pools[0][3], pools[0][4])  # warm-up
                reps = args.reps if label == "J48" else args.decorate_reps
                seeds = [SEED] if label == "J48" else [SEED + i for i in range(max(args.seeds, 1))]
                # Every seed's checkpoints in one warm JVM: set i of seed j is checkpoint i.
                weka = oracle.run_weka(path, "last", sets * len(seeds), [s[:1] for s in sets] * len(seeds),
                                       weka_class, weka_options, seed=[sd for sd in seeds for _ in sets],
                                       time_reps=reps, dump_model=False, timeout=7200)
                ours, theirs = [], []
                for i, (fraction, _, view, y, schema) in enumerate(pools):
                    fits = [weka[j * len(sets) + i] for j in range(len(seeds))]
                    copies = float(np.mean([our_fit_seconds(learner, params, view, y, schema, merge=False, reps=reps,
                                                            seed=sd)[0] for sd in seeds]))
                    merged = [our_fit_seconds(learner, params, view, y, schema, reps=reps, seed=sd) for sd in seeds]
                    seconds = float(np.mean([m[0] for m in merged]))
                    members = round(float(np.mean([m[1] for m in merged])))
                    trials = float(np.mean([m[2] for m in merged]))
                    distinct = len(merge_identical_rows(view, y.cat.codes.to_numpy())[0])
                    # A Weka failure is a result, not a crash of the benchmark: Weka's Decorate
                    # refuses nominal attributes with fewer than two values (hypothyroid's).
                    # The fitting thread's CPU, as ours is process CPU: the machine may be loaded.
                    failed = [wk["error"] for wk in fits if wk["error"] is not None]
                    weka_seconds = np.nan if failed else float(np.mean([wk["fit_cpu_seconds"] for wk in fits]))
                    weka_wall = np.nan if failed else float(np.mean([wk["fit_seconds"] for wk in fits]))
                    if failed:
                        failures[(name, label)] = str(failed[0]).splitlines()[0]
                    ours.append(seconds)
                    theirs.append(weka_seconds)
                    rows.append((name, label, fraction, distinct, copies, seconds, members, trials, len(seeds),
                                 weka_seconds, weka_wall))
                    print(f"{name} {label} {fraction:.2f} complete ({distinct} distinct rows, {len(seeds)} seeds): "
                          f"ours {copies:.3f} s on the copies, {seconds:.3f} s merged ({members} members, "
                          f"{trials:.1f} trials), Weka {weka_seconds:.3f} s CPU ({weka_wall:.3f} s wall)", flush=True)
                fits = int(np.ceil((pool_size - batch) / batch)) + 1
                curve = float(np.mean(ours)) * fits
                totals.append((name, label, pool_size, batch, fits, curve, curve * 10 * 2,
                               curve * 10 * 2 * THESIS_RUNS, float(np.mean(theirs)) * fits))

    lines = [
        "# Chapter 8: one model fit of the acquisition loop, ours vs Weka 3.6",
        "",
        "A fit on the pool of fold 0 of run 0 (seed 20050801) with a share of the instances complete and "
        "the others showing only their 30 % known features; see the docstring of "
        "`benchmarks/acquisition_fit.py`. Ours: process CPU of a `fit_prepared` (median of as many fits as Weka's side), on every row (copies) "
        "and, as the acquisition loop fits, on each distinct masked row once with its count (merged; "
        "the same model); the ratio is merged / Weka's CPU. Weka: the fitting thread's CPU time (and wall time) of "
        f"`buildClassifier` in one warm JVM per dataset and learner (after a warm-up pass over the checkpoints; median of {args.reps} for J48, {args.decorate_reps} for Decorate). "
        f"DECORATE on both sides with {max(args.seeds, 1)} random stream(s) (seeds {SEED} on; Weka's `-S`), each time the mean over them: "
        "the trials a fit takes to reach its members depend on its artificial examples. nan: Weka failed.",
        "",
        "## Setting",
        "",
        f"- **command**: python benchmarks/acquisition_fit.py {shlex.join(sys.argv[1:])}".rstrip(),
        *run_setting(load_start, started),
        "",
        "## Per fit",
        "",
        "| dataset | learner | complete share | distinct rows | ours, copies (s) | ours, merged (s) | members "
        "| our trials | seeds | Weka CPU (s) | Weka wall (s) | merged / Weka CPU | copies / merged |",
        "| --- | --- | --: | --: | --: | --: | --: | --: | --: | --: | --: | --: | --: |",
        *(f"| {n} | {lab} | {f:.2f} | {dr} | {c:.3f} | {o:.3f} | {m} | {t:.1f} | {k} | {w:.3f} | {ww:.3f} "
          f"| {o / w:.2f} | {c / o:.1f} |"
          for n, lab, f, dr, c, o, m, t, k, w, ww in rows),
        "",
        *(f"- Weka failed on {n} ({lab}): {why}" for (n, lab), why in failures.items()),
        "",
        "## Estimated CPU (ours)",
        "",
        "A curve is the mean merged fit over the checkpoints times its fits; the pilot is 10 folds × 2 scorers, "
        f"the thesis {THESIS_RUNS} runs of that.",
        "",
        "| dataset | learner | pool | batch | fits per curve | curve (s) | pilot (CPU h) | thesis (CPU h) "
        "| Weka's curve (s) |",
        "| --- | --- | --: | --: | --: | --: | --: | --: | --: |",
        *(f"| {n} | {lab} | {p} | {b} | {k} | {c:.0f} | {pi / 3600:.1f} | {th / 3600:.1f} | {wc:.0f} |"
          for n, lab, p, b, k, c, pi, th, wc in totals),
        "",
    ]
    Path(args.out).write_text("\n".join(lines), encoding="utf-8")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
