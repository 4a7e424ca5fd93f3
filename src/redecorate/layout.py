"""Where each scale's results go: ``results/<experiment>/`` at the thesis scale, and
``results/_scales/<scale>/<experiment>/`` at every other.

Why: one results directory shared by all scales let a ``smoke`` run replace the ``quick``
run's outputs of the same experiment and leave the quick run's per-dataset folders beside the
new ones, and a report built from it could mix the two. The thesis scale keeps the plain path
(the committed ``reproduced/<experiment>/`` copies and ``records_from`` rely on it). The
folder of the other scales cannot be an experiment's (experiment names start with a letter
or digit, never ``_``), and its results sit one level deeper, so ``records_from=results``,
which reads ``results/*/records/<dataset>/``, never takes another scale's records for the
thesis scale's (their unit keys differ anyway, since the protocol is part of the key).

A slice of an experiment (``--config algorithms=[...] datasets=[...]``) has its own folder
beside the experiment's, ``<experiment>.slice-<hash of what it kept>`` (:func:`experiment_folder`):
its jobs are packed differently, so writing them into the experiment's folder replaced the whole
run's job files (``records/<dataset>/chunk0.parquet``) with the slice's and lost the records of
everything the slice left out. Apart, a slice never touches a record it did not compute, and
``records_from=results`` still finds its units (``results/*/records/<dataset>/``), so the whole
experiment reuses them.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

__all__ = ["OTHER_SCALES_DIR", "SLICE_MARK", "THESIS_SCALE", "experiment_folder", "experiment_of_folder",
           "finished_elsewhere", "results_root"]

THESIS_SCALE = "thesis"
OTHER_SCALES_DIR = "_scales"
SLICE_MARK = ".slice-"
FINISHED_MARKER = "provenance.json"
"""Written last for an experiment (rule ``provenance``): its presence means it finished."""


def results_root(results_dir: str | os.PathLike[str], scale: str) -> str:
    """The directory holding ``<experiment>/`` folders of a run at ``scale``."""
    base = str(results_dir).rstrip("/") or "."
    return base if scale == THESIS_SCALE else f"{base}/{OTHER_SCALES_DIR}/{scale}"


def experiment_folder(name: str, slice_: Mapping[str, Sequence[str]] | None) -> str:
    """The folder of an experiment's results under its scale's root: ``name``, or for a slice
    ``name.slice-<8 hex digits>``, a hash of the algorithms and datasets it kept (the same slice
    run again is the same folder, so Snakemake finds it up to date)."""
    if slice_ is None:
        return name
    kept = {key: list(slice_[key]) for key in ("algorithms", "datasets")}
    digest = hashlib.sha256(json.dumps(kept, sort_keys=True).encode("utf-8")).hexdigest()
    return f"{name}{SLICE_MARK}{digest[:8]}"


def experiment_of_folder(folder: str) -> str:
    """The experiment whose results ``folder`` holds: the inverse of :func:`experiment_folder`
    (``name.slice-<hash>`` → ``name``), so a slice's run is kept as its experiment's."""
    return folder.split(SLICE_MARK, 1)[0]


def finished_elsewhere(results_dir: str | os.PathLike[str], experiments: Iterable[str],
                       scale: str) -> dict[str, list[str]]:
    """Scale -> the ``experiments`` finished at that scale under ``results_dir``, other than
    ``scale`` itself: what a report asked for at the wrong scale could have been built from."""
    base = Path(results_dir)
    scales = [THESIS_SCALE, *sorted(p.name for p in (base / OTHER_SCALES_DIR).glob("*") if p.is_dir())]
    found = {}
    for other in scales:
        if other == scale:
            continue
        root = Path(results_root(base, other))
        done = [name for name in experiments if (root / name / FINISHED_MARKER).is_file()]
        if done:
            found[other] = done
    return found
