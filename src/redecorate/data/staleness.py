"""Is the prepared copy of a dataset still what its source and registry entry describe?

Why: the workflow prepares each dataset once (rule ``prepare_dataset``) and every job reads the
prepared copy. Without a dependency on where the copy came from, an edited CSV (ten more rows,
and ``instances: 250`` in its registry entry) was never read again: a run exited 0 on the old
data, and the registry's 250 against the data's 240 went unnoticed. So:

* the source fingerprint (:func:`redecorate.data.fingerprint.source_fingerprint`) is a
  parameter of ``prepare_dataset`` (:func:`prepared_source_param`): an edit prepares the
  dataset again, and Snakemake reruns every job that read it. The prepared sidecar records
  the fingerprint it was made from (:func:`redecorate.data.save_prepared`), which is how a
  later run tells whether the copy is current;
* whenever the prepared data stays in use, its sizes are compared with the registry's, so a
  mismatch fails the dry run (:func:`check_declared_sizes`);
* a ``path`` that names a missing file, or one that no longer has the checksum the registry
  pins, fails the dry run naming the registry actually used (``registry=``), not only inside
  the job (a mirror's file is checked by its preparation job: :func:`_checked_file`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from redecorate.data.errors import DatasetError
from redecorate.data.fingerprint import local_source, source_fingerprint
from redecorate.data.registry import DatasetEntry, Registry, load_dataset
from redecorate.data.sources.checksum import file_digest
from redecorate.data.sources.prepared import PREPARED_FROM, sidecar_path

__all__ = ["UNRECORDED", "Unrecorded", "check_declared_sizes", "prepared_source_param", "prepared_source_params"]


class Unrecorded:
    """The ``prepare_dataset`` parameter of data prepared before sidecars recorded their source.

    Why: Snakemake reruns a job whose recorded parameters differ from its current ones, and a
    rerun of ``prepare_dataset`` reruns every job that read the dataset. Data prepared by an
    earlier version of the workflow has no recorded source parameter, so giving it one would
    recompute every finished job of every experiment once, for nothing. Snakemake leaves out of
    that comparison any parameter it cannot represent (an object of a class of ours), so this
    one stands for "unchanged" where the sidecar's own checksum shows the source unchanged.
    Such data prepared again for another reason (``--forcerun``) records its fingerprint, and
    the next run prepares it once more with the fingerprint as its parameter, from then on
    recorded.
    """

    def __repr__(self) -> str:
        return "UNRECORDED"


UNRECORDED = Unrecorded()


def _missing_file(entry: DatasetEntry, path: Path, registry: Path) -> DatasetError:
    return DatasetError(
        f"dataset {entry.name!r}: {entry.source.upper()} file {path} not found (key 'path' of "
        f"{entry.name!r} in {registry}; relative paths are relative to the working directory "
        f"{Path.cwd()}); fix: correct 'path', or put the file there")


def _checked_file(entry: DatasetEntry, mirror: str | Path | None, registry: Path) -> str | None:
    """The checksum of the local file ``entry`` is read from (None: no local file, or a mirror
    file that is not there). A ``path`` that is missing, or not the version the registry pins,
    is an error naming ``registry``. A mirror's file is left to its preparation job, which
    fails naming the mirror: the mirror is one directory given on the command line, and with
    ``--keep-going`` every other dataset still runs."""
    path = local_source(entry, mirror)
    from_mirror = mirror is not None and bool(entry.file)
    if path is None or (from_mirror and not path.is_file()):
        return None
    if not path.is_file():
        raise _missing_file(entry, path, registry)
    digest = file_digest(path)
    if entry.sha256 is not None and digest != entry.sha256.lower() and not from_mirror:
        raise DatasetError(
            f"dataset {entry.name!r}: file {path} has sha256 {digest}, but {registry} pins "
            f"{entry.sha256} (key 'sha256' of {entry.name!r}): the file changed since the entry "
            "was written; fix: restore the file, or update 'sha256' (and the sizes) if the change "
            "is intended")
    return digest


def check_declared_sizes(entry: DatasetEntry, n_instances: int, n_classes: int, n_attributes: int, *,
                         what: str, registry: str | Path) -> None:
    """Raise :class:`DatasetError` unless prepared data ``what`` has the sizes ``entry``
    declares (after its ``subsample``, which the sizes are not checked against)."""
    expected = {"instances": entry.subsample[0] if entry.subsample else entry.instances,
                "classes": entry.classes, "attributes": entry.attributes}
    found = {"instances": n_instances, "classes": n_classes, "attributes": n_attributes}
    wrong = [k for k, v in expected.items() if v is not None and found[k] != v]
    if wrong:
        counts = ", ".join(f"{found[k]} {k}" for k in wrong)
        declared = ", ".join(f"{k}: {expected[k]}" for k in wrong)
        raise DatasetError(
            f"dataset {entry.name!r}: {what} has {counts}, but {registry} declares {declared}; the "
            "data it was prepared from is unchanged. Fix: correct the entry's sizes, or, if the data "
            "should have changed, its 'path', 'file' or source")


def _sidecar(prepared: Path) -> dict[str, Any] | None:
    try:
        return json.loads(sidecar_path(prepared).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def _unchanged_before_recording(entry: DatasetEntry, sidecar: Mapping[str, Any], digest: str | None) -> bool:
    """Whether data prepared before sidecars recorded their source still matches it: the same
    local file (the sidecar kept its checksum) and the same class attribute, where they can be told."""
    if digest is not None and sidecar.get("sha256") != digest:
        return False
    return not isinstance(entry.class_attribute, str) or sidecar.get("class_name") == entry.class_attribute


def _check_local_file(name: str, registry: Registry, announce: Callable[[str], None] | None) -> None:
    """Load the user's own file (a registry ``path``) that is about to be prepared, so that what
    its preparation job would refuse (a string attribute, a blank class cell, sizes the registry
    does not declare) fails the dry run, naming the attribute or line and the fix. The file is
    local and read once, before its first preparation or after an edit; a mirror's files are
    left to their jobs (see :func:`_checked_file`)."""
    dataset = load_dataset(name, registry=registry)
    for note in dataset.notes if announce is not None else ():
        announce(f"Note: dataset {name!r} ({dataset.source}): {note}")


def prepared_source_param(name: str, registry: Registry, *, mirror: str | Path | None,
                          prepared: str | Path, announce: Callable[[str], None] | None = None
                          ) -> str | Unrecorded:
    """The ``prepare_dataset`` parameter of dataset ``name``, whose prepared copy is (or will
    be) ``prepared``: its :func:`source_fingerprint` as JSON, or :data:`UNRECORDED` for a copy
    prepared before sidecars recorded it and unchanged since (see :class:`Unrecorded`).

    Raises:
        DatasetError: the local source file is missing or not the version the registry pins;
            or the prepared copy stays in use and its sizes are not the registry's; or a
            ``path`` file about to be prepared is refused by its loader.
    """
    entry = registry.resolve(name)
    digest = _checked_file(entry, mirror, registry.path)
    fingerprint = source_fingerprint(entry, mirror, file_sha256=digest)
    sidecar = _sidecar(Path(prepared))
    recorded = None if sidecar is None else sidecar.get(PREPARED_FROM)
    stays = sidecar is not None and (
        recorded == fingerprint or (recorded is None and _unchanged_before_recording(entry, sidecar, digest)))
    if not stays and digest is not None and not (mirror is not None and entry.file):
        _check_local_file(name, registry, announce)
    if sidecar is None:
        return json.dumps(fingerprint, sort_keys=True)
    if stays:
        check_declared_sizes(entry, int(sidecar["n_instances"]), int(sidecar["n_classes"]),
                             len(sidecar["columns"]), what=f"the prepared data {prepared} ({sidecar['source']})",
                             registry=registry.path)  # fmt: skip
    return UNRECORDED if recorded is None and stays else json.dumps(fingerprint, sort_keys=True)


def prepared_source_params(names: Iterable[str], registry: Registry, *, mirror: str | Path | None,
                           prepared_dir: str | Path, announce: Callable[[str], None] | None = None
                           ) -> dict[str, str | Unrecorded]:
    """:func:`prepared_source_param` of every dataset of ``names``, prepared in ``prepared_dir``
    (``announce`` says what a load of a user's file about to be prepared leaves out)."""
    return {name: prepared_source_param(name, registry, mirror=mirror,
                                        prepared=Path(prepared_dir) / f"{name}.parquet", announce=announce)
            for name in names}  # fmt: skip
