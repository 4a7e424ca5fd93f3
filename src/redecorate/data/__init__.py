"""The data layer: typed datasets, the ARFF reader, sources and the dataset registry.

Typical use::

    from redecorate.data import load_registry, load_dataset
    reg = load_registry()                                  # config/datasets.yaml, validated
    ds = load_dataset("breast-w", registry=reg, mirror="../shared/datasets/uci")
    ds.X, ds.y, ds.class_counts
"""

from redecorate.data.arff import ArffAttribute, ArffContent, load_arff, read_arff, to_dataset
from redecorate.data.dataset import Dataset, category_index
from redecorate.data.errors import ArffError, DataError, DatasetError, DownloadError, RegistryError
from redecorate.data.registry import (
    DatasetEntry,
    Registry,
    default_registry_path,
    load_dataset,
    load_registry,
)
from redecorate.data.sources import (
    load_bundled,
    load_csv,
    load_local_arff,
    load_mirror,
    load_openml,
    load_prepared,
    save_prepared,
)

__all__ = [
    "ArffAttribute",
    "ArffContent",
    "ArffError",
    "DataError",
    "Dataset",
    "DatasetEntry",
    "DatasetError",
    "DownloadError",
    "Registry",
    "RegistryError",
    "category_index",
    "default_registry_path",
    "load_arff",
    "load_bundled",
    "load_csv",
    "load_dataset",
    "load_local_arff",
    "load_mirror",
    "load_openml",
    "load_prepared",
    "load_registry",
    "read_arff",
    "save_prepared",
    "to_dataset",
]
