"""Friedman test and Nemenyi critical-difference diagram (Demšar 2006) for one experiment.

Why: the dissertation compares two algorithms at a time with paired t-tests over folds of
one dataset and counts wins. Reviewers today ask for the comparison of several algorithms
over several datasets that Demšar (2006) recommends: rank the algorithms on every dataset,
test with Friedman's χ² whether the average ranks differ, and draw which differences exceed
Nemenyi's critical difference CD = q_α √(k(k+1)/(6N)). Written beside the thesis's tables,
never instead of them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from redecorate.report.figures import new_figure, save_figure
from redecorate.report.tables import display_name, markdown_table, point_label

__all__ = ["critical_difference", "friedman_table", "write_friedman"]


def critical_difference(k: int, n: int, alpha: float = 0.05) -> float:
    """Nemenyi's CD for k algorithms on n datasets: q_α(k, ∞)/√2 · √(k(k+1)/(6n))."""
    from scipy.stats import studentized_range

    q = studentized_range.ppf(1 - alpha, k, np.inf) / math.sqrt(2)
    return float(q * math.sqrt(k * (k + 1) / (6.0 * n)))


def friedman_table(means: pd.DataFrame, alpha: float = 0.05) -> dict[str, object]:
    """Friedman test on a datasets × algorithms table of mean accuracies (higher is better).

    Ranks within each dataset (1 = best, ties averaged); returns the average ranks, the
    χ² statistic and p-value (scipy's friedmanchisquare), n, k and Nemenyi's CD.
    """
    from scipy.stats import friedmanchisquare

    table = means.dropna()
    n, k = table.shape
    if n < 2 or k < 3:
        raise ValueError(f"a Friedman test needs at least 2 datasets and 3 algorithms, got {n} and {k}")
    ranks = table.rank(axis=1, ascending=False, method="average")
    statistic, p_value = friedmanchisquare(*(table[c].to_numpy() for c in table.columns))
    return {
        "n_datasets": n, "k": k, "chi2": float(statistic), "p_value": float(p_value),
        "average_ranks": ranks.mean(axis=0).sort_values(), "cd": critical_difference(k, n, alpha),
    }  # fmt: skip


def _diagram(result: dict[str, object], title: str, stem: Path) -> list[Path]:
    """Average ranks on an axis, with a bar of length CD and lines joining the algorithms
    whose ranks differ by less than CD (not significantly different)."""
    ranks: pd.Series = result["average_ranks"]  # type: ignore[assignment]
    k, cd = int(result["k"]), float(result["cd"])  # type: ignore[arg-type]
    fig = new_figure((6.4, 1.2 + 0.28 * k))
    ax = fig.add_subplot()
    ax.set_xlim(k + 0.5, 0.5)  # rank 1 (best) on the right, as in Demšar's figures
    ax.set_ylim(-k - 2.0, 1.5)
    ax.axis("off")
    ax.hlines(0, 1, k, color="black", linewidth=1)
    for r in range(1, k + 1):
        ax.vlines(r, -0.1, 0.1, color="black", linewidth=1)
        ax.text(r, 0.35, str(r), ha="center", fontsize=8)
    for i, (name, rank) in enumerate(ranks.items()):
        y = -(i + 1.6)
        ax.plot([rank, rank], [0, y], color="0.3", linewidth=0.8)
        ax.text(rank, y - 0.15, f"{display_name(str(name))} ({rank:.2f})", ha="center", va="top", fontsize=8)
    ax.hlines(1.1, 1, 1 + cd, color="firebrick", linewidth=2)
    ax.text(1 + cd / 2, 1.25, f"CD = {cd:.2f}", ha="center", fontsize=8, color="firebrick")
    values = ranks.to_numpy()
    level, reach = -0.35, -1
    for i in range(len(values)):
        j = max(j for j in range(i, len(values)) if values[j] - values[i] < cd)
        if j > i and j > reach:  # a maximal group, not one inside the previous group
            ax.hlines(level, values[i] - 0.05, values[j] + 0.05, color="steelblue", linewidth=2.5)
            level -= 0.3
            reach = j
    ax.set_title(title, fontsize=9)
    return save_figure(fig, stem, ("png", "pdf"))


WHOLE_CURVE = "whole curve"
"""The ``point`` of the one row ranking each system's mean over its whole curve."""


def _groups(accuracy: pd.DataFrame, per_point: bool) -> list[tuple[object, pd.DataFrame]]:
    """(point, datasets × algorithms mean accuracies) to rank: one per curve point, or one of
    each system's mean over its whole curve (an active-learning curve's points are numbers of
    labeled examples that differ between datasets, so there is no common point to rank at)."""
    if not per_point:
        return [(WHOLE_CURVE, accuracy.pivot_table(index="dataset", columns="algorithm", values="value"))]
    return [(point, at.pivot_table(index="dataset", columns="algorithm", values="value"))
            for point, at in accuracy.groupby("point", sort=True)]  # fmt: skip


def _label(point: object) -> str:
    return str(point) if point == WHOLE_CURVE else point_label(float(point))  # type: ignore[arg-type]


def write_friedman(records: pd.DataFrame, tables_dir: Path, figures_dir: Path, *,
                   algorithms: Sequence[str], experiment: str, per_point: bool = True) -> list[Path]:
    """``tables/friedman.{md,csv}``: Friedman's test over the datasets, per point (or, with
    ``per_point=False``, of each system's mean accuracy over its whole curve, which ranks the
    areas under the learning curves); and the critical-difference diagram of the last row
    (the largest point: the whole training fold, for §4.1)."""
    acc = records[records["metric"] == "accuracy"]
    rows, written, last = [], [], None
    for point, means in _groups(acc, per_point):
        means = means[[a for a in algorithms if a in means.columns]]
        try:
            result = friedman_table(means)
        except ValueError:
            continue
        last = (point, result)
        rows.append({"point": point, "datasets": result["n_datasets"], "algorithms": result["k"],
                     "chi2": result["chi2"], "p_value": result["p_value"], "cd": result["cd"],
                     **{f"rank_{a}": r for a, r in result["average_ranks"].items()}})  # fmt: skip
    if not rows:
        return written
    frame = pd.DataFrame(rows)
    frame.to_csv(tables_dir / "friedman.csv", index=False, lineterminator="\n")
    rank_columns = [c for c in frame.columns if c.startswith("rank_")]
    body = [[_label(r["point"]), str(int(r["datasets"])), f"{r['chi2']:.2f}", f"{r['p_value']:.2g}",
             f"{r['cd']:.2f}", *(f"{r[c]:.2f}" for c in rank_columns)] for _, r in frame.iterrows()]  # fmt: skip
    what = "per point" if per_point else "by each system's mean accuracy over its whole learning curve"
    text = ["# Friedman test and Nemenyi critical difference (Demšar 2006)", "",
            f"Experiment `{experiment}`: algorithms ranked on every dataset by mean accuracy "
            f"(1 = best), {what}; p < 0.05 says the average ranks differ; two algorithms "
            "differ significantly (Nemenyi, α = 0.05) when their ranks differ by more than CD. "
            "Not a test the dissertation makes.", "",
            markdown_table(["Point", "Datasets", "χ²", "p", "CD",
                            *(f"rank {display_name(c[5:])}" for c in rank_columns)], body), ""]  # fmt: skip
    (tables_dir / "friedman.md").write_text("\n".join(text), encoding="utf-8")
    written += [tables_dir / "friedman.csv", tables_dir / "friedman.md"]
    if last is not None:
        point, result = last
        title = (f"{experiment}: average ranks at {_label(point)} "
                 f"(Friedman p = {result['p_value']:.2g}, {result['n_datasets']} datasets)")
        written += _diagram(result, title, figures_dir / "critical_difference")
    return written
