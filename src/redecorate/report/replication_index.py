"""The replication report of the whole project: which of the sources' results hold.

One row per table and figure of the three sources (:mod:`redecorate.report.contents`), each
with the scale it was reproduced at, one verdict (:mod:`redecorate.report.verdicts`), the
measures behind it (:func:`redecorate.report.agreement.agreement_measures`, the same for every
chapter) and links to the experiment's own report, figures and readings; then one section
per source and chapter with a published-vs-reproduced scatter of every printed cell and its
interval, the measures per statistic and the known disagreements that explain cells.

Everything is a function of three inputs, so the committed ``reproduced/REPLICATION.md`` can
be regenerated and compared byte for byte: the records under a *records root*, the published
values with ``known_disagreements.tsv`` (``config/published/``), and the experiment files that
say which tables an experiment reproduces and what the source's protocol is. Gathering them
(reading records, asking each experiment's kind for its evidence) is
:mod:`redecorate.reproduction`'s, a floor above the kinds; this module turns them into rows and
text. The scale is read from the records: runs (and stream orders) per system and dataset
against the thesis protocol's, and the published datasets with a reproduced cell. Nothing
depends on the time, the machine or the order files were written.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from redecorate.report.agreement import (
    EQUIVALENCE_MARGIN,
    REPRODUCED,
    agreement_measures,
    evidence_frame,
    known_disagreement_lines,
    significance_held,
)
from redecorate.report.contents import SOURCES, PublishedItem
from redecorate.report.markdown_html import markdown_to_html
from redecorate.report.published import OPEN_FILE, read_open_notes, read_published
from redecorate.report.tables import fmt, markdown_table
from redecorate.report.verdicts import (
    ALPHA,
    LEGEND,
    NOT_COMPARABLE,
    NOT_RUN,
    PROVISIONAL,
    VALUE_SHARE,
    VERDICTS,
    evidence_verdict,
    table_verdict,
)
from redecorate.util import atomic_dir, atomic_write

__all__ = [
    "FIGURES_DIR", "PILOT", "README_END", "README_START", "REPORT_FILE", "THESIS", "ExperimentEvidence",
    "ReplicationIndex", "Row", "Scale", "build_index", "readme_block", "render_index", "summary_line",
    "with_readme_block", "write_figures", "write_report",
]

REPORT_FILE = "REPLICATION.md"
"""At the root of the records it summarises (the results root, or ``reproduced/``)."""
FIGURES_DIR = "replication_figures"
"""Beside it: one published-vs-reproduced scatter per section."""
EXPLORER_FILE = "explore.html"
"""Beside it too: every cell and curve on one page (:mod:`redecorate.report.explorer`)."""

THESIS = "thesis"
PILOT = "pilot"


@dataclass(frozen=True)
class Scale:
    """How much of the source's protocol a table's records cover."""

    status: str  # THESIS, PILOT (below the protocol) or NOT_RUN
    text: str


@dataclass(frozen=True)
class Row:
    """One table or figure with its scale, verdict, measures and evidence."""

    item: PublishedItem
    scale: Scale
    verdict: str
    on_evidence: str
    measures: Mapping[str, object]
    evidence: pd.DataFrame
    links: tuple[tuple[str, str], ...]
    open_note: str = ""
    """Why the table's disagreement is open, when it is (``open_disagreements.tsv``)."""


@dataclass(frozen=True)
class ReplicationIndex:
    """Every row, in the order of the contents file, and what the report was made from."""

    rows: tuple[Row, ...]
    experiments: tuple[str, ...] = field(default=())
    run_scale: str = THESIS
    """The scale the records were run at (see :func:`build_index`)."""
    root: str = ""
    """The records root the report was made from (``reproduced`` for the committed records)."""
    curves: pd.DataFrame = field(default_factory=pd.DataFrame)
    """Every experiment's mean accuracy by (dataset, algorithm, point): the explorer's curves."""

    @property
    def scored(self) -> tuple[Row, ...]:
        """The rows the summary counts: tables and results of the text, not figures."""
        return tuple(r for r in self.rows if not r.item.is_figure)


@dataclass(frozen=True)
class ExperimentEvidence:
    """One experiment as the index needs it: its records (None when it left none), its cells
    in the evidence layout, and the thesis protocol it is measured against."""

    name: str
    records: pd.DataFrame | None
    evidence: pd.DataFrame
    runs: int
    orders: int | None
    datasets: tuple[str, ...]
    planned_hours: Mapping[str, float] = field(default_factory=dict)
    """Dataset -> the plan's CPU hours for its units at the thesis protocol (the workflow's
    packing estimate, :func:`redecorate.kinds.jobs.plan_experiment`): what a dataset the records
    lack would cost, so that the scale says whether it is a laptop's or a cluster's job."""


def _published_datasets(published: Path, item: PublishedItem) -> list[str]:
    """The datasets the item's published values name, in file order (rows whose data are not
    public left out: nothing can reproduce them)."""
    names: list[str] = []
    for file, table in item.published:
        rows = read_published(published / file)
        rows = rows[(rows["table"] == table) & (rows["dataset"] != "") & ~rows["note"].str.contains("not public")]
        names += [d for d in dict.fromkeys(rows["dataset"]) if d not in names]
    return names


def _systems(evidence: pd.DataFrame) -> set[str]:
    return {side for system in evidence["system"] for side in str(system).split("_vs_") if side}


SCALE_COLUMNS = ("dataset", "algorithm", "run", "order")
"""The columns of the records a table's scale is counted from."""


def _scale(item: PublishedItem, experiments: Sequence[ExperimentEvidence], evidence: pd.DataFrame,
           published: Sequence[str], offline_only: set[str]) -> Scale:
    """Runs (and orders) done of the thesis protocol's, and the published datasets reproduced."""
    # Only the columns counted here: the records of a whole chapter run to millions of rows.
    frames = [e.records[[c for c in SCALE_COLUMNS if c in e.records.columns]]
              for e in experiments if e.records is not None and len(e.records)]
    if not frames:
        return Scale(NOT_RUN, "not run")
    records = pd.concat(frames, ignore_index=True)
    systems = _systems(evidence) & set(records["algorithm"].unique())
    if systems:
        records = records[records["algorithm"].isin(systems)]
    done = evidence[evidence["reproduced"].notna()]
    if item.published and done.empty:
        return Scale(NOT_RUN, "not run")
    wanted = list(published) or [d for e in experiments for d in e.datasets]
    ran = set(done["dataset"]) - {""} if published else set(records["dataset"].unique())
    records = records[records["dataset"].isin(ran)] if ran else records
    if records.empty:
        return Scale(NOT_RUN, "not run")
    parts, below = [], False
    runs = records.groupby(["dataset", "algorithm"])["run"].nunique()
    needed = max(e.runs for e in experiments)
    if runs.min() < needed:
        below = True
        more = f", up to {runs.max()} on some datasets" if runs.max() > runs.min() else ""
        parts.append(f"{runs.min()} of {needed} runs{more}")
    orders_needed = max((e.orders for e in experiments if e.orders), default=None)
    if orders_needed and "order" in records.columns:
        orders = int(records.groupby(["dataset", "algorithm"])["order"].nunique().max())
        if orders < orders_needed:
            below = True
            parts.append(f"{orders} of {orders_needed} stream orders")
    missing = [d for d in dict.fromkeys(wanted) if d not in ran]
    text = f"{PILOT}: {', '.join(parts)}" if parts else THESIS
    if missing:
        below = True
        online = [d for d in missing if d in offline_only]
        offline = [d for d in missing if d not in offline_only]
        why = "; ".join([*([f"{', '.join(online)} only on OpenML{_cost(experiments, online)}"] if online else []),
                         *([f"{', '.join(offline)} not run{_cost(experiments, offline)}"] if offline else [])])
        total = len(set(wanted))
        gap = f"not comparable: {total - len(missing)} of {total} datasets ({why})"
        text = gap if not parts else f"{text}; {gap}"
        if len(missing) == total:  # run on other datasets only (the quick scale's): nothing to judge
            return Scale(NOT_RUN, text)
    return Scale(PILOT if below else THESIS, text)


def _cost(experiments: Sequence[ExperimentEvidence], datasets: Sequence[str]) -> str:
    """``: N CPU h by the plan``: what running ``datasets`` would take, summed over the
    experiments that list them (one decimal, as the plan command prints it); empty when no
    experiment prices them."""
    hours = [e.planned_hours[d] for e in experiments for d in datasets if d in e.planned_hours]
    if not hours:
        return ""
    total = sum(hours)
    return f": {'<0.1' if total < 0.05 else f'{total:,.1f}'} CPU h by the plan"


def _links(root: Path, item: PublishedItem) -> tuple[tuple[str, str], ...]:
    """(label, path under the records root) of what exists: each experiment's report, the
    item's own links, its readings."""
    out: list[tuple[str, str]] = []
    for name in item.experiments:
        prefix = f"{name} " if len(item.experiments) > 1 else ""
        if (root / name / "replication.md").is_file():
            out.append((f"{prefix}report", f"{name}/replication.md"))
        if not item.is_figure and (root / name / "figures").is_dir():
            out.append((f"{prefix}figures", f"{name}/figures/"))
    for link in item.links:
        if (root / link).exists():
            out.append((Path(link).name or link.rstrip("/").rsplit("/", 1)[-1], link))
    for reading in item.readings:
        for page in ("readings.md", "replication.md"):
            if (root / reading / page).is_file():
                out.append((reading, f"{reading}/{page}"))
                break
    return tuple(out)


def build_index(items: Sequence[PublishedItem], experiments: Mapping[str, ExperimentEvidence], *,
                root: str | os.PathLike[str], published: str | os.PathLike[str],
                offline_only: Iterable[str] = (), run_scale: str = THESIS) -> ReplicationIndex:
    """Every row of ``items`` (:func:`redecorate.report.contents.read_contents`) with its
    scale, verdict and measures, from the ``experiments`` they name, the published values
    under ``published`` and the records root ``root`` (what to link); ``offline_only``: the
    datasets only OpenML has (a missing one is said so). ``run_scale``: the scale the records
    were run at; below the thesis's (quick, smoke, a user's own), a table with records is
    ``not comparable: <scale> scale`` (its protocol and often its datasets are not the
    source's), however its cells compare."""
    root, published, offline_only = Path(root), Path(published), set(offline_only)
    notes = read_open_notes(published / OPEN_FILE)
    rows = []
    for item in items:
        mine = [experiments[e] for e in item.experiments]
        frames = [e.evidence[e.evidence["table"].isin(item.tables)] for e in mine]
        evidence = evidence_frame(pd.concat(frames, ignore_index=True)) if frames else evidence_frame([])
        measures = agreement_measures(evidence)
        scale = _scale(item, mine, evidence, _published_datasets(published, item), offline_only)
        reproduced = bool(evidence["reproduced"].notna().any())
        on_evidence = evidence_verdict(measures) if reproduced else NOT_RUN
        verdict = table_verdict(not_comparable=bool(item.not_comparable), reproduced=reproduced,
                                scale=scale.status, on_evidence=on_evidence)
        ran = any(e.records is not None and len(e.records) for e in mine)
        if run_scale != THESIS and ran:
            text = "none of the published datasets run" if scale.text == NOT_RUN else scale.text
            scale = Scale(scale.status, f"{run_scale} scale: {text.removeprefix(f'{PILOT}: ')}")
            if not item.not_comparable:
                verdict = f"{NOT_COMPARABLE}: {run_scale} scale"
        rows.append(Row(item, scale, verdict, on_evidence, measures, evidence, _links(root, item),
                        notes.get((item.source, item.item), "")))
    # the report package's own module, loaded here alone: parsing the workflow needs none of it
    from redecorate.report.explorer import curve_summary

    summaries = [c for c in (curve_summary(name, e.records) for name, e in experiments.items()) if len(c)]
    curves = pd.concat(summaries, ignore_index=True) if summaries else pd.DataFrame()
    return ReplicationIndex(tuple(rows), tuple(experiments), run_scale, str(root), curves)


def summary_line(index: ReplicationIndex) -> str:
    """The count of every verdict over the tables (figures are listed, not counted): the
    line the README quotes."""
    # "not comparable: quick scale" counts as not comparable
    counts = pd.Series([NOT_COMPARABLE if r.verdict.startswith(NOT_COMPARABLE) else r.verdict
                        for r in index.scored]).value_counts()  # fmt: skip
    parts = ", ".join(f"{v} {int(counts.get(v, 0))}" for v in VERDICTS)
    scale = f" (records of the {index.run_scale} scale)" if index.run_scale != THESIS else ""
    return f"{len(index.scored)} published tables and results of the text{scale}: {parts}."


def _short(statistic: str) -> str:
    return statistic.replace("_", " ")


def _medians(evidence: pd.DataFrame) -> str:
    """Median |reproduced − published| of the printed cells, per statistic when several."""
    done = evidence[evidence["printed"] & evidence["status"].isin(REPRODUCED)]
    if done.empty:
        return "–"
    medians = (done["reproduced"] - done["published"]).abs().groupby(done["statistic"], sort=False).median()
    if len(medians) == 1:
        return fmt(medians.iloc[0])
    return "; ".join(f"{fmt(v)} ({_short(str(s))})" for s, v in medians.items())


def _sign(measures: Mapping[str, object]) -> str:
    if not measures["compared"]:
        return "–"
    return f"{fmt(measures['sign_agreement'])} ({fmt(measures['trivial'])}, n = {measures['compared']})"


def _p(value: object) -> str:
    """A p-value as the report prints it: three significant digits, "<0.001" below."""
    if value is None or not np.isfinite(float(value)):  # type: ignore[arg-type]
        return "–"
    v = float(value)  # type: ignore[arg-type]
    return "<0.001" if v < 0.001 else f"{v:.3f}"


def _sign_test(measures: Mapping[str, object]) -> str:
    """McNemar p with its discordant cells, and the dataset-clustered p."""
    if not measures["compared"]:
        return "–"
    return (f"{_p(measures['sign_p'])} ({measures['better']}:{measures['worse']}); "
            f"clustered {_p(measures['cluster_p'])}")


def _values(measures: Mapping[str, object]) -> str:
    """The share of printed cells within their difference interval, and how many."""
    if not measures["value_cells"]:
        return "–"
    return f"{fmt(measures['value_share'])} (n = {measures['value_cells']})"


def _link_text(links: Iterable[tuple[str, str]]) -> str:
    return ", ".join(f"[{label}]({path})" for label, path in links) or "–"


def _verdict_text(row: Row) -> str:
    if row.verdict == NOT_COMPARABLE and row.item.not_comparable:
        return f"{NOT_COMPARABLE}: {row.item.not_comparable}"
    return row.verdict


def _section_slug(section: str) -> str:
    return "".join(c if c.isalnum() else "_" for c in section.lower()).strip("_").replace("__", "_")


def _figure_path(section: str) -> str:
    return f"{FIGURES_DIR}/{_section_slug(section)}.png"


def _top_tables(index: ReplicationIndex) -> list[str]:
    header = ["Source", "Table", "Experiment", "Scale", "Verdict", "On this evidence", "Median abs. diff.",
              "Sign (trivial, n)", "Sign test p (right:wrong vs trivial); clustered p", "Spearman",
              "Values within diff. interval (n)", "Sig. W > L held: paired t; corrected t", "Links"]
    body = []
    for r in index.scored:
        m = r.measures
        on = r.on_evidence if r.verdict in (PROVISIONAL, NOT_COMPARABLE) and r.on_evidence != NOT_RUN else ""
        body.append([SOURCES[r.item.source], f"{r.item.item}: {r.item.caption}", ", ".join(r.item.experiments) or "–",
                     r.scale.text, f"**{_verdict_text(r)}**", on, _medians(r.evidence), _sign(m), _sign_test(m),
                     fmt(m["spearman"]), _values(m), significance_held(r.evidence), _link_text(r.links)])  # fmt: skip
    figures = [[SOURCES[r.item.source], f"{r.item.item}: {r.item.caption}", ", ".join(r.item.experiments) or "–",
                r.scale.text, _verdict_text(r), _link_text(r.links)] for r in index.rows if r.item.is_figure]
    return ["## Tables", "", markdown_table(header, body, "l" * 6 + "r" * 6 + "l"), "",
            "## Figures", "",
            markdown_table(["Source", "Figure", "Experiment", "Scale", "Verdict", "Links"], figures, "llllll"), ""]


def _section_lines(section: str, rows: Sequence[Row]) -> list[str]:
    lines = [f"## {section}", ""]
    if _panels(rows):
        lines += [f"![Published against reproduced, {section}]({_figure_path(section)})", "",
                  "Every printed cell reproduced: the published value (x) against ours (y) with the 95 % "
                  "interval it is judged by (of the difference of the two estimates, drawn around ours; our "
                  "mean's own where a single run gives no spread); blue where the published value lies "
                  "within it, red where not; on the diagonal the two are equal.", ""]
    body = []
    for r in rows:
        if r.evidence.empty:
            continue
        for statistic, group in r.evidence.groupby("statistic", sort=False):
            if not (group["printed"].any() or group["signed"].any()):
                continue  # a conclusion shown beside the table (the corrected test), not scored
            m = agreement_measures(group)
            body.append([r.item.item, _short(str(statistic)), str(m["cells"]), str(m["reproduced"]),
                         fmt(m["median_abs_difference"]), _values(m), str(m["compared"]),
                         fmt(m["sign_agreement"]), fmt(m["trivial"]), _p(m["sign_p"]), _p(m["cluster_p"]),
                         fmt(m["spearman"]), f"{m['explained']} of {m['disagreeing']}"])  # fmt: skip
    if body:
        lines += [markdown_table(["Table", "Statistic", "Printed", "Reproduced", "Median abs. diff.",
                                  "Within diff. interval (n)", "Signed", "Sign", "Trivial", "Sign test p",
                                  "Clustered p", "Spearman", "Explained of disagreeing"], body), ""]
    notes = [note for r in rows for note in known_disagreement_lines(r.evidence, label=r.item.item)]
    if notes:
        lines += ["Known disagreements behind disagreeing cells (`config/published/known_disagreements.tsv`):", "",
                  *notes, ""]
    open_notes = [f"- **{r.item.item}**: {r.open_note}" for r in rows if r.open_note]
    if open_notes:
        lines += ["Open disagreements, why they are open and what was tried "
                  "(`config/published/open_disagreements.tsv`):", "", *open_notes, ""]
    if not body and not notes and not open_notes:
        lines += ["Nothing reproduced to set beside a published value.", ""]
    return lines


def _records_text(index: ReplicationIndex) -> str:
    """What the report was computed from: the committed records, or a run's, with its scale."""
    if Path(index.root).name == "reproduced" and index.run_scale == THESIS:
        return "the committed records beside this file (`<experiment>/records.parquet`)"
    where = f"the records of the run under `{index.root}`" if index.root else "a run's records"
    if index.run_scale == THESIS:
        return f"{where} (`<experiment>/records.parquet`, thesis scale)"
    return (f"{where} (`<experiment>/records.parquet`) at the **{index.run_scale}** scale, whose protocol is "
            "not the sources': every table it reaches is *not comparable*, whatever its cells show")


def render_index(index: ReplicationIndex) -> str:
    """``REPLICATION.md``: the summary line, the tables' and figures' rows, the legend, then
    one section per source and chapter, with its scatter where it has reproduced cells."""
    lines = [
        "# Replication report: which of the sources' results hold", "",
        "One row per table and figure that reports a result in Melville's dissertation (chapters 4–8), "
        "Oza's thesis (chapters 3–4) and Bommaganti's report (Tables 5–7, Figures 10–22), computed from "
        f"{_records_text(index)}, the published values and "
        "`known_disagreements.tsv` (`config/published/`) and the experiment files (`config/experiments/`). "
        "Every number is a function of those files; `docs/operations.md` (\"The replication report\") has "
        "the command that regenerates it.", "",
        f"**Summary.** {summary_line(index)}", "",
        *_top_tables(index),
        "## How the verdicts are decided", "",
        *_rule_lines(index),
        "*Scale*: runs (and stream orders) per system and dataset in the records against the source's "
        "protocol (the experiment file at the thesis scale), and the published datasets with a reproduced "
        "cell; those without one are named with why (only on OpenML, which an offline run cannot load, or "
        "not run) and what they would cost at that protocol by the workflow's plan (`python3 -m "
        "redecorate.plan --by-dataset`): a few CPU hours are a laptop's, a hundred a cluster's. *Median abs. diff.*: median |reproduced − published| over the printed cells (per statistic "
        "where a table prints several). *Sign*: share of the signed cells (a reduction over a baseline, or "
        "the difference between the table's two systems per dataset) with the published sign, beside what "
        "the best constant prediction scores (*trivial*) and the number of cells; *Sign test p*: the exact "
        "McNemar test of the reproduction against the trivial prediction (the cells the reproduction gets "
        "right and the trivial prediction wrong : the reverse) and the same test with each dataset's cells "
        "flipped together; *Spearman*: their rank correlation, published against reproduced, pair by pair; "
        "*Values within diff. interval*: share of the printed cells whose published value lies within the "
        "95 % interval of the difference of two noisy estimates (below), and how many have one; *Sig. W > L "
        "held*: for a table that prints Sig. W/D/L rows, at how many of its points the published side of "
        "W − L holds under the thesis's paired t-test and under the corrected resampled t-test (Nadeau & "
        "Bengio 2003), which allows for the overlap of the cross-validation folds' training sets; a "
        "conclusion that holds only under the first rests on the thesis's own test. Algorithm listings, "
        "worked examples, diagrams and dataset summaries are not results and have no row.", "",
        *LEGEND, "",
    ]  # fmt: skip
    for section, rows in _sections(index).items():
        lines += _section_lines(section, rows)
    return "\n".join(lines).rstrip("\n") + "\n"


ACCURACY_STATISTICS = ("mean", "accuracy (%)")
"""The printed statistics that are accuracies in percent (chapters 4–5, Oza's tables): the
cells an equivalence margin of one percentage point speaks of."""


def _rule_lines(index: ReplicationIndex) -> list[str]:
    """The verdict rule in one paragraph, and what an equivalence test can certify at this
    protocol, from the thesis-scale accuracy cells of the index."""
    lines = [
        "**The rule.** A verdict rests on two tests. *Signs*: the reproduction's signed cells must "
        "beat the trivial prediction (the best constant sign, given the published signs) by more than "
        f"chance, the one-sided exact McNemar test on the discordant cells at p < {ALPHA:g}; the same test "
        "with every dataset's cells flipped together is shown beside it, because the cells of one "
        "learning curve are not independent (where it is above 0.05, the sign agreement may rest on a "
        "few datasets). *Values*: a published mean is itself an estimate by the same protocol, so it is "
        "set against the 95 % interval of the *difference* of two independent estimates, "
        "rep − pub ± t·√(se_rep² + se_pub²); the sources print no standard errors, so both are estimated "
        "from the spread of our runs at the source's protocol (se = sd over runs / √runs, Student's t on "
        "runs − 1 degrees of freedom; with one run there is none, and the values are not scored). A perfect "
        f"replication puts 95 % of its cells inside; the values replicate when at least {VALUE_SHARE:.2f} "
        "are (three standard errors below 0.95 for a table of 20 cells). The bootstrap interval of our mean "
        "over runs × folds, which the experiment reports print beside each cell, answers another question "
        "(how precise our own mean is) and is narrower, since the folds of a run share training examples. "
        "`tests/test_verdicts.py` tests the rule itself: each threshold, a table exactly on it, and the "
        "mutations of it that once passed unnoticed.", ""]
    thesis = [r for r in index.scored if r.verdict not in (PROVISIONAL, NOT_RUN, NOT_COMPARABLE)]
    frames = [r.evidence[r.evidence["printed"] & r.evidence["statistic"].isin(ACCURACY_STATISTICS)] for r in thesis]
    cells = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()
    measures = agreement_measures(cells) if len(cells) else {"value_cells": 0}
    if measures["value_cells"]:
        lines += [
            f"**What equivalence can be shown.** An equivalence test (two one-sided tests at 5 %, TOST) "
            f"certifies a reproduced accuracy equal to the published one within ±{EQUIVALENCE_MARGIN:g} "
            "percentage point when the 90 % interval of their difference lies inside that margin. At the "
            f"source's protocol the 95 % difference interval of the {measures['value_cells']:,} accuracy cells "
            f"reproduced at the thesis scale has a median half-width of {fmt(measures['median_half_width'])} "
            f"points; the 90 % interval is narrower than ±{EQUIVALENCE_MARGIN:g} point for "
            f"{fmt(measures['equivalence_possible'])} of them, and equivalence within it is shown for "
            f"{fmt(measures['equivalence_shown'])}. "
            + ("So these data cannot certify agreement to within one point for most cells: "
               if float(measures["equivalence_possible"]) < 0.5 else
               "So these data can certify agreement to within one point for most cells, but ")
            + "a value *within* the difference interval means \"no detectable difference\", not \"equal\".",
            ""]
    return lines


def _panels(rows: Sequence[Row]) -> list[tuple[str, pd.DataFrame]]:
    """The scatter's panels: per (table, statistic), the printed cells reproduced."""
    panels = []
    for r in rows:
        done = r.evidence[r.evidence["printed"] & r.evidence["status"].isin(REPRODUCED)
                          & r.evidence["published"].notna()]  # fmt: skip
        panels += [(f"{r.item.item}: {_short(str(s))}", g) for s, g in done.groupby("statistic", sort=False)]
    return panels


def _sections(index: ReplicationIndex) -> dict[str, list[Row]]:
    sections: dict[str, list[Row]] = {}
    for row in index.rows:
        sections.setdefault(row.item.section, []).append(row)
    return sections


def _scatter(rows: Sequence[Row], path: Path, title: str) -> None:
    """One panel per (table, statistic) of :func:`_panels`, in one figure."""
    import matplotlib.style

    from redecorate.report.figures import new_figure, save_figure

    panels = _panels(rows)
    columns = min(4, len(panels))
    lines = -(-len(panels) // columns)
    with matplotlib.style.context("default"):
        fig = new_figure((3.2 * columns, 3.0 * lines + 0.4))
        axes = fig.subplots(lines, columns, squeeze=False).ravel()
        for ax, (label, group) in zip(axes, panels, strict=False):
            x, y = group["published"].to_numpy(), group["reproduced"].to_numpy()
            # the interval a published value is judged by: the difference interval where the
            # cell has one (ours ± its half-width), else our mean's own
            half = group["half_width"].to_numpy()
            low = np.where(np.isfinite(half), y - half, group["low"].to_numpy())
            high = np.where(np.isfinite(half), y + half, group["high"].to_numpy())
            bounded = np.isfinite(low) & np.isfinite(high)
            inside = (group["status"] == "agrees").to_numpy()
            for mask, colour in ((inside, "tab:blue"), (~inside, "tab:red")):
                # the interval as a bar (a cell's own value may lie outside it: Table 6.1's
                # counts average the folds' crossings, the interval the mean curve's)
                ax.vlines(x[mask & bounded], low[mask & bounded], high[mask & bounded], color=colour,
                          linewidth=0.6, alpha=0.6)
                ax.plot(x[mask], y[mask], "o", markersize=2.5, color=colour, alpha=0.8)
            span = np.concatenate([x, y, low[bounded], high[bounded]])
            lo, hi = float(np.nanmin(span)), float(np.nanmax(span))
            pad = 0.05 * (hi - lo or 1.0)
            ax.plot((lo - pad, hi + pad), (lo - pad, hi + pad), color="black", linewidth=0.6, linestyle="--")
            ax.set_title(f"{label} ({len(group)})", fontsize=8)
            ax.tick_params(labelsize=7)
            ax.set_xlabel("published", fontsize=7)
            ax.set_ylabel("reproduced", fontsize=7)
        for ax in axes[len(panels):]:
            ax.set_visible(False)
        fig.suptitle(title, fontsize=10)
        save_figure(fig, path.with_suffix(""), ("png",))


def write_figures(index: ReplicationIndex, directory: str | os.PathLike[str]) -> list[Path]:
    """One scatter per section that has reproduced cells, as ``directory/<section>.png``
    (``directory`` is :data:`FIGURES_DIR` beside ``REPLICATION.md``, which links them)."""
    written = []
    for section, rows in _sections(index).items():
        if _panels(rows):
            path = Path(directory) / Path(_figure_path(section)).name
            _scatter(rows, path, section)
            written.append(path)
    return written


def write_report(index: ReplicationIndex, root: str | os.PathLike[str], *,
                 page: str | os.PathLike[str] | None = None) -> list[Path]:
    """Write ``REPLICATION.md`` and its figures (:data:`FIGURES_DIR`) under ``root`` and, with
    ``page``, the report as an HTML page with the figures embedded; returns the files written.
    Each file is replaced only once complete."""
    root = Path(root)
    with atomic_dir(root / FIGURES_DIR) as staged:
        drawn = write_figures(index, staged)
    text = render_index(index)
    written = [atomic_write(root / REPORT_FILE, lambda tmp: tmp.write_text(text, encoding="utf-8"))]
    written += [root / FIGURES_DIR / p.name for p in drawn]
    from redecorate.report.explorer import write_explorer  # plotly, for this page alone

    written.append(write_explorer(index, index.curves, summary_line(index), root / EXPLORER_FILE))
    if page is not None:
        html = markdown_to_html(text, "Replication report", images=root)
        written.append(atomic_write(page, lambda tmp: tmp.write_text(html, encoding="utf-8")))
    return written


README_START = "<!-- replication summary, generated by tools/replication_report.py: do not edit -->"
README_END = "<!-- end of the replication summary -->"


def readme_block(summary: str, report: str) -> str:
    """What a README quotes of the report: its summary line and where the report is
    (``report``: the path of ``REPLICATION.md`` from the README), between the markers that
    :func:`with_readme_block` finds."""
    return (f"{README_START}\n**Which of the sources' results hold** ([`{report}`]({report}): one verdict per "
            f"published table, regenerated from the committed records): {summary}\n{README_END}")


def with_readme_block(text: str, block: str, where: str) -> str:
    """``text`` (a README) with its generated block replaced by ``block``.

    Raises:
        ValueError: the README (``where``) lacks the markers.
    """
    start, end = text.find(README_START), text.find(README_END)
    if start < 0 or end < start:
        raise ValueError(f"{where}: no replication summary block (a line {README_START!r}, the "
                         f"summary, then {README_END!r}); add the two marker lines where it belongs")
    return text[:start] + block + text[end + len(README_END):]
