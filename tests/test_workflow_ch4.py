"""Snakemake plans the Chapter-4 study experiments only when they are selected, and a
misspelt parameter of a labelled variant fails the dry run naming file and key."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from test_workflow import output_of, snakemake

pytestmark = pytest.mark.workflow

# experiment -> units of work at the thesis scale (datasets x algorithms x runs)
THESIS_JOBS = {
    "ch4_no_rejection": 15 * 5 * 10,
    "ch4_artificial": 15 * 5 * 10,
    "ch4_uniform": 15 * 3 * 10,
    "ch4_large": 33 * 2 * 1,
    "ch4_base_learners": 2 * 4 * 5,
    "ch4_naive_bayes": 15 * 4 * 10,
    "ch4_diversity": 15 * 11 * 1,
    "ch4_ensemble_size": 5 * 11 * 1,
    "ch4_large_ensembles": 4 * 9 * 10,  # four methods at 100 and J48, the four at 15 (§4.5)
    "ch4_diversity_table": 15 * 3 * 1,
}


def _plan(workdir: Path, *config: str) -> subprocess.CompletedProcess[str]:
    return snakemake(workdir, "--dry-run", "--quiet", "rules", "--config", *config, timeout=300)


def test_dry_run_plans_every_chapter4_study(tmp_path: Path) -> None:
    selected = ",".join(THESIS_JOBS)
    result = _plan(tmp_path, f"experiments=[{selected}]")
    text = output_of(result)
    assert result.returncode == 0, text[-3000:]
    from redecorate.data import load_registry
    from redecorate.experiments import load_experiment
    from redecorate.kinds.jobs import plan_experiment

    repo = Path(__file__).resolve().parents[1]
    registry = load_registry(repo / "config" / "datasets.yaml")
    jobs = 0
    for name, n_units in THESIS_JOBS.items():
        spec = load_experiment(repo / "config" / "experiments" / f"{name}.yaml",
                               schema=repo / "workflow" / "schemas" / "experiment.schema.yaml")
        plan = plan_experiment(spec, registry)
        assert sum(len(c.units) for chunks in plan.values() for c in chunks) == n_units, name
        jobs += sum(len(chunks) for chunks in plan.values())
    assert jobs < sum(THESIS_JOBS.values())  # units are packed into fewer jobs
    assert any(line.split()[:2] == ["experiment_job", str(jobs)] for line in text.splitlines()), text[-3000:]


def test_misspelt_variant_parameter_names_file_and_key(tmp_path: Path) -> None:
    bad = tmp_path / "bad_variant.yaml"
    bad.write_text(
        "name: bad_variant\nseed: 1\ndatasets: [iris]\nruns: 1\nfolds: 2\npoints: [50]\n"
        "algorithms:\n  decorate_norej: {learner: decorate, rejecton: false}\n",
        encoding="utf-8",
    )
    result = _plan(tmp_path, f"experiments=[{bad}]")
    text = output_of(result)
    assert result.returncode != 0
    assert str(bad) in text and "algorithms.decorate_norej" in text and "'rejecton'" in text, text[-3000:]
