"""CPU of Table 8.3's DECORATE fits at one checkpoint of the acquisition curve, for timing a
change of the engine against the code before it.

Why: ``acquisition_fit.py`` sets our fits beside Weka's over a whole curve (half an hour);
a lever that moves a fit by a few percent needs many paired runs of our side alone, old code
and new in turn, on the same masked pool and the same random streams. This script fits
DECORATE (15 members, 50 trials, R_size 1) on fold 0's pool of ``--dataset`` with
``--fraction`` of it complete (``acquisition_fit.masked_pools``) for seeds 1..``--seeds``
after one untimed fit, and prints the process CPU of those fits and their trials. Run it
from two source trees in turn (a ``git worktree`` of the old commit), e.g.::

    for i in 1 2 3 4 5; do for r in /tmp/old .; do
        PYTHONPATH=$r/src python3 benchmarks/checkpoint_fit.py --dataset kr-vs-kp --fraction 0.95
    done; done

The trials must agree between the two (an exact lever changes no fit); the ratio of the CPU,
pair by pair, is the lever's.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import acquisition_fit  # noqa: E402  (benchmarks/ is the script's directory)

from redecorate.learners.params import make_learner  # noqa: E402

PARAMS = {"n_estimators": 15, "max_iterations": 50, "artificial_size": 1.0}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dataset", default="kr-vs-kp")
    parser.add_argument("--fraction", type=float, default=0.95, help="share of the pool complete")
    parser.add_argument("--seeds", type=int, default=5)
    args = parser.parse_args()
    *_, view, y, schema = next(acquisition_fit.masked_pools(args.dataset, [args.fraction]))
    codes, classes = y.cat.codes.to_numpy(), np.asarray(y.cat.categories)

    def fit(seed: int) -> int:
        model = make_learner("decorate", PARAMS, np.random.SeedSequence(seed))
        model.fit_prepared(view, codes, classes=classes, schema=schema, columns=schema.decode(view[:0]),
                           merge_identical=True)
        return int(model.n_trials_)

    fit(0)
    started = time.process_time()
    trials = sum(fit(seed) for seed in range(1, args.seeds + 1))
    import redecorate

    print(f"{time.process_time() - started:.3f} s CPU, {trials} trials ({Path(redecorate.__file__).parents[2]})")


if __name__ == "__main__":
    main()
