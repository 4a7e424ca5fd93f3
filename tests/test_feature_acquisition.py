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
    impute_hidden,
    known_features,
    known_features_per_instance,
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
    # The probability margin, by hand: the largest class probability minus the second.
    top2 = np.sort(proba, axis=1)[:, -2:]
    margins = top2[:, 1] - top2[:, 0]
    scores = error_sampling_scores(proba, y)
    assert (scores[wrong] == -1).all()
    np.testing.assert_allclose(scores[~wrong], margins[~wrong], rtol=1e-12)
    candidates = np.arange(50)
    m = int(wrong.sum()) + 3
    chosen = select_acquisitions("error_sampling", proba, y, candidates, m, rng)
    assert set(np.flatnonzero(wrong)) <= set(chosen.tolist())
    rest = np.setdiff1d(chosen, np.flatnonzero(wrong))
    # ... then the three correctly classified ones with the smallest margins.
    right = np.flatnonzero(~wrong)
    assert sorted(rest.tolist()) == sorted(right[np.argsort(margins[right])[:3]].tolist())
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
    from redecorate.kinds.unit import run_unit
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

    whole = run_unit(kind, autos, before, {"algorithm": "j48_random", "run": 0}, lambda _: None)
    parts = [run_unit(kind, autos, after, u, lambda _: None) for u in folds]
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


def test_imputation_fills_hidden_cells_with_the_complete_instances_mode_and_mean() -> None:
    """``missing: impute``: every hidden cell gets its feature's mode (nominal) or mean
    (numeric) over the complete instances; known values and values missing in the data itself
    are untouched."""
    rng = np.random.default_rng(5)
    X = np.column_stack([rng.integers(0, 4, 40), rng.normal(size=40), rng.integers(0, 3, 40),
                         rng.normal(size=40)]).astype(np.float64)  # fmt: skip
    X[0, 1] = np.nan  # missing in the data itself, in a complete instance
    X[20, 0] = np.nan  # ... and in a known feature of an incomplete one
    known = np.array([True, False, False, True])
    state = FeatureAcquisition(X, known, complete=np.arange(12))
    hidden = state.hidden()
    out = impute_hidden(state.matrix(), hidden, nominal=np.array([True, False, True, False]))
    assert not np.isnan(out[hidden]).any()
    done = X[:12]
    assert (out[hidden[:, 2], 2] == np.argmax(np.bincount(done[:, 2].astype(int)))).all()
    assert np.allclose(out[hidden[:, 1], 1], np.nanmean(done[:, 1]))
    np.testing.assert_array_equal(out[~hidden], state.matrix()[~hidden])  # NaN == NaN here
    assert np.isnan(out[0, 1]) and np.isnan(out[20, 0])


def test_per_instance_known_features_show_round_0_3_f_each() -> None:
    rng = np.random.default_rng(6)
    mask = known_features_per_instance(200, 36, 0.3, rng)
    assert (mask.sum(axis=1) == 11).all()  # round(0.3 · 36) = round(10.8)
    assert len({row.tobytes() for row in mask}) > 150  # each instance its own set
    X = rng.normal(size=(200, 36))
    state = FeatureAcquisition(X, mask, complete=[0])
    view = state.matrix()
    assert (~np.isnan(view[1:])).sum(axis=1).tolist() == [11] * 199
    np.testing.assert_array_equal(view[1:][mask[1:]], X[1:][mask[1:]])


def test_imputed_curve_never_shows_the_learner_a_hidden_nan(autos, monkeypatch) -> None:
    """The learner of every iteration, and the scoring of the pool, see imputed rows; the
    initial G follows ``initial_size``."""
    import redecorate.active.acquisition as acquisition
    from redecorate.learners.features import FeatureSchema

    seen: list[np.ndarray] = []
    make = acquisition.make_learner

    def spy(*args, **kwargs):
        model = make(*args, **kwargs)
        fit, predict = model.fit_prepared, model.predict_proba_prepared
        model.fit_prepared = lambda X, *a, **k: (seen.append(X.copy()), fit(X, *a, **k))[1]
        model.predict_proba_prepared = lambda X: (seen.append(X.copy()), predict(X))[1]
        return model

    monkeypatch.setattr(acquisition, "make_learner", spy)
    n = len(autos.y)
    train, test = np.arange(0, n, 2), np.arange(1, n, 2)
    pool = autos.X.iloc[train]
    native = np.isnan(FeatureSchema.from_input(pool).encode(pool))
    rows = acquisition_curve(pool, autos.y.iloc[train], autos.X.iloc[test],
                             autos.y.iloc[test], learner="j48", batch_size=10, missing="impute",
                             initial_size=25, seed=np.random.SeedSequence(7))  # fmt: skip
    assert rows[0]["n_complete"] == 25 and rows[1]["n_complete"] == 35
    fits = [X for X in seen if X.shape[0] == len(train)]
    assert len(fits) == len(rows)
    # NaN only where the data itself has no value (a hidden cell is filled even then: leaving
    # it NaN would tell which hidden values are truly missing); none once all is acquired.
    assert all((np.isnan(X) <= native).all() for X in fits)
    assert (np.isnan(fits[-1]) == native).all() and np.isnan(fits[0]).sum() < native.sum()


READINGS = REPO / "reproduced" / "ch8_afa_readings" / "ch8_afa_readings.yaml"


def test_omitted_readings_keep_todays_unit_keys_and_curves(tmp_path: Path, autos) -> None:
    """Entries without ``missing``/``known``/``initial_size``, or with their defaults, hash
    as before the keys existed and compute exactly the committed records."""
    import yaml

    from redecorate.experiments import load_experiment
    from redecorate.job_records import job_record_info, unit_key
    from redecorate.kinds import get_kind
    from redecorate.kinds.unit import run_unit

    kind = get_kind("acquisition")
    data = yaml.safe_load(READINGS.read_text())
    data["algorithms"]["j48_error_sampling"].update(missing="fractional", known="per_split")
    explicit = tmp_path / "readings.yaml"
    explicit.write_text(yaml.safe_dump(data))
    committed = REPO / "reproduced" / "ch8_afa_readings" / "records" / "autos" / "chunk0.parquet"
    info = job_record_info(committed)
    for path in (READINGS, explicit):
        settings = kind.job_settings(load_experiment(path, schema=SCHEMA, scale="pilot"))
        for unit, key in zip(info["units"], info["unit_keys"], strict=True):
            assert unit_key(kind, settings, unit, "autos") == key
    lines: list[str] = []
    records = run_unit(kind, autos, settings, {"algorithm": "j48_error_sampling", "run": 0}, lines.append)
    old = pd.read_parquet(committed)
    old = old[old["algorithm"] == "j48_error_sampling"].reset_index(drop=True)
    for column in ("fold", "point", "value"):
        np.testing.assert_array_equal(records[column].to_numpy(), old[column].to_numpy())
    # the curve's progress inside a fold, then the fold's line
    assert any(line.startswith("[ch8_afa_readings] autos j48_error_sampling run 0 fold 1: ") for line in lines)
    assert any("fold 1/10 done" in line for line in lines)


#: committed records (reproduced/<name>/records) -> the experiment file and scale they were
#: computed at
COMMITTED = {
    "ch8_afa": (REPO / "config" / "experiments" / "ch8_afa.yaml", "thesis"),
    "ch8_afa_readings": (READINGS, "pilot"),
}


@pytest.mark.parametrize("name", sorted(COMMITTED))
def test_the_job_settings_hash_to_the_committed_unit_keys(name: str) -> None:
    """Every unit of the committed per-job records gets the key it was stored under
    (``known_fraction`` always in the key, the algorithm entries as they were)."""
    from redecorate.experiments import load_experiment
    from redecorate.job_records import job_record_info, unit_key
    from redecorate.kinds import get_kind
    from redecorate.protocol.settings import key_settings

    kind = get_kind("acquisition")
    path, scale = COMMITTED[name]
    job = kind.job_settings(load_experiment(path, schema=SCHEMA, scale=scale))
    assert key_settings(kind, job)["known_fraction"] == 0.3
    files = sorted((REPO / "reproduced" / name / "records").glob("*/*.parquet"))
    assert files
    for file in files:
        info = job_record_info(file)
        for unit, key in zip(info["units"], info["unit_keys"], strict=True):
            assert unit_key(kind, job, unit, file.parent.name) == key, (file, unit)


def test_known_fraction_is_keyed_as_a_float_whatever_the_file_writes(tmp_path: Path) -> None:
    from redecorate.experiments import load_experiment
    from redecorate.kinds import get_kind
    from redecorate.protocol.settings import key_settings

    kind = get_kind("acquisition")
    spec = load_experiment(_ch8_smoke(tmp_path, lambda d: d.update(known_fraction=1)), schema=SCHEMA)
    assert spec.settings.known_fraction == 1.0 and isinstance(spec.settings.known_fraction, float)
    keyed = key_settings(kind, kind.job_settings(spec))
    assert set(keyed) == {"experiment", "n_folds", "seed", "known_fraction", "algorithms"}
    assert isinstance(keyed["known_fraction"], float)


def test_reading_keys_are_checked(tmp_path: Path) -> None:
    from redecorate.config import ExperimentConfigError
    from redecorate.experiments import load_experiment

    for key, value in (("missing", "mean"), ("known", "per_fold"), ("initial_size", 1.5)):
        def bad(data, key=key, value=value):
            data["algorithms"]["j48_random"][key] = value

        with pytest.raises(ExperimentConfigError, match=rf"algorithms.j48_random.*{key}"):
            load_experiment(_ch8_smoke(tmp_path, bad), schema=SCHEMA, scale="smoke")


def _no_merging(X, y=None):
    """:func:`merge_identical_rows` that merges nothing: every row its own representative."""
    n = np.asarray(X).shape[0]
    return np.arange(n), np.ones(n, dtype=np.int64), np.arange(n)


@pytest.mark.parametrize("learner, batch", [("j48", 10), ("decorate", 20)])
def test_merging_identical_masked_rows_changes_no_curve(autos, monkeypatch, learner, batch) -> None:
    """The loop fits on its masked pool with identical rows merged (each once, with its count)
    and scores each distinct masked row once: the accuracies are those of the copies."""
    import redecorate.learners.base as base

    n = len(autos.y)
    train, test = np.arange(0, n, 2), np.arange(1, n, 2)
    params = {"n_estimators": 5, "max_iterations": 10} if learner == "decorate" else {}

    def curve() -> list[tuple[int, float, int]]:
        return [(r["n_complete"], r["accuracy"], r["ensemble_size"]) for r in acquisition_curve(
            autos.X.iloc[train], autos.y.iloc[train], autos.X.iloc[test], autos.y.iloc[test],
            learner=learner, params=params, batch_size=batch, seed=np.random.SeedSequence(5))]

    merged = curve()
    monkeypatch.setattr(base, "merge_identical_rows", _no_merging)
    assert curve() == merged


# -- what a fold costs: the distinct rows a learner sees --------------------------------------
def _nominal_pool(n: int, seed: int) -> tuple[pd.DataFrame, pd.Series]:
    """Few-valued nominal features, so that masked rows coincide a lot."""
    rng = np.random.default_rng(seed)
    X = pd.DataFrame({f"a{j}": pd.Categorical(rng.integers(0, 3, n).astype(str), categories=["0", "1", "2"])
                      for j in range(10)})
    return X, pd.Series(pd.Categorical(rng.integers(0, 2, n).astype(str)))


def test_expected_distinct_rows_start_exact_end_at_the_pool_and_match_random_acquisition() -> None:
    from redecorate.active.acquisition import acquisition_start, expected_distinct_rows
    from redecorate.learners.base import merge_identical_rows

    X, y = _nominal_pool(400, 1)
    start = acquisition_start(X, y, seed=np.random.SeedSequence(3), batch_size=20, known_fraction=0.3)
    expected = expected_distinct_rows(start, 20)
    state = start.state
    incomplete = state.incomplete
    groups = len(merge_identical_rows(state.matrix()[incomplete], start.y[incomplete])[0])
    assert groups < incomplete.size / 4  # the test needs rows that coincide
    assert expected[0] == pytest.approx(int(state.complete.sum()) + groups)
    assert expected[-1] == 400 and len(expected) == 1 + (400 - 20) // 20
    assert np.all(np.diff(expected) > 0) or np.all(np.diff(expected[1:]) >= 0)
    # Random acquisition, simulated: the mean distinct (row, class) pairs at every fit.
    rng = np.random.default_rng(0)
    seen = np.zeros(len(expected))
    for _ in range(200):
        trial = FeatureAcquisition(start.X, state.known, np.flatnonzero(state.complete))
        for i in range(len(expected)):
            left = trial.incomplete
            seen[i] += (int(trial.complete.sum())
                        + len(merge_identical_rows(trial.matrix()[left], start.y[left])[0]) if left.size else 400)
            if left.size:
                trial.acquire(rng.choice(left, size=min(20, left.size), replace=False))
    np.testing.assert_allclose(expected, seen / 200, rtol=0.02)


def test_the_plan_prices_a_fold_from_its_own_known_features(autos) -> None:
    """Folds whose known features leave fewer distinct masked rows are priced lower; without
    the data every fold of a unit is priced alike (the workflow's packing)."""
    import dataclasses

    from redecorate.data import load_registry
    from redecorate.experiments import load_experiment
    from redecorate.kinds import get_kind
    from redecorate.kinds.jobs import dataset_shape

    registry = load_registry(REPO / "config" / "datasets.yaml")
    spec = load_experiment(REPO / "config" / "experiments" / "ch8_afa.yaml",
                           schema=REPO / "workflow" / "schemas" / "experiment.schema.yaml")
    kind, job = get_kind(spec.kind), get_kind(spec.kind).job_settings(spec)
    shape = dataset_shape(registry["autos"], "autos")
    with_data = dataclasses.replace(shape, data=lambda: autos)
    units = [{"algorithm": "decorate_random", "run": 0, "fold": f} for f in range(10)]
    blind = {kind.unit_cost(job, u, shape) for u in units}
    assert len(blind) == 1
    priced = [kind.unit_cost(job, u, with_data) for u in units]
    assert len(set(priced)) > 1
    from redecorate.kinds.acquisition import _data_rows  # the kind's own pricing
    from redecorate.protocol.folds import run_folds

    splits = run_folds(autos, 10, run=0, seed=job.seed)
    entry = job.algorithms["decorate_random"]
    first = [_data_rows(job, entry, autos, 0, f, splits[f][0])[0] for f in range(10)]
    assert np.argsort(first).tolist() == np.argsort(priced).tolist()


#: the committed runs of the readings the text leaves open (experiment file, scale)
READING_RUNS = {
    "ch8_afa_readings": (READINGS, "pilot"),
    "ch8_afa_readings_decorate": (REPO / "reproduced" / "ch8_afa_readings_decorate"
                                  / "ch8_afa_readings_decorate.yaml", "pilot"),
}


@pytest.mark.parametrize("name", sorted(READING_RUNS))
def test_each_reading_is_priced_within_one_and_a_half_times_its_measured_cpu(name: str) -> None:
    """``known: per_instance`` and ``missing: impute`` cost what ch8_afa's readings do not
    (``READING_FIT_FACTOR``): each algorithm taking one is planned within 1.5x of the CPU its
    committed units measured, summed over the datasets, as the planner sums them."""
    from redecorate.calibration import engine_revisions
    from redecorate.data import load_registry
    from redecorate.experiments import load_experiment
    from redecorate.kinds.jobs import data_loader
    from redecorate.plan import experiment_plan

    mirror = REPO / ".." / "shared" / "datasets" / "uci"
    registry = load_registry(REPO / "config" / "datasets.yaml")
    path, scale = READING_RUNS[name]
    spec = load_experiment(path, schema=SCHEMA, scale=scale)
    plan = experiment_plan(spec, registry, 120.0, [REPO / "reproduced"],
                           lambda d: data_loader(d, registry, REPO / "data", mirror), engine_revisions(REPO))
    readings = [label for label, entry in spec.algorithms.items()
                if entry.get("known", "per_split") != "per_split" or entry.get("missing", "fractional") != "fractional"]
    assert readings
    for label in readings:
        cost = plan.algorithms[label]
        assert cost.recorded >= 3, (label, cost.recorded)
        ratio = cost.done_planned_s / cost.done_measured_s
        assert 1 / 1.5 <= ratio <= 1.5, (label, ratio, cost.recorded)
