"""How many trials DECORATE builds for its committee, with and without rejection, and what it costs.

Why: DECORATE stops at ``n_estimators`` members or ``max_iterations`` trials, and with
rejection (the default) a candidate that raises the training error is thrown away, so how many
trials a fit takes depends on the data: its ``per_example`` was fitted to the committed runs,
all with rejection. Without rejection (§4.7's ablation, ``ch4_no_rejection``) every trial is
kept and a fit builds exactly ``n_estimators`` members; priced as a fit with rejection,
``ch4_no_rejection`` was planned at 2.3 times its measured CPU (splice 8.5). This benchmark
fits DECORATE (15 members, 50 trials, R_size 1) with and without rejection on 20, 50 and 90 %
of each Table-4.1 dataset (a seeded random subset), records the trials, each fit's CPU and its
price (``estimated_fit_seconds``), so ``REJECTION_TRIALS_PER_MEMBER`` in
:mod:`redecorate.learners.cost` rests on a measurement.

    python3 benchmarks/decorate_trials.py
    python3 benchmarks/decorate_trials.py --datasets splice,segment --out /tmp/trials

writes ``<out>.csv`` and ``<out>.md``; ``--from-csv`` rewrites the Markdown from the CSV.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))

from priced_results import priced_main  # noqa: E402  (benchmarks/ is the script's directory)

from redecorate.data import load_dataset  # noqa: E402
from redecorate.learners.cost import REJECTION_TRIALS_PER_MEMBER, estimated_fit_seconds  # noqa: E402
from redecorate.learners.params import make_learner  # noqa: E402
from redecorate.report.tables import markdown_table  # noqa: E402

MIRROR = Path(os.environ.get("REDECORATE_MIRROR", REPO.parent / "shared" / "datasets" / "uci"))
DATASETS = ("anneal,audio,autos,breast-w,credit-a,glass,heart-c,hepatitis,colic,iris,labor,lymph,"
            "segment,soybean,splice")
SHARES = (0.2, 0.5, 0.9)
SETTINGS = {"n_estimators": 15, "max_iterations": 50, "artificial_size": 1.0}


def sample(datasets: list[str], data_dir: str) -> pd.DataFrame:
    """Per dataset and share of it: trials, CPU and price of a fit with and without rejection."""
    registry = REPO / "config" / "datasets.yaml"
    warm = load_dataset("iris", registry=registry, mirror=MIRROR, data_dir=data_dir)
    make_learner("decorate", SETTINGS, random_state=0).fit(warm.X, warm.y)  # compiled code loaded first
    rows = []
    for name in datasets:
        data = load_dataset(name, registry=registry, mirror=MIRROR, data_dir=data_dir)
        order = np.random.default_rng(20050801).permutation(len(data.y))
        for share in SHARES:
            rows_used = order[: max(int(share * len(order)), 2)]
            X, y = data.X.iloc[rows_used], data.y.iloc[rows_used]
            for rejection in (True, False):
                params = {**SETTINGS, "rejection": rejection}
                learner = make_learner("decorate", params, random_state=1)
                started = time.process_time()
                learner.fit(X, y)
                cpu = time.process_time() - started
                priced = estimated_fit_seconds("decorate", params, len(y), X.shape[1], classes=int(y.nunique()))
                rows.append({"dataset": name, "share": share, "n": len(y), "rejection": rejection,
                             "trials": int(learner.n_trials_), "members": len(learner.estimators_),
                             "cpu_s": round(cpu, 4), "priced_s": round(priced, 4)})
                print(rows[-1], flush=True)
    return pd.DataFrame(rows)


def markdown(frame: pd.DataFrame) -> str:
    """Trials per member with rejection, CPU without over with, and each side's price / CPU."""
    wide = frame.pivot_table(index=["dataset", "share"], columns="rejection",
                             values=["trials", "cpu_s", "priced_s"], sort=False)
    table = pd.DataFrame({
        "trials, rejection": wide["trials"][True].astype(int),
        "CPU without / with": wide["cpu_s"][False] / wide["cpu_s"][True],
        "priced / CPU, rejection": wide["priced_s"][True] / wide["cpu_s"][True],
        "priced / CPU, none": wide["priced_s"][False] / wide["cpu_s"][False],
    }).round(2).reset_index()
    with_rejection = frame[frame["rejection"]]
    per_member = (with_rejection["trials"] * with_rejection["cpu_s"]).sum() / (
        with_rejection["members"] * with_rejection["cpu_s"]).sum()
    cpu = frame.groupby("rejection")[["cpu_s", "priced_s"]].sum()
    lines = [
        "# DECORATE's trials with and without rejection: CPU and price", "",
        "One fit of DECORATE (15 members, 50 trials, R_size 1; seed 1) on 20, 50 and 90 % of each "
        "dataset (a random subset, seed 20050801), with and without rejection; process CPU, priced "
        "by `estimated_fit_seconds`. Command: `python3 benchmarks/decorate_trials.py`.", "",
        f"With rejection a fit took {with_rejection['trials'].mean():.1f} trials on average "
        f"({with_rejection['trials'].min()}–{with_rejection['trials'].max()}) for "
        f"{with_rejection['members'].mean():.1f} members; weighted by CPU, {per_member:.2f} trials per "
        f"member (the model prices a fit without rejection at n_estimators / min(max_iterations, "
        f"{REJECTION_TRIALS_PER_MEMBER} × n_estimators) of one with it). Priced / CPU over all "
        f"fits: with rejection {cpu.loc[True, 'priced_s'] / cpu.loc[True, 'cpu_s']:.2f}, without "
        f"{cpu.loc[False, 'priced_s'] / cpu.loc[False, 'cpu_s']:.2f}.", "",
        markdown_table(list(table.columns), table.itertuples(index=False)), ""]
    return "\n".join(lines)


def main() -> int:
    return priced_main(__doc__.splitlines()[0], DATASETS, "decorate_trials", sample, markdown)


if __name__ == "__main__":
    raise SystemExit(main())
