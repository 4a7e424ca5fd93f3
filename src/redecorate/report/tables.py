"""Comparison tables in the layout of the dissertation's Tables 4.2–4.5.

Rows are datasets (in the thesis's Table 4.1 order by default), columns are learning-curve
points, and a cell ``a/b`` is the mean accuracy of the baseline (DECORATE) / the other
learner. As in the thesis, the significantly better value (paired t-test, p < 0.05) is
bold: ``**x**`` in Markdown, ``\\textbf{x}`` in LaTeX, and boolean flag columns in CSV,
because CSV has no markup and a reader of the CSV must not have to parse asterisks.

The bottom rows are the thesis's summary statistics (Win/Draw/Loss with ties counted as wins
for DECORATE, Sig. W/D/L, GM error ratio), followed by two rows that are *not* in the
thesis and are labelled so: Sig. W/D/L under the Nadeau–Bengio corrected resampled t-test,
and W/D/L with ties as draws. A dataset that was not run is still listed, with dashes, so
that a partial replication cannot be mistaken for a complete one.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from os import PathLike
from pathlib import Path

import pandas as pd

from redecorate.learners.registry import learner_display_name
from redecorate.stats.comparison import compare_algorithms, summarise_comparison

__all__ = [
    "THESIS_DATASETS",
    "DISPLAY_NAMES",
    "ComparisonTable",
    "comparison_table",
    "fmt",
    "markdown_table",
    "render_markdown",
    "render_latex",
    "table_frame",
    "write_comparison_tables",
]

THESIS_DATASETS: tuple[str, ...] = (
    "anneal", "audio", "autos", "breast-w", "credit-a", "glass", "heart-c", "hepatitis",
    "colic", "iris", "labor", "lymph", "segment", "soybean", "splice",
)  # fmt: skip
"""The 15 datasets of Table 4.1, in the row order of Tables 4.2–4.5."""

DISPLAY_NAMES: dict[str, str] = {
    "decorate_unlabeled": "DECORATE (Unlabeled)",
    "decorate_sampled": "DECORATE (Sampled Artificial)",
    "decorate_uniform": "DECORATE (Uniform)",
    "decorate_norej": "DECORATE (No Rejection)",
    # Chapter 6 (config/experiments/ch6_*.yaml)
    "qbag": "QBag",
    "qboost": "QBoost",
    "active_decorate": "ActiveDecorate",
    "active_decorate_jsdiv": "ActiveDecorate (JS Div.)",
    "select_with_bagging": "Select w/ Bagging",
    "select_with_adaboost": "Select w/ AdaBoost",
    "select_with_decorate": "Select w/ Decorate",
    "uncertainty_j48": "Uncertainty (J48)",
    "uncertainty_bagging": "Uncertainty (Bagging)",
    "uncertainty_nb": "Uncertainty (Naive Bayes)",
    "qbc_vote_entropy": "QBC (Vote Entropy)",
    "eer_log": "EER (Log Loss)",
    "density_j48": "Density-Weighted Uncertainty (J48)",
    # Chapter 7 (config/experiments/ch7_*.yaml)
    "active_decorate_js": "ActiveDecorate-JS",
    "bootstrap_js": "Bootstrap-JS",
    "bootstrap_lv": "Bootstrap-LV",
    "bootstrap_lv_ext": "Bootstrap-LV-EXT",
    "bagged_pets": "Bagged-PETs",
    # Chapter 8 (config/experiments/ch8_afa.yaml)
    "j48_error_sampling": "Error Sampling (J48)",
    "j48_random": "Random (J48)",
    "decorate_error_sampling": "Error Sampling (DECORATE)",
    "decorate_random": "Random (DECORATE)",
    # §4.4, §4.8, §4.9 (ch4_diversity, ch4_base_learners, ch4_naive_bayes)
    "decorate_r10": "DECORATE (R_size 1.0)",
    "decorate_mlp": "DECORATE (MLP)",
    "bagging_mlp": "Bagging (MLP)",
    "adaboost_mlp": "AdaBoost (MLP)",
    "decorate_nb": "DECORATE (Naive Bayes)",
    "bagging_nb": "Bagging (Naive Bayes)",
    "adaboost_nb": "AdaBoost (Naive Bayes)",
    # §4.5, ensembles of size 100 (config/experiments/ch4_large_ensembles.yaml)
    "decorate_100": "DECORATE (100)",
    "bagging_100": "Bagging (100)",
    "adaboost_100": "AdaBoost (100)",
    "rf_100": "Random Forests (100)",
    # Oza's chapters 3 and 4 (config/experiments/oza_online*.yaml): his column headings, the
    # base model in parentheses as above
    "tree": "Decision Tree",
    "bagging_tree": "Bagging (Decision Tree)",
    "online_bagging_tree": "Online Bagging (Decision Tree)",
    "nb": "Naive Bayes",
    "online_bagging_nb": "Online Bagging (Naive Bayes)",
    "online_boosting_nb": "Online Boosting (Naive Bayes)",
    "primed_online_boosting_nb": "Primed Online Boosting (Naive Bayes)",
    "stump": "Decision Stump",
    "bagging_stump": "Bagging (Decision Stump)",
    "online_bagging_stump": "Online Bagging (Decision Stump)",
    "adaboost_stump": "AdaBoost (Decision Stump)",
    "online_boosting_stump": "Online Boosting (Decision Stump)",
    "primed_online_boosting_stump": "Primed Online Boosting (Decision Stump)",
    "nn": "Neural Network",
    "bagging_nn": "Bagging (Neural Network)",
    "online_nn1": "Online Neural Net (1 update)",
    "online_bagging_nn1": "Online Bagging (Neural Network, 1 update)",
    "online_nn10": "Online Neural Net (10 updates)",
    "online_bagging_nn10": "Online Bagging (Neural Network, 10 updates)",
}
"""How the sources' captions name the systems of the shipped experiment files whose labels are
not a learner's registry name (``decorate_100``, ``uncertainty_j48``); a label that is one
is named by its learner (``display_name``), any other label is printed as given."""

MISSING = "–"
SUMMARY_LABELS: dict[str, str] = {
    "raw": "Win/Draw/Loss",
    "sig": "Sig. W/D/L",
    "gm": "GM error ratio",
    "sig_corrected": "Sig. W/D/L, corrected resampled t-test (not in thesis)",
    "strict": "W/D/L, ties as draws (not in thesis)",
    "n": "Datasets compared",
}


def display_name(algorithm: str) -> str:
    """The sources' spelling of a system's label: :data:`DISPLAY_NAMES`, else the learner's
    own name for a registry name (``rf`` → ``Random Forests``, a user's new learner as its
    class says), else the label."""
    if algorithm in DISPLAY_NAMES:
        return DISPLAY_NAMES[algorithm]
    return learner_display_name(algorithm) or algorithm


def point_label(point: float) -> str:
    """Column heading of a curve point as the thesis prints it (``1.0`` → ``1%``)."""
    return f"{point:g}%"


@dataclass(frozen=True)
class ComparisonTable:
    """Everything needed to render one "baseline vs other" table.

    ``cells`` is :func:`~redecorate.stats.comparison.compare_algorithms` output and
    ``summary`` is :func:`~redecorate.stats.comparison.summarise_comparison` of it;
    ``datasets`` and ``points`` fix the row and column order.
    """

    baseline: str
    other: str
    cells: pd.DataFrame
    summary: pd.DataFrame
    datasets: tuple[str, ...]
    points: tuple[float, ...]
    alpha: float = 0.05
    table_number: str | None = None

    @property
    def name(self) -> str:
        """File stem, e.g. ``decorate_vs_j48``."""
        return f"{self.baseline}_vs_{self.other}"

    @property
    def title(self) -> str:
        """Caption in the thesis's words, with the thesis table number when there is one.

        The number comes from the published values the experiment compares with, never from
        the algorithm names alone: a user's own experiment with a DECORATE-vs-J48 table is
        not the thesis's Table 4.2.
        """
        caption = f"{display_name(self.baseline)} vs {display_name(self.other)}"
        return f"Table {self.table_number} (replicated): {caption}" if self.table_number else caption

    @property
    def note(self) -> str:
        """One sentence saying what a cell and bold mean, printed under every rendering."""
        pairs = self.cells.loc[self.cells["n_pairs"] > 0, "n_pairs"]
        n = f"{int(pairs.max())} " if len(pairs) and pairs.min() == pairs.max() else ""
        metrics = set(self.cells["metric"])
        what = "accuracy (%)" if metrics in ({"accuracy"}, set()) else "/".join(sorted(metrics))
        return (
            f"Cell: mean {what} of {display_name(self.baseline)} / "
            f"{display_name(self.other)} over {n}runs x folds; the larger value is bold when "
            f"the difference is significant (paired t-test, p < {self.alpha:g}). "
            f"{MISSING} = not run."
        )

    def cell(self, dataset: str, point: float) -> pd.Series | None:
        """The comparison row of one (dataset, point), or None when neither side was run."""
        rows = self.cells[(self.cells["dataset"] == dataset) & (self.cells["point"] == point)]
        return None if rows.empty else rows.iloc[0]


def comparison_table(
    records: pd.DataFrame,
    baseline: str = "decorate",
    other: str = "j48",
    *,
    datasets: Sequence[str] | None = None,
    points: Sequence[float] | None = None,
    metric: str = "accuracy",
    alpha: float = 0.05,
    experiment: str | None = None,
    n_test: float | Mapping[str, float] | None = None,
    table_number: str | None = None,
) -> ComparisonTable:
    """Compare ``baseline`` with ``other`` on every (dataset, point) of the records.

    ``datasets`` fixes the rows (default: the thesis order for the datasets present, then
    any others alphabetically); a listed dataset without records appears as "not run".
    ``points`` fixes the columns (default: every point present). The other arguments are
    passed to :func:`~redecorate.stats.comparison.compare_algorithms`, except
    ``table_number``, the published table this comparison replicates (for the title).
    """
    cells = compare_algorithms(
        records,
        baseline,
        other,
        metric=metric,
        alpha=alpha,
        experiment=experiment,
        n_test=n_test,
    )
    present = list(dict.fromkeys(cells["dataset"].astype(str)))
    if datasets is None:
        rows = [d for d in THESIS_DATASETS if d in present]
        rows += sorted(d for d in present if d not in THESIS_DATASETS)
    else:
        rows = list(datasets)
    cols = sorted(cells["point"].unique()) if points is None else [float(p) for p in points]
    cells = cells[cells["dataset"].isin(rows) & cells["point"].isin(cols)].reset_index(drop=True)
    summary = summarise_comparison(cells)
    summary = summary.set_index("point").reindex(cols).rename_axis("point").reset_index()
    # reindexing a point nobody ran introduces NaN; keep the counts integers (nullable)
    counts = [c for c in summary.columns if c not in ("point", "gm_error_ratio")]
    summary[counts] = summary[counts].astype("Int64")
    return ComparisonTable(baseline, other, cells, summary, tuple(rows), tuple(cols), alpha,
                           table_number)  # fmt: skip


def fmt(value: object, decimals: int = 2, *, signed: bool = False, missing: str = MISSING) -> str:
    """A number as the reports print it: ``decimals`` digits after the point (``signed``: with
    its sign, ``+0.1234``), ``missing`` (a dash) for None and NaN.

    The one formatter of every report, so that a missing value reads the same everywhere.
    """
    if value is None or pd.isna(value):  # type: ignore[arg-type]
        return missing
    return f"{float(value):{'+' if signed else ''}.{decimals}f}"  # type: ignore[arg-type]


def _cell_text(table: ComparisonTable, dataset: str, point: float, bold: str) -> str:
    """``a/b`` with the significant winner wrapped by ``bold`` (a format string with {})."""
    row = table.cell(dataset, point)
    if row is None:
        return f"{MISSING}/{MISSING}"
    a, b = fmt(row["mean_a"], 2), fmt(row["mean_b"], 2)
    if row["sig"] > 0:
        a = bold.format(a)
    elif row["sig"] < 0:
        b = bold.format(b)
    return f"{a}/{b}"


def _wdl(summary_row: pd.Series, prefix: str) -> str:
    values = [summary_row.get(f"{prefix}{k}") for k in ("wins", "draws", "losses")]
    if any(v is None or pd.isna(v) for v in values):
        return MISSING
    return "/".join(str(int(v)) for v in values)


def _summary_rows(table: ComparisonTable) -> list[tuple[str, list[str]]]:
    """Bottom rows as (label, one text per point)."""
    s = [row for _, row in table.summary.iterrows()]
    rows = [
        (SUMMARY_LABELS["raw"], [_wdl(r, "") for r in s]),
        (SUMMARY_LABELS["sig"], [_wdl(r, "sig_") for r in s]),
        (SUMMARY_LABELS["gm"], [fmt(r["gm_error_ratio"], 4) for r in s]),
        (SUMMARY_LABELS["sig_corrected"], [_wdl(r, "sig_corrected_") for r in s]),
        (SUMMARY_LABELS["strict"], [_wdl(r, "strict_") for r in s]),
    ]
    counts = [0 if pd.isna(r["n_datasets"]) else int(r["n_datasets"]) for r in s]
    if any(c < len(table.datasets) for c in counts):
        rows.append((SUMMARY_LABELS["n"], [f"{c} of {len(table.datasets)}" for c in counts]))
    return rows


def markdown_table(
    header: Sequence[str], rows: Iterable[Sequence[object]], align: str | None = None
) -> str:
    """A GitHub-flavoured Markdown table; ``align`` has one of ``l``/``r`` per column.

    Written here rather than via ``DataFrame.to_markdown`` so that the output does not depend
    on the optional ``tabulate`` package and is byte-stable across its versions.
    """
    align = align or "l" + "r" * (len(header) - 1)
    rule = [":--" if a == "l" else "--:" for a in align]

    def line(values: Sequence[object]) -> str:
        return "| " + " | ".join(str(v).replace("|", "\\|") for v in values) + " |"

    return "\n".join([line(header), line(rule), *(line(r) for r in rows)]) + "\n"


def render_markdown(table: ComparisonTable) -> str:
    """The table as Markdown: a heading, the dataset rows, a separator, the summary rows."""
    header = ["Dataset", *(point_label(p) for p in table.points)]
    body = [[d, *(_cell_text(table, d, p, "**{}**") for p in table.points)] for d in table.datasets]
    body.append(["", *([""] * len(table.points))])
    body += [[label, *texts] for label, texts in _summary_rows(table)]
    return f"### {table.title}\n\n{markdown_table(header, body)}\n{table.note}\n"


def _latex_escape(text: str) -> str:
    for char, repl in (("\\", r"\textbackslash{}"), ("&", r"\&"), ("%", r"\%"), ("_", r"\_"), ("#", r"\#")):  # fmt: skip
        text = text.replace(char, repl)
    return text.replace(MISSING, "--")


def render_latex(table: ComparisonTable) -> str:
    """The table as a plain LaTeX ``tabular`` (no booktabs) inside a ``table`` float."""
    cols = "l" + "r" * len(table.points)
    header = " & ".join(["Dataset", *(_latex_escape(point_label(p)) for p in table.points)])
    lines = [
        r"\begin{table}[htbp]",
        r"\centering",
        r"\small",
        rf"\caption{{{_latex_escape(table.title)}}}",
        rf"\begin{{tabular}}{{{cols}}}",
        r"\hline",
        header + r" \\",
        r"\hline",
    ]
    for d in table.datasets:
        texts = [_cell_text(table, d, p, r"\textbf{{{}}}") for p in table.points]
        lines.append(" & ".join([_latex_escape(d), *(t.replace(MISSING, "--") for t in texts)]))
        lines[-1] += r" \\"
    lines.append(r"\hline")
    for label, texts in _summary_rows(table):
        lines.append(" & ".join(_latex_escape(t) for t in [label, *texts]) + r" \\")
    lines += [r"\hline", r"\end{tabular}", r"\par\smallskip"]
    lines += [r"{\footnotesize " + _latex_escape(table.note) + "}", r"\end{table}"]
    return "\n".join(lines) + "\n"


def table_frame(table: ComparisonTable) -> pd.DataFrame:
    """The table as a DataFrame for CSV: ``a/b`` text per point plus boolean bold flags.

    For every point ``P%`` there are two flag columns, ``P%_bold_<baseline>`` and
    ``P%_bold_<other>``, true where that side is significantly better; they are empty on
    the summary rows, whose statistics are in the ``P%`` text columns.
    """
    labels = [point_label(p) for p in table.points]
    records: list[dict[str, object]] = []
    for d in table.datasets:
        row: dict[str, object] = {"dataset": d}
        for p, label in zip(table.points, labels, strict=True):
            row[label] = _cell_text(table, d, p, "{}")
        for p, label in zip(table.points, labels, strict=True):
            cell = table.cell(d, p)
            sig = 0 if cell is None else int(cell["sig"])
            row[f"{label}_bold_{table.baseline}"] = sig > 0
            row[f"{label}_bold_{table.other}"] = sig < 0
        records.append(row)
    for label_text, texts in _summary_rows(table):
        records.append({"dataset": label_text, **dict(zip(labels, texts, strict=True))})
    frame = pd.DataFrame(records)
    for col in frame.columns:
        if "_bold_" in col:
            frame[col] = frame[col].astype("boolean")
    return frame


def _render_csv(table: ComparisonTable) -> str:
    return table_frame(table).to_csv(index=False, lineterminator="\n")


_RENDERERS = {"md": render_markdown, "tex": render_latex, "csv": _render_csv}


def write_comparison_tables(
    records: pd.DataFrame,
    out_dir: str | PathLike[str],
    baseline: str = "decorate",
    others: Sequence[str] = ("j48", "bagging", "rf", "adaboost"),
    *,
    datasets: Sequence[str] | None = None,
    points: Sequence[float] | None = None,
    metric: str = "accuracy",
    alpha: float = 0.05,
    experiment: str | None = None,
    n_test: float | Mapping[str, float] | None = None,
    formats: Sequence[str] = ("md", "tex", "csv"),
    table_numbers: Mapping[tuple[str, str], str] | None = None,
) -> list[Path]:
    """Write one table per ``baseline`` vs ``other`` and return the paths written.

    Per comparison ``<baseline>_vs_<other>``: ``.md``, ``.tex`` and ``.csv`` (as selected by
    ``formats``) plus ``_cells.csv``, the full per-(dataset, point) comparison with both
    p-values. Across comparisons: ``comparison_summary.csv``, every summary row in long form
    (one row per comparison × point), which the replication report can reuse. An ``other``
    without any records still gets a table of dashes, so that it is visibly not run.
    ``table_numbers`` maps (baseline, other) to the published table replicated
    (:func:`~redecorate.report.published.table_numbers`); others get no number.
    """
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    summaries = []
    for other in others:
        table = comparison_table(
            records,
            baseline,
            other,
            datasets=datasets,
            points=points,
            metric=metric,
            alpha=alpha,
            experiment=experiment,
            n_test=n_test,
            table_number=(table_numbers or {}).get((baseline, other)),
        )
        for suffix in formats:
            path = out / f"{table.name}.{suffix}"
            path.write_text(_RENDERERS[suffix](table), encoding="utf-8")
            written.append(path)
        cells_path = out / f"{table.name}_cells.csv"
        table.cells.to_csv(cells_path, index=False, lineterminator="\n")
        written.append(cells_path)
        summaries.append(table.summary.assign(comparison=table.name, other=other))
    summary = pd.concat(summaries, ignore_index=True)
    summary = summary[
        ["comparison", "other", *(c for c in summary.columns if c not in ("comparison", "other"))]
    ]
    summary_path = out / "comparison_summary.csv"
    summary.to_csv(summary_path, index=False, lineterminator="\n")
    written.append(summary_path)
    return written
