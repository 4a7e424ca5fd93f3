"""Benchmark: Oza's online boosting, compiled loop against the members' own loop and river.

Why: online boosting runs example by example and member by member (each member's λ depends
on the members before it), so with naive Bayes or stump members the work is a few additions
and one classification per member and example, and a Python loop around it costs far more
than the arithmetic. ``redecorate.learners.lossless_boosting`` runs the loop compiled, bit for
bit the model of the members' own ``partial_fit`` loop (``tests/test_lossless_boosting.py``).
This measures both on the same fits, and river's ``AdaBoostClassifier`` (Oza's online
boosting, Python users' nearest peer) on the same stream.

Protocol: each dataset shuffled once (seed 0); the first 75 % (at most ``--rows``) is the
training stream, the rest (at most 2,000 rows) the test set. Every system learns the stream,
then predicts the test set; CPU seconds of both (``time.process_time``: the machine may be
busy), median of ``--reps``. Systems, ``--members`` members (Oza: 100):

* ours, compiled: ``OnlineBoosting(NaiveBayes())`` and ``OnlineBoosting(DecisionStump())``,
  one ``fit`` (the rows in order, one pass);
* ours, members' loop: the same estimators with members of a subclass that changes nothing,
  which the compiled loop does not take (the loop every fit ran before it);
* river: ``AdaBoostClassifier`` over ``GaussianNB`` (numeric data) or ``MultinomialNB`` on
  one-hot dicts (nominal data), and over a Hoeffding tree of depth 1 for stumps, one
  ``learn_one`` per example. Different naive Bayes and stumps: accuracy is reported beside
  every time, and the ratio is a throughput ratio at that accuracy.

Usage (from the repository root; river is a benchmark-only dependency)::

    python benchmarks/online_boosting.py
    python benchmarks/online_boosting.py --reps 1 --datasets car,credit-g --no-river

Results: ``benchmarks/results/online_boosting.md`` and ``.csv``.
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd
from online_vs_river import timed  # benchmarks/ is the script's directory

REPO = Path(__file__).resolve().parents[1]
MIRROR = Path(os.environ.get("REDECORATE_MIRROR", REPO.parent / "shared" / "datasets" / "uci"))
RESULTS = REPO / "benchmarks" / "results"


def _data(name: str, rows: int) -> tuple[pd.DataFrame, pd.Series, int, int]:
    """The shuffled frame, the training size and the end of the test rows."""
    from redecorate.data import load_dataset

    data = load_dataset(name, registry=REPO / "config" / "datasets.yaml", mirror=MIRROR)
    order = np.random.default_rng(0).permutation(len(data.y))
    X, y = data.X.iloc[order].reset_index(drop=True), data.y.iloc[order].reset_index(drop=True)
    n_train = min(int(0.75 * len(y)), rows)
    return X, y, n_train, min(len(y), n_train + 2000)


def _ours(make, X, y, n_train: int, end: int) -> Callable[[], float]:
    def run() -> float:
        model = make().fit(X.iloc[:n_train], y.iloc[:n_train])
        return float(np.mean(model.predict(X.iloc[n_train:end]) == y.iloc[n_train:end].to_numpy()))

    return run


def _river(make, X: pd.DataFrame, y: pd.Series, n_train: int, end: int, onehot: bool) -> Callable[[], float]:
    plain = [{c: v for c, v in row.items() if pd.notna(v)} for row in X.iloc[:end].astype(object).to_dict("records")]
    rows = [{f"{c}={v}": 1 for c, v in row.items()} for row in plain] if onehot else plain
    labels = y.iloc[:end].astype(str).tolist()

    def run() -> float:
        model = make()
        for x, label in zip(rows[:n_train], labels[:n_train], strict=True):
            model.learn_one(x, label)
        return float(np.mean([model.predict_one(x) == label
                              for x, label in zip(rows[n_train:], labels[n_train:], strict=True)]))

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--members", type=int, default=100)
    parser.add_argument("--rows", type=int, default=10_000, help="at most this many training rows")
    parser.add_argument("--datasets", default="balance-scale,breast-w,credit-g,car,kr-vs-kp,mushroom,nursery,synthetic1")
    parser.add_argument("--no-river", action="store_true", help="leave river out")
    parser.add_argument("--name", default="online_boosting")
    args = parser.parse_args()

    from redecorate.learners.decision_stump import DecisionStump
    from redecorate.learners.naive_bayes import NaiveBayes
    from redecorate.learners.online_ensembles import OnlineBoosting

    class LoopNaiveBayes(NaiveBayes):
        """Naive Bayes that the compiled loop does not take."""

    class LoopStump(DecisionStump):
        """A stump that the compiled loop does not take."""

    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True,
                            text=True).stdout.strip()  # the code measured: read before the runs
    OnlineBoosting(NaiveBayes(), n_estimators=2).fit(pd.DataFrame({"a": [0.0, 1.0]}), [0, 1])  # compile
    OnlineBoosting(DecisionStump(), n_estimators=2).fit(pd.DataFrame({"a": [0.0, 1.0]}), [0, 1])
    out = []
    for name in args.datasets.split(","):
        X, y, n_train, end = _data(name, args.rows)
        nominal = any(isinstance(t, pd.CategoricalDtype) for t in X.dtypes)
        systems: list[tuple[str, str, Callable[[], float]]] = []
        for member, compiled, loop in (("naive Bayes", NaiveBayes, LoopNaiveBayes), ("stumps", DecisionStump, LoopStump)):
            systems += [
                (member, "ours, compiled", _ours(lambda c=compiled: OnlineBoosting(c(), n_estimators=args.members,
                                                                                     random_state=1), X, y, n_train, end)),
                (member, "ours, members' loop", _ours(lambda c=loop: OnlineBoosting(c(), n_estimators=args.members,
                                                                                      random_state=1), X, y, n_train, end)),
            ]
        if not args.no_river:
            from river import ensemble, naive_bayes, tree

            nb = naive_bayes.MultinomialNB if nominal else naive_bayes.GaussianNB
            systems += [
                ("naive Bayes", "river", _river(lambda nb=nb: ensemble.AdaBoostClassifier(nb(), n_models=args.members, seed=1),
                                                X, y, n_train, end, nominal)),
                ("stumps", "river (Hoeffding tree, depth 1)",
                 _river(lambda: ensemble.AdaBoostClassifier(tree.HoeffdingTreeClassifier(max_depth=1),
                                                            n_models=args.members, seed=1), X, y, n_train, end, False)),
            ]
        for member, system, run in systems:
            seconds, accuracy = timed(run, args.reps, time.process_time)
            out.append({"dataset": name, "train_rows": n_train, "members": member, "system": system,
                        "cpu_s": round(seconds, 3), "accuracy": round(accuracy, 4)})
            print(out[-1], flush=True)
    table = pd.DataFrame(out)
    compiled = table[table.system == "ours, compiled"].set_index(["dataset", "members"]).cpu_s
    table["compiled_speed_ratio"] = [round(row.cpu_s / compiled[(row.dataset, row.members)], 2)
                                     for row in table.itertuples()]
    RESULTS.mkdir(parents=True, exist_ok=True)
    table.to_csv(RESULTS / f"{args.name}.csv", index=False)
    load = os.getloadavg()[0]
    versions = f"numpy {np.__version__}, Python {platform.python_version()}"
    if not args.no_river:
        import river

        versions = f"river {river.__version__}, " + versions
    lines = ["# Online boosting: compiled loop, members' loop, river\n",
             f"Commit {commit}, {versions}, {os.cpu_count()} CPUs, 1-minute load {load:.2f} at the end; "
             f"{args.members} members, CPU seconds of learning the stream and predicting the test rows, median of "
             f"{args.reps}. Ratio = CPU over the compiled loop's for the same dataset and members "
             f"(the members' loop gives the same model bit for bit).\n",
             "| dataset | training rows | members | system | CPU s | accuracy | CPU / compiled |",
             "| --- | --: | --- | --- | --: | --: | --: |"]
    lines += [f"| {r.dataset} | {r.train_rows} | {r.members} | {r.system} | {r.cpu_s} | {r.accuracy} | "
              f"{r.compiled_speed_ratio} |" for r in table.itertuples()]
    (RESULTS / f"{args.name}.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print((RESULTS / f"{args.name}.md").read_text(encoding="utf-8"))


if __name__ == "__main__":
    main()
