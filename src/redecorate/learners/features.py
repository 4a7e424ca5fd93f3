"""Attribute schema and the numeric encoding every learner works on internally.

Learners accept pandas DataFrames whose nominal attributes are ``Categorical`` (the
declared ARFF domain as categories) and whose numeric attributes are floats, or plain
numeric arrays. Internally every learner works on one float64 matrix in which a nominal
value is its category code and a missing value is NaN. The :class:`FeatureSchema`
remembers which column is which so that C4.5 can split nominal attributes multiway and
DECORATE can sample artificial values from the full declared domain, without ever
one-hot encoding.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np
import pandas as pd


@dataclass(frozen=True)
class FeatureSchema:
    """Names and types of the attributes a learner was fitted on.

    ``categories[j]`` is the tuple of declared values of nominal attribute ``j`` and
    ``None`` for a numeric attribute.
    """

    names: tuple[str, ...]
    categories: tuple[tuple[str, ...] | None, ...]

    @property
    def n_features(self) -> int:
        return len(self.names)

    @cached_property
    def nominal_sizes(self) -> np.ndarray:
        """Domain size per attribute, 0 for numeric ones (the tree engine's encoding)."""
        return np.array([0 if c is None else len(c) for c in self.categories], dtype=np.int64)

    @cached_property
    def is_nominal(self) -> np.ndarray:
        return np.array([c is not None for c in self.categories], dtype=bool)

    def select(self, columns) -> FeatureSchema:
        """The schema of ``X[:, columns]``: what a member that sees only those attributes
        (a feature-subset ensemble's, a random subspace's) is fitted with."""
        cols = [int(j) for j in np.asarray(columns).ravel()]
        return FeatureSchema(tuple(self.names[j] for j in cols), tuple(self.categories[j] for j in cols))

    @classmethod
    def from_input(cls, X) -> FeatureSchema:
        """Infer the schema from a DataFrame (Categorical = nominal) or an array (all numeric)."""
        if isinstance(X, pd.DataFrame):
            cats: list[tuple[str, ...] | None] = []
            for name, dtype in zip(X.columns.tolist(), X.dtypes.tolist(), strict=True):
                if isinstance(dtype, pd.CategoricalDtype):
                    cats.append(_category_names(dtype.categories))
                elif pd.api.types.is_numeric_dtype(dtype) or pd.api.types.is_bool_dtype(dtype):
                    cats.append(None)
                else:
                    raise TypeError(
                        f"column {name!r} has dtype {dtype}: nominal attributes must be "
                        "pandas Categorical (declare their values) and numeric ones float; "
                        "convert with X[col].astype('category') or load the data with "
                        "redecorate.data.load_arff"
                    )
            schema = cls(tuple(str(c) for c in X.columns.tolist()), tuple(cats))
            # Remember the frame's own category indexes: frames sharing them (subsets of
            # one dataset) are then recognised by identity, without comparing values.
            object.__setattr__(
                schema,
                "_cat_index",
                [dt.categories if c is not None else None for dt, c in zip(X.dtypes.tolist(), cats, strict=True)],
            )
            return schema
        arr = np.asarray(X)
        if arr.ndim != 2:
            raise ValueError(f"expected a 2-D array of features, got shape {arr.shape}")
        return cls(tuple(f"x{j}" for j in range(arr.shape[1])), tuple([None] * arr.shape[1]))

    def _category_index(self, j: int) -> pd.Index:
        cache = self.__dict__.get("_cat_index")
        if cache is None:
            cache = [None if c is None else pd.Index(c) for c in self.categories]
            object.__setattr__(self, "_cat_index", cache)
        return cache[j]

    def encode(self, X) -> np.ndarray:
        """Return the float64 matrix (nominal codes as floats, NaN for missing)."""
        if isinstance(X, pd.DataFrame):
            if X.shape[1] != self.n_features:
                raise ValueError(
                    f"X has {X.shape[1]} features, but the model was fitted with {self.n_features}"
                )
            out = np.empty((X.shape[0], self.n_features), dtype=np.float64)
            for j, (name, col, cats) in enumerate(
                zip(X.columns.tolist(), _column_arrays(X), self.categories, strict=True)
            ):
                if cats is None:
                    if isinstance(col.dtype, pd.CategoricalDtype):
                        raise TypeError(f"column {name!r} was numeric at fit time, is nominal now")
                    out[:, j] = _numeric_column(col, name)
                    continue
                if not isinstance(col.dtype, pd.CategoricalDtype):
                    raise TypeError(f"column {name!r} was nominal at fit time, is {col.dtype} now")
                codes = np.asarray(col.codes)
                here = col.categories
                fitted = self._category_index(j)
                if here is not fitted and not here.equals(fitted) and not here.astype(str).equals(fitted):
                    # Re-map onto the fitted domain; values unknown at fit time become missing.
                    lookup = {v: i for i, v in enumerate(cats)}
                    remap = np.array([lookup.get(str(v), -1) for v in here], dtype=np.int64)
                    codes = np.where(codes >= 0, remap[np.maximum(codes, 0)], -1)
                out[:, j] = np.where(codes >= 0, codes.astype(np.float64), np.nan)
            return out
        arr = np.asarray(X, dtype=np.float64)
        if arr.ndim != 2:
            raise ValueError(f"expected a 2-D array of features, got shape {arr.shape}")
        if arr.shape[1] != self.n_features:
            raise ValueError(
                f"X has {arr.shape[1]} features, but the model was fitted with {self.n_features}"
            )
        if np.isinf(arr).any():
            raise ValueError("Input X contains infinity or a value too large for dtype('float64').")
        return arr

    def encode_dict(self, x) -> np.ndarray:
        """Encode one example given as ``{attribute: value}`` (river's form) as a 1 × d row.

        Absent attributes and ``None`` are missing; a nominal value is looked up among the
        declared values (an unknown one is missing, as in :meth:`encode`)."""
        lookups = self.__dict__.get("_value_codes")
        if lookups is None:
            lookups = [None if c is None else {v: float(i) for i, v in enumerate(c)} for c in self.categories]
            object.__setattr__(self, "_value_codes", lookups)
        row = np.full((1, self.n_features), np.nan)
        for j, (name, codes) in enumerate(zip(self.names, lookups, strict=True)):
            value = x.get(name)
            if value is None:
                continue
            if codes is not None:
                row[0, j] = codes.get(str(value), np.nan)
                continue
            try:
                row[0, j] = float(value)
            except (TypeError, ValueError):
                raise ValueError(
                    f"attribute {name!r} is numeric, but the example gives {value!r}; fix: pass a number "
                    "(or None for a missing value), or declare the attribute nominal by learning from a "
                    "DataFrame whose column is Categorical (partial_fit)") from None
        return row

    def decode(self, Xe: np.ndarray) -> pd.DataFrame:
        """Inverse of :meth:`encode` (used to hand artificial data to foreign learners)."""
        cols = {}
        for j, (name, cats) in enumerate(zip(self.names, self.categories, strict=True)):
            if cats is None:
                cols[name] = Xe[:, j]
            else:
                codes = np.where(np.isnan(Xe[:, j]), -1, Xe[:, j]).astype(np.int64)
                cols[name] = pd.Categorical.from_codes(codes, categories=list(cats))
        return pd.DataFrame(cols)


def _column_arrays(X: pd.DataFrame) -> list:
    """The columns' backing arrays, without building a Series per column (hot path)."""
    getter = getattr(X, "_get_column_array", None)
    if getter is not None:
        return [getter(j) for j in range(X.shape[1])]
    return [s.array for _, s in X.items()]


def _numeric_column(col, name: str) -> np.ndarray:
    """A numeric column as float64 with NaN for missing (NumPy and nullable dtypes)."""
    if isinstance(col, np.ndarray) and col.dtype.kind in "fiub":
        return col.astype(np.float64, copy=False)
    try:
        return np.asarray(col.to_numpy(dtype=np.float64, na_value=np.nan))
    except (TypeError, ValueError) as exc:
        raise TypeError(f"column {name!r} is not numeric: {exc}") from None


_NAMES_CACHE: dict[int, tuple[pd.Index, tuple[str, ...]]] = {}


def _category_names(categories: pd.Index) -> tuple[str, ...]:
    """Category values as strings, memoised per Index object (one dataset's subsets share
    their category indexes, so a learning curve converts each domain once)."""
    hit = _NAMES_CACHE.get(id(categories))
    if hit is not None and hit[0] is categories:
        return hit[1]
    names = tuple(str(v) for v in categories.tolist())
    if len(_NAMES_CACHE) > 4096:
        _NAMES_CACHE.clear()
    _NAMES_CACHE[id(categories)] = (categories, names)
    return names
