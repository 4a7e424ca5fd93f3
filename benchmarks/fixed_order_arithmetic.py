"""Benchmark: what the fixed-order arithmetic costs against the BLAS products it replaced.

Why: since 1.0.0 a committee's mean distribution, its JS divergence and the other sums that
can reach a record are computed member by member with NumPy's own element-wise operations
(:mod:`redecorate.arithmetic`) instead of ``np.tensordot``, whose BLAS kernel chose the order
of the additions by CPU; and both selection rules compare utilities on a tie grid. That must
not make the experiments slower. Two measurements in one run:

* **micro**: the committee mean and the JS divergence of 15 members on pools of 100 to 5,000
  examples with 2 and 10 classes, by ``np.tensordot`` and by
  :func:`redecorate.arithmetic.weighted_sum` (median of ``--reps`` timings of many calls);
* **unit**: one thesis-protocol ActiveDecorate unit (labor, run 0: 10 folds, one example per
  iteration until the pool is exhausted), computed with today's code and with the products
  and ties as they were (``np.tensordot`` and exact ties, patched in), alternating, process
  CPU time of each; the records of the two are compared too (they may differ: that is why
  the change was made).

Usage (from the repository root)::

    python benchmarks/fixed_order_arithmetic.py            # about 2 minutes
    python benchmarks/fixed_order_arithmetic.py --reps 5

Result: ``benchmarks/results/fixed_order_arithmetic.md``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from unittest import mock

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
if str(ROOT / "src") not in sys.path:
    sys.path.insert(0, str(ROOT / "src"))

from redecorate.active import scores, selection  # noqa: E402
from redecorate.arithmetic import weighted_sum  # noqa: E402
from redecorate.data import load_dataset, load_registry  # noqa: E402
from redecorate.experiments import load_experiment  # noqa: E402
from redecorate.kinds import get_kind  # noqa: E402
from redecorate.kinds.unit import run_unit  # noqa: E402
from redecorate.provenance import arithmetic_environment  # noqa: E402
from redecorate.verify import record_digest  # noqa: E402

MIRROR = ROOT.parent / "shared" / "datasets" / "uci"
PROBE = ROOT / "tests" / "arithmetic" / "active_systems_thesis.yaml"


def _blas_sum(w, P):
    return np.tensordot(np.asarray(w, dtype=np.float64), np.asarray(P, dtype=np.float64), axes=1)


def micro(reps: int) -> list[tuple[str, float, float]]:
    rows = []
    rng = np.random.default_rng(0)
    w = np.full(15, 1 / 15)
    for n in (100, 1000, 5000):
        for k in (2, 10):
            P = rng.dirichlet(np.ones(k), size=(15, n))
            calls = max(20, 200_000 // (n * k))
            timings = {}
            for name, fn in (("tensordot", _blas_sum), ("weighted_sum", weighted_sum)):
                fn(w, P)
                samples = []
                for _ in range(reps):
                    start = time.perf_counter()
                    for _ in range(calls):
                        fn(w, P)
                    samples.append((time.perf_counter() - start) / calls)
                timings[name] = statistics.median(samples)
            rows.append((f"committee mean, 15 × {n:,} × {k}", timings["tensordot"] * 1e6, timings["weighted_sum"] * 1e6))
    return rows


def unit(reps: int) -> tuple[list[float], list[float], bool]:
    spec = load_experiment(PROBE, schema=ROOT / "workflow" / "schemas" / "experiment.schema.yaml")
    kind = get_kind(spec.kind)
    settings = kind.job_settings(spec)
    [probe] = [u for u in kind.units(spec) if u["algorithm"] == "active_decorate"]
    data = load_dataset("labor", registry=load_registry(ROOT / "config" / "datasets.yaml"), mirror=MIRROR)

    def once() -> tuple[float, str]:
        start = time.process_time()
        frame = run_unit(kind, data, settings, probe, progress=lambda _line: None)
        return time.process_time() - start, record_digest(frame)

    def before() -> tuple[float, str]:
        with mock.patch.object(scores, "weighted_sum", _blas_sum), \
                mock.patch.object(selection, "on_tie_grid", lambda v: np.asarray(v, dtype=np.float64)):
            return once()

    once()  # warm-up: numba compilation, caches
    now, then, digests = [], [], set()
    for _ in range(reps):
        seconds, digest = once()
        now.append(seconds)
        digests.add(("now", digest))
        seconds, digest = before()
        then.append(seconds)
        digests.add(("then", digest))
    return now, then, len({d for _, d in digests}) == 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--out", default=str(HERE / "results" / "fixed_order_arithmetic.md"))
    args = parser.parse_args()
    rows = micro(max(3, args.reps))
    now, then, same = unit(args.reps)
    env = arithmetic_environment()
    lines = ["# Fixed-order arithmetic against the BLAS products it replaced", "",
             f"`python benchmarks/fixed_order_arithmetic.py --reps {args.reps}`; BLAS: "
             + ", ".join(f"{b['internal_api']} {b['version']} ({b['architecture']})" for b in env["blas"])
             + f"; NumPy {env['packages']['numpy']}; CPU {env['cpu']}.", "",
             "## The committee mean", "",
             "| product | np.tensordot (µs) | weighted_sum (µs) | ratio |", "| :-- | --: | --: | --: |",
             *(f"| {name} | {a:.1f} | {b:.1f} | {b / a:.2f} |" for name, a, b in rows), "",
             "## One thesis-protocol ActiveDecorate unit (labor, run 0, 10 folds)", "",
             "| code | CPU s per unit (each rep) | median |", "| :-- | :-- | --: |",
             f"| today's (fixed order, tie grid) | {', '.join(f'{s:.2f}' for s in now)} | {statistics.median(now):.2f} |",
             f"| before 1.0.0 (np.tensordot, exact ties) | {', '.join(f'{s:.2f}' for s in then)} | "
             f"{statistics.median(then):.2f} |", "",
             f"Median ratio today / before: **{statistics.median(now) / statistics.median(then):.3f}**. "
             f"The two codes' records of the unit are {'identical' if same else 'not identical (the ties and sums differ)'}.",
             ""]
    Path(args.out).write_text("\n".join(lines), encoding="utf-8")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
