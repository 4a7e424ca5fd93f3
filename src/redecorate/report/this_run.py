"""What every replication report says first: the protocol this run ran, and its own numbers.

Why: a quick run, a pilot or a user's own experiment is read for its own results first; its
comparison with the dissertation (often "not comparable", with most published cells not run)
comes after. So whatever the kind, ``replication.md`` opens with the run's datasets, runs,
folds and curve points, and a table of its main measure at the last point of each curve;
every number of every point is in ``summary.csv``, ``tables/`` and ``figures/``.
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from redecorate.report.tables import display_name, markdown_table

__all__ = ["this_run_lines"]

MAX_LISTED_POINTS = 12
"""More curve points than this are given as their number and range, not listed."""


def _points(points: Sequence[float]) -> str:
    values = sorted(set(points))
    if len(values) > MAX_LISTED_POINTS:
        return f"{len(values)} points from {values[0]:g} to {values[-1]:g}"
    return ", ".join(f"{p:g}" for p in values)


def this_run_lines(records: pd.DataFrame, summary: pd.DataFrame, *, scale: str, folds: int) -> list[str]:
    """The "This run" section: protocol (scale, datasets, runs, folds, points) and the mean of
    the main measure (accuracy if recorded, else the first metric) over runs × folds at the
    last point of each dataset's curve, one column per algorithm."""
    datasets = list(dict.fromkeys(summary["dataset"]))
    algorithms = list(dict.fromkeys(summary["algorithm"]))
    runs = int(records["run"].nunique()) if len(records) else 0
    lines = ["## This run", "",
             f"Scale {scale}: {len(datasets)} dataset(s), {runs} run(s) of {folds}-fold CV, "
             f"{len(algorithms)} algorithm(s); curve points: {_points(summary['point'].tolist())}.", ""]
    if summary.empty:
        return [*lines, "No records.", ""]
    metrics = list(dict.fromkeys(summary["metric"]))
    metric = "accuracy" if "accuracy" in metrics else metrics[0]
    rows = summary[summary["metric"] == metric]
    last = rows[rows["point"] == rows.groupby("dataset")["point"].transform("max")]
    body = []
    for dataset in datasets:
        at = last[last["dataset"] == dataset].set_index("algorithm")
        if at.empty:
            continue
        point = at["point"].iloc[0]
        where = f"{point:g} ({at['n_train'].mean():.0f} examples)" if "n_train" in at else f"{point:g}"
        body.append([dataset, where, *(f"{at.at[a, 'mean']:.2f}" if a in at.index else "–" for a in algorithms)])
    lines += [f"Mean {metric} over runs × folds at the last point of each curve (every point: "
              "`summary.csv`, `tables/`, `figures/`):", "",
              markdown_table(["Dataset", "Last point", *map(display_name, algorithms)], body,
                             "ll" + "r" * len(algorithms))]  # fmt: skip
    return lines
