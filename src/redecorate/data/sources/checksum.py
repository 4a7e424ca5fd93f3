"""File checksums: the registry pins the exact bytes each result was computed from.

A dataset that changed under the same name (a re-exported ARFF, another OpenML version)
silently changes every table; comparing checksums turns that into a loud, early error.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from redecorate.data.errors import DatasetError

_CHUNK = 1 << 20


def file_digest(path: str | Path, algorithm: str = "sha256") -> str:
    """Hex digest of a file's bytes, read in chunks so large files need little memory."""
    h = hashlib.new(algorithm)
    with Path(path).open("rb") as fh:
        while chunk := fh.read(_CHUNK):
            h.update(chunk)
    return h.hexdigest()


def verify_sha256(path: str | Path, expected: str | None, *, dataset: str, actual: str | None = None) -> str:
    """Return the file's sha256; raise :class:`DatasetError` if it differs from ``expected``.

    ``actual`` may be passed when the caller already hashed the bytes it parsed, so the check
    is about exactly those bytes.
    """
    digest = actual or file_digest(path)
    if expected is not None and digest != expected.lower():
        raise DatasetError(
            f"dataset {dataset!r}: file {path} has sha256 {digest}, but the registry pins "
            f"{expected}: the file is not the version the experiments were defined on; restore "
            f"the original file, or update sha256 for {dataset!r} in config/datasets.yaml if the "
            "change is intended"
        )
    return digest
