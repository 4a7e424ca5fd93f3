"""Benchmark: Oza's online bagging in redecorate against river's ``BaggingClassifier``.

Why: river is what Python users reach for to learn from a stream; its online bagging calls
each member's ``learn_one`` k ~ Poisson(1) times per example, in Python. Ours hands a lossless
member a whole mini-batch with its column of Poisson weights in one call
(``redecorate.learners.online_ensembles``). This measures what that buys on the same stream,
in one process, and at what accuracy.

Protocol: each dataset (ARFF mirror) shuffled once (seed 0); the first 75 % is the training
stream, the rest the test set. Every system learns the whole stream, then predicts the test
set; the time of both is measured (``time.perf_counter``; our online tree builds lazily, when
first asked to predict, so training time alone would flatter it), median of ``--reps``
repetitions. Rows/s = training rows / (train + test seconds). Systems, 10 members each:

* naive Bayes: ours ``OnlineBagging(NaiveBayes())`` (Weka's naive Bayes: Gaussian numeric,
  Laplace nominal), fed in mini-batches of 100 and 1,000 rows (``--batches``; ``partial_fit``); river
  ``BaggingClassifier(GaussianNB())`` on numeric data and ``BaggingClassifier(MultinomialNB())``
  on one-hot dicts (``attribute=value: 1``) for nominal data, one ``learn_one`` per example.
  river's trees get the nominal values as strings (they split on them natively).
* trees: ours ``OnlineBagging(OnlineTree())`` (J48 over the examples seen, lossless) in
  mini-batches of 1,000; river ``BaggingClassifier(HoeffdingTreeClassifier())`` (a lossy
  Hoeffding tree, the nearest tree river has), one ``learn_one`` per example.
* prequential naive Bayes (test each example, then learn it: Oza's Fig. 3.11 loop) on the
  first ``--prequential`` rows: ours ``predict_one``/``learn_one`` against river's. This is
  the path where nothing can be batched.

The two naive Bayes and the two trees are different learners, so accuracy is reported beside
every time and the ratio is a throughput ratio at the accuracy shown, not a like-for-like
speed of one algorithm. river is a benchmark-only dependency (``pip install river``).

Usage (from the repository root)::

    python benchmarks/online_vs_river.py              # reps 3
    python benchmarks/online_vs_river.py --reps 1 --datasets waveform

Results: ``benchmarks/results/online_vs_river.md`` and ``.csv``.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd

REPO = Path(__file__).resolve().parents[1]
MIRROR = Path(os.environ.get("REDECORATE_MIRROR", REPO.parent / "shared" / "datasets" / "uci"))
RESULTS = REPO / "benchmarks" / "results"
MEMBERS = 10


def _stream(name: str) -> tuple[pd.DataFrame, pd.Series, list[dict], list[dict], bool]:
    """The shuffled frame, river's dicts for naive Bayes (one-hot where nominal: its
    multinomial model counts features) and for trees (values as they are: its trees split
    nominal strings natively), and whether any attribute is nominal."""
    from redecorate.data import load_dataset

    data = load_dataset(name, registry=REPO / "config" / "datasets.yaml", mirror=MIRROR)
    order = np.random.default_rng(0).permutation(len(data.y))
    X, y = data.X.iloc[order].reset_index(drop=True), data.y.iloc[order].reset_index(drop=True)
    nominal = any(isinstance(t, pd.CategoricalDtype) for t in X.dtypes)
    plain = [{c: v for c, v in row.items() if pd.notna(v)} for row in X.astype(object).to_dict("records")]
    onehot = [{f"{c}={v}": 1 for c, v in row.items()} for row in plain] if nominal else plain
    return X, y, onehot, plain, nominal


def timed(fn: Callable[[], float], reps: int, clock: Callable[[], float] = time.perf_counter,
          ) -> tuple[float, float]:
    """Median seconds of ``reps`` calls by ``clock`` (wall time by default; the online
    boosting benchmark counts CPU) and the accuracy the last call returned."""
    times, accuracy = [], float("nan")
    for _ in range(reps):
        tic = clock()
        accuracy = fn()
        times.append(clock() - tic)
    return statistics.median(times), accuracy


def _ours_batches(make, X, y, n_train: int, batch: int) -> Callable[[], float]:
    classes = list(y.cat.categories)

    def run() -> float:
        model = make()
        for start in range(0, n_train, batch):
            stop = min(start + batch, n_train)
            model.partial_fit(X.iloc[start:stop], y.iloc[start:stop], classes=classes)
        return float(np.mean(model.predict(X.iloc[n_train:]) == y.iloc[n_train:].to_numpy()))

    return run


def _river(make, rows: list[dict], y: pd.Series, n_train: int) -> Callable[[], float]:
    labels = y.astype(str).tolist()

    def run() -> float:
        model = make()
        for x, label in zip(rows[:n_train], labels[:n_train], strict=True):
            model.learn_one(x, label)
        hits = [model.predict_one(x) == label for x, label in zip(rows[n_train:], labels[n_train:], strict=True)]
        return float(np.mean(hits))

    return run


def _prequential(make, rows: list[dict], labels: list) -> Callable[[], float]:
    def run() -> float:
        model, hits = make(), 0
        for x, label in zip(rows, labels, strict=True):
            hits += model.predict_one(x) == label
            model.learn_one(x, label)
        return hits / len(rows)

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--datasets", default="waveform,nursery")
    parser.add_argument("--prequential", type=int, default=500, help="rows of the prequential run")
    parser.add_argument("--batches", default="100,1000",
                        help="our mini-batch sizes for naive Bayes (1 is the per-example path: slow)")
    args = parser.parse_args()

    import river
    from river import ensemble, naive_bayes, tree

    from redecorate.learners.naive_bayes import NaiveBayes
    from redecorate.learners.online_ensembles import OnlineBagging
    from redecorate.learners.online_tree import OnlineTree

    rows_out = []
    for name in args.datasets.split(","):
        X, y, rows, tree_rows, nominal = _stream(name)
        n_train = int(0.75 * len(y))
        river_nb = naive_bayes.MultinomialNB if nominal else naive_bayes.GaussianNB
        configs = [
            ("naive Bayes", "river", "per example",
             _river(lambda nb=river_nb: ensemble.BaggingClassifier(nb(), n_models=MEMBERS, seed=1), rows, y, n_train)),
            *[("naive Bayes", "redecorate", f"batches of {b}",
               _ours_batches(lambda: OnlineBagging(NaiveBayes(), n_estimators=MEMBERS, random_state=1),
                             X, y, n_train, b)) for b in map(int, args.batches.split(","))],
            ("trees", "river", "per example (Hoeffding trees)",
             _river(lambda: ensemble.BaggingClassifier(tree.HoeffdingTreeClassifier(), n_models=MEMBERS, seed=1),
                    tree_rows, y, n_train)),
            ("trees", "redecorate", "batches of 1000 (online J48)",
             _ours_batches(lambda: OnlineBagging(OnlineTree(), n_estimators=MEMBERS, random_state=1),
                           X, y, n_train, 1000)),
        ]
        if not nominal:  # river's dict path; ours encodes dicts of numbers
            m = min(args.prequential, len(y))
            labels = y.astype(str).tolist()[:m]
            configs += [
                ("prequential naive Bayes", "river", "per example",
                 _prequential(lambda: ensemble.BaggingClassifier(naive_bayes.GaussianNB(), n_models=MEMBERS, seed=1),
                              rows[:m], labels)),
                ("prequential naive Bayes", "redecorate", "per example",
                 _prequential(lambda: OnlineBagging(NaiveBayes(), n_estimators=MEMBERS, random_state=1),
                              rows[:m], labels)),
            ]
        for task, system, how, fn in configs:
            n = args.prequential if task.startswith("prequential") else n_train
            n = min(n, len(y))
            seconds, accuracy = timed(fn, args.reps)
            rows_out.append({"dataset": name, "rows": n, "task": task, "system": system, "feeding": how,
                             "seconds": round(seconds, 3), "rows_per_s": round(n / seconds, 1),
                             "accuracy": round(accuracy, 4)})  # fmt: skip
            print(rows_out[-1], flush=True)
    frame = pd.DataFrame(rows_out)
    river_rate = frame[frame["system"] == "river"].set_index(["dataset", "task"])["rows_per_s"]
    frame["ratio_to_river"] = [round(r["rows_per_s"] / river_rate[(r["dataset"], r["task"])], 2)
                               for _, r in frame.iterrows()]  # fmt: skip
    RESULTS.mkdir(parents=True, exist_ok=True)
    frame.to_csv(RESULTS / "online_vs_river.csv", index=False, lineterminator="\n")
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True,
                            text=True).stdout.strip()
    load = os.getloadavg()[0]
    header = [
        "# Online bagging: redecorate vs river", "",
        f"Commit {commit}, river {river.__version__}, numpy {np.__version__}, Python "
        f"{platform.python_version()}, {os.cpu_count()} CPUs, load average {load:.2f} at the end; "
        f"{MEMBERS} members, median of {args.reps} repetitions. Rows/s = training rows / (train + "
        "test seconds); ratio = rows/s over river's for the same dataset and task.", "",
        "| dataset | rows | task | system | feeding | seconds | rows/s | accuracy | ratio to river |",
        "| --- | --: | --- | --- | --- | --: | --: | --: | --: |",
    ]
    body = [f"| {r.dataset} | {r.rows} | {r.task} | {r.system} | {r.feeding} | {r.seconds} | "
            f"{r.rows_per_s} | {r.accuracy} | {r.ratio_to_river} |" for r in frame.itertuples()]
    (RESULTS / "online_vs_river.md").write_text("\n".join([*header, *body, ""]), encoding="utf-8")
    print(f"wrote {RESULTS / 'online_vs_river.md'}")


if __name__ == "__main__":
    main()
