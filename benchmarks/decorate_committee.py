"""What a larger DECORATE committee costs per member, against the price of its size.

Why: every DECORATE trial labels its artificial examples with every member built so far, so
the work of a fit grows faster than its size; priced in proportion to the size alone, §4.5's
DECORATE of 100 members (``ch4_large_ensembles``) was planned at 0.38 of its units' measured
CPU. This benchmark fits DECORATE with 15 members (50 trials, the thesis's) and with 100 (300
trials, §4.5's) at every point of one fold's learning curve (1-100 % of a 90 % training fold,
a seeded random subset) of the datasets of ``ch4_large_ensembles``, and records each fit's
CPU, its trials and its price with the committee's share (``FitCost.committee_share``) and
without it, so the share in :class:`redecorate.learners.decorate.Decorate`'s cost rests on a
measurement of what a unit of that experiment fits.

    python3 benchmarks/decorate_committee.py
    python3 benchmarks/decorate_committee.py --datasets iris --out /tmp/committee

writes ``<out>.csv`` and ``<out>.md``; ``--from-csv`` rewrites the Markdown from the CSV.
"""

from __future__ import annotations

import dataclasses
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
from redecorate.learners.cost import estimated_fit_seconds  # noqa: E402
from redecorate.learners.decorate import Decorate  # noqa: E402
from redecorate.learners.params import make_learner  # noqa: E402
from redecorate.report.tables import markdown_table  # noqa: E402

MIRROR = Path(os.environ.get("REDECORATE_MIRROR", REPO.parent / "shared" / "datasets" / "uci"))
DATASETS = "iris,breast-w,heart-c,segment"
POINTS = (1, 2, 5, 10, 20, 30, 40, 50, 75, 100)
"""The learning curve's points, % of the training fold (``config/experiments/ch4_large_ensembles.yaml``)."""
SIZES = {15: 50, 100: 300}  # members: trials (max_iterations)


def _price(params: dict[str, int], n: int, d: int, classes: int, *, committee: bool) -> float:
    """``estimated_fit_seconds`` with today's committee share, or with none (size alone)."""
    if committee:
        return estimated_fit_seconds("decorate", params, n, d, classes=classes)
    today = Decorate.fit_cost
    Decorate.fit_cost = dataclasses.replace(today, committee_share=0.0)
    try:
        return estimated_fit_seconds("decorate", params, n, d, classes=classes)
    finally:
        Decorate.fit_cost = today


def sample(datasets: list[str], data_dir: str) -> pd.DataFrame:
    """Per dataset, curve point and committee size: CPU, trials and the two prices of one fit."""
    registry = REPO / "config" / "datasets.yaml"
    warm = load_dataset("iris", registry=registry, mirror=MIRROR, data_dir=data_dir)
    make_learner("decorate", {}, random_state=0).fit(warm.X, warm.y)  # compiled code loaded first
    rows = []
    for name in datasets:
        data = load_dataset(name, registry=registry, mirror=MIRROR, data_dir=data_dir)
        order = np.random.default_rng(20050801).permutation(len(data.y))
        fold = int(0.9 * len(order))
        for point in POINTS:
            used = order[: max(round(fold * point / 100), 1)]
            X, y = data.X.iloc[used], data.y.iloc[used]
            for size, trials in SIZES.items():
                params = {"n_estimators": size, "max_iterations": trials}
                learner = make_learner("decorate", params, random_state=1)
                started = time.process_time()
                learner.fit(X, y)
                cpu = time.process_time() - started
                classes = int(y.nunique())
                rows.append({"dataset": name, "point": point, "n": len(y), "size": size,
                             "trials": int(learner.n_trials_), "members": len(learner.estimators_),
                             "cpu_s": round(cpu, 4),
                             "priced_s": round(_price(params, len(y), X.shape[1], classes, committee=True), 4),
                             "size_only_s": round(_price(params, len(y), X.shape[1], classes, committee=False), 4)})
                print(rows[-1], flush=True)
    return pd.DataFrame(rows)


def markdown(frame: pd.DataFrame) -> str:
    """Per dataset, one fold's curve: CPU and price of each size, and size 100 over size 15."""
    curve = frame.groupby(["dataset", "size"], sort=False)[["cpu_s", "priced_s", "size_only_s", "trials"]].sum()
    rows = []
    for dataset in frame["dataset"].unique():
        small, large = curve.loc[(dataset, 15)], curve.loc[(dataset, 100)]
        rows.append([dataset, f"{int(small['trials'])} / {int(large['trials'])}",
                     f"{small['cpu_s']:.2f} / {large['cpu_s']:.2f}", f"{large['cpu_s'] / small['cpu_s']:.1f}",
                     f"{large['priced_s'] / small['priced_s']:.1f}", f"{large['size_only_s'] / small['size_only_s']:.1f}",
                     f"{small['priced_s'] / small['cpu_s']:.2f}", f"{large['priced_s'] / large['cpu_s']:.2f}",
                     f"{large['size_only_s'] / large['cpu_s']:.2f}"])
    total = frame.groupby("size")[["cpu_s", "priced_s", "size_only_s"]].sum()
    lines = [
        "# DECORATE's committee size: CPU against price", "",
        "One fold's learning curve (1, 2, 5, 10, 20, 30, 40, 50, 75 and 100 % of a 90 % training fold, "
        "a random subset, seed 20050801) of DECORATE with 15 members (50 trials) and with 100 (300 "
        "trials), R_size 1, seed 1; process CPU, priced by `estimated_fit_seconds` with the committee's "
        "share (`FitCost.committee_share`) and with the size alone. Command: "
        "`python3 benchmarks/decorate_committee.py`.", "",
        f"Over every curve, size 100 took {total.loc[100, 'cpu_s'] / total.loc[15, 'cpu_s']:.1f}× the CPU of "
        f"size 15; priced {total.loc[100, 'priced_s'] / total.loc[15, 'priced_s']:.1f}× with the committee's "
        f"share, {total.loc[100, 'size_only_s'] / total.loc[15, 'size_only_s']:.1f}× by the size alone.", "",
        markdown_table(["dataset", "trials 15 / 100", "CPU s 15 / 100", "CPU 100 / 15", "priced 100 / 15",
                        "size alone 100 / 15", "priced / CPU, 15", "priced / CPU, 100", "size alone / CPU, 100"],
                       rows), ""]
    return "\n".join(lines)


def main() -> int:
    return priced_main(__doc__.splitlines()[0], DATASETS, "decorate_committee", sample, markdown)


if __name__ == "__main__":
    raise SystemExit(main())
