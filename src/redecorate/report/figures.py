"""Figures 4.1–4.6 of the dissertation: accuracy scatter plots and learning curves.

Only the captions of the thesis's figures survive, so these regenerate the same *kind* of
plot (spec Part 5): Figures 4.1–4.4 plot, for one learning-curve point, one dot per dataset
with the other learner's accuracy on x and DECORATE's on y, so that dots above the diagonal
are datasets where DECORATE is more accurate; Figures 4.5–4.6 plot accuracy against the
amount of training data, one line per learner, for one dataset.

Rendering never touches ``pyplot``: each figure is a :class:`matplotlib.figure.Figure` on an
explicit Agg canvas, so no display is needed and the process-wide backend that other code
may rely on is left alone. Files are written as PNG and PDF with the timestamp and version
metadata removed and the default style forced, so a rerun gives byte-identical files and a
workflow does not see spurious changes.
"""

from __future__ import annotations

from collections.abc import Sequence
from os import PathLike
from pathlib import Path

import matplotlib.style
import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from redecorate.report.tables import display_name, point_label
from redecorate.stats.summary import check_records

__all__ = ["MARKERS", "SAVE_METADATA", "learning_curves", "new_figure", "outside_legend", "save_figure",
           "scatter_plot", "write_figures"]

SAVE_METADATA: dict[str, dict[str, None]] = {
    "png": {"Software": None},
    "pdf": {"CreationDate": None, "Producer": None},
    "svg": {"Date": None},
}
"""Per format, the metadata keys that would embed a timestamp or a version string."""

MARKERS = ("o", "s", "^", "D", "v", "P", "X")


def _cell_means(
    records: pd.DataFrame, metric: str, experiment: str | None, by: Sequence[str]
) -> pd.DataFrame:
    """Mean value (and mean n_train) over runs × folds, grouped by ``by``."""
    check_records(records, (*by, "metric", "value", "n_train"))
    rows = records[records["metric"] == metric]
    if experiment is not None:
        rows = rows[rows["experiment"] == experiment]
    grouped = rows.groupby(list(by), sort=True)
    return grouped.agg(mean=("value", "mean"), n_train=("n_train", "mean")).reset_index()


#: Where a point's label may go, in points from the point: beside it first, then above and below.
LABEL_OFFSETS = ((3, 3), (3, -9), (-3, 3), (-3, -9), (3, 9), (-3, 9), (3, -15), (-3, -15), (8, 0), (-8, 0))


def annotate_points(ax: Axes, points: Sequence[tuple[str, float, float]], *, fontsize: float = 7) -> list:
    """Label each (name, x, y) point of a scatter, each label where it overlaps no label
    placed before it (the first of :data:`LABEL_OFFSETS` that does; the first offset when
    none does): datasets whose accuracies lie close together stay readable. Points are
    placed in a fixed order (by y, then x, then name), so the figure is the same every time.
    Call it after the axes' limits are set. Returns the text objects."""
    fig = ax.figure
    renderer = fig.canvas.get_renderer() if hasattr(fig.canvas, "get_renderer") else None
    if renderer is not None:
        fig.canvas.draw()  # the layout and the equal aspect settle the points' places first
    placed: list = []
    texts = []
    for name, x, y in sorted(points, key=lambda p: (p[2], p[1], p[0])):
        text = None
        for dx, dy in LABEL_OFFSETS:
            candidate = ax.annotate(name, (x, y), fontsize=fontsize, xytext=(dx, dy), textcoords="offset points",
                                    ha="left" if dx >= 0 else "right")  # fmt: skip
            if renderer is None:
                text = candidate
                break
            box = candidate.get_window_extent(renderer)
            if not any(box.overlaps(other) for other in placed):
                text = candidate
                break
            candidate.remove()
        if text is None:  # nowhere free: the first place, as before
            dx, dy = LABEL_OFFSETS[0]
            text = ax.annotate(name, (x, y), fontsize=fontsize, xytext=(dx, dy), textcoords="offset points")
        if renderer is not None:
            placed.append(text.get_window_extent(renderer))
        texts.append(text)
    return texts


def save_figure(fig: Figure, stem: str | PathLike[str], formats: Sequence[str]) -> list[Path]:
    """Save ``fig`` as ``stem.<fmt>`` for each format, without non-deterministic metadata."""
    base = Path(stem)
    base.parent.mkdir(parents=True, exist_ok=True)
    paths = []
    for fmt in formats:
        path = base.with_name(f"{base.name}.{fmt}")
        fig.savefig(path, format=fmt, metadata=SAVE_METADATA.get(fmt), dpi=150)
        paths.append(path)
    return paths


def new_figure(size: tuple[float, float]) -> Figure:
    fig = Figure(figsize=size, layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def scatter_plot(
    records: pd.DataFrame,
    path: str | PathLike[str],
    *,
    baseline: str = "decorate",
    others: str | Sequence[str] = "j48",
    point: float = 1.0,
    metric: str = "accuracy",
    experiment: str | None = None,
    annotate: bool = True,
    formats: Sequence[str] = ("png", "pdf"),
) -> list[Path]:
    """Figures 4.1–4.4: per dataset one dot, x = other learner's accuracy, y = baseline's.

    ``path`` is the file stem (extensions are added per format). ``others`` may name several
    learners, drawn as separate series in one plot. Only datasets where both the baseline
    and that learner have records at ``point`` are drawn; the legend gives their number.
    ``annotate`` (default) writes the dataset name next to each dot, so a reader can tell
    which dataset is off the diagonal. The legend sits below the axes. Returns the paths
    written.
    """
    others = [others] if isinstance(others, str) else list(others)
    means = _cell_means(records, metric, experiment, ("dataset", "algorithm", "point"))
    means = means[np.isclose(means["point"], point)]
    wide = means.pivot_table(index="dataset", columns="algorithm", values="mean")
    with matplotlib.style.context("default"):
        fig = new_figure((4.8, 4.8))
        ax = fig.add_subplot()
        shown: list[float] = []
        labels: list[tuple[str, float, float]] = []
        for i, other in enumerate(others):
            if baseline not in wide or other not in wide:
                continue
            pair = wide[[other, baseline]].dropna()
            ax.scatter(
                pair[other],
                pair[baseline],
                marker=MARKERS[i % len(MARKERS)],
                label=f"vs {display_name(other)} ({len(pair)} datasets)",
            )
            if annotate:
                labels += [(str(dataset), float(x), float(y)) for dataset, (x, y) in pair.iterrows()]
            shown += [*pair[other], *pair[baseline]]
        lo, hi = (min(shown), max(shown)) if shown else (0.0, 100.0)
        pad = max(1.0, 0.05 * (hi - lo))
        lim = (
            (max(0.0, lo - pad), min(100.0, hi + pad))
            if metric == "accuracy"
            else (lo - pad, hi + pad)
        )
        ax.plot(lim, lim, color="black", linewidth=0.8, linestyle="--", label="equal accuracy")
        ax.set_xlim(lim)
        ax.set_ylim(lim)
        ax.set_aspect("equal")
        annotate_points(ax, labels)
        label = display_name(others[0]) if len(others) == 1 else "other learner"
        ax.set_xlabel(f"{metric.capitalize()} of {label} (%)")
        ax.set_ylabel(f"{metric.capitalize()} of {display_name(baseline)} (%)")
        names = ", ".join(display_name(o) for o in others)
        ax.set_title(
            f"{display_name(baseline)} vs {names}\nat {point_label(point)} of the training data"
        )
        outside_legend(fig, ax)
        return save_figure(fig, path, formats)


def outside_legend(fig: Figure, ax: Axes, fontsize: float = 8) -> None:
    """The legend below the axes, never over a data point (any corner of a plot can hold one)."""
    handles, labels = ax.get_legend_handles_labels()
    if handles:
        fig.legend(handles, labels, loc="outside lower center", fontsize=fontsize,
                   ncols=min(len(labels), 3), frameon=False)  # fmt: skip


def learning_curves(
    records: pd.DataFrame,
    path: str | PathLike[str],
    *,
    dataset: str,
    algorithms: Sequence[str] | None = None,
    x: str = "point",
    metric: str = "accuracy",
    experiment: str | None = None,
    log_x: bool = False,
    xlabel: str | None = None,
    title: str | None = None,
    formats: Sequence[str] = ("png", "pdf"),
) -> list[Path]:
    """Figures 4.5–4.6: mean accuracy against training-set size for one dataset.

    One line per algorithm (default: all algorithms with records for ``dataset``, in name
    order, so the colours are stable). ``x="point"`` plots against the % of the training
    fold, as the thesis's tables are laid out; ``x="n_train"`` plots against the mean number
    of training examples, which makes curves of different datasets comparable in absolute
    terms. ``log_x`` spreads out the many small points (1, 2, 5 %). ``xlabel`` and ``title``
    override the defaults when ``point`` means something else (e.g. the noise level of the
    Chapter 5 figures). Returns the paths written.
    """
    if x not in ("point", "n_train"):
        raise ValueError(f"x must be 'point' or 'n_train', got {x!r}")
    means = _cell_means(records, metric, experiment, ("dataset", "algorithm", "point"))
    means = means[means["dataset"] == dataset]
    names = sorted(means["algorithm"].unique()) if algorithms is None else list(algorithms)
    with matplotlib.style.context("default"):
        fig = new_figure((6.0, 4.2))
        ax = fig.add_subplot()
        for i, name in enumerate(names):
            curve = means[means["algorithm"] == name].sort_values("point")
            if curve.empty:
                continue
            ax.plot(curve[x], curve["mean"], marker=MARKERS[i % len(MARKERS)], markersize=4,
                    label=display_name(name))  # fmt: skip
        if log_x:
            ax.set_xscale("log")
        default_xlabel = "% of training data" if x == "point" else "Number of training examples"
        ax.set_xlabel(default_xlabel if xlabel is None else xlabel)
        ax.set_ylabel(f"{metric.capitalize()} (%)" if metric == "accuracy" else metric)
        ax.set_title(dataset if title is None else title)
        ax.grid(True, linewidth=0.3)
        outside_legend(fig, ax)
        return save_figure(fig, path, formats)


def write_figures(
    records: pd.DataFrame,
    out_dir: str | PathLike[str],
    baseline: str = "decorate",
    others: Sequence[str] = ("j48", "bagging", "rf", "adaboost"),
    *,
    scatter_points: Sequence[float] = (1.0, 20.0),
    curve_datasets: Sequence[str] | None = None,
    x: str = "point",
    metric: str = "accuracy",
    experiment: str | None = None,
    formats: Sequence[str] = ("png", "pdf"),
) -> list[Path]:
    """All Chapter 4 figures for the records; returns the paths written.

    * ``scatter_<baseline>_vs_<other>_<pt>pct.*``: one scatter plot per other learner and
      point in ``scatter_points`` (the thesis shows 1 % and 20 %: Figures 4.1–4.4);
    * ``learning_curve_<dataset>.*``: baseline and others on one dataset (Figures 4.5–4.6;
      the thesis does not name their datasets, so by default every dataset is drawn).
    """
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    for other in others:
        for point in scatter_points:
            stem = out / f"scatter_{baseline}_vs_{other}_{point:g}pct"
            written += scatter_plot(records, stem, baseline=baseline, others=other, point=point,
                                    metric=metric, experiment=experiment, formats=formats)  # fmt: skip
    datasets = sorted(records["dataset"].unique()) if curve_datasets is None else curve_datasets
    for dataset in datasets:
        written += learning_curves(
            records,
            out / f"learning_curve_{dataset}",
            dataset=dataset,
            algorithms=[baseline, *others],
            x=x,
            metric=metric,
            experiment=experiment,
            formats=formats,
        )
    return written
