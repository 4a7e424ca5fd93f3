"""The typed dataset every experiment consumes.

A :class:`Dataset` keeps the attribute types of the ARFF header rather than a numeric
matrix: DECORATE samples artificial nominal values from the *declared* domain (so values
absent from a training sample keep non-zero probability), C4.5 makes multiway splits on
nominal attributes, and the noise injectors replace values within the declared domain.
All of them need nominal columns as :class:`pandas.Categorical` whose categories are the
full declared value list in declared order. Learners that need numbers one-hot encode inside
their own pipelines, never here.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import pandas as pd

from redecorate.data.errors import DatasetError

REGISTRY_HINT = "config/datasets.yaml"


def category_index(values: Sequence[str]) -> pd.Index:
    """Categories for a nominal attribute, with pandas' default dtype for text.

    Every source builds its categories here, so a Dataset from an ARFF file, a CSV, the
    bundled data or a prepared parquet compares equal to a Categorical built by hand with
    ``pd.Categorical(values, categories=[...])`` (object categories under pandas 2, ``str``
    under pandas 3).
    """
    return pd.Index(list(values)) if len(values) else pd.Index([], dtype=object)


@dataclass
class Dataset:
    """A classification dataset with typed attributes and its provenance.

    Attributes:
        name: registry key (or file stem) used in records, tables and file names.
        X: one column per attribute; nominal columns are ``Categorical`` with the declared
            domain as categories, numeric columns are ``float64``; missing values are NaN.
        y: the class, ``Categorical`` with the declared class values as categories.
        source: human-readable provenance (file, URL, bundled loader) for reports.
        sha256: checksum of the file the data came from, when there was one.
        n_missing_class_dropped: rows removed at load time because their class was missing
            (Weka's ``deleteWithMissingClass``); kept so reports can explain size gaps.
        notes: other load-time decisions worth reporting (e.g. dropped string attributes).
        weights: per-instance weights from an ARFF ``{w}`` suffix, or None when all are 1.
        source_fingerprint: for a registry dataset, what it was loaded from
            (:func:`redecorate.data.fingerprint.source_fingerprint`), which its prepared copy
            records; None otherwise.
        missing_class_lines: the file lines of the rows dropped for a missing class, where the
            source knows them, so a size mismatch can point at the rows (a blank class cell).
        string_attributes: (name, header line) of each string attribute dropped at load time,
            so an attribute count short of the registry's names them rather than blaming the
            version of the data.
    """

    name: str
    X: pd.DataFrame
    y: pd.Series
    source: str
    sha256: str | None = None
    n_missing_class_dropped: int = 0
    notes: tuple[str, ...] = field(default_factory=tuple)
    weights: np.ndarray | None = None
    source_fingerprint: dict[str, Any] | None = None
    missing_class_lines: tuple[int, ...] = ()
    string_attributes: tuple[tuple[str, int], ...] = ()

    # -- summaries ----------------------------------------------------------------------
    @property
    def n_instances(self) -> int:
        """Number of rows (after rows with a missing class were dropped)."""
        return len(self.y)

    @property
    def class_counts(self) -> pd.Series:
        """Count per declared class value, in declared order, zeros included."""
        return self.y.value_counts(sort=False).reindex(self.y.cat.categories, fill_value=0)

    @property
    def n_classes(self) -> int:
        """Number of classes *present*: the thesis's counts, and what learners can predict."""
        return int((self.class_counts > 0).sum())

    @property
    def class_name(self) -> str:
        """Name of the class attribute (the ``y`` series name)."""
        return str(self.y.name)

    def content_sha256(self) -> str:
        """SHA-256 of what a learner sees: values, declared domains (in order), names, weights.

        Why: records are reused by unit key (:mod:`redecorate.job_records`), and a unit key
        names its dataset, not its data; an edited dataset must not take the records computed
        on the old one. ``sha256`` is the source file's, which a changed class attribute or a
        subsample leaves as it was.
        """
        h = hashlib.sha256()
        domains = {str(c): [str(v) for v in self.X[c].cat.categories] for c in self.nominal_attributes}
        header = {"columns": [str(c) for c in self.X.columns], "class": self.class_name,
                  "classes": [str(v) for v in self.y.cat.categories], "domains": domains}  # fmt: skip
        h.update(json.dumps(header, sort_keys=True).encode("utf-8"))
        h.update(pd.util.hash_pandas_object(self.X, index=False).to_numpy().tobytes())
        h.update(pd.util.hash_pandas_object(self.y, index=False).to_numpy().tobytes())
        if self.weights is not None:
            h.update(np.ascontiguousarray(self.weights, dtype=np.float64).tobytes())
        return h.hexdigest()

    @property
    def nominal_attributes(self) -> list[str]:
        """Names of the nominal (categorical) attributes, in column order."""
        return [c for c, dt in self.X.dtypes.items() if isinstance(dt, pd.CategoricalDtype)]

    @property
    def numeric_attributes(self) -> list[str]:
        """Names of the numeric attributes, in column order."""
        return [c for c, dt in self.X.dtypes.items() if not isinstance(dt, pd.CategoricalDtype)]

    # -- validation ---------------------------------------------------------------------
    def check(
        self,
        expected_instances: int | None = None,
        expected_classes: int | None = None,
        expected_attributes: int | None = None,
    ) -> Dataset:
        """Raise :class:`DatasetError` unless the dataset is usable and has the expected shape.

        The registry records the sizes of the versions the dissertation used; a mismatch
        means a different version of the data (OpenML's colic, say) or a wrong class
        attribute, either of which would silently change every number downstream.
        Returns ``self`` so loaders can ``return dataset.check(...)``.
        """
        counts = self.class_counts
        present = [str(v) for v, n in counts.items() if n > 0]
        if not present:
            raise DatasetError(
                f"dataset {self.name!r} has no instance with a class value "
                f"(class attribute {self.class_name!r}, source {self.source}): classification "
                f"needs labelled data; check the class attribute (class_attribute in {REGISTRY_HINT})"
            )
        if len(present) < 2:
            raise DatasetError(
                f"dataset {self.name!r} has a single class {present[0]!r} present "
                f"(class attribute {self.class_name!r}, {self.n_instances} instances, "
                f"source {self.source}): classification needs at least two; check the class "
                f"attribute (class_attribute in {REGISTRY_HINT})"
            )
        if expected_instances is not None and self.n_instances != expected_instances:
            if self.n_missing_class_dropped:
                shown = ", ".join(map(str, self.missing_class_lines[:5]))
                more = ", ..." if len(self.missing_class_lines) > 5 else ""
                where = f" (file line {shown}{more})" if shown else ""
                raise DatasetError(
                    f"dataset {self.name!r} has {self.n_instances} instances after dropping "
                    f"{self.n_missing_class_dropped} row(s) with a missing class{where}, expected "
                    f"{expected_instances} (class attribute {self.class_name!r}, source {self.source}); "
                    f"fix: fill in the class of those rows (a blank or '?' class cell is a missing "
                    f"class), or update 'instances' for {self.name!r} in {REGISTRY_HINT} if dropping "
                    "them is intended"
                )
            raise DatasetError(
                f"dataset {self.name!r} has {self.n_instances} instances, expected "
                f"{expected_instances} (source {self.source}): this is probably a different "
                f"version of the data; use the file the registry names, or update 'instances' "
                f"for {self.name!r} in {REGISTRY_HINT} if the new version is intended"
            )
        if expected_classes is not None and self.n_classes != expected_classes:
            raise DatasetError(
                f"dataset {self.name!r} has {self.n_classes} classes present "
                f"({', '.join(present)}), expected {expected_classes} (class attribute "
                f"{self.class_name!r}, source {self.source}): check class_attribute for "
                f"{self.name!r} in {REGISTRY_HINT}, or update 'classes' if the data changed"
            )
        if expected_attributes is not None and self.X.shape[1] != expected_attributes:
            if self.string_attributes and self.X.shape[1] + len(self.string_attributes) == expected_attributes:
                named = ", ".join(f"{n!r} (line {line})" for n, line in self.string_attributes)
                raise DatasetError(
                    f"dataset {self.name!r} has {self.X.shape[1]} attributes besides the class, "
                    f"expected {expected_attributes}: the string attribute(s) {named} of {self.source} "
                    "were dropped, since the learners cannot use free text; fix: declare each as "
                    "nominal ({v1, v2, ...}) or numeric in the file if it holds categories or numbers, "
                    f"or set 'attributes: {self.X.shape[1]}' for {self.name!r} in {REGISTRY_HINT} to "
                    "leave it out"
                )
            raise DatasetError(
                f"dataset {self.name!r} has {self.X.shape[1]} attributes besides the class, "
                f"expected {expected_attributes} (source {self.source}): this is probably a "
                f"different version of the data (OpenML copies sometimes carry extra "
                f"attributes); use the mirror file, set drop_attributes, or update 'attributes' "
                f"for {self.name!r} in {REGISTRY_HINT}"
            )
        return self

    # -- derived datasets ---------------------------------------------------------------
    def subset(self, rows: Sequence[int] | np.ndarray) -> Dataset:
        """Rows by position, keeping declared categories (a fold may lack a class or value)."""
        idx = np.asarray(rows, dtype=np.intp)
        return replace(
            self,
            X=self.X.iloc[idx].reset_index(drop=True),
            y=self.y.iloc[idx].reset_index(drop=True),
            weights=None if self.weights is None else self.weights[idx],
        )

    def drop_attributes(self, names: Sequence[str]) -> Dataset:
        """A copy without the named attributes, noting the drop in ``notes``.

        Raises :class:`DatasetError` for a name that is not an attribute, because a typo in
        the registry must not silently keep an attribute the experiment meant to remove.
        """
        if not names:
            return self
        unknown = [n for n in names if n not in self.X.columns]
        if unknown:
            raise DatasetError(
                f"dataset {self.name!r} has no attribute(s) {unknown} to drop (attributes: "
                f"{list(self.X.columns)}); fix drop_attributes for {self.name!r} in {REGISTRY_HINT}"
            )
        return replace(
            self,
            X=self.X.drop(columns=list(names)),
            notes=(*self.notes, f"dropped attributes {list(names)} as configured"),
        )
