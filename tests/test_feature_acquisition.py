"""Active feature-value acquisition (chapter 8): the defining properties of Algorithm 7."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from redecorate.active.acquisition import (
    FeatureAcquisition,
    acquisition_curve,
    error_sampling_scores,
    known_features,
    select_acquisitions,
)

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def autos():
    from redecorate.data import load_dataset, load_registry

    return load_dataset("autos", registry=load_registry(REPO / "config" / "datasets.yaml"),
                        mirror=REPO / ".." / "shared" / "datasets" / "uci")  # fmt: skip


def test_masked_never_imputed_and_known_values_never_change() -> None:
    rng = np.random.default_rng(0)
    X = rng.normal(size=(30, 10))
    X[3, 2] = np.nan  # missing in the data itself stays missing
    known = known_features(10, 0.3, rng)
    assert known.sum() == 3
    state = FeatureAcquisition(X, known, complete=[0, 1])
    view = state.matrix()
    incomplete = state.incomplete
    np.testing.assert_array_equal(view[np.ix_(incomplete, known)], X[np.ix_(incomplete, known)])
    assert np.isnan(view[np.ix_(incomplete, ~known)]).all()  # hidden = NaN, not a guess
    np.testing.assert_array_equal(view[:2], X[:2])
    state.acquire([5, 7])
    after = state.matrix()
    np.testing.assert_array_equal(after[5], X[5])
    np.testing.assert_array_equal(after[np.ix_(state.incomplete, known)], X[np.ix_(state.incomplete, known)])
    assert np.isnan(after[3, 2])
    with pytest.raises(ValueError, match="incomplete"):
        state.acquire([5])  # completed once only


def test_error_sampling_takes_every_misclassified_instance_first() -> None:
    rng = np.random.default_rng(1)
    proba = rng.dirichlet([1, 1, 1], size=50)
    y = rng.integers(0, 3, 50)
    wrong = np.argmax(proba, axis=1) != y
    scores = error_sampling_scores(proba, y)
    assert (scores[wrong] == -1).all() and (scores[~wrong] >= 0).all()
    candidates = np.arange(50)
    m = int(wrong.sum()) + 3
    chosen = select_acquisitions("error_sampling", proba, y, candidates, m, rng)
    assert set(np.flatnonzero(wrong)) <= set(chosen.tolist())
    rest = np.setdiff1d(chosen, np.flatnonzero(wrong))
    # ... then the least certain of the correctly classified ones.
    margins = scores[~wrong]
    assert np.sort(scores[rest]).tolist() == np.sort(margins)[:3].tolist()
    few = select_acquisitions("error_sampling", proba, y, candidates, 2, rng)
    assert wrong[few].all()


def test_uncertainty_sampling_takes_the_smallest_margins_misclassified_or_not() -> None:
    rng = np.random.default_rng(2)
    proba = rng.dirichlet([1, 1, 1], size=50)
    y = rng.integers(0, 3, 50)
    top2 = np.sort(proba, axis=1)[:, -2:]
    margins = top2[:, 1] - top2[:, 0]
    chosen = select_acquisitions("uncertainty", proba, y, np.arange(50), 7, rng)
    assert sorted(chosen.tolist()) == sorted(np.argsort(margins)[:7].tolist())
    wrong = np.argmax(proba, axis=1) != y
    assert not set(np.flatnonzero(wrong)) <= set(chosen.tolist())  # unlike Error Sampling


def test_the_loop_completes_every_instance_exactly_once(autos) -> None:
    n = len(autos.y)
    train, test = np.arange(0, n, 2), np.arange(1, n, 2)
    lines: list[str] = []
    rows = acquisition_curve(autos.X.iloc[train], autos.y.iloc[train], autos.X.iloc[test],
                             autos.y.iloc[test], learner="j48", batch_size=10,
                             seed=np.random.SeedSequence(3), progress=lines.append)  # fmt: skip
    sizes = [r["n_complete"] for r in rows]
    assert sizes[0] == 10 and sizes[-1] == len(train)
    # Progress at every tenth of the pool, the last when it is complete.
    assert len(lines) == 10 and lines[-1].startswith(f"{len(train)}/{len(train)} complete")
    assert all(b - a == 10 for a, b in zip(sizes[:-2], sizes[1:-1], strict=True))


def test_with_complete_data_acquisition_changes_nothing(autos) -> None:
    n = len(autos.y)
    train, test = np.arange(0, n, 2), np.arange(1, n, 2)
    curves = [
        [r["accuracy"] for r in acquisition_curve(
            autos.X.iloc[train], autos.y.iloc[train], autos.X.iloc[test], autos.y.iloc[test],
            learner="j48", scorer=scorer, batch_size=20, known_fraction=1.0,
            seed=np.random.SeedSequence(4))]
        for scorer in ("error_sampling", "random")
    ]  # fmt: skip
    # Every feature known: each model sees the whole data whatever was "acquired".
    assert curves[0] == curves[1] and len(set(curves[0])) == 1


SCHEMA = REPO / "workflow" / "schemas" / "experiment.schema.yaml"
CH8 = REPO / "config" / "experiments" / "ch8_afa.yaml"


def _ch8_smoke(tmp_path: Path, edit) -> Path:
    import yaml

    data = yaml.safe_load(CH8.read_text())
    edit(data)
    path = tmp_path / "ch8.yaml"
    path.write_text(yaml.safe_dump(data))
    return path


def test_fold_units_split_a_run_into_folds_with_the_same_records(tmp_path: Path, autos) -> None:
    """A fold unit computes exactly that fold of the run unit, and only entries that ask for
    fold units get them (the others keep their units and unit keys)."""
    from redecorate.experiments import load_experiment
    from redecorate.job_records import unit_key
    from redecorate.kinds import get_kind
    from redecorate.stats.summary import RECORD_COLUMNS

    kind = get_kind("acquisition")
    plain = load_experiment(_ch8_smoke(tmp_path, lambda d: None), schema=SCHEMA, scale="smoke")

    def split(data):
        data["algorithms"]["j48_random"]["fold_units"] = True

    spec = load_experiment(_ch8_smoke(tmp_path, split), schema=SCHEMA, scale="smoke")
    units = kind.units(spec)
    folds = [u for u in units if u["algorithm"] == "j48_random"]
    assert [u["fold"] for u in folds] == [0, 1, 2] and all(u["run"] == 0 for u in folds)
    assert {"algorithm": "j48_error_sampling", "run": 0} in units
    before, after = kind.job_settings(plain), kind.job_settings(spec)
    unit = {"algorithm": "j48_error_sampling", "run": 0}
    assert unit_key(kind, before, unit, "autos") == unit_key(kind, after, unit, "autos")

    whole = kind.run_unit(autos, before, {"algorithm": "j48_random", "run": 0}, lambda _: None)
    parts = [kind.run_unit(autos, after, u, lambda _: None) for u in folds]
    columns = [c for c in RECORD_COLUMNS if c != "fit_seconds"]
    pd.testing.assert_frame_equal(pd.concat(parts, ignore_index=True)[columns], whole[columns])
    assert all(set(p["fold"]) == {u["fold"]} for p, u in zip(parts, folds, strict=True))


def test_fold_units_must_be_a_boolean(tmp_path: Path) -> None:
    from redecorate.config import ExperimentConfigError
    from redecorate.experiments import load_experiment

    def bad(data):
        data["algorithms"]["j48_random"]["fold_units"] = "yes"

    with pytest.raises(ExperimentConfigError, match=r"algorithms.j48_random.*fold_units must be true or false"):
        load_experiment(_ch8_smoke(tmp_path, bad), schema=SCHEMA, scale="smoke")
