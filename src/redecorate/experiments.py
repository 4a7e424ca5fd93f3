"""Experiment files: load, validate and resolve one YAML description of an experiment.

The workflow stays thin by delegating here, and the same code serves notebooks and tests.
Validation goes through :mod:`redecorate.config` (the one validation stack of the project:
file, line, key path and fix in every message), against the common schema
``workflow/schemas/experiment.schema.yaml`` merged with the experiment kind's own settings
fragment (:class:`redecorate.kinds.ExperimentKind`). Errors are raised before any job runs:
a typo in an algorithm or dataset name must not surface an hour later as a failed job.
"""

from __future__ import annotations

import copy
import os
from collections.abc import Iterable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from redecorate.config import (
    ConfigError,
    ExperimentConfigError,
    did_you_mean,
    load_yaml,
    load_yaml_validated,
)
from redecorate.kinds import ExperimentKind, UnknownKindError, get_kind
from redecorate.learners.params import RefusedValueError, check_learner
from redecorate.protocol.experiment import ExperimentSpec
from redecorate.protocol.job import Protocol
from redecorate.protocol.settings import ReportSettings
from redecorate.report.analyses import ANALYSES
from redecorate.report.published import DISAGREEMENTS_FILE

__all__ = [
    "COMMON_PROFILE_KEYS",
    "LEARNER_KEY",
    "ExperimentConfigError",
    "MissingScaleError",
    "check_learner_params",
    "experiment_file",
    "experiment_schema",
    "load_experiment",
    "report_settings",
    "slice_experiments",
    "slice_notes",
    "split_algorithms",
    "without_datasets",
]

COMMON_PROFILE_KEYS = ("datasets", "runs", "folds")
"""What every scale profile may change; a kind adds its own (e.g. ``points``)."""

LEARNER_KEY = "learner"
"""The key of an ``algorithms:`` entry that names the registry learner of a labelled variant."""


class MissingScaleError(ExperimentConfigError):
    """An experiment file without a profile for the scale asked for.

    Its own class because ``experiments: all`` leaves such a file out of a run at that scale
    (saying so) instead of failing: a user's new experiment file needs only the thesis
    protocol, and the profiles (``quick``, ``pilot``, ``smoke``) are optional.
    """


def experiment_schema(base: Mapping[str, Any], kind: ExperimentKind) -> dict[str, Any]:
    """The common experiment schema with one kind's settings merged in.

    The kind's ``properties`` become top-level keys, its ``required`` are added, its
    ``profile_properties`` become keys a profile may override, its ``report_schema`` keys of
    the ``report:`` section, and its ``allOf`` conditions are appended. The common schema forbids unknown keys, so a key of another kind (a noise
    ``corruption`` in a passive file) is reported as such.
    """
    schema = copy.deepcopy(dict(base))
    fragment = kind.schema
    schema.setdefault("properties", {}).update(copy.deepcopy(fragment.get("properties", {})))
    schema["required"] = [*schema.get("required", []), *fragment.get("required", [])]
    profiles = schema["properties"]["profiles"]["additionalProperties"]
    profiles.setdefault("properties", {}).update(copy.deepcopy(fragment.get("profile_properties", {})))
    report = schema["properties"]["report"].setdefault("properties", {})
    report.update(copy.deepcopy(dict(kind.report_schema)))
    conditions = [*schema.get("allOf", []), *copy.deepcopy(fragment.get("allOf", []))]
    if conditions:
        schema["allOf"] = conditions
    schema["title"] = f"{schema.get('title', 'experiment file')} + kind {kind.name!r}"
    return schema


def _check_names(
    names: Iterable[str], known: Iterable[str] | None, what: str, key: str, source: str
) -> None:
    if known is None:
        return
    known_set = set(known)
    unknown = [n for n in names if n not in known_set]
    if unknown:
        hints = "".join(did_you_mean(n, known_set) for n in unknown)
        # A long list (the ~70 registry datasets) buries the answer; the close match is it.
        listing = (f"known: {', '.join(sorted(known_set))}" if not hints or len(known_set) <= 20
                   else f"{len(known_set)} known")  # fmt: skip
        raise ExperimentConfigError(
            f"{source}: key '{key}': unknown {what} {', '.join(map(repr, unknown))};{hints} "
            f"{listing}"
        )


def _kind_of(data: Any, source: str) -> ExperimentKind:
    name = data.get("kind", "passive") if isinstance(data, Mapping) else "passive"
    try:
        return get_kind(str(name))
    except UnknownKindError as exc:
        raise ExperimentConfigError(f"{source}: key 'kind': {exc}") from None


PILOT_KEYS = frozenset({"runs", "datasets"})
"""What a ``pilot`` profile may change of every kind (a kind may add its own, e.g. online's
stream ``orders``: :attr:`redecorate.kinds.ExperimentKind.pilot_keys`): its reports count
conclusions as a provisional replication (:func:`redecorate.report.conclusions.comparability`),
so it must keep the source's protocol and may only run less of it."""


def _check_pilot(overlay: Mapping[str, Any] | None, datasets: Iterable[str], source: str,
                 kind: ExperimentKind) -> None:
    """Refuse a ``pilot`` profile that changes the protocol, which would make its counted
    conclusions a comparison with a different experiment."""
    if overlay is None:
        return
    allowed = PILOT_KEYS | set(kind.pilot_keys)
    changed = sorted(set(overlay) - allowed)
    if changed:
        raise ExperimentConfigError(
            f"{source}: key 'profiles.pilot': a pilot profile keeps the source's protocol and may "
            f"only set {', '.join(sorted(allowed))}; it sets {', '.join(changed)}. Use another "
            "profile name (e.g. 'quick') for a changed protocol"
        )
    extra = sorted(set(overlay.get("datasets") or []) - set(datasets))
    if extra:
        raise ExperimentConfigError(
            f"{source}: key 'profiles.pilot.datasets': {', '.join(extra)} not in the experiment's "
            "datasets; a pilot profile runs a subset of them"
        )


def _validated(path: Path, schema: Mapping[str, Any] | str | os.PathLike[str],
               source: str) -> tuple[ExperimentKind, dict[str, Any]]:
    """The file's kind and its contents, validated against the common schema merged with the
    kind's; every schema error is an :class:`ExperimentConfigError` naming the file."""
    try:
        raw = load_yaml(path)
        kind = _kind_of(raw, source)
        base = schema if isinstance(schema, Mapping) else load_yaml(schema)
        return kind, load_yaml_validated(path, experiment_schema(base, kind))
    except ExperimentConfigError:
        raise
    except ConfigError as exc:
        raise ExperimentConfigError(f"invalid {source}:\n{exc}") from None


def _check_file_names(data: Mapping[str, Any], learners: Mapping[str, str], kind: ExperimentKind,
                      known_algorithms: Iterable[str] | None, known_datasets: Iterable[str] | None,
                      source: str) -> None:
    """Learners (when the kind's algorithms are learners) and datasets, in the main lists and
    in every profile, so a typo in an unused profile is caught too."""
    if not kind.algorithms_are_learners:
        known_algorithms = None
    for label, learner in learners.items():
        labelled = isinstance(data["algorithms"][label], Mapping) and LEARNER_KEY in data["algorithms"][label]
        key = f"algorithms.{label}.learner" if labelled else "algorithms"
        _check_names([learner], known_algorithms, "algorithm", key, source)
    _check_names(data["datasets"], known_datasets, "dataset", "datasets", source)
    for profile, overlay in (data.get("profiles") or {}).items():
        _check_names((overlay or {}).get("datasets", []), known_datasets, "dataset",
                     f"profiles.{profile}.datasets", source)  # fmt: skip


def _check_report_names(report: Mapping[str, Any], algorithms: Iterable[str], source: str) -> None:
    """The common ``report:`` keys that name algorithms or analyses (a kind checks its own)."""
    if "baseline" in report:
        _check_names([report["baseline"]], algorithms, "algorithm", "report.baseline", source)
    if "others" in report:
        _check_names(report["others"], algorithms, "algorithm", "report.others", source)
    if "analyses" in report:
        _check_names(report["analyses"], ANALYSES, "analysis", "report.analyses", source)


def load_experiment(
    path: str | os.PathLike[str],
    *,
    schema: Mapping[str, Any] | str | os.PathLike[str],
    scale: str = "thesis",
    known_algorithms: Iterable[str] | None = None,
    known_datasets: Iterable[str] | None = None,
) -> ExperimentSpec:
    """Load an experiment file, validate it and resolve the protocol for ``scale``.

    Args:
        path: the experiment YAML file.
        schema: the common experiment schema (``workflow/schemas/experiment.schema.yaml``, or
            its parsed mapping); the kind's fragment is merged in (:func:`experiment_schema`).
        scale: ``thesis`` or a profile name defined under ``profiles:``.
        known_algorithms: learner registry names; unknown algorithms are an error.
        known_datasets: dataset registry keys; unknown datasets (in the main list or any
            profile, so a typo in an unused profile is caught too) are an error. The
            registry itself (a mapping of entries) also runs the kind's ``check_datasets``.
    """
    p = Path(path)
    source = f"experiment file {p}"
    kind, data = _validated(p, schema, source)
    learners, algorithms = split_algorithms(data["algorithms"])
    _check_file_names(data, learners, kind, known_algorithms, known_datasets, source)
    profiles = data.get("profiles") or {}
    _check_pilot(profiles.get("pilot"), data["datasets"], source, kind)
    report = dict(data.get("report") or {})
    _check_report_names(report, algorithms, source)
    if scale != "thesis" and scale not in profiles:
        scales = ["thesis", *profiles]
        raise MissingScaleError(
            f"config key 'scale' (config/config.yaml or --config scale=...): {source} has no "
            f"profile {scale!r} for scale={scale!r}.{did_you_mean(scale, scales)} Available "
            f"scales: {', '.join(scales)}"
        )
    protocol = Protocol.from_experiment(data, scale, points_key=kind.points_key)
    own = set(kind.settings.names())
    values = {k: copy.deepcopy(v) for k, v in data.items() if k in own}
    if scale != "thesis":
        values.update({k: copy.deepcopy(v) for k, v in (profiles[scale] or {}).items() if k in own})
    spec = ExperimentSpec(
        name=data["name"],
        kind=str(data.get("kind", "passive")),
        path=p,
        protocol=protocol,
        algorithms=algorithms,
        report=report,
        scale=scale,
        learners=learners,
        settings=kind.settings.from_mapping(values),
    )
    if kind.check is not None:
        kind.check(spec)
    if kind.check_datasets is not None and isinstance(known_datasets, Mapping):
        # The registry itself (as the workflow passes it): its declared sizes let the kind
        # refuse what a job would only find out later (a batch larger than the pool).
        kind.check_datasets(spec, {d: known_datasets[d] for d in spec.datasets})
    return spec


def check_learner_params(spec: ExperimentSpec) -> None:
    """Ask every learner of ``spec`` whether it takes its parameters, so a misspelt name or a
    value no fit could use fails before any job.

    The learner answers with its own constraints (scikit-learn's ``_parameter_constraints``,
    :func:`redecorate.learners.params.check_learner`), the check its fit makes.

    Raises:
        ExperimentConfigError: naming the file, the key ``algorithms.LABEL`` and the
            learner's message (unknown learner or parameter, with close matches, or the
            parameter whose value it refuses and what it must be).
    """
    if not get_kind(spec.kind).algorithms_are_learners:
        return
    for label, params in spec.algorithms.items():
        key = f"algorithms.{label}"
        try:
            check_learner(spec.learner_of(label), params, where=f"{spec.path}, key '{key}'")
        except RefusedValueError as exc:
            own = f"{key}.{exc.parameter}" if exc.parameter in params else key
            raise ExperimentConfigError(f"experiment file {spec.path}: key '{own}': {exc}") from None
        except (TypeError, ValueError) as exc:
            raise ExperimentConfigError(f"experiment file {spec.path}: key '{key}': {exc}") from None


def split_algorithms(
    entries: Mapping[str, Any],
) -> tuple[dict[str, str], dict[str, dict[str, Any]]]:
    """``algorithms:`` -> (label -> registry name, label -> constructor parameters).

    Two forms may be mixed in one file: ``j48: {}`` (the label is the registry name) and
    ``decorate_norej: {learner: decorate, rejection: false}`` (a labelled variant: the
    ``learner`` key names the registry entry, every other key is a parameter). The labelled
    form exists because a mapping keyed by registry name cannot hold two DECORATE variants
    side by side, which §4.6-4.7 compare.
    """
    learners: dict[str, str] = {}
    params: dict[str, dict[str, Any]] = {}
    for label, entry in entries.items():
        values = dict(entry or {})
        learners[label] = str(values.pop(LEARNER_KEY, label))
        params[label] = values
    return learners, params


def experiment_file(entry: str, directory: str | os.PathLike[str]) -> Path:
    """The file of an ``experiments:`` entry: a name (``ch4_passive``) is ``<directory>/
    <name>.yaml``; anything path-like (a ``/`` or a ``.yaml`` suffix) is taken as given.

    Raises:
        ExperimentConfigError: a name without a file, with the closest names and every
            available one, since a name is what a user types and misspells.
    """
    if "/" in entry or entry.endswith((".yaml", ".yml")):
        return Path(os.path.expanduser(entry)).absolute()
    path = Path(directory) / f"{entry}.yaml"
    if not path.is_file():
        names = sorted(p.stem for p in Path(directory).glob("*.yaml"))
        raise ExperimentConfigError(
            f"config key 'experiments' (config/config.yaml or --config experiments=[...]): no "
            f"experiment {entry!r} (no file {path}).{did_you_mean(entry, names)} Available: "
            f"{', '.join(names)}, all, or the path of an experiment file"
        )
    return path


def without_datasets(spec: ExperimentSpec, names: Iterable[str]) -> ExperimentSpec:
    """``spec`` without the datasets ``names`` (an offline run drops what it cannot load).

    Raises :class:`ExperimentConfigError` when none would be left: an experiment with no
    dataset has nothing to run or report.
    """
    drop = set(names)
    kept = tuple(d for d in spec.datasets if d not in drop)
    if not kept:
        raise ExperimentConfigError(
            f"experiment {spec.name!r} ({spec.path}): none of its datasets at scale "
            f"{spec.scale!r} can be loaded offline ({', '.join(spec.datasets)}); run without "
            "data_mirror to download them, choose another scale, or leave the experiment out"
        )
    return replace(spec, protocol=replace(spec.protocol, datasets=kept))


def slice_experiments(
    specs: Mapping[str, ExperimentSpec],
    algorithms: Iterable[str] | None,
    datasets: Iterable[str] | None,
    source: str = "--config",
) -> dict[str, ExperimentSpec]:
    """Every experiment of ``specs`` restricted to the algorithm labels ``algorithms`` and the
    datasets ``datasets`` (None: all of them), for running a slice of an experiment (one half
    of a table on one machine, the expensive datasets on a cluster) without a copy of its file.

    Units keep their keys (:func:`redecorate.job_records.unit_key` hashes a unit's own
    algorithm entry and the shared settings, never the other algorithms or datasets), so the
    whole experiment later reuses the slice's records through ``records_from``. A kept slice
    is recorded in :attr:`ExperimentSpec.slice`, which the report states.

    Raises:
        ExperimentConfigError: a label or dataset that none of the selected experiments has
            (naming the valid ones), or an experiment that would keep no algorithm or no
            dataset (leave it out of ``experiments``).
    """
    wanted = {"algorithms": None if algorithms is None else list(dict.fromkeys(algorithms)),
              "datasets": None if datasets is None else list(dict.fromkeys(datasets))}
    have = {"algorithms": {n: list(s.algorithms) for n, s in specs.items()},
            "datasets": {n: list(s.datasets) for n, s in specs.items()}}
    for key, names in wanted.items():
        valid = sorted({v for values in have[key].values() for v in values})
        unknown = [v for v in names or () if v not in valid]
        if unknown:
            raise ExperimentConfigError(
                f"{source}: key '{key}': {', '.join(map(repr, unknown))} is not "
                f"{'an algorithm label' if key == 'algorithms' else 'a dataset'} of the selected "
                f"experiments ({', '.join(specs)}) at this scale; valid: {', '.join(valid)}"
            )
    out: dict[str, ExperimentSpec] = {}
    for name, spec in specs.items():
        kept = {key: [v for v in have[key][name] if names is None or v in names]
                for key, names in wanted.items()}
        if kept == {key: have[key][name] for key in kept}:
            out[name] = spec
            continue
        for key, values in kept.items():
            if not values:
                raise ExperimentConfigError(
                    f"{source}: key '{key}': experiment {name!r} ({spec.path}) has none of "
                    f"{', '.join(wanted[key] or ())} (its {key}: {', '.join(have[key][name])}); "
                    "leave it out of 'experiments' or name some of its own"
                )
        out[name] = replace(
            spec,
            algorithms={a: spec.algorithms[a] for a in kept["algorithms"]},
            learners={a: spec.learners[a] for a in kept["algorithms"] if a in spec.learners},
            protocol=replace(spec.protocol, datasets=tuple(kept["datasets"])),
            slice={**kept, **{f"left_out_{key}": [v for v in have[key][name] if v not in kept[key]]
                              for key in kept}},
        )
    return out


def slice_notes(spec: ExperimentSpec, folder: str) -> list[str]:
    """What a user must know before a slice runs (printed by the workflow, once): where its
    results go, and the comparisons of the report that it leaves without a side.

    Why: a slice that leaves out the report's baseline (``report.baseline``, or one side of a
    ``report.comparisons`` pair) runs its jobs, then reports tables with nothing in them; said
    up front, the user can add the baseline or accept it.
    """
    if spec.slice is None:
        return []
    kept = "; ".join(f"{key} {', '.join(spec.slice[key])}" for key in ("algorithms", "datasets")
                     if spec.slice[f"left_out_{key}"])  # fmt: skip
    notes = [f"{spec.name}: a slice ({kept}); its results go to {folder}/, apart from the whole "
             "experiment's, whose later run reuses its units with records_from=results"]
    left_out = set(spec.slice["left_out_algorithms"])
    baseline = spec.report.get("baseline")
    if baseline in left_out:
        notes.append(f"{spec.name}: the slice leaves out the report's baseline {baseline!r} "
                     "(report.baseline): its tables compare nothing with it; add it to "
                     "algorithms=[...] to have them")
    for pair in spec.report.get("comparisons") or ():
        missing = [pair[side] for side in ("a", "b") if pair.get(side) in left_out]
        if missing:
            notes.append(f"{spec.name}: the slice leaves out {', '.join(map(repr, missing))}, so "
                         f"the comparison {pair['a']} vs {pair['b']} (report.comparisons, Table "
                         f"{pair.get('table', '?')}) is not made")
    return notes


def report_settings(spec: ExperimentSpec, published_dir: str | os.PathLike[str]) -> ReportSettings:
    """What an experiment's report reads (:class:`~redecorate.protocol.settings.ReportSettings`;
    the report rule's parameter is its JSON). ``disagreements`` is the known-disagreements
    file beside the published values, if any."""
    published = Path(published_dir)
    notes = published / DISAGREEMENTS_FILE
    return ReportSettings(
        job=get_kind(spec.kind).job_settings(spec), kind=spec.kind, scale=spec.scale,
        datasets=tuple(spec.datasets),
        params={name: dict(params) for name, params in spec.algorithms.items()},
        report=dict(spec.report), published_dir=str(published),
        published=tuple(str(published / name) for name in spec.report.get("published", [])),
        disagreements=str(notes) if notes.is_file() else None,
        slice=copy.deepcopy(spec.slice),
    )  # fmt: skip
