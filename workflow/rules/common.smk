"""Configuration plumbing shared by every rule file.

Everything here runs once, when Snakemake parses the workflow, so configuration mistakes
fail before any job starts, with a message naming the file and key (see
redecorate.experiments). Path conventions:

* data_dir, results_dir, data_mirror, records_from and experiment *paths* given on the command line are
  relative to the working directory (Snakemake's convention for inputs and outputs);
* registry, published_dir and experiment *names* are resolved in the repository (next to
  this Snakefile), so `snakemake --directory elsewhere` still finds them.
"""

import math  # noqa: F401  (used by the rule files included after this one)
import os  # noqa: F401
import sys
from pathlib import Path

from snakemake.exceptions import WorkflowError

from redecorate.config import ExperimentConfigError
from redecorate.determinism import pin_cpu_dispatch
from redecorate.kinds import get_kind
from redecorate.kinds.jobs import plan_experiment
from redecorate.layout import results_root
from redecorate.provenance import LOCK_FILE, unlocked_arithmetic
from redecorate.run_config import load_run

REPO = Path(workflow.basedir)

# Every job process inherits it: NumPy's AVX-512 loops off, the same functions on every CPU.
pin_cpu_dispatch()

def _repo_path(value):
    """Absolute path of a repository file named in the configuration."""
    path = Path(str(value)).expanduser()
    return path if path.is_absolute() else REPO / path


def _announce(line):
    """Say once, in the main process, what an offline run drops (job subprocesses re-read
    this file; they stay quiet)."""
    if not (workflow.remote_exec or workflow.subprocess_exec):
        print(line, file=sys.stderr)


# With --cores 0 (or --jobs 0) Snakemake schedules nothing and waits at "Select jobs to
# execute..." without a word: refuse it before anything runs.
if not (workflow.remote_exec or workflow.subprocess_exec):
    # Locally --jobs N sets the cores too, so one check covers both.
    if any(value is not None and value < 1 for value in (workflow._cores, workflow.nodes)):
        raise WorkflowError("--cores 0 (or --jobs 0): no job could ever start. Fix: give at least 1, "
                            "e.g. `snakemake --cores 2` (or `--cores all` for every core).")

# The configuration merged, checked and resolved by the library (redecorate.run_config), the
# same way the planner (python3 -m redecorate.plan) reads it.
try:
    RUN = load_run(config, REPO, announce=_announce)
except ExperimentConfigError as exc:
    raise WorkflowError(f"Invalid configuration.\n{exc}") from None
config.clear()
config.update(RUN.config)

# The committed records were computed with the locked versions (requirements.lock); another
# NumPy, SciPy, scikit-learn, pandas, numba or pyarrow may give other last bits, so say so.
_UNLOCKED = unlocked_arithmetic(REPO / LOCK_FILE) if (REPO / LOCK_FILE).is_file() else {}
if _UNLOCKED:
    _announce("Note: not the locked versions of the arithmetic libraries ("
              + ", ".join(f"{n} {have} installed, {want} locked" for n, (have, want) in _UNLOCKED.items())
              + "); records are still computed and reused by key, but may differ in the last bit from the "
              "committed ones: install with `python3 -m pip install -c requirements.lock -e .` to match them.")
DATASET_REGISTRY, EXPERIMENTS = RUN.registry, RUN.experiments

# The jobs of every experiment: dataset -> chunks of units of work, sized by estimated cost
# (redecorate.kinds.jobs; config key job_seconds), and the settings every job of an
# experiment shares. Both are job parameters: changing them reruns exactly what they affect.
JOB_PLANS = {
    name: plan_experiment(spec, DATASET_REGISTRY, float(config["job_seconds"]))
    for name, spec in EXPERIMENTS.items()
}
JOB_SETTINGS = {name: get_kind(spec.kind).job_settings(spec).to_json() for name, spec in EXPERIMENTS.items()}

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
    # replication page is what the HTML report shows of replication.md; the replication
    # report of every published table closes the run (workflow/rules/replication.smk).
    targets += [t for name in EXPERIMENTS for t in (provenance_target(name), page_target(name))]
    return targets + [replication_target()]
