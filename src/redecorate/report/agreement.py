"""Cell-level agreement with the published tables: intervals, statuses and known disagreements.

Why: a reproduced cell beside a published one says little on its own. Whether the two
*agree* depends on how much the reproduced value moves from fold to fold, and a summary such
as "the sign agrees on 60 % of the datasets" means nothing until it is set beside what a
trivial prediction would score. This module gives every reproduced cell of chapters 6–8 a
95 % interval from the fold-level spread (a paired bootstrap over the runs × folds), a status
that says which of four things happened — ``not run``, ``never reached the target``,
``agrees`` (the published value lies inside the reproduced interval) or ``disagrees`` — and
the row of ``config/published/known_disagreements.tsv`` that explains a disagreement, where
one exists. :func:`table_agreement` condenses the cells of a table into measures that can
fail: the share of published values inside the interval, per-cell sign agreement beside the
trivial prediction's, and the rank correlation of published and reproduced values.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from redecorate.report.conclusions import rank_correlation, sign_agreement
from redecorate.report.tables import fmt, markdown_table

__all__ = [
    "AGREES",
    "CELL_STATUSES",
    "DISAGREES",
    "NEVER_REACHED",
    "NOT_RUN",
    "REPRODUCED",
    "bootstrap_interval",
    "cell_status",
    "cells_lines",
    "agreement_lines",
    "known_disagreements_for",
    "table_agreement",
    "with_known_disagreements",
]

NOT_RUN = "not run"
NEVER_REACHED = "never reached the target"
AGREES = "agrees"
DISAGREES = "disagrees"
CELL_STATUSES: tuple[str, ...] = (NOT_RUN, NEVER_REACHED, AGREES, DISAGREES)
"""A published cell's status: the system did not run; it ran but never reached the target
error (Table 6.1's "-"); the published value is inside the reproduced 95 % interval; it is not."""
REPRODUCED: tuple[str, ...] = (AGREES, DISAGREES)
"""The statuses of a cell with a reproduced value to set beside the published one."""

BOOTSTRAP_REPLICATES = 1000
"""Enough for the 2.5 % and 97.5 % percentiles to move by a small fraction of the interval."""


def bootstrap_interval(statistic: Callable[..., float], *fold_matrices: np.ndarray,
                       level: float = 0.95, replicates: int = BOOTSTRAP_REPLICATES,
                       seed: int = 0) -> tuple[float, float]:
    """Percentile interval of a statistic of mean curves under resampling the folds.

    Every matrix has one row per (run, fold) and one column per curve point, paired across
    the matrices (the same split's curves of two systems). A replicate draws rows with
    replacement, averages the *same* rows of every matrix into mean curves and hands those
    to ``statistic(*mean_curves)``, which computes the cell from them exactly as the report
    does from the full set of folds (every summary of chapters 6–8 is a function of the
    systems' mean curves), so the interval is the spread of that very number, not of a
    per-fold proxy. Replicates where the statistic is undefined (NaN: e.g. a curve that
    never reaches its target) are left out; NaN if fewer than half of them are defined, or
    with fewer than two folds. Deterministic for a given ``seed``.
    """
    if not fold_matrices:
        raise ValueError("bootstrap_interval needs at least one matrix of per-fold values")
    arrays = [np.asarray(m, dtype=np.float64) for m in fold_matrices]
    n = arrays[0].shape[0]
    if any(a.ndim != 2 or a.shape[0] != n for a in arrays):
        raise ValueError(f"the matrices must be 2-D with one row per fold each, got {[a.shape for a in arrays]}")
    if not 0 < level < 1:
        raise ValueError(f"level must be in (0, 1), got {level!r}")
    if n < 2:
        return float("nan"), float("nan")
    rng = np.random.default_rng(seed)
    # weights[i, j]: how often replicate i drew fold j, over n: mean curves by one product
    draws = rng.integers(0, n, size=(replicates, n))
    weights = np.zeros((replicates, n))
    np.add.at(weights, (np.repeat(np.arange(replicates), n), draws.ravel()), 1.0 / n)
    curves = [weights @ a for a in arrays]
    values = np.array([statistic(*(c[i] for c in curves)) for i in range(replicates)], dtype=np.float64)
    values = values[np.isfinite(values)]
    if values.size < replicates / 2:
        return float("nan"), float("nan")
    tail = 100.0 * (1.0 - level) / 2.0
    low, high = np.percentile(values, [tail, 100.0 - tail])
    return float(low), float(high)


def cell_status(published: float, reproduced: float, low: float, high: float, *, ran: bool,
                tolerance: float = 0.0) -> str:
    """One of :data:`CELL_STATUSES` for a published cell.

    ``ran`` says whether the system has records for the dataset; a NaN ``reproduced`` of a
    system that ran is a target it never reached. A published value is inside the interval
    when ``low - tolerance ≤ published ≤ high + tolerance`` (``tolerance`` absorbs the
    printed rounding, e.g. 0.005 for two decimals). Without an interval (NaN bounds: too few
    folds) the cell agrees only if it equals the published value within ``tolerance``.
    """
    if not ran:
        return NOT_RUN
    if reproduced is None or not np.isfinite(reproduced):
        return NEVER_REACHED
    if published is None or not np.isfinite(published):
        # the source's "-" (never reached) against a value we did reach
        return DISAGREES
    if np.isfinite(low) and np.isfinite(high):
        inside = low - tolerance <= published <= high + tolerance
    else:
        inside = abs(published - reproduced) <= tolerance
    return AGREES if inside else DISAGREES


def with_known_disagreements(cells: pd.DataFrame, known: pd.DataFrame, *, system: str = "system") -> pd.DataFrame:
    """``cells`` with a column ``known_disagreement``: for a cell that disagrees or never
    reached the target, the explanation of the first ``known_disagreements.tsv`` row that
    covers it (:func:`redecorate.report.published.explain_cells`: empty keys match any;
    ``system`` names the cells' column the TSV's system key is matched against, e.g.
    ``comparison`` for chapter 7's ``a_vs_b`` cells); empty for every other cell."""
    from redecorate.report.published import explain_cells

    keyed = cells.copy()
    for column in ("table", "dataset", system):
        if column not in keyed.columns:
            keyed[column] = ""
    if "point" not in keyed.columns:
        keyed["point"] = np.nan
    notes = explain_cells(keyed, known, system=system) if len(keyed) else pd.Series(dtype=object)
    out = cells.copy()
    out["known_disagreement"] = notes.where(out["status"].isin([DISAGREES, NEVER_REACHED]), "") if len(out) else []
    return out


def table_agreement(cells: pd.DataFrame, *, by: Sequence[str] = ("table", "statistic"),
                    signed: Iterable[str] = ()) -> pd.DataFrame:
    """Per group of cells: how many agree, beside measures that can fail.

    Columns: the ``by`` keys, ``cells`` (published cells), ``reproduced`` (with a value),
    ``inside_interval`` (share of reproduced cells whose published value is in the 95 %
    interval), ``sign_agreement`` and ``trivial`` (for statistics in ``signed``: share with
    the published sign, and what "always positive" would score), ``spearman`` (published vs
    reproduced values), and the count of every status.
    """
    signed = set(signed)
    rows = []
    for key, group in cells.groupby(list(by), sort=False):
        key = key if isinstance(key, tuple) else (key,)
        row = dict(zip(by, key, strict=True))
        done = group[group["status"].isin(REPRODUCED)]
        row.update(cells=len(group), reproduced=len(done),
                   inside_interval=float((done["status"] == AGREES).mean()) if len(done) else np.nan)
        if row.get("statistic") in signed:
            signs = sign_agreement(done["reproduced"], done["published"])
            row.update(sign_agreement=signs.agreement, trivial=signs.trivial)
        else:
            row.update(sign_agreement=np.nan, trivial=np.nan)
        row["spearman"] = rank_correlation(done["reproduced"], done["published"])
        for status in CELL_STATUSES:
            row[status] = int((group["status"] == status).sum())
        rows.append(row)
    return pd.DataFrame(rows)


def known_disagreements_for(published_paths: Sequence[str | os.PathLike[str]]) -> pd.DataFrame:
    """The known disagreements beside an experiment's published tables (the TSV lives in the
    same directory as the transcribed tables); empty when there is none."""
    from redecorate.report.published import DISAGREEMENTS_FILE, read_disagreements

    paths = [Path(p) for p in published_paths]
    return read_disagreements(paths[0].parent / DISAGREEMENTS_FILE if paths else None)


def agreement_lines(cells: pd.DataFrame, *, by: Sequence[str] = ("table", "statistic"),
                    signed: Iterable[str] = ()) -> list[str]:
    """Markdown: the per-table agreement measures of :func:`table_agreement`, with a legend.

    The counts of a report's cells mean little alone, so every row sets the share of
    published values inside the reproduced 95 % interval beside per-cell sign agreement, what
    the trivial prediction "always positive" scores, and the rank correlation.
    """
    summary = table_agreement(cells, by=by, signed=signed)
    if summary.empty:
        return []

    body = [[*(str(r[k]) for k in by), str(r["cells"]), str(r["reproduced"]), fmt(r["inside_interval"]),
             fmt(r["sign_agreement"]), fmt(r["trivial"]), fmt(r["spearman"]),
             *(str(r[s]) for s in CELL_STATUSES)] for _, r in summary.iterrows()]  # fmt: skip
    return ["## Agreement per table", "",
            "*Inside*: share of reproduced cells whose published value lies inside the reproduced "
            "95 % interval (paired bootstrap over runs × folds; fewer folds, wider intervals); "
            "*sign* / *trivial*: share of cells with the published sign, and what always "
            "predicting a positive value would score; *Spearman*: rank correlation of published "
            "and reproduced values. Then the count of cells per status.", "",
            markdown_table([*(k.capitalize() for k in by), "Cells", "Reproduced", "Inside", "Sign",
                            "Trivial", "Spearman", *(s.capitalize() for s in CELL_STATUSES)], body), ""]


def cells_lines(cells: pd.DataFrame, keys: Sequence[str]) -> list[str]:
    """Markdown: every published cell (``keys`` name it) with the reproduced value, its 95 %
    interval, the difference, the status and the known disagreement that explains it."""
    def interval(row: pd.Series) -> str:
        low, high = row.get("low", np.nan), row.get("high", np.nan)
        return "–" if not (np.isfinite(low) and np.isfinite(high)) else f"[{low:.2f}, {high:.2f}]"

    body = [[*(str(r[k]) for k in keys), fmt(r["published"]), fmt(r["reproduced"]), interval(r),
             fmt(r["difference"]), str(r["status"]), str(r.get("known_disagreement", "") or "")]
            for _, r in cells.iterrows()]  # fmt: skip
    return [markdown_table([*(k.capitalize() for k in keys), "Published", "Reproduced", "95 % interval",
                            "Difference", "Status", "Known disagreement"], body), ""]
