"""Benchmark: redecorate's ensembles against Weka 3.6's on the chapter-4 protocol.

Why: chapter 4 fits Bagging, AdaBoost.M1, Random Forests and DECORATE (15 members, J48
base) on 15 datasets x 10 runs x 10 folds x 10 learning-curve points; whether that is
hours or days on two cores is decided by how our ensembles compare with Weka's.

Same training/test sets and timing method as ``j48_vs_weka.py`` (whose helpers this
script imports): run 0 of the seeded stratified 10-fold split, learning-curve prefixes,
per-set medians of R repetitions; Weka timed in one warm JVM. Learners:

=============  =============================================  ===============================
name           ours (``redecorate.learners``)                 Weka 3.6
=============  =============================================  ===============================
Bagging        ``Bagging(n_estimators=15)``                   ``meta.Bagging -I 15 -W J48``
AdaBoostM1     ``AdaBoostM1(n_estimators=15)``                ``meta.AdaBoostM1 -I 15 -W J48``
RandomForest   ``RandomForest(n_estimators=15)``              ``trees.RandomForest -I 15``
Decorate       ``Decorate(n_estimators=15, max_iterations``   ``meta.Decorate -E 15 -I 50 -R
               ``=50, artificial_size=1.0)``                  1.0 -W J48``
=============  =============================================  ===============================

All of them use J48 with Weka's defaults as base learner (AdaBoostM1 by reweighting, no
``-Q``). Randomized learners get a per-set seed (``redecorate.protocol.learner_seed``) on
both sides; the two sides' random streams differ, so labels are not expected to agree
exactly and accuracy is reported next to time. Weka's Decorate refuses training sets of
fewer than 15 instances (the small learning-curve points); those sets are counted as
"Weka failed" and left out of the time ratios. Note that Weka's RandomForest grows
``RandomTree``s, not J48 random trees, so its row compares two different algorithms.

Usage (from the repository root)::

    python benchmarks/ensembles_vs_weka.py --reps 1
    python benchmarks/ensembles_vs_weka.py --quick
    python benchmarks/ensembles_vs_weka.py --learners Bagging,Decorate

Results: ``benchmarks/results/ensembles_vs_weka.md`` (+ ``.csv``, ``_sets.csv``).
"""

from __future__ import annotations

import contextlib
import shlex
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

import j48_vs_weka as jb  # noqa: E402
from j48_vs_weka import oracle  # noqa: E402

J48 = "weka.classifiers.trees.J48"


@dataclass(frozen=True)
class Learner:
    """One ensemble on both sides: our factory (given a seed) and Weka's class and options."""

    name: str
    ours: Callable[[int], Any]
    weka_class: str
    weka_options: str
    registry_name: str  # name used by the protocol's seed derivation and the registry


def _learners() -> dict[str, Learner]:
    from redecorate.learners import AdaBoostM1, Bagging, Decorate, RandomForest

    return {
        "Bagging": Learner(
            "Bagging",
            lambda s: Bagging(n_estimators=15, random_state=s),
            "weka.classifiers.meta.Bagging",
            f"-I 15 -W {J48} -- -C 0.25 -M 2",
            "bagging",
        ),
        "AdaBoostM1": Learner(
            "AdaBoostM1",
            lambda s: AdaBoostM1(n_estimators=15, random_state=s),
            "weka.classifiers.meta.AdaBoostM1",
            f"-I 15 -W {J48} -- -C 0.25 -M 2",
            "adaboost",
        ),
        "RandomForest": Learner(
            "RandomForest",
            lambda s: RandomForest(n_estimators=15, random_state=s),
            "weka.classifiers.trees.RandomForest",
            "-I 15",
            "rf",
        ),
        "Decorate": Learner(
            "Decorate",
            lambda s: Decorate(
                n_estimators=15, max_iterations=50, artificial_size=1.0, random_state=s
            ),
            "weka.classifiers.meta.Decorate",
            f"-E 15 -I 50 -R 1.0 -W {J48} -- -C 0.25 -M 2",
            "decorate",
        ),
    }


def _seeds(data, sets: Sequence[jb.TrainSet], learner: Learner, seed: int) -> list[int]:
    """Per-set learner seeds as the experiments derive them (31-bit: Java ``int``)."""
    from redecorate.protocol import learner_seed

    return [
        int(learner_seed(seed, data.name, 0, s.fold, learner.registry_name, s.point)) & 0x7FFFFFFF
        for s in sets
    ]


def time_ours_seeded(
    learner: Learner,
    data: oracle.OracleData,
    sets: Sequence[jb.TrainSet],
    seeds: Sequence[int],
    reps: int,
    warmup_sets: int,
    encoded: bool = False,
) -> jb.Timing:
    """``jb.time_ours`` with each set's own seed, after a warm-up on the first sets.

    ``encoded=True`` (``--api encoded``) times ``_fit_encoded``/``_proba_encoded`` on the
    encoded matrix instead of the public DataFrame API (that path warms up per set).
    """
    pairs = list(zip(sets, seeds, strict=True))
    for ts, s in pairs[: 0 if encoded else warmup_sets]:
        with contextlib.suppress(Exception):  # failures are reported by the timed pass
            learner.ours(s).fit(data.X.iloc[ts.train], data.y.iloc[ts.train]).predict_proba(
                data.X.iloc[ts.test]
            )
    out = jb.Timing([], [], [], [], [])
    for ts, s in pairs:
        t = jb.time_ours(
            lambda s=s: learner.ours(s), data, [ts], reps, warmup_sets=0, encoded=encoded
        )
        out.fit += t.fit
        out.predict += t.predict
        out.bytes_full += t.bytes_full
        out.labels += t.labels
        out.errors += t.errors
    return out


COLUMNS = [("learner", "learner", 0), *jb.TABLE_COLUMNS]


def main(argv: Sequence[str] | None = None) -> int:
    import argparse

    pre = argparse.ArgumentParser(add_help=False)
    pre.add_argument("--learners", default="Bagging,AdaBoostM1,RandomForest,Decorate")
    known, rest = pre.parse_known_args(argv)
    args = jb.parse_args(
        rest, "Time redecorate's ensembles against Weka 3.6's (--learners NAME,... also taken)."
    )
    reason = oracle.weka_available()
    if reason is not None:
        print(f"Weka oracle unavailable: {reason}", file=sys.stderr)
        return 2
    try:
        available = _learners()
    except ImportError as exc:
        print(f"redecorate ensembles not importable yet: {exc}", file=sys.stderr)
        return 3
    names = [n.strip() for n in known.learners.split(",") if n.strip()]
    unknown = [n for n in names if n not in available]
    if unknown:
        print(f"unknown learner(s) {unknown}; choose from {list(available)}", file=sys.stderr)
        return 2
    command = "python " + " ".join(shlex.quote(a) for a in [sys.argv[0], *(argv or sys.argv[1:])])
    meta = {"command": command, "load average at start": jb.load_average(), **jb.machine_info()}
    points = jb.QUICK_POINTS if args.quick else jb.POINTS
    max_folds = 2 if args.quick else None
    # Ours: the first fold's sets are enough (numba compiles once, on the first call).
    # Weka: a warm-up pass over ALL sets, as for J48, so HotSpot has compiled every hot path.
    warmup = len(points)
    rows, detail = [], []
    started = time.perf_counter()
    for name in args.datasets:
        data = jb.load(name)
        sets = jb.protocol_sets(data, points=points, max_folds=max_folds, seed=args.seed)
        for ln in names:
            learner = available[ln]
            seeds = _seeds(data, sets, learner, args.seed)
            weka = jb.time_weka(
                data, sets, learner.weka_class, learner.weka_options, args.reps,
                seeds=seeds, warmup_sets=None,
            )  # fmt: skip
            ours = time_ours_seeded(
                learner, data, sets, seeds, args.reps, warmup, encoded=args.api == "encoded"
            )
            row = jb.compare_row(name, ln, data, sets, ours, weka)
            rows.append(row)
            detail += jb.set_rows(name, ln, sets, ours, weka)
            print(
                f"{name:<10} {ln:<12} sets {row['sets']:>4} (Weka failed {row['weka_failed']})"
                f"  fit {row['ours_fit_ms']:9.2f} vs {row['weka_fit_ms']:9.2f} ms "
                f"(x{row['fit_ratio']:.2f})  total {row['ours_total_s']:7.2f} vs "
                f"{row['weka_total_s']:7.2f} s  acc {row['ours_acc_pct']:.1f} vs "
                f"{row['weka_acc_pct']:.1f}  [{time.perf_counter() - started:.0f}s]",
                flush=True,
            )
    by_learner = []
    for ln in names:
        mine = [r for r in rows if r["learner"] == ln]
        if mine:
            by_learner.append(jb.totals_row(mine, label="ALL"))
    intro = f"""
Ensembles (15 members, J48 base) fit + predict time per training set, redecorate vs Weka
3.6, on the chapter-4 protocol: run 0 of a seeded stratified {jb.N_FOLDS}-fold split
(seed {args.seed}), {"first 2 folds, " if args.quick else ""}learning-curve points
{", ".join(map(str, points))} % of each training fold (prefixes of one seeded random order),
the fold's test set as test set; {args.reps} timed repetition(s) per set, median kept,
after a warm-up (ours: the first fold's sets; Weka: all sets, in one JVM per dataset and
learner). Ratios are ours / Weka (> 1: we are slower), over the sets both sides fitted.
Randomized learners use different random streams on the two sides: compare accuracy, not
labels. Weka's RandomForest grows RandomTrees (not J48 random trees). Ours ({args.api}
path): {jb.API_TEXT[args.api]}.
"""
    sections = [
        ("Summary per learner", jb.markdown_table(by_learner, COLUMNS)),
        ("Per dataset and learner", jb.markdown_table(rows, COLUMNS)),
        (
            "Columns",
            "`sets`: training sets both sides fitted; `Weka failed`: sets Weka refused "
            "(e.g. Decorate below 15 instances); `fit ms`/`pred ms`: median over sets of the "
            "per-set median; `total s`: sum over sets; ALL: median of medians, geometric "
            "mean of ratios, sum of totals; `KB`: one fitted ensemble at the 100 % point "
            "(`pickle` for ours, Java serialization for Weka); `acc %`: mean test accuracy.",
        ),
    ]
    errors = [f"- {r['dataset']} {r['learner']}: {r['errors']}" for r in rows if r["errors"]]
    if errors:
        sections.append(("Errors (first 3 per row)", "\n".join(errors)))
    md = jb.write_report(
        "ensembles_vs_weka" if args.api == "public" else f"ensembles_vs_weka_{args.api}",
        f"Ensembles vs Weka 3.6: time and memory ({args.api} API)", intro, sections, rows,
        detail, meta, args.out_dir,
    )  # fmt: skip
    print(f"\nwrote {md} (+ .csv, _sets.csv)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
