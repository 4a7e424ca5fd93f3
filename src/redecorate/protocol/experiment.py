"""Experiment files: load, validate and resolve one YAML description of an experiment.

The Snakefile stays thin by delegating here, and the same code serves notebooks and tests.
Errors are raised early, before any job runs, and always name the file, the key and what
was expected: a typo in an algorithm or dataset name must not surface an hour later as a
failed job.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from redecorate.config import ConfigError, load_yaml_validated
from redecorate.protocol.job import Protocol

__all__ = [
    "ExperimentConfigError",
    "ExperimentSpec",
    "check_learner_params",
    "format_key",
    "load_experiment",
    "read_yaml",
    "split_algorithms",
    "validate_mapping",
]


class ExperimentConfigError(ConfigError):
    """A configuration or experiment file is invalid; the message names file and key.

    A :class:`redecorate.config.ConfigError`, so callers catch one type for every
    configuration problem of the project.
    """


def format_key(path: Iterable[Any]) -> str:
    """``['profiles', 'quick', 'runs']`` -> ``profiles.quick.runs``; ``[]`` -> ``<top level>``."""
    parts = [f"[{p}]" if isinstance(p, int) else str(p) for p in path]
    text = ".".join(parts).replace(".[", "[")
    return text or "<top level>"


def read_yaml(path: str | os.PathLike[str], what: str = "file") -> Any:
    """Parse a YAML file, turning I/O and syntax errors into messages that name the file."""
    p = Path(path)
    try:
        with p.open(encoding="utf-8") as handle:
            return yaml.safe_load(handle)
    except FileNotFoundError as exc:
        raise ExperimentConfigError(f"{what} {p} does not exist") from exc
    except yaml.YAMLError as exc:
        raise ExperimentConfigError(f"{what} {p} is not valid YAML: {exc}") from exc


def validate_mapping(
    data: Any, schema: Mapping[str, Any] | str | os.PathLike[str], source: str
) -> None:
    """Validate ``data`` against a JSON schema (YAML or JSON file, or a mapping).

    Raises:
        ExperimentConfigError: listing every violation as ``source: key 'a.b': message``,
            deepest first, so the user fixes them all in one go.
    """
    import jsonschema

    if not isinstance(schema, Mapping):
        schema = read_yaml(schema, "schema")
    validator_cls = jsonschema.validators.validator_for(schema)
    validator = validator_cls(schema)
    errors = sorted(validator.iter_errors(data), key=lambda e: (list(map(str, e.absolute_path)), e.message))
    if errors:
        lines = []
        for error in errors:
            description = error.schema.get("description") if isinstance(error.schema, Mapping) else None
            hint = f" (expected: {description})" if description else ""
            lines.append(f"  key '{format_key(error.absolute_path)}': {error.message}{hint}")
        raise ExperimentConfigError(f"{source} is invalid:\n" + "\n".join(lines))


@dataclass(frozen=True)
class ExperimentSpec:
    """One experiment file, validated and resolved for a scale profile.

    Attributes:
        name: experiment name (result directory, ``experiment`` column).
        kind: experiment family; decides which workflow rules run it.
        path: the file it came from (for messages).
        protocol: runs, folds, points, seed and datasets after the profile overlay, and
            ``point_unit`` (``percent`` of the training fold, or ``examples``).
        algorithms: algorithm label -> learner parameters, in file order. The label is the
            ``algorithm`` of the records; for the old form it is the registry name itself.
        learners: algorithm label -> learner registry name (``make_learner``'s ``name``).
        metrics: record metrics (``accuracy``, optionally ``diversity``, ``member_error``).
        report: the ``report:`` section (baseline, others, published tables).
        scale: the profile the protocol was resolved for.
        corruption: ``missing``, ``class`` or ``feature`` for ``kind: noise`` (Chapter 5,
            :mod:`redecorate.corrupt`), whose ``protocol.points`` are the noise levels (%);
            None for other kinds.
    """

    name: str
    kind: str
    path: Path
    protocol: Protocol
    algorithms: dict[str, dict[str, Any]]
    report: dict[str, Any] = field(default_factory=dict)
    scale: str = "thesis"
    learners: dict[str, str] = field(default_factory=dict)
    metrics: tuple[str, ...] = ("accuracy",)
    corruption: str | None = None

    def learner_of(self, algorithm: str) -> str:
        """Registry name of an algorithm label (the label itself in the old form)."""
        return self.learners.get(algorithm, algorithm)

    @property
    def datasets(self) -> tuple[str, ...]:
        """Datasets of the selected profile."""
        return self.protocol.datasets

    @property
    def runs(self) -> range:
        """Run numbers (0-based) of the selected profile."""
        return range(self.protocol.runs)


def _check_names(
    names: Iterable[str], known: Iterable[str] | None, what: str, key: str, source: str
) -> None:
    if known is None:
        return
    known_set = set(known)
    unknown = [n for n in names if n not in known_set]
    if unknown:
        raise ExperimentConfigError(
            f"{source}: key '{key}': unknown {what} {', '.join(map(repr, unknown))}; "
            f"known: {', '.join(sorted(known_set))}"
        )


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
        schema: ``workflow/schemas/experiment.schema.yaml`` (or its parsed mapping).
        scale: ``thesis`` or a profile name defined under ``profiles:``.
        known_algorithms: learner registry names; unknown algorithms are an error.
        known_datasets: dataset registry keys; unknown datasets (in the main list or any
            profile, so a typo in an unused profile is caught too) are an error.
    """
    p = Path(path)
    source = f"experiment file {p}"
    if isinstance(schema, Mapping):
        data = read_yaml(p, "experiment file")
        validate_mapping(data, schema, source)
    else:
        # The shared loader reports line numbers and rejects duplicated keys.
        try:
            data = load_yaml_validated(p, schema)
        except ExperimentConfigError:
            raise
        except ConfigError as exc:
            raise ExperimentConfigError(f"invalid {source}:\n{exc}") from None
    learners, algorithms = split_algorithms(data["algorithms"])
    for label, learner in learners.items():
        labelled = _names_learner(data["algorithms"][label])
        key = f"algorithms.{label}.learner" if labelled else "algorithms"
        _check_names([learner], known_algorithms, "algorithm", key, source)
    _check_names(data["datasets"], known_datasets, "dataset", "datasets", source)
    profiles = data.get("profiles") or {}
    for profile, overlay in profiles.items():
        _check_names(
            (overlay or {}).get("datasets", []),
            known_datasets,
            "dataset",
            f"profiles.{profile}.datasets",
            source,
        )
    report = dict(data.get("report") or {})
    if "baseline" in report:
        _check_names([report["baseline"]], algorithms, "algorithm", "report.baseline", source)
    if "others" in report:
        _check_names(report["others"], algorithms, "algorithm", "report.others", source)
    for i, pair in enumerate(report.get("comparisons") or []):
        names = [pair.get("a"), pair.get("b")]
        _check_names(names, algorithms, "algorithm", f"report.comparisons[{i}]", source)
    if "analyses" in report:
        from redecorate.report.analyses import ANALYSES

        _check_names(report["analyses"], ANALYSES, "analysis", "report.analyses", source)
    if scale != "thesis" and scale not in profiles:
        raise ExperimentConfigError(
            f"{source}: key 'profiles': no profile {scale!r} for scale={scale!r}; "
            f"available scales: thesis{''.join(', ' + n for n in profiles)}"
        )
    if data.get("kind", "passive") != "passive" and "point_unit" in data:
        raise ExperimentConfigError(
            f"{source}: key 'point_unit': only kind passive has learning-curve points; "
            f"kind {data['kind']!r} trains on whole folds (its 'levels' are noise %)"
        )
    protocol = Protocol.from_experiment(data, scale)
    if data.get("kind", "passive") == "passive":  # U is defined by the learning curve
        _check_pool_points(algorithms, protocol, source)
    return ExperimentSpec(
        name=data["name"],
        kind=data.get("kind", "passive"),
        path=p,
        protocol=protocol,
        algorithms=algorithms,
        report=report,
        scale=scale,
        learners=learners,
        corruption=data.get("corruption"),
        metrics=tuple(data.get("metrics") or ("accuracy",)),
    )


def _check_pool_points(
    algorithms: Mapping[str, Mapping[str, Any]], protocol: Protocol, source: str
) -> None:
    """Pool-based DECORATE variants need unlabeled examples left over at every point.

    Their pool ``U`` is the part of the training fold outside the curve prefix (§4.6.1),
    which is empty at 100 %; the thesis stops those curves at 50 %. Caught here so the
    mistake fails before any job rather than as a failed job.
    """
    from redecorate.protocol.job import wants_pool

    # Points in examples leave a pool unless they take the whole fold; a point beyond the
    # fold already fails its job with a message, so only percentages are checked here.
    if protocol.point_unit != "percent" or max(protocol.points) < 100:
        return
    for label, params in algorithms.items():
        if wants_pool(params):
            raise ExperimentConfigError(
                f"{source}: key 'algorithms.{label}': artificial={params['artificial']!r} "
                "samples from the unlabeled rest of the training fold, which is empty at "
                "point 100; stop the curve ('points') below 100 as §4.6.1 does (at 50)"
            )


def check_learner_params(spec: ExperimentSpec) -> None:
    """Build every learner of ``spec`` once, so a misspelt parameter fails before any job.

    Raises:
        ExperimentConfigError: naming the file, the key ``algorithms.LABEL`` and the
            registry's message (unknown learner or parameter, with close matches).
    """
    from redecorate.learners.registry import make_learner

    for label, params in spec.algorithms.items():
        key = f"algorithms.{label}"
        try:
            make_learner(spec.learner_of(label), params, 0, where=f"{spec.path}, key '{key}'")
        except (TypeError, ValueError) as exc:
            raise ExperimentConfigError(f"experiment file {spec.path}: key '{key}': {exc}") from None


def _names_learner(params: Any) -> bool:
    return isinstance(params, Mapping) and "learner" in params


LEARNER_KEY = "learner"
"""The key of an ``algorithms:`` entry that names the registry learner of a labelled variant."""


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
