"""The settings of an experiment, as a kind's jobs and report read them.

An experiment file has keys every kind shares (``name``, ``seed``, ``datasets``,
``algorithms``, ``runs``, ``folds``, a ``report:`` section) and keys of its kind (the
``corruption`` of a noise experiment, the ``batch_size`` of an active one). A kind declares
its own keys once, as a frozen dataclass derived from :class:`KindSettings`: its fields are
the keys, their defaults are *the* defaults (filled when the file is read, so no job or
report writes a default again) and their types are what jobs and reports see.

Two objects carry the settings on:

- :class:`JobSettings`: everything a unit of work reads (the shared protocol numbers, each
  algorithm's entry and the kind's typed settings). It is the job rule's parameter, so
  changing it reruns the experiment's jobs and nothing else.
- :class:`ReportSettings`: the same plus what only the report reads (scale, datasets, the
  ``report:`` section, the published values).

Both cross the workflow as JSON (Snakemake rule parameters) and are rebuilt, typed, where
they are used (:meth:`JobSettings.from_json`, :meth:`ReportSettings.from_json`).

Unit keys (:func:`redecorate.job_records.unit_key`) hash the job settings in the layout the
records already computed were keyed under (:func:`key_settings`), so a rename here never
orphans a finished run's records.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Protocol

__all__ = [
    "JobSettings",
    "KeyLayout",
    "KindSettings",
    "NoSettings",
    "ReportOutputs",
    "ReportSettings",
    "key_settings",
]


@dataclass(frozen=True)
class KindSettings:
    """Base of a kind's own settings: one frozen dataclass, one field per YAML key.

    A subclass lists its keys as fields with their defaults; :meth:`from_mapping` fills
    what a file leaves out. ``REPORT_ONLY`` names fields that only the report reads: they
    do not enter unit keys, so changing them rebuilds the report and reruns no job.
    """

    REPORT_ONLY: ClassVar[frozenset[str]] = frozenset()

    @classmethod
    def names(cls) -> tuple[str, ...]:
        """The YAML keys of the kind, in declaration order."""
        return tuple(f.name for f in dataclasses.fields(cls))

    @classmethod
    def defaults(cls) -> dict[str, Any]:
        """Key -> default value (a key without a default is required)."""
        out = {}
        for f in dataclasses.fields(cls):
            if f.default is not dataclasses.MISSING:
                out[f.name] = f.default
            elif f.default_factory is not dataclasses.MISSING:
                out[f.name] = f.default_factory()
        return out

    @classmethod
    def from_mapping(cls, values: Mapping[str, Any]) -> KindSettings:
        """The settings of ``values`` (a file's own keys, already validated by the schema),
        defaults filled; sequences become tuples so the object stays immutable."""
        unknown = sorted(set(values) - set(cls.names()))
        if unknown:
            raise TypeError(f"{cls.__name__}: unknown settings {', '.join(unknown)}; "
                            f"known: {', '.join(cls.names()) or 'none'}")  # fmt: skip
        return cls(**{key: _frozen(copy.deepcopy(value)) for key, value in values.items()})

    def to_json(self) -> dict[str, Any]:
        """Every key with its value, as JSON-able types (the inverse of :meth:`from_mapping`)."""
        return {f.name: _thawed(getattr(self, f.name)) for f in dataclasses.fields(self)}


@dataclass(frozen=True)
class NoSettings(KindSettings):
    """A kind without keys of its own."""


def _frozen(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_frozen(v) for v in value)
    if isinstance(value, dict):
        return {k: _frozen(v) for k, v in value.items()}
    return value


def _thawed(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_thawed(v) for v in value]
    if isinstance(value, Mapping):
        return {k: _thawed(v) for k, v in value.items()}
    return value


@dataclass(frozen=True)
class KeyLayout:
    """How a kind's job settings were laid out when its first records were keyed.

    Attributes:
        points: the name of the points in the key (``points``, ``levels``, ``sizes``), or
            None for a kind whose points are not a setting (active, acquisition, online).
        algorithms: the name of the algorithm entries (``algorithms``; ``systems`` for the
            active kind).
        always: own settings that enter the key even at their default (acquisition's
            ``known_fraction``, online's ``orders``); the others enter it only when they
            differ from the default, as they did when they were added.
        sort_points: whether the points enter the key sorted (feature_subsets' ensemble
            sizes, whose order in the file never mattered).
    """

    points: str | None = "points"
    algorithms: str = "algorithms"
    always: frozenset[str] = frozenset()
    sort_points: bool = False


class _Kind(Protocol):
    """What this module needs of an :class:`redecorate.kinds.ExperimentKind` (the protocol
    layer does not import the kinds, which build on it)."""

    settings: type[KindSettings]
    key_layout: KeyLayout


def _default_options() -> KindSettings:
    return NoSettings()


@dataclass(frozen=True)
class JobSettings:
    """What every unit of work of one experiment reads.

    Attributes:
        experiment: the experiment's name (written into the records, never hashed: identical
            units of two experiments share records, :mod:`redecorate.job_records`).
        folds: k of k-fold cross-validation.
        seed: the experiment seed every random stream derives from.
        points: the experiment's points (curve points, noise levels, ensemble sizes; empty
            for a kind without points).
        algorithms: algorithm label -> the kind's entry for it
            (:attr:`redecorate.kinds.ExperimentKind.algorithm_entry`).
        options: the kind's own settings (:class:`KindSettings`).
    """

    experiment: str
    folds: int
    seed: int
    points: tuple[Any, ...] = ()
    algorithms: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    options: KindSettings = field(default_factory=_default_options)

    def to_json(self) -> dict[str, Any]:
        """The settings as a JSON-able mapping (the job rule's parameter). The kind's
        ``REPORT_ONLY`` settings are left out (a job rebuilt from it sees their defaults), so
        changing one rebuilds the report and reruns no job."""
        options = {k: v for k, v in self.options.to_json().items() if k not in self.options.REPORT_ONLY}
        return {"experiment": self.experiment, "folds": self.folds, "seed": self.seed,
                "points": list(self.points), "algorithms": copy.deepcopy(dict(self.algorithms)),
                "options": options}  # fmt: skip

    @classmethod
    def from_json(cls, kind: _Kind, data: Mapping[str, Any]) -> JobSettings:
        """Rebuild :meth:`to_json`'s mapping for ``kind`` (its options typed again)."""
        return cls(experiment=str(data["experiment"]), folds=int(data["folds"]), seed=int(data["seed"]),
                   points=tuple(data.get("points") or ()), algorithms=dict(data.get("algorithms") or {}),
                   options=kind.settings.from_mapping(data.get("options") or {}))  # fmt: skip


@dataclass(frozen=True)
class ReportSettings:
    """What an experiment's report reads: the job settings and the report's own.

    Attributes:
        job: the experiment's :class:`JobSettings` (``job.options``: the kind's settings).
        kind: the kind's name.
        scale: the profile the experiment ran at (``thesis``, ``pilot``, ...).
        datasets: the datasets, in the file's order.
        params: algorithm label -> its parameters in the file (without ``learner``).
        report: the file's ``report:`` section.
        published_dir: the directory of the transcribed published values.
        published: the files of ``report.published`` in it.
        disagreements: the known-disagreements file beside them, or None.
        slice: what a sliced run kept and left out (:func:`redecorate.experiments.
            slice_experiments`), or None for the whole experiment.
    """

    job: JobSettings
    kind: str
    scale: str
    datasets: tuple[str, ...]
    params: Mapping[str, Mapping[str, Any]]
    report: Mapping[str, Any] = field(default_factory=dict)
    published_dir: str = ""
    published: tuple[str, ...] = ()
    disagreements: str | None = None
    slice: Mapping[str, Any] | None = None

    @property
    def experiment(self) -> str:
        """The experiment's name."""
        return self.job.experiment

    @property
    def algorithms(self) -> list[str]:
        """The algorithm labels, in the file's order."""
        return list(self.params)

    @property
    def points(self) -> list[Any]:
        """The experiment's points (see :attr:`JobSettings.points`)."""
        return list(self.job.points)

    @property
    def options(self) -> KindSettings:
        """The kind's own settings."""
        return self.job.options

    @property
    def analysis_options(self) -> dict[str, Any]:
        """Options of each named analysis (``report.analysis_options``)."""
        return dict(self.report.get("analysis_options") or {})

    def to_json(self) -> dict[str, Any]:
        """A JSON-able mapping (the report rule's parameter); ``slice`` only when sliced, so
        the parameters of whole experiments (and what Snakemake considers up to date) stay."""
        out = {"job": self.job.to_json(), "options": self.job.options.to_json(), "kind": self.kind, "scale": self.scale,
               "datasets": list(self.datasets), "params": copy.deepcopy(dict(self.params)),
               "report": copy.deepcopy(dict(self.report)), "published_dir": self.published_dir,
               "published": list(self.published), "disagreements": self.disagreements}  # fmt: skip
        if self.slice is not None:
            out["slice"] = copy.deepcopy(dict(self.slice))
        return out

    @classmethod
    def from_json(cls, kind: _Kind, data: Mapping[str, Any]) -> ReportSettings:
        """Rebuild :meth:`to_json`'s mapping."""
        job = JobSettings.from_json(kind, {**data["job"], "options": data["options"]})
        return cls(job=job, kind=str(data["kind"]),
                   scale=str(data["scale"]), datasets=tuple(data["datasets"]),
                   params=dict(data["params"]), report=dict(data.get("report") or {}),
                   published_dir=str(data.get("published_dir") or ""),
                   published=tuple(data.get("published") or ()),
                   disagreements=data.get("disagreements"), slice=data.get("slice"))  # fmt: skip


@dataclass(frozen=True)
class ReportOutputs:
    """Where a kind's report writes its tables and figures (staged directories, renamed
    into place only when the whole report succeeded)."""

    tables: Path
    figures: Path


def key_settings(kind: _Kind, job: JobSettings) -> dict[str, Any]:
    """The job settings as unit keys hash them, in the kind's :class:`KeyLayout`.

    Why a fixed layout: a unit key is the hash of everything a unit's records depend on, and
    committed records (``reproduced/``) are reused by key. The layout is the one those keys
    were computed under (``n_folds``, the kind's name for its points, own settings only when
    set), so renaming a field of :class:`JobSettings` leaves every key as it was.
    """
    layout = kind.key_layout
    out: dict[str, Any] = {"experiment": job.experiment, "n_folds": job.folds, "seed": job.seed,
                           layout.algorithms: _thawed(job.algorithms)}  # fmt: skip
    if layout.points is not None:
        out[layout.points] = sorted(job.points) if layout.sort_points else list(job.points)
    defaults = kind.settings.defaults()
    values = job.options.to_json()
    for name, value in values.items():
        if name in kind.settings.REPORT_ONLY:
            continue
        if name in layout.always or name not in defaults or value != _thawed(defaults[name]):
            out[name] = value
    return out
