"""Local ARFF files: the offline mirror of the dissertation's UCI datasets, or any ARFF path.

The mirror (``../shared/datasets/uci`` by default in the workflow) holds the Weka versions the
dissertation used, so tests and CI never need the network. The registry's ``file`` names the
file inside the mirror; ``sha256`` (optional) pins its bytes.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from redecorate.data.arff import ClassAttribute, read_arff, to_dataset
from redecorate.data.dataset import Dataset
from redecorate.data.errors import DatasetError
from redecorate.data.sources.checksum import verify_sha256


def load_local_arff(
    path: str | Path,
    *,
    name: str,
    class_attribute: ClassAttribute = None,
    expected_sha256: str | None = None,
) -> Dataset:
    """Load an ARFF file, verifying its checksum when the registry pins one."""
    p = Path(path)
    if not p.is_file():
        raise DatasetError(
            f"dataset {name!r}: ARFF file {p} not found: check the 'path' of {name!r} in "
            "config/datasets.yaml (relative paths are relative to the working directory)"
        )
    content = read_arff(p)
    verify_sha256(p, expected_sha256, dataset=name, actual=content.sha256)
    return to_dataset(content, class_attribute, name=name)


def load_mirror(
    mirror: str | Path,
    file: str,
    *,
    name: str,
    class_attribute: ClassAttribute = None,
    expected_sha256: str | None = None,
) -> Dataset:
    """Load ``<mirror>/<file>``; a missing file names the mirror and how to change it."""
    root = Path(mirror)
    if not root.is_dir():
        raise DatasetError(
            f"dataset {name!r}: mirror directory {root} does not exist: pass an existing "
            "directory, e.g. --config data_mirror=../shared/datasets/uci, or drop data_mirror to "
            "download from the entry's source"
        )
    path = root / file
    if not path.is_file():
        raise DatasetError(
            f"dataset {name!r}: file {file!r} not found in the mirror {root}: check 'file' for "
            f"{name!r} in config/datasets.yaml, or use a mirror that holds it"
        )
    dataset = load_local_arff(path, name=name, class_attribute=class_attribute,
                              expected_sha256=expected_sha256)
    return replace(dataset, source=f"local mirror {path}")
