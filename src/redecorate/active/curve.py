"""One fold of the chapter-6 protocol: an active-learning curve (§6.3.1, spec E6.3).

"In each fold of cross-validation ... the set of available training examples was treated
as an unlabeled pool of examples, and at each iteration the active learner selected a
sample of points to be labeled and added to the training set." The curve runs until the
pool is exhausted (or up to a maximum training size, §6.4.2), so at its end every system
has seen the same examples.

Evaluation points. The dissertation evaluates the system's model after every batch: its
target error averages "the points on the learning curve corresponding to the last 50
training examples" (with m = 1, fifty points) and its top-20 % reduction averages "20 % of
points on the learning curve", both of which presuppose one point per iteration. So by
default :func:`active_learning_curve` evaluates at every labeled-set size the loop passes
through: the initial set, then after each batch. ``eval_sizes`` restricts evaluation to
some of those sizes (the committee is still refitted every iteration, since every query
needs it; only predictors and test-set predictions are saved).

Initial labeled set. Not stated in the dissertation; the spec (Part 8 D.20) recommends
``m`` random examples, the same for every system within a fold. :func:`initial_labeled_set`
draws them uniformly without replacement (not stratified) from a stream that depends only
on the fold's seed, and the default size is the batch size ``m``.
"""

from __future__ import annotations

import copy
import numbers
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from redecorate.active.loop import ActiveLearner
from redecorate.active.systems import make_system
from redecorate.protocol.seeds import key_words
from redecorate.stats.probability import area_under_lift_chart, multiclass_mse

__all__ = ["CURVE_METRICS", "active_learning_curve", "curve_seed", "geometric_sizes",
           "initial_labeled_set", "labeled_set_sizes"]

CURVE_METRICS: tuple[str, ...] = ("accuracy", "mse", "aulc", "aulc_fold")
"""What a curve point can record: test accuracy (%), MSE and AULC (§7.3.1). AULC weights
each class's area "by the prior class probability of k according to the training set":
``aulc`` reads the training set as the labeled set at that point (so an active learner that
buys more of a rare class also weights that class more), ``aulc_fold`` as the whole training
fold (the same weights for every system of a fold)."""


def curve_seed(seed: np.random.SeedSequence, *keys: str | int) -> np.random.SeedSequence:
    """The child stream of ``seed`` named by ``keys`` (stable digests, not call order)."""
    if not isinstance(seed, np.random.SeedSequence):
        raise TypeError(f"seed must be a numpy.random.SeedSequence, got {type(seed).__name__}")
    words = [w for key in keys for w in key_words(key)]
    return np.random.SeedSequence(seed.entropy, spawn_key=(*seed.spawn_key, *words),
                                  pool_size=seed.pool_size)


def _positive_int(value: object, name: str) -> int:
    if not isinstance(value, numbers.Integral) or isinstance(value, bool) or value < 1:
        raise ValueError(f"{name} must be a positive integer, got {value!r}")
    return int(value)


def initial_labeled_set(n_pool: int, size: int, seed: np.random.SeedSequence) -> np.ndarray:
    """Pool positions of the initial labeled set: ``size`` uniform random examples.

    Depends only on ``(n_pool, size, seed)``, so every system of a fold starts from the
    same examples when given the fold's seed.
    """
    n_pool = _positive_int(n_pool, "n_pool")
    size = _positive_int(size, "initial_size")
    if size > n_pool:
        raise ValueError(f"initial_size {size} exceeds the pool of {n_pool} examples")
    rng = np.random.default_rng(curve_seed(seed, "initial"))
    return rng.choice(n_pool, size=size, replace=False).astype(np.int64)


def labeled_set_sizes(n_pool: int, batch_size: int, initial_size: int,
                      max_labeled: int | None = None) -> list[int]:
    """Every labeled-set size the loop passes through: initial, +m, +2m, … up to the end.

    The end is the pool size, or ``max_labeled`` if smaller; the last batch is shortened
    to land on it exactly.
    """
    n_pool = _positive_int(n_pool, "n_pool")
    m = _positive_int(batch_size, "batch_size")
    start = _positive_int(initial_size, "initial_size")
    end = n_pool if max_labeled is None else min(n_pool, _positive_int(max_labeled, "max_labeled"))
    if start > end:
        raise ValueError(f"initial_size {start} exceeds the end of the curve ({end} examples)")
    sizes = list(range(start, end + 1, m))
    if sizes[-1] != end:
        sizes.append(end)
    return sizes


def geometric_sizes(n_pool: int, initial: int, batches: int) -> list[int]:
    """``batches`` acquisition batches growing geometrically from ``initial`` to the pool.

    Chapter 7 makes 33 batches "growing in size along the curve" but prints neither the
    schedule nor the initial set (spec E7); this reading takes sizes s_i = initial ·
    (n_pool / initial)^(i / batches), rounded, made strictly increasing, with s_0 = initial
    and s_batches = n_pool: every batch at least one example, the last ones the largest.
    """
    n_pool = _positive_int(n_pool, "n_pool")
    initial = _positive_int(initial, "initial")
    batches = _positive_int(batches, "batches")
    if initial >= n_pool:
        return [n_pool]
    ratio = (n_pool / initial) ** (1.0 / batches)
    sizes = [initial]
    for i in range(1, batches + 1):
        target = round(initial * ratio**i)
        remaining = batches - i
        # at least one more than the last, and room left for the remaining batches
        sizes.append(min(max(target, sizes[-1] + 1), n_pool - remaining))
    sizes[-1] = n_pool
    return sizes


SCHEDULE_GROWTHS: tuple[str, ...] = ("geometric", "linear", "equal")
"""How chapter 7's batches grow (``schedule.growth``): geometrically (the reading adopted),
linearly, or not at all; the text says only "33 batches … incrementally selected larger
batches" (§7.3), which equal batches contradict; they are an ablation."""


def schedule_sizes(n_pool: int, initial: int, batches: int, growth: str = "geometric") -> list[int]:
    """The labeled-set sizes of ``batches`` batches from ``initial`` examples to the pool.

    ``geometric``: :func:`geometric_sizes`. ``linear``: batch i holds about i·a examples, so
    s_i = initial + (n_pool − initial) · i(i + 1) / (B(B + 1)). ``equal``: s_i = initial +
    (n_pool − initial) · i / B. Sizes are rounded and made strictly increasing, the last is
    the pool, as for the geometric schedule.
    """
    if growth == "geometric":
        return geometric_sizes(n_pool, initial, batches)
    if growth not in SCHEDULE_GROWTHS:
        raise ValueError(f"schedule growth {growth!r} is not one of {', '.join(SCHEDULE_GROWTHS)}")
    n_pool = _positive_int(n_pool, "n_pool")
    initial = _positive_int(initial, "initial")
    batches = _positive_int(batches, "batches")
    if initial >= n_pool:
        return [n_pool]
    span = n_pool - initial
    sizes = [initial]
    for i in range(1, batches + 1):
        share = i * (i + 1) / (batches * (batches + 1)) if growth == "linear" else i / batches
        remaining = batches - i
        sizes.append(min(max(initial + round(span * share), sizes[-1] + 1), n_pool - remaining))
    sizes[-1] = n_pool
    return sizes


def _label_codes(y, classes: np.ndarray) -> np.ndarray:
    lookup = {v: i for i, v in enumerate(classes.tolist())}
    return np.array([lookup.get(v, -1) for v in np.asarray(y, dtype=object).tolist()],
                    dtype=np.int64)


def _curve_learner(system: str | ActiveLearner, params: Mapping[str, Any] | None,
                   batch_size: int, seed: np.random.SeedSequence) -> ActiveLearner:
    """The fold's learner, on the fold's ``"learner"`` stream: a copy of a given learner (so
    the caller's stays unfitted) or the named system built with ``params``."""
    if isinstance(system, ActiveLearner):
        if params is not None:
            raise ValueError("params apply to a system name; configure the ActiveLearner itself")
        learner = copy.copy(system)
        learner.batch_size = _positive_int(batch_size, "batch_size")
        learner.random_state = curve_seed(seed, "learner")
        return learner
    if isinstance(system, str):
        return make_system(system, params, batch_size=batch_size,
                           random_state=curve_seed(seed, "learner"))
    raise TypeError(f"system must be a system name or an ActiveLearner, got {system!r}")


def _check_fold(X_pool, y_pool, X_test, y_test, metrics: Sequence[str]) -> int:
    """The pool's size, once the pool and test fold are known to be usable and the metrics
    to be ones a curve point can record (a bad argument fails before any fitting)."""
    n_pool = len(y_pool)
    if len(X_pool) != n_pool:
        raise ValueError(f"X_pool has {len(X_pool)} rows but y_pool {n_pool} labels")
    if len(X_test) != len(y_test) or len(y_test) == 0:
        raise ValueError(f"X_test ({len(X_test)} rows) and y_test ({len(y_test)} labels) must "
                         "match and be non-empty")
    unknown = sorted(set(metrics) - set(CURVE_METRICS))
    if unknown or not metrics:
        raise ValueError(f"metrics must be among {CURVE_METRICS}, got {list(metrics)}")
    return n_pool


def _curve_schedule(n_pool: int, batch_size: int, initial_size: int | None,
                    max_labeled: int | None, eval_sizes: Sequence[int] | None,
                    sizes: Sequence[int] | None) -> tuple[list[int], int, set[int]]:
    """The labeled-set sizes the loop passes through, the initial set's size and the sizes
    to evaluate at: the loop's schedule is fixed before it starts, so a bad one fails early."""
    if sizes is None:
        start = batch_size if initial_size is None else initial_size
        sizes = labeled_set_sizes(n_pool, batch_size, start, max_labeled)
    else:
        sizes = [int(s) for s in sizes]
        if not sizes or sizes[0] < 1 or sizes[-1] > n_pool or any(
            b <= a for a, b in zip(sizes, sizes[1:], strict=False)
        ):
            raise ValueError(f"sizes must increase from >= 1 to at most the pool ({n_pool}), "
                             f"got {sizes[:3]} ... {sizes[-3:]}")
        start = sizes[0]
    if eval_sizes is None:
        return sizes, start, set(sizes)
    wanted = {int(s) for s in eval_sizes}
    off = sorted(wanted - set(sizes))
    if off:
        raise ValueError(
            f"eval_sizes {off} are not labeled-set sizes of this curve (initial "
            f"{start}, batches of {batch_size}, end {sizes[-1]}): choose among "
            f"{sizes[:5]} ... {sizes[-3:]}"
        )
    return sizes, start, wanted


def _fit_initial_set(learner: ActiveLearner, X_pool, y_pool, y_test, oracle: np.ndarray,
                     start: int, seed: np.random.SeedSequence) -> None:
    """Fit ``learner`` on the fold's random initial labeled set (the rest of the pool
    unlabeled), with every class of the dataset declared, so all systems share the class
    list and the examples they start from."""
    n_pool = len(oracle)
    initial = initial_labeled_set(n_pool, start, seed)
    partial = np.full(n_pool, None, dtype=object)
    partial[initial] = oracle[initial]
    if isinstance(y_pool, pd.Series) and isinstance(y_pool.dtype, pd.CategoricalDtype):
        classes = np.asarray(y_pool.cat.categories)
    else:  # the class list a dataset header would declare
        classes = np.asarray(sorted(set(oracle.tolist()) | set(np.asarray(y_test, dtype=object).tolist())))
    learner.fit(X_pool, partial, classes=classes)


def _point_values(learner: ActiveLearner, X_eval, truth: np.ndarray, oracle_codes: np.ndarray,
                  metrics: Sequence[str]) -> dict[str, float]:
    """One curve point: the current predictor's test-fold accuracy (always) and the other
    requested :data:`CURVE_METRICS`, with AULC's priors from the labeled set or the fold
    (``oracle_codes``: the pool's class codes, made once per fold)."""
    proba = learner.predict_proba_encoded(X_eval)
    values = {"accuracy": 100.0 * float(np.mean(np.argmax(proba, axis=1) == truth))}
    if "mse" in metrics:
        values["mse"] = multiclass_mse(proba, truth)
    if "aulc" in metrics:
        labeled = oracle_codes[learner.labeled_indices_]
        priors = np.bincount(labeled, minlength=len(learner.classes_)) / len(labeled)
        values["aulc"] = area_under_lift_chart(proba, truth, priors)
    if "aulc_fold" in metrics:
        fold = oracle_codes
        values["aulc_fold"] = area_under_lift_chart(
            proba, truth, np.bincount(fold, minlength=len(learner.classes_)) / len(fold))
    return values


def _fit_seconds(learner: ActiveLearner) -> dict[int, float]:
    """Seconds spent fitting per labeled-set size (a size's fits may be several log
    entries: the committee and a separate predictor), from the learner's fit log."""
    seconds: dict[int, float] = {}
    for entry in learner.fit_log_:
        seconds[entry["n_labeled"]] = seconds.get(entry["n_labeled"], 0.0) + entry["seconds"]
    return seconds


def active_learning_curve(X_pool, y_pool, X_test, y_test, system: str | ActiveLearner,
                          params: Mapping[str, Any] | None = None, *, batch_size: int = 1,
                          initial_size: int | None = None, max_labeled: int | None = None,
                          eval_sizes: Sequence[int] | None = None,
                          sizes: Sequence[int] | None = None,
                          metrics: Sequence[str] = ("accuracy",),
                          seed: np.random.SeedSequence) -> list[dict]:
    """Run one fold's active-learning curve and return one row per evaluated point.

    Parameters
    ----------
    X_pool, y_pool:
        The training fold (the unlabeled pool and its oracle labels), as in
        :class:`redecorate.data.Dataset` (DataFrame with Categorical nominal columns,
        Categorical class Series); plain arrays work too.
    X_test, y_test:
        The test fold.
    system, params:
        A name of :data:`redecorate.active.systems.SYSTEMS` and its parameters, or an
        unfitted :class:`ActiveLearner` (then ``params`` must be None).
    batch_size:
        ``m``, examples labeled per iteration.
    initial_size:
        Size of the random initial labeled set; default ``batch_size``.
    max_labeled:
        Stop at this many labeled examples (Table 6.4's "maximum train size"); default the
        whole pool.
    eval_sizes:
        Labeled-set sizes to evaluate at; default every size (see the module docstring).
        Each must be one the loop passes through (:func:`labeled_set_sizes`).
    sizes:
        Explicit labeled-set sizes, increasing (chapter 7's schedule of 33 growing batches):
        the curve starts at ``sizes[0]`` (the initial set) and each iteration labels up to the
        next size; ``batch_size``, ``initial_size`` and ``max_labeled`` are then unused.
    metrics:
        What each point records besides ``n_labeled``: ``accuracy`` (% of the test fold),
        ``mse`` (multi-class Brier score) and ``aulc`` (area under the lift chart with the
        labeled set's class frequencies as priors), spec M10.
    seed:
        The fold's :class:`numpy.random.SeedSequence`, the same for every system of the
        fold. The initial set comes from its child ``"initial"``, the learner's streams from
        its child ``"learner"``: every system starts from the same examples, and two
        systems that fit the same ensemble on the same labeled set get the same model
        (common random numbers, see :mod:`redecorate.active.loop`).

    Returns
    -------
    ``[{"n_labeled": int, "accuracy": float (% of the test fold), "fit_seconds": float,
    "ensemble_size": int}, ...]``, in increasing ``n_labeled``. ``fit_seconds`` is the
    wall-clock time spent fitting the models trained on that labeled set (the committee,
    and the predictor when it is a separate model); scoring the pool is not included.
    ``ensemble_size`` counts the predictor's members.
    """
    learner = _curve_learner(system, params, batch_size, seed)
    n_pool = _check_fold(X_pool, y_pool, X_test, y_test, metrics)
    sizes, start, wanted = _curve_schedule(n_pool, batch_size, initial_size, max_labeled,
                                           eval_sizes, sizes)
    oracle = np.asarray(y_pool, dtype=object)
    _fit_initial_set(learner, X_pool, y_pool, y_test, oracle, start, seed)

    X_eval = learner.encode(X_test)
    truth = _label_codes(y_test, learner.classes_)
    # The pool's class codes, for AULC's priors: once per fold, not at every point (mapping
    # thousands of labels through a dict cost 12 % of a nursery unit).
    oracle_codes = _label_codes(oracle, learner.classes_)
    points: list[tuple[int, dict[str, float], int]] = []
    end = sizes[-1]
    steps = iter(sizes[1:])
    while True:
        n = learner.n_labeled_
        if n in wanted:
            points.append((n, _point_values(learner, X_eval, truth, oracle_codes, metrics),
                           learner.ensemble_size_))
        if n >= end:
            break
        batch = learner.query(batch_size=next(steps) - n)
        learner.teach(batch, oracle[batch])

    seconds = _fit_seconds(learner)
    return [{"n_labeled": n, **{m: values[m] for m in metrics}, "fit_seconds": seconds.get(n, 0.0),
             "ensemble_size": int(size)} for n, values, size in points]
