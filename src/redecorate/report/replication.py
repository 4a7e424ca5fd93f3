"""How close the reproduction comes to the published tables (Tables 4.2–4.5 by default).

Two questions, answered separately because they can disagree:

1. **Cells.** For every published (dataset, algorithm, point) accuracy, the reproduced mean
   accuracy and the difference (reproduced − published, in percentage points), summarised
   per algorithm by the median and mean absolute difference. The median is the headline
   because a few datasets with a different preprocessing can dominate a mean.
2. **Conclusions.** For every table (DECORATE vs J48, Bagging, Random Forests, AdaBoost; or
   any "A_vs_B" summary rows, e.g. Tables 4.8–4.16) and point, does what the thesis
   concludes still hold? A conclusion *holds* when the reproduced Sig. W/D/L has the same
   sign of (wins − losses) as the published one and the reproduced GM error ratio is on the
   same side of 1. Exact counts are not expected to match; the direction is what the thesis
   argues from.

Nothing is dropped silently: a published cell without a reproduction is listed with status
``not run``, a whole comparison or point without one is a ``not run`` conclusion row, and
reproduced cells the thesis does not have are kept as ``not published``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from os import PathLike
from pathlib import Path

import numpy as np
import pandas as pd

from redecorate.report.conclusions import (
    cell_signs,
    comparability,
    comparability_lines,
    held_sentence,
    mark_comparability,
    rank_correlation,
    side,
    sign_agreement,
    trivial_holds,
)
from redecorate.report.published import (
    explain_cells,
    pivot_statistics,
    read_disagreements,
    read_published,
    split_comparison,
)
from redecorate.report.replication_report import ReplicationReport
from redecorate.report.tables import THESIS_DATASETS, display_name, fmt, markdown_table, point_label
from redecorate.stats.comparison import (
    compare_algorithms,
    error_from_accuracy,
    geometric_mean_error_ratio,
    summarise_comparison,
    win_draw_loss,
)

__all__ = [
    "PUBLISHED_CELLS_FILE",
    "PUBLISHED_SUMMARY_FILE",
    "load_published",
    "published_cells_and_summary",
    "compare_cells",
    "difference_summary",
    "check_conclusions",
    "render_replication_markdown",
    "summary_replication",
]

PUBLISHED_CELLS_FILE = "ch4_tables_4.2-4.5.tsv"
"""Published mean accuracies per dataset × algorithm × point (Tables 4.2–4.5)."""
PUBLISHED_SUMMARY_FILE = "ch4_summary_4.2-4.5.tsv"
"""Published summary rows per comparison × point: W/D/L, Sig. W/D/L, GM error ratio."""

CONCLUSION_COLUMNS: tuple[str, ...] = (
    "table", "comparison", "baseline", "other", "point", "n_datasets", "published_wdl",
    "reproduced_wdl", "published_sig_wdl", "reproduced_sig_wdl", "published_gm",
    "reproduced_gm", "published_gm_same_datasets", "sig_holds", "gm_holds", "holds",
    "trivial_holds", "winner_agreement", "trivial_winner_agreement", "winner_compared", "status",
    "reproduced_sig_wdl_corrected", "sig_holds_corrected",
)  # fmt: skip
"""Columns of :func:`check_conclusions` (and of ``replication_conclusions.csv``)."""

NOT_RUN = "not run"
NOT_PUBLISHED = "not published"
CELL_KEYS = ["dataset", "algorithm", "point"]
SUMMARY_STATISTICS = ("wdl_w", "wdl_d", "wdl_l", "sig_w", "sig_d", "sig_l", "gm_ratio")
"""The statistics of a printed summary row ("Win/Draw/Loss", "Sig. W/D/L", "GM error ratio")."""


def _published_paths(published: str | PathLike[str] | Iterable[str | PathLike[str]]) -> list[Path]:
    if isinstance(published, str | PathLike):
        base = Path(published)
        if base.is_dir():
            return [base / PUBLISHED_CELLS_FILE, base / PUBLISHED_SUMMARY_FILE]
        return [base]
    return [Path(p) for p in published]


def published_cells_and_summary(rows: pd.DataFrame, metric: str = "accuracy") -> tuple[pd.DataFrame, pd.DataFrame]:
    """The rows of this report among published values (:func:`~redecorate.report.published.read_published`).

    ``cells``: per-system means of ``metric`` per dataset and point (no comparison: Tables
    4.2–4.6), columns table, dataset, algorithm, point, published. ``summary``: the summary
    rows of ``A_vs_B`` comparisons over all datasets, one row per (table, comparison, point)
    with the :data:`SUMMARY_STATISTICS` as columns plus ``baseline`` and ``other``
    (``decorate_unlabeled_vs_j48`` → ``decorate_unlabeled``, ``j48``). Other rows (Table
    4.7's diversity counts, Chapter 5's paired cells) belong to other reports.
    """
    mine = rows[rows["metric"] == metric]
    cell = mine[(mine["comparison"] == "") & (mine["dataset"] != "") & (mine["statistic"] == "mean")]
    cell = cell.rename(columns={"system": "algorithm", "value": "published"})
    cell = cell[["table", *CELL_KEYS, "published"]].reset_index(drop=True)
    summary_rows = mine[(mine["comparison"] != "") & (mine["dataset"] == "")
                        & mine["statistic"].isin(SUMMARY_STATISTICS)]  # fmt: skip
    summary = pivot_statistics(summary_rows, ["table", "comparison", "point"], SUMMARY_STATISTICS)
    summary["baseline"], summary["other"] = split_comparison(summary["comparison"])
    return cell, summary


def load_published(
    published: str | PathLike[str] | Iterable[str | PathLike[str]],
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Read published cells and summary rows; returns ``(cells, summary)``.

    ``published`` is a directory (``config/published``: reads the Tables 4.2–4.5 pair
    :data:`PUBLISHED_CELLS_FILE` and :data:`PUBLISHED_SUMMARY_FILE`) or a list of
    published-values files, e.g. an experiment's ``report.published`` entries (see
    :func:`published_cells_and_summary` for which rows count).
    """
    return published_cells_and_summary(read_published(_published_paths(published)))


def _reproduced_means(
    summary: pd.DataFrame,
    metric: str,
    experiment: str | None,
    dataset_aliases: Mapping[str, str] | None,
) -> pd.DataFrame:
    """One reproduced mean per (dataset, algorithm, point), in published dataset names."""
    rows = summary
    if "metric" in rows.columns:
        rows = rows[rows["metric"] == metric]
    if experiment is not None:
        rows = rows[rows["experiment"] == experiment]
    rows = rows.rename(columns={"mean": "reproduced"})[CELL_KEYS + ["reproduced"]].copy()
    if dataset_aliases:
        rows["dataset"] = rows["dataset"].replace(dict(dataset_aliases))
    rows["point"] = rows["point"].astype(float)
    dup = rows.duplicated(CELL_KEYS)
    if dup.any():
        example = rows.loc[dup, CELL_KEYS].iloc[0].to_dict()
        raise ValueError(
            f"several reproduced means for one cell, e.g. {example}; the summary mixes "
            "experiments, pass experiment=... to choose one"
        )
    return rows


def compare_cells(
    summary: pd.DataFrame,
    published: pd.DataFrame,
    *,
    metric: str = "accuracy",
    experiment: str | None = None,
    dataset_aliases: Mapping[str, str] | None = None,
) -> pd.DataFrame:
    """Published vs reproduced mean accuracy, cell by cell.

    ``summary`` has at least dataset, algorithm, point and mean (the output of
    :func:`~redecorate.stats.summary.summarise` works as is); ``published`` is the first
    frame of :func:`load_published`. ``dataset_aliases`` maps reproduced dataset names to
    the thesis's names if they differ. Columns: table, dataset, algorithm, point, published,
    reproduced, difference (reproduced − published), status (``ok``, ``not run`` or
    ``not published``: a dataset or point of a published algorithm that the thesis does not
    have; algorithms without any published cell are left out). Rows are in thesis order:
    algorithm, Table 4.1 dataset order, point.
    """
    mine = _reproduced_means(summary, metric, experiment, dataset_aliases)
    mine = mine[mine["algorithm"].isin(set(published["algorithm"]))]
    cells = published[["table", *CELL_KEYS, "published"]].merge(mine, on=CELL_KEYS, how="outer")
    cells["difference"] = cells["reproduced"] - cells["published"]
    cells["status"] = np.select(
        [cells["published"].isna(), cells["reproduced"].isna()],
        [NOT_PUBLISHED, NOT_RUN],
        default="ok",
    )
    order = {d: i for i, d in enumerate(THESIS_DATASETS)}
    cells["_order"] = cells["dataset"].map(order).fillna(len(order))
    cells = cells.sort_values(["algorithm", "_order", "dataset", "point"], kind="stable")
    return cells.drop(columns="_order").reset_index(drop=True)


def difference_summary(cells: pd.DataFrame) -> pd.DataFrame:
    """Per algorithm (and ``all``): how many published cells were reproduced, and how well.

    Columns: algorithm, n_published, n_compared, n_not_run, median_abs_difference,
    median_abs_difference_unexplained (without the cells a known disagreement explains,
    column ``explained``), mean_abs_difference, mean_difference (the signed mean shows a
    systematic bias, e.g. a learner that is uniformly a little weaker than Weka's).
    """
    published = cells[cells["status"] != NOT_PUBLISHED]

    def one(name: str, rows: pd.DataFrame) -> dict[str, object]:
        done = rows[rows["status"] == "ok"]
        abs_diff = done["difference"].abs()
        known = done["explained"] != "" if "explained" in done else pd.Series(False, index=done.index)
        unexplained = abs_diff[~known]
        return {
            "algorithm": name,
            "n_published": len(rows),
            "n_compared": len(done),
            "n_not_run": int((rows["status"] == NOT_RUN).sum()),
            "median_abs_difference": abs_diff.median() if len(done) else np.nan,
            "median_abs_difference_unexplained": unexplained.median() if len(unexplained) else np.nan,
            "mean_abs_difference": abs_diff.mean() if len(done) else np.nan,
            "mean_difference": done["difference"].mean() if len(done) else np.nan,
        }

    rows = [one(str(a), g) for a, g in published.groupby("algorithm", sort=True)]
    rows.append(one("all", published))
    return pd.DataFrame(rows)




def _significance_by_pair(
    records: pd.DataFrame | None,
    published_summary: pd.DataFrame,
    table_datasets: set[str],
    *,
    metric: str,
    alpha: float,
    experiment: str | None,
    dataset_aliases: Mapping[str, str] | None,
) -> dict[tuple[str, str], pd.DataFrame]:
    """Reproduced Sig. W/D/L per point (indexed by point) of every published (baseline,
    other) pair that both ran, over the published tables' datasets: the significance test
    needs the per-split records, so without them there is none."""
    sig_by_pair: dict[tuple[str, str], pd.DataFrame] = {}
    if records is None:
        return sig_by_pair
    if dataset_aliases:
        records = records.assign(dataset=records["dataset"].replace(dict(dataset_aliases)))
    algos = set(records["algorithm"].unique())
    pairs = published_summary[["baseline", "other"]].drop_duplicates()
    for a, b in pairs.itertuples(index=False):
        if a in algos and b in algos:
            cells = compare_algorithms(
                records, a, b, metric=metric, alpha=alpha, experiment=experiment
            )
            if table_datasets:
                cells = cells[cells["dataset"].isin(table_datasets)]
            sig_by_pair[(a, b)] = summarise_comparison(cells).set_index("point")
    return sig_by_pair


def _conclusion_row(
    pub: pd.Series,
    wide_mine: pd.DataFrame,
    wide_pub: pd.DataFrame,
    table_datasets: set[str],
    sig_by_pair: Mapping[tuple[str, str], pd.DataFrame],
) -> dict[str, object]:
    """One published summary row (table × point) beside its reproduction: ``not run`` when
    no dataset has both systems at that point, else :func:`_reproduced_conclusion`."""
    a, b, point = str(pub["baseline"]), str(pub["other"]), float(pub["point"])
    row: dict[str, object] = {
        "table": pub["table"],
        "comparison": pub["comparison"],
        "baseline": a,
        "other": b,
        "point": point,
        "published_wdl": _wdl_text(pub, "wdl_"),
        "published_sig_wdl": _wdl_text(pub, "sig_"),
        "published_gm": float(pub["gm_ratio"]),
        "trivial_holds": trivial_holds(pub["sig_w"], pub["sig_l"], pub["gm_ratio"]),
        "winner_agreement": np.nan, "trivial_winner_agreement": np.nan, "winner_compared": 0,
    }  # fmt: skip
    both = pd.DataFrame()
    if a in wide_mine and b in wide_mine:
        at_point = wide_mine.index.get_level_values("point") == point
        both = wide_mine.loc[at_point, [a, b]].droplevel("point").dropna()
        if table_datasets:
            both = both[both.index.isin(table_datasets)]
    row["n_datasets"] = len(both)
    if both.empty:
        row.update(status=NOT_RUN, reproduced_wdl="", reproduced_sig_wdl="")
        row.update(reproduced_gm=np.nan, published_gm_same_datasets=np.nan)
        row.update(sig_holds=pd.NA, gm_holds=pd.NA, holds=pd.NA, reproduced_sig_wdl_corrected="",
                   sig_holds_corrected=pd.NA)
        return row
    _reproduced_conclusion(row, pub, (a, b, point), both, wide_pub, sig_by_pair.get((a, b)))
    return row


def _reproduced_conclusion(row: dict[str, object], pub: pd.Series, pair_point: tuple[str, str, float],
                           both: pd.DataFrame, wide_pub: pd.DataFrame, sig: pd.DataFrame | None) -> None:
    """Fill ``row``'s reproduced side from ``both`` systems' means on the shared datasets
    (``pair_point``: A, B and the point): W/D/L, GM ratio (and the published one over the
    same datasets), winner agreement, and whether the GM and Sig. W/D/L conclusions hold
    (``no records`` without a significance test)."""
    a, b, point = pair_point
    acc_a, acc_b = both[a].to_numpy(), both[b].to_numpy()
    row["reproduced_wdl"] = str(win_draw_loss(acc_a, acc_b))
    gm = geometric_mean_error_ratio(error_from_accuracy(acc_a), error_from_accuracy(acc_b))
    row["reproduced_gm"] = gm
    row["published_gm_same_datasets"] = _published_gm(wide_pub, a, b, point, both.index)
    if a in wide_pub and b in wide_pub:
        at = wide_pub[wide_pub.index.get_level_values("point") == point].droplevel("point")
        at = at.reindex(both.index)
        agree = sign_agreement(both[a] - both[b], at[a] - at[b])
        row.update(winner_agreement=agree.agreement, trivial_winner_agreement=agree.trivial,
                   winner_compared=agree.compared)  # fmt: skip
    row["gm_holds"] = side(gm - 1.0) == side(float(pub["gm_ratio"]) - 1.0)
    if sig is not None and point in sig.index:
        s = sig.loc[point]
        w, d, l_ = int(s["sig_wins"]), int(s["sig_draws"]), int(s["sig_losses"])
        row["reproduced_sig_wdl"] = f"{w}/{d}/{l_}"
        row["sig_holds"] = side(w - l_) == side(int(pub["sig_w"]) - int(pub["sig_l"]))
        row["holds"] = bool(row["sig_holds"]) and bool(row["gm_holds"])
        row["status"] = "ok"
        # the same conclusion under the corrected resampled t-test (not the thesis's test)
        wc, dc, lc = int(s["sig_corrected_wins"]), int(s["sig_corrected_draws"]), int(s["sig_corrected_losses"])
        row["reproduced_sig_wdl_corrected"] = f"{wc}/{dc}/{lc}"
        row["sig_holds_corrected"] = side(wc - lc) == side(int(pub["sig_w"]) - int(pub["sig_l"]))
    else:
        row.update(reproduced_sig_wdl="", sig_holds=pd.NA, holds=pd.NA, status="no records",
                   reproduced_sig_wdl_corrected="", sig_holds_corrected=pd.NA)


def check_conclusions(
    summary: pd.DataFrame,
    published_cells: pd.DataFrame,
    published_summary: pd.DataFrame,
    *,
    records: pd.DataFrame | None = None,
    metric: str = "accuracy",
    experiment: str | None = None,
    alpha: float = 0.05,
    dataset_aliases: Mapping[str, str] | None = None,
) -> pd.DataFrame:
    """Per published summary row (table × point): do its Sig. W/D/L and GM conclusions hold?

    The comparison's two systems come from its name (``decorate_vs_j48``: A = decorate,
    B = j48). Raw W/D/L and the GM error ratio are recomputed from the reproduced means, over
    the datasets where both were run (``n_datasets``). ``published_gm_same_datasets``
    recomputes the published GM over those same datasets when the published accuracies are
    available (Tables 4.2–4.5), so a partial reproduction is compared like with like. The
    Sig. W/D/L needs the per-split results: pass ``records`` (long form); without them the
    significance columns are empty and ``sig_holds``/``holds`` are NA.

    ``sig_holds``: sign(wins − losses) of the reproduced Sig. W/D/L equals the published one
    (so a published 5/5/5 needs wins = losses). ``gm_holds``: both GM ratios on the same side
    of 1. ``holds``: both. ``status``: ``ok``, ``not run`` (no dataset with both systems at
    that point) or ``no records`` (significance not testable).
    """
    mine = _reproduced_means(summary, metric, experiment, dataset_aliases)
    wide_mine = mine.pivot_table(
        index=["dataset", "point"], columns="algorithm", values="reproduced"
    )
    wide_pub = published_cells.pivot_table(
        index=["dataset", "point"], columns="algorithm", values="published", aggfunc="first"
    )
    # Which datasets count: the published tables' rows when the published cells are known,
    # otherwise every reproduced dataset (Tables 4.8–4.16 print only their summary rows).
    table_datasets = set(published_cells["dataset"])

    sig_by_pair = _significance_by_pair(records, published_summary, table_datasets, metric=metric,
                                        alpha=alpha, experiment=experiment,
                                        dataset_aliases=dataset_aliases)  # fmt: skip
    rows = [_conclusion_row(pub, wide_mine, wide_pub, table_datasets, sig_by_pair)
            for _, pub in published_summary.iterrows()]
    out = pd.DataFrame(rows, columns=list(CONCLUSION_COLUMNS))
    for col in ("sig_holds", "gm_holds", "holds", "trivial_holds", "sig_holds_corrected"):
        out[col] = out[col].astype("boolean")
    return out


def _wdl_text(row: pd.Series, prefix: str) -> str:
    values = [row.get(f"{prefix}{k}") for k in ("w", "d", "l")]
    if any(v is None or pd.isna(v) for v in values):
        return ""
    return "/".join(str(int(v)) for v in values)


def _published_gm(
    wide_pub: pd.DataFrame, a: str, b: str, point: float, datasets: pd.Index
) -> float:
    """The published GM error ratio recomputed over ``datasets``; NaN if any cell is unknown."""
    if a not in wide_pub or b not in wide_pub:
        return float("nan")
    at = wide_pub[wide_pub.index.get_level_values("point") == point].droplevel("point")
    at = at.reindex(datasets)[[a, b]]
    if at.isna().any().any():
        return float("nan")
    return geometric_mean_error_ratio(error_from_accuracy(at[a]), error_from_accuracy(at[b]))


def _flag(value: object) -> str:
    if value is None or pd.isna(value):
        return ""
    return "yes" if bool(value) else "**no**"


def _agreement(agreement: object, trivial: object) -> str:
    if agreement is None or pd.isna(agreement):
        return ""
    return f"{float(agreement):.2f} ({float(trivial):.2f})"


def _differences_section(differences: pd.DataFrame) -> list[str]:
    out = ["## Accuracy differences per algorithm", ""]
    out += ["Difference = reproduced − published mean accuracy, in percentage points.", ""]
    header = ["Algorithm", "Published cells", "Compared", "Not run", "Median abs. diff.",
              "Median abs. diff. (unexplained)", "Mean abs. diff.", "Mean diff."]  # fmt: skip
    body = [
        [
            r["algorithm"] if r["algorithm"] == "all" else display_name(str(r["algorithm"])),
            r["n_published"],
            r["n_compared"],
            r["n_not_run"],
            fmt(r["median_abs_difference"], 2, missing=""),
            fmt(r["median_abs_difference_unexplained"], 2, missing=""),
            fmt(r["mean_abs_difference"], 2, missing=""),
            fmt(r["mean_difference"], 2, missing=""),
        ]
        for _, r in differences.iterrows()
    ]
    return [*out, markdown_table(header, body)]


def _conclusions_section(conclusions: pd.DataFrame) -> list[str]:
    out = ["## Do the conclusions hold?", ""]
    tested = conclusions["holds"].notna()
    sentence = held_sentence(conclusions.loc[tested, "holds"], conclusions.loc[tested, "trivial_holds"],
                             "tested (table, point) conclusions")  # fmt: skip
    if "comparable" in conclusions and not conclusions["comparable"].all():
        sentence = "not counted, since this run is not comparable with the dissertation's"
    failed = conclusions["holds"].notna() & ~conclusions["holds"].fillna(True).astype(bool)
    if "explained_failure" in conclusions and failed.any() and "not counted" not in sentence:
        known = int(conclusions.loc[failed, "explained_failure"].fillna(False).astype(bool).sum())
        sentence += (f"; of the {int(failed.sum())} that do not, {known} fail only on datasets "
                     "with a known disagreement (section \"Known disagreements\")")
    out += [
        "A conclusion holds when sign(wins − losses) of the Sig. W/D/L and the side of 1 of "
        f"the GM error ratio both agree with the thesis. {sentence[0].upper()}{sentence[1:]}; "
        f"{int((conclusions['status'] == NOT_RUN).sum())} not run; "
        f"{int((conclusions['status'] == 'no records').sum())} without per-split records "
        "(significance not tested). *GM (same datasets)* is the published GM recomputed over "
        "the datasets that were reproduced (only where the thesis prints the accuracies). "
        "*Winner agrees*: share of the datasets at that point where the reproduced and the "
        "published mean accuracies put A and B in the same order, with, in brackets, what "
        "\"A always wins\" scores on the same datasets.",
        "",
    ]
    header = ["Table", "A vs B", "Point", "Datasets", "W/D/L pub.", "W/D/L rep.", "Sig. pub.",
              "Sig. rep.", "GM pub.", "GM rep.", "GM (same datasets)", "Sig. holds",
              "GM holds", "Holds", "Trivial holds", "Winner agrees", "Status"]  # fmt: skip
    body = [
        [
            r["table"],
            f"{display_name(str(r['baseline']))} vs {display_name(str(r['other']))}",
            point_label(float(r["point"])),
            r["n_datasets"],
            r["published_wdl"],
            r["reproduced_wdl"],
            r["published_sig_wdl"],
            r["reproduced_sig_wdl"],
            fmt(r["published_gm"], 4, missing=""),
            fmt(r["reproduced_gm"], 4, missing=""),
            fmt(r["published_gm_same_datasets"], 4, missing=""),
            _flag(r["sig_holds"]),
            _flag(r["gm_holds"]),
            _flag(r["holds"]),
            _flag(r["trivial_holds"]),
            _agreement(r["winner_agreement"], r["trivial_winner_agreement"]),
            r["status"],
        ]
        for _, r in conclusions[conclusions["status"] != NOT_RUN].iterrows()
    ]
    if not body:  # every one "not run": the sentence above says how many
        return out
    return [*out, markdown_table(header, body, "lllrllllrrrllllll")]


def explained_failures(conclusions: pd.DataFrame, cells: pd.DataFrame) -> pd.Series:
    """Per failed conclusion: does it fail only where a known disagreement lies?

    True when every dataset at that point on which the reproduced and the published means
    order A and B differently has a cell (of A or of B) with a known cause
    (``known_disagreements.tsv``, the ``explained`` column of ``cells``); False when some
    disagreeing dataset is unexplained, or none disagrees (the miss is then in the
    significance counts); NA for a conclusion that holds or was not tested. Reports count
    these failures separately, so a known implementation difference is not read as a
    failure of the method.
    """
    out = pd.Series(pd.NA, index=conclusions.index, dtype="boolean")
    if conclusions.empty or cells.empty or "explained" not in cells:
        return out
    ok = cells[cells["status"] == "ok"]
    for i, row in conclusions.iterrows():
        if pd.isna(row["holds"]) or bool(row["holds"]):
            continue
        a, b = str(row["baseline"]), str(row["other"])
        here = ok[ok["algorithm"].isin([a, b]) & (ok["point"] == float(row["point"]))]
        wide = here.pivot_table(index="dataset", columns="algorithm",
                                values=["reproduced", "published"])  # fmt: skip
        if wide.empty or ("reproduced", a) not in wide or ("reproduced", b) not in wide:
            out[i] = False
            continue
        rep = pd.Series(cell_signs(wide[("reproduced", a)] - wide[("reproduced", b)]), index=wide.index)
        pub = pd.Series(cell_signs(wide[("published", a)] - wide[("published", b)]), index=wide.index)
        disagree = set(wide.index[(rep != pub) & rep.notna() & pub.notna()])
        explained = set(here.loc[here["explained"] != "", "dataset"])
        out[i] = bool(disagree) and disagree <= explained
    return out


def per_table_summary(cells: pd.DataFrame, conclusions: pd.DataFrame) -> pd.DataFrame:
    """Per published table: how many of its conclusions hold, and how far its cells are.

    One row per (table, A vs B): the (point) conclusions tested, how many hold on the
    significant W/D/L, on the GM ratio and on both, and the median and mean
    |reproduced − published| over the compared cells of the table's two algorithms at its
    points (a table that prints no accuracies has none). Why: a reader checks a reproduction
    table by table, as the dissertation presents it; the per-algorithm summary mixes the
    shared DECORATE cells into every table.
    """
    rows = []
    if conclusions.empty:
        return pd.DataFrame(rows)
    keys = ["table", "baseline", "other"]
    for (table, a, b), group in conclusions.groupby(keys, sort=False):
        tested = group[group["holds"].notna()]
        diffs = pd.Series(dtype=float)
        rank = float("nan")
        if not cells.empty:
            rank = _difference_rank_correlation(cells, a, b, group["point"])
            mask = (
                cells["algorithm"].isin([a, b])
                & cells["point"].isin(group["point"])
                & (cells["status"] == "ok")
            )
            diffs = cells.loc[mask, "difference"].abs()
        rows.append(
            {
                "table": table,
                "comparison": f"{display_name(str(a))} vs {display_name(str(b))}",
                "tested": len(tested),
                "sig_holds": int(tested["sig_holds"].astype(bool).sum()),
                "gm_holds": int(tested["gm_holds"].astype(bool).sum()),
                "holds": int(tested["holds"].astype(bool).sum()),
                "trivial_holds": int(tested["trivial_holds"].astype(bool).sum()),
                "winner_agreement": _weighted(tested, "winner_agreement"),
                "trivial_winner_agreement": _weighted(tested, "trivial_winner_agreement"),
                "rank_correlation": rank,
                "cells": len(diffs),
                "median_abs_difference": float(diffs.median()) if len(diffs) else float("nan"),
                "mean_abs_difference": float(diffs.mean()) if len(diffs) else float("nan"),
            }
        )
    return pd.DataFrame(rows)


def _difference_rank_correlation(cells: pd.DataFrame, a: str, b: str, points: pd.Series) -> float:
    """Spearman's correlation of A − B, reproduced against published, over (dataset, point)."""
    mine = cells[cells["algorithm"].isin([a, b]) & cells["point"].isin(points)
                 & (cells["status"] == "ok")]  # fmt: skip
    if mine.empty:
        return float("nan")
    wide = mine.pivot_table(index=["dataset", "point"], columns="algorithm",
                            values=["reproduced", "published"])  # fmt: skip
    if (("reproduced", a) not in wide) or (("reproduced", b) not in wide):
        return float("nan")
    return rank_correlation(wide[("reproduced", a)] - wide[("reproduced", b)],
                            wide[("published", a)] - wide[("published", b)])


def _weighted(conclusions: pd.DataFrame, column: str) -> float:
    """Mean of a per-point share over a table's points, weighted by the datasets compared."""
    known = conclusions[conclusions[column].notna()]
    weights = known["winner_compared"].astype(float)
    if known.empty or weights.sum() == 0:
        return float("nan")
    return float((known[column].astype(float) * weights).sum() / weights.sum())


def _per_table_section(cells: pd.DataFrame, conclusions: pd.DataFrame) -> list[str]:
    summary = per_table_summary(cells, conclusions)
    if summary.empty or not ((summary["tested"] > 0) | (summary["cells"] > 0)).any():
        return []  # e.g. an experiment whose labels are not the tables' systems
    summary = summary[(summary["tested"] > 0) | (summary["cells"] > 0)]
    out = ["## Per table", ""]
    out += [
        "Conclusions held of those tested (Sig. W/D/L sign, GM-ratio side, both), beside how "
        "many the trivial prediction \"A always wins\" would hold; the share of (dataset, "
        "point) cells whose winner agrees with the thesis (in brackets: \"A always wins\"); "
        "Spearman's rank correlation of the differences A − B, reproduced against published, "
        "over the same cells (which no prediction that ignores the data can score); "
        "and the median and mean |reproduced − published| over the table's cells (both "
        "algorithms, its points).",
        "",
    ]
    header = ["Table", "A vs B", "Tested", "Sig. holds", "GM holds", "Both hold", "Trivial holds",
              "Winner agrees", "Rank corr.", "Cells", "Median abs. diff.",
              "Mean abs. diff."]  # fmt: skip
    body = [
        [
            r["table"],
            r["comparison"],
            r["tested"],
            r["sig_holds"],
            r["gm_holds"],
            r["holds"],
            r["trivial_holds"],
            _agreement(r["winner_agreement"], r["trivial_winner_agreement"]),
            fmt(r["rank_correlation"], 2, missing=""),
            r["cells"],
            fmt(r["median_abs_difference"], 2, missing=""),
            fmt(r["mean_abs_difference"], 2, missing=""),
        ]
        for _, r in summary.iterrows()
    ]
    return [*out, markdown_table(header, body, "llrrrrrlrrrr")]


def _not_run_section(cells: pd.DataFrame) -> list[str]:
    out = ["## Published cells not run", ""]
    not_run = cells[cells["status"] == NOT_RUN]
    if not_run.empty:
        return [*out, "None: every published cell was reproduced.", ""]
    published = cells[cells["status"] != NOT_PUBLISHED]
    if len(not_run) == len(published):  # one line, not one row per cell
        return [*out, f"All {len(not_run)}: this run has none of the published datasets and "
                f"algorithms' cells ({published['dataset'].nunique()} datasets, "
                f"{published['algorithm'].nunique()} algorithms).", ""]
    keys = ["algorithm", "dataset"]
    n_points = published.groupby(keys).size()
    body = []
    for a, rows in not_run.groupby("algorithm", sort=False):
        whole = [d for d, pts in rows.groupby("dataset", sort=False)["point"] if len(pts) == n_points[(a, d)]]
        if len(whole) == published.loc[published["algorithm"] == a, "dataset"].nunique():
            body.append([display_name(str(a)), f"all {len(whole)} datasets", "all points"])
            continue
        for d, pts in rows.groupby("dataset", sort=False)["point"]:
            every = len(pts) == n_points[(a, d)] and len(pts) > 1
            points = f"all {len(pts)} points" if every else ", ".join(point_label(p) for p in pts)
            body.append([display_name(str(a)), d, points])
    return [
        *out,
        f"{len(not_run)} cells.",
        "",
        markdown_table(["Algorithm", "Dataset", "Points"], body, "lll"),
    ]


def _cells_section(cells: pd.DataFrame) -> list[str]:
    header = ["Table", "Algorithm", "Dataset", "Point", "Published", "Reproduced", "Difference",
              "Status"]  # fmt: skip
    body = [
        [
            "" if pd.isna(r["table"]) else r["table"],
            display_name(str(r["algorithm"])),
            r["dataset"],
            point_label(float(r["point"])),
            fmt(r["published"], 2, missing=""),
            fmt(r["reproduced"], 2, missing=""),
            fmt(r["difference"], 2, missing=""),
            r["status"],
        ]
        for _, r in cells[cells["status"] != NOT_RUN].iterrows()
    ]
    skipped = int((cells["status"] == NOT_RUN).sum())
    note = [f"The {skipped} published cells not run are listed above.", ""] if skipped else []
    return ["## Cell by cell", "", *note, *([markdown_table(header, body, "lllrrrrl")] if body else [])]


def render_replication_markdown(
    cells: pd.DataFrame,
    differences: pd.DataFrame,
    conclusions: pd.DataFrame,
    *,
    sources: Sequence[str] = (),
    scale: str | None = None,
    comparable: tuple[bool, str] = (True, ""),
) -> str:
    """The report: the summaries first (per table, differences, conclusions), then the details.

    The per-table summary leads because it carries the measures that discriminate (winner
    agreement beside the trivial prediction's, rank correlation of the differences).

    Sections without published data (e.g. Tables 4.8–4.16 print no accuracies, Table 4.6
    no summary rows) say so instead of disappearing, so the reader knows nothing was hidden.
    """
    out = ["# Reproduced vs published (Melville 2005)", ""]
    if scale is not None:
        out += [f"Scale of this run: {scale}. The dissertation's numbers are means over 10 runs of "
                "10-fold CV on the datasets of its tables.", ""]  # fmt: skip
    out += comparability_lines(*comparable)
    if sources:
        out += ["Published values: " + ", ".join(f"`{s}`" for s in sources) + ".", ""]
    has_cells = not cells.empty
    if not conclusions.empty:
        out += _per_table_section(cells, conclusions)
    if has_cells:
        out += _differences_section(differences)
    else:
        out += ["## Accuracy differences per algorithm", "", "No published accuracies.", ""]
    if conclusions.empty:
        out += ["## Do the conclusions hold?", "", "No published summary rows.", ""]
    else:
        out += _conclusions_section(conclusions)
    if has_cells:
        out += _not_run_section(cells)
        out += _cells_section(cells)
    return "\n".join(out)


def summary_replication(
    summary: pd.DataFrame,
    published: str | PathLike[str] | Iterable[str | PathLike[str]],
    *,
    records: pd.DataFrame | None = None,
    metric: str = "accuracy",
    experiment: str | None = None,
    alpha: float = 0.05,
    dataset_aliases: Mapping[str, str] | None = None,
    scale: str | None = None,
    disagreements: str | PathLike[str] | None = None,
) -> ReplicationReport:
    """Reproduced vs published cells, conclusions and Markdown (``replication.{csv,md}``,
    ``replication_conclusions.csv`` once written by
    :func:`~redecorate.report.replication_report.write_replication_report`).

    With ``scale`` (the workflow passes the run's), a run that is not the thesis protocol on
    every published dataset is marked *not comparable*: a banner in the Markdown and
    ``holds`` left empty in the conclusions CSV (column ``comparable``). ``disagreements``
    (:func:`~redecorate.report.published.read_disagreements`) adds the column ``explained``
    to the cells, a median without the explained cells, and a section listing them.

    ``summary`` is :func:`~redecorate.stats.summary.summarise` output (or any frame with
    dataset, algorithm, point, mean). ``published`` is the directory ``config/published``
    (Tables 4.2–4.5) or the list of published TSVs of the experiment (its
    ``report.published`` entries). Pass the long-form ``records`` as well, otherwise the
    reproduced Sig. W/D/L cannot be computed and ``holds`` stays NA.
    """
    paths_in = _published_paths(published)
    rows = read_published(paths_in)
    pub_cells, pub_summary = published_cells_and_summary(rows)
    cells = compare_cells(
        summary, pub_cells, metric=metric, experiment=experiment, dataset_aliases=dataset_aliases
    )
    conclusions = check_conclusions(
        summary,
        pub_cells,
        pub_summary,
        records=records,
        metric=metric,
        experiment=experiment,
        alpha=alpha,
        dataset_aliases=dataset_aliases,
    )
    cells["explained"] = explain_cells(cells, read_disagreements(disagreements), system="algorithm")
    conclusions["explained_failure"] = explained_failures(conclusions, cells)
    differences = difference_summary(cells)
    comparable, why = True, ""
    if scale is not None:
        published_datasets = (cells.loc[cells["status"] != NOT_PUBLISHED, "dataset"] if len(pub_cells)
                              else pd.Series(THESIS_DATASETS))  # fmt: skip
        reproduced = set(summary["dataset"].replace(dict(dataset_aliases or {})))
        comparable, why = comparability(scale, published_datasets, reproduced)
        conclusions = mark_comparability(conclusions, comparable)
    used = set(pub_cells["table"]) | set(pub_summary["table"])
    tables = rows.groupby("source")["table"].agg(set)
    sources = [path.name if tables.get(path.name, set()) & used
               else f"{path.name} (nothing for this report)" for path in paths_in]  # fmt: skip
    text = render_replication_markdown(cells, differences, conclusions, sources=sources,
                                       scale=scale, comparable=(comparable, why))  # fmt: skip
    return ReplicationReport(markdown=text, cells=cells, conclusions=conclusions)
