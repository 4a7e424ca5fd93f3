"""Configuration plumbing shared by every rule file.

Everything here runs once, when Snakemake parses the workflow, so configuration mistakes
fail before any job starts, with a message naming the file and key (see
redecorate.experiments). Path conventions:

* data_dir, results_dir, data_mirror, records_from and experiment *paths* given on the command line are
  relative to the working directory (Snakemake's convention for inputs and outputs);
* registry, published_dir and experiment *names* are resolved in the repository (next to
  this Snakefile), so `snakemake --directory elsewhere` still finds them.
"""

import math
import os
import sys
from pathlib import Path

from snakemake.exceptions import WorkflowError

from redecorate.kinds.jobs import DEFAULT_TARGET_SECONDS, plan_experiment

from redecorate.config import ConfigError, ExperimentConfigError, load_yaml_validated, validate_mapping
from redecorate.data.registry import unavailable_offline
from redecorate.experiments import check_learner_params, load_experiment, slice_experiments, without_datasets
from redecorate.layout import results_root

REPO = Path(workflow.basedir)
SCHEMAS = REPO / "workflow" / "schemas"
CONFIG_SOURCE = "config/config.yaml (merged with --config/--configfile)"
ALL_EXPERIMENTS = "all"  # `experiments: all` selects every file in config/experiments/
SLICE_KEYS = ("algorithms", "datasets")  # run a slice of every selected experiment (null: all)


def _repo_path(value):
    """Absolute path of a repository file named in the configuration."""
    path = Path(os.path.expanduser(str(value)))
    return path if path.is_absolute() else REPO / path


def _normalise_config(cfg):
    """Undo what the command line cannot express: --config parses `null` as the text 'null'
    and a single experiment as a string."""
    for key in ("data_mirror", "records_from", *SLICE_KEYS):
        if isinstance(cfg.get(key), str) and cfg[key].strip().lower() in ("", "null", "none", "~"):
            cfg[key] = None
    for key in ("experiments", *SLICE_KEYS):
        if isinstance(cfg.get(key), str):
            cfg[key] = [cfg[key]]
    if isinstance(cfg.get("experiments"), list) and ALL_EXPERIMENTS in cfg["experiments"]:
        # `all`: every experiment file of the repository, in name order, with any others
        # named beside it (paths to files elsewhere) kept.
        names = sorted(p.stem for p in (REPO / "config" / "experiments").glob("*.yaml"))
        extra = [e for e in cfg["experiments"] if e != ALL_EXPERIMENTS and e not in names]
        cfg["experiments"] = names + extra
    cfg.setdefault("published_dir", "config/published")
    cfg.setdefault("data_mirror", None)
    cfg.setdefault("records_from", None)
    for key in SLICE_KEYS:
        cfg.setdefault(key, None)
    cfg.setdefault("job_seconds", DEFAULT_TARGET_SECONDS)


def _known_algorithms():
    """Learner registry names (redecorate.learners.registry.ALGORITHMS)."""
    from redecorate.learners.registry import ALGORITHMS

    return list(ALGORITHMS)


def _load_registry(registry_path):
    """The dataset registry; a missing or broken registry is a configuration error."""
    from redecorate.data import load_registry

    try:
        registry = load_registry(registry_path)
    except Exception as exc:
        raise ExperimentConfigError(
            f"{CONFIG_SOURCE}: key 'registry': cannot load dataset registry {registry_path}: {exc}"
        ) from exc
    return registry


def _experiment_file(entry):
    """`ch4_passive` -> config/experiments/ch4_passive.yaml; anything path-like as given."""
    from redecorate.experiments import experiment_file

    return experiment_file(entry, REPO / "config" / "experiments")


CONFIG_FILE = REPO / "config" / "config.yaml"


def _merge_config_file(cfg):
    """config/config.yaml, validated with line numbers, under --config/--configfile values.

    Read here rather than with Snakemake's `configfile:` so that a malformed file fails with
    the file, the line, the key and the fix, as every other configuration file does.
    """
    try:
        values = load_yaml_validated(CONFIG_FILE, SCHEMAS / "config.schema.yaml")
    except ConfigError as exc:
        raise ExperimentConfigError(str(exc)) from None
    merged = {**values, **cfg}
    cfg.clear()
    cfg.update(merged)


def _load_all(cfg):
    _merge_config_file(cfg)
    _normalise_config(cfg)
    validate_mapping(cfg, SCHEMAS / "config.schema.yaml", CONFIG_SOURCE)
    registry = _repo_path(cfg["registry"])
    if not registry.is_file():
        raise ExperimentConfigError(
            f"{CONFIG_SOURCE}: key 'registry': dataset registry {registry} does not exist"
        )
    if cfg["data_mirror"] is not None and not Path(cfg["data_mirror"]).is_dir():
        raise ExperimentConfigError(
            f"{CONFIG_SOURCE}: key 'data_mirror': {os.path.abspath(cfg['data_mirror'])} "
            "is not a directory"
        )
    own_results = (cfg["records_from"] is not None
                   and Path(cfg["records_from"]).resolve() == Path(cfg["results_dir"]).resolve())
    if cfg["records_from"] is not None and not own_results and not Path(cfg["records_from"]).is_dir():
        # The run's own results_dir may not exist yet (a first run that shares units between
        # its experiments); any other missing directory is a typo worth stopping for.
        raise ExperimentConfigError(
            f"{CONFIG_SOURCE}: key 'records_from': {os.path.abspath(cfg['records_from'])} "
            "is not a directory (give the directory that holds <experiment>/records/, e.g. "
            "reproduced, or null)"
        )
    if own_results:
        # records_from=results means this run's own results: at a scale other than the
        # thesis's they live in its scale's folder (redecorate.layout).
        cfg["records_from"] = results_root(cfg["results_dir"], cfg["scale"])
    algorithms = _known_algorithms()
    datasets = _load_registry(registry)
    experiments = {}
    for entry in cfg["experiments"]:
        spec = load_experiment(
            _experiment_file(entry),
            schema=SCHEMAS / "experiment.schema.yaml",
            scale=cfg["scale"],
            known_algorithms=algorithms,
            known_datasets=datasets,
        )
        check_learner_params(spec)
        if cfg["data_mirror"] is not None:
            # Offline: drop what only a download could give, before any job is planned, and
            # say so once (job subprocesses re-read this file; they stay quiet).
            skipped = unavailable_offline(datasets, spec.datasets, cfg["data_mirror"])
            if not (workflow.remote_exec or workflow.subprocess_exec):
                for reason in skipped.values():
                    print(f"{spec.name}: {reason}", file=sys.stderr)
            spec = without_datasets(spec, skipped)
        if spec.name in experiments:
            raise ExperimentConfigError(
                f"experiment file {spec.path}: key 'name': {spec.name!r} is also the name of "
                f"{experiments[spec.name].path}; experiment names must be unique"
            )
        experiments[spec.name] = spec
    experiments = slice_experiments(experiments, cfg["algorithms"], cfg["datasets"], CONFIG_SOURCE)
    return registry, datasets, experiments


try:
    REGISTRY, DATASET_REGISTRY, EXPERIMENTS = _load_all(config)
except ExperimentConfigError as exc:
    raise WorkflowError(f"Invalid configuration.\n{exc}") from None

# The jobs of every experiment: dataset -> chunks of units of work, sized by estimated cost
# (redecorate.kinds.jobs; config key job_seconds), and the settings every job of an
# experiment shares. Both are job parameters: changing them reruns exactly what they affect.
JOB_PLANS = {
    name: plan_experiment(spec, DATASET_REGISTRY, float(config["job_seconds"]))
    for name, spec in EXPERIMENTS.items()
}
JOB_SETTINGS = {name: spec.experiment_kind.job_settings(spec).to_json() for name, spec in EXPERIMENTS.items()}

DATA = config["data_dir"].rstrip("/")
# results/<experiment>/ at the thesis scale, results/_scales/<scale>/<experiment>/ otherwise,
# so runs at two scales never overwrite or mix each other's outputs (redecorate.layout).
RESULTS = results_root(config["results_dir"], config["scale"])
PUBLISHED = _repo_path(config["published_dir"])


wildcard_constraints:
    experiment=r"[A-Za-z0-9][A-Za-z0-9_.-]*",
    dataset=r"[A-Za-z0-9][A-Za-z0-9_.-]*",
    chunk=r"\d+",


def all_datasets():
    """Every dataset any selected experiment uses at the selected scale."""
    return sorted({d for spec in EXPERIMENTS.values() for d in spec.datasets})


def prepared(dataset):
    """Path of a prepared dataset (parquet; its JSON sidecar sits next to it)."""
    return f"{DATA}/prepared/{dataset}.parquet"


def all_targets():
    """What `snakemake` with no target builds: every experiment's aggregate outputs.

    For `--report`, only the experiments that finished, plus the list of what is missing
    (workflow/rules/status.smk).
    """
    if REPORT_MODE:
        return report_targets()
    targets = [aggregate_target(name) for name in EXPERIMENTS]
    # provenance.json closes every results directory (workflow/rules/provenance.smk); the
    # replication page is what the HTML report shows of replication.md.
    return targets + [t for name in EXPERIMENTS for t in (provenance_target(name), page_target(name))]
