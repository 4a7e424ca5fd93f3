"""§4.4 of the dissertation: is DECORATE's diversity what reduces the error?

Two studies, both pure functions of the long-form records, wired in as report analyses
(:mod:`redecorate.report.analyses`):

* :func:`diversity_correlation` (E4.4a, experiment ``ch4_diversity``): Spearman's rank
  correlation of ensemble diversity (Eq. 3.2) with the *ensemble error reduction* (mean
  error of the members − error of the ensemble, after Cunningham & Carney 2000) and with the
  *base error reduction* (error of J48 on the same training set − error of the ensemble),
  pooled over every (dataset, run, fold, point, DECORATE variant). The thesis reports
  ρ = 0.6602 and 0.1607 (p ≪ 1e-50 both) [L721]; those values are read from
  ``config/published/section_4_4_spearman.tsv`` and printed beside ours.
* :func:`diversity_win_loss` (E4.4b, experiment ``ch4_diversity_table``): Table 4.7, per
  number of training examples the number of datasets where DECORATE's diversity is
  significantly higher / lower than Bagging's and AdaBoost's, with the thesis's paired t-test
  over the folds (:func:`redecorate.stats.compare_algorithms`, the same test as every
  Sig. W/D/L of the project). The published table is ``config/published/ch4_diversity_4.7.tsv``.

Why the base error is J48's record rather than DECORATE's first member: J48 is deterministic
and sees the same nested training prefix at the same (dataset, run, fold, point), so its
record *is* ``C_1``'s error, and the records need no per-member column.

Why pooled, not per dataset: the thesis gives one ρ and says p ≪ 1e-50, which at ρ = 0.16
needs n ≳ 8,500 observations (spec M7), so its observations were pooled over datasets,
R_size values, curve points and folds. ``n`` is reported so a smaller run is not mistaken for
the thesis's sample.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from scipy.special import stdtr

from redecorate.protocol.settings import ReportSettings
from redecorate.report.conclusions import rank_correlation
from redecorate.report.published import pivot_statistics, read_published
from redecorate.report.tables import display_name, fmt, markdown_table
from redecorate.stats.comparison import compare_algorithms
from redecorate.stats.summary import check_records

__all__ = [
    "PUBLISHED_SPEARMAN_FILE",
    "correlation_evidence",
    "PUBLISHED_TABLE_4_7_FILE",
    "QUANTITIES",
    "diversity_correlation",
    "diversity_win_loss",
    "error_reduction_observations",
    "spearman_study",
    "published_spearman",
    "published_win_loss",
    "win_loss_cells",
    "win_loss_evidence",
]

PUBLISHED_SPEARMAN_FILE = "section_4_4_spearman.tsv"
"""§4.4's two correlations (comparison diversity_vs_<quantity>, statistics rho and p_value)."""
PUBLISHED_TABLE_4_7_FILE = "ch4_diversity_4.7.tsv"
"""Table 4.7 (metric diversity, point = training examples, statistics sig_w and sig_l)."""

QUANTITIES: tuple[str, ...] = ("ensemble_error_reduction", "base_error_reduction")
"""What diversity is correlated with, in the order the thesis reports them."""

_OBS_KEYS = ["dataset", "run", "fold", "point"]


def _options(settings: ReportSettings, name: str) -> dict[str, Any]:
    return dict(settings.analysis_options.get(name) or {})


def _published_path(settings: ReportSettings, options: Mapping[str, Any], default: str) -> Path:
    """``analysis_options.NAME.published`` (a file in published_dir), else ``default``."""
    return Path(settings.published_dir) / str(options.get("published", default))


def _metric(
    records: pd.DataFrame, metric: str, algorithms: Sequence[str] | None = None
) -> pd.DataFrame:
    rows = records[records["metric"] == metric]
    if algorithms is not None:
        rows = rows[rows["algorithm"].isin(list(algorithms))]
    keys = [*_OBS_KEYS, "algorithm"]
    if rows.duplicated(keys).any():
        raise ValueError(
            f"several {metric!r} records for one (dataset, run, fold, point, algorithm); "
            "records from several experiments cannot be paired, select one experiment first"
        )
    return rows[[*keys, "value"]].rename(columns={"value": metric})


def error_reduction_observations(
    records: pd.DataFrame,
    *,
    base: str = "j48",
    algorithms: Sequence[str] | None = None,
    experiment: str | None = None,
) -> pd.DataFrame:
    """One row per (dataset, run, fold, point, ensemble): diversity and both error reductions.

    ``algorithms`` are the ensembles (default: every algorithm other than ``base`` with both
    ``diversity`` and ``member_error`` records); ``base`` is the single classifier whose error
    on the same training set is the base error (J48 = DECORATE's ``C_1``). Errors are in %
    (100 − accuracy; ``member_error`` is recorded in %), reductions in percentage points:

    * ``ensemble_error_reduction`` = member_error − ensemble_error;
    * ``base_error_reduction`` = base_error − ensemble_error (NaN where the base was not run).

    Raises:
        ValueError: records lack the columns, the ``member_error``/``diversity`` metrics, or
            any record of ``base``.
    """
    check_records(records, (*_OBS_KEYS, "algorithm", "metric", "value"))
    if experiment is not None and "experiment" in records.columns:
        records = records[records["experiment"] == experiment]
    have = set(records.loc[records["metric"] == "member_error", "algorithm"]) & set(
        records.loc[records["metric"] == "diversity", "algorithm"]
    )
    if algorithms is None:
        algorithms = sorted(have - {base})
    missing = [a for a in algorithms if a not in have]
    if not algorithms or missing:
        raise ValueError(
            f"need 'diversity' and 'member_error' records of the ensembles {missing or '(any)'}; "
            "add them to the experiment's 'metrics:'"
        )
    if not (records["algorithm"] == base).any():
        raise ValueError(f"no records of the base learner {base!r} (the base error)")
    obs = _metric(records, "diversity", algorithms)
    obs = obs.merge(_metric(records, "member_error", algorithms), on=[*_OBS_KEYS, "algorithm"])
    obs = obs.merge(_metric(records, "accuracy", algorithms), on=[*_OBS_KEYS, "algorithm"])
    base_acc = _metric(records, "accuracy", [base]).drop(columns="algorithm")
    base_acc = base_acc.rename(columns={"accuracy": "base_accuracy"})
    obs = obs.merge(base_acc, on=_OBS_KEYS, how="left")
    obs["ensemble_error"] = 100.0 - obs["accuracy"]
    obs["base_error"] = 100.0 - obs["base_accuracy"]
    obs["ensemble_error_reduction"] = obs["member_error"] - obs["ensemble_error"]
    obs["base_error_reduction"] = obs["base_error"] - obs["ensemble_error"]
    columns = [*_OBS_KEYS, "algorithm", "diversity", "member_error", "ensemble_error",
               "base_error", *QUANTITIES]  # fmt: skip
    return obs[columns].sort_values([*_OBS_KEYS, "algorithm"], ignore_index=True)


def _spearman(x: pd.Series, y: pd.Series) -> tuple[float, float]:
    """Spearman's ρ (:func:`redecorate.report.conclusions.rank_correlation`, average ranks of
    ties, as ``scipy.stats.spearmanr``) and its two-sided p from Student's t with n − 2
    degrees of freedom, as scipy gives it; NaN when a side is constant or n < 3."""
    if len(x) < 3 or x.nunique() < 2 or y.nunique() < 2:
        return math.nan, math.nan
    rho = rank_correlation(x.to_numpy(), y.to_numpy())
    n = len(x)
    if abs(rho) >= 1.0:
        return rho, 0.0
    t = rho * math.sqrt((n - 2) / ((1.0 + rho) * (1.0 - rho)))
    return rho, float(2.0 * stdtr(n - 2, -abs(t)))


def spearman_study(
    observations: pd.DataFrame, published: pd.DataFrame | None = None
) -> pd.DataFrame:
    """Spearman ρ of diversity against each of :data:`QUANTITIES`, pooled, with n and p.

    ``published`` (columns quantity, rho, p_value as from :func:`published_spearman`) adds ``published_rho``,
    ``published_p`` and ``difference`` (ρ reproduced − published). Observations where a
    quantity is NaN (no base record) are left out of that quantity's ρ, and ``n`` says so.
    """
    rows = []
    for quantity in QUANTITIES:
        both = observations[["diversity", quantity]].dropna()
        rho, p = _spearman(both["diversity"], both[quantity])
        rows.append({"quantity": quantity, "n": len(both), "rho": rho, "p_value": p})
    out = pd.DataFrame(rows)
    if published is not None:
        pub = published[["quantity", "rho", "p_value"]].rename(
            columns={"rho": "published_rho", "p_value": "published_p"}
        )
        out = out.merge(pub, on="quantity", how="left")
        out["difference"] = out["rho"] - out["published_rho"]
    return out


def published_spearman(path: Path) -> pd.DataFrame:
    """§4.4's published ρ and p per quantity: columns quantity, rho, p_value (as printed), source.

    The long-form rows are ``comparison = diversity_vs_<quantity>`` with statistics ``rho``
    and ``p_value``; the thesis prints p as text (``<<1e-50``), kept as printed.
    """
    rows = read_published(path)
    rows = rows[rows["comparison"].str.startswith("diversity_vs_")
                & rows["statistic"].isin(["rho", "p_value"])]  # fmt: skip
    if rows.empty:
        raise ValueError(f"{path}: no §4.4 Spearman rows (comparison diversity_vs_<quantity>, "
                         "statistics rho and p_value)")
    out = []
    for comparison, group in rows.groupby("comparison", sort=False):
        by = group.set_index("statistic")
        out.append({"quantity": comparison.removeprefix("diversity_vs_"),
                    "rho": float(by.at["rho", "value"]) if "rho" in by.index else np.nan,
                    "p_value": str(by.at["p_value", "printed"]) if "p_value" in by.index else "",
                    "source": group["note"].iloc[0] or group["source"].iloc[0]})  # fmt: skip
    return pd.DataFrame(out)


def published_win_loss(path: Path, metric: str) -> pd.DataFrame:
    """Table 4.7's published cells: comparison, point (training examples), sig_w, sig_l."""
    rows = read_published(path)
    rows = rows[(rows["metric"] == metric) & (rows["comparison"] != "")]
    if rows.empty:
        raise ValueError(f"{path}: no win-loss rows for metric {metric!r} (Table 4.7 layout: "
                         "comparison, point = training examples, statistics sig_w and sig_l)")
    return pivot_statistics(rows, ["comparison", "point"], ("sig_w", "sig_l"))


def _fmt_p(p: float) -> str:
    if isinstance(p, float) and math.isnan(p):
        return "–"
    return "< 1e-300 (0.0 in double precision)" if p == 0 else f"{p:.3g}"


def _table_key(path: Path) -> str:
    """The table key of a published file that holds one table (Table 4.7, §4.4)."""
    return str(read_published(path)["table"].iloc[0])


def _correlation(records: pd.DataFrame, settings: ReportSettings
                 ) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame, Path, str]:
    """The observations, the published ρ, the study beside them, the published file and the
    base learner of :func:`diversity_correlation`."""
    options = _options(settings, "diversity_correlation")
    base = str(options.get("base", "j48"))
    obs = error_reduction_observations(records, base=base, algorithms=options.get("algorithms"),
                                       experiment=settings.experiment)  # fmt: skip
    path = _published_path(settings, options, PUBLISHED_SPEARMAN_FILE)
    published = published_spearman(path)
    return obs, published, spearman_study(obs, published), path, base


def correlation_evidence(records: pd.DataFrame, settings: ReportSettings) -> pd.DataFrame:
    """§4.4's two ρ beside the thesis's, in the evidence layout
    (:data:`redecorate.report.agreement.EVIDENCE_COLUMNS`): printed (no interval: one pooled
    number each) and signed (the sign of a correlation is its claim)."""
    from redecorate.report.agreement import AGREES, DISAGREES, NOT_RUN, evidence_frame

    _, _, result, path, _ = _correlation(records, settings)
    table = _table_key(path)
    return evidence_frame([
        {"table": table, "system": f"diversity_vs_{r.quantity}", "statistic": "rho",
         "published": r.published_rho, "reproduced": r.rho, "printed": True, "signed": True,
         "status": NOT_RUN if pd.isna(r.rho) else (AGREES if abs(r.difference) <= 0.00005 else DISAGREES)}
        for r in result.itertuples()])  # fmt: skip


def diversity_correlation(
    records: pd.DataFrame, tables_dir: Path, figures_dir: Path, settings: ReportSettings
) -> list[Path]:
    """E4.4a: write ``diversity_correlation.csv`` and ``.md`` into ``tables_dir``.

    Options (``report.analysis_options.diversity_correlation``): ``base`` (default ``j48``),
    ``algorithms`` (the ensembles; default every other algorithm with ``member_error``
    records), ``published`` (file in published_dir; default :data:`PUBLISHED_SPEARMAN_FILE`).
    ``figures_dir`` is unused: the thesis reports the two numbers in the text only.
    """
    obs, published, result, path, base = _correlation(records, settings)
    tables_dir = Path(tables_dir)
    tables_dir.mkdir(parents=True, exist_ok=True)
    csv_path = tables_dir / "diversity_correlation.csv"
    result.to_csv(csv_path, index=False, lineterminator="\n")
    variants = sorted(obs["algorithm"].unique())
    sources = published["source"].dropna().unique() if "source" in published.columns else []
    where = f" (dissertation {', '.join(map(str, sources))})" if len(sources) else ""
    body = [
        [q.replace("_", " "), int(r.n), fmt(r.rho, 4), _fmt_p(r.p_value),
         fmt(r.published_rho, 4), str(r.published_p), fmt(r.difference, 4, signed=True)]
        for q, r in zip(result["quantity"], result.itertuples(), strict=True)
    ]  # fmt: skip
    text = (
        "### §4.4: diversity vs error reduction (Spearman's rank correlation)\n\n"
        + markdown_table(
            ["Diversity vs", "n", "ρ", "p", "ρ (thesis)", "p (thesis)", "ρ − thesis"], body
        )
        + f"\nPooled over every (dataset, run, fold, point, ensemble) of experiment "
        f"`{settings.experiment}`: {obs['dataset'].nunique()} datasets, "
        f"{obs['point'].nunique()} curve points, ensembles {', '.join(variants)}; base learner "
        f"`{base}` (J48 = DECORATE's first member, on the same training set). Diversity is "
        "Eq. 3.2 on the test fold; ensemble error reduction = members' mean test error − "
        "ensemble test error; base error reduction = base test error − ensemble test error "
        f"(percentage points). Published values: `{path.name}`{where}.\n"
    )
    md_path = tables_dir / "diversity_correlation.md"
    md_path.write_text(text, encoding="utf-8")
    return [csv_path, md_path]


def win_loss_cells(
    records: pd.DataFrame,
    baseline: str,
    other: str,
    *,
    alpha: float = 0.05,
    experiment: str | None = None,
    metric: str = "diversity",
) -> pd.DataFrame:
    """Per dataset and point: ``baseline`` vs ``other`` on ``metric`` with the paired t-test.

    :func:`redecorate.stats.compare_algorithms` with higher = better (more diverse) and no
    corrected test: the Nadeau–Bengio correction needs the test-fold size, which records in
    numbers of examples do not let :func:`~redecorate.stats.infer_n_test` recover, and the
    thesis's table uses the plain test anyway.
    """
    return compare_algorithms(
        records, baseline, other, metric=metric, alpha=alpha, experiment=experiment,
        n_test=math.nan,
    )  # fmt: skip


def _cell(w: float, l: float) -> str:  # noqa: E741 - the thesis's W and L
    return "–" if pd.isna(w) else f"{int(w)}-{int(l)}"


def _win_loss_counts(
    records: pd.DataFrame, baseline: str, others: Sequence[str], alpha: float, experiment: str
) -> tuple[list[pd.DataFrame], pd.DataFrame]:
    """Per comparison: its per-(dataset, point) tests, and per point the Sig. W/D/L over the
    datasets where both systems ran (None when none did, so the cell reads "not run")."""
    per_dataset, summary = [], []
    for other in others:
        cells = win_loss_cells(records, baseline, other, alpha=alpha, experiment=experiment)
        cells.insert(0, "comparison", f"{baseline}_vs_{other}")
        per_dataset.append(cells)
        for point, group in cells.groupby("point", sort=True):
            run = group[group["n_pairs"] > 0]  # datasets where both systems were run
            wins, losses = int((run["sig"] > 0).sum()), int((run["sig"] < 0).sum())
            counts = (wins, len(run) - wins - losses, losses) if len(run) else (None,) * 3
            summary.append({
                "comparison": f"{baseline}_vs_{other}", "point": point, "n_datasets": len(run),
                "sig_w": counts[0], "sig_d": counts[1], "sig_l": counts[2],
            })  # fmt: skip
    return per_dataset, pd.DataFrame(summary)


def _win_loss_table(summary: pd.DataFrame, published: pd.DataFrame, baseline: str,
                    others: Sequence[str]) -> pd.DataFrame:
    """The reproduced counts beside the published ones, one row per (comparison, point),
    with whether the W > L conclusion holds and a status (``ok``, ``not published``, ``not
    run``), in the options' comparison order."""
    pub = published.rename(columns={"sig_w": "published_sig_w", "sig_l": "published_sig_l"})[
        ["comparison", "point", "published_sig_w", "published_sig_l"]
    ]
    summary["point"] = summary["point"].astype(float)
    table = summary.merge(pub, on=["comparison", "point"], how="outer")
    table = table[table["comparison"].isin([f"{baseline}_vs_{o}" for o in others])]
    reproduced_sign = np.sign(table["sig_w"] - table["sig_l"])
    published_sign = np.sign(table["published_sig_w"] - table["published_sig_l"])
    table["holds"] = (reproduced_sign == published_sign).where(
        table["sig_w"].notna() & table["published_sig_w"].notna()
    )
    table["status"] = np.select(
        [table["published_sig_w"].isna(), table["sig_w"].isna()],
        ["not published", "not run"],
        "ok",
    )
    order = {f"{baseline}_vs_{o}": i for i, o in enumerate(others)}
    table = table.sort_values(
        ["comparison", "point"], key=lambda c: c.map(order) if c.name == "comparison" else c
    )
    table = table.reset_index(drop=True)
    int_cols = ["n_datasets", "sig_w", "sig_d", "sig_l", "published_sig_w", "published_sig_l"]
    table[int_cols] = table[int_cols].astype("Int64")
    table["point"] = table["point"].map(lambda p: int(p) if float(p).is_integer() else p)
    return table


def _win_loss_wide(table: pd.DataFrame, points: Sequence[Any],
                   title: Mapping[str, str]) -> pd.DataFrame:
    """Table 4.7 as printed: per comparison a reproduced and a published row of "W-L"
    cells, one column per point."""
    wide_rows = []
    for comparison, rows in table.groupby("comparison", sort=False):
        by_point = rows.set_index("point")
        for source, w, l in (("reproduced", "sig_w", "sig_l"),  # noqa: E741
                             ("published", "published_sig_w", "published_sig_l")):
            cells = [_cell(by_point[w].get(p, pd.NA), by_point[l].get(p, pd.NA)) for p in points]
            wide_rows.append([title[comparison], source, *cells])
    return pd.DataFrame(wide_rows, columns=["comparison", "source", *map(str, points)])


def _win_loss_markdown(table: pd.DataFrame, points: Sequence[Any], title: Mapping[str, str], *,
                       baseline: str, alpha: float, experiment: str, published_name: str) -> str:
    """``diversity_win_loss.md``: the reproduced and published tables, how many published
    cells' conclusions hold, and the draws the thesis's cells do not have."""
    compared = table[table["status"] == "ok"]
    n_published = int(table["published_sig_w"].notna().sum())
    n_hold = int(compared["holds"].fillna(False).astype(bool).sum())
    header = ["", *(str(p) for p in points)]
    reproduced_md = [[title[c], *(_cell(r["sig_w"], r["sig_l"]) for _, r in rows.iterrows())]
                     for c, rows in table.groupby("comparison", sort=False)]  # fmt: skip
    published_md = [[title[c], *(_cell(r["published_sig_w"], r["published_sig_l"])
                                 for _, r in rows.iterrows())]
                     for c, rows in table.groupby("comparison", sort=False)]  # fmt: skip
    draws = [f"{title[c]} at {r['point']}: {r['sig_d']}" for _, r in table.iterrows()
             for c in [r["comparison"]] if pd.notna(r["sig_d"]) and r["sig_d"] > 0]  # fmt: skip
    n_datasets = sorted({int(n) for n in table["n_datasets"].dropna()})
    return (
        "### Table 4.7: Comparing ensemble diversity: Win-loss records (reproduced)\n\n"
        f"Number of training examples; cell W-L = datasets where {display_name(baseline)}'s "
        f"diversity (Eq. 3.2, test fold) is significantly higher / lower (paired t-test over "
        f"the folds, p < {alpha:g}), of {', '.join(map(str, n_datasets)) or 0} datasets. "
        f"Experiment `{experiment}`.\n\n"
        + markdown_table(header, reproduced_md)
        + f"\n**Published** (`{published_name}`):\n\n"
        + markdown_table(header, published_md)
        + f"\n**{n_hold} of {n_published} published cells' conclusion (W > L) hold** in the "
        f"reproduction ({len(compared)} compared; a cell holds when the reproduced W − L has "
        "the published sign).\n"
        + ("\nDraws (no significant difference): " + "; ".join(draws) + ".\n" if draws
           else "\nNo draws (as in the thesis).\n")
    )


def _win_loss(records: pd.DataFrame, settings: ReportSettings) -> tuple[list[pd.DataFrame], pd.DataFrame]:
    """The per-dataset tests and the reproduced counts beside the published ones of
    :func:`diversity_win_loss`."""
    options = _options(settings, "diversity_win_loss")
    baseline = str(options.get("baseline", "decorate"))
    others = [str(o) for o in options.get("others", ["bagging", "adaboost"])]
    published = published_win_loss(_published_path(settings, options, PUBLISHED_TABLE_4_7_FILE), "diversity")
    per_dataset, summary = _win_loss_counts(records, baseline, others, float(options.get("alpha", 0.05)),
                                            settings.experiment)  # fmt: skip
    return per_dataset, _win_loss_table(summary, published, baseline, others)


def win_loss_evidence(records: pd.DataFrame, settings: ReportSettings) -> pd.DataFrame:
    """Table 4.7 beside the thesis's, in the evidence layout
    (:data:`redecorate.report.agreement.EVIDENCE_COLUMNS`): the printed counts (no interval:
    a count over datasets) and, per cell, the signed W − L (the thesis's claim is its sign)."""
    from redecorate.report.agreement import AGREES, DISAGREES, NOT_RUN, evidence_frame

    table = _win_loss(records, settings)[1]
    table = table[table["status"] != "not published"]
    number = _table_key(_published_path(settings, _options(settings, "diversity_win_loss"), PUBLISHED_TABLE_4_7_FILE))
    rows = []
    for r in table.itertuples():
        ran = r.status != "not run"
        key = {"table": number, "system": r.comparison, "point": float(r.point)}
        for statistic in ("sig_w", "sig_l"):
            mine, theirs = getattr(r, statistic), getattr(r, f"published_{statistic}")
            rows.append({**key, "statistic": statistic, "published": theirs, "reproduced": mine if ran else np.nan,
                         "printed": True, "status": NOT_RUN if not ran else (AGREES if mine == theirs else DISAGREES)})
        rows.append({**key, "statistic": "sig_w - sig_l", "signed": True, "status": "" if ran else NOT_RUN,
                     "published": r.published_sig_w - r.published_sig_l,
                     "reproduced": r.sig_w - r.sig_l if ran else np.nan})  # fmt: skip
    return evidence_frame(rows)


def diversity_win_loss(
    records: pd.DataFrame, tables_dir: Path, figures_dir: Path, settings: ReportSettings
) -> list[Path]:
    """E4.4b: Table 4.7 as ``diversity_win_loss.csv``/``.md`` (+ per-point and per-dataset CSVs).

    A cell "W-L" counts the datasets where the baseline's diversity is significantly higher
    (W) or lower (L) than the other's (paired t-test over the run × fold pairs, ``alpha``
    0.05); datasets with no significant difference are draws, shown separately because the
    thesis's cells have none. A published cell's conclusion *holds* when the reproduced
    W − L has the sign of the published W − L (all ten published cells have W > L).

    Options (``report.analysis_options.diversity_win_loss``): ``baseline`` (default
    ``decorate``), ``others`` (default ``[bagging, adaboost]``), ``alpha``, ``published``
    (file in published_dir; default :data:`PUBLISHED_TABLE_4_7_FILE`).
    """
    options = _options(settings, "diversity_win_loss")
    baseline = str(options.get("baseline", "decorate"))
    others = [str(o) for o in options.get("others", ["bagging", "adaboost"])]
    alpha = float(options.get("alpha", 0.05))
    experiment = settings.experiment
    path = _published_path(settings, options, PUBLISHED_TABLE_4_7_FILE)
    per_dataset, table = _win_loss(records, settings)
    points = list(dict.fromkeys(table["point"]))
    title = {f"{baseline}_vs_{o}": f"{display_name(baseline)} vs {display_name(o)}" for o in others}

    tables_dir = Path(tables_dir)
    tables_dir.mkdir(parents=True, exist_ok=True)
    paths = [
        tables_dir / "diversity_win_loss.csv",
        tables_dir / "diversity_win_loss_cells.csv",
        tables_dir / "diversity_win_loss_datasets.csv",
        tables_dir / "diversity_win_loss.md",
    ]
    _win_loss_wide(table, points, title).to_csv(paths[0], index=False, lineterminator="\n")
    table.to_csv(paths[1], index=False, lineterminator="\n")
    pd.concat(per_dataset, ignore_index=True).to_csv(paths[2], index=False, lineterminator="\n")
    text = _win_loss_markdown(table, points, title, baseline=baseline, alpha=alpha,
                              experiment=experiment, published_name=path.name)  # fmt: skip
    paths[3].write_text(text, encoding="utf-8")
    return paths
