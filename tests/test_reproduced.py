"""The committed thesis-scale reproduction is what this code computes.

``reproduced/ch4_passive/records.parquet`` comes from one real run (its commit and
configuration are in ``provenance.json`` beside it). A change to a learner's arithmetic or
random streams changes those records; rerunning a few cheap jobs of that run here and
demanding the same accuracies keeps such a change from landing without the reproduction
being regenerated.
"""

from __future__ import annotations

import io
from pathlib import Path

import pandas as pd
import pytest
from uci_mirror import mirror_dir  # noqa: E402 - tools/ is on sys.path (conftest)

from redecorate.data import load_dataset
from redecorate.experiments import load_experiment
from redecorate.kinds.passive import run_job

REPO = Path(__file__).resolve().parents[1]
REPRODUCED = REPO / "reproduced" / "ch4_passive" / "records.parquet"

#: (dataset, algorithm, run): every learner of chapter 4; labor, hepatitis and colic have
#: missing values (fractional weights down the trees), iris has none.
JOBS = [
    ("labor", "j48", 3),
    ("labor", "bagging", 0),
    ("hepatitis", "bagging", 7),
    ("labor", "rf", 0),
    ("iris", "rf", 5),
    ("colic", "adaboost", 2),
    ("labor", "decorate", 1),
]


@pytest.fixture(scope="module")
def reproduced() -> pd.DataFrame:
    if not REPRODUCED.is_file():
        pytest.skip(f"{REPRODUCED} not found")
    return pd.read_parquet(REPRODUCED)


@pytest.mark.parametrize(("dataset", "algorithm", "run"), JOBS)
def test_a_rerun_job_gives_the_reproduced_records(reproduced, dataset, algorithm, run):
    mirror = mirror_dir()
    if mirror is None:
        pytest.skip("ARFF mirror ../shared/datasets/uci not found")
    spec = load_experiment(REPO / "config" / "experiments" / "ch4_passive.yaml",
                           schema=REPO / "workflow" / "schemas" / "experiment.schema.yaml")
    data = load_dataset(dataset, registry=REPO / "config" / "datasets.yaml", mirror=mirror)
    records = run_job(
        data, experiment=spec.name, algorithm=algorithm, params=spec.algorithms[algorithm],
        run=run, n_folds=spec.protocol.folds, points=list(spec.protocol.points),
        seed=spec.protocol.seed, progress=lambda _line: None,
    )
    keys = ["fold", "point", "metric"]
    committed = reproduced[(reproduced.dataset == dataset) & (reproduced.algorithm == algorithm)
                           & (reproduced.run == run)]
    assert len(committed) == len(records) == spec.protocol.folds * len(spec.protocol.points)
    merged = records.merge(committed, on=keys, suffixes=("", "_committed"), validate="1:1")
    pd.testing.assert_series_equal(merged.n_train, merged.n_train_committed, check_names=False)
    pd.testing.assert_series_equal(merged.ensemble_size, merged.ensemble_size_committed,
                                   check_names=False)
    pd.testing.assert_series_equal(merged.value, merged.value_committed, check_names=False,
                                   check_exact=True)


#: (experiment, dataset, algorithm, run, fold) of committed units of chapters 6-8, the cheap
#: ones of each path the J48 engine's speed levers and the active loop's touch: pruned J48
#: in DECORATE and uncertainty sampling (chapter 6), ActiveDecorate's committee margins on
#: the tie grid (chapters 6 and 7) and with JS divergence, Laplace PETs scored by JS
#: divergence (votes not computed), AULC (chapter 7), QBag's vote margins (chapter 6),
#: chapter 8's masked pools (missing values everywhere) with J48 and DECORATE. The active
#: systems' units are those of arithmetic revision 1 (docs/operations.md, "Determinism").
UNITS = [
    ("ch6_active", "labor", "active_decorate", 1, None),
    ("ch6_utility", "labor", "active_decorate_jsdiv", 0, None),
    ("ch6_strategies", "labor", "uncertainty_j48", 0, None),
    ("ch7_cpe", "iris", "active_decorate", 3, None),
    ("ch7_multiclass", "iris", "bootstrap_js", 0, None),
    ("ch6_active", "hepatitis", "qbag", 0, None),
    ("ch8_afa", "anneal", "j48_random", 0, None),
    ("ch8_afa", "autos", "decorate_error_sampling", 0, 0),
]


@pytest.mark.slow
@pytest.mark.parametrize(("experiment", "dataset", "algorithm", "run", "fold"), UNITS)
def test_a_rerun_unit_gives_the_committed_records(experiment, dataset, algorithm, run, fold):
    """Units found by key under ``reproduced/`` (as ``records_from`` finds them) and computed
    again give the same records to the last bit (the clock column aside)."""
    from smoke_support import TIMING_COLUMNS

    from redecorate.job_records import kept_units, unit_key
    from redecorate.kinds import get_kind
    from redecorate.kinds.unit import run_unit

    mirror = mirror_dir()
    if mirror is None:
        pytest.skip("ARFF mirror ../shared/datasets/uci not found")
    spec = load_experiment(REPO / "config" / "experiments" / f"{experiment}.yaml",
                           schema=REPO / "workflow" / "schemas" / "experiment.schema.yaml", scale="thesis")
    kind = get_kind(spec.kind)
    settings = kind.job_settings(spec)
    [unit] = [u for u in kind.units(spec) if u.get("algorithm") == algorithm and u["run"] == run
              and u.get("fold") == fold]
    kept = kept_units(REPO / "reproduced", dataset, prefer=experiment)
    key = unit_key(kind, settings, unit, dataset)
    assert key in kept, f"{experiment} {dataset} {dict(unit)}: no committed unit with key {key[:12]}"
    data = load_dataset(dataset, registry=REPO / "config" / "datasets.yaml", mirror=mirror)
    records = run_unit(kind, data, settings, unit, progress=lambda _line: None)
    records = pd.read_parquet(io.BytesIO(records.to_parquet()))  # the dtypes a record file keeps
    committed = kept[key].frame(experiment)
    pd.testing.assert_frame_equal(records.drop(columns=list(TIMING_COLUMNS)),
                                  committed.drop(columns=list(TIMING_COLUMNS)), check_exact=True)
