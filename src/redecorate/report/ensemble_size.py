"""Figure 4.7 of the dissertation: DECORATE's accuracy against ensemble size (§4.5).

The thesis trains DECORATE at increasing ensemble sizes on 20 % of each training fold and
shows accuracy against size for five datasets; the only result it states is a trend with no
numbers: accuracy "increases with ensemble size; though on most datasets, the performance
levels out with an ensemble size of 10 to 25". To make that claim checkable, the analysis
*computes* where each curve levels off instead of leaving it to the eye: the smallest size
whose mean accuracy is within ``tolerance`` points (default 0.5) of the best size's, and,
stricter, the smallest size from which every larger size stays within it (a curve that
touches the plateau early and then dips is not yet level).

Each experiment label is one ensemble size; the size is read from the label's learner
parameters (``settings.params[label]["n_estimators"]``), never parsed from the
label, so labels are free-form and a label that is not a sized DECORATE variant is ignored.
The size on the x axis is the *desired* size C_size: DECORATE may stop short of it when
I_max is reached, so the tables also report the mean number of members actually fitted
(the records' ``ensemble_size`` column).

Outputs (``ensemble_size_curve``): ``figures/fig4-7_ensemble_size.{png,pdf}`` (one panel per
dataset, the level-off size marked, the thesis's 10-25 band shaded),
``tables/ensemble_size.csv`` (long form: one row per dataset x size),
``tables/ensemble_size_level_off.csv`` (one row per dataset) and ``tables/ensemble_size.md``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import matplotlib.style
import numpy as np
import pandas as pd

from redecorate.protocol.settings import ReportSettings
from redecorate.report.curves import with_records
from redecorate.report.figures import MARKERS, new_figure, outside_legend, save_figure
from redecorate.report.tables import fmt, markdown_table, point_label
from redecorate.stats.summary import check_records

__all__ = [
    "DEFAULT_TOLERANCE",
    "FIGURE_STEM",
    "THESIS_LEVEL_OFF",
    "accuracy_by_size",
    "ensemble_size_curve",
    "ensemble_sizes",
    "level_off",
    "level_off_table",
    "plot_ensemble_size",
]

DEFAULT_TOLERANCE = 0.5
"""Points of accuracy within which a size counts as level with the best (analysis option
``tolerance``): a difference too small to matter in practice. It is not a significance
threshold: with one run of 10-fold CV the standard error of a cell mean is often larger
(the Markdown table states it), which is why the stricter "stays within" size is reported
too."""

THESIS_LEVEL_OFF = (10, 25)
"""§4.5: "on most datasets, the performance levels out with an ensemble size of 10 to 25"."""

FIGURE_STEM = "fig4-7_ensemble_size"
TABLE_STEM = "ensemble_size"
MEAN_ROW = "mean of datasets"
_EPS = 1e-9  # float slack so that "exactly tolerance below the best" counts as within


def ensemble_sizes(
    algorithm_params: Mapping[str, Mapping[str, Any]],
    algorithms: Sequence[str] | None = None,
    keys: Sequence[str] = ("n_estimators", "ensemble_size"),
) -> dict[str, int]:
    """Label -> desired ensemble size, from each label's learner parameters, sorted by size.

    ``algorithms`` restricts (and must name labels with a size); by default every label
    whose parameters set one of ``keys`` (the scikit-learn name, then the name it had before)
    is used and the others (e.g. ``j48: {}``) are skipped.
    Two labels with the same size would make the curve ambiguous, so that is an error.
    """
    labels = list(algorithm_params) if algorithms is None else list(algorithms)
    sizes: dict[str, int] = {}
    for label in labels:
        params = algorithm_params.get(label)
        if params is None:
            raise ValueError(f"ensemble_size_curve: algorithm {label!r} is not in the experiment")
        key = next((k for k in keys if k in params), None)
        if key is None:
            if algorithms is not None:
                raise ValueError(f"ensemble_size_curve: algorithm {label!r} sets no {keys[0]!r}")
            continue
        sizes[label] = int(params[key])
    seen: dict[int, str] = {}
    for label, size in sizes.items():
        if size in seen:
            raise ValueError(
                f"ensemble_size_curve: algorithms {seen[size]!r} and {label!r} both have "
                f"{key} {size}; name the one to plot in analysis_options.algorithms"
            )
        seen[size] = label
    if not sizes:
        raise ValueError(f"ensemble_size_curve: no algorithm of the experiment sets {key!r}")
    return dict(sorted(sizes.items(), key=lambda item: item[1]))


def accuracy_by_size(
    records: pd.DataFrame,
    sizes: Mapping[str, int],
    point: float,
    *,
    metric: str = "accuracy",
    experiment: str | None = None,
) -> pd.DataFrame:
    """Mean, sd and count over runs x folds per (dataset, size) at one curve point.

    Columns: dataset, algorithm, ensemble_size (desired), point, mean, std, n, members (mean
    number of members actually fitted), sem (standard error of the mean, std / sqrt(n)).
    Records of other labels or points are ignored.
    """
    check_records(records, ("dataset", "algorithm", "point", "metric", "value", "ensemble_size"))
    rows = records[
        (records["metric"] == metric)
        & records["algorithm"].isin(list(sizes))
        & np.isclose(records["point"].astype(float), float(point))
    ]
    if experiment is not None and "experiment" in rows:
        rows = rows[rows["experiment"] == experiment]
    grouped = rows.groupby(["dataset", "algorithm"], sort=True)
    frame = grouped.agg(
        mean=("value", "mean"),
        std=("value", "std"),
        n=("value", "size"),
        members=("ensemble_size", "mean"),
    ).reset_index()
    frame["sem"] = frame["std"] / np.sqrt(frame["n"])
    frame.insert(2, "ensemble_size", frame["algorithm"].map(sizes).astype(int))
    frame.insert(3, "point", float(point))
    return frame.sort_values(["dataset", "ensemble_size"], ignore_index=True)


def level_off(
    sizes: Sequence[float], accuracies: Sequence[float], tolerance: float = DEFAULT_TOLERANCE
) -> dict[str, float]:
    """Where one accuracy-vs-size curve levels off.

    Returns ``best_size``/``best_accuracy`` (the smallest size reaching the maximum),
    ``level_off_size`` (the smallest size within ``tolerance`` points of the best) with
    its accuracy, and ``stays_level_size`` (the smallest size from which every larger size
    is within ``tolerance``; equal to ``level_off_size`` for a curve that does not dip, NaN
    when the largest size has fallen out of the band again).
    """
    order = np.argsort(np.asarray(sizes, dtype=float), kind="stable")
    xs = np.asarray(sizes, dtype=float)[order]
    ys = np.asarray(accuracies, dtype=float)[order]
    if len(xs) == 0 or np.isnan(ys).any():
        raise ValueError("level_off needs one accuracy per size, without NaN")
    best = int(np.argmax(ys))
    within = ys >= ys[best] - tolerance - _EPS
    first = int(np.argmax(within))
    # after the last size that is not within (none: the first size); past the end: never
    stays = len(xs) - int(np.argmin(within[::-1])) if not within.all() else 0
    return {
        "best_size": float(xs[best]),
        "best_accuracy": float(ys[best]),
        "level_off_size": float(xs[first]),
        "level_off_accuracy": float(ys[first]),
        "stays_level_size": float(xs[stays]) if stays < len(xs) else math.nan,
    }


def _mean_curve(frame: pd.DataFrame, datasets: Sequence[str]) -> pd.DataFrame:
    """The mean over datasets of each size that every dataset has (else no mean curve)."""
    wide = frame.pivot_table(index="ensemble_size", columns="dataset", values="mean")
    wide = wide.reindex(columns=list(datasets)).dropna()
    return pd.DataFrame({"ensemble_size": wide.index, "mean": wide.mean(axis=1).to_numpy()})


def level_off_table(
    frame: pd.DataFrame,
    datasets: Sequence[str] | None = None,
    tolerance: float = DEFAULT_TOLERANCE,
) -> pd.DataFrame:
    """One row per dataset (and the mean of datasets) with :func:`level_off`'s columns.

    ``datasets`` fixes the row order; a dataset without records gets a row of NaN so a
    partial run cannot pass for a complete one. ``in_thesis_range`` says whether the
    level-off size lies in the thesis's 10-25.
    """
    names = list(datasets) if datasets is not None else sorted(frame["dataset"].unique())
    present = with_records(frame, names)
    curves = {d: frame[frame["dataset"] == d] for d in present}
    if len(present) > 1:
        curves[MEAN_ROW] = _mean_curve(frame, present)
    rows = []
    for name in [*names, MEAN_ROW]:
        curve = curves.get(name)
        if curve is None or curve.empty:
            if name != MEAN_ROW:
                rows.append({"dataset": name})
            continue
        row: dict[str, Any] = {"dataset": name, "sizes": len(curve)}
        row.update(level_off(curve["ensemble_size"], curve["mean"], tolerance))
        lo, hi = THESIS_LEVEL_OFF
        row["in_thesis_range"] = bool(lo <= row["level_off_size"] <= hi)
        rows.append(row)
    columns = ["dataset", "sizes", "best_size", "best_accuracy", "level_off_size",
               "level_off_accuracy", "stays_level_size", "in_thesis_range"]  # fmt: skip
    table = pd.DataFrame(rows).reindex(columns=columns)
    table.insert(len(columns), "tolerance", float(tolerance))
    return table


def plot_ensemble_size(
    frame: pd.DataFrame,
    levels: pd.DataFrame,
    stem: str | Path,
    *,
    datasets: Sequence[str],
    point: float,
    tolerance: float = DEFAULT_TOLERANCE,
    formats: Sequence[str] = ("png", "pdf"),
) -> list[Path]:
    """Figure 4.7: one panel per dataset, accuracy (%) against desired ensemble size.

    Panels rather than one axes because the five datasets' accuracies lie tens of points
    apart, which would flatten every curve. The dotted line marks the computed level-off
    size and the grey band the thesis's 10-25.
    """
    present = with_records(frame, datasets)
    ncols = min(3, max(1, len(present)))
    nrows = max(1, math.ceil(len(present) / ncols))
    by_name = levels.set_index("dataset")
    with matplotlib.style.context("default"):
        fig = new_figure((3.3 * ncols, 2.7 * nrows + 0.5))
        axes = np.atleast_1d(fig.subplots(nrows, ncols, squeeze=False)).ravel()
        for i, ax in enumerate(axes):
            if i >= len(present):
                ax.set_visible(False)
                continue
            dataset = present[i]
            curve = frame[frame["dataset"] == dataset].sort_values("ensemble_size")
            ax.axvspan(*THESIS_LEVEL_OFF, color="0.9", zorder=0,
                       label=f"thesis: levels off at {THESIS_LEVEL_OFF[0]}-{THESIS_LEVEL_OFF[1]}")  # fmt: skip
            ax.plot(curve["ensemble_size"], curve["mean"], marker=MARKERS[0], markersize=4,
                    label="DECORATE")  # fmt: skip
            size = by_name.loc[dataset, "level_off_size"] if dataset in by_name.index else None
            if size is not None and not pd.isna(size):
                ax.axvline(size, color="black", linestyle=":", linewidth=1.0,
                           label=f"level-off size (within {tolerance:g} of best)")  # fmt: skip
            ax.set_title(dataset, fontsize=10)
            ax.set_xlabel("Ensemble size", fontsize=9)
            ax.set_ylabel("Accuracy (%)", fontsize=9)
            ax.grid(True, linewidth=0.3)
            ax.tick_params(labelsize=8)
            if i == 0:  # the same three entries in every panel: one legend, below the panels
                outside_legend(fig, ax, fontsize=7)
        fig.suptitle(
            f"DECORATE at different ensemble sizes ({point_label(point)} of the training data)",
            fontsize=11,
        )
        return save_figure(fig, stem, formats)


def _size(value: Any) -> str:
    return "–" if value is None or pd.isna(value) else f"{float(value):g}"


def render_markdown(
    frame: pd.DataFrame,
    levels: pd.DataFrame,
    *,
    datasets: Sequence[str],
    point: float,
    tolerance: float,
    experiment: str | None = None,
) -> str:
    """The accuracy-by-size table with the level-off columns, and what it says about §4.5."""
    sizes = sorted(frame["ensemble_size"].unique())
    means = frame.pivot_table(index="dataset", columns="ensemble_size", values="mean")
    mean_curve = _mean_curve(frame, [d for d in datasets if d in means.index])
    by_name = levels.set_index("dataset")
    header = ["Dataset", *(f"{s:g}" for s in sizes), "Best (size)",
              f"Within {tolerance:g} from", f"Stays within {tolerance:g} from"]  # fmt: skip
    body = []
    for name in [*datasets, MEAN_ROW]:
        if name == MEAN_ROW:
            if name not in by_name.index:
                continue
            values = dict(zip(mean_curve["ensemble_size"], mean_curve["mean"], strict=True))
        else:
            values = means.loc[name].to_dict() if name in means.index else {}
        lv = by_name.loc[name] if name in by_name.index else pd.Series(dtype=float)
        best = "–" if pd.isna(lv.get("best_size")) else (
            f"{fmt(lv['best_accuracy'])} ({_size(lv['best_size'])})")  # fmt: skip
        body.append([name, *(fmt(values.get(s)) for s in sizes), best,
                     _size(lv.get("level_off_size")), _size(lv.get("stays_level_size"))])  # fmt: skip
    per_dataset = levels[levels["dataset"] != MEAN_ROW].dropna(subset=["level_off_size"])
    lo, hi = THESIS_LEVEL_OFF
    n_in = int(per_dataset["in_thesis_range"].astype(bool).sum())
    n_below = int((per_dataset["level_off_size"] < lo).sum())
    n_above = int((per_dataset["level_off_size"] > hi).sum())
    short = frame[frame["members"] < frame["ensemble_size"] - 0.5]
    runs_note = ""
    if not frame.empty:
        lo_n, hi_n = int(frame["n"].min()), int(frame["n"].max())
        count = f"{lo_n}" if lo_n == hi_n else f"{lo_n}-{hi_n}"
        runs_note = f" Each cell is the mean over {count} (run, fold) test folds."
    title = "DECORATE at different ensemble sizes (Figure 4.7)"
    lines = [
        f"### {title}{': ' + experiment if experiment else ''}",
        "",
        f"Mean accuracy (%) at {point_label(point)} of the training fold; columns are the "
        f"desired ensemble size C_size.{runs_note}",
        "",
        markdown_table(header, body),
        f"*Within {tolerance:g} from*: the smallest size whose accuracy is within "
        f"{tolerance:g} points of the curve's best; *stays within*: the smallest size from "
        "which every larger size is (computed by redecorate.report.ensemble_size)."
        + _sem_note(frame),
        "",
        f"The dissertation (§4.5) reports, without numbers, that accuracy rises with size and "
        f'"on most datasets ... levels out with an ensemble size of {lo} to {hi}". Here the '
        f"curve is within {tolerance:g} points of its best at a size in {lo}-{hi} on {n_in} "
        f"of {len(per_dataset)} datasets (below {lo} on {n_below}, above {hi} on {n_above}).",
    ]
    if not short.empty:
        worst = short.assign(gap=short["ensemble_size"] - short["members"]).nlargest(1, "gap")
        r = worst.iloc[0]
        lines += [
            "",
            f"DECORATE stopped short of the desired size (I_max reached) in {len(short)} "
            f"(dataset, size) cells; e.g. {r['dataset']} at size {int(r['ensemble_size'])}: "
            f"{r['members']:.1f} members on average (`ensemble_size.csv`, column `members`).",
        ]
    return "\n".join(lines) + "\n"


def _sem_note(frame: pd.DataFrame) -> str:
    """How noisy the cell means are, so the tolerance can be judged against it."""
    sem = frame["sem"].dropna()
    if sem.empty:
        return ""
    return (
        f" The standard error of a cell mean is {sem.median():.2f} points (median; "
        f"{sem.min():.2f}-{sem.max():.2f}): differences smaller than that are within the "
        "noise of one cross-validation."
    )


def _point(settings: ReportSettings, options: Mapping[str, Any]) -> float:
    """The curve point to plot: the option, the experiment's only point, or 20 (§4.5)."""
    if "point" in options:
        return float(options["point"])
    points = settings.points
    if len(points) == 1:
        return float(points[0])
    if any(math.isclose(float(p), 20.0) for p in points):
        return 20.0
    raise ValueError(
        f"ensemble_size_curve: the experiment has points {points}; set "
        "analysis_options.ensemble_size_curve.point to the one to plot"
    )


def ensemble_size_curve(
    records: pd.DataFrame,
    tables_dir: Path,
    figures_dir: Path,
    settings: ReportSettings,
) -> list[Path]:
    """Analysis ``ensemble_size_curve`` (Figure 4.7): accuracy against ensemble size.

    Options (``report.analysis_options.ensemble_size_curve``): ``tolerance`` (points,
    default 0.5), ``point`` (the curve point, default the experiment's only point, else 20),
    ``algorithms`` (labels to use, default every label with an ``ensemble_size``).
    Returns the paths written.
    """
    options = dict(settings.analysis_options.get("ensemble_size_curve") or {})
    unknown = set(options) - {"tolerance", "point", "algorithms"}
    if unknown:
        raise ValueError(f"ensemble_size_curve: unknown option(s) {sorted(unknown)}")
    tolerance = float(options.get("tolerance", DEFAULT_TOLERANCE))
    point = _point(settings, options)
    sizes = ensemble_sizes(settings.params, options.get("algorithms"))
    experiment = settings.experiment
    frame = accuracy_by_size(records, sizes, point, experiment=experiment)
    if frame.empty:
        raise ValueError(
            f"ensemble_size_curve: no {', '.join(sizes)} records at point {point:g}; "
            f"the records have points {sorted(records['point'].unique())}"
        )
    datasets = list(settings.datasets or sorted(frame["dataset"].unique()))
    datasets += [d for d in sorted(frame["dataset"].unique()) if d not in datasets]
    levels = level_off_table(frame, datasets, tolerance)

    tables, figures = Path(tables_dir), Path(figures_dir)
    tables.mkdir(parents=True, exist_ok=True)
    written = [tables / f"{TABLE_STEM}.csv", tables / f"{TABLE_STEM}_level_off.csv"]
    frame.to_csv(written[0], index=False, lineterminator="\n")
    levels.to_csv(written[1], index=False, lineterminator="\n")
    md = tables / f"{TABLE_STEM}.md"
    md.write_text(
        render_markdown(
            frame,
            levels,
            datasets=datasets,
            point=point,
            tolerance=tolerance,
            experiment=experiment,
        ),  # fmt: skip
        encoding="utf-8",
    )
    written.append(md)
    written += plot_ensemble_size(
        frame, levels, figures / FIGURE_STEM, datasets=datasets, point=point, tolerance=tolerance
    )
    return written
