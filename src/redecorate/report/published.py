"""Published values: the one long-form layout every transcribed table uses.

Every number the sources print — a mean accuracy of Table 4.2, a Sig. W/D/L count of Table
5.6, a data-utilization ratio of Table 6.1, a Spearman ρ of §4.4 — is one row of a
tab-separated file in ``config/published/`` with the columns

``table, comparison, dataset, point, system, metric, statistic, value`` (+ optional ``note``)

``table`` is the printed number (text: ``4.10`` is not ``4.1``); ``comparison`` the
``A_vs_B`` label of a pairwise table (empty for a per-system cell); ``dataset`` a registry
key (empty for a row over all datasets); ``point`` the curve point or noise level (empty when
the table has one); ``system`` the experiment's algorithm label; ``metric`` what was measured
(``accuracy``, ``diversity``, ``mse``, …); ``statistic`` which number of it (``mean``,
``sig_w``, ``gm_ratio``, ``error_reduction``, …); ``value`` the printed digits. A value the
source prints as text (``<<1e-50``) keeps its text in ``printed`` and is NaN in ``value``.

One layout means one reader (:func:`read_published`) with one set of errors, and a new
chapter adds a TSV without adding a parser; each report selects the rows it needs and, where
its tables are wide, pivots them (:func:`pivot_statistics`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from os import PathLike
from pathlib import Path

import numpy as np
import pandas as pd

__all__ = [
    "DISAGREEMENTS_FILE", "OPEN_FILE", "PUBLISHED_COLUMNS", "PublishedFormatError", "explain_cells",
    "pivot_statistics", "read_disagreements", "read_open_notes", "read_published", "split_comparison",
    "table_numbers",
]

PUBLISHED_COLUMNS: tuple[str, ...] = (
    "table", "comparison", "dataset", "point", "system", "metric", "statistic", "value",
)  # fmt: skip
"""The required columns, in file order; ``note`` may follow."""

_TEXT_COLUMNS = ("table", "comparison", "dataset", "system", "metric", "statistic", "note")


class PublishedFormatError(ValueError):
    """A published-values file that does not have the long-form layout (names file and fix)."""


def _empty() -> pd.DataFrame:
    frame = pd.DataFrame({c: pd.Series(dtype=object) for c in (*PUBLISHED_COLUMNS, "note")})
    frame["point"] = frame["point"].astype(float)
    frame["value"] = frame["value"].astype(float)
    frame["printed"] = pd.Series(dtype=object)
    frame["source"] = pd.Series(dtype=object)
    return frame


def _read_one(path: Path) -> pd.DataFrame:
    if not path.is_file():
        raise FileNotFoundError(
            f"published values not found: {path} (report.published lists files in config/published/)"
        )
    frame = pd.read_csv(path, sep="\t", dtype=str, keep_default_na=False)
    missing = [c for c in PUBLISHED_COLUMNS if c not in frame.columns]
    if missing:
        raise PublishedFormatError(
            f"{path}: published values need the columns {', '.join(PUBLISHED_COLUMNS)} (+ note); "
            f"missing {', '.join(missing)}, found {', '.join(frame.columns)}. Convert the file "
            "to the long form described in config/published/README.md."
        )
    if "note" not in frame.columns:
        frame["note"] = ""
    frame = frame[[*PUBLISHED_COLUMNS, "note"]].copy()
    for column in _TEXT_COLUMNS:
        frame[column] = frame[column].str.strip()
    point = pd.to_numeric(frame["point"].where(frame["point"] != ""), errors="coerce")
    bad = frame.index[(frame["point"] != "") & point.isna()]
    if len(bad):
        row = int(bad[0])
        raise PublishedFormatError(
            f"{path}, line {row + 2}, column point: {frame.at[row, 'point']!r} is not a number "
            "(leave it empty when the table has no points)"
        )
    frame["printed"] = frame["value"].str.strip()
    frame["value"] = pd.to_numeric(frame["printed"].where(frame["printed"] != ""), errors="coerce")
    frame["point"] = point.astype(float)
    if (frame["statistic"] == "").any():
        row = int(frame.index[frame["statistic"] == ""][0])
        raise PublishedFormatError(f"{path}, line {row + 2}, column statistic: empty "
                                   "(say which number this is: mean, sig_w, gm_ratio, ...)")
    frame["source"] = path.name
    return frame


def read_published(paths: str | PathLike[str] | Iterable[str | PathLike[str]]) -> pd.DataFrame:
    """All rows of the published-values files ``paths``, in file order.

    Text columns are strings (``""`` where the file leaves them empty), ``point`` and
    ``value`` floats (NaN where empty or, for ``value``, printed as text), ``printed`` the
    value as printed and ``source`` the file name. Raises :class:`PublishedFormatError`
    naming the file, line and column when a file is not in the long form.
    """
    if isinstance(paths, str | PathLike):
        paths = [paths]
    frames = [_read_one(Path(p)) for p in paths]
    if not frames:
        return _empty()
    return pd.concat(frames, ignore_index=True)


def pivot_statistics(rows: pd.DataFrame, index: Sequence[str], statistics: Sequence[str]) -> pd.DataFrame:
    """One row per ``index`` key with one column per statistic (NaN where not printed).

    The wide shape the printed tables have (a summary row's W/D/L, Sig. W/D/L and GM ratio
    side by side); ``index`` columns keep their values, so ``point`` stays a float.
    """
    wanted = rows[rows["statistic"].isin(list(statistics))]
    if wanted.empty:
        return pd.DataFrame({**{c: pd.Series(dtype=rows[c].dtype) for c in index},
                             **{s: pd.Series(dtype=float) for s in statistics}})  # fmt: skip
    keys = list(index)
    wide = wanted.pivot_table(index=keys, columns="statistic", values="value", aggfunc="first",
                              dropna=False, sort=False)  # fmt: skip
    wide = wide.reindex(columns=list(statistics))
    wide.columns.name = None
    out = wide.reset_index()
    # pivot_table drops rows whose values are all NaN (e.g. lost bold); keep them.
    present = wanted[keys].drop_duplicates()
    out = present.merge(out, on=keys, how="left")
    for s in statistics:
        out[s] = out[s].astype(float)
    return out.reset_index(drop=True)


def split_comparison(comparison: pd.Series) -> tuple[pd.Series, pd.Series]:
    """``decorate_unlabeled_vs_j48`` → (``decorate_unlabeled``, ``j48``): the two sides."""
    sides = comparison.str.split("_vs_", n=1)
    return sides.str[0], sides.str[1].fillna("").replace("", np.nan)


def table_numbers(rows: pd.DataFrame) -> dict[tuple[str, str], str]:
    """(A, B) → the published table comparing them, from :func:`read_published` rows.

    What titles a reproduced table "Table 4.2 (replicated)": only an experiment that
    compares with that published table gets its number.
    """
    known = rows[rows["comparison"].astype(str).str.contains("_vs_", regex=False)]
    pairs = known[["table", "comparison"]].drop_duplicates()
    a, b = split_comparison(pairs["comparison"].astype(str))
    return {(str(x), str(y)): str(t) for x, y, t in zip(a, b, pairs["table"], strict=True)}


DISAGREEMENTS_FILE = "known_disagreements.tsv"
"""Beside the published values: why some reproduced cells are known to differ (not values)."""
_DISAGREEMENT_COLUMNS = ("table", "dataset", "point", "system", "explanation")


OPEN_FILE = "open_disagreements.tsv"
"""Beside the published values: for a table whose disagreement has no known cause, why it is
open and what was tried (``source, item, why``), printed under the table's section."""


def read_open_notes(path: str | PathLike[str] | None) -> dict[tuple[str, str], str]:
    """(source, item) -> why the item's disagreement is open (empty without the file).

    Why a file of its own: a row of ``known_disagreements.tsv`` *explains* cells, and a
    table all of whose disagreeing cells are explained is "disagrees: explained"; a table
    whose cause is not known stays "disagrees: open", and the page must still say what was
    found and tried, not leave a verdict without a sentence."""
    if path is None or not Path(path).is_file():
        return {}
    frame = pd.read_csv(path, sep="\t", dtype=str, keep_default_na=False)
    missing = [c for c in ("source", "item", "why") if c not in frame.columns]
    if missing:
        raise PublishedFormatError(f"{path}: missing column(s) {', '.join(missing)}; expected source, item, why")
    notes: dict[tuple[str, str], str] = {}
    for line, row in enumerate(frame.itertuples(index=False), start=2):
        key = (row.source, row.item)
        if not row.why.strip():
            raise PublishedFormatError(f"{path}, line {line}: {row.source} {row.item} has no text in column 'why'")
        if key in notes:
            raise PublishedFormatError(f"{path}, line {line}: {row.source} {row.item} is listed twice")
        notes[key] = row.why.strip()
    return notes


def read_disagreements(path: str | PathLike[str] | None) -> pd.DataFrame:
    """Known disagreements: ``table, dataset, point, system, explanation`` (empty key = any).

    A replication report shows each explanation beside the cells it covers, and reports the
    differences with and without them, so a known cause (a different implementation in the
    source, an unknown convention) is neither hidden nor mistaken for a new failure.
    """
    empty = pd.DataFrame({c: pd.Series(dtype=float if c == "point" else object) for c in _DISAGREEMENT_COLUMNS})
    if path is None or not Path(path).is_file():
        return empty
    frame = pd.read_csv(path, sep="\t", dtype=str, keep_default_na=False)
    missing = [c for c in _DISAGREEMENT_COLUMNS if c not in frame.columns]
    if missing:
        raise PublishedFormatError(f"{path}: known disagreements need the columns "
                                   f"{', '.join(_DISAGREEMENT_COLUMNS)}; missing {', '.join(missing)}")
    blank = frame.index[frame["explanation"].str.strip() == ""]
    if len(blank):
        raise PublishedFormatError(f"{path}, line {int(blank[0]) + 2}, column explanation: empty "
                                   "(say why the cells differ)")
    point = pd.to_numeric(frame["point"].where(frame["point"] != ""), errors="coerce")
    bad = frame.index[(frame["point"] != "") & point.isna()]
    if len(bad):
        raise PublishedFormatError(f"{path}, line {int(bad[0]) + 2}, column point: "
                                   f"{frame.at[int(bad[0]), 'point']!r} is not a number")
    return frame.assign(point=point.astype(float))[list(_DISAGREEMENT_COLUMNS)]


def explain_cells(cells: pd.DataFrame, disagreements: pd.DataFrame, *, system: str = "system") -> pd.Series:
    """The explanation of each cell (``""`` if none): the first disagreement whose non-empty
    keys (table, dataset, point, ``system`` column) all match the cell."""
    out = pd.Series("", index=cells.index, dtype=object)
    for note in disagreements.itertuples(index=False):
        match = pd.Series(True, index=cells.index)
        if note.table:
            match &= cells["table"].astype(str) == note.table
        if note.dataset:
            match &= cells["dataset"] == note.dataset
        if pd.notna(note.point):
            match &= cells["point"].astype(float) == float(note.point)
        if note.system:
            match &= cells[system] == note.system
        out[match & (out == "")] = note.explanation
    return out
