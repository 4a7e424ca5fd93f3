"""The dataset registry: names the experiments use, mapped to sources and expected sizes.

``config/datasets.yaml`` is the single place that says what ``anneal`` or ``breast-w`` *is*:
which mirror file, which OpenML id, which class attribute, and how many instances and classes
the dissertation's version has. :func:`load_dataset` turns a name into a checked
:class:`Dataset`, so a wrong file, a different OpenML version or a wrong class attribute fails
at load time with a message that names the fix, instead of quietly changing the results.

Names resolve exactly first, then case-insensitively against keys, ``thesis_name`` and
``aliases``, so the labels of the dissertation's tables (``Breast-w``, ``Statlog``, ``hypo``)
find their dataset.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from redecorate.config import did_you_mean, load_yaml_validated
from redecorate.data.arff import ClassAttribute
from redecorate.data.dataset import REGISTRY_HINT, Dataset
from redecorate.data.errors import DataError, RegistryError
from redecorate.data.fingerprint import local_source, source_fingerprint
from redecorate.data.sources.bundled import load_bundled
from redecorate.data.sources.csv_table import load_csv
from redecorate.data.sources.local_arff import load_local_arff, load_mirror
from redecorate.data.sources.openml import (
    DEFAULT_RETRIES,
    DEFAULT_SERVER,
    DEFAULT_TIMEOUT,
    OFFLINE_FIX,
    load_openml,
)
from redecorate.data.sources.synthetic import generate_oza

REGISTRY_RELATIVE = Path("config/datasets.yaml")
SCHEMA_RELATIVE = Path("workflow/schemas/datasets.schema.yaml")
_REPO_ROOT = Path(__file__).resolve().parents[3]


@dataclass(frozen=True)
class DatasetEntry:
    """One registry entry, with its source resolved (``arff``, ``openml``, ``sklearn``, ``csv``,
    ``synthetic``)."""

    name: str
    source: str
    instances: int
    classes: int
    thesis_name: str | None = None
    aliases: tuple[str, ...] = ()
    openml_id: int | None = None
    file: str | None = None
    path: str | None = None
    sklearn_name: str | None = None
    class_attribute: ClassAttribute = None
    attributes: int | None = None
    inputs: int | None = None  # inputs after nominal-to-binary: prices networks, nothing else
    sha256: str | None = None
    drop_attributes: tuple[str, ...] = ()
    note: str | None = None
    subsample: tuple[int, int] | None = None  # (size, seed): a fixed random sample of rows
    drop_absent_classes: bool = False  # keep only the class values present in the data
    generator: str | None = None  # source synthetic: which generator ('oza')
    p_a20_zero: tuple[float, float] | None = None  # generator oza: P(A20 = 0 | Y = 0), (| Y = 1)
    seed: int | None = None  # source synthetic: the generator's seed

    @classmethod
    def from_mapping(cls, name: str, raw: Mapping[str, Any]) -> DatasetEntry:
        """Build an entry from its validated YAML mapping, inferring ``source`` when absent."""
        return cls(
            name=name,
            source=raw.get("source") or _infer_source(raw),
            instances=int(raw["instances"]),
            classes=int(raw["classes"]),
            thesis_name=raw.get("thesis_name"),
            aliases=tuple(raw.get("aliases", ())),
            openml_id=raw.get("openml_id"),
            file=raw.get("file"),
            path=raw.get("path"),
            sklearn_name=raw.get("sklearn_name"),
            class_attribute=raw.get("class_attribute"),
            attributes=raw.get("attributes"),
            inputs=raw.get("inputs"),
            sha256=raw.get("sha256"),
            drop_attributes=tuple(raw.get("drop_attributes", ())),
            note=raw.get("note"),
            subsample=(None if raw.get("subsample") is None
                       else (int(raw["subsample"]["size"]), int(raw["subsample"]["seed"]))),
            drop_absent_classes=bool(raw.get("drop_absent_classes", False)),
            generator=raw.get("generator"),
            p_a20_zero=None if raw.get("p_a20_zero") is None else tuple(float(p) for p in raw["p_a20_zero"]),
            seed=raw.get("seed"),
        )

    @property
    def needs_network(self) -> bool:
        """Whether loading it offline is impossible: an OpenML download and no mirror file."""
        return self.source == "openml" and not self.file

    @property
    def labels(self) -> tuple[str, ...]:
        """Every label that resolves to this entry: key, thesis name, aliases."""
        extra = (self.thesis_name,) if self.thesis_name else ()
        return (self.name, *extra, *self.aliases)


def _infer_source(raw: Mapping[str, Any]) -> str:
    """Bundled beats local beats download; a bare mirror ``file`` needs a mirror."""
    if raw.get("sklearn_name"):
        return "sklearn"
    if raw.get("generator"):
        return "synthetic"
    if raw.get("path"):
        return "csv" if str(raw["path"]).lower().endswith(".csv") else "arff"
    if raw.get("openml_id") is not None:
        return "openml"
    return "arff"


@dataclass(frozen=True)
class Registry(Mapping[str, DatasetEntry]):
    """Read-only mapping of dataset name to :class:`DatasetEntry`, with label resolution."""

    path: Path
    entries: dict[str, DatasetEntry]
    _index: dict[str, str] = field(default_factory=dict, repr=False, compare=False)

    def __post_init__(self) -> None:
        index: dict[str, str] = {}
        for key, entry in self.entries.items():
            for label in entry.labels:
                folded = label.lower()
                other = index.get(folded)
                if other is not None and other != key:
                    raise RegistryError(
                        f"{self.path}: label {label!r} of dataset {key!r} also names dataset "
                        f"{other!r}; fix: make keys, thesis_name and aliases unique (case-insensitively)"
                    )
                index[folded] = key
        object.__setattr__(self, "_index", index)

    def __getitem__(self, name: str) -> DatasetEntry:
        return self.resolve(name)

    def __iter__(self) -> Iterator[str]:
        return iter(self.entries)

    def __len__(self) -> int:
        return len(self.entries)

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and (name in self.entries or name.lower() in self._index)

    def get(self, name: str, default: Any = None) -> Any:  # type: ignore[override]
        """The entry for a key or label, or ``default`` (Mapping.get only catches KeyError)."""
        try:
            return self.resolve(name)
        except RegistryError:
            return default

    def resolve(self, name: str) -> DatasetEntry:
        """The entry for a key or label; :class:`RegistryError` with close matches otherwise."""
        if name in self.entries:
            return self.entries[name]
        key = self._index.get(str(name).lower())
        if key is not None:
            return self.entries[key]
        raise RegistryError(
            f"unknown dataset {name!r}.{did_you_mean(str(name).lower(), self._index, n=5)} The "
            f"known datasets are the keys of {self.path} ({len(self.entries)} entries); fix the "
            f"name, or add an entry to {self.path}"
        )


def default_registry_path() -> Path:
    """``config/datasets.yaml`` in the working directory, else in the repository of this package."""
    local = REGISTRY_RELATIVE
    return local if local.is_file() else _REPO_ROOT / REGISTRY_RELATIVE


def default_schema_path(registry_path: str | Path) -> Path:
    """The schema of the repository the registry lives in (``<repo>/workflow/schemas/...``)."""
    beside = Path(registry_path).resolve().parent.parent / SCHEMA_RELATIVE
    return beside if beside.is_file() else _REPO_ROOT / SCHEMA_RELATIVE


def load_registry(path: str | Path | None = None, *, schema_path: str | Path | None = None) -> Registry:
    """Read and validate the registry (``config/datasets.yaml`` by default).

    Validation uses ``workflow/schemas/datasets.schema.yaml`` through
    :func:`redecorate.config.load_yaml_validated`, so errors name the file, line and key path.
    """
    path = Path(path) if path is not None else default_registry_path()
    schema = Path(schema_path) if schema_path is not None else default_schema_path(path)
    data = load_yaml_validated(path, schema)
    entries = {str(k): DatasetEntry.from_mapping(str(k), v) for k, v in data["datasets"].items()}
    return Registry(path=path, entries=entries)


def unavailable_offline(registry: Mapping[str, DatasetEntry], names: Iterable[str],
                        mirror: str | Path) -> dict[str, str]:
    """Datasets of ``names`` an offline run cannot load, each with the reason to print.

    With ``data_mirror`` set the workflow does not download; a dataset that only OpenML has
    (connect-4, covertype, ...: too large for the mirror) would fail its preparation job
    after every other job had started. The workflow drops such datasets from the experiment
    before any job starts and says why, so an offline run is what it can be, and a report
    that then lacks a published dataset says "not comparable".
    """
    out = {}
    for name in names:
        entry = registry[name]
        if entry.needs_network:
            out[name] = (f"skipping {name} (OpenML {entry.openml_id}, {entry.instances:,} instances): "
                         f"not in the ARFF mirror {mirror} and data_mirror means offline; run "
                         "without data_mirror to download it")
    return out


def load_dataset(
    name: str,
    *,
    registry: Registry | str | Path | None = None,
    data_dir: str | Path = "data",
    mirror: str | Path | None = None,
    openml_server: str = DEFAULT_SERVER,
    timeout: float = DEFAULT_TIMEOUT,
    retries: int = DEFAULT_RETRIES,
) -> Dataset:
    """Load a registry dataset and check it against the registry's expected sizes.

    Args:
        name: a registry key or label (``breast-w``, ``Breast-w``, ``hypo``).
        registry: a loaded :class:`Registry`, or a path to one (default ``config/datasets.yaml``).
        data_dir: cache directory for downloads (``data/`` by default).
        mirror: a directory of ARFF files; when given and the entry has a ``file``, the file is
            read from there and nothing is downloaded.
        openml_server, timeout, retries: passed to the OpenML downloader.

    The returned dataset is named by the registry key, whatever label was asked for. An error
    names the registry ``registry`` is (the sources' messages name the default one).
    """
    reg = registry if isinstance(registry, Registry) else load_registry(registry)
    entry = reg.resolve(name)
    try:
        # Taken before the load: a file edited meanwhile then differs from the record, and the
        # workflow prepares it again (redecorate.data.staleness).
        path = local_source(entry, mirror)
        fingerprint = None if path is not None and not path.is_file() else source_fingerprint(entry, mirror)
        dataset = _load_entry(entry, reg, data_dir=data_dir, mirror=mirror, openml_server=openml_server,
                              timeout=timeout, retries=retries)
        return replace(dataset, source_fingerprint=fingerprint)
    except DataError as exc:
        if str(reg.path) != REGISTRY_HINT:
            exc.args = (str(exc).replace(REGISTRY_HINT, str(reg.path)), *exc.args[1:])
        raise


def _load_entry(entry: DatasetEntry, reg: Registry, *, data_dir: str | Path, mirror: str | Path | None,
                openml_server: str, timeout: float, retries: int) -> Dataset:
    """:func:`load_dataset` of a resolved entry."""
    if mirror is not None and entry.file:
        dataset = load_mirror(mirror, entry.file, name=entry.name,
                              class_attribute=entry.class_attribute, expected_sha256=entry.sha256)
    elif entry.source == "sklearn":
        dataset = load_bundled(str(entry.sklearn_name), name=entry.name)
    elif entry.source == "synthetic":
        if entry.generator != "oza" or entry.p_a20_zero is None or entry.seed is None:
            raise RegistryError(f"dataset {entry.name!r} in {reg.path}: source synthetic needs "
                                "generator: oza, p_a20_zero: [p0, p1] and seed")
        dataset = generate_oza(entry.p_a20_zero, n=entry.instances, seed=int(entry.seed), name=entry.name,
                               n_attributes=int(entry.attributes or 20))
    elif entry.source == "csv":
        dataset = load_csv(str(entry.path), entry.class_attribute, name=entry.name,
                           expected_sha256=entry.sha256)
    elif entry.source == "openml":
        if entry.openml_id is None:
            raise RegistryError(f"dataset {entry.name!r} in {reg.path} has source openml but no openml_id")
        dataset = load_openml(entry.openml_id, name=entry.name, data_dir=data_dir,
                              class_attribute=entry.class_attribute, server=openml_server,
                              timeout=timeout, retries=retries)
    elif entry.path:
        dataset = load_local_arff(entry.path, name=entry.name,
                                  class_attribute=entry.class_attribute, expected_sha256=entry.sha256)
    else:
        raise RegistryError(
            f"dataset {entry.name!r} is only available from a local mirror (file {entry.file!r}) "
            f"and no mirror was given; fix: run with {OFFLINE_FIX}, or add openml_id/path to its "
            f"entry in {reg.path}"
        )
    dataset = dataset.drop_attributes(entry.drop_attributes)
    dataset = dataset.check(entry.instances, entry.classes, entry.attributes)
    if entry.subsample is not None:
        dataset = _subsample(dataset, *entry.subsample)
    if entry.drop_absent_classes:
        dataset = _drop_absent_classes(dataset)
    return dataset


def _drop_absent_classes(dataset: Any) -> Any:
    """The dataset with its class's declared values cut to those that occur.

    Why: a learner's class count comes from the declared values (Weka's ``numClasses``), so
    an ARFF file that declares classes no instance has (heart-c: 5 declared, 2 present) is a
    multi-class problem to every learner, while chapter 7 treats it as binary and scores it
    with the two-class Bootstrap-LV.
    """
    y = dataset.y
    absent = [c for c in y.cat.categories if not (y == c).any()]
    if not absent:
        return dataset
    return dataclasses.replace(
        dataset, y=y.cat.remove_categories(absent),
        notes=(*dataset.notes, f"declared classes without instances dropped: {', '.join(map(str, absent))}"),
    )


def _subsample(dataset: Any, size: int, seed: int) -> Any:
    """A random sample of ``size`` rows without replacement, in file order, from ``seed``.

    Chapter 7 replaces kr-vs-kp, sick and optdigits by 1000 random instances each; the
    thesis's sample is unknown, so the registry records ours (size and seed) and the
    prepared data's provenance says so. The sizes are checked on the whole file first.
    """
    n = len(dataset.y)
    if size >= n:
        raise RegistryError(f"dataset {dataset.name!r}: subsample size {size} is not smaller "
                            f"than its {n} instances; remove 'subsample' from its registry entry")
    rows = np.sort(np.random.default_rng(seed).choice(n, size=size, replace=False))
    weights = None if dataset.weights is None else dataset.weights[rows]
    return dataclasses.replace(
        dataset, X=dataset.X.iloc[rows].reset_index(drop=True),
        y=dataset.y.iloc[rows].reset_index(drop=True), weights=weights,
        source=f"{dataset.source}; random sample of {size} of {n} instances (seed {seed})",
        notes=(*dataset.notes, f"subsample of {size} instances, seed {seed}"),
    )
