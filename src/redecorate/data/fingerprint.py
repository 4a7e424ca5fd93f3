"""What the prepared copy of a registry dataset is made from: its source fingerprint.

Why: an edit to a dataset's file or to its registry entry must prepare it again and rerun
every job that read it (:mod:`redecorate.data.staleness`). The fingerprint is the registry
entry's fields that decide the data and the checksum of the local file it is read from (a
``path``, or a mirror ``file``) unless the entry pins that checksum itself. The declared
sizes (``instances``, ``classes``, ``attributes``) are checks, not inputs (except for a
generator, where they are its parameters): changing one alone must not throw the prepared
data and every job's records away. Whether a mirror or a download provided a checksummed
file does not change it: switching between them must not invalidate finished results.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

from redecorate.data.sources.checksum import file_digest

__all__ = ["local_source", "source_fingerprint"]

_DESCRIPTIVE = frozenset({"name", "thesis_name", "aliases", "note", "inputs"})
"""Entry fields that name, describe or price a dataset without changing its data (``inputs``
sizes networks' jobs only)."""
_DECLARED = frozenset({"instances", "classes", "attributes"})
"""Entry fields that check the data (a generator's instances and attributes make it)."""


def local_source(entry: Any, mirror: str | Path | None) -> Path | None:
    """The local file a load of ``entry`` reads (as :func:`redecorate.data.load_dataset` picks
    it: a mirror ``file`` when a mirror is given, else a ``path``), or None (a download, a
    bundled table, a generator). ``entry`` is a :class:`redecorate.data.DatasetEntry`, not
    imported: the registry imports this module to record the fingerprint."""
    if mirror is not None and entry.file:
        return Path(mirror) / entry.file
    if entry.path and entry.source in ("csv", "arff"):
        return Path(entry.path)
    return None


def source_fingerprint(entry: Any, mirror: str | Path | None, *, file_sha256: str | None = None
                       ) -> dict[str, Any]:
    """What the prepared data of ``entry`` is made from (see the module docstring), as JSON
    values (a sidecar reads it back equal). ``file_sha256`` is the local file's checksum when
    the caller already has it."""
    fields = {k: v for k, v in dataclasses.asdict(entry).items() if k not in _DESCRIPTIVE}
    if entry.source != "synthetic":
        fields = {k: v for k, v in fields.items() if k not in _DECLARED}
    path = local_source(entry, mirror)
    if path is not None and entry.sha256 is None:  # a missing file: None, until it appears
        fields["file_sha256"] = file_sha256 or (file_digest(path) if path.is_file() else None)
    return json.loads(json.dumps(fields, sort_keys=True))
