"""How well the cost model prices Oza's online boosting of naive Bayes and stumps: priced and timed.

Why: an online-boosted member is classified right after it learns each example, so its model
is rebuilt from its counts after every update, and that rebuild rescans every distinct
numeric value the member holds (naive Bayes' estimators, the stump's best test). A model that
sees only examples × attributes priced waveform's boosted stumps at 1/300 of their CPU, and a
cluster job's time limit (10× the price) would kill such a job long before it ends. The
members now declare a cost per value held × class (``FitCost.per_value``), which the price
adds when the data are at hand (:func:`redecorate.learners.cost.values_seen`). This benchmark
times one fit per dataset and learner and sets it beside the price with and without that term.

Protocol: each dataset shuffled once (seed 0); the first 80 % is the stream (a training fold
of 5-fold CV); one ``fit`` of ``online_boosting`` with 100 members (Oza's size); process CPU
(the machine may be busy). Priced as the online kind prices a fold's fit:
``estimated_fit_seconds(..., values=values_seen(X_train))``.

    python3 benchmarks/online_boosting_pricing.py
    python3 benchmarks/online_boosting_pricing.py --datasets credit-g,segment --out /tmp/pricing

writes ``<out>.csv`` (one row per fit) and ``<out>.md``. ``--from-csv`` rewrites the Markdown
from an earlier CSV.
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

from priced_results import priced_arguments, write_priced_results  # noqa: E402  (benchmarks/ is the script's directory)

from redecorate.data import load_dataset  # noqa: E402
from redecorate.learners.cost import estimated_fit_seconds, values_seen  # noqa: E402
from redecorate.learners.params import make_learner  # noqa: E402
from redecorate.report.tables import markdown_table  # noqa: E402

MIRROR = Path(os.environ.get("REDECORATE_MIRROR", REPO.parent / "shared" / "datasets" / "uci"))
DATASETS = ("balance-scale,breast-w,car,credit-g,diabetes,heart-statlog,hypothyroid,ionosphere,kr-vs-kp,"
            "nursery,optdigits,segment,sick,sonar,vehicle,vowel,waveform,wine")
BASES = ("naive_bayes", "decision_stump")


def sample(datasets: list[str], members: int, data_dir: str) -> pd.DataFrame:
    """One timed and priced fit per dataset and base learner."""
    rows = []
    warm = load_dataset("iris", registry=REPO / "config" / "datasets.yaml", mirror=MIRROR, data_dir=data_dir)
    for base in BASES:  # compiled code loaded (or compiled) before anything is timed
        make_learner("online_boosting", {"base": base, "n_estimators": 2}, random_state=0).fit(warm.X, warm.y)
    for name in datasets:
        data = load_dataset(name, registry=REPO / "config" / "datasets.yaml", mirror=MIRROR, data_dir=data_dir)
        order = np.random.default_rng(0).permutation(len(data.y))[: int(0.8 * len(data.y))]
        X, y = data.X.iloc[order], data.y.iloc[order]
        values = values_seen(X)
        for base in BASES:
            params = {"base": base, "n_estimators": members}
            shape = dict(classes=int(y.nunique()))
            blind = estimated_fit_seconds("online_boosting", params, len(y), X.shape[1], **shape)
            priced = estimated_fit_seconds("online_boosting", params, len(y), X.shape[1], values=values, **shape)
            learner = make_learner("online_boosting", params, random_state=0)
            started = time.process_time()
            learner.fit(X, y)
            cpu = time.process_time() - started
            rows.append({"dataset": name, "base": base, "n": len(y), "attributes": X.shape[1],
                         "classes": shape["classes"], "values_seen": round(values, 1), "cpu_s": round(cpu, 3),
                         "priced_s": round(priced, 3), "priced_without_values_s": round(blind, 3)})
            print(rows[-1], flush=True)
    return pd.DataFrame(rows)


def markdown(frame: pd.DataFrame) -> str:
    """Per fit: CPU, both prices and their ratios; per base learner: the range and how many
    fits each price puts within 2× of the CPU."""
    shown = frame.assign(**{"priced / CPU": (frame["priced_s"] / frame["cpu_s"]).round(2),
                            "without values / CPU": (frame["priced_without_values_s"] / frame["cpu_s"]).round(2)})
    lines = ["# Oza's online boosting: priced against measured CPU", "",
             "One `fit` of `online_boosting` (100 members) on 80 % of each shuffled dataset, process CPU; "
             "priced as the online kind prices a fold's fit, with the members' rebuilds "
             "(`values_seen` of the stream) and without them. "
             "Command: `python3 benchmarks/online_boosting_pricing.py`.", ""]
    for base, part in shown.groupby("base", sort=False):
        ratio, blind = part["priced / CPU"], part["without values / CPU"]
        within = lambda r: int(((r >= 0.5) & (r <= 2.0)).sum())  # noqa: E731
        lines += [f"## {base}", "",
                  f"priced / CPU {ratio.min():.2f}–{ratio.max():.2f}, median {ratio.median():.2f}, "
                  f"{within(ratio)} of {len(part)} within 2×; without the values "
                  f"{blind.min():.2f}–{blind.max():.2f}, median {blind.median():.2f}, {within(blind)} of "
                  f"{len(part)} within 2×.", "",
                  markdown_table(list(part.columns.drop("base")),
                                 part.drop(columns="base").itertuples(index=False)), ""]
    return "\n".join(lines)


def main() -> int:
    parser = priced_arguments(__doc__.splitlines()[0], DATASETS, "online_boosting_pricing")
    parser.add_argument("--members", type=int, default=100)
    args = parser.parse_args()
    return write_priced_results(args.out, args.from_csv,
                                lambda: sample(args.datasets.split(","), args.members, args.data_dir), markdown)


if __name__ == "__main__":
    raise SystemExit(main())
