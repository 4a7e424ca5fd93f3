"""scikit-learn's bundled datasets: small, offline, always available.

They are the quick profile's default because they need neither the network nor the mirror,
so a fresh checkout can run the whole workflow end to end in minutes. All their features are
numeric; the class becomes a Categorical of the target names so it looks like an ARFF class.
"""

from __future__ import annotations

import hashlib
from importlib import resources

import numpy as np
import pandas as pd

from redecorate.data.dataset import Dataset, category_index
from redecorate.data.errors import DatasetError

_LOADERS: dict[str, tuple[str, str]] = {
    "iris": ("load_iris", "iris.csv"),
    "wine": ("load_wine", "wine_data.csv"),
    "breast_cancer": ("load_breast_cancer", "breast_cancer.csv"),
}
"""name -> (scikit-learn loader, the CSV it reads). scikit-learn is imported only when a
bundled dataset is loaded: importing it costs ~0.8 s in every process that reads the registry."""
BUNDLED_NAMES = tuple(_LOADERS)


def _bundled_sha256(file_name: str) -> str | None:
    """sha256 of the CSV that scikit-learn ships, so provenance pins the exact bytes."""
    try:
        data = (resources.files("sklearn.datasets.data") / file_name).read_bytes()
    except (FileNotFoundError, ModuleNotFoundError, OSError):
        return None
    return hashlib.sha256(data).hexdigest()


def load_bundled(sklearn_name: str, *, name: str | None = None) -> Dataset:
    """Load ``iris``, ``wine`` or ``breast_cancer`` from scikit-learn as a :class:`Dataset`."""
    key = sklearn_name.removeprefix("load_")
    if key not in _LOADERS:
        raise DatasetError(
            f"unknown scikit-learn bundled dataset {sklearn_name!r}: choose one of "
            f"{', '.join(BUNDLED_NAMES)} (sklearn_name in config/datasets.yaml)"
        )
    import sklearn
    from sklearn import datasets as skd

    loader_name, file_name = _LOADERS[key]
    bunch = getattr(skd, loader_name)()
    X = pd.DataFrame(np.asarray(bunch.data, dtype=np.float64),  # type: ignore[attr-defined]
                     columns=[str(c) for c in bunch.feature_names])  # type: ignore[attr-defined]
    names = [str(t) for t in bunch.target_names]  # type: ignore[attr-defined]
    codes = np.asarray(bunch.target, dtype=np.int64)  # type: ignore[attr-defined]
    y = pd.Series(pd.Categorical.from_codes(codes, categories=category_index(names)),
                  name="class")
    dataset = Dataset(
        name=name or f"sk-{key.replace('_', '-')}",
        X=X,
        y=y,
        source=f"scikit-learn {sklearn.__version__} bundled sklearn.datasets.load_{key}",
        sha256=_bundled_sha256(file_name),
    )
    return dataset.check()
