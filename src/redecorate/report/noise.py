"""Chapter 5 tables, figures and the reproduced-vs-published report.

The dissertation's Tables 5.2–5.10 have the layout of Tables 4.2–4.5 with *noise levels*
as columns, and "A vs B" pairs that are not always "DECORATE vs other" (Table 5.6 is
"Bagging vs J48"). The record's ``point`` is the noise level for ``kind: noise``, so the
comparison statistics and renderers of :mod:`redecorate.report.tables` apply unchanged;
this module only supplies what they cannot express — the Chapter 5 caption, the test-fold
size (their ``infer_n_test`` assumes the largest point is a % of the training fold) and the
published values — by *calling* them. The ``noise`` kind (:mod:`redecorate.kinds.noise`)
writes its report with it.

Published values are read from ``config/published/ch5_tables_5.2-5.10.tsv`` (one row per
table × dataset × noise level: both accuracies and the recovered bold flags, empty when the
extraction lost them; spec Part 0.1) and ``ch5_summary_5.2-5.10.tsv`` (Sig. W/D/L and GM
error ratio per table × noise level).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, fields
from os import PathLike
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from redecorate.report.agreement import (
    evidence_frame,
    explanations,
    mean_intervals,
    printed_cells,
    signed_differences,
    significance_rows,
    with_agreement_section,
)
from redecorate.report.conclusions import (
    Agreement,
    comparability,
    comparability_lines,
    held_sentence,
    sign_agreement,
    trivial_holds,
)
from redecorate.report.figures import learning_curves
from redecorate.report.published import (
    pivot_statistics,
    read_disagreements,
    read_published,
    split_comparison,
)
from redecorate.report.replication_report import ReplicationReport
from redecorate.report.tables import (
    ComparisonTable,
    comparison_table,
    display_name,
    fmt,
    markdown_table,
    render_latex,
    render_markdown,
    table_frame,
)

if TYPE_CHECKING:
    from redecorate.protocol.settings import ReportOutputs, ReportSettings

__all__ = [
    "THESIS_CH5_DATASETS",
    "NoiseComparisonTable",
    "load_published",
    "n_test_from_records",
    "noise_conclusions",
    "noise_comparison_tables",
    "replication_frame",
    "render_replication",
    "replication_comparability",
    "write_noise_figures",
    "evidence",
    "write_noise_tables",
    "write_report",
]

THESIS_CH5_DATASETS: tuple[str, ...] = (
    "autos", "balance-scale", "breast-w", "colic", "credit-a", "glass", "heart-c",
    "hepatitis", "iris", "labor", "lymph",
)  # fmt: skip
"""The 11 datasets of Table 5.1, in the row order of Tables 5.2–5.10."""

CORRUPTION_TITLES: dict[str, str] = {
    "missing": "Missing Features",
    "class": "Class Noise",
    "feature": "Feature Noise",
}
"""How the captions of Tables 5.2–5.10 name each corruption."""


@dataclass(frozen=True)
class NoiseComparisonTable(ComparisonTable):
    """A :class:`ComparisonTable` whose points are noise levels, with a thesis caption."""

    caption: str = ""

    @property
    def title(self) -> str:
        """``Table 5.2 (replicated): Missing Features: DECORATE vs J48``."""
        if self.table_number:
            return f"Table {self.table_number} (replicated): {self.caption}"
        return self.caption

    @property
    def note(self) -> str:
        """The base note, plus what the columns are."""
        return f"Columns: noise level (%). {super().note}"


def n_test_from_records(records: pd.DataFrame) -> dict[str, float]:
    """Mean test-fold size per dataset of k-fold noise records: n_train / (k − 1).

    In a noise job every level trains on the whole training fold, so ``n_train`` is
    (k − 1)/k of the data and a test fold is n_train / (k − 1) examples on average. Used by
    the corrected resampled t-test the tables report alongside the thesis's test.
    """
    out: dict[str, float] = {}
    for dataset, rows in records.groupby("dataset", sort=True):
        k = rows["fold"].nunique()
        out[str(dataset)] = float(rows["n_train"].mean()) / (k - 1) if k > 1 else float("nan")
    return out


def _promote(table: ComparisonTable, caption: str, number: str | None) -> NoiseComparisonTable:
    values = {f.name: getattr(table, f.name) for f in fields(ComparisonTable)}
    return NoiseComparisonTable(**{**values, "table_number": number}, caption=caption)


def noise_comparison_tables(
    records: pd.DataFrame,
    comparisons: Iterable[Mapping[str, Any]],
    *,
    corruption: str,
    datasets: Sequence[str] | None = None,
    levels: Sequence[float] | None = None,
    experiment: str | None = None,
    alpha: float = 0.05,
) -> list[NoiseComparisonTable]:
    """One table per ``{a, b, table}`` entry of the experiment's ``report.comparisons``."""
    n_test = n_test_from_records(records)
    tables = []
    for entry in comparisons:
        a, b = str(entry["a"]), str(entry["b"])
        table = comparison_table(
            records, a, b, datasets=datasets, points=levels, alpha=alpha,
            experiment=experiment, n_test=n_test,
        )  # fmt: skip
        caption = f"{CORRUPTION_TITLES.get(corruption, corruption)}: {display_name(a)} vs {display_name(b)}"
        tables.append(_promote(table, caption, entry.get("table")))
    return tables


def write_noise_tables(
    tables: Sequence[NoiseComparisonTable], out_dir: str | PathLike[str]
) -> list[Path]:
    """Write ``<a>_vs_<b>.md/.tex/.csv``, ``_cells.csv`` and ``comparison_summary.csv``.

    The same files as :func:`redecorate.report.tables.write_comparison_tables` writes for
    Chapter 4, so downstream readers need no special case.
    """
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    summaries = []
    for table in tables:
        texts = {
            "md": render_markdown(table),
            "tex": render_latex(table),
            "csv": table_frame(table).to_csv(index=False, lineterminator="\n"),
        }
        for suffix, text in texts.items():
            path = out / f"{table.name}.{suffix}"
            path.write_text(text, encoding="utf-8")
            written.append(path)
        cells_path = out / f"{table.name}_cells.csv"
        table.cells.to_csv(cells_path, index=False, lineterminator="\n")
        written.append(cells_path)
        summaries.append(
            table.summary.assign(comparison=table.name, table=table.table_number or "")
        )
    if summaries:
        summary = pd.concat(summaries, ignore_index=True)
        first = ["comparison", "table"]
        summary = summary[[*first, *(c for c in summary.columns if c not in first)]]
        path = out / "comparison_summary.csv"
        summary.to_csv(path, index=False, lineterminator="\n")
        written.append(path)
    return written


def write_noise_figures(
    records: pd.DataFrame,
    out_dir: str | PathLike[str],
    algorithms: Sequence[str],
    *,
    experiment: str | None = None,
    formats: Sequence[str] = ("png", "pdf"),
) -> list[Path]:
    """Figures 5.1–5.3: accuracy against noise level, one line per algorithm, per dataset."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    for dataset in sorted(map(str, records["dataset"].unique())):
        written += learning_curves(
            records, out / f"noise_curve_{dataset}", dataset=dataset, algorithms=list(algorithms),
            x="point", experiment=experiment, formats=formats, xlabel="Noise level (%)",
        )  # fmt: skip
    return written


def load_published(paths: Iterable[str | PathLike[str]]) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(cells, summary) of the Chapter 5 tables among the published values in ``paths``.

    Chapter 5's tables are pairwise: a cell is (table, comparison ``A_vs_B``, dataset, noise
    level) with both systems' mean accuracy (``a``, ``b``) and the bold the extraction kept
    (``bold_a``, ``bold_b``: 1/0, NaN where lost); ``note`` keeps the printed row label where
    it differs from the registry key. ``summary``: table, comparison, noise, Sig. W/D/L and
    GM error ratio. Rows of other layouts (per-system cells, other metrics) are ignored.
    """
    rows = read_published(list(paths))
    rows = rows[(rows["metric"] == "accuracy") & (rows["comparison"] != "")]
    paired = rows[rows["dataset"] != ""]
    keys = ["table", "comparison", "dataset", "point"]
    cells = paired[keys + ["note"]].drop_duplicates(keys).reset_index(drop=True)
    if len(cells):
        cells["algo_a"], cells["algo_b"] = split_comparison(cells["comparison"])
        value = paired.set_index([*keys, "system", "statistic"])["value"]
        for side in ("a", "b"):
            for statistic, column in (("mean", side), ("bold", f"bold_{side}")):
                index = pd.MultiIndex.from_arrays([*(cells[k] for k in keys), cells[f"algo_{side}"],
                                                   pd.Series(statistic, index=cells.index)])  # fmt: skip
                cells[column] = value.reindex(index).to_numpy()
    cells = cells.rename(columns={"point": "noise"})
    summary_rows = rows[rows["dataset"] == ""]
    summary = pivot_statistics(summary_rows, ["table", "comparison", "point"],
                               ("sig_w", "sig_d", "sig_l", "gm_ratio")).rename(columns={"point": "noise"})
    return cells, summary


def replication_frame(
    tables: Sequence[NoiseComparisonTable], published_cells: pd.DataFrame
) -> pd.DataFrame:
    """Reproduced vs published, one row per (table, dataset, noise level).

    Columns: table, comparison, dataset, noise, a_reproduced, a_published, a_difference,
    b_reproduced, b_published, b_difference, sig_reproduced (+1/0/−1 as in the comparison
    cells), sig_published (the same from the recovered bold flags; NaN where the extraction
    lost them), sig_agrees. Datasets without published values (e.g. the quick profile's
    bundled data) get NaN published columns.
    """
    rows: list[dict[str, Any]] = []
    pub = published_cells
    for table in tables:
        for _, cell in table.cells.iterrows():
            match = pd.DataFrame()
            if not pub.empty and table.table_number:
                match = pub[
                    (pub["table"] == table.table_number)
                    & (pub["dataset"] == cell["dataset"])
                    & (pub["noise"].astype(float) == float(cell["point"]))
                ]
            row: dict[str, Any] = {
                "table": table.table_number or "",
                "comparison": table.name,
                "dataset": cell["dataset"],
                "noise": cell["point"],
                "a_reproduced": cell["mean_a"],
                "b_reproduced": cell["mean_b"],
                "sig_reproduced": int(cell["sig"]),
            }
            if match.empty:
                row.update(a_published=np.nan, b_published=np.nan, sig_published=np.nan)
            else:
                published = match.iloc[0]
                bold_a, bold_b = published.get("bold_a"), published.get("bold_b")
                if pd.isna(bold_a) and pd.isna(bold_b):
                    sig = np.nan
                elif bold_a == 1:
                    sig = 1
                elif bold_b == 1:
                    sig = -1
                elif pd.isna(bold_a):
                    sig = np.nan  # only losses were recoverable (Table 5.3): a win may be lost
                else:
                    sig = 0
                row.update(a_published=float(published["a"]), b_published=float(published["b"]),
                           sig_published=sig)  # fmt: skip
            rows.append(row)
    frame = pd.DataFrame(rows)
    if frame.empty:
        return frame
    frame["a_difference"] = frame["a_reproduced"] - frame["a_published"]
    frame["b_difference"] = frame["b_reproduced"] - frame["b_published"]
    frame["sig_agrees"] = (frame["sig_reproduced"] == frame["sig_published"]).where(
        frame["sig_published"].notna()
    )
    order = [
        "table", "comparison", "dataset", "noise", "a_reproduced", "a_published", "a_difference",
        "b_reproduced", "b_published", "b_difference", "sig_reproduced", "sig_published",
        "sig_agrees",
    ]  # fmt: skip
    return frame[order]



def _side(value: float) -> int:
    return int(np.sign(value)) if pd.notna(value) else 0


def noise_conclusions(
    tables: Sequence[NoiseComparisonTable],
    replication: pd.DataFrame,
    published_summary: pd.DataFrame,
) -> pd.DataFrame:
    """Per (table, noise level): do the thesis's conclusions hold? (``replication_conclusions.csv``)

    A level's Sig. W/D/L conclusion holds when sign(wins − losses) agrees with the thesis,
    its GM conclusion when the ratio is on the thesis's side of 1; ``holds`` needs both.
    ``sig_agreement`` is the share of datasets whose significance outcome (win / draw / loss)
    agrees with the thesis's bold, where the bold survived. Columns are NA where the thesis
    prints nothing to compare with.
    """
    rows: list[dict[str, Any]] = []
    for table in tables:
        summary = table.summary.set_index("point")
        pub = pd.DataFrame()
        if not published_summary.empty and table.table_number:
            pub = published_summary[published_summary["table"] == table.table_number]
            pub = pub.assign(point=pub["noise"].astype(float)).set_index("point")
        rep = replication[replication["comparison"] == table.name] if len(replication) else replication
        for level in table.points:
            row: dict[str, Any] = {"table": table.table_number or "", "comparison": table.name,
                                   "noise": level}  # fmt: skip
            # A level the run did not reach (a smoke run's subset of the thesis levels) has a
            # summary row of NAs: nothing was reproduced there.
            r = summary.loc[level] if level in summary.index else None
            if r is not None and pd.isna(r["sig_wins"]):
                r = None
            q = pub.loc[level] if level in pub.index else None
            row["reproduced_sig_wdl"] = (
                f"{int(r['sig_wins'])}/{int(r['sig_draws'])}/{int(r['sig_losses'])}"
                if r is not None else ""
            )
            row["reproduced_sig_wdl_corrected"] = (
                f"{int(r['sig_corrected_wins'])}/{int(r['sig_corrected_draws'])}/{int(r['sig_corrected_losses'])}"
                if r is not None and pd.notna(r.get("sig_corrected_wins")) else ""
            )
            row["reproduced_gm"] = float(r["gm_error_ratio"]) if r is not None else np.nan
            known = q is not None and all(pd.notna(q.get(k)) for k in ("sig_w", "sig_d", "sig_l"))
            row["published_sig_wdl"] = (
                f"{int(q['sig_w'])}/{int(q['sig_d'])}/{int(q['sig_l'])}" if known else ""
            )
            row["published_gm"] = float(q["gm_ratio"]) if q is not None and pd.notna(q.get("gm_ratio")) else np.nan
            sig_holds = gm_holds = pd.NA
            if r is not None and known:
                sig_holds = _side(r["sig_wins"] - r["sig_losses"]) == _side(q["sig_w"] - q["sig_l"])
            if r is not None and pd.notna(row["published_gm"]) and pd.notna(row["reproduced_gm"]):
                gm_holds = _side(row["reproduced_gm"] - 1.0) == _side(row["published_gm"] - 1.0)
            row["sig_holds"], row["gm_holds"] = sig_holds, gm_holds
            row["trivial_holds"] = (
                trivial_holds(q.get("sig_w"), q.get("sig_l"), q.get("gm_ratio")) if q is not None else pd.NA
            )
            row["holds"] = (
                bool(sig_holds) and bool(gm_holds)
                if sig_holds is not pd.NA and gm_holds is not pd.NA else pd.NA
            )
            here = rep[rep["noise"] == level] if len(rep) else rep
            agree = here["sig_agrees"].dropna() if len(here) else pd.Series(dtype=float)
            row["sig_agreement"] = float(agree.mean()) if len(agree) else np.nan
            row["sig_compared"] = len(agree)
            known = here[here["sig_published"].notna()] if len(here) else here
            row["trivial_sig_agreement"] = float((known["sig_published"] == 1).mean()) if len(known) else np.nan
            winner = (sign_agreement(here["a_reproduced"] - here["b_reproduced"],
                                     here["a_published"] - here["b_published"])
                      if len(here) else Agreement(np.nan, np.nan, 0))  # fmt: skip
            row["winner_agreement"], row["trivial_winner_agreement"] = winner.agreement, winner.trivial
            row["winner_compared"] = winner.compared
            rows.append(row)
    frame = pd.DataFrame(rows)
    for col in ("sig_holds", "gm_holds", "holds", "trivial_holds"):
        if col in frame:
            frame[col] = frame[col].astype("boolean")
    return frame


def _conclusion_line(conclusions: pd.DataFrame, rep: pd.DataFrame) -> str:
    """How many of a table's conclusions hold, and how far its cells are (one sentence).

    Only levels with both a reproduced and a published value count. The median |difference|
    pools both algorithms' cells at every level, as the chapter-4 report does per table.
    """
    sig = conclusions["sig_holds"].dropna()
    gm = conclusions["gm_holds"].dropna()
    tested = conclusions["holds"].notna()
    both = held_sentence(conclusions.loc[tested, "holds"], conclusions.loc[tested, "trivial_holds"],
                         "levels' conclusions (both)")  # fmt: skip
    diffs = pd.concat([rep["a_difference"], rep["b_difference"]]).abs().dropna()
    median = fmt(diffs.median() if len(diffs) else np.nan)
    winner = sign_agreement(rep["a_reproduced"] - rep["b_reproduced"],
                            rep["a_published"] - rep["b_published"]) if len(rep) else None  # fmt: skip
    cells = (f"; the winner agrees with the thesis in {fmt(winner.agreement)} of "
             f"{winner.compared} (dataset, level) cells (\"A always wins\": "
             f"{fmt(winner.trivial)})" if winner is not None and winner.compared else "")
    return (
        f"Conclusions held: Sig. W/D/L sign {int(sig.sum())} of {len(sig)} levels, GM-ratio "
        f"side {int(gm.sum())} of {len(gm)}; {both}{cells}; median |reproduced − published| "
        f"of the table's cells: {median} points ({len(diffs)} cells)."
    )


def replication_comparability(replication: pd.DataFrame, scale: str | None) -> tuple[bool, str]:
    """Whether this run replicates the published tables: thesis scale, every published dataset."""
    if replication.empty:
        return False, "no published values"
    published = replication.loc[replication["a_published"].notna(), "dataset"]
    published = published if len(published) else pd.Series(THESIS_CH5_DATASETS)
    run = replication.loc[replication["a_reproduced"].notna(), "dataset"]
    return comparability(scale, published, run)


def render_replication(
    tables: Sequence[NoiseComparisonTable],
    replication: pd.DataFrame,
    published_summary: pd.DataFrame,
    *,
    experiment: str,
    scale: str,
) -> str:
    """Markdown: per table, the summary rows reproduced vs published and mean |Δ accuracy|."""
    comparable, why = replication_comparability(replication, scale)
    lines = [
        f"# Replication report: {experiment} (scale {scale})",
        "",
        "Reproduced vs published (dissertation Chapter 5). Columns are noise levels (%). "
        "The thesis's numbers are means over 10 runs of 10-fold CV on the 11 datasets of "
        "Table 5.1.",
        "",
        *comparability_lines(comparable, why),
    ]
    for table in tables:
        levels = list(table.points)
        header = ["", *(f"{p:g}%" for p in levels)]
        summary = table.summary.set_index("point")
        pub = pd.DataFrame()
        if not published_summary.empty and table.table_number:
            pub = published_summary[published_summary["table"] == table.table_number]
            pub = pub.assign(point=pub["noise"].astype(float)).set_index("point")
        rep = replication[replication["comparison"] == table.name]

        def pub_value(level: float, column: str, frame: pd.DataFrame = pub) -> Any:
            return frame.at[level, column] if level in frame.index else np.nan

        def wdl(level: float, frame: pd.DataFrame, keys: Sequence[str]) -> str:
            if level not in frame.index or any(pd.isna(frame.at[level, k]) for k in keys):
                return "–"
            return "/".join(str(int(frame.at[level, k])) for k in keys)

        def mean_abs(level: float, column: str, frame: pd.DataFrame = rep) -> str:
            values = frame.loc[frame["noise"] == level, column].abs().dropna()
            return fmt(values.mean()) if len(values) else "–"

        def agreement(level: float, frame: pd.DataFrame = rep) -> str:
            known = frame.loc[frame["noise"] == level, "sig_agrees"].dropna()
            return f"{int(known.sum())}/{len(known)}" if len(known) else "–"

        body = [
            ["GM error ratio, reproduced", *(fmt(summary.at[p, "gm_error_ratio"], 4)
                                             if p in summary.index else "–" for p in levels)],
            ["GM error ratio, published", *(fmt(pub_value(p, "gm_ratio"), 4) for p in levels)],
            ["Sig. W/D/L, reproduced",
             *(wdl(p, summary, ("sig_wins", "sig_draws", "sig_losses")) for p in levels)],
            ["Sig. W/D/L, published", *(wdl(p, pub, ("sig_w", "sig_d", "sig_l")) for p in levels)],
            [f"mean abs. diff. {display_name(table.baseline)} (pp)",
             *(mean_abs(p, "a_difference") for p in levels)],
            [f"mean abs. diff. {display_name(table.other)} (pp)",
             *(mean_abs(p, "b_difference") for p in levels)],
            ["significance agrees (datasets)", *(agreement(p) for p in levels)],
        ]  # fmt: skip
        lines += [f"## {table.title}", "", markdown_table(header, body)]
        mine = noise_conclusions([table], replication, published_summary)
        line = _conclusion_line(mine, rep)
        if not comparable:
            line = "For inspection only (not comparable): " + line[0].lower() + line[1:]
        lines += [line, ""]
        unmatched = sorted(set(rep.loc[rep["a_published"].isna(), "dataset"]))
        if unmatched:
            lines.append(f"No published values for: {', '.join(map(str, unmatched))}.\n")
    lines.append(
        "Significance: paired t-test over runs × folds, p < 0.05, as in the thesis. Published "
        "significance comes from the bold recovered from the text extraction (spec Part 0.1); "
        "it is unknown for Table 5.8 (except its 0 % column, the same experiment as Table "
        "5.2's) and for DECORATE's wins in Table 5.3.\n"
    )
    return "\n".join(lines)


def _comparison(records: pd.DataFrame, settings: ReportSettings
                ) -> tuple[list[NoiseComparisonTable], pd.DataFrame, pd.DataFrame]:
    """The comparison tables of ``report.comparisons``, their cells beside the published ones
    and the published summary rows."""
    # A slice (--config algorithms=...) may leave out a side of a comparison: not made.
    comparisons = [c for c in settings.report.get("comparisons", [])
                   if {c["a"], c["b"]} <= set(settings.algorithms)]  # fmt: skip
    tables = noise_comparison_tables(
        records, comparisons, corruption=settings.options.corruption,
        datasets=list(settings.datasets), levels=settings.points, experiment=settings.experiment,
    )  # fmt: skip
    published_cells, published_summary = load_published(list(settings.published))
    return tables, replication_frame(tables, published_cells), published_summary


def _evidence(records: pd.DataFrame, tables: Sequence[NoiseComparisonTable], replication: pd.DataFrame,
              settings: ReportSettings) -> pd.DataFrame:
    """Both systems' mean accuracies of every published (table, dataset, level), printed with
    their intervals, and A − B signed."""
    if replication.empty:
        return evidence_frame([])
    cells = []
    for table in tables:
        here = replication[(replication["comparison"] == table.name) & replication["a_published"].notna()]
        for side, system in (("a", table.baseline), ("b", table.other)):
            cells.append(pd.DataFrame({"table": here["table"], "dataset": here["dataset"], "system": system,
                                       "point": here["noise"].astype(float), "statistic": "mean",
                                       "published": here[f"{side}_published"],
                                       "reproduced": here[f"{side}_reproduced"]}))  # fmt: skip
    cells = pd.concat(cells, ignore_index=True)
    cells["explanation"] = explanations(cells, read_disagreements(settings.disagreements))
    intervals = mean_intervals(records[records["metric"] == "accuracy"], ["dataset", "algorithm", "point"])
    printed = evidence_frame(printed_cells(cells, intervals.rename(columns={"algorithm": "system"}),
                                           ["dataset", "system", "point"]))  # fmt: skip
    pairs = [(t.table_number or "", t.baseline, t.other) for t in tables]
    published_summary = load_published(list(settings.published))[1]
    conclusions = noise_conclusions(tables, replication, published_summary).rename(columns={"noise": "point"})
    return evidence_frame(pd.concat([printed, signed_differences(printed, pairs),
                                     significance_rows(conclusions, scored=False)], ignore_index=True))


def evidence(records: pd.DataFrame, settings: ReportSettings) -> pd.DataFrame:
    """Every published cell of the experiment's tables beside its reproduction
    (:data:`redecorate.report.agreement.EVIDENCE_COLUMNS`), without writing anything."""
    tables, replication, _ = _comparison(records, settings)
    return _evidence(records, tables, replication, settings)


def write_report(records: pd.DataFrame, out: ReportOutputs, settings: ReportSettings) -> ReplicationReport:
    """The ``noise`` kind's report: Tables 5.2–5.10 in the thesis's layout, Figures 5.1–5.3
    and reproduced vs published."""
    tables, replication, published_summary = _comparison(records, settings)
    print(f"{len(write_noise_tables(tables, out.tables))} table files")
    written = write_noise_figures(records, out.figures, settings.algorithms, experiment=settings.experiment)
    print(f"{len(written)} figure files")
    text = render_replication(tables, replication, published_summary, experiment=settings.experiment,
                              scale=settings.scale)  # fmt: skip
    text = with_agreement_section(text, _evidence(records, tables, replication, settings))
    comparable, _ = replication_comparability(replication, settings.scale)
    return ReplicationReport(markdown=text, cells=replication,
                             conclusions=noise_conclusions(tables, replication, published_summary),
                             comparable=comparable)  # fmt: skip
