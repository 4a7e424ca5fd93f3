"""Cell-level agreement with the published tables: intervals, statuses, known disagreements,
and the measures every report and the replication report compute from them.

Why: a reproduced cell beside a published one says little on its own. Whether the two
*agree* depends on how much the reproduced value moves from fold to fold, and a summary such
as "the sign agrees on 60 % of the datasets" means nothing until it is set beside what a
trivial prediction would score. This module gives every reproduced cell a 95 % interval from
the fold-level spread (a paired bootstrap over the runs × folds, :func:`bootstrap_interval`),
a status that says which of four things happened — ``not run``, ``never reached the
target``, ``agrees`` (the published value lies inside the reproduced interval) or
``disagrees`` — and the row of ``config/published/known_disagreements.tsv`` that explains a
disagreement, where one exists.

Every report module also returns its cells in one layout, the *evidence*
(:data:`EVIDENCE_COLUMNS`, :func:`evidence_frame`): a ``printed`` cell is a number the source
prints beside ours (scored by the share inside the interval and the median |difference|); a
``signed`` cell is a comparison whose sign says which side is ahead (a reduction over a
baseline, or the difference of two printed accuracies; scored by sign agreement beside the
best constant prediction, and by Spearman's correlation). :func:`table_agreement` condenses
any group of them into the same measures, for a chapter's report and for the replication
report of every table (:mod:`redecorate.report.replication_index`).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import lru_cache
from pathlib import Path

import numpy as np
import pandas as pd

from redecorate.arithmetic import matmul, matvec
from redecorate.report.conclusions import cell_signs, rank_correlation
from redecorate.report.tables import fmt, markdown_table

__all__ = [
    "AGREES",
    "BOOTSTRAP_LEVEL",
    "CELL_STATUSES",
    "DISAGREES",
    "EVIDENCE_COLUMNS",
    "NEVER_REACHED",
    "NOT_RUN",
    "PRINTED_ROUNDING",
    "REPRODUCED",
    "agreement_lines",
    "agreement_measures",
    "bootstrap_interval",
    "cell_status",
    "cells_lines",
    "disagreeing",
    "evidence_frame",
    "explanations",
    "gm_ratio_interval",
    "known_disagreement_lines",
    "known_disagreements_for",
    "mean_intervals",
    "printed_cells",
    "signed_differences",
    "table_agreement",
    "with_agreement_section",
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

PRINTED_ROUNDING = 0.005
"""Half the last printed digit of the sources' two-decimal values (accuracies, reductions,
Oza's four-decimal fractions once in percent): a published value this close to the
reproduced interval is inside it."""

BOOTSTRAP_LEVEL = 0.95
"""The level of every interval the reports print."""
BOOTSTRAP_REPLICATES = 1000
"""Enough for the 2.5 % and 97.5 % percentiles to move by a small fraction of the interval."""


@lru_cache(maxsize=64)
def _replicate_weights(n: int, replicates: int, seed: int) -> np.ndarray:
    """``weights[i, j]``: how often replicate ``i`` drew fold ``j``, over ``n`` (so a mean
    over the drawn folds is one product). The same for every cell with ``n`` folds and the
    same seed, hence cached; read-only."""
    rng = np.random.default_rng(seed)
    draws = rng.integers(0, n, size=(replicates, n))
    weights = np.zeros((replicates, n))
    np.add.at(weights, (np.repeat(np.arange(replicates), n), draws.ravel()), 1.0 / n)
    weights.setflags(write=False)
    return weights


def _percentile_interval(values: np.ndarray, replicates: int, level: float) -> tuple[float, float]:
    values = values[np.isfinite(values)]
    if values.size < replicates / 2:
        return float("nan"), float("nan")
    tail = 100.0 * (1.0 - level) / 2.0
    low, high = np.percentile(values, [tail, 100.0 - tail])
    return float(low), float(high)


def bootstrap_interval(statistic: Callable[..., float], *fold_matrices: np.ndarray,
                       level: float = BOOTSTRAP_LEVEL, replicates: int = BOOTSTRAP_REPLICATES,
                       seed: int = 0, vectorized: bool = False, centered: bool = True) -> tuple[float, float]:
    """Interval of a statistic of mean curves under resampling the folds, centred on its value.

    Every matrix has one row per (run, fold) and one column per curve point, paired across
    the matrices (the same split's curves of two systems). A replicate draws rows with
    replacement, averages the *same* rows of every matrix into mean curves and hands those
    to ``statistic(*mean_curves)``, which computes the cell from them exactly as the report
    does from the full set of folds (every summary of chapters 6–8 is a function of the
    systems' mean curves), so the interval is the spread of that very number, not of a
    per-fold proxy. Replicates where the statistic is undefined (NaN: e.g. a curve that
    never reaches its target) are left out; NaN if fewer than half of them are defined, or
    with fewer than two folds. Deterministic for a given ``seed``.

    ``vectorized``: ``statistic`` takes the replicates' mean curves as matrices (one row per
    replicate) and returns one value per row, the same arithmetic row by row as on one
    curve; a thousand replicates are then a few array operations instead of a thousand calls.

    ``centered`` (default): the percentile interval of the replicates is moved by the
    statistic's value on all folds minus the replicates' mean, so that it is the spread of
    the statistic around its own value. Many of these statistics are not linear in the curves:
    the top 20 % of reductions selects the largest, a first crossing the earliest, and a
    replicate's noisier mean curves push both one way (on chapter 6's committed records the
    top-20 % value sits at the 15th percentile of its replicates, median over 45 cells, an
    all-points mean at the 53rd). The plain percentile interval then misses another
    estimate of the same quantity on one side: with chapter 6's records split into runs 0
    and 1, one run's top-20 % value fell below the other run's interval 45 times and above it
    5 times (150 cells); centred, 25 and 19 times, as balanced as the all-points mean's
    misses (21 and 32), and likewise for the examples to reach the target
    (``reproduced/ch6_readings/readings.md``, "Intervals"). ``centered=False``: the plain
    percentile interval. An undefined value on all folds (NaN) leaves the interval uncentred.
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
    weights = _replicate_weights(n, replicates, seed)
    curves = [matmul(weights, a) for a in arrays]
    if vectorized:
        values = np.asarray(statistic(*curves), dtype=np.float64)
    else:
        values = np.array([statistic(*(c[i] for c in curves)) for i in range(replicates)], dtype=np.float64)
    low, high = _percentile_interval(values, replicates, level)
    if centered and np.isfinite(low):
        means = [a.mean(axis=0) for a in arrays]
        value = (float(np.asarray(statistic(*(m[None, :] for m in means)), dtype=np.float64)[0]) if vectorized
                 else float(statistic(*means)))  # fmt: skip
        low, high = _centred(low, high, values, value)
    return low, high


def _centred(low: float, high: float, values: np.ndarray, value: float) -> tuple[float, float]:
    """The percentile interval ``low, high`` of the replicates ``values`` moved by the
    statistic's ``value`` minus the replicates' mean (see :func:`bootstrap_interval`,
    ``centered``); unmoved when ``value`` or the interval is undefined."""
    if not (np.isfinite(value) and np.isfinite(low)):
        return low, high
    shift = value - float(values[np.isfinite(values)].mean())
    return low + shift, high + shift


def gm_ratio_interval(pairs: Sequence[tuple[np.ndarray, np.ndarray]], *, level: float = BOOTSTRAP_LEVEL,
                      replicates: int = BOOTSTRAP_REPLICATES, seed: int = 0) -> tuple[float, float]:
    """Interval of the geometric mean over datasets of E_A / E_B (E = 100 − mean accuracy in
    %: the GM error ratio of chapter 4's summary rows), centred on its value as
    :func:`bootstrap_interval` centres.

    ``pairs``: per dataset, A's and B's accuracies of the same (run, fold) splits. Each
    dataset's splits are resampled as :func:`bootstrap_interval` resamples a curve's, the same
    draws for A and B (paired), and independently of the other datasets' (their splits have
    nothing in common). Why: a table that prints only its summary rows (Tables 4.8–4.16) has
    no accuracy to set inside an interval but its GM ratios; without one, whether a printed
    ratio is within the reproduction's noise could not be told, only its side of 1. NaN with
    no dataset, a dataset of fewer than two splits, or fewer than half the replicates finite
    (a zero error)."""
    if not pairs:
        return float("nan"), float("nan")
    logs = np.zeros(replicates)
    value = 0.0
    with np.errstate(divide="ignore", invalid="ignore"):
        for i, (a, b) in enumerate(pairs):
            a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
            if a.shape != b.shape or a.ndim != 1:
                raise ValueError(f"dataset {i}: A and B need one accuracy per split each, got {a.shape}, {b.shape}")
            if a.size < 2:
                return float("nan"), float("nan")
            weights = _replicate_weights(a.size, replicates, seed + i)
            logs += np.log(100.0 - matvec(weights, a)) - np.log(100.0 - matvec(weights, b))
            value += float(np.log(100.0 - a.mean()) - np.log(100.0 - b.mean()))
        values = np.exp(logs / len(pairs))
        value = float(np.exp(value / len(pairs)))
    return _centred(*_percentile_interval(values, replicates, level), values, value)


def mean_intervals(records: pd.DataFrame, keys: Sequence[str], *, value: str = "value",
                   level: float = BOOTSTRAP_LEVEL, replicates: int = BOOTSTRAP_REPLICATES,
                   seed: int = 0) -> pd.DataFrame:
    """95 % intervals of the mean of ``value`` per group of ``keys``, over its runs × folds.

    The printed cells of chapters 4–5, of Bommaganti's and of Oza's tables are means over the
    (run, fold) splits (an online learner's value of a split is its mean over the stream
    orders). Each group's splits are resampled exactly as :func:`bootstrap_interval`
    resamples the rows of a curve matrix (the same draws for the same number of splits), so
    the intervals of every chapter mean the same thing; the means of all groups with the
    same number of splits are one matrix product. Columns: ``keys``, ``low``, ``high``.
    """
    splits = records.groupby([*keys, "run", "fold"], sort=True, observed=True)[value].mean()
    rows: list[tuple[object, ...]] = []
    matrices: dict[int, list[tuple[tuple[object, ...], np.ndarray]]] = {}
    for key, values in splits.groupby(level=list(range(len(keys))), sort=True):
        key = key if isinstance(key, tuple) else (key,)
        matrices.setdefault(len(values), []).append((key, values.to_numpy(dtype=np.float64)))
    for n, groups in matrices.items():
        if n < 2:
            rows += [(*key, np.nan, np.nan) for key, _ in groups]
            continue
        means = matmul(np.vstack([v for _, v in groups]), _replicate_weights(n, replicates, seed).T)
        for (key, _), replicate_means in zip(groups, means, strict=True):
            rows.append((*key, *_percentile_interval(replicate_means, replicates, level)))
    return pd.DataFrame(rows, columns=[*keys, "low", "high"])


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


def explanations(cells: pd.DataFrame, known: pd.DataFrame, *, system: str = "system") -> pd.Series:
    """The explanation of the first ``known_disagreements.tsv`` row that covers each cell
    (:func:`redecorate.report.published.explain_cells`: empty keys match any; ``system`` names
    the cells' column the TSV's system key is matched against, e.g. ``comparison`` for
    chapter 7's ``a_vs_b`` cells), whether or not the cell disagrees; ``""`` where none does."""
    from redecorate.report.published import explain_cells

    keyed = cells.copy()
    for column in ("table", "dataset", system):
        if column not in keyed.columns:
            keyed[column] = ""
    if "point" not in keyed.columns:
        keyed["point"] = np.nan
    return explain_cells(keyed, known, system=system) if len(keyed) else pd.Series(dtype=object)


def with_known_disagreements(cells: pd.DataFrame, known: pd.DataFrame, *, system: str = "system") -> pd.DataFrame:
    """``cells`` with a column ``known_disagreement``: for a cell that disagrees or never
    reached the target, its :func:`explanations`; empty for every other cell."""
    notes = explanations(cells, known, system=system)
    out = cells.copy()
    out["known_disagreement"] = notes.where(out["status"].isin([DISAGREES, NEVER_REACHED]), "") if len(out) else []
    return out


EVIDENCE_COLUMNS: tuple[str, ...] = (
    "table", "dataset", "system", "point", "statistic", "published", "reproduced", "low", "high",
    "status", "explanation", "printed", "signed",
)  # fmt: skip
"""The one layout of every report's cells (:func:`evidence_frame`):

* ``table``: the published table key (``4.2``, ``7.4 (early)``); ``dataset`` (``""`` for a
  row over all datasets), ``system`` (a label, or ``A_vs_B`` for a comparison), ``point``
  (curve point or noise level, NaN if none) and ``statistic`` name the cell;
* ``published``, ``reproduced`` and the reproduced 95 % interval ``low``, ``high`` (NaN where
  the cell has none: a count, a ratio of means);
* ``status``: one of :data:`CELL_STATUSES`;
* ``explanation``: the known disagreement that covers the cell (:func:`explanations`), counted
  only where the cell disagrees;
* ``printed``: a number the source prints (scored by the inside share, the median |difference|
  and drawn in the replication report's scatter); ``signed``: a comparison whose sign says which
  side is ahead (scored by sign agreement and Spearman's correlation). A printed reduction is
  both; the difference of two printed accuracies is signed only.
"""


def evidence_frame(rows: pd.DataFrame | Iterable[Mapping[str, object]]) -> pd.DataFrame:
    """``rows`` in the :data:`EVIDENCE_COLUMNS` layout: missing text columns empty, missing
    numbers NaN, ``printed``/``signed`` False unless set; other columns dropped."""
    frame = pd.DataFrame(rows) if not isinstance(rows, pd.DataFrame) else rows.copy()
    for column in EVIDENCE_COLUMNS:
        if column not in frame.columns:
            frame[column] = (False if column in ("printed", "signed")
                             else "" if column in ("table", "dataset", "system", "statistic", "status", "explanation")
                             else np.nan)  # fmt: skip
    frame = frame[list(EVIDENCE_COLUMNS)].reset_index(drop=True)
    for column in ("published", "reproduced", "low", "high", "point"):
        frame[column] = pd.to_numeric(frame[column], errors="coerce").astype(float)
    for column in ("table", "dataset", "system", "statistic", "status", "explanation"):
        frame[column] = frame[column].fillna("").astype(str)
    for column in ("printed", "signed"):
        frame[column] = frame[column].fillna(False).astype(bool)
    return frame


def printed_cells(cells: pd.DataFrame, intervals: pd.DataFrame, keys: Sequence[str], *,
                  ran: pd.Series | None = None, tolerance: float = PRINTED_ROUNDING,
                  signed: bool = False) -> pd.DataFrame:
    """Printed cells (``published``, ``reproduced`` and the ``keys`` that name them) with the
    interval of :func:`mean_intervals` joined on ``keys`` and their status.

    ``ran``: whether each cell's system ran on its dataset (default: it did where there is a
    reproduced value). ``signed``: the printed value is itself a comparison (a reduction).
    """
    cells = cells.assign(_ran=cells["reproduced"].notna() if ran is None else ran.astype(bool))
    out = (cells.merge(intervals, on=list(keys), how="left") if len(intervals)
           else cells.assign(low=np.nan, high=np.nan))  # fmt: skip
    out["status"] = [cell_status(p, r, lo, hi, ran=bool(k), tolerance=tolerance) for p, r, lo, hi, k in
                     zip(out["published"], out["reproduced"], out["low"], out["high"], out["_ran"], strict=True)]  # fmt: skip
    return out.drop(columns="_ran").assign(printed=True, signed=signed)


def signed_differences(cells: pd.DataFrame, pairs: Iterable[tuple[str, str, str]], *,
                       lower_better: bool = False) -> pd.DataFrame:
    """Signed cells from printed ones: per table ``(table, a, b)`` of ``pairs`` and per
    (dataset, point), A − B published and reproduced (B − A where ``lower_better``, e.g. an
    error), so that a positive value means A ahead in both. ``cells`` are evidence rows of
    the printed values of both systems under ``table``; a difference is covered by the
    explanation of either cell.
    """
    rows = []
    for table, a, b in pairs:
        here = cells[(cells["table"] == table) & cells["printed"]]
        both = here[here["system"] == a].merge(here[here["system"] == b], on=["dataset", "point"],
                                               suffixes=("_a", "_b"))  # NaN points match NaN
        sign = -1.0 if lower_better else 1.0
        for _, r in both.iterrows():
            rows.append({"table": table, "dataset": r["dataset"], "system": f"{a}_vs_{b}", "point": r["point"],
                         "statistic": f"{r['statistic_a']} difference",
                         "published": sign * (r["published_a"] - r["published_b"]),
                         "reproduced": sign * (r["reproduced_a"] - r["reproduced_b"]),
                         "status": NOT_RUN if NOT_RUN in (r["status_a"], r["status_b"]) else "",
                         "explanation": r["explanation_a"] or r["explanation_b"], "signed": True})  # fmt: skip
    return evidence_frame(rows)


def disagreeing(evidence: pd.DataFrame) -> pd.Series:
    """Which evidence rows disagree with the source: a printed cell outside its interval (or
    never reaching a target the source reached), or a signed cell whose sign is not the
    published one. A printed cell without an interval (a count, a pooled correlation) cannot
    be judged outside one and disagrees only through its sign."""
    bounded = evidence["low"].notna() & evidence["high"].notna()
    printed = evidence["printed"] & (((evidence["status"] == DISAGREES) & bounded)
                                     | (evidence["status"] == NEVER_REACHED))
    both = evidence["published"].notna() & evidence["reproduced"].notna()
    sign = evidence["signed"] & both & (cell_signs(evidence["published"]) != cell_signs(evidence["reproduced"]))
    return printed | sign


def known_disagreements_for(published_paths: Sequence[str | os.PathLike[str]]) -> pd.DataFrame:
    """The known disagreements beside an experiment's published tables (the TSV lives in the
    same directory as the transcribed tables); empty when there is none."""
    from redecorate.report.published import DISAGREEMENTS_FILE, read_disagreements

    paths = [Path(p) for p in published_paths]
    return read_disagreements(paths[0].parent / DISAGREEMENTS_FILE if paths else None)


def agreement_measures(evidence: pd.DataFrame) -> dict[str, object]:
    """The measures every report gives, of one group of evidence rows (:data:`EVIDENCE_COLUMNS`).

    Of the printed cells: ``cells`` (published), ``reproduced`` (with a value),
    ``median_abs_difference`` and ``inside_interval`` (share of the reproduced cells *with an
    interval* whose published value lies inside it; a cell that never reached its target has
    no value and does not count). Of the signed cells: ``compared`` (both values known),
    ``sign_agreement`` (share with the published sign), ``trivial`` (what the best constant
    prediction, "always positive" or "always negative", scores on the same cells),
    ``minority`` (the cells that prediction misses) and ``spearman`` (published vs reproduced
    values). ``disagreeing`` and ``explained``: rows that disagree (:func:`disagreeing`), and
    those of them a known disagreement covers. Then the count of printed cells per status.
    """
    group = evidence_frame(evidence)
    printed = group[group["printed"]]
    done = printed[printed["status"].isin(REPRODUCED)]
    bounded = done[done["low"].notna() & done["high"].notna()]
    signed = group[group["signed"] & group["published"].notna() & group["reproduced"].notna()]
    pub, rep = cell_signs(signed["published"]), cell_signs(signed["reproduced"])
    wrong = group[disagreeing(group)]
    measures: dict[str, object] = {
        "cells": len(printed), "reproduced": len(done),
        "median_abs_difference": float((done["reproduced"] - done["published"]).abs().median()) if len(done) else np.nan,
        "inside_interval": float((bounded["status"] == AGREES).mean()) if len(bounded) else np.nan,
        "compared": len(signed),
        "sign_agreement": float((pub == rep).mean()) if len(signed) else np.nan,
        "trivial": float(max((pub > 0).mean(), (pub < 0).mean())) if len(signed) else np.nan,
        "minority": int(len(signed) - max((pub > 0).sum(), (pub < 0).sum())),
        "spearman": rank_correlation(signed["reproduced"], signed["published"]),
        "disagreeing": len(wrong), "explained": int((wrong["explanation"] != "").sum()),
    }  # fmt: skip
    for status in CELL_STATUSES:
        measures[status] = int((printed["status"] == status).sum())
    return measures


def table_agreement(evidence: pd.DataFrame, *, by: Sequence[str] = ("table",)) -> pd.DataFrame:
    """:func:`agreement_measures` per group of ``by`` keys, one row each."""
    frame = evidence_frame(evidence)
    rows = []
    for key, group in frame.groupby(list(by), sort=False):
        key = key if isinstance(key, tuple) else (key,)
        rows.append({**dict(zip(by, key, strict=True)), **agreement_measures(group)})
    return pd.DataFrame(rows)


AGREEMENT_LEGEND = (
    "*Median |diff.|*: of the printed cells reproduced; *inside*: share of them whose published "
    "value lies inside the reproduced 95 % interval (paired bootstrap over runs × folds; fewer "
    "folds, wider intervals); *sign* / *trivial*: share of the signed cells (reductions, "
    "differences between two systems) with the published sign, and what the best constant "
    "prediction (always positive, or always negative) scores on them; *Spearman*: rank "
    "correlation of their published and reproduced values. Then the count of printed cells per "
    "status.")
"""What the columns of every "Agreement per table" section mean."""


def agreement_lines(evidence: pd.DataFrame, *, by: Sequence[str] = ("table", "statistic")) -> list[str]:
    """Markdown: the measures of :func:`table_agreement` per group, with their legend.

    The counts of a report's cells mean little alone, so every row sets the share of
    published values inside the reproduced 95 % interval beside per-cell sign agreement, what
    the trivial prediction scores, and the rank correlation.
    """
    summary = table_agreement(evidence, by=by)
    if summary.empty:
        return []
    body = [[*(str(r[k]) for k in by), str(r["cells"]), str(r["reproduced"]), fmt(r["median_abs_difference"]),
             fmt(r["inside_interval"]), str(r["compared"]), fmt(r["sign_agreement"]), fmt(r["trivial"]),
             fmt(r["spearman"]), *(str(r[s]) for s in CELL_STATUSES)] for _, r in summary.iterrows()]  # fmt: skip
    lines = ["## Agreement per table", "", AGREEMENT_LEGEND, "",
             markdown_table([*(k.capitalize() for k in by), "Cells", "Reproduced", "Median |diff.|", "Inside",
                             "Signed", "Sign", "Trivial", "Spearman", *(s.capitalize() for s in CELL_STATUSES)],
                            body), ""]  # fmt: skip
    notes = known_disagreement_lines(evidence)
    if notes:
        lines += ["## Known disagreements", "",
                  f"{int(summary['explained'].sum())} of the {int(summary['disagreeing'].sum())} disagreeing "
                  "cells (a printed value outside the reproduced interval, or a signed cell against the "
                  "published sign) have a recorded cause (`config/published/known_disagreements.tsv`, each with "
                  "its evidence):", "", *notes, ""]  # fmt: skip
    return lines


def known_disagreement_lines(evidence: pd.DataFrame, *, label: str | None = None) -> list[str]:
    """Markdown bullets: each known disagreement behind disagreeing cells (:func:`disagreeing`)
    once, under ``label`` or the tables it covers, with the number of cells and their datasets.

    Why: a disagreement with a recorded cause is neither hidden nor a new failure; the report of
    the experiment and the replication report of every table say the same thing the same way.
    """
    frame = evidence_frame(evidence)
    wrong = frame[disagreeing(frame) & (frame["explanation"] != "")]
    notes = []
    for text, group in wrong.groupby("explanation", sort=False):
        tables = list(dict.fromkeys(str(t) for t in group["table"] if t))
        name = label or (f"Table{'s' if len(tables) > 1 else ''} {', '.join(tables)}" if tables else "")
        where = ", ".join(sorted({str(d) for d in group["dataset"] if d})) or "all datasets"
        notes.append(f"- **{name}** ({len(group)} cell{'' if len(group) == 1 else 's'}; {where}): {text}")
    return notes


def with_agreement_section(markdown: str, evidence: pd.DataFrame, *, by: Sequence[str] = ("table",)) -> str:
    """``markdown`` (a report) with the :func:`agreement_lines` section before its first
    ``## `` heading, so every chapter's report opens on the same measures."""
    lines = agreement_lines(evidence, by=by)
    if not lines:
        return markdown
    head, sep, rest = markdown.partition("\n## ")
    section = "\n".join(lines)
    return f"{head}\n{section}\n## {rest}" if sep else f"{markdown.rstrip()}\n\n{section}\n"


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
