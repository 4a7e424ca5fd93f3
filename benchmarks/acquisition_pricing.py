"""How well chapter 8's cost model prices a fit: sampled fits along real curves, priced and timed.

Why: a DECORATE unit of Table 8.3 on hypothyroid takes from minutes to more than an hour
depending on the split's known features, and the planner (``python3 -m redecorate.plan``)
prices it from them (``redecorate.kinds.acquisition``). This benchmark takes thesis splits of
``ch8_afa`` (the fold's own known features and initial set, as the curve draws them), completes
0, 25, 50, 75 and 95 % of the incomplete instances in a random order, times one fit of the
entry's learner there (process CPU) and sets it beside the kind's price for that fit
(:func:`redecorate.kinds.acquisition._fit_cost` on the distinct rows the fit sees).

    python3 benchmarks/acquisition_pricing.py --datasets hypothyroid,kr-vs-kp,anneal \\
        --algorithm decorate_random --splits 8 --out benchmarks/results/acquisition_pricing

writes ``<out>.csv`` (one row per fit) and ``<out>.md`` (priced / measured per dataset and per
split). ``--from-csv`` rewrites the Markdown from an earlier CSV.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))

from redecorate.active.acquisition import FeatureAcquisition, acquisition_start  # noqa: E402
from redecorate.data import load_dataset  # noqa: E402
from redecorate.kinds import get_kind  # noqa: E402
from redecorate.kinds.acquisition import _fit_cost  # noqa: E402
from redecorate.learners.base import merge_identical_rows  # noqa: E402
from redecorate.learners.params import make_learner  # noqa: E402
from redecorate.protocol.folds import run_folds  # noqa: E402
from redecorate.protocol.seeds import seed_sequence  # noqa: E402
from redecorate.report.tables import markdown_table  # noqa: E402
from redecorate.run_config import load_run  # noqa: E402

SHARES = (0.0, 0.25, 0.5, 0.75, 0.95)


def sample(datasets: list[str], algorithm: str, splits: int, mirror: str, data_dir: str) -> pd.DataFrame:
    run = load_run({"experiments": ["ch8_afa"], "data_mirror": mirror}, REPO)
    spec = run.experiments["ch8_afa"]
    job = get_kind(spec.kind).job_settings(spec)
    entry = job.algorithms[algorithm]
    rows = []
    for name in datasets:
        data = load_dataset(name, registry=run.registry, data_dir=data_dir, mirror=mirror)
        numeric = None
        chosen = np.random.default_rng(7).permutation(5 * job.folds)[:splits]
        for index in chosen:
            r, fold = divmod(int(index), job.folds)
            train = run_folds(data, job.folds, run=r, seed=job.seed)[fold][0]
            seed = seed_sequence(job.seed, "acquisition", name, r, fold, entry["batch_size"])
            start = acquisition_start(data.X.iloc[train], data.y.iloc[train], seed=seed,
                                      batch_size=entry["batch_size"], known_fraction=job.options.known_fraction)
            if numeric is None:
                numeric = 1.0 - float(start.schema.is_nominal.mean())
            initial = np.flatnonzero(start.state.complete)
            order = np.random.default_rng(1).permutation(start.state.incomplete)
            for share in SHARES:
                state = FeatureAcquisition(start.X, start.state.known,
                                           np.concatenate([initial, order[:int(share * order.size)]]))
                view, left = state.matrix(), state.incomplete
                seen = int(state.complete.sum()) + len(merge_identical_rows(view[left], start.y[left])[0])
                model = make_learner(entry["learner"], entry["params"], np.random.SeedSequence(5))
                tic = time.process_time()
                model.fit_prepared(view, start.y, classes=start.classes, schema=start.schema,
                                   columns=data.X.iloc[:0], merge_identical=True)
                cpu = time.process_time() - tic
                rows.append({"dataset": name, "algorithm": algorithm, "run": r, "fold": fold,
                             "pool": len(train), "complete": int(state.complete.sum()), "rows_seen": seen,
                             "cpu_s": cpu, "priced_s": _fit_cost(entry, seen, len(train), start.X.shape[1], numeric)})
                print(rows[-1], flush=True)
    return pd.DataFrame(rows)


def markdown(frame: pd.DataFrame) -> str:
    per_dataset = frame.groupby("dataset").agg(fits=("cpu_s", "size"), measured=("cpu_s", "sum"),
                                               priced=("priced_s", "sum"))
    per_split = frame.groupby(["dataset", "run", "fold"]).agg(measured=("cpu_s", "sum"), priced=("priced_s", "sum"))
    for table in (per_dataset, per_split):
        table["priced / measured"] = table["priced"] / table["measured"]
    def table(frame: pd.DataFrame) -> str:
        keys = list(frame.index.names)
        rows = [[*(key if isinstance(key, tuple) else (key,)),
                 *(str(int(v)) if c == "fits" else f"{v:.2f}" for c, v in zip(frame.columns, row, strict=True))]
                for key, row in zip(frame.index, frame.to_numpy(), strict=True)]
        return markdown_table([*keys, *frame.columns], rows, "l" * len(keys) + "r" * len(frame.columns))

    lines = ["# Chapter 8's cost model against sampled fits", "",
             f"Fits of `{frame['algorithm'].iloc[0]}` at {', '.join(f'{s:.0%}' for s in SHARES)} of the "
             "incomplete instances completed (random order), on thesis splits of `ch8_afa`; measured: "
             "process CPU of the fit; priced: `redecorate.kinds.acquisition._fit_cost` on the distinct "
             "rows the fit sees.", "", table(per_dataset), "",
             "Per split (the sum of its sampled fits):", "", table(per_split), ""]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--datasets", default="hypothyroid,kr-vs-kp,anneal")
    parser.add_argument("--algorithm", default="decorate_random")
    parser.add_argument("--splits", type=int, default=8)
    parser.add_argument("--mirror", default=str(REPO.parent / "shared" / "datasets" / "uci"))
    parser.add_argument("--data-dir", default="data")
    parser.add_argument("--out", default=str(REPO / "benchmarks" / "results" / "acquisition_pricing"))
    parser.add_argument("--from-csv", help="rewrite the Markdown from this CSV instead of sampling")
    args = parser.parse_args()
    if args.from_csv:
        frame = pd.read_csv(args.from_csv)
    else:
        frame = sample(args.datasets.split(","), args.algorithm, args.splits, args.mirror, args.data_dir)
        frame.to_csv(f"{args.out}.csv", index=False)
    Path(f"{args.out}.md").write_text(markdown(frame), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
