"""Report of the ``online`` kind: Oza's Tables 3.3–3.11, Figures 3.4–3.10, and reproduced vs
published.

**Tables.** Accuracy tables print the fraction correct (Oza's unit) averaged over runs ×
folds for a batch algorithm and runs × folds × orders for an online one. Oza's typography is
bold / italic for an ensemble significantly better / worse than its single model and ``*`` for
an algorithm significantly better than its batch (online) counterpart; here ``+`` / ``−`` and
``*``. The test is not given (spec A16): here a paired t-test at α = 0.05 over the runs × folds
splits, an online algorithm's value per split being its mean over the orders (so batch and
online are paired by split). Running-time tables print the mean seconds to train one model on a
training fold and test it on its test fold (Oza's 600 MHz machine makes only ratios
comparable).

**Reproduced vs published.** Every printed cell beside ours (``replication.csv``), and per
table the claims the tables carry, each beside what a prediction that ignores the data scores
(:mod:`redecorate.report.conclusions`): *batch vs online* — the sign of batch − online per
dataset (trivial: "batch always better") and the mean |batch − online| in points, Oza's
"performed comparably"; *ensemble vs single model* — the sign of ensemble − single (trivial:
"the ensemble always wins"); for running times, the online/batch time ratio per dataset, its
median beside the published median, and the rank correlation of the ratios.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from redecorate.protocol.settings import ReportSettings
from redecorate.report.agreement import (
    evidence_frame,
    explanations,
    mean_intervals,
    printed_cells,
    signed_differences,
    with_agreement_section,
)
from redecorate.report.conclusions import (
    comparability,
    comparability_lines,
    rank_correlation,
    sign_agreement,
)
from redecorate.report.curves import ran_datasets
from redecorate.report.figures import annotate_points, new_figure, outside_legend, save_figure
from redecorate.report.published import read_disagreements, read_published
from redecorate.report.replication_report import ReplicationReport
from redecorate.report.tables import fmt, markdown_table

if TYPE_CHECKING:
    from redecorate.protocol.settings import ReportOutputs

__all__ = ["ALPHA", "evidence", "online_conclusions", "online_statistics", "paired_significance", "table_pairs",
           "write_report"]

ALPHA = 0.05
"""Significance level of the tables' markers (Oza's is garbled; spec A16 reads 0.05)."""

_CELL = ["table", "dataset", "system", "metric", "published", "reproduced", "difference", "status", "note"]


def online_statistics(records: pd.DataFrame) -> pd.DataFrame:
    """Per (dataset, algorithm): mean accuracy as a fraction, mean training seconds, results."""
    acc = records[records["metric"] == "accuracy"]
    grouped = acc.groupby(["dataset", "algorithm"], sort=True)
    out = grouped.agg(accuracy=("value", "mean"), seconds=("fit_seconds", "mean"),
                      results=("value", "size")).reset_index()  # fmt: skip
    out["accuracy"] = out["accuracy"] / 100.0
    return out


def _per_split(records: pd.DataFrame) -> pd.DataFrame:
    """Accuracy per (dataset, algorithm, run, fold): an online algorithm's mean over its orders."""
    acc = records[records["metric"] == "accuracy"]
    return acc.groupby(["dataset", "algorithm", "run", "fold"], sort=True)["value"].mean().reset_index()


def paired_significance(splits: pd.DataFrame, dataset: str, a: str, b: str, alpha: float = ALPHA) -> int:
    """+1 if ``a`` is significantly more accurate than ``b`` on ``dataset`` (paired t-test over
    the splits both ran), −1 if significantly less, 0 otherwise (or with < 2 common splits)."""
    from scipy.stats import ttest_rel

    here = splits[splits["dataset"] == dataset]
    pair = (here[here["algorithm"] == a].set_index(["run", "fold"])["value"].rename("a").to_frame()
            .join(here[here["algorithm"] == b].set_index(["run", "fold"])["value"].rename("b"), how="inner"))
    if len(pair) < 2:
        return 0
    diff = pair["a"] - pair["b"]
    if np.allclose(diff, diff.iloc[0]):  # no variance: significant only if they differ at all
        return int(np.sign(diff.iloc[0])) if diff.iloc[0] != 0 else 0
    p = ttest_rel(pair["a"], pair["b"]).pvalue
    return int(np.sign(diff.mean())) if p < alpha else 0


def table_pairs(labels: Sequence[str], mapping: Mapping[str, Sequence[str]]) -> list[tuple[str, str]]:
    """(label, partner) for each column of a table whose partner (its single model or its
    online counterpart, from ``mapping``) is also a column of that table."""
    pairs = []
    for label in labels:
        partner = next((p for p in mapping.get(label, ()) if p in labels), None)
        if partner is not None:
            pairs.append((label, partner))
    return pairs


def _tables(settings: ReportSettings) -> tuple[dict[str, list[str]], set[str]]:
    """The tables (``report.tables``; default one of every algorithm) and the time tables."""
    tables = {str(t): list(labels) for t, labels in (settings.report.get("tables") or {}).items()}
    if not tables:
        tables = {"all": list(settings.algorithms)}
    return tables, {str(t) for t in settings.options.time_tables}


def _reproduced_tables(stats: pd.DataFrame, splits: pd.DataFrame, settings: ReportSettings,
                       datasets: Sequence[str]) -> tuple[pd.DataFrame, str]:
    """Long form (csv) and Markdown of the reproduced tables with their markers."""
    tables, time_tables = _tables(settings)
    own = settings.options
    by = stats.set_index(["dataset", "algorithm"])
    published = bool(settings.published)
    names = ", ".join(tables)
    rows, md = [], [f"# Batch and online ensembles (Oza 2001, Tables {names})", "",
                    "Accuracy tables: fraction correct, mean over runs × folds (batch) or runs × "
                    "folds × stream orders (online). `+` / `−`: the ensemble is significantly "
                    "better / worse than its single model (Oza's bold / italic); `*`: "
                    "significantly better than its batch (online) counterpart; paired t-test, "
                    f"α = {ALPHA}, over the cross-validation splits. Time tables: mean seconds to "
                    "train one model on a training fold and test it.", ""]  # fmt: skip
    for table, labels in tables.items():
        timed = table in time_tables
        singles = table_pairs(labels, own.single_models)
        counterparts = table_pairs(labels, own.counterparts)
        body = []
        for dataset in datasets:
            cells = []
            for label in labels:
                if (dataset, label) not in by.index:
                    cells.append("–")
                    continue
                cell = by.loc[(dataset, label)]
                marks = ""
                if not timed:
                    for ens, single in singles:
                        if ens == label:
                            marks += {1: "+", -1: "−"}.get(paired_significance(splits, dataset, ens, single), "")
                    for batch, online in counterparts:
                        if label in (batch, online):
                            other = online if label == batch else batch
                            if paired_significance(splits, dataset, label, other) == 1:
                                marks += "*"
                value = cell["seconds"] if timed else cell["accuracy"]
                rows.append({"table": table, "dataset": dataset, "system": label,
                             "metric": "seconds" if timed else "fraction_correct", "value": value,
                             "results": int(cell["results"]), "markers": marks})  # fmt: skip
                cells.append(fmt(value, 2 if timed else 4) + marks)
            if any(c != "–" for c in cells):
                body.append([dataset, *cells])
        if body:
            kind = "running times (seconds)" if timed else "fraction correct"
            status = "replicated" if published else "replicated; no published values"
            md += [f"## Table {table} ({status}): {kind}", "",
                   markdown_table(["Dataset", *labels], body), ""]
    frame = pd.DataFrame(rows, columns=["table", "dataset", "system", "metric", "value", "results", "markers"])
    return frame, "\n".join(md)


def _scatter_figures(stats: pd.DataFrame, settings: ReportSettings, figures: Path) -> int:
    """Figs. 3.4–3.10: test error (%) of the batch algorithm (x) and its online counterpart
    (y), one dot per dataset; above the diagonal online is worse."""
    import matplotlib.style

    tables, time_tables = _tables(settings)
    counterparts = settings.options.counterparts
    wide = stats.pivot_table(index="dataset", columns="algorithm", values="accuracy")
    drawn: set[tuple[str, str]] = set()
    for table, labels in tables.items():
        if table in time_tables:
            continue
        for batch, online in table_pairs(labels, counterparts):
            if (batch, online) in drawn or batch not in wide or online not in wide:
                continue
            drawn.add((batch, online))
            pair = (100.0 * (1.0 - wide[[batch, online]])).dropna()
            with matplotlib.style.context("default"):
                fig = new_figure((4.6, 4.8))
                ax = fig.add_subplot()
                ax.scatter(pair[batch], pair[online], label=f"{len(pair)} datasets")
                hi = max(5.0, float(pair.to_numpy().max()) * 1.05) if len(pair) else 50.0
                ax.plot((0, hi), (0, hi), color="black", linewidth=0.8, linestyle="--", label="equal error")
                ax.set_xlim(0, hi)
                ax.set_ylim(0, hi)
                ax.set_aspect("equal")
                annotate_points(ax, [(str(d), float(x), float(y)) for d, (x, y) in pair.iterrows()])
                ax.set_xlabel(f"Test error of {batch} (%)")
                ax.set_ylabel(f"Test error of {online} (%)")
                ax.set_title(f"{batch} vs {online}", fontsize=10)
                outside_legend(fig, ax)
                save_figure(fig, figures / f"online_scatter_{batch}_vs_{online}", ("png", "pdf"))
    return len(drawn)


def _published(paths: Sequence[str]) -> pd.DataFrame:
    rows = read_published(paths)
    rows = rows[rows["metric"].isin(["fraction_correct", "seconds"])]
    means = rows[rows["statistic"] == "mean"][["table", "dataset", "system", "metric", "value", "printed", "note"]]
    stars = rows[rows["statistic"] == "star"][["table", "dataset", "system"]].assign(star=True)
    out = means.merge(stars, on=["table", "dataset", "system"], how="left")
    return out.assign(star=out["star"].fillna(False).astype(bool))


def _pair_measures(ours: pd.DataFrame, pub: pd.DataFrame, pairs: list[tuple[str, str]],
                   measure: Callable[[pd.DataFrame, str, str], pd.Series]):
    """For each pair (a, b) both sides ran: a, b and ``measure`` of it per common dataset,
    reproduced and published."""
    o = ours.pivot_table(index="dataset", columns="system", values="value")
    p = pub.pivot_table(index="dataset", columns="system", values="value")
    for a, b in pairs:
        if not {a, b} <= set(o.columns) or not {a, b} <= set(p.columns):
            continue
        datasets = sorted(set(o.index) & set(p.index))
        yield a, b, measure(o.loc[datasets], a, b), measure(p.loc[datasets], a, b)


def _pair_claims(table: str, ours: pd.DataFrame, pub: pd.DataFrame, pairs: list[tuple[str, str]],
                 claim: str, trivial: str) -> list[dict[str, Any]]:
    """Sign agreement of a − b per dataset (accuracy points) and the mean |a − b|."""
    rows = []
    for a, b, rep, pubd in _pair_measures(ours, pub, pairs, lambda f, a, b: 100.0 * (f[a] - f[b])):
        agree = sign_agreement(rep, pubd)
        known = rep.notna() & pubd.notna()
        rows.append({"table": table, "claim": claim, "a": a, "b": b, "datasets": agree.compared,
                     "published": f"{a} ahead on {int((pubd[known] > 0).sum())}, mean |diff| "
                                  f"{pubd[known].abs().mean():.2f} points",
                     "reproduced": f"{a} ahead on {int((rep[known] > 0).sum())}, mean |diff| "
                                   f"{rep[known].abs().mean():.2f} points",
                     "agreement": agree.agreement, "trivial_agreement": agree.trivial,
                     "trivial_prediction": trivial,
                     "rank_correlation": rank_correlation(rep, pubd)})  # fmt: skip
    return rows


def online_conclusions(ours: pd.DataFrame, published: pd.DataFrame,
                       settings: ReportSettings) -> pd.DataFrame:
    """The tables' claims tested on the reproduction (see the module docstring)."""
    tables, time_tables = _tables(settings)
    own = settings.options
    rows: list[dict[str, Any]] = []
    for table, labels in tables.items():
        mine = ours[ours["table"] == table]
        pub = published[published["table"] == table]
        if mine.empty or pub.empty:
            continue
        counterparts = table_pairs(labels, own.counterparts)
        if table in time_tables:
            ratios = _pair_measures(mine, pub, [(online, batch) for batch, online in counterparts],
                                    lambda f, a, b: np.log(f[a] / f[b]))
            for online, batch, rep, pubr in ratios:
                agree = sign_agreement(rep, pubr)
                rows.append({"table": table, "claim": "online slower than batch (time ratio)",
                             "a": online, "b": batch, "datasets": agree.compared,
                             "published": f"median ratio {np.exp(pubr.median()):.2f}",
                             "reproduced": f"median ratio {np.exp(rep.median()):.2f}",
                             "agreement": agree.agreement, "trivial_agreement": agree.trivial,
                             "trivial_prediction": "online always slower",
                             "rank_correlation": rank_correlation(rep, pubr)})  # fmt: skip
            continue
        rows += _pair_claims(table, mine, pub, counterparts, "batch vs online (sign per dataset)",
                             "batch always better")
        rows += _pair_claims(table, mine, pub, table_pairs(labels, own.single_models),
                             "ensemble vs single model (sign per dataset)", "ensemble always better")
    return pd.DataFrame(rows, columns=["table", "claim", "a", "b", "datasets", "published", "reproduced",
                                       "agreement", "trivial_agreement", "trivial_prediction",
                                       "rank_correlation"])


@dataclass(frozen=True)
class _Comparison:
    """One run's reproduced tables and the published cells beside them."""

    datasets: list[str]
    stats: pd.DataFrame
    frame: pd.DataFrame
    markdown: str
    published: pd.DataFrame
    cells: pd.DataFrame


def _comparison(records: pd.DataFrame, settings: ReportSettings) -> _Comparison:
    """The reproduced tables (with their markers) and, where the source prints values, every
    published cell of them beside its reproduction (empty otherwise)."""
    datasets = ran_datasets(records, settings)
    stats = online_statistics(records)
    frame, md = _reproduced_tables(stats, _per_split(records), settings, datasets)
    published = _published(settings.published) if settings.published else pd.DataFrame()
    cells = pd.DataFrame(columns=_CELL)
    if not published.empty:
        tables, _ = _tables(settings)
        published = published[published["table"].isin(tables)]
        cells = published.merge(frame[["table", "dataset", "system", "value"]].rename(columns={"value": "reproduced"}),
                                on=["table", "dataset", "system"], how="left")
        cells = cells.rename(columns={"value": "published"})
        scale = np.where(cells["metric"] == "fraction_correct", 100.0, 1.0)
        cells["difference"] = (cells["reproduced"] - cells["published"]) * scale
        cells["status"] = np.select([cells["published"].isna(), cells["reproduced"].isna()],
                                    ["illegible in the source", "not run"], "ok")
    return _Comparison(datasets, stats, frame, md, published, cells)


def _evidence(records: pd.DataFrame, found: _Comparison, settings: ReportSettings) -> pd.DataFrame:
    """The legible published cells printed with their intervals (fraction correct in percent,
    like every accuracy of the other chapters; seconds as printed), and signed: per dataset
    batch − online and ensemble − single model (accuracy), online − batch (seconds)."""
    cells = found.cells[found.cells["published"].notna()] if len(found.cells) else found.cells
    if cells.empty:
        return evidence_frame([])
    percent = np.where(cells["metric"] == "fraction_correct", 100.0, 1.0)
    cells = cells.assign(published=cells["published"] * percent, reproduced=cells["reproduced"] * percent,
                         statistic=np.where(percent == 100.0, "accuracy (%)", "seconds"))
    cells["explanation"] = explanations(cells, read_disagreements(settings.disagreements))
    acc = records[records["metric"] == "accuracy"]
    intervals = pd.concat([mean_intervals(acc, ["dataset", "algorithm"]).assign(statistic="accuracy (%)"),
                           mean_intervals(acc, ["dataset", "algorithm"], value="fit_seconds").assign(statistic="seconds")])
    printed = evidence_frame(printed_cells(cells.drop(columns="status"), intervals.rename(columns={"algorithm": "system"}),
                                           ["dataset", "system", "statistic"]))  # fmt: skip
    tables, time_tables = _tables(settings)
    own = settings.options
    pairs = []
    for table, labels in tables.items():
        if table in time_tables:
            pairs += [(table, online, batch) for batch, online in table_pairs(labels, own.counterparts)]
        else:
            pairs += [(table, a, b) for a, b in [*table_pairs(labels, own.counterparts),
                                                 *table_pairs(labels, own.single_models)]]
    return evidence_frame(pd.concat([printed, signed_differences(printed, pairs)], ignore_index=True))


def evidence(records: pd.DataFrame, settings: ReportSettings) -> pd.DataFrame:
    """Every legible published cell of the experiment's tables beside its reproduction
    (:data:`redecorate.report.agreement.EVIDENCE_COLUMNS`), without writing anything."""
    return _evidence(records, _comparison(records, settings), settings)


def write_report(records: pd.DataFrame, out: ReportOutputs, settings: ReportSettings) -> ReplicationReport:
    """Tables and scatter plots of one ``online`` run (written to ``out.tables`` and
    ``out.figures``), and its reproduced vs published comparison (returned)."""
    found = _comparison(records, settings)
    datasets, frame, published, cells = found.datasets, found.frame, found.published, found.cells
    tables_dir, figures_dir = Path(out.tables), Path(out.figures)
    frame.to_csv(tables_dir / "online_tables.csv", index=False, lineterminator="\n")
    (tables_dir / "online_tables.md").write_text(found.markdown, encoding="utf-8")
    print(f"{_scatter_figures(found.stats, settings, figures_dir)} figures")

    orders = int(records["order"].max()) + 1 if "order" in records and len(records) else 1
    lines = [f"# Replication report: {settings.experiment} (scale {settings.scale})", "",
             f"This run: {len(datasets)} datasets, {records['run'].nunique()} run(s) of "
             f"{records['fold'].nunique()}-fold CV, online algorithms over {orders} stream "
             "order(s). Oza: 10 runs of 5-fold CV, 5 orders, 100 members, 14 datasets "
             "(trees on the 8 smallest).", ""]  # fmt: skip
    if not settings.published:
        lines += ["**No published values**: the seed stops before these tables' numbers, so the "
                  "reproduced tables (`tables/online_tables.md`) stand alone and no conclusion is "
                  "counted.", ""]
    if published.empty:
        return ReplicationReport(markdown="\n".join(lines), cells=pd.DataFrame(columns=_CELL),
                                 conclusions=online_conclusions(frame, frame.iloc[:0], settings),
                                 comparable=False)  # fmt: skip
    comparable, why = comparability(settings.scale, cells["dataset"], datasets)
    conclusions = online_conclusions(frame, published, settings)
    lines += comparability_lines(comparable, why)
    done = cells[cells["status"] == "ok"]
    per_table = []
    for table, group in done.groupby("table", sort=False):
        unit = "seconds (ratio reproduced/published)" if group["metric"].iloc[0] == "seconds" \
            else "accuracy points"
        if unit.startswith("seconds"):
            ratio = (group["reproduced"] / group["published"]).median()
            per_table.append([table, str(len(group)), unit, f"median ratio {fmt(ratio, 3)}"])
        else:
            per_table.append([table, str(len(group)), unit, f"median |diff| {fmt(group['difference'].abs().median())}"])
    missing = cells[cells["status"] != "ok"].groupby(["table", "status"]).size()
    lines += ["## Conclusions", "",
              "*Agreement*: share of datasets where the reproduction has the published sign "
              "(which of the two is more accurate, or slower); *trivial*: what the prediction "
              "in the last column scores on the same datasets; *rank corr.*: Spearman's "
              "correlation of the differences (accuracy) or log time ratios, reproduced "
              "against published.", "",
              markdown_table(["Table", "Claim", "A", "B", "Datasets", "Published", "Reproduced",
                              "Agreement", "Trivial", "Rank corr.", "Trivial prediction"],
                             [[r["table"], r["claim"], r["a"], r["b"], str(r["datasets"]), r["published"],
                               r["reproduced"], fmt(r["agreement"]), fmt(r["trivial_agreement"]),
                               fmt(r["rank_correlation"]), r["trivial_prediction"]]
                              for _, r in conclusions.iterrows()]), "",
              "## Cells per table", "",
              markdown_table(["Table", "Cells compared", "Unit", "Reproduced vs published"], per_table), "",
              ("Cells not compared: " + "; ".join(f"table {t}: {n} {s}" for (t, s), n in missing.items())
               if len(missing) else "Every published cell was compared."), "",
              "## Cell by cell", "",
              markdown_table(["Table", "Dataset", "System", "Published", "Reproduced", "Difference", "Status"],
                             [[r["table"], r["dataset"], r["system"],
                               r["printed"] if pd.isna(r["published"]) else fmt(r["published"], 4),
                               fmt(r["reproduced"], 4), fmt(r["difference"]), r["status"]]
                              for _, r in cells.iterrows()]), ""]  # fmt: skip
    markdown = with_agreement_section("\n".join(lines), _evidence(records, found, settings))
    return ReplicationReport(markdown=markdown, cells=cells[_CELL], conclusions=conclusions, comparable=comparable)
