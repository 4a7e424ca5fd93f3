"""What one example's pass through a network costs, against the weights the plan prices it by.

Why: the cost plan prices a network's fit as ``per_example × examples × (weights +
NETWORK_ROW_WEIGHTS)`` (``redecorate.learners.cost``), fitted to Oza's network pilot, whose
fits on the small sets were a few per dataset and timed in wall seconds. §4.8's networks
(breast-w, iris: 21-55 weights at 80 epochs) and the small sets of Oza's pilot are where
the constant part of a pass decides the price. This benchmark fits the batch MLP and the
online MLP on the first rows of each dataset (at most ``--rows``), in process CPU, the faster
of two seeds, and sets the CPU per example and pass beside the price's.

    python3 benchmarks/network_pricing.py
    python3 benchmarks/network_pricing.py --datasets iris,mushroom --rows 500

writes ``<out>.csv`` and ``<out>.md``; ``--from-csv`` rewrites the Markdown from the CSV.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import numpy as np
import pandas as pd

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))

from priced_results import fastest_fit_seconds, priced_arguments, write_priced_results  # noqa: E402

from redecorate.data import load_dataset  # noqa: E402
from redecorate.learners.cost import (  # noqa: E402
    NETWORK_ROW_WEIGHTS,
    NETWORK_SETUP_WEIGHTS,
    estimated_fit_seconds,
    network_weights,
)
from redecorate.learners.params import make_learner  # noqa: E402
from redecorate.report.tables import markdown_table  # noqa: E402

MIRROR = Path(os.environ.get("REDECORATE_MIRROR", REPO.parent / "shared" / "datasets" / "uci"))
DATASETS = "balance-scale,iris,breast-w,car,nursery,kr-vs-kp,credit-g,mushroom"
NETWORKS = {  # learner, parameters, passes per example
    "mlp, 80 epochs": ("mlp", {"learning_rate": 0.15, "momentum": 0.9, "epochs": 80}, 80),
    "mlp, 10 epochs": ("mlp", {"epochs": 10}, 10),
    "online_mlp, 10 updates": ("online_mlp", {"updates_per_example": 10}, 10),
    "online_mlp, 1 update": ("online_mlp", {"updates_per_example": 1}, 1),
}


def sample(datasets: list[str], data_dir: str, rows: int) -> pd.DataFrame:
    """Per dataset and network: the CPU of one fit and its price."""
    registry = REPO / "config" / "datasets.yaml"
    warm = load_dataset("iris", registry=registry, mirror=MIRROR, data_dir=data_dir)
    for learner, params, _ in NETWORKS.values():  # compiled code loaded before anything is timed
        make_learner(learner, params, random_state=0).fit(warm.X, warm.y)
    entries = __import__("yaml").safe_load(registry.read_text(encoding="utf-8"))["datasets"]
    out = []
    for name in datasets:
        data = load_dataset(name, registry=registry, mirror=MIRROR, data_dir=data_dir)
        order = np.random.default_rng(0).permutation(len(data.y))[:rows]
        X, y = data.X.iloc[order], data.y.iloc[order]
        inputs = int(entries[name].get("inputs", X.shape[1]))
        classes = int(entries[name]["classes"])
        for label, (learner, params, passes) in NETWORKS.items():
            cpu = fastest_fit_seconds(learner, params, X, y)
            priced = estimated_fit_seconds(learner, params, len(y), X.shape[1], inputs=inputs, classes=classes)
            weights = network_weights(inputs, classes)
            out.append({"dataset": name, "network": label, "n": len(y), "inputs": inputs, "classes": classes,
                        "weights": weights, "cpu_s": round(cpu, 4), "priced_s": round(priced, 4),
                        "ns_per_pass": round(cpu / (len(y) * passes) * 1e9, 1)})
            print(out[-1], flush=True)
    return pd.DataFrame(out)


def fitted_shape(frame: pd.DataFrame) -> tuple[float, float, float]:
    """Least squares, relative to each fit's CPU, of CPU / n = setup + passes × (row + weight
    × weights): the set-up per example (s), the pass's constant part and its part per weight
    (ns), the shape of ``NETWORK_SETUP_WEIGHTS`` and ``NETWORK_ROW_WEIGHTS``."""
    passes = frame["network"].map({label: p for label, (_, _, p) in NETWORKS.items()}).to_numpy(float)
    per_example = frame["cpu_s"].to_numpy(float) / frame["n"].to_numpy(float)
    design = np.column_stack([np.ones_like(passes), passes, passes * frame["weights"].to_numpy(float)])
    coef, *_ = np.linalg.lstsq(design / per_example[:, None], np.ones_like(passes), rcond=None)
    return coef[0], coef[1] * 1e9, coef[2] * 1e9


def markdown(frame: pd.DataFrame) -> str:
    """The shape fitted to every fit, then per network: CPU per example and pass against the
    weights, and priced / CPU."""
    setup, row, per_weight = fitted_shape(frame)
    lines = ["# Networks: CPU per example and pass against the price", "",
             "One fit on the first rows of each dataset (a seeded shuffle), the faster of seeds 0 "
             "and 1, process CPU; priced by `estimated_fit_seconds` (per example "
             f"`per_pass × ((weights + {NETWORK_ROW_WEIGHTS:g}) × passes + {NETWORK_SETUP_WEIGHTS:g})`). "
             "Command: `python3 benchmarks/network_pricing.py`.", "",
             f"Fitted to all {len(frame)} fits (least squares relative to each fit's CPU): "
             f"{setup * 1e6:.1f} µs per example and fit, plus {row:.0f} ns + {per_weight:.2f} ns per "
             f"weight per example and pass; in weight units {setup * 1e9 / per_weight:,.0f} "
             f"(`NETWORK_SETUP_WEIGHTS`) and {row / per_weight:.0f} (`NETWORK_ROW_WEIGHTS`).", ""]
    for label, part in frame.groupby("network", sort=False):
        part = part.assign(**{"priced / CPU": (part["priced_s"] / part["cpu_s"]).round(2)})
        ratio = part["priced / CPU"]
        lines += [f"## {label}", "",
                  f"priced / CPU {ratio.min():.2f}–{ratio.max():.2f} (median {ratio.median():.2f}).", "",
                  markdown_table(["dataset", "n", "weights", "CPU (s)", "ns per pass", "priced (s)", "priced / CPU"],
                                 part[["dataset", "n", "weights", "cpu_s", "ns_per_pass", "priced_s",
                                       "priced / CPU"]].itertuples(index=False)), ""]
    return "\n".join(lines)


def main() -> int:
    parser = priced_arguments(__doc__.splitlines()[0], DATASETS, "network_pricing")
    parser.add_argument("--rows", type=int, default=1000, help="rows per fit, at most (default 1000)")
    args = parser.parse_args()
    return write_priced_results(args.out, args.from_csv,
                                lambda: sample(args.datasets.split(","), args.data_dir, args.rows), markdown)


if __name__ == "__main__":
    raise SystemExit(main())
