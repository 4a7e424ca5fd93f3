"""Chapter 6 report: data utilization, error reductions, learning curves, reproduced vs published.

From the records of an ``active`` experiment (``point`` = labeled examples, ``value`` = test
accuracy %), for every dataset and system:

* the *mean curve*: error (100 − mean accuracy) over runs × folds at every labeled-set size
  that every (run, fold) of both compared systems reached (folds differ in pool size by one
  example; averaging a point only some folds reached would mix unequal sets,
  :func:`~redecorate.report.curves.common_points`);
* Table 6.1: examples needed to reach the target error (the baseline's mean error over its
  last 50 examples, spec M8) and the ratio to the baseline's count;
* Table 6.2 (6.3): the top-20 % percentage error reduction over the baseline and whether it
  is significant (paired t-test over runs × folds of the errors averaged over the selected
  points, p < 0.05, spec M9); Table 6.4: the mean reduction over all points;
* one learning-curve figure per dataset;
* ``replication.md``/``.csv``: every published cell beside ours, the scale at the top, and
  "not comparable" where the protocol or the datasets differ from the dissertation's.

The ``active`` kind's ``utilization`` report (:func:`write_report`). Chapter 8's reductions
(:mod:`redecorate.report.acquisition`) are Table 6.2/6.4 quantities and use
:func:`active_summary` and :func:`active_intervals` from here.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from redecorate.report.agreement import (
    PRINTED_ROUNDING,
    REPRODUCED,
    agreement_lines,
    bootstrap_interval,
    cell_status,
    cells_lines,
    difference_interval,
    evidence_frame,
    explanations,
    known_disagreements_for,
    run_spread,
    with_known_disagreements,
)
from redecorate.report.conclusions import comparability_lines, held_sentence, sign_agreement
from redecorate.report.curves import (
    cells_comparability,
    common_points,
    common_runs,
    fold_curve_pair,
    fold_errors,
    ran_datasets,
    significant_reduction,
)
from redecorate.report.figures import learning_curves
from redecorate.report.friedman import write_friedman
from redecorate.report.published import read_published
from redecorate.report.replication_report import ReplicationReport
from redecorate.report.tables import display_name, fmt, markdown_table
from redecorate.stats.learning_curves import (
    error_reduction_test,
    fold_data_utilization,
    mean_error_reduction,
    number_of_wins,
    percent_error_reduction,
    top_error_reduction,
    top_fraction_points,
)

if TYPE_CHECKING:
    from redecorate.protocol.settings import ReportOutputs, ReportSettings

__all__ = ["REDUCTIONS", "STATISTICS", "THESIS_FOLDS", "THESIS_RUNS", "active_conclusions", "active_intervals",
           "curve_statistics", "system_fold_errors",
           "active_summary", "evidence", "replication_cells", "write_report"]

THESIS_RUNS, THESIS_FOLDS = 2, 10

STATISTICS: tuple[str, ...] = ("examples_to_target", "utilization_ratio", "top20_error_reduction",
                               "error_reduction")
"""The per-dataset statistics of Tables 6.1–6.4, named alike in :func:`active_summary`'s
columns and in the published file."""


def _system_errors(records: pd.DataFrame, baseline: str, others: Sequence[str], datasets: Sequence[str]
                   ) -> Iterator[tuple[str, str, pd.DataFrame, pd.DataFrame]]:
    """(dataset, system, its per-fold errors, the baseline's) for every system that ran on a
    dataset the baseline ran on, the baseline itself first."""
    for dataset in datasets:
        base = fold_errors(records, dataset, baseline)
        if base.empty:
            continue
        for system in [baseline, *others]:
            mine = fold_errors(records, dataset, system)
            if not mine.empty:
                yield dataset, system, mine, base


def active_summary(
    records: pd.DataFrame, baseline: str, others: Sequence[str], datasets: Sequence[str], *,
    window: str = "common", crossing: str = "first", rounding: str = "ceil", pairing: str = "folds",
) -> pd.DataFrame:
    """One row per (dataset, system): Tables 6.1, 6.2 and 6.4's quantities, reproduced.

    Columns: dataset, system, pool_size, target_error, examples_to_target (None when never
    reached), baseline_examples, utilization_ratio, top20_error_reduction, top20_p,
    top20_significant, error_reduction (mean over all points), error_reduction_p,
    error_reduction_significant. The baseline's own row has its count and ratio 1.

    The keywords select readings the dissertation leaves open (docs/experiments.md, Chapter
    6): the target-error ``window`` and the ``crossing`` rule of M8
    (:func:`~redecorate.stats.learning_curves.fold_data_utilization`), the ``rounding`` of
    the top 20 % of points and the significance test's ``pairing`` (M9).
    """
    out = []
    for dataset, system, mine, base in _system_errors(records, baseline, others, datasets):
        n, e_mine, e_base = common_points(mine, base)
        mean_mine, mean_base = e_mine.mean(axis=0), e_base.mean(axis=0)
        pool = int(n[-1])
        util = fold_data_utilization(*fold_curve_pair(mine, base), window=window, crossing=crossing)
        row: dict[str, Any] = {
            "dataset": dataset, "system": system, "pool_size": pool,
            "target_error": util.target_error, "examples_to_target": util.examples,
            "baseline_examples": util.baseline_examples, "utilization_ratio": util.ratio,
        }  # fmt: skip
        if system != baseline:
            r = percent_error_reduction(mean_base, mean_mine, undefined="nan")
            top = top_fraction_points(r, rounding=rounding)
            test_top = error_reduction_test(e_base, e_mine, top, pairing=pairing)
            test_all = error_reduction_test(e_base, e_mine, pairing=pairing)
            reduction = mean_error_reduction(mean_base, mean_mine, undefined="nan")
            row.update(
                top20_error_reduction=float(r[top].mean()),
                top20_p=test_top.p,
                top20_significant=significant_reduction(test_top.p, float(r[top].mean())),
                error_reduction=reduction,
                error_reduction_p=test_all.p,
                error_reduction_significant=significant_reduction(test_all.p, reduction),
            )
        out.append(row)
    return pd.DataFrame(out)


def _top20(base: np.ndarray, mine: np.ndarray) -> np.ndarray:
    """Per row of two matrices of mean curves (one row per bootstrap replicate),
    :func:`~redecorate.stats.learning_curves.top_error_reduction`: the mean of the ⌈20 %⌉
    largest defined reductions (NaN where none is defined)."""
    return top_error_reduction(base, mine, undefined="nan")


def _all_points(base: np.ndarray, mine: np.ndarray) -> np.ndarray:
    """Per row, :func:`~redecorate.stats.learning_curves.mean_error_reduction`."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # a row of undefined points is NaN
        return np.nanmean(percent_error_reduction(base, mine, undefined="nan"), axis=1)


def _utilization(n: np.ndarray, pool: int) -> Callable[[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]:
    """Per row of two matrices of mean curves on the sizes ``n``: M8's examples to reach the
    baseline's target error and their ratio to the baseline's own count
    (:func:`~redecorate.stats.learning_curves.data_utilization`; NaN where never reached)."""
    tail = n > pool - 50

    def counts(base: np.ndarray, mine: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        target = base[:, tail].mean(axis=1)[:, None] + 1e-9

        def first(curves: np.ndarray) -> np.ndarray:
            hit = curves <= target
            return np.where(hit.any(axis=1), n[hit.argmax(axis=1)].astype(np.float64), np.nan)

        examples = first(mine)
        return examples, examples / first(base)

    return counts


def active_intervals(records: pd.DataFrame, baseline: str, others: Sequence[str],
                     datasets: Sequence[str]) -> pd.DataFrame:
    """95 % intervals of :func:`active_summary`'s cells from the fold-level spread.

    One row per (dataset, system, statistic) with ``low`` and ``high``: the percentile
    interval of the cell under a paired bootstrap over runs × folds
    (:func:`redecorate.report.agreement.bootstrap_interval`), each replicate recomputing the
    cell from the replicate's mean curves exactly as the summary does (examples to the
    target with the replicate's own target; NaN bounds when most replicates never reach it).
    """
    rows = []
    for dataset, system, mine, base in _system_errors(records, baseline, others, datasets):
        n, e_mine, e_base = common_points(mine, base)
        runs = common_runs(mine, base)
        for name, statistic in curve_statistics(n, baseline=system == baseline).items():
            low, high = bootstrap_interval(statistic, e_base, e_mine, vectorized=True)
            sd, count = run_spread(statistic, runs, e_base, e_mine, vectorized=True)
            half, df = difference_interval(sd, count, low=low, high=high, splits=len(runs))
            rows.append({"dataset": dataset, "system": system, "statistic": name, "low": low, "high": high,
                         "half_width": half, "df": df})
    return pd.DataFrame(rows, columns=["dataset", "system", "statistic", "low", "high", "half_width", "df"])


def system_fold_errors(records: pd.DataFrame, baseline: str, others: Sequence[str], datasets: Sequence[str]
                       ) -> Iterator[tuple[str, str, np.ndarray, np.ndarray, np.ndarray]]:
    """(dataset, system, curve sizes, the system's and the baseline's per-fold errors on them)
    for every system that ran beside the baseline, the baseline itself first: the matrices
    :func:`curve_statistics` and the intervals read."""
    for dataset, system, mine, base in _system_errors(records, baseline, others, datasets):
        n, e_mine, e_base = common_points(mine, base)
        yield dataset, system, n, e_mine, e_base


def curve_statistics(n: np.ndarray, *, baseline: bool = False
                     ) -> dict[str, Callable[[np.ndarray, np.ndarray], np.ndarray]]:
    """The cells of Tables 6.1-6.2 as functions of (baseline, system) mean curves on the sizes
    ``n``, one row per replicate (:func:`active_intervals`): the examples to the target for
    every system, the ratio and the reductions for a system beside the baseline."""
    counts = _utilization(n, int(n[-1]))
    statistics: dict[str, Callable[[np.ndarray, np.ndarray], np.ndarray]] = {
        "examples_to_target": lambda b, m: counts(b, m)[0]}
    if not baseline:
        statistics.update(utilization_ratio=lambda b, m: counts(b, m)[1],
                          top20_error_reduction=_top20, error_reduction=_all_points)
    return statistics


def _system_cells(by: pd.DataFrame, systems: Sequence[str], cell: Callable[[pd.Series], str]) -> list[str]:
    """One dataset's row of a per-system table (``by``: its summary rows by system): ``cell`` of
    each system's row it ran, blank for the others (a slice or another file may run fewer)."""
    return [cell(by.loc[s]) if s in by.index else "" for s in systems]


def _utilization_table(summary: pd.DataFrame, systems: Sequence[str]) -> tuple[list[str], list[list[str]]]:
    header = ["Dataset", "Pool", *(display_name(s) for s in systems), "Target err. (%)"]
    body = []
    counts = {}
    for dataset, rows in summary.groupby("dataset", sort=False):
        by = rows.set_index("system")
        cells = _system_cells(by, systems, lambda r: "-" if pd.isna(r["examples_to_target"])
                              else f"{int(r['examples_to_target'])} ({r['utilization_ratio']:.2f})")
        counts[dataset] = {s: by.at[s, "examples_to_target"] if s in by.index else None for s in systems}
        body.append([str(dataset), str(int(rows["pool_size"].iloc[0])), *cells,
                     fmt(rows["target_error"].iloc[0])])  # fmt: skip
    wins = number_of_wins(counts, lower_is_better=True) if counts else pd.Series(dtype=int)
    body.append(["No. of wins", "", *(str(int(wins.get(s, 0))) for s in systems), ""])
    return header, body


def _reduction_table(summary: pd.DataFrame, others: Sequence[str], column: str,
                     significant: str) -> tuple[list[str], list[list[str]]]:
    header = ["Dataset", *(display_name(s) for s in others)]
    body, values = [], {}
    for dataset, rows in summary.groupby("dataset", sort=False):
        by = rows.set_index("system")
        cells = _system_cells(by, others, lambda r: f"**{r[column]:.2f}**" if r[significant] else fmt(r[column]))
        values[dataset] = {s: by.at[s, column] if s in by.index else None for s in others}
        body.append([str(dataset), *cells])
    means = pd.DataFrame.from_dict(values, orient="index")
    body.append(["Mean", *(fmt(means[s].mean()) if s in means else "" for s in others)])
    wins = number_of_wins(values, lower_is_better=False) if values else pd.Series(dtype=int)
    body.append(["No. of wins", *(str(int(wins.get(s, 0))) for s in others)])
    return header, body


def _published_system(published: pd.DataFrame, labels: Mapping[str, str]) -> pd.Series:
    """Published system names as this experiment's labels (``active_decorate`` may be labelled
    otherwise in another file); systems of other tables stay as they are."""
    return published["system"].map(lambda s: labels.get(s, s))


def _tables_of(published: pd.DataFrame, systems: set[str]) -> list[str]:
    """The published tables this experiment reproduces: those all of whose systems it runs
    (one file holds Tables 6.1–6.4; ch6_active runs the systems of 6.1 and 6.2 only)."""
    out = []
    for table, rows in published.groupby("table", sort=True):
        named = set(rows["system"].dropna()) - {""}
        if named and named <= systems:
            out.append(str(table))
    return out


def replication_cells(summary: pd.DataFrame, published: pd.DataFrame, tables: Sequence[str],
                      labels: Mapping[str, str], baseline: str,
                      intervals: pd.DataFrame | None = None) -> pd.DataFrame:
    """Reproduced vs published, one row per published per-dataset cell of ``tables``.

    With ``intervals`` (:func:`active_intervals`) every cell gets its 95 % interval
    (``low``, ``high``) and a status of :data:`redecorate.report.agreement.CELL_STATUSES`:
    ``not run``, ``never reached the target`` (a count or ratio of a system that ran but whose
    curve never came down to the target error), ``agrees`` (published inside the interval)
    or ``disagrees``.
    """
    pub = published[published["table"].isin(tables) & (published["dataset"] != "")
                     & published["statistic"].isin(STATISTICS)].copy()  # fmt: skip
    pub["system"] = _published_system(pub, labels)
    # The baseline's own ratio is 1 by definition: not a reproduced number.
    pub = pub[~((pub["statistic"] == "utilization_ratio") & (pub["system"] == baseline))]
    mine = summary.set_index(["dataset", "system"]) if len(summary) else summary
    rows = []
    for _, cell in pub.iterrows():
        column = cell["statistic"]
        key = (cell["dataset"], cell["system"])
        reproduced = np.nan
        if len(summary) and key in mine.index and column in mine.columns:
            value = mine.at[key, column]
            reproduced = np.nan if value is None else float(value)
        published_value = pd.to_numeric(cell["value"], errors="coerce")
        rows.append({"table": cell["table"], "dataset": cell["dataset"], "system": cell["system"],
                     "statistic": cell["statistic"], "published": published_value,
                     "reproduced": reproduced})  # fmt: skip
    frame = pd.DataFrame(rows, columns=["table", "dataset", "system", "statistic", "published",
                                        "reproduced"])  # fmt: skip
    frame["difference"] = frame["reproduced"] - frame["published"]
    bounds = (intervals.set_index(["dataset", "system", "statistic"])
              if intervals is not None and len(intervals) else None)  # fmt: skip
    ran = set(zip(summary["dataset"], summary["system"], strict=True)) if len(summary) else set()
    lows, highs, halves, dfs, statuses = [], [], [], [], []
    for _, cell in frame.iterrows():
        key = (cell["dataset"], cell["system"], cell["statistic"])
        found = bounds is not None and key in bounds.index
        low, high = (bounds.loc[key, ["low", "high"]] if found else (np.nan, np.nan))  # fmt: skip
        half = float(bounds.loc[key, "half_width"]) if found and "half_width" in bounds.columns else np.nan
        lows.append(float(low))
        highs.append(float(high))
        halves.append(half)
        dfs.append(float(bounds.loc[key, "df"]) if found and np.isfinite(half) else np.nan)
        statuses.append(cell_status(cell["published"], cell["reproduced"], float(low), float(high),
                                    ran=(cell["dataset"], cell["system"]) in ran, tolerance=PRINTED_ROUNDING,
                                    half_width=half))  # fmt: skip
    frame["low"], frame["high"], frame["status"] = lows, highs, statuses
    frame["half_width"], frame["df"] = halves, dfs
    return frame


def active_conclusions(summary: pd.DataFrame, published: pd.DataFrame, baseline: str,
                 others: Sequence[str], labels: Mapping[str, str], tables: Sequence[str]) -> pd.DataFrame:
    """The dissertation's claims of each table, tested on the reproduction.

    Per system and dataset: does the reduction over the baseline have the published sign
    (the discriminating measure), beside what the trivial prediction "the active system
    always wins" would score; per table: which system wins most datasets, and the mean.
    """
    rows = []
    pub = published[published["table"].isin(tables)].copy()
    pub["system"] = _published_system(pub, labels)
    for table in tables:
        for statistic in ("top20_error_reduction", "error_reduction"):
            p = pub[(pub["table"] == table) & (pub["statistic"] == statistic) & (pub["dataset"] != "")]
            for system in others:
                ps = p[p["system"] == system].set_index("dataset")["value"].astype(float)
                if ps.empty or summary.empty:
                    continue
                ours = summary[summary["system"] == system].set_index("dataset")[statistic]
                both = ps.index.intersection(ours.dropna().index)
                if len(both) == 0:
                    continue
                agree, trivial, _ = sign_agreement(ours[both].astype(float), ps[both])
                rows.append({"table": table, "claim": f"sign of {statistic} per dataset",
                             "system": system, "datasets": len(both),
                             "published": f"{(ps[both] > 0).sum()} of {len(both)} positive",
                             "reproduced": f"{(ours[both] > 0).sum()} of {len(both)} positive",
                             "agreement": agree, "trivial_agreement": trivial,
                             "holds": pd.NA, "trivial_holds": pd.NA})  # fmt: skip
                pub_mean = float(ps[both].mean())
                our_mean = float(ours[both].mean())
                rows.append({"table": table, "claim": f"mean {statistic} > 0",
                             "system": system, "datasets": len(both),
                             "published": f"{pub_mean:.2f}", "reproduced": f"{our_mean:.2f}",
                             "agreement": np.nan, "trivial_agreement": np.nan,
                             "holds": bool((pub_mean > 0) == (our_mean > 0)),
                             # "the active system always reduces the error" predicts > 0
                             "trivial_holds": bool(pub_mean > 0)})  # fmt: skip
        for statistic in ("top20_error_reduction", "error_reduction"):
            p = pub[(pub["table"] == table) & (pub["statistic"] == statistic) & (pub["dataset"] != "")]
            if p.empty or summary.empty or len(set(p["system"])) < 2:
                continue
            pub_means = p.assign(value=p["value"].astype(float)).groupby("system")["value"].mean()
            ours = summary[summary["system"].isin(pub_means.index)]
            ours = ours[ours["dataset"].isin(set(p["dataset"]))].groupby("system")[statistic].mean()
            if len(ours) == len(pub_means):
                rows.append({"table": table, "claim": f"system with the largest mean {statistic}",
                             "system": "", "datasets": p["dataset"].nunique(),
                             "published": f"{pub_means.idxmax()} ({pub_means.max():.2f})",
                             "reproduced": f"{ours.idxmax()} ({ours.max():.2f})",
                             "agreement": np.nan, "trivial_agreement": np.nan,
                             "holds": bool(pub_means.idxmax() == ours.idxmax()),
                             "trivial_holds": pd.NA})  # fmt: skip
        counts = pub[(pub["table"] == table) & (pub["statistic"] == "examples_to_target")
                     & (pub["dataset"] != "")]  # fmt: skip
        if not counts.empty and not summary.empty:
            wide = counts.pivot_table(index="dataset", columns="system", values="value",
                                      aggfunc="first").apply(pd.to_numeric, errors="coerce")
            systems = [s for s in [baseline, *others] if s in wide.columns]
            mine = summary.pivot_table(index="dataset", columns="system", values="examples_to_target",
                                       aggfunc="first")
            shared = wide.index.intersection(mine.index)
            if systems and len(shared):
                pub_wins = number_of_wins(wide.loc[shared, systems], lower_is_better=True)
                our_wins = number_of_wins(mine.reindex(index=shared, columns=systems),
                                          lower_is_better=True)  # fmt: skip
                rows.append({"table": table, "claim": "system needing the fewest examples most often",
                             "system": "", "datasets": len(shared),
                             "published": f"{pub_wins.idxmax()} ({int(pub_wins.max())})",
                             "reproduced": f"{our_wins.idxmax()} ({int(our_wins.max())})",
                             "agreement": np.nan, "trivial_agreement": np.nan,
                             "holds": bool(pub_wins.idxmax() == our_wins.idxmax()),
                             "trivial_holds": pd.NA})  # fmt: skip
    return pd.DataFrame(rows, columns=["table", "claim", "system", "datasets", "published",
                                       "reproduced", "agreement", "trivial_agreement", "holds",
                                       "trivial_holds"])


@dataclass(frozen=True)
class _Replication:
    """Chapter 6's reproduced-vs-published comparison of one run, before any file is written."""

    baseline: str
    others: list[str]
    datasets: list[str]
    summary: pd.DataFrame
    cells: pd.DataFrame
    conclusions: pd.DataFrame
    known: pd.DataFrame


def _replication(records: pd.DataFrame, settings: ReportSettings) -> _Replication:
    """The summary of ``report.others`` over ``report.baseline``, the published cells beside
    it with their intervals, and the published claims tested."""
    report = settings.report
    baseline = report.get("baseline")
    others = list(report.get("others", []))
    datasets = ran_datasets(records, settings)
    if baseline is None:
        raise ValueError(f"experiment {settings.experiment}: the utilization report needs "
                         "report.baseline (the random-sampling system) and report.others; "
                         "chapter 7's comparisons are report variant probability")
    summary = active_summary(records, baseline, others, datasets)
    published = read_published(list(settings.published))
    labels = {s: s for s in [baseline, *others]}
    tables = _tables_of(published, {baseline, *others})
    intervals = active_intervals(records, baseline, others, datasets) if tables else None
    known = known_disagreements_for(list(settings.published))
    cells = with_known_disagreements(replication_cells(summary, published, tables, labels, baseline, intervals), known)
    conclusions = active_conclusions(summary, published, baseline, others, labels, tables)
    return _Replication(baseline, others, datasets, summary, cells, conclusions, known)


REDUCTIONS: tuple[str, ...] = ("top20_error_reduction", "error_reduction")
"""The statistics that are comparisons with the baseline (positive: the system reduced the error)."""


def _evidence(replication: _Replication) -> pd.DataFrame:
    """The cells in the evidence layout: every published cell printed, the reductions signed,
    and per utilization ratio the signed "fewer examples than the baseline" (1 − ratio)."""
    cells = replication.cells
    printed = evidence_frame(cells.assign(printed=True, signed=cells["statistic"].isin(REDUCTIONS),
                                          explanation=explanations(cells, replication.known)))  # fmt: skip
    ratios = printed[printed["statistic"] == "utilization_ratio"]
    fewer = ratios.assign(statistic="fewer examples than the baseline (1 - ratio)", published=1.0 - ratios["published"],
                          reproduced=1.0 - ratios["reproduced"], low=np.nan, high=np.nan, printed=False, signed=True)
    return evidence_frame(pd.concat([printed, fewer], ignore_index=True))


def evidence(records: pd.DataFrame, settings: ReportSettings) -> pd.DataFrame:
    """Every published cell of the experiment's tables beside its reproduction
    (:data:`redecorate.report.agreement.EVIDENCE_COLUMNS`), without writing anything."""
    return _evidence(_replication(records, settings))


def write_report(records: pd.DataFrame, out: ReportOutputs, settings: ReportSettings) -> ReplicationReport:
    """Chapter 6: Tables 6.1–6.4 layouts of ``report.others`` over ``report.baseline``, the
    learning curves, and reproduced vs published (the ``active`` kind's ``utilization``
    report)."""
    baseline = settings.report.get("baseline")
    if baseline not in set(records["algorithm"]):  # a slice (--config algorithms=...) left it out
        return ReplicationReport(
            f"# Replication report: {settings.experiment} (scale {settings.scale})\n\nThe baseline "
            f"{baseline!r} (report.baseline) was not run: no table compares a system with it.\n")
    replication = _replication(records, settings)
    cells, conclusions = replication.cells, replication.conclusions
    _write_utilization_outputs(records, replication.summary, out, settings, replication.baseline,
                               replication.others, replication.datasets)  # fmt: skip
    comparable, why = cells_comparability(settings, cells) if len(cells) else (False, "no published values")
    lines = [f"# Replication report: {settings.experiment} (scale {settings.scale})", ""]
    runs = sorted(records["run"].unique())
    folds = records["fold"].nunique()
    lines += [f"This run: {len(replication.datasets)} datasets, {len(runs)} run(s) of {folds}-fold CV. The "
              f"dissertation: {THESIS_RUNS} runs of {THESIS_FOLDS}-fold CV on the datasets of "
              "its tables.", ""]  # fmt: skip
    lines += comparability_lines(comparable, why)
    lines += _utilization_conclusion_lines(conclusions, comparable)
    if len(cells):
        done = cells[cells["status"].isin(REPRODUCED)]
        lines += agreement_lines(_evidence(replication))
        lines += ["## Cells", "", f"{len(done)} of {len(cells)} published cells reproduced; median "
                  f"|difference| {fmt(done['difference'].abs().median())}.", "",
                  *cells_lines(cells, ["table", "dataset", "system", "statistic"])]  # fmt: skip
    else:
        lines += ["No published values for this experiment's tables.", ""]
    return ReplicationReport("\n".join(lines), cells, conclusions, comparable)


def _write_utilization_outputs(records: pd.DataFrame, summary: pd.DataFrame, out: ReportOutputs,
                               settings: ReportSettings, baseline: str, others: list[str],
                               datasets: list[str]) -> None:
    """Tables 6.1, 6.2 and 6.4 in the thesis's layout, the learning curves and, for several
    systems, the Friedman test: what a person reads beside the replication report."""
    tables_dir, figures_dir = Path(out.tables), Path(out.figures)
    summary.to_csv(tables_dir / "active_summary.csv", index=False, lineterminator="\n")
    header, body = _utilization_table(summary, [baseline, *others])
    text = ["# Data utilization (Table 6.1 layout)", "",
            f"Examples needed to reach the target error (ratio to {display_name(baseline)}); "
            "'-' never reached.", "", markdown_table(header, body), ""]  # fmt: skip
    header, body = _reduction_table(summary, others, "top20_error_reduction", "top20_significant")
    text += ["# Top-20 % percentage error reduction over " + display_name(baseline)
             + " (Table 6.2 layout)", "", "Bold: significant (paired t-test over runs × folds, "
             "p < 0.05).", "", markdown_table(header, body), ""]  # fmt: skip
    header, body = _reduction_table(summary, others, "error_reduction", "error_reduction_significant")
    text += ["# Percentage error reduction over all points (Table 6.4 layout)", "",
             markdown_table(header, body), ""]  # fmt: skip
    (tables_dir / "active_tables.md").write_text("\n".join(text), encoding="utf-8")
    for dataset in datasets:
        learning_curves(records, figures_dir / f"active_curve_{dataset}", dataset=dataset,
                        algorithms=[baseline, *others], experiment=settings.experiment,
                        xlabel="Number of labeled examples")  # fmt: skip
    if len(others) >= 2 and len(datasets) >= 2:
        # Several systems over several datasets (ch6_strategies): Demšar's comparison of all
        # of them at once, ranking each system's mean accuracy over its whole curve.
        write_friedman(records, tables_dir, figures_dir, algorithms=[baseline, *others],
                       experiment=settings.experiment, per_point=False)  # fmt: skip



def _utilization_conclusion_lines(conclusions: pd.DataFrame, comparable: bool) -> list[str]:
    """The conclusions section: each published claim, whether it held, beside the trivial
    prediction "the active system always reduces the error"."""
    lines: list[str] = []
    if len(conclusions):
        shown = conclusions.copy()
        if not comparable:
            shown["holds"] = "not comparable"
        tested = conclusions["holds"].notna() & conclusions["trivial_holds"].notna()
        count = (held_sentence(conclusions.loc[tested, "holds"], conclusions.loc[tested, "trivial_holds"],
                               "claims with a trivial counterpart",
                               '"the active system always reduces the error"') + ". "
                 if comparable else "")  # fmt: skip
        lines += ["## Conclusions", "",
                  f"{count}*Agreement*: share of datasets where the reduction has the published "
                  "sign; *trivial*: what always predicting a reduction would score (per dataset) "
                  "and whether that prediction holds the claim (per mean); the claims about which "
                  "system is best have no trivial counterpart.", "",
                  markdown_table(["Table", "Claim", "System", "Datasets", "Published", "Reproduced",
                                  "Agreement", "Trivial", "Holds", "Trivial holds"],
                                 [[r["table"], r["claim"], display_name(str(r["system"])) if r["system"] else "",
                                   str(r["datasets"]), r["published"], r["reproduced"],
                                   fmt(r["agreement"]), fmt(r["trivial_agreement"]),
                                   "" if r["holds"] is pd.NA else str(r["holds"]),
                                   "" if r["trivial_holds"] is pd.NA else str(r["trivial_holds"])]
                                  for _, r in shown.iterrows()]), ""]  # fmt: skip
    return lines
