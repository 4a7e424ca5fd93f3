"""Benchmark: the network's training kernel at two revisions of the code, and scikit-learn's.

Why: Oza's network experiment (``oza_online_nn``) is most of the campaign's CPU left, and
nearly all of a network's fit is the compiled per-example backpropagation loop. A change to
that loop must be exact (the same weights, so no recorded unit moves) and is only worth its
code if it is faster on the fits the experiment makes. So each revision fits Oza's three
networks (a batch network of 10 epochs, the online network of 1 and of 10 updates per
example; ``config/experiments/oza_online_nn.yaml``) on the seven datasets of the mirror, in a
fresh process per revision (``benchmarks/revisions.py``; kernels compiled and warmed first,
not counted), revisions taking turns in every repetition; the fitted weights' digests are
compared across revisions; also online bagging of 10 of the online networks of 10 updates.
The peer (of the three single networks; none has online bagging of networks) is
scikit-learn's ``MLPClassifier`` doing the same work:
the same inputs (ours, nominal-to-binary and scaled), the same hidden units, logistic units,
per-example SGD (``batch_size=1``) with momentum 0.9 at rate 0.15, 10 epochs or one pass (the
online network of 10 updates: each row repeated 10 times, one pass unshuffled). It is not
the same network (softmax cross-entropy, other initial weights), only the same number of
per-example updates of the same weights, timed in this process (on this checkout's inputs).

Usage (from the repository root)::

    python benchmarks/network_kernel.py --revs 02690e1~1,02690e1 --reps 3
    python benchmarks/network_kernel.py --datasets car,mushroom --reps 1 --no-peer

Result: ``benchmarks/results/network_kernel.md`` and ``.csv`` (``--name`` for another stem).
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import pandas as pd

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT / "src"))

from revisions import process_env, subject, tree  # noqa: E402

DATASETS = "balance-scale,breast-w,credit-g,car,kr-vs-kp,mushroom,nursery"
NETWORKS = {  # label: learner, parameters, passes per example (Oza's networks)
    "batch, 10 epochs": ("mlp", {"epochs": 10}, 10),
    "online, 1 update": ("online_mlp", {"updates_per_example": 1}, 1),
    "online, 10 updates": ("online_mlp", {"updates_per_example": 10}, 10),
    "online bagging, 10 members × 10 updates": (
        "online_bagging", {"base": {"name": "online_mlp", "params": {"updates_per_example": 10}}, "n_estimators": 10}, 100),
}
"""Per network: the registry learner, its parameters, and the updates per example (an online
bagging member sees each example Poisson(1) times). Oza's ensembles have 100 members; 10 keep
the benchmark short and cost a tenth."""

#: Run in a fresh process with the revision's ``src`` first on the path.
_DRIVER = r"""
import hashlib, json, sys, time
import numpy as np
import redecorate
from redecorate.data import load_dataset
from redecorate.learners.params import make_learner

spec = json.loads(sys.argv[1])
rows = []
warm = load_dataset("iris", registry=spec["registry"], mirror=spec["mirror"], data_dir=spec["data_dir"])
for learner, params, _ in spec["networks"].values():
    make_learner(learner, params, random_state=0).fit(warm.X, warm.y)
for name in spec["datasets"]:
    data = load_dataset(name, registry=spec["registry"], mirror=spec["mirror"], data_dir=spec["data_dir"])
    order = np.random.default_rng(0).permutation(len(data.y))[: spec["rows"]]
    X, y = data.X.iloc[order], data.y.iloc[order]
    for label, (learner, params, passes) in spec["networks"].items():
        cpu, digest = [], None
        for seed in (0, 1):
            model = make_learner(learner, params, random_state=seed)
            started = time.process_time()
            model.fit(X, y)
            cpu.append(time.process_time() - started)
            networks = getattr(model, "estimators_", [model])
            if seed == 0:
                digest = hashlib.sha256(b"".join(m.W1_.tobytes() + m.W2_.tobytes() for m in networks)).hexdigest()[:16]
        rows.append({"dataset": name, "network": label, "n": len(y), "hidden": int(networks[0].n_hidden_),
                     "weights": int(networks[0].W1_.size + networks[0].W2_.size), "cpu_s": min(cpu), "digest": digest})
print(json.dumps({"rows": rows, "package": redecorate.__file__}))
"""


def revision_fits(folder: Path, spec: dict) -> list[dict]:
    """Each network's fit on each dataset with the code in ``folder``: the faster of seeds 0
    and 1 in process CPU, and the digest of seed 0's weights."""
    done = subprocess.run([sys.executable, "-c", _DRIVER, json.dumps(spec)], cwd=ROOT, env=process_env(folder),
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"fits at {folder.name}: {done.stderr[-2000:]}")
    out = json.loads(done.stdout.strip().splitlines()[-1])
    if not out["package"].startswith(str(folder)):
        raise RuntimeError(f"imported {out['package']}, not the tree of {folder.name}")
    return out["rows"]


def peer_fits(spec: dict) -> list[dict]:
    """scikit-learn's per-example SGD on our encoded inputs (see the module docstring), the
    faster of seeds 0 and 1 in process CPU."""
    import warnings

    import numpy as np
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.neural_network import MLPClassifier

    from redecorate.data import load_dataset
    from redecorate.learners.mlp import MLP

    out = []
    for name in spec["datasets"]:
        data = load_dataset(name, registry=spec["registry"], mirror=spec["mirror"], data_dir=spec["data_dir"])
        order = np.random.default_rng(0).permutation(len(data.y))[: spec["rows"]]
        X, y = data.X.iloc[order], data.y.iloc[order]
        network = MLP(epochs=1, random_state=0).fit(X, y)
        Z = network._inputs(network.feature_schema_.encode(X))
        codes = pd.Series(y).astype("category").cat.codes.to_numpy()
        for label, (learner, _, passes) in spec["networks"].items():
            if learner not in ("mlp", "online_mlp"):
                continue  # no peer has online bagging of networks
            batch = label.startswith("batch")
            epochs, repeat = (passes, 1) if batch else (1, passes)
            Zr, yr = np.repeat(Z, repeat, axis=0), np.repeat(codes, repeat)
            cpu = []
            for seed in (0, 1):
                peer = MLPClassifier(hidden_layer_sizes=(network.n_hidden_,), activation="logistic", solver="sgd",
                                     learning_rate_init=0.15, momentum=0.9, nesterovs_momentum=False, batch_size=1,
                                     max_iter=epochs, shuffle=batch, alpha=0.0, tol=0.0, n_iter_no_change=10**9,
                                     random_state=seed)
                started = time.process_time()
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", ConvergenceWarning)
                    peer.fit(Zr, yr)
                cpu.append(time.process_time() - started)
            out.append({"dataset": name, "network": label, "sklearn_s": min(cpu)})
            print(f"sklearn {name} {label}: {min(cpu):.3f} s", flush=True)
    return out


def main(argv: Sequence[str] | None = None) -> int:
    from j48_vs_weka import load_average, run_setting

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--revs", default="HEAD~1,HEAD", help="two comma-separated git revisions, before and after")
    parser.add_argument("--datasets", default=DATASETS)
    parser.add_argument("--rows", type=int, default=100_000, help="rows per fit, at most (a seeded shuffle)")
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--no-peer", action="store_true", help="leave scikit-learn out")
    parser.add_argument("--data-dir", default=str(ROOT / "data"))
    parser.add_argument("--out-dir", type=Path, default=HERE / "results")
    parser.add_argument("--name", default="network_kernel")
    args = parser.parse_args(argv)
    revs = [r for r in args.revs.split(",") if r]
    if len(revs) != 2:
        parser.error("--revs: two revisions, before and after")
    mirror = os.environ.get("REDECORATE_MIRROR", str(ROOT.parent / "shared" / "datasets" / "uci"))
    spec = {"datasets": [d for d in args.datasets.split(",") if d], "rows": args.rows, "networks": NETWORKS,
            "registry": str(ROOT / "config" / "datasets.yaml"), "mirror": mirror, "data_dir": args.data_dir}
    trees = [tree(r) for r in revs]
    load_start = load_average()
    started = time.perf_counter()
    runs: list[list[list[dict]]] = [[], []]
    for r in range(args.reps):
        for i in ([0, 1] if r % 2 == 0 else [1, 0]):
            runs[i].append(revision_fits(trees[i][1], spec))
            print(f"rep {r + 1} {trees[i][0]}: {sum(row['cpu_s'] for row in runs[i][-1]):.2f} s", flush=True)
    frame = pd.DataFrame(runs[0][0])[["dataset", "network", "n", "hidden", "weights"]]
    for i, key in enumerate(("before_s", "after_s")):
        frame[key] = [statistics.median(rep[j]["cpu_s"] for rep in runs[i]) for j in range(len(frame))]
    frame["after/before"] = frame["after_s"] / frame["before_s"]
    frame["identical"] = [all(rep[j]["digest"] == runs[0][0][j]["digest"] for i in (0, 1) for rep in runs[i])
                          for j in range(len(frame))]
    if not args.no_peer:
        frame = frame.merge(pd.DataFrame(peer_fits(spec)), on=["dataset", "network"], how="left")
        frame["after/sklearn"] = frame["after_s"] / frame["sklearn_s"]
    out = args.out_dir / args.name
    out.parent.mkdir(parents=True, exist_ok=True)
    frame.round(4).to_csv(f"{out}.csv", index=False)
    command = shlex.join(sys.argv[1:] if argv is None else argv)
    setting = [
        f"- **command**: python benchmarks/network_kernel.py {command}",
        "- **revisions**: " + "; ".join(f"{c} ({subject(c)})" for c, _ in trees),
        *run_setting(load_start, started),
    ]
    Path(f"{out}.md").write_text(markdown(frame, trees, args.reps, setting), encoding="utf-8")
    print(Path(f"{out}.md").read_text(encoding="utf-8"))
    return 0


def markdown(frame: pd.DataFrame, trees: list[tuple[str, Path]], reps: int, setting: list[str]) -> str:
    """The page: per network, the summed CPU before and after and against the peer, then
    every fit."""
    from redecorate.report.tables import markdown_table

    peer = "sklearn_s" in frame
    lines = ["# The network's training kernel: two revisions, and scikit-learn", "",
             f"Process CPU of one fit (the faster of seeds 0 and 1; median of {reps} repetitions, the "
             "revisions in turns, each in a fresh process with its kernels warmed up); see the docstring "
             f"of `benchmarks/network_kernel.py`. Before = {trees[0][0]}, after = {trees[1][0]}. "
             f"Weights identical across revisions and repetitions in {int(frame['identical'].sum())} of "
             f"{len(frame)} fits.", "", "## Setting", "", *setting, "", "## Per network, summed over the datasets", ""]
    summary = frame.groupby("network", sort=False)[[c for c in ("before_s", "after_s", "sklearn_s") if c in frame]]
    summary = summary.sum(min_count=1)
    headers = ["network", "before (s)", "after (s)", "after / before"] + (["sklearn (s)", "after / sklearn"] if peer else [])
    lines.append(markdown_table(headers, [
        [label, f"{row.before_s:.2f}", f"{row.after_s:.2f}", f"{row.after_s / row.before_s:.2f}"]
        + ([f"{row.sklearn_s:.2f}", f"{row.after_s / row.sklearn_s:.3f}"] if peer and row.sklearn_s > 0
           else ["–", "–"] if peer else [])
        for label, row in summary.iterrows()]))
    lines += ["", "## Every fit", ""]
    columns = ["dataset", "network", "n", "hidden", "weights", "before_s", "after_s", "after/before", "identical"]
    columns += ["sklearn_s", "after/sklearn"] if peer else []
    lines.append(markdown_table(columns, frame[columns].round(3).itertuples(index=False)))
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    raise SystemExit(main())
