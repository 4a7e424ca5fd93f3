"""How a meta-learner's price carries over to another base learner: J48 members against naive Bayes.

Why: the ensembles' ``per_example`` was fitted with J48 members, and another base learner
scales it by the two learners' ``per_example`` (naive Bayes: 1/61 of J48's). That holds for
the members' fits, not for what the ensemble does itself: DECORATE builds artificial examples
and classifies them and the training set with its committee at every trial, whatever the
members are. ``FitCost.own_share`` is the part that does not scale. This benchmark fits
Bagging, AdaBoost.M1 and DECORATE (§4.9's settings: 15 members, DECORATE 50 trials, R_size 1)
with J48 and with naive Bayes members on 90 % of eight Table-4.1 datasets, and sets each fit's
CPU (the faster of two seeds) beside its price.

    python3 benchmarks/meta_member_pricing.py
    python3 benchmarks/meta_member_pricing.py --datasets segment,credit-a --out /tmp/meta

writes ``<out>.csv`` and ``<out>.md``; ``--from-csv`` rewrites the Markdown from the CSV.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pandas as pd

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))

from priced_results import fastest_fit_seconds, priced_main  # noqa: E402  (benchmarks/ is the script's directory)

from redecorate.data import load_dataset  # noqa: E402
from redecorate.learners.cost import estimated_fit_seconds  # noqa: E402
from redecorate.learners.params import make_learner  # noqa: E402
from redecorate.report.tables import markdown_table  # noqa: E402

MIRROR = Path(os.environ.get("REDECORATE_MIRROR", REPO.parent / "shared" / "datasets" / "uci"))
DATASETS = "splice,segment,credit-a,soybean,anneal,heart-c,autos,colic"
METAS = {"bagging": {"n_estimators": 15}, "adaboost": {"n_estimators": 15},
         "decorate": {"n_estimators": 15, "max_iterations": 50, "artificial_size": 1.0}}
BASES = ("j48", "naive_bayes")


def sample(datasets: list[str], data_dir: str) -> pd.DataFrame:
    """Per dataset, meta-learner and base learner: CPU of one fit and its price."""
    registry = REPO / "config" / "datasets.yaml"
    warm = load_dataset("iris", registry=registry, mirror=MIRROR, data_dir=data_dir)
    for base in BASES:  # compiled code loaded before anything is timed
        for meta in METAS:
            make_learner(meta, {"base": base}, random_state=0).fit(warm.X, warm.y)
    rows = []
    for name in datasets:
        data = load_dataset(name, registry=registry, mirror=MIRROR, data_dir=data_dir)
        n = int(0.9 * len(data.y))
        X, y = data.X.iloc[:n], data.y.iloc[:n]
        for meta, extra in METAS.items():
            for base in BASES:
                params = {"base": base, **extra}
                cpu = fastest_fit_seconds(meta, params, X, y)
                priced = estimated_fit_seconds(meta, params, n, X.shape[1], classes=int(y.nunique()))
                rows.append({"dataset": name, "meta": meta, "base": base, "n": n, "cpu_s": round(cpu, 4),
                             "priced_s": round(priced, 4)})
                print(rows[-1], flush=True)
    return pd.DataFrame(rows)


def markdown(frame: pd.DataFrame) -> str:
    """Per meta-learner: naive Bayes / J48 CPU, and priced / CPU with each base learner."""
    wide = frame.pivot_table(index=["meta", "dataset"], columns="base", values=["cpu_s", "priced_s"])
    table = pd.DataFrame({
        "NB / J48 CPU": wide["cpu_s"]["naive_bayes"] / wide["cpu_s"]["j48"],
        "priced / CPU, J48": wide["priced_s"]["j48"] / wide["cpu_s"]["j48"],
        "priced / CPU, NB": wide["priced_s"]["naive_bayes"] / wide["cpu_s"]["naive_bayes"],
    }).round(2).reset_index()
    lines = ["# Meta-learners with J48 and naive Bayes members: CPU and price", "",
             "One fit on 90 % of each dataset (the faster of seeds 0 and 1, process CPU), priced by "
             "`estimated_fit_seconds`. Command: `python3 benchmarks/meta_member_pricing.py`.", ""]
    for meta, part in table.groupby("meta", sort=False):
        lines += [f"## {meta}", "",
                  f"NB / J48 CPU median {part['NB / J48 CPU'].median():.2f} "
                  f"({part['NB / J48 CPU'].min():.2f}–{part['NB / J48 CPU'].max():.2f}); priced / CPU with "
                  f"naive Bayes {part['priced / CPU, NB'].min():.2f}–{part['priced / CPU, NB'].max():.2f} "
                  f"(median {part['priced / CPU, NB'].median():.2f}).", "",
                  markdown_table(list(part.columns.drop("meta")), part.drop(columns="meta").itertuples(index=False)),
                  ""]
    return "\n".join(lines)


def main() -> int:
    return priced_main(__doc__.splitlines()[0], DATASETS, "meta_member_pricing", sample, markdown)


if __name__ == "__main__":
    raise SystemExit(main())
