"""Local CSV files: for data that never had an ARFF header.

A CSV carries no declared domains, so a nominal column's categories are the values that occur,
sorted (numerically when they all look like numbers, so class labels 1, 2, 10 keep their
natural order). Text columns become nominal, numeric columns float64; ``?`` and empty cells
are missing, as in the UCI files. Rows with a missing class are dropped and counted.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from redecorate.data.dataset import Dataset, category_index
from redecorate.data.errors import DatasetError
from redecorate.data.sources.checksum import verify_sha256

DEFAULT_NA = ("?", "")


def _sorted_levels(values: pd.Series) -> list[str]:
    """Distinct non-missing strings, in numeric order if all parse as numbers, else lexical."""
    levels = sorted(set(values.dropna().astype(str)))
    try:
        return sorted(levels, key=float)
    except ValueError:
        return levels


def _nominal(values: pd.Series) -> pd.Series:
    as_text = values.astype(object).where(values.notna(), None)
    as_text = as_text.map(lambda v: None if v is None else str(v))
    cats = category_index(_sorted_levels(as_text))
    return pd.Series(pd.Categorical(as_text, categories=cats), name=values.name)


def _class_column_name(path: Path, class_column: str | int | None, label: str) -> str:
    """The class column's name: as given, or the header's column at a 0-based index, or its
    last column (``None``), the default of ``class_attribute`` for every source."""
    if isinstance(class_column, str):
        return class_column
    try:
        header = list(pd.read_csv(path, nrows=0).columns)
    except (ValueError, pd.errors.ParserError) as exc:
        raise DatasetError(f"dataset {label!r}: cannot read the header of CSV file {path}: {exc}; "
                           "fix: the file needs a header row") from None
    index = -1 if class_column is None else class_column
    if not header or not -len(header) <= index < len(header):
        raise DatasetError(f"dataset {label!r}: CSV file {path} has {len(header)} columns, no "
                           f"column {index}; fix class_attribute for {label!r} in "
                           "config/datasets.yaml (a column name or 0-based index)")
    return str(header[index])


def load_csv(
    path: str | Path,
    class_column: str | int | None = None,
    *,
    name: str | None = None,
    na_values: tuple[str, ...] = DEFAULT_NA,
    expected_sha256: str | None = None,
) -> Dataset:
    """Load a CSV with a header row; ``class_column`` names the class (a column name, a
    0-based index, or ``None``: the last column)."""
    p = Path(path)
    label = name or p.stem
    if not p.is_file():
        raise DatasetError(f"dataset {label!r}: CSV file {p} not found: check the 'path' of "
                           f"{label!r} in config/datasets.yaml")
    digest = verify_sha256(p, expected_sha256, dataset=label)
    class_column = _class_column_name(p, class_column, label)
    try:
        frame = pd.read_csv(p, na_values=list(na_values), keep_default_na=False,
                            skipinitialspace=True, dtype={class_column: str})
    except (ValueError, pd.errors.ParserError) as exc:
        raise DatasetError(f"dataset {label!r}: cannot read CSV file {p}: {exc}; fix: the file "
                           "needs a header row and one comma-separated value per column") from None
    if class_column not in frame.columns:
        raise DatasetError(f"dataset {label!r}: CSV file {p} has no column {class_column!r} "
                           f"(columns: {', '.join(map(str, frame.columns[:10]))}); fix "
                           f"class_attribute for {label!r} in config/datasets.yaml")
    y = _nominal(frame[class_column])
    keep = y.notna().to_numpy()
    n_dropped = int((~keep).sum())
    columns = {}
    for col in frame.columns:
        if col == class_column:
            continue
        series = frame[col]
        if pd.api.types.is_numeric_dtype(series) and not pd.api.types.is_bool_dtype(series):
            columns[str(col)] = series.astype(np.float64)
        else:
            columns[str(col)] = _nominal(series)
    X = pd.DataFrame(columns).loc[keep].reset_index(drop=True)
    notes = (f"dropped {n_dropped} rows with a missing class",) if n_dropped else ()
    dataset = Dataset(
        name=label,
        X=X,
        y=y.loc[keep].reset_index(drop=True).rename(class_column),
        source=f"CSV file {p}",
        sha256=digest,
        n_missing_class_dropped=n_dropped,
        notes=notes,
        # the header is line 1 (a quoted value spanning lines would shift these)
        missing_class_lines=tuple(int(i) + 2 for i in np.flatnonzero(~keep)),
    )
    return dataset.check()
