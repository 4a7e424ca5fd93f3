"""Chapter 6 report: data utilization, error reductions, learning curves, reproduced vs published.

From the records of an ``active`` experiment (``point`` = labeled examples, ``value`` = test
accuracy %), for every dataset and system:

* the *mean curve*: error (100 − mean accuracy) over runs × folds at every labeled-set size
  that every (run, fold) of both compared systems reached (folds differ in pool size by one
  example; averaging a point only some folds reached would mix unequal sets);
* Table 6.1: examples needed to reach the target error (the baseline's mean error over its
  last 50 examples, spec M8) and the ratio to the baseline's count;
* Table 6.2 (6.3): the top-20 % percentage error reduction over the baseline and whether it
  is significant (paired t-test over runs × folds of the errors averaged over the selected
  points, p < 0.05, spec M9); Table 6.4: the mean reduction over all points;
* one learning-curve figure per dataset;
* ``replication.md``/``.csv``: every published cell beside ours, the scale at the top, and
  "not comparable" where the protocol or the datasets differ from the dissertation's.

Three reports, each writing its tables and figures and returning the reproduced-vs-published
comparison as a :class:`~redecorate.report.replication_report.ReplicationReport` (which
:func:`~redecorate.report.replication_report.write_replication_report` writes): chapter 6's
:func:`write_active_report` (the ``active`` kind's ``utilization`` variant), chapter 7's
:func:`write_probability_report` (its ``probability`` variant) and chapter 8's
:func:`write_reduction_report` (the ``acquisition`` kind).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from redecorate.report.agreement import (
    REPRODUCED,
    agreement_lines,
    bootstrap_interval,
    cell_status,
    cells_lines,
    known_disagreements_for,
    with_known_disagreements,
)
from redecorate.report.conclusions import (
    comparability,
    comparability_lines,
    held_sentence,
    sign_agreement,
)
from redecorate.report.figures import learning_curves
from redecorate.report.friedman import write_friedman
from redecorate.report.published import read_published
from redecorate.report.replication_report import ReplicationReport
from redecorate.report.tables import display_name, markdown_table
from redecorate.stats.learning_curves import (
    data_utilization,
    error_reduction_test,
    fold_data_utilization,
    mean_error_reduction,
    number_of_wins,
    percent_error_reduction,
    top_fraction_points,
)
from redecorate.stats.significance import paired_t_test

if TYPE_CHECKING:
    from redecorate.protocol.settings import ReportOutputs, ReportSettings

__all__ = ["active_conclusions", "active_summary", "fold_errors", "significant_reduction", "wdl_comparability",
           "write_active_report", "write_probability_report", "write_reduction_report"]

ALPHA = 0.05
THESIS_RUNS, THESIS_FOLDS = 2, 10
PRINTED_ROUNDING = 0.005
"""Half the last printed digit of the tables' two-decimal values: a published value this
close to the reproduced interval is inside it."""


ALIGNMENTS: tuple[str, ...] = ("size", "batch")
"""How the folds' curves are lined up before averaging: by labeled-set size (chapter 6's
batches of m: every fold passes through the same sizes until its own pool ends) or by batch
number (chapter 7's schedule: batch i of a fold with a pool one example larger ends one
example later, and is still the thesis's i-th point)."""


def fold_values(records: pd.DataFrame, dataset: str, system: str, metric: str,
                align: str = "size") -> pd.DataFrame:
    """One metric per (run, fold) × curve point of one system on one dataset.

    ``align="size"``: columns are labeled-set sizes. ``align="batch"``: columns are the
    point's position in its fold's curve (0 = the initial set), so folds whose pools differ
    by an example still average their i-th batches together instead of dropping every point
    whose size not all folds share.
    """
    if align not in ALIGNMENTS:
        raise ValueError(f"align must be one of {ALIGNMENTS}, got {align!r}")
    rows = records[(records["dataset"] == dataset) & (records["algorithm"] == system)
                   & (records["metric"] == metric)]  # fmt: skip
    if align == "batch":
        rows = rows.assign(point=rows.groupby(["run", "fold"])["point"].rank(method="first").astype(np.int64) - 1)
    return rows.pivot_table(index=["run", "fold"], columns="point", values="value")


def fold_errors(records: pd.DataFrame, dataset: str, system: str) -> pd.DataFrame:
    """Test error (%) per (run, fold) × labeled-set size of one system on one dataset."""
    return 100.0 - fold_values(records, dataset, system, "accuracy")


#: chapter 7's measures: metric -> (name, True when lower is better)
PROBABILITY_MEASURES = {"mse": ("mse_reduction", True), "aulc": ("aulc_increase", False)}
PROBABILITY_STATISTICS = tuple(name for name, _ in PROBABILITY_MEASURES.values())


AULC_PRIORS = {
    "aulc_fold": "each class's area weighted by its prior in the whole training fold",
    "aulc": "each class's area weighted by its prior in the labeled set at that point",
}
"""The two readings of "AULC_k is weighted by the prior class probability of k according to
the training set" (§7.3.1), in the order the report prefers them. With the labeled set's
priors an active learner that buys more of a rare class also weights that class more, which
on hypothyroid or sick inflated AULC increases 30-fold over the thesis's; with the training
fold's the weights are the same for every system of a fold, and the reproduced increases come
within their intervals of the published (``reproduced/ch7_readings/readings.md``)."""


def aulc_reading(records: pd.DataFrame) -> tuple[pd.DataFrame, str]:
    """The records with the preferred AULC reading they hold as metric ``aulc``, and its name.

    Records that carry ``aulc_fold`` report it as the AULC; older records (labeled-set priors
    only) report ``aulc`` and say so.
    """
    metrics = set(records["metric"])
    if "aulc_fold" in metrics:
        kept = records[records["metric"] != "aulc"]
        return kept.assign(metric=kept["metric"].replace({"aulc_fold": "aulc"})), "aulc_fold"
    return records, "aulc"


def probability_comparisons(
    records: pd.DataFrame, comparisons: Sequence[Mapping[str, Any]], datasets: Sequence[str]
) -> pd.DataFrame:
    """Chapter 7's cells: % MSE reduction and % AULC increase of A over B (spec M10).

    Per dataset and comparison ``{a, b, table}``: :func:`curve_change` of the two systems'
    curves lined up by batch number (every fold makes the same 33 batches, whatever its pool
    size); its 95 % interval from a paired bootstrap over runs × folds (``*_low``,
    ``*_high``); and the significance outcome: +1 when A is significantly better (paired
    t-test over runs × folds of each system's values averaged over the points, p < 0.05), −1
    when significantly worse, 0 otherwise (the w/d/l of Tables 7.1–7.4).
    """
    rows = []
    for entry in comparisons:
        a, b = str(entry["a"]), str(entry["b"])
        for dataset in datasets:
            row: dict[str, Any] = {"table": str(entry.get("table", "")),
                                   "comparison": f"{a}_vs_{b}", "dataset": dataset}  # fmt: skip
            for metric, (name, lower_better) in PROBABILITY_MEASURES.items():
                va = fold_values(records, dataset, a, metric, align="batch")
                vb = fold_values(records, dataset, b, metric, align="batch")
                if va.empty or vb.empty:
                    row.update({name: np.nan, f"{name}_p": np.nan, f"{name}_outcome": np.nan,
                                f"{name}_low": np.nan, f"{name}_high": np.nan})
                    continue
                _, ma, mb = _common(va, vb)
                change = partial(curve_change, lower_better=lower_better)
                value = change(ma.mean(axis=0), mb.mean(axis=0))
                low, high = bootstrap_interval(change, ma, mb)
                test = paired_t_test(ma.mean(axis=1), mb.mean(axis=1))
                better = (ma.mean() < mb.mean()) if lower_better else (ma.mean() > mb.mean())
                outcome = 0 if not test.p < ALPHA else (1 if better else -1)
                row.update({name: value, f"{name}_p": test.p, f"{name}_outcome": outcome,
                            f"{name}_low": low, f"{name}_high": high})
            rows.append(row)
    return pd.DataFrame(rows)


def curve_change(curve_a: np.ndarray, curve_b: np.ndarray, *, lower_better: bool) -> float:
    """Chapter 7's "% reduction (increase) averaged along the learning curve" (spec M10).

    ``curve_a`` and ``curve_b`` are the two systems' *mean* curves (over runs × folds, on
    the same splits): the percentage change of A over B at every point, averaged over the
    points — the mean of per-point changes of the mean curves, not the change of the means
    over points, nor a mean of per-fold changes. Points where B's value is 0 are skipped.
    """
    curve_a, curve_b = np.asarray(curve_a, dtype=np.float64), np.asarray(curve_b, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        change = (curve_b - curve_a) / curve_b if lower_better else (curve_a - curve_b) / curve_b
    return 100.0 * float(np.nanmean(np.where(np.isfinite(change), change, np.nan)))


def _common(a: pd.DataFrame, b: pd.DataFrame) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Both systems' per-fold errors at the sizes every (run, fold) of both reached."""
    index = a.index.intersection(b.index)
    a, b = a.loc[index], b.loc[index]
    columns = [c for c in a.columns.intersection(b.columns) if a[c].notna().all() and b[c].notna().all()]
    if not columns:
        raise ValueError("the two systems' curves share no labeled-set size")
    return np.asarray(columns, dtype=np.int64), a[columns].to_numpy(), b[columns].to_numpy()


def significant_reduction(p: float, reduction: float) -> bool:
    """A significant *reduction*, as the thesis's bold cells are: p < ALPHA and the error went
    down (a significant increase of the error, a negative reduction, is not one)."""
    return bool(p < ALPHA and reduction > 0)


def fold_curve_pair(a: pd.DataFrame, b: pd.DataFrame) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Two systems' per-fold errors on the same (run, fold)s and on every size either
    reached (NaN where a fold has no point): the input of the M8 readings, which need the
    folds' own pool ends that :func:`_common` drops."""
    index = a.index.intersection(b.index)
    sizes = a.columns.union(b.columns)
    return (sizes.to_numpy(), a.reindex(index=index, columns=sizes).to_numpy(),
            b.reindex(index=index, columns=sizes).to_numpy())


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
        n, e_mine, e_base = _common(mine, base)
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


def _reductions(base: np.ndarray, mine: np.ndarray) -> np.ndarray:
    return percent_error_reduction(base, mine, undefined="nan")


def _top20(base: np.ndarray, mine: np.ndarray) -> float:
    r = _reductions(base, mine)
    return float(r[top_fraction_points(r)].mean()) if np.isfinite(r).any() else float("nan")


def _all_points(base: np.ndarray, mine: np.ndarray) -> float:
    return mean_error_reduction(base, mine, undefined="nan")


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
        n, e_mine, e_base = _common(mine, base)
        pool = int(n[-1])

        def utilization(b: np.ndarray, m: np.ndarray, what: str, n: np.ndarray = n,
                        pool: int = pool) -> float:
            u = data_utilization(n, m, n, b, pool_size=pool)
            value = getattr(u, what)
            return float("nan") if value is None else float(value)

        statistics: dict[str, Any] = {"examples_to_target": partial(utilization, what="examples")}
        if system != baseline:
            statistics.update(utilization_ratio=partial(utilization, what="ratio"),
                              top20_error_reduction=_top20, error_reduction=_all_points)
        for name, statistic in statistics.items():
            low, high = bootstrap_interval(statistic, e_base, e_mine)
            rows.append({"dataset": dataset, "system": system, "statistic": name, "low": low, "high": high})
    return pd.DataFrame(rows, columns=["dataset", "system", "statistic", "low", "high"])


def _fmt(value: Any, spec: str = ".2f") -> str:
    return "–" if value is None or (isinstance(value, float) and np.isnan(value)) else format(value, spec)


def _utilization_table(summary: pd.DataFrame, systems: Sequence[str]) -> tuple[list[str], list[list[str]]]:
    header = ["Dataset", "Pool", *(display_name(s) for s in systems), "Target err. (%)"]
    body = []
    counts = {}
    for dataset, rows in summary.groupby("dataset", sort=False):
        by = rows.set_index("system")
        cells = []
        for s in systems:
            if s not in by.index:
                cells.append("")
                continue
            count = by.at[s, "examples_to_target"]
            cells.append("-" if pd.isna(count) else f"{int(count)} ({by.at[s, 'utilization_ratio']:.2f})")
        counts[dataset] = {s: by.at[s, "examples_to_target"] if s in by.index else None for s in systems}
        body.append([str(dataset), str(int(rows["pool_size"].iloc[0])), *cells,
                     _fmt(rows["target_error"].iloc[0])])  # fmt: skip
    wins = number_of_wins(counts, lower_is_better=True) if counts else pd.Series(dtype=int)
    body.append(["No. of wins", "", *(str(int(wins.get(s, 0))) for s in systems), ""])
    return header, body


def _reduction_table(summary: pd.DataFrame, others: Sequence[str], column: str,
                     significant: str) -> tuple[list[str], list[list[str]]]:
    header = ["Dataset", *(display_name(s) for s in others)]
    body, values = [], {}
    for dataset, rows in summary.groupby("dataset", sort=False):
        by = rows.set_index("system")
        cells = []
        for s in others:
            if s not in by.index:
                cells.append("")
                continue
            v = by.at[s, column]
            cells.append(f"**{v:.2f}**" if by.at[s, significant] else _fmt(v))
        values[dataset] = {s: by.at[s, column] if s in by.index else None for s in others}
        body.append([str(dataset), *cells])
    means = pd.DataFrame.from_dict(values, orient="index")
    body.append(["Mean", *(_fmt(means[s].mean()) if s in means else "" for s in others)])
    wins = number_of_wins(values, lower_is_better=False) if values else pd.Series(dtype=int)
    body.append(["No. of wins", *(str(int(wins.get(s, 0))) for s in others)])
    return header, body


def _published(paths: Sequence[str]) -> pd.DataFrame:
    """The published rows, with NaN where the file leaves a key empty (no dataset: a row over
    all datasets; no system: a property of the dataset such as its pool size)."""
    rows = read_published(paths)
    keys = ["comparison", "dataset", "system"]
    return rows.assign(**{k: rows[k].where(rows[k] != "") for k in keys})


#: reproduced summary column -> published statistic
_STATISTICS = {
    "examples_to_target": "examples_to_target",
    "utilization_ratio": "utilization_ratio",
    "top20_error_reduction": "top20_error_reduction",
    "error_reduction": "error_reduction",
}


def _published_system(published: pd.DataFrame, labels: Mapping[str, str]) -> pd.Series:
    """Published system names as this experiment's labels (``active_decorate`` may be labelled
    otherwise in another file); systems of other tables stay as they are."""
    return published["system"].fillna("").map(lambda s: labels.get(s, s))


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
    pub = published[published["table"].isin(tables) & published["dataset"].notna()
                     & published["statistic"].isin(list(_STATISTICS.values()))].copy()  # fmt: skip
    pub["system"] = _published_system(pub, labels)
    # The baseline's own ratio is 1 by definition: not a reproduced number.
    pub = pub[~((pub["statistic"] == "utilization_ratio") & (pub["system"] == baseline))]
    mine = summary.set_index(["dataset", "system"]) if len(summary) else summary
    rows = []
    for _, cell in pub.iterrows():
        column = next(k for k, v in _STATISTICS.items() if v == cell["statistic"])
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
    lows, highs, statuses = [], [], []
    for _, cell in frame.iterrows():
        key = (cell["dataset"], cell["system"], cell["statistic"])
        low, high = (bounds.loc[key, ["low", "high"]] if bounds is not None and key in bounds.index
                     else (np.nan, np.nan))  # fmt: skip
        lows.append(float(low))
        highs.append(float(high))
        statuses.append(cell_status(cell["published"], cell["reproduced"], float(low), float(high),
                                    ran=(cell["dataset"], cell["system"]) in ran, tolerance=PRINTED_ROUNDING))
    frame["low"], frame["high"], frame["status"] = lows, highs, statuses
    return frame


def _comparable(settings: ReportSettings, cells: pd.DataFrame) -> tuple[bool, str]:
    """Whether counting conclusions against the dissertation's is meaningful, and why not."""
    return comparability(settings.scale, cells["dataset"],
                         cells.loc[cells["status"].isin(REPRODUCED), "dataset"])  # fmt: skip


def wdl_comparability(scale: str | None, wdl: pd.DataFrame, datasets: Sequence[str]) -> tuple[bool, str]:
    """Comparability for a table that prints only w/d/l counts (Table 7.4, early learning).

    Such a table names no dataset; its counts say how many datasets it covers (w + d + l), and
    a run of the source's protocol on at least that many is as comparable as one whose cells
    are named.
    """
    counts = wdl.assign(value=pd.to_numeric(wdl["value"], errors="coerce"))
    covered = int(counts.groupby(["table", "comparison", "metric"])["value"].sum().max())
    return comparability(scale, [], datasets, unnamed_published=covered)


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
            p = pub[(pub["table"] == table) & (pub["statistic"] == statistic) & pub["dataset"].notna()]
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
            p = pub[(pub["table"] == table) & (pub["statistic"] == statistic) & pub["dataset"].notna()]
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
                     & pub["dataset"].notna()]  # fmt: skip
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


def _ran(records: pd.DataFrame, settings: ReportSettings) -> list[str]:
    """The experiment's datasets that have records, in the file's order."""
    return [d for d in settings.datasets if d in set(records["dataset"])]


def write_active_report(records: pd.DataFrame, out: ReportOutputs, settings: ReportSettings) -> ReplicationReport:
    """Chapter 6: Tables 6.1–6.4 layouts of ``report.others`` over ``report.baseline``, the
    learning curves, and reproduced vs published (the ``active`` kind's ``utilization``
    report)."""
    report = settings.report
    baseline = report.get("baseline")
    others = list(report.get("others", []))
    datasets = _ran(records, settings)
    if baseline is None:
        raise ValueError(f"experiment {settings.experiment}: the utilization report needs "
                         "report.baseline (the random-sampling system) and report.others; "
                         "chapter 7's comparisons are report variant probability")
    summary = active_summary(records, baseline, others, datasets)
    _write_utilization_outputs(records, summary, out, settings, baseline, others, datasets)
    published = _published(list(settings.published))
    labels = {s: s for s in [baseline, *others]}
    tables = _tables_of(published, {baseline, *others})
    intervals = active_intervals(records, baseline, others, datasets) if tables else None
    cells = replication_cells(summary, published, tables, labels, baseline, intervals)
    cells = with_known_disagreements(cells, known_disagreements_for(list(settings.published)))
    conclusions = active_conclusions(summary, published, baseline, others, labels, tables)
    comparable, why = _comparable(settings, cells) if len(cells) else (False, "no published values")
    lines = [f"# Replication report: {settings.experiment} (scale {settings.scale})", ""]
    runs = sorted(records["run"].unique())
    folds = records["fold"].nunique()
    lines += [f"This run: {len(datasets)} datasets, {len(runs)} run(s) of {folds}-fold CV. The "
              f"dissertation: {THESIS_RUNS} runs of {THESIS_FOLDS}-fold CV on the datasets of "
              "its tables.", ""]  # fmt: skip
    lines += comparability_lines(comparable, why)
    lines += _utilization_conclusion_lines(conclusions, comparable)
    if len(cells):
        done = cells[cells["status"].isin(REPRODUCED)]
        lines += agreement_lines(cells, signed=("top20_error_reduction", "error_reduction"))
        lines += ["## Cells", "", f"{len(done)} of {len(cells)} published cells reproduced; median "
                  f"|difference| {_fmt(done['difference'].abs().median())}.", "",
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
                                   _fmt(r["agreement"]), _fmt(r["trivial_agreement"]),
                                   "" if r["holds"] is pd.NA else str(r["holds"]),
                                   "" if r["trivial_holds"] is pd.NA else str(r["trivial_holds"])]
                                  for _, r in shown.iterrows()]), ""]  # fmt: skip
    return lines

def _wdl(outcomes: pd.Series) -> str:
    o = outcomes.dropna()
    return f"{int((o > 0).sum())}/{int((o == 0).sum())}/{int((o < 0).sum())}"


def _probability_tables(cells: pd.DataFrame) -> list[str]:
    """The lines of ``probability_tables.md``: per table (7.1–7.4) its comparisons' cells per
    dataset, bold where significant, and the w/d/l of significant results."""
    text = []
    for table, group in cells.groupby("table", sort=False):
        names = list(dict.fromkeys(group["comparison"]))
        header = ["Dataset", *(f"% MSE red. {n}" for n in names), *(f"% AULC inc. {n}" for n in names)]
        body = []
        for dataset, rows in group.groupby("dataset", sort=False):
            by = rows.set_index("comparison")

            def cell(n: str, name: str, by: pd.DataFrame = by) -> str:
                v, o = by.at[n, name], by.at[n, f"{name}_outcome"]
                return "–" if pd.isna(v) else (f"**{v:.2f}**" if o != 0 else f"{v:.2f}")

            body.append([str(dataset), *(cell(n, "mse_reduction") for n in names),
                         *(cell(n, "aulc_increase") for n in names)])  # fmt: skip
        body.append(["w/d/l", *(_wdl(group[group["comparison"] == n]["mse_reduction_outcome"]) for n in names),
                     *(_wdl(group[group["comparison"] == n]["aulc_increase_outcome"]) for n in names)])  # fmt: skip
        text += [f"# Table {table} layout", "", "Bold: significant (paired t-test over runs × folds, "
                 "p < 0.05); w/d/l counts significant results only.", "", markdown_table(header, body), ""]  # fmt: skip
    return text


def _probability_replication(cells: pd.DataFrame, pub: pd.DataFrame,
                             settings: ReportSettings) -> pd.DataFrame:
    """Reproduced vs published, one row per published per-dataset cell (``pub``): the value
    with its interval and status, the known disagreements marked."""
    rows = []
    for _, p in pub.iterrows():
        mine = cells[(cells["table"] == p["table"]) & (cells["comparison"] == p["comparison"])
                     & (cells["dataset"] == p["dataset"])]  # fmt: skip
        name = p["statistic"]
        value, low, high = ((float(mine.iloc[0][name]), float(mine.iloc[0][f"{name}_low"]),
                             float(mine.iloc[0][f"{name}_high"])) if len(mine) else (np.nan,) * 3)  # fmt: skip
        rows.append({"table": p["table"], "comparison": p["comparison"], "dataset": p["dataset"],
                     "statistic": name, "published": float(p["value"]), "reproduced": value,
                     "low": low, "high": high,
                     "status": cell_status(float(p["value"]), value, low, high, ran=bool(np.isfinite(value)),
                                           tolerance=PRINTED_ROUNDING)})  # fmt: skip
    replication = pd.DataFrame(rows, columns=["table", "comparison", "dataset", "statistic",
                                              "published", "reproduced", "low", "high", "status"])  # fmt: skip
    replication.insert(6, "difference", replication["reproduced"] - replication["published"])
    return with_known_disagreements(replication, known_disagreements_for(list(settings.published)),
                                    system="comparison")


def _probability_conclusions(cells: pd.DataFrame, wdl: pd.DataFrame,
                             replication: pd.DataFrame) -> pd.DataFrame:
    """Per published w/d/l row (``wdl``: table × comparison × metric): the reproduced w/d/l,
    the sign agreement of the shared cells, and whether the W > L side holds."""
    conclusions = []
    for (table, comparison, metric), w in wdl.groupby(["table", "comparison", "metric"], sort=False):
        counts = w.set_index("statistic")["value"].astype(int)
        name = PROBABILITY_MEASURES[metric][0]
        mine = cells[(cells["table"] == table) & (cells["comparison"] == comparison)]
        ours = mine[f"{name}_outcome"].dropna()
        shared = replication[(replication["table"] == table) & (replication["comparison"] == comparison)
                             & (replication["statistic"] == name) & replication["status"].isin(REPRODUCED)]  # fmt: skip
        agree, trivial, _ = sign_agreement(shared["reproduced"], shared["published"])
        pub_side = int(np.sign(counts.get("sig_w", 0) - counts.get("sig_l", 0)))
        our_side = int(np.sign((ours > 0).sum() - (ours < 0).sum())) if len(ours) else None
        conclusions.append({"table": table, "comparison": comparison, "metric": metric,
                            "published_wdl": f"{counts.get('sig_w', 0)}/{counts.get('sig_d', 0)}/{counts.get('sig_l', 0)}",
                            "reproduced_wdl": _wdl(ours) if len(ours) else "",
                            "sign_agreement": agree, "trivial_agreement": trivial,
                            "holds": pd.NA if our_side is None else our_side == pub_side,
                            # "A is better than B" predicts W > L: it holds where the thesis has W > L
                            "trivial_holds": pd.NA if our_side is None else pub_side == 1})  # fmt: skip
    return pd.DataFrame(conclusions, columns=["table", "comparison", "metric", "published_wdl",
                                              "reproduced_wdl", "sign_agreement",
                                              "trivial_agreement", "holds", "trivial_holds"])  # fmt: skip


def _probability_conclusion_lines(conclusions: pd.DataFrame, comparable: bool) -> list[str]:
    """The replication report's conclusions section: how many W > L sides hold (only when
    comparable) and the table of published vs reproduced w/d/l."""
    counts = []
    if comparable:
        prediction = '"A is better than B"'
        counts = [f"All tables: {held_sentence(conclusions['holds'], conclusions['trivial_holds'], 'W > L sides', prediction)}."]
        counts += [f"Table {t}: {held_sentence(g['holds'], g['trivial_holds'], 'W > L sides', prediction)}."
                   for t, g in conclusions.groupby("table", sort=False)]  # fmt: skip
        counts = [" ".join(counts), ""]
    return ["## Conclusions (w/d/l of significant results)", "", *counts,
            "*sign agreement*: share of datasets whose value has the published sign; *trivial*: "
            "what always predicting an improvement would score.", "",
            markdown_table(["Table", "A vs B", "Metric", "W/D/L pub.", "W/D/L rep.", "Sign agreement",
                            "Trivial", "W > L side holds"],
                           [[r["table"], r["comparison"], r["metric"], r["published_wdl"],
                             r["reproduced_wdl"], _fmt(r["sign_agreement"]), _fmt(r["trivial_agreement"]),
                             "not comparable" if not comparable else
                             ("" if r["holds"] is pd.NA else str(r["holds"]))]
                            for _, r in conclusions.iterrows()]), ""]  # fmt: skip


def write_probability_report(records: pd.DataFrame, out: ReportOutputs,
                             settings: ReportSettings) -> ReplicationReport:
    """Chapter 7: Tables 7.1–7.4 layouts of ``report.comparisons``, learning curves of MSE,
    reproduced vs published (the ``active`` kind's ``probability`` report)."""
    comparisons = list(settings.report["comparisons"])
    datasets = _ran(records, settings)
    records, aulc = aulc_reading(records)
    cells = probability_comparisons(records, comparisons, datasets)
    tables_dir, figures_dir = Path(out.tables), Path(out.figures)
    cells.to_csv(tables_dir / "probability_comparisons.csv", index=False, lineterminator="\n")
    text = _probability_tables(cells)
    (tables_dir / "probability_tables.md").write_text("\n".join(text), encoding="utf-8")
    systems = list(dict.fromkeys([s for c in comparisons for s in (str(c["a"]), str(c["b"]))]))
    for dataset in datasets:
        learning_curves(records, figures_dir / f"mse_curve_{dataset}", dataset=dataset,
                        algorithms=systems, metric="mse", experiment=settings.experiment,
                        xlabel="Number of labeled examples")  # fmt: skip

    published = _published(list(settings.published))
    tables = {str(c.get("table", "")) for c in comparisons}
    pub = published[published["table"].isin(tables)]
    replication = _probability_replication(cells, pub[pub["dataset"].notna()], settings)
    conclusions = _probability_conclusions(cells, pub[pub["dataset"].isna()], replication)
    if len(replication):
        comparable, why = _comparable(settings, replication)
    elif len(conclusions):
        comparable, why = wdl_comparability(settings.scale, pub[pub["dataset"].isna()], datasets)
    else:
        comparable, why = False, "no published values"
    lines = [f"# Replication report: {settings.experiment} (scale {settings.scale})", "",
             f"This run: {len(datasets)} datasets, {records['run'].nunique()} run(s) of "
             f"{records['fold'].nunique()}-fold CV. The dissertation: 10 runs of 10-fold CV on the "
             "24 datasets of chapter 7.", "",
             f"AULC: {AULC_PRIORS[aulc]} (`{aulc}`"
             + (")." if aulc == "aulc_fold" else "; these records predate `aulc_fold`, the reading "
                "the chapter's files now record).") + "", ""]  # fmt: skip
    lines += comparability_lines(comparable, why)
    if len(conclusions):
        lines += _probability_conclusion_lines(conclusions, comparable)
    done = replication[replication["status"].isin(REPRODUCED)]
    lines += agreement_lines(replication, by=("table", "comparison", "statistic"),
                             signed=PROBABILITY_STATISTICS)
    lines += ["## Cells", "", f"{len(done)} of {len(replication)} published cells reproduced; median "
              f"|difference| {_fmt(done['difference'].abs().median()) if len(done) else '–'}.", ""]
    if len(replication):
        lines += cells_lines(replication, ["table", "comparison", "dataset", "statistic"])
    return ReplicationReport("\n".join(lines), replication, conclusions, comparable)


def _reduction_cells(records: pd.DataFrame, comparisons: Sequence[Mapping[str, Any]],
                     datasets: Sequence[str]) -> tuple[pd.DataFrame, list[str]]:
    """Per comparison ``{a, b, table}`` that ran: A's reductions over B per dataset with
    their 95 % intervals (``error_reductions.csv``), and the lines of its table layout."""
    frames, text = [], []
    ran = set(records["algorithm"])
    for entry in comparisons:
        a, b, table = str(entry["a"]), str(entry["b"]), str(entry.get("table", ""))
        if not {a, b} <= ran:  # a slice (--config algorithms=...) without one of the two
            continue
        summary = active_summary(records, b, [a], datasets)
        mine = summary[summary["system"] == a].assign(table=table, comparison=f"{a}_vs_{b}")
        bounds = active_intervals(records, b, [a], datasets)
        for statistic in ("error_reduction", "top20_error_reduction"):
            rows = bounds[(bounds["system"] == a) & (bounds["statistic"] == statistic)].set_index("dataset")
            mine = mine.assign(**{f"{statistic}_{end}": mine["dataset"].map(rows[end]) for end in ("low", "high")})
        frames.append(mine)
        body = [[str(r["dataset"]),
                 (f"**{r['error_reduction']:.2f}**" if r["error_reduction_significant"] else _fmt(r["error_reduction"])),
                 (f"**{r['top20_error_reduction']:.2f}**" if r["top20_significant"] else _fmt(r["top20_error_reduction"]))]
                for _, r in mine.iterrows()]  # fmt: skip
        body.append(["Mean", _fmt(mine["error_reduction"].mean()), _fmt(mine["top20_error_reduction"].mean())])
        text += [f"# Table {table} layout: {display_name(a)} over {display_name(b)}", "",
                 "Bold: significant (paired t-test over runs × folds, p < 0.05).", "",
                 markdown_table(["Dataset", "% Error reduction", "Top-20 % error reduction"], body), ""]  # fmt: skip
    cells = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()
    return cells, text


def _reduction_replication(cells: pd.DataFrame, pub: pd.DataFrame,
                           settings: ReportSettings) -> pd.DataFrame:
    """Reproduced vs published, one row per public published cell (``pub``): a significance
    flag agrees only when equal, a reduction when inside its interval."""
    rows = []
    for _, p in pub.iterrows():
        match = cells[(cells["table"] == p["table"]) & (cells["dataset"] == p["dataset"])] if len(cells) else cells
        column = {"significant": "error_reduction_significant"}.get(p["statistic"], p["statistic"])
        value = float(match.iloc[0][column]) if len(match) and column in match.columns else np.nan
        low, high = ((float(match.iloc[0][f"{column}_low"]), float(match.iloc[0][f"{column}_high"]))
                     if len(match) and f"{column}_low" in match.columns else (np.nan, np.nan))  # fmt: skip
        # a significance flag agrees only when equal; a reduction when inside its interval
        rows.append({"table": p["table"], "dataset": p["dataset"], "statistic": p["statistic"],
                     "published": float(p["value"]), "reproduced": value, "low": low, "high": high,
                     "status": cell_status(float(p["value"]), value, low, high, ran=bool(len(match)),
                                           tolerance=PRINTED_ROUNDING if np.isfinite(low) else 0.0)})  # fmt: skip
    replication = pd.DataFrame(rows, columns=["table", "dataset", "statistic", "published", "reproduced",
                                              "low", "high", "status"])  # fmt: skip
    replication.insert(5, "difference", replication["reproduced"] - replication["published"])
    return with_known_disagreements(replication, known_disagreements_for(list(settings.published)))


def _reduction_conclusions(replication: pd.DataFrame, tables: set[str]) -> pd.DataFrame:
    """Per table: do the reductions have the published signs, and are the published
    significant ones significant again (on the reproduced cells)?"""
    conclusions = []
    for table in sorted(tables):
        shared = replication[(replication["table"] == table) & replication["status"].isin(REPRODUCED)]
        red = shared[shared["statistic"] == "error_reduction"]
        sig = shared[shared["statistic"] == "significant"]
        if len(red):
            signs = sign_agreement(red["reproduced"], red["published"])
            conclusions.append({"table": table, "claim": "sign of the error reduction per dataset",
                                "published": f"{int((red['published'] > 0).sum())} of {len(red)} positive",
                                "reproduced": f"{int((red['reproduced'] > 0).sum())} of {len(red)} positive",
                                "agreement": signs.agreement, "trivial_agreement": signs.trivial,
                                "holds": pd.NA})  # fmt: skip
        if len(sig):
            conclusions.append({"table": table, "claim": "the reductions are significant",
                                "published": f"{int(sig['published'].sum())} of {len(sig)}",
                                "reproduced": f"{int(sig['reproduced'].sum())} of {len(sig)}",
                                "agreement": float((sig["published"] == sig["reproduced"]).mean()),
                                "trivial_agreement": float((sig["published"] == 1).mean()),
                                "holds": bool((sig["reproduced"] == sig["published"]).all())})  # fmt: skip
    return pd.DataFrame(conclusions, columns=["table", "claim", "published", "reproduced",
                                              "agreement", "trivial_agreement", "holds"])  # fmt: skip


def write_reduction_report(records: pd.DataFrame, out: ReportOutputs, settings: ReportSettings, *,
                           xlabel: str) -> ReplicationReport:
    """Tables 8.2/8.3 layouts: % error reduction of A over B (all points; top 20 %).

    One table per ``report.comparisons`` entry ``{a, b, table}``; cells as in Table 6.2/6.4
    (:func:`active_summary`), bold where significant; reproduced vs published, with the
    published rows whose data are not public listed as such rather than as failures.
    """
    comparisons = list(settings.report.get("comparisons", []))
    datasets = _ran(records, settings)
    tables_dir, figures_dir = Path(out.tables), Path(out.figures)
    cells, text = _reduction_cells(records, comparisons, datasets)
    cells.to_csv(tables_dir / "error_reductions.csv", index=False, lineterminator="\n")
    (tables_dir / "reduction_tables.md").write_text("\n".join(text), encoding="utf-8")
    systems = list(dict.fromkeys(s for c in comparisons for s in (str(c["a"]), str(c["b"]))))
    for dataset in datasets:
        learning_curves(records, figures_dir / f"curve_{dataset}", dataset=dataset,
                        algorithms=systems, experiment=settings.experiment, xlabel=xlabel)

    published = _published(list(settings.published))
    tables = {str(c.get("table", "")) for c in comparisons}
    pub = published[published["table"].isin(tables) & published["dataset"].notna()]
    note = pub["note"] if "note" in pub.columns else pd.Series("", index=pub.index)
    private = pub[note.fillna("").str.contains("not public")]
    pub = pub[~pub.index.isin(private.index)]
    replication = _reduction_replication(cells, pub, settings)
    comparable, why = _comparable(settings, replication) if len(replication) else (False, "no published values")
    conclusions = _reduction_conclusions(replication, tables)
    lines = [f"# Replication report: {settings.experiment} (scale {settings.scale})", "",
             f"This run: {len(datasets)} datasets, {records['run'].nunique()} run(s) of "
             f"{records['fold'].nunique()}-fold CV.", ""]  # fmt: skip
    lines += comparability_lines(comparable, why)
    if len(private):
        names = sorted(set(private["dataset"]))
        lines += [f"Published rows whose data are not public (not failures): {', '.join(names)} "
                  f"({private['note'].iloc[0]}).", ""]  # fmt: skip
    if len(conclusions):
        lines += ["## Conclusions", "", markdown_table(
            ["Table", "Claim", "Published", "Reproduced", "Agreement", "Trivial", "Holds"],
            [[r["table"], r["claim"], r["published"], r["reproduced"], _fmt(r["agreement"]),
              _fmt(r["trivial_agreement"]),
              "not comparable" if not comparable else ("" if r["holds"] is pd.NA else str(r["holds"]))]
             for _, r in conclusions.iterrows()]), ""]  # fmt: skip
    done = replication[replication["status"].isin(REPRODUCED)]
    lines += agreement_lines(replication, signed=("error_reduction", "top20_error_reduction"))
    lines += ["## Cells", "", f"{len(done)} of {len(replication)} published UCI cells reproduced.", ""]
    if len(replication):
        lines += cells_lines(replication, ["table", "dataset", "statistic"])
    return ReplicationReport("\n".join(lines), replication, conclusions, comparable)
