"""The unit of work: one (experiment, dataset, algorithm, run) → long-form records.

A job computes every fold and every learning-curve point of one run of k-fold
cross-validation and returns one row per (fold, point, metric) with the columns of
:data:`RECORD_COLUMNS`. Everything downstream (means, significance, W/D/L, plots) is a
pure function of these rows, so a job is the natural grain for Snakemake: small enough to
spread over cores and cluster nodes, big enough that scheduling overhead is negligible.

Determinism: folds, training orders and learner seeds all come from
:func:`redecorate.protocol.seeds.seed_sequence`, keyed by names rather than by call order,
so the ``value`` column is bit-identical whenever and wherever the job is re-run (only
``fit_seconds``, a wall-clock measurement, varies).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any
from typing import Protocol as TypingProtocol

import numpy as np
import pandas as pd

from redecorate.protocol.curve import POINT_UNITS, curve_sizes, training_order
from redecorate.protocol.folds import stratified_folds
from redecorate.protocol.seeds import derive_seed, seed_sequence
from redecorate.stats.summary import RECORD_COLUMNS  # the record schema, defined once
from redecorate.util import exact_fraction

__all__ = [
    "METRICS",
    "RECORD_COLUMNS",
    "JobError",
    "LearnerFactory",
    "Protocol",
    "learner_seed",
    "run_folds",
    "run_job",
    "wants_pool",
]



class JobError(RuntimeError):
    """A learner failed inside a job; the message names dataset/algorithm/run/fold/point."""


class _DatasetLike(TypingProtocol):
    name: str
    X: pd.DataFrame
    y: pd.Series


LearnerFactory = Callable[[str, Mapping[str, Any], int], Any]
"""``(algorithm, params, random_state) -> unfitted scikit-learn classifier``."""

FoldTransform = Callable[
    [int, "float | int", pd.DataFrame, pd.Series, pd.DataFrame, pd.Series],
    tuple[pd.DataFrame, pd.Series, pd.DataFrame, pd.Series],
]
"""``(fold, point, X_train, y_train, X_test, y_test) -> the four, transformed``.

The hook through which other experiment kinds reuse :func:`run_job`'s fold loop: Chapter 5
(:mod:`redecorate.protocol.noise`) corrupts each split per noise level with it.
"""


@dataclass(frozen=True)
class Protocol:
    """The numbers of a §4.1-style protocol: what a scale profile is allowed to change.

    Attributes:
        runs: number of complete k-fold cross-validations (thesis: 10).
        folds: k (thesis: 10).
        points: learning-curve points (thesis: 1 … 100 % of the training fold).
        seed: the experiment seed every random stream is derived from.
        point_unit: what a point means: ``percent`` of the training fold (§4.1, the
            default) or a number of ``examples`` (Table 4.7 trains on 10 … 30 examples).
            Not a profile key: a profile changes how much is run, never what a point means.
    """

    runs: int
    folds: int
    points: tuple[float | int, ...]
    seed: int
    datasets: tuple[str, ...] = field(default_factory=tuple)
    point_unit: str = "percent"

    def __post_init__(self) -> None:
        if self.runs < 1:
            raise ValueError(f"runs must be >= 1, got {self.runs}")
        if self.folds < 2:
            raise ValueError(f"folds must be >= 2, got {self.folds}")
        if self.point_unit not in POINT_UNITS:
            raise ValueError(f"point_unit must be one of {POINT_UNITS}, got {self.point_unit!r}")
        object.__setattr__(self, "points", tuple(self.points))
        object.__setattr__(self, "datasets", tuple(self.datasets))

    @classmethod
    def from_experiment(
        cls, experiment: Mapping[str, Any], scale: str = "thesis", points_key: str | None = "points"
    ) -> Protocol:
        """Build the protocol of an experiment mapping (its YAML) under a scale profile.

        ``scale="thesis"`` uses the top-level numbers; any other name overlays the matching
        entry of ``profiles:`` (which may only change protocol numbers and datasets).
        ``points_key`` names the kind's list of points (``points``; ``levels`` for the noise
        kind, whose points are noise %; None for a kind without points).
        ``point_unit`` (default ``percent``) is read from the top level only.
        """
        keys = ["runs", "folds", "seed", "datasets"] + ([points_key] if points_key else [])
        base = {k: experiment[k] for k in keys}
        if scale != "thesis":
            profiles = experiment.get("profiles") or {}
            if scale not in profiles:
                raise KeyError(
                    f"experiment {experiment.get('name')!r} has no profile {scale!r}; "
                    f"available: ['thesis', {', '.join(repr(p) for p in profiles)}]"
                )
            base.update(profiles[scale] or {})
        return cls(
            runs=int(base["runs"]),
            folds=int(base["folds"]),
            points=tuple(base[points_key]) if points_key else (),
            seed=int(base["seed"]),
            datasets=tuple(base["datasets"]),
            point_unit=str(experiment.get("point_unit", "percent")),
        )


def _point_key(point: float | int) -> str:
    """Canonical text of a percentage for seeding (``5``, ``5.0`` → "5"; ``2.5`` → "5/2")."""
    return str(exact_fraction(point))


def _point_value(point: float | int) -> float | int:
    """Integral percentages are stored as ints so tables print ``5`` rather than ``5.0``."""
    exact = exact_fraction(point)
    return int(exact) if exact.denominator == 1 else float(exact)


def learner_seed(
    seed: int, dataset: str, run: int, fold: int, algorithm: str, point: float | int
) -> int:
    """The ``random_state`` of the learner at one (dataset, run, fold, algorithm, point)."""
    return derive_seed(seed, "learner", dataset, run, fold, algorithm, _point_key(point))


POOL_STRATEGIES: frozenset[str] = frozenset({"unlabeled", "sampled"})
"""DECORATE ``artificial=`` strategies that draw from an example pool ``U`` (§4.6.1)."""


METRICS: tuple[str, ...] = ("accuracy", "diversity", "member_error")
"""Record metrics a passive job can compute (``metrics:`` of an experiment file).

``accuracy`` (%), ``diversity`` (Eq. 3.2 on the test fold, a fraction) and ``member_error``
(the members' mean test error in %, so that ``member_error - (100 - accuracy)`` is §4.4's
ensemble error reduction in percentage points).
"""


def wants_pool(params: Mapping[str, Any]) -> bool:
    """Whether a learner's parameters ask for the unlabeled pool of §4.6.1.

    DECORATE (Unlabeled) samples its diversity data from ``U`` and DECORATE (Sampled
    Artificial) sizes its fixed artificial pool as ``|U|`` (spec §1.5.2), so both are
    fitted with ``fit(X, y, pool=U)``.
    """
    return isinstance(params.get("artificial"), str) and params["artificial"] in POOL_STRATEGIES


def _default_factory() -> LearnerFactory:
    """Import the learner registry lazily: the protocol is testable without the learners."""
    from redecorate.learners.registry import make_learner

    return make_learner


def _ensemble_size(estimator: Any) -> int:
    """Members of the fitted model as the learner reports it (``ensemble_size_``).

    DECORATE may stop short of its desired size and AdaBoost.M1 may stop after one member,
    so the record keeps the size actually fitted; a foreign single classifier counts 1.
    """
    return int(getattr(estimator, "ensemble_size_", 1))


def _stderr(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def run_folds(
    dataset: _DatasetLike, n_folds: int, *, run: int, seed: int
) -> list[tuple[np.ndarray, np.ndarray]]:
    """The folds of ``run``: depend only on (experiment seed, dataset, run), never the algorithm."""
    return stratified_folds(dataset.y, n_folds, seed_sequence(seed, "folds", dataset.name, run))


def run_job(
    dataset: _DatasetLike,
    *,
    experiment: str,
    algorithm: str,
    params: Mapping[str, Any],
    run: int,
    n_folds: int,
    points: Sequence[float | int],
    seed: int,
    progress: Callable[[str], None] | None = None,
    learner_factory: LearnerFactory | None = None,
    learner: str | None = None,
    fold_transform: FoldTransform | None = None,
    metrics: Sequence[str] = ("accuracy",),
    point_unit: str = "percent",
) -> pd.DataFrame:
    """Run every fold and learning-curve point of one run and return its records.

    Args:
        dataset: a :class:`redecorate.data.Dataset` (``name``, ``X``, ``y``).
        experiment: experiment name written into the records.
        algorithm: learner registry name (``j48``, ``decorate``, ...).
        params: learner parameters from the experiment file.
        run: run number (0-based); selects the folds.
        n_folds: k of k-fold cross-validation.
        points: learning-curve points of each training fold: percentages, or numbers of
            examples with ``point_unit="examples"``.
        seed: experiment seed.
        progress: called with one line per finished fold; default prints to stderr
            (which the workflow scripts redirect to the job's log file).
        learner_factory: ``(algorithm, params, random_state) -> estimator``; defaults to
            :func:`redecorate.learners.registry.make_learner`. Tests inject cheap stand-ins.
        learner: registry name given to the factory when ``algorithm`` is a label of a
            variant (``decorate_norej`` → ``decorate``); default ``algorithm`` itself. The
            records and the learner seeds use ``algorithm``.
        fold_transform: when given, every ``point`` trains on the *whole* training fold
            (no learning curve; ``points`` may then include 0) and the hook transforms the
            (train, test) data of each (fold, point) before fitting and scoring. Used by
            the noise kind, where ``points`` are noise levels (:mod:`.noise`).

        metrics: record metrics; ``accuracy`` (always first) and optionally ``diversity``:
            Eq. 3.2 of the fitted ensemble on the test fold, a fraction in [0, 1] (§4.4;
            :func:`redecorate.learners.diversity.fitted_ensemble_diversity`), and
            ``member_error``: the mean test-fold error of the members, each alone, in %
            (:func:`redecorate.learners.diversity.fitted_member_error`; a single
            classifier's is its own error), for §4.4's ensemble error reduction.
        point_unit: ``percent`` (default: a point is a % of the training fold) or
            ``examples`` (a point is a number of examples, the same nested prefixes; a
            point larger than a training fold raises :class:`JobError`, see
            :func:`redecorate.protocol.curve.example_size`). Ignored with
            ``fold_transform``, where every point trains on the whole fold.

    The unlabeled pool (§4.6.1): in each fold all training-fold examples start unlabeled;
    the curve prefix of the point is labelled and the *rest of the training fold* is ``U``.
    Learners whose parameters select a pool strategy (:func:`wants_pool`) are fitted with
    ``fit(X, y, pool=U)``; at 100 % ``U`` is empty, so such experiments stop their curves
    below 100 % as the dissertation's do (at 50 %).

    Returns:
        One row per (fold, point) with metric ``accuracy`` (value in %), the wall time of
        ``fit`` and the number of members of the fitted model (1 for a single model).

    Raises:
        JobError: a learner raised; the original exception is chained and the message says
            where (dataset, algorithm, run, fold, point, n_train). Learners are designed to
            return a model for any non-empty training set, so this is a real bug, and hiding
            it (e.g. recording NaN) would silently bias the averages.
    """
    factory = learner_factory if learner_factory is not None else _default_factory()
    learner_name = learner if learner is not None else algorithm
    use_pool = wants_pool(params)
    unknown_metrics = sorted(set(metrics) - set(METRICS))
    if unknown_metrics or "accuracy" not in metrics:
        raise ValueError(f"metrics must include 'accuracy' and be among {METRICS}; got {list(metrics)}")
    want_diversity = "diversity" in metrics
    want_member_error = "member_error" in metrics
    if want_diversity or want_member_error:
        from redecorate.learners.diversity import fitted_ensemble_diversity, fitted_member_error
    if point_unit not in POINT_UNITS:
        raise ValueError(f"point_unit must be one of {POINT_UNITS}, got {point_unit!r}")
    unit_text = "%" if point_unit == "percent" else " examples"
    report = progress if progress is not None else _stderr
    y_all = dataset.y
    categories = (
        set(y_all.cat.categories) if isinstance(y_all.dtype, pd.CategoricalDtype) else None
    )
    if getattr(dataset, "weights", None) is not None:
        # None of the thesis datasets carries ARFF instance weights; say so rather than
        # silently treating a weighted dataset as unweighted.
        report(f"[{experiment}] {dataset.name}: instance weights are ignored by run_job")
    folds = run_folds(dataset, n_folds, run=run, seed=seed)
    # Fast path: the project's learners fit rows of the dataset encoded once per job
    # (EncodedClassifier.fit_prepared: the same model as fit() on the subset frame). Corrupted
    # folds (fold_transform), pool-based variants and foreign estimators use the public API.
    fast_possible = (fold_transform is None and not use_pool and categories is not None
                     and isinstance(dataset.X, pd.DataFrame)
                     and not y_all.isna().any())  # fmt: skip
    prepared: tuple[Any, ...] | None = None
    rows: list[tuple[Any, ...]] = []
    started = time.perf_counter()
    for fold, (train_idx, test_idx) in enumerate(folds):
        order = training_order(train_idx, seed_sequence(seed, "order", dataset.name, run, fold))
        if fold_transform is None:
            try:
                sizes = curve_sizes(len(order), points, point_unit)
            except ValueError as exc:  # e.g. 30 examples asked of a 27-example fold
                where = f"dataset={dataset.name!r} algorithm={algorithm!r} run={run} fold={fold}"
                raise JobError(f"{where}: {exc}") from exc
        else:
            sizes = [len(order)] * len(points)
        X_test = dataset.X.iloc[test_idx]
        y_test = y_all.iloc[test_idx].to_numpy(dtype=object)
        for point, n_train in zip(points, sizes, strict=True):
            subset = order[:n_train]
            where = (
                f"dataset={dataset.name!r} algorithm={algorithm!r} run={run} "
                f"fold={fold} point={point}{unit_text} n_train={n_train}"
            )
            random_state = learner_seed(seed, dataset.name, run, fold, algorithm, point)
            X_eval, y_eval = X_test, y_test
            try:
                estimator = factory(learner_name, params, random_state)
                fast = fast_possible and hasattr(estimator, "fit_prepared")
                if fast and prepared is None:
                    prepared = _prepared(dataset)
                if not fast:
                    X_fit, y_fit = dataset.X.iloc[subset], y_all.iloc[subset]
                if fold_transform is not None:
                    X_fit, y_fit, X_eval, y_eval_series = fold_transform(
                        fold, point, X_fit, y_fit, X_test, y_all.iloc[test_idx]
                    )
                    y_eval = y_eval_series.to_numpy(dtype=object)
                tic = time.perf_counter()
                if fast:
                    Xe, ye, classes, schema, columns = prepared
                    estimator.fit_prepared(Xe[subset], ye[subset], classes=classes, schema=schema,
                                           columns=columns)  # fmt: skip
                elif use_pool:
                    estimator.fit(X_fit, y_fit, pool=dataset.X.iloc[order[n_train:]])
                else:
                    estimator.fit(X_fit, y_fit)
                fit_seconds = time.perf_counter() - tic
                if fast:
                    predicted = np.asarray(estimator.predict_prepared(prepared[0][test_idx]),
                                           dtype=object)
                else:
                    predicted = np.asarray(estimator.predict(X_eval), dtype=object)
                if want_diversity:
                    diversity = fitted_ensemble_diversity(estimator, X_eval)
                if want_member_error:
                    member_error = 100.0 * fitted_member_error(estimator, X_eval, y_eval)
            except Exception as exc:  # re-raised with context, never swallowed
                raise JobError(f"learner failed at {where}: {type(exc).__name__}: {exc}") from exc
            if categories is not None and not set(predicted.tolist()) <= categories:
                unknown = sorted(map(str, set(predicted.tolist()) - categories))[:5]
                raise JobError(
                    f"learner predicted values outside the class domain at {where}: {unknown}"
                )
            correct = int(np.count_nonzero(predicted == y_eval))
            size = _ensemble_size(estimator)
            rows.append(
                (
                    experiment,
                    dataset.name,
                    algorithm,
                    int(run),
                    fold,
                    _point_value(point),
                    int(n_train),
                    "accuracy",
                    100.0 * correct / len(y_eval),
                    fit_seconds,
                    size,
                )
            )
            first = rows[-1][:7]
            if want_diversity:
                rows.append((*first, "diversity", diversity, fit_seconds, size))
            if want_member_error:
                rows.append((*first, "member_error", member_error, fit_seconds, size))
        report(
            f"[{experiment}] {dataset.name} {algorithm} run {run} fold {fold + 1}/{n_folds} "
            f"done, elapsed {time.perf_counter() - started:.1f}s"
        )
    return _as_frame(rows, points)


def _prepared(dataset: _DatasetLike) -> tuple[Any, ...]:
    """The dataset encoded once: (matrix, class codes, class list, schema, column template)."""
    from redecorate.learners.features import FeatureSchema

    schema = FeatureSchema.from_input(dataset.X)
    codes = pd.Categorical(dataset.y).codes.astype(np.int64)
    return schema.encode(dataset.X), codes, np.asarray(dataset.y.cat.categories), schema, dataset.X.iloc[:0]


def _as_frame(rows: list[tuple[Any, ...]], points: Sequence[float | int]) -> pd.DataFrame:
    """Fix the column dtypes so every job's parquet has the same schema."""
    frame = pd.DataFrame.from_records(rows, columns=list(RECORD_COLUMNS))
    integral = all(exact_fraction(p).denominator == 1 for p in points)
    dtypes = {
        "experiment": object,
        "dataset": object,
        "algorithm": object,
        "run": np.int64,
        "fold": np.int64,
        "point": np.int64 if integral else np.float64,
        "n_train": np.int64,
        "metric": object,
        "value": np.float64,
        "fit_seconds": np.float64,
        "ensemble_size": np.int64,
    }
    return frame.astype(dtypes)

