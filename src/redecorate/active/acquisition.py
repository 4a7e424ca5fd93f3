"""Active feature-value acquisition (dissertation chapter 8, Algorithm 7): Error Sampling.

Every training instance has its label, but only some have all their feature values: the
complete set G and the incomplete set I (here: only the known features, 30 % of them, chosen
at random per split). Buying an instance's missing values costs the same for every instance,
so the question is which incomplete instances to complete. Algorithm 7 trains the learner on
*all* of T = G ∪ I (missing values handled natively: C4.5's fractional instances; DECORATE's
artificial-data statistics over the non-missing values), scores every incomplete instance,
completes the m best, and repeats until I is empty.

Error Sampling (§8.2): an incomplete instance the current model misclassifies scores −1 (its
label is known), any other the model's uncertainty, P̂(y₁|x) − P̂(y₂|x); the m lowest scores
are acquired — every misclassified instance before any correctly classified one, at random
among the misclassified, then the least certain. Random sampling acquires m at random.
Uncertainty sampling (the score Error Sampling falls back on, used alone) acquires the m
smallest margins whether or not the instance is misclassified: Error Sampling without its
misclassified-first rule, which isolates what that rule contributes.

Missing values are masked in the encoded matrix (NaN); the known values of an incomplete
instance never change; acquiring reveals exactly the instance's true row.

Two readings the text leaves open are options (the defaults are the reading of ch8_afa):

- ``missing``: ``"fractional"`` hands the hidden values to the learner as missing (C4.5's
  fractional instances: "we assume that the induction algorithm includes some treatment for
  instances with missing values", §8.1.1); ``"impute"`` fills every hidden cell of T with the
  mode (nominal) or mean (numeric) of the values observed in the current T, as Weka's
  ReplaceMissingValues does (§8.3 describes GODA "imputing the values that are missing"), and
  the pool is scored on the imputed rows. Values missing in the data itself stay missing.
- ``known``: ``"per_split"`` — one random set of known features for all incomplete instances
  of a split ("A different set of randomly selected features was used for each train-test
  split", §8.2.1); ``"per_instance"`` — each incomplete instance shows its own random set of
  the same size.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from scipy.special import gammaln

from redecorate.active.scores import probability_margin
from redecorate.learners.base import merge_identical_rows
from redecorate.learners.features import FeatureSchema
from redecorate.learners.params import make_learner

__all__ = [
    "KNOWN_MODES",
    "MISSING_MODES",
    "SCORERS",
    "AcquisitionStart",
    "FeatureAcquisition",
    "acquisition_curve",
    "acquisition_start",
    "error_sampling_scores",
    "expected_distinct_rows",
    "impute_hidden",
    "known_features",
    "known_features_per_instance",
    "select_acquisitions",
]

SCORERS: tuple[str, ...] = ("error_sampling", "uncertainty", "random")
"""How incomplete instances are chosen: Error Sampling (§8.2), its uncertainty score alone, or
uniformly at random."""

MISSING_MODES: tuple[str, ...] = ("fractional", "impute")
"""How the learner sees the hidden values: missing (C4.5's treatment) or imputed (mode/mean)."""

KNOWN_MODES: tuple[str, ...] = ("per_split", "per_instance")
"""Whether the incomplete instances of a split share one set of known features or each draws
its own."""


def error_sampling_scores(proba: np.ndarray, y_codes: np.ndarray) -> np.ndarray:
    """−1 where the model's prediction (first argmax) is wrong, else the probability margin."""
    p = np.asarray(proba, dtype=np.float64)
    wrong = np.argmax(p, axis=1) != np.asarray(y_codes)
    return np.where(wrong, -1.0, probability_margin(p[np.newaxis]))


def _n_known(n_features: int, fraction: float) -> int:
    """round(fraction · F), half up, at least one and at most all features (the dissertation
    says 30 % and does not say how 0.3·F is rounded; spec E8.2 recommends rounding)."""
    if not 0 < fraction <= 1:
        raise ValueError(f"known fraction must be in (0, 1], got {fraction!r}")
    return min(n_features, max(1, math.floor(fraction * n_features + 0.5)))


def known_features(n_features: int, fraction: float, rng: np.random.Generator) -> np.ndarray:
    """A boolean mask of the round(fraction · F) features known in incomplete instances."""
    mask = np.zeros(n_features, dtype=bool)
    mask[rng.choice(n_features, size=_n_known(n_features, fraction), replace=False)] = True
    return mask


def known_features_per_instance(n_instances: int, n_features: int, fraction: float,
                                rng: np.random.Generator) -> np.ndarray:
    """An (n, F) mask: each instance's own random round(fraction · F) known features (the
    ``known: per_instance`` reading; the same number of features as :func:`known_features`)."""
    k = _n_known(n_features, fraction)
    order = np.argsort(rng.random((n_instances, n_features)), axis=1)
    mask = np.zeros((n_instances, n_features), dtype=bool)
    np.put_along_axis(mask, order[:, :k], True, axis=1)
    return mask


def impute_hidden(view: np.ndarray, hidden: np.ndarray, nominal: np.ndarray) -> np.ndarray:
    """``view`` with its ``hidden`` cells filled as Weka's ReplaceMissingValues fills missing
    values: a nominal feature's mode (the lowest code among ties), a numeric one's mean, over
    the values observed in ``view`` (with one set of known features per split: the complete
    instances' values); 0 where a feature has no observed value, as Weka does. A hidden cell is
    filled even where the data itself has no value (leaving it NaN would tell the learner which
    hidden values are truly missing); the other cells are left as they are."""
    out = view.copy()
    for j in np.flatnonzero(hidden.any(axis=0)):
        seen = view[:, j][~np.isnan(view[:, j])]
        if seen.size == 0:
            fill = 0.0
        elif nominal[j]:
            fill = float(np.argmax(np.bincount(seen.astype(np.int64))))
        else:
            fill = float(seen.mean())
        out[hidden[:, j], j] = fill
    return out


class FeatureAcquisition:
    """Algorithm 7's state: the true data, which instances are complete, the masked view.

    ``X`` is the encoded pool (NaN = missing in the data itself), ``known`` the features an
    incomplete instance shows (one flag per feature, or one row of flags per instance),
    ``complete`` the initially complete instances (G).
    """

    def __init__(self, X: np.ndarray, known: np.ndarray, complete: np.ndarray):
        self._X = np.asarray(X, dtype=np.float64)
        self.known = np.asarray(known, dtype=bool)
        if self.known.shape not in ((self._X.shape[1],), self._X.shape):
            raise ValueError(f"known must have one flag per feature ({self._X.shape[1]}) or per "
                             f"cell {self._X.shape}, got {self.known.shape}")  # fmt: skip
        self.complete = np.zeros(self._X.shape[0], dtype=bool)
        self.complete[np.asarray(complete, dtype=np.int64)] = True
        self.acquired: list[int] = []

    @property
    def incomplete(self) -> np.ndarray:
        """Positions of the instances still incomplete (I)."""
        return np.flatnonzero(~self.complete)

    def hidden(self) -> np.ndarray:
        """The (n, F) mask of the values not yet acquired: the unknown features of the
        incomplete instances."""
        return ~self.complete[:, np.newaxis] & ~np.broadcast_to(self.known, self._X.shape)

    def matrix(self) -> np.ndarray:
        """T as the learner sees it: complete rows whole, incomplete rows with only the known
        features (the others NaN: masked; :func:`impute_hidden` fills them if asked)."""
        view = self._X.copy()
        view[self.hidden()] = np.nan
        return view

    def acquire(self, positions: Sequence[int]) -> None:
        """Complete these incomplete instances (an instance is completed at most once)."""
        positions = np.asarray(positions, dtype=np.int64)
        if len(set(positions.tolist())) != len(positions) or self.complete[positions].any():
            raise ValueError(f"instances {positions.tolist()} are not all distinct incomplete instances")
        self.complete[positions] = True
        self.acquired += positions.tolist()


def select_acquisitions(scorer: str, proba: np.ndarray | None, y_codes: np.ndarray,
                        candidates: np.ndarray, m: int, rng: np.random.Generator) -> np.ndarray:
    """The m incomplete instances to complete: the lowest Error Sampling scores, or the
    smallest margins (uncertainty), ties at random; or m at random."""
    m = min(m, len(candidates))
    if scorer == "random":
        return rng.choice(candidates, size=m, replace=False)
    if scorer == "uncertainty":
        scores = probability_margin(np.asarray(proba, dtype=np.float64)[np.newaxis])
    else:
        scores = error_sampling_scores(proba, y_codes[candidates])
    # Lowest first; ties (every misclassified instance scores -1) broken at random.
    order = np.lexsort((rng.random(len(candidates)), scores))
    return candidates[order[:m]]


@dataclass(frozen=True)
class AcquisitionStart:
    """The state a fold's acquisition curve starts from, and the seeds of what follows.

    Attributes:
        schema: the pool's feature schema; ``X`` the encoded pool, ``y`` its class codes,
            ``classes`` the labels in code order.
        state: :class:`FeatureAcquisition` with the known features and the initial G.
        choices: seeds the acquisitions' random draws; ``learners`` each iteration's learner.
    """

    schema: Any
    X: np.ndarray
    y: np.ndarray
    classes: np.ndarray
    state: FeatureAcquisition
    choices: np.random.SeedSequence
    learners: np.random.SeedSequence


def acquisition_start(X_pool: pd.DataFrame, y_pool: pd.Series, *, seed: np.random.SeedSequence,
                      batch_size: int, known_fraction: float, known: str = "per_split",
                      initial_size: int | None = None) -> AcquisitionStart:
    """What :func:`acquisition_curve` starts from: the known features and initial G drawn
    from ``seed`` (the fold's), before any learner runs.

    Why apart: what a fold costs depends on it (how many masked rows coincide, so that the
    learner sees fewer distinct rows), and the planner prices a fold from it without
    fitting anything (:func:`expected_distinct_rows`).
    """
    setup, choices, learners = seed.spawn(3)
    setup_rng = np.random.default_rng(setup)
    schema = FeatureSchema.from_input(X_pool)
    Xe = schema.encode(X_pool)
    classes = np.asarray(y_pool.cat.categories)
    y_codes = pd.Categorical(y_pool).codes.astype(np.int64)
    shown = (known_features(Xe.shape[1], known_fraction, setup_rng) if known == "per_split" else
             known_features_per_instance(*Xe.shape, known_fraction, setup_rng))  # fmt: skip
    initial = setup_rng.choice(len(y_codes), size=min(initial_size or batch_size, len(y_codes)), replace=False)
    return AcquisitionStart(schema, Xe, y_codes, classes, FeatureAcquisition(Xe, shown, initial), choices, learners)


def expected_distinct_rows(start: AcquisitionStart, batch_size: int) -> np.ndarray:
    """The distinct (row, class) pairs the learner is expected to see at each fit of the curve.

    Complete instances are distinct as the data are; the incomplete ones show only the known
    features, and identical masked rows are merged before a fit (``merge_identical``): with
    one set of known features per split, 1–97 % of hypothyroid's pool is distinct at the
    start. After each batch m more instances are complete; the incomplete rows left are taken
    as a uniform sample of the first ones (exact for random acquisition in expectation; Error
    Sampling's choice is not known before it runs), so a group of g identical masked rows
    survives among k of N with probability 1 − C(N − g, k) / C(N, k).
    """
    state = start.state
    incomplete = state.incomplete
    n_initial = int(state.complete.sum())
    _, sizes, _ = merge_identical_rows(state.matrix()[incomplete], start.y[incomplete])
    total = incomplete.size
    fits = []
    complete = n_initial
    while True:
        left = total - (complete - n_initial)
        if left > 0:
            with np.errstate(invalid="ignore"):
                log_absent = (gammaln(total - sizes + 1) - gammaln(total - sizes - left + 1)
                              - gammaln(total + 1) + gammaln(total - left + 1))
            absent = np.where(total - sizes >= left, np.exp(log_absent), 0.0)
            fits.append(complete + float(np.sum(1.0 - absent)))
        else:
            fits.append(float(complete))
            return np.asarray(fits)
        complete += min(batch_size, left)


def acquisition_curve(
    X_pool: pd.DataFrame, y_pool: pd.Series, X_test: pd.DataFrame, y_test: pd.Series, *,
    learner: str, params: Mapping[str, Any] | None = None, scorer: str = "error_sampling",
    batch_size: int = 10, known_fraction: float = 0.3, seed: np.random.SeedSequence,
    missing: str = "fractional", known: str = "per_split", initial_size: int | None = None,
    progress: Callable[[str], None] | None = None,
) -> list[dict[str, Any]]:
    """One fold of §8.2.1: Algorithm 7 until I is empty, test accuracy after every batch.

    ``seed`` (the fold's, never the scorer's) draws the known features and the initial G of
    ``initial_size`` random instances (``batch_size`` unless told: "a randomly selected subset,
    of size m"), so Error Sampling and random sampling start from the same state; the learner
    of each iteration is seeded by (seed, number of complete instances). ``missing`` and
    ``known`` choose a reading (module docstring). Returns ``[{"n_complete", "accuracy" (%),
    "fit_seconds", "ensemble_size"}]``. ``progress`` hears about every tenth of the pool
    completed: a DECORATE curve on a pool of thousands runs for most of an hour.
    """
    if scorer not in SCORERS:
        raise ValueError(f"unknown acquisition scorer {scorer!r}; valid: {', '.join(SCORERS)}")
    if not isinstance(batch_size, int) or batch_size < 1:
        raise ValueError(f"batch_size must be a positive integer, got {batch_size!r}")
    if missing not in MISSING_MODES or known not in KNOWN_MODES:
        raise ValueError(f"missing must be one of {', '.join(MISSING_MODES)} and known one of "
                         f"{', '.join(KNOWN_MODES)}, got {missing!r}, {known!r}")  # fmt: skip
    if initial_size is not None and (not isinstance(initial_size, int) or initial_size < 1):
        raise ValueError(f"initial_size must be a positive integer, got {initial_size!r}")
    start = acquisition_start(X_pool, y_pool, seed=seed, batch_size=batch_size,
                              known_fraction=known_fraction, known=known, initial_size=initial_size)
    schema, y_codes, classes, state = start.schema, start.y, start.classes, start.state
    Xt = schema.encode(X_test)
    truth = pd.Categorical(y_test, categories=classes).codes
    choices, learners = start.choices, start.learners
    rng = np.random.default_rng(choices)
    columns = X_pool.iloc[:0]
    rows = []
    started, reported = time.perf_counter(), 0
    while True:
        n_complete = int(state.complete.sum())
        model = make_learner(learner, params, np.random.SeedSequence(
            learners.entropy, spawn_key=(*learners.spawn_key, n_complete)))
        view = state.matrix()
        if missing == "impute":
            view = impute_hidden(view, state.hidden(), schema.is_nominal)
        tic = time.perf_counter()
        # Incomplete instances show 30 % of their features: most rows are copies of a few.
        model.fit_prepared(view, y_codes, classes=classes, schema=schema, columns=columns,
                           merge_identical=True)
        seconds = time.perf_counter() - tic
        accuracy = 100.0 * float(np.mean(np.argmax(model.predict_proba_prepared(Xt), axis=1) == truth))
        rows.append({"n_complete": n_complete, "accuracy": accuracy, "fit_seconds": seconds,
                     "ensemble_size": int(model.ensemble_size_)})  # fmt: skip
        if progress is not None and 10 * n_complete >= (reported + 1) * len(y_codes):
            reported = 10 * n_complete // len(y_codes)
            progress(f"{n_complete}/{len(y_codes)} complete, test accuracy {accuracy:.2f} %, "
                     f"elapsed {time.perf_counter() - started:.0f}s")  # fmt: skip
        candidates = state.incomplete
        if candidates.size == 0:
            return rows
        proba = None
        if scorer != "random":
            # A prediction depends on the row alone: predict each distinct masked row once.
            distinct, _, inverse = merge_identical_rows(view[candidates])
            proba = model.predict_proba_prepared(view[candidates[distinct]])[inverse]
        state.acquire(select_acquisitions(scorer, proba, y_codes, candidates, batch_size, rng))
