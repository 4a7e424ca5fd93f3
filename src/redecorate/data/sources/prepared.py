"""Prepared datasets on disk: ``data/prepared/<name>.parquet`` plus a JSON sidecar.

The workflow's data rule parses/downloads a dataset once and every job reads the prepared
copy. Parquet (via pyarrow) stores pandas Categoricals as dictionary columns, so the declared
domains survive, including unused values and their order. The sidecar keeps what a table
cannot: the name, the provenance, the source checksum, the load notes, and the declared
categories of every nominal column, which :func:`load_prepared` re-applies and cross-checks so
a reader that reorders dictionaries can never silently renumber a nominal attribute.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from redecorate.data.dataset import Dataset, category_index
from redecorate.data.errors import DatasetError
from redecorate.util import atomic_write

FORMAT_VERSION = 1
PREPARED_FROM = "prepared_from"
"""Sidecar key: what the data was prepared from (:func:`redecorate.data.staleness.source_fingerprint`)."""
CLASS_COLUMN = "__class__"
WEIGHT_COLUMN = "__weight__"


def sidecar_path(path: str | Path) -> Path:
    """The JSON sidecar next to a prepared parquet file (``x.parquet`` -> ``x.json``)."""
    return Path(path).with_suffix(".json")


def _categories(series: pd.Series) -> list[Any]:
    return [c.item() if isinstance(c, np.generic) else c for c in series.cat.categories]


def save_prepared(dataset: Dataset, path: str | Path) -> Path:
    """Write ``dataset`` to ``path`` (parquet) and its sidecar; both atomically. Returns ``path``.

    The sidecar records the dataset's source fingerprint, if it has one, so a later run can
    tell whether the copy is still current (:mod:`redecorate.data.staleness`).
    """
    path = Path(path)
    reserved = {CLASS_COLUMN, WEIGHT_COLUMN} & set(map(str, dataset.X.columns))
    if reserved:
        raise DatasetError(f"dataset {dataset.name!r} has attribute(s) {sorted(reserved)} whose "
                           "names are reserved for the prepared format; rename them")
    table = dataset.X.copy()
    table.columns = [str(c) for c in table.columns]
    table[CLASS_COLUMN] = dataset.y.to_numpy()
    table[CLASS_COLUMN] = table[CLASS_COLUMN].astype(dataset.y.dtype)
    if dataset.weights is not None:
        table[WEIGHT_COLUMN] = np.asarray(dataset.weights, dtype=np.float64)
    meta = {
        "format_version": FORMAT_VERSION,
        "name": dataset.name,
        "source": dataset.source,
        "sha256": dataset.sha256,
        "class_name": dataset.class_name,
        "n_instances": dataset.n_instances,
        "n_classes": dataset.n_classes,
        "n_missing_class_dropped": dataset.n_missing_class_dropped,
        "notes": list(dataset.notes),
        "columns": list(table.columns[: dataset.X.shape[1]]),
        "class_categories": _categories(dataset.y),
        "nominal_categories": {c: _categories(dataset.X[c]) for c in dataset.nominal_attributes},
    }
    if dataset.source_fingerprint is not None:
        meta[PREPARED_FROM] = dict(dataset.source_fingerprint)
    atomic_write(path, lambda tmp: table.to_parquet(tmp, engine="pyarrow", index=False))
    atomic_write(sidecar_path(path),
                  lambda tmp: tmp.write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8"))
    return path


def _restore(series: pd.Series, categories: list[Any], what: str, path: Path) -> pd.Series:
    """Rebuild a Categorical over the recorded categories, matching values by label."""
    values = series.astype(object).where(series.notna(), None)
    unknown = set(values.dropna()) - set(categories)
    if unknown:
        raise DatasetError(f"{path}: {what} holds values {sorted(map(str, unknown))[:5]} that the "
                           "sidecar does not declare; fix: regenerate the prepared file")
    restored = pd.Categorical(values, categories=category_index(categories))
    return pd.Series(restored, name=series.name)


def load_prepared(path: str | Path) -> Dataset:
    """Read a dataset written by :func:`save_prepared`, categories and their order intact."""
    path = Path(path)
    side = sidecar_path(path)
    try:
        meta = json.loads(side.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise DatasetError(f"{side}: sidecar of prepared dataset {path} not found; fix: "
                           "regenerate the prepared dataset (rerun the data rule)") from None
    if meta.get("format_version") != FORMAT_VERSION:
        raise DatasetError(f"{side}: prepared format version {meta.get('format_version')} is not "
                           f"{FORMAT_VERSION}; fix: regenerate the prepared dataset")
    try:
        table = pd.read_parquet(path, engine="pyarrow")
    except (FileNotFoundError, OSError) as exc:
        raise DatasetError(f"{path}: cannot read prepared dataset ({exc}); fix: regenerate it "
                           "(rerun the data rule)") from None
    columns: list[str] = meta["columns"]
    nominal: dict[str, list[Any]] = meta["nominal_categories"]
    X = pd.DataFrame({
        c: (_restore(table[c], nominal[c], f"attribute {c!r}", path) if c in nominal
            else table[c].astype(np.float64))
        for c in columns
    })
    y = _restore(table[CLASS_COLUMN], meta["class_categories"], "the class", path)
    weights = table[WEIGHT_COLUMN].to_numpy(np.float64) if WEIGHT_COLUMN in table else None
    return Dataset(
        name=meta["name"],
        X=X,
        y=y.rename(meta["class_name"]),
        source=meta["source"],
        sha256=meta["sha256"],
        n_missing_class_dropped=int(meta.get("n_missing_class_dropped", 0)),
        notes=tuple(meta.get("notes", ())),
        weights=weights,
    )
