"""What one invocation runs: the configuration merged and checked, the experiments it selects.

Why a library module: the workflow (``workflow/rules/common.smk``) and the planner
(``python3 -m redecorate.plan``) must agree exactly on which experiments, datasets, scale and
slices a configuration means — otherwise the plan would price other jobs than the ones
Snakemake runs. Both call :func:`load_run`, which reads ``config/config.yaml`` under the
command line's values, validates them, loads the registry and every selected experiment file,
drops what only a download could give when running offline, and applies a slice. Every
mistake is an :class:`~redecorate.config.ExperimentConfigError` naming the file and key,
raised before any job is planned.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from redecorate.config import (
    ConfigError,
    ExperimentConfigError,
    load_yaml_validated,
    validate_mapping,
)
from redecorate.data import load_registry
from redecorate.data.registry import unavailable_offline
from redecorate.experiments import (
    MissingScaleError,
    check_learner_params,
    experiment_file,
    load_experiment,
    slice_experiments,
    slice_notes,
    without_datasets,
)
from redecorate.layout import experiment_folder, results_root
from redecorate.learners.registry import ALGORITHMS

__all__ = ["ALL_EXPERIMENTS", "CONFIG_SOURCE", "SLICE_KEYS", "Run", "command_line", "load_run", "parse_config_values"]

CONFIG_SOURCE = "config/config.yaml (merged with --config/--configfile)"
ALL_EXPERIMENTS = "all"  # `experiments: all` selects every file in config/experiments/
SLICE_KEYS = ("algorithms", "datasets")  # run a slice of every selected experiment (null: all)
_DEFAULT_JOB_SECONDS = 120.0  # redecorate.kinds.jobs.DEFAULT_TARGET_SECONDS (not imported: light start-up)


@dataclass(frozen=True)
class Run:
    """The checked configuration of one invocation and what it selects.

    Attributes:
        config: the merged, normalised configuration (``config/config.yaml`` under the
            command line), as Snakemake's ``config`` holds it after :func:`load_run`.
        registry_path: the dataset registry actually used (``registry`` key).
        registry: its entries by dataset name.
        experiments: results folder -> its :class:`~redecorate.kinds.ExperimentSpec`,
            at the selected scale, without datasets unavailable offline, sliced (the folder
            is the experiment's name, or for a slice ``<name>.slice-<hash>``).
        skipped: experiment name -> {dataset: why it was dropped offline}.
    """

    config: dict[str, Any]
    registry_path: Path
    registry: Mapping[str, Any]
    experiments: dict[str, Any]
    skipped: dict[str, dict[str, str]]

    @property
    def results(self) -> str:
        """This scale's results root (:func:`redecorate.layout.results_root`)."""
        return results_root(self.config["results_dir"], self.config["scale"])


def command_line(parser: argparse.ArgumentParser, argv: Iterable[str] | None) -> tuple[argparse.Namespace, Path] | None:
    """The arguments of a command that takes the workflow's ``key=value`` pairs and ``--repo``
    (``python3 -m redecorate.plan``, ``.verify``), options allowed between the pairs as users
    type them, and the repository; None, having said why, when ``--repo`` is not its root."""
    args = parser.parse_intermixed_args(list(argv) if argv is not None else None)
    repo = Path(args.repo)
    if not (repo / "config" / "config.yaml").is_file():
        print(f"{repo.resolve()} is not the repository root (no config/config.yaml); run from it or give --repo",
              file=sys.stderr)
        return None
    return args, repo


def parse_config_values(items: list[str]) -> dict[str, Any]:
    """``key=value`` strings as Snakemake's ``--config`` reads them (values parsed as YAML:
    ``experiments=[ch6_active,ch6_utility]``, ``job_seconds=300``, ``records_from=null``)."""
    out: dict[str, Any] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise ExperimentConfigError(f"--config: {item!r} is not key=value (e.g. scale=pilot)")
        try:
            out[key] = yaml.safe_load(value) if value else None
        except yaml.YAMLError:
            out[key] = value
    return out


def _repo_path(repo: Path, value: Any) -> Path:
    """Absolute path of a repository file named in the configuration."""
    path = Path(os.path.expanduser(str(value)))
    return path if path.is_absolute() else repo / path


def _merged(cfg: Mapping[str, Any], repo: Path) -> dict[str, Any]:
    """``config/config.yaml``, validated with line numbers, under ``cfg``'s values (read here
    rather than with Snakemake's ``configfile:`` so that a malformed file fails with the file,
    the line, the key and the fix, as every other configuration file does)."""
    try:
        values = load_yaml_validated(repo / "config" / "config.yaml",
                                     repo / "workflow" / "schemas" / "config.schema.yaml")
    except ConfigError as exc:
        raise ExperimentConfigError(str(exc)) from None
    return {**values, **cfg}


def _normalised(cfg: dict[str, Any], repo: Path) -> dict[str, Any]:
    """Undo what the command line cannot express: ``--config`` parses ``null`` as the text
    'null' and a single experiment as a string; ``all`` expands to every experiment file."""
    for key in ("data_mirror", "records_from", "replication_records", *SLICE_KEYS):
        if isinstance(cfg.get(key), str) and cfg[key].strip().lower() in ("", "null", "none", "~"):
            cfg[key] = None
    for key in ("experiments", *SLICE_KEYS):
        if isinstance(cfg.get(key), str):
            cfg[key] = [cfg[key]]
    if isinstance(cfg.get("experiments"), list) and ALL_EXPERIMENTS in cfg["experiments"]:
        # `all`: every experiment file of the repository, in name order, with any others
        # named beside it (paths to files elsewhere) kept.
        names = sorted(p.stem for p in (repo / "config" / "experiments").glob("*.yaml"))
        extra = [e for e in cfg["experiments"] if e != ALL_EXPERIMENTS and e not in names]
        cfg["experiments"] = names + extra
    cfg.setdefault("published_dir", "config/published")
    cfg.setdefault("data_mirror", None)
    cfg.setdefault("records_from", None)
    cfg.setdefault("replication_records", None)
    for key in SLICE_KEYS:
        cfg.setdefault(key, None)
    cfg.setdefault("job_seconds", _DEFAULT_JOB_SECONDS)
    return cfg


def _check_directories(cfg: dict[str, Any]) -> None:
    """The data mirror, ``records_from`` and ``replication_records`` exist; ``records_from``
    naming this run's own results directory means this scale's folder of it."""
    if cfg["data_mirror"] is not None and not Path(cfg["data_mirror"]).is_dir():
        raise ExperimentConfigError(
            f"{CONFIG_SOURCE}: key 'data_mirror': {os.path.abspath(cfg['data_mirror'])} is not a directory")
    own_results = (cfg["records_from"] is not None
                   and Path(cfg["records_from"]).resolve() == Path(cfg["results_dir"]).resolve())
    if cfg["records_from"] is not None and not own_results and not Path(cfg["records_from"]).is_dir():
        # The run's own results_dir may not exist yet (a first run that shares units between
        # its experiments); any other missing directory is a typo worth stopping for.
        raise ExperimentConfigError(
            f"{CONFIG_SOURCE}: key 'records_from': {os.path.abspath(cfg['records_from'])} "
            "is not a directory (give the directory that holds <experiment>/records/, e.g. "
            "reproduced, or null)")
    if cfg["replication_records"] is not None and not Path(cfg["replication_records"]).is_dir():
        raise ExperimentConfigError(
            f"{CONFIG_SOURCE}: key 'replication_records': {os.path.abspath(cfg['replication_records'])} "
            "is not a directory (give the directory that holds <experiment>/records.parquet, e.g. "
            "reproduced, or null for this run's results)")
    if own_results:
        # records_from=results means this run's own results: at a scale other than the
        # thesis's they live in its scale's folder (redecorate.layout).
        cfg["records_from"] = results_root(cfg["results_dir"], cfg["scale"])


def _load_registry(path: Path) -> Mapping[str, Any]:
    """The dataset registry; a missing or broken registry is a configuration error naming it."""
    if not path.is_file():
        raise ExperimentConfigError(f"{CONFIG_SOURCE}: key 'registry': dataset registry {path} does not exist")
    try:
        return load_registry(path)
    except Exception as exc:
        raise ExperimentConfigError(
            f"{CONFIG_SOURCE}: key 'registry': cannot load dataset registry {path}: {exc}") from exc


def load_run(cfg: Mapping[str, Any], repo: str | os.PathLike[str],
             announce: Callable[[str], None] | None = None) -> Run:
    """The run a configuration describes (see the module docstring).

    ``cfg`` holds the command line's values (Snakemake's ``config`` before this call);
    ``announce`` receives one line per dataset dropped offline and what a slice must say
    before any job (None: silent, as job subprocesses that re-read the workflow should be).
    """
    repo = Path(repo)
    schemas = repo / "workflow" / "schemas"
    merged = _merged(cfg, repo)
    listed = merged.get("experiments")
    named = {e for e in ([listed] if isinstance(listed, str) else listed or []) if e != ALL_EXPERIMENTS}
    config = _normalised(merged, repo)
    validate_mapping(config, schemas / "config.schema.yaml", CONFIG_SOURCE)
    registry_path = _repo_path(repo, config["registry"])
    _check_directories(config)
    registry = _load_registry(registry_path)
    experiments: dict[str, Any] = {}
    skipped: dict[str, dict[str, str]] = {}
    for entry in config["experiments"]:
        try:
            spec = load_experiment(experiment_file(entry, repo / "config" / "experiments"),
                                   schema=schemas / "experiment.schema.yaml", scale=config["scale"],
                                   known_algorithms=list(ALGORITHMS), known_datasets=registry)
        except MissingScaleError as exc:
            if entry in named:
                raise
            # A file that `all` picked up (a user's own, say) without this scale's profile:
            # profiles are optional, so it is left out of this run, saying so.
            if announce is not None:
                announce(f"{entry}: left out at scale {config['scale']!r} ({exc}); add "
                         f"profiles.{config['scale']} to its file to run it at this scale")
            continue
        check_learner_params(spec)
        if config["data_mirror"] is not None:
            # Offline: drop what only a download could give, before any job is planned.
            dropped = unavailable_offline(registry, spec.datasets, config["data_mirror"])
            skipped[spec.name] = dict(dropped)
            if announce is not None:
                for reason in dropped.values():
                    announce(f"{spec.name}: {reason}")
            spec = without_datasets(spec, dropped)
        if spec.name in experiments:
            raise ExperimentConfigError(
                f"experiment file {spec.path}: key 'name': {spec.name!r} is also the name of "
                f"{experiments[spec.name].path}; experiment names must be unique")
        experiments[spec.name] = spec
    sliced = slice_experiments(experiments, config["algorithms"], config["datasets"], CONFIG_SOURCE)
    # Keyed by results folder: a slice's is its own (redecorate.layout.experiment_folder), so it
    # never replaces the job files of the whole experiment.
    experiments = {experiment_folder(spec.name, spec.slice): spec for spec in sliced.values()}
    if announce is not None:
        for folder, spec in experiments.items():
            for note in slice_notes(spec, folder):
                announce(note)
    return Run(config, registry_path, registry, experiments, skipped)
