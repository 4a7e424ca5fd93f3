"""DECORATE (Melville & Mooney; dissertation Algorithm 2, §3.2.1, spec §1.4–1.5).

DECORATE builds a committee one member at a time. Each new candidate is trained on the
training set ``T`` plus *artificial examples* ``R`` drawn from a crude model of the data
distribution and labelled *against* the current committee (inverse labelling), which
forces it to disagree with the committee where the committee is confident. A candidate is
kept only if the committee's training error on ``T`` does not rise (``ε' ≤ ε``), so the
committee stays consistent with the data while becoming diverse.

Fidelity decisions (where the seed is silent, Weka's ``meta.Decorate`` settles it):

* ``trials`` counts **every** iteration (spec note (a)): at most ``max_iterations`` base
  classifiers are built in total, counting ``C_1``; the committee may end smaller than
  ``n_estimators``.
* ``|R| = max(1, floor(artificial_size · |T|))``; artificial examples weigh 1, original
  examples keep their sample weights.
* The ensemble error ``ε`` is the unweighted 0/1 error on ``T`` (Algorithm 2 step 5),
  with ties in the averaged distribution going to the first class; ``rejection_loss="mse"``
  uses the mean over examples of Σ_y (1[y = y_j] − P̂_y(x_j))² instead (§1.5.5).
* Inverse labelling (:func:`inverse_label`): P'_y ∝ 1/P̂_y. The dissertation replaces zero
  probabilities by "a small non-zero value" before inverting; as that value shrinks, the
  zero-probability classes take all the mass and share it equally. We implement exactly
  that limit — if any class has P̂_y = 0 the label is uniform over those classes — which is
  also what Weka does (it gives them weight ``Double.MAX_VALUE / K``) and makes the result
  independent of an arbitrary constant.
* Artificial data (§3.2.1, :class:`GaussianArtificialData`): attributes independent;
  numeric ~ N(mean, sd) with Weka's *weighted* mean and sample variance (divisor Σw − 1,
  0 when Σw ≤ 1), missing values ignored; an attribute with sd 0 or undefined (a single
  value) is generated as its mean, as Weka does — artificial data then never varies where
  ``T`` never did; an attribute missing everywhere is generated as 0 (Weka's
  ``meanOrMode`` of no values). Nominal ~ Laplace-smoothed frequencies
  ``(count+1)/(total+|domain|)`` over the full *declared* domain, with unweighted counts
  (Weka's ``attributeStats``), so values absent from ``T`` still appear. Artificial
  examples have no missing values.
* No minimum training-set size (Weka refuses fewer than ``n_estimators`` examples, spec
  note (d)); with a single class every member has zero error and every candidate is kept.

Randomness: one :class:`numpy.random.SeedSequence` from ``random_state``. Its first child
seeds the data model (only the "sampled" strategy uses it); trial ``t`` gets the next
child, split into a generator for the artificial examples and their labels and a seed for
the base learner (random trees need one). Trial ``t`` is therefore the same whatever
``n_estimators`` or ``max_iterations`` are.

Cost: the committee's summed probabilities on ``T`` are kept up to date, so a trial
evaluates the candidate on ``T`` once; labelling ``R`` still needs every current member
on the fresh ``R``.
"""

from __future__ import annotations

import inspect
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

import numpy as np
from sklearn.utils._param_validation import HasMethods, StrOptions

from redecorate.learners.bagging import MemberFactory, default_base_estimator
from redecorate.learners.base import (
    ENSEMBLE_CONSTRAINTS,
    NON_NEGATIVE,
    POSITIVE_INT,
    EncodedClassifier,
    fit_member,
    member_proba,
)
from redecorate.learners.cost import FitCost
from redecorate.learners.features import FeatureSchema
from redecorate.util import as_seed_sequence

__all__ = [
    "ARTIFICIAL_STRATEGIES",
    "POOL_STRATEGIES",
    "ArtificialData",
    "Decorate",
    "GaussianArtificialData",
    "PoolArtificialData",
    "SampledArtificialData",
    "UniformArtificialData",
    "artificial_examples",
    "ensemble_training_loss",
    "inverse_label",
    "inverse_label_distribution",
    "resolve_artificial",
]


# =========================================================================================
# Inverse labelling (§3.2.1, spec note (c))
# =========================================================================================
def inverse_label_distribution(proba) -> np.ndarray:
    """P'_y(x) = (1/P̂_y(x)) / Σ_y' (1/P̂_y'(x)), row by row.

    ``proba`` may be the committee's averaged *or summed* distribution: the result only
    depends on ratios. A row with any zero probability puts all its mass, uniformly, on
    its zero-probability classes (the limit of the dissertation's "replace zeros by a
    small value"; see the module docstring). Inverses are taken as ``min(P̂)/P̂`` so tiny
    but positive probabilities never overflow.
    """
    P = np.asarray(proba, dtype=np.float64)
    if P.ndim != 2:
        raise ValueError(f"proba must be (n_examples, n_classes), got shape {P.shape}")
    zero = P <= 0.0
    any_zero = zero.any(axis=1, keepdims=True)
    smallest = np.where(zero, np.inf, P).min(axis=1, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        inverse = np.where(zero, 0.0, smallest / np.where(zero, 1.0, P))
    weights = np.where(any_zero, zero.astype(np.float64), inverse)
    return weights / weights.sum(axis=1, keepdims=True)


def inverse_label(proba, rng: np.random.Generator) -> np.ndarray:
    """Sample one class code per row from :func:`inverse_label_distribution`.

    One uniform draw per row through the cumulative distribution (as Weka's
    ``selectIndexProbabilistically``); a class with zero mass can never be drawn, even
    when rounding leaves the cumulative sum a hair below 1.
    """
    dist = inverse_label_distribution(proba)
    n, k = dist.shape
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    cdf = np.cumsum(dist, axis=1)
    u = rng.random(n)
    labels = (cdf <= u[:, None]).sum(axis=1)
    last_with_mass = k - 1 - np.argmax(dist[:, ::-1] > 0.0, axis=1)
    return np.minimum(labels, last_with_mass).astype(np.int64)


# =========================================================================================
# Artificial data (§3.2.1, §4.6)
# =========================================================================================
@runtime_checkable
class ArtificialData(Protocol):
    """How DECORATE draws its artificial examples: any object with this ``generate``.

    ``X`` is the encoded training matrix (nominal codes, NaN missing) described by
    ``schema``; ``generate`` returns an encoded ``(n, n_features)`` float matrix. ``pool``
    is the encoded example pool given to :meth:`Decorate.fit` (DECORATE (Unlabeled)),
    ``None`` otherwise. Only the keywords a strategy's ``generate`` declares are passed,
    so the bare ``generate(X, schema, n, rng)`` is enough. A strategy may also define
    ``prepare(X, schema, rng, *, sample_weight=None, pool=None)`` returning the object
    whose ``generate`` is used for every trial of one fit: the built-in ones estimate their
    statistics there once, and "sampled" builds its fixed pool there.
    """

    def generate(self, X: np.ndarray, schema: FeatureSchema, n: int, rng: np.random.Generator,
                 *, sample_weight: np.ndarray | None = None,
                 pool: np.ndarray | None = None) -> np.ndarray: ...


@dataclass(frozen=True)
class _IndependentAttributes:
    """A fitted product distribution: one independent marginal per attribute."""

    n_features: int
    numeric: np.ndarray  # column indices
    loc: np.ndarray  # gaussian: mean; uniform: low
    scale: np.ndarray  # gaussian: sd; uniform: high - low
    gaussian: bool
    nominal: tuple[tuple[int, np.ndarray | None], ...]  # (column, cdf over the domain)

    def generate(self, X=None, schema=None, n: int = 1, rng: np.random.Generator | None = None,
                 *, sample_weight=None, pool=None) -> np.ndarray:
        if rng is None:
            raise ValueError("generate needs a numpy Generator")
        out = np.empty((n, self.n_features), dtype=np.float64)
        if self.numeric.size:
            noise = (rng.standard_normal((n, self.numeric.size)) if self.gaussian
                     else rng.random((n, self.numeric.size)))
            out[:, self.numeric] = self.loc + self.scale * noise
        for j, cdf in self.nominal:
            if cdf is None:  # a nominal attribute with an empty declared domain
                out[:, j] = np.nan
            else:
                out[:, j] = np.minimum(np.searchsorted(cdf, rng.random(n), side="right"),
                                       cdf.size - 1)
        return out


def _nominal_cdfs(X: np.ndarray, schema: FeatureSchema, laplace: bool):
    cdfs = []
    for j in np.flatnonzero(schema.is_nominal):
        d = len(schema.categories[j])
        if d == 0:
            cdfs.append((int(j), None))
            continue
        if laplace:
            col = X[:, j]
            codes = col[~np.isnan(col)].astype(np.int64)
            counts = np.bincount(codes[(codes >= 0) & (codes < d)], minlength=d).astype(np.float64)
            p = (counts + 1.0) / (counts.sum() + d)
        else:
            p = np.full(d, 1.0 / d)
        cdf = np.cumsum(p)
        cdf[-1] = 1.0
        cdfs.append((int(j), cdf))
    return tuple(cdfs)


@dataclass(frozen=True)
class GaussianArtificialData:
    """DECORATE's default data model (§3.2.1): independent Gaussian / Laplace marginals.

    See the module docstring for the exact statistics (Weka's weighted mean and sample
    variance for numeric attributes, unweighted Laplace-smoothed counts over the declared
    domain for nominal ones, sd 0 → the mean).
    """

    def prepare(self, X, schema: FeatureSchema, rng=None, *, sample_weight=None,
                pool=None) -> _IndependentAttributes:
        numeric = np.flatnonzero(~schema.is_nominal)
        w = np.ones(X.shape[0]) if sample_weight is None else np.asarray(sample_weight, float)
        Xn = X[:, numeric]
        ok = ~np.isnan(Xn)
        W = np.where(ok, w[:, None], 0.0)
        sw = W.sum(axis=0)
        with np.errstate(invalid="ignore", divide="ignore"):
            mean = np.where(sw > 0, (W * np.where(ok, Xn, 0.0)).sum(axis=0) / sw, 0.0)
            dev = np.where(ok, Xn - mean, 0.0)
            var = np.where(sw > 1, (W * dev * dev).sum(axis=0) / (sw - 1.0), 0.0)
        sd = np.sqrt(np.maximum(np.nan_to_num(var), 0.0))
        return _IndependentAttributes(schema.n_features, numeric, np.nan_to_num(mean), sd,
                                      True, _nominal_cdfs(X, schema, laplace=True))

    def generate(self, X, schema, n, rng, *, sample_weight=None, pool=None) -> np.ndarray:
        return self.prepare(X, schema, sample_weight=sample_weight).generate(n=n, rng=rng)


@dataclass(frozen=True)
class UniformArtificialData:
    """DECORATE (Uniform), §4.6.2: nominal uniform over the declared domain, numeric
    uniform on the observed ``[min, max]`` (missing values ignored; an attribute missing
    everywhere is generated as 0, as in :class:`GaussianArtificialData`)."""

    def prepare(self, X, schema: FeatureSchema, rng=None, *, sample_weight=None,
                pool=None) -> _IndependentAttributes:
        numeric = np.flatnonzero(~schema.is_nominal)
        Xn = X[:, numeric]
        seen = (~np.isnan(Xn)).any(axis=0)
        low = np.where(seen, np.nanmin(np.where(seen, Xn, 0.0), axis=0), 0.0)
        high = np.where(seen, np.nanmax(np.where(seen, Xn, 0.0), axis=0), 0.0)
        return _IndependentAttributes(schema.n_features, numeric, low, high - low, False,
                                      _nominal_cdfs(X, schema, laplace=False))

    def generate(self, X, schema, n, rng, *, sample_weight=None, pool=None) -> np.ndarray:
        return self.prepare(X, schema).generate(n=n, rng=rng)


@dataclass(frozen=True)
class PoolArtificialData:
    """DECORATE (Unlabeled), Algorithm 3 / §4.6.1: draw ``n`` examples *with replacement*
    from the pool passed as ``Decorate.fit(X, y, pool=U)``; their true labels are never
    seen, inverse labelling labels them. Pool rows keep their missing values (they are
    real examples)."""

    def generate(self, X, schema, n, rng, *, sample_weight=None, pool=None) -> np.ndarray:
        if pool is None or len(pool) == 0:
            raise ValueError(
                "artificial='unlabeled' samples from an example pool: call "
                "Decorate.fit(X, y, pool=U) with a non-empty unlabeled set U"
            )
        return pool[rng.integers(0, len(pool), size=n)]


@dataclass(frozen=True)
class _FixedPool:
    examples: np.ndarray

    def generate(self, X=None, schema=None, n: int = 1, rng: np.random.Generator | None = None,
                 *, sample_weight=None, pool=None) -> np.ndarray:
        if rng is None:
            raise ValueError("generate needs a numpy Generator")
        return self.examples[rng.integers(0, len(self.examples), size=n)]


@dataclass(frozen=True)
class SampledArtificialData:
    """DECORATE (Sampled Artificial), §4.6.1 / spec §1.5.2: one fixed pool of artificial
    examples per ensemble build, drawn from ``source`` (Gaussian by default), then each
    trial samples from it with replacement, as DECORATE (Unlabeled) samples from ``U``.

    The thesis does not give the pool size; the spec recommends ``|U|`` of the matching
    Unlabeled run, which is what ``pool_size=None`` uses when a pool is passed to ``fit``.
    """

    pool_size: int | None = None
    source: ArtificialData = field(default_factory=GaussianArtificialData)

    def prepare(self, X, schema: FeatureSchema, rng: np.random.Generator, *,
                sample_weight=None, pool=None) -> _FixedPool:
        size = self.pool_size if self.pool_size is not None else (
            None if pool is None else len(pool))
        if size is None or size < 1:
            raise ValueError(
                "artificial='sampled' needs a pool size: use SampledArtificialData(pool_size=N) "
                "or pass the matching unlabeled pool to Decorate.fit(X, y, pool=U)"
            )
        source = self.source
        if hasattr(source, "prepare"):
            source = source.prepare(X, schema, rng, sample_weight=sample_weight, pool=pool)
        return _FixedPool(source.generate(X, schema, int(size), rng,
                                          sample_weight=sample_weight, pool=pool))

    def generate(self, X, schema, n, rng, *, sample_weight=None, pool=None) -> np.ndarray:
        return self.prepare(X, schema, rng, sample_weight=sample_weight, pool=pool).generate(
            n=n, rng=rng)


#: The artificial-data strategies by config name.
ARTIFICIAL_STRATEGIES: dict[str, type] = {
    "gaussian": GaussianArtificialData,
    "uniform": UniformArtificialData,
    "unlabeled": PoolArtificialData,
    "sampled": SampledArtificialData,
}


POOL_STRATEGIES: frozenset[str] = frozenset({"unlabeled", "sampled"})
"""The strategies that draw from an example pool ``U`` (§4.6.1): DECORATE (Unlabeled) samples
its diversity data from ``U`` and DECORATE (Sampled Artificial) sizes its fixed artificial
pool as ``|U|`` (spec §1.5.2), so both are fitted with ``fit(X, y, pool=U)``."""


def resolve_artificial(artificial) -> ArtificialData:
    """The strategy object for a name of :data:`ARTIFICIAL_STRATEGIES` or an object with
    ``generate``."""
    if isinstance(artificial, str):
        try:
            return ARTIFICIAL_STRATEGIES[artificial]()
        except KeyError:
            raise ValueError(
                f"unknown artificial-data strategy {artificial!r}; choose one of "
                f"{sorted(ARTIFICIAL_STRATEGIES)} or pass an object with a generate() method"
            ) from None
    if not callable(getattr(artificial, "generate", None)):
        raise TypeError(
            f"artificial must be a strategy name or an object with generate(X, schema, n, rng, "
            f"*, sample_weight=None, pool=None); got {artificial!r}"
        )
    return artificial


def _accepted_keywords(method, **keywords) -> dict:
    """The subset of ``keywords`` that ``method`` accepts, so a user strategy may implement
    the bare ``generate(X, schema, n, rng)`` and ignore weights and pools."""
    try:
        params = inspect.signature(method).parameters
    except (TypeError, ValueError):
        return keywords
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values()):
        return keywords
    return {k: v for k, v in keywords.items() if k in params}


def _start(strategy, X: np.ndarray, schema: FeatureSchema, rng: np.random.Generator,
           sample_weight, pool) -> Callable[[int, np.random.Generator], np.ndarray]:
    """Prepare ``strategy`` for one fit and return ``draw(n, rng)`` for its trials."""
    if callable(getattr(strategy, "prepare", None)):
        strategy = strategy.prepare(X, schema, rng, **_accepted_keywords(
            strategy.prepare, sample_weight=sample_weight, pool=pool))
    keywords = _accepted_keywords(strategy.generate, sample_weight=sample_weight, pool=pool)

    def draw(n: int, trial_rng: np.random.Generator) -> np.ndarray:
        R = np.asarray(strategy.generate(X, schema, n, trial_rng, **keywords), dtype=np.float64)
        if R.shape != (n, X.shape[1]):
            raise ValueError(f"artificial-data strategy returned shape {R.shape}, expected {(n, X.shape[1])}")
        return R

    return draw


def artificial_examples(X: np.ndarray, schema: FeatureSchema, n: int, rng: np.random.Generator,
                        strategy="gaussian", *, sample_weight=None, pool=None) -> np.ndarray:
    """Draw ``n`` encoded artificial examples from the data model of ``X`` (one-off use)."""
    return _start(resolve_artificial(strategy), X, schema, rng, sample_weight, pool)(n, rng)


# =========================================================================================
# Rejection loss (Algorithm 2 steps 5 and 13; §1.5.5)
# =========================================================================================
def ensemble_training_loss(proba_sum: np.ndarray, y: np.ndarray, loss: str = "error",
                           multiplicity: np.ndarray | None = None) -> float:
    """Training loss of a committee from its *summed* member probabilities on ``T``.

    ``"error"``: 0/1 error of the arg-max (ties → first class), unweighted as in step 5.
    ``"mse"``: mean over examples of Σ_y (1[y = y_j] − P̂_y(x_j))², with P̂ the row-normalised
    sum (= the mean of member distributions when every member's rows sum to 1).
    ``multiplicity``: examples each row stands for (merged identical rows count that often);
    the 0/1 error is then the same number as on the copies (an integer count over |T|).
    """
    if loss == "error":
        wrong = np.argmax(proba_sum, axis=1) != y
        if multiplicity is None:
            return float(np.mean(wrong))
        return float(np.sum(multiplicity[wrong])) / float(np.sum(multiplicity))
    if loss == "mse":
        totals = proba_sum.sum(axis=1, keepdims=True)
        P = np.divide(proba_sum, totals, out=np.zeros_like(proba_sum), where=totals > 0)
        P[np.arange(y.size), y] -= 1.0
        per_example = np.sum(P * P, axis=1)
        if multiplicity is None:
            return float(np.mean(per_example))
        # numpy's own sum, not BLAS's dot: this loss accepts or rejects a member
        return float(np.sum(multiplicity * per_example) / np.sum(multiplicity))
    raise ValueError(f"rejection_loss must be 'error' or 'mse', got {loss!r}")


# =========================================================================================
# The learner
# =========================================================================================

def _expanded(X: np.ndarray, y: np.ndarray, sample_weight: np.ndarray, multiplicity: np.ndarray | None,
              base: Any) -> tuple[np.ndarray, np.ndarray, tuple[Any, ...]]:
    """Distinct rows with counts (``multiplicity``) as DECORATE's parts need them.

    The data model sees every example (nominal counts are per example), so it gets the rows
    repeated (``X_all``, ``w_all``); a base learner without multiplicities gets the copies
    too, one that takes them (``fits_multiplicities``) the distinct rows and their counts.
    Returns ``(X_all, w_all, (X, y, sample_weight, multiplicity))`` for the members' fits.
    """
    if multiplicity is None:
        return X, sample_weight, (X, y, sample_weight, None)
    multiplicity = np.asarray(multiplicity, dtype=np.int64)
    X_all = np.repeat(X, multiplicity, axis=0)
    w_all = np.repeat(sample_weight / multiplicity, multiplicity)
    if not getattr(base, "fits_multiplicities", False):
        return X_all, w_all, (X_all, np.repeat(y, multiplicity), w_all, None)
    return X_all, w_all, (X, y, sample_weight, multiplicity)

class Decorate(EncodedClassifier):
    """DECORATE: Diverse Ensemble Creation by Oppositional Relabeling of Artificial
    Training Examples (Algorithm 2).

    Parameters
    ----------
    estimator:
        ``BaseLearn``; ``None`` means Weka-default ``J48()``.
    n_estimators:
        ``C_size``, the desired committee size (15 in the thesis).
    max_iterations:
        ``I_max``, the maximum number of base classifiers built, counting ``C_1`` (50).
    artificial_size:
        ``R_size``: |R| = max(1, floor(R_size·|T|)) artificial examples per trial (1.0).
    artificial:
        ``"gaussian"`` (§3.2.1), ``"uniform"`` (§4.6.2), ``"unlabeled"`` / ``"sampled"``
        (§4.6.1, need ``fit(..., pool=U)``), or an :class:`ArtificialData` object.
    rejection:
        ``False`` = DECORATE (No Rejection), §4.7: every candidate is kept, so the committee
        always reaches ``n_estimators`` (if ``max_iterations`` allows).
    rejection_loss:
        ``"error"`` (0/1, Algorithm 2) or ``"mse"`` (ActiveDecorate-JS, §1.5.5).
    random_state:
        ``int``, :class:`numpy.random.SeedSequence`, ``None`` or a numpy generator.

    Attributes
    ----------
    estimators_: accepted members, in the order they were accepted (``C_1`` first).
    ensemble_size_: ``len(estimators_)``.
    n_trials_: base classifiers built (``C_1`` included); never above ``max_iterations``.
    n_rejected_: candidates rejected.
    trial_accepted_: bool per trial (index 0 is ``C_1``, always True).
    trial_errors_: the candidate committee's training loss ε' per trial (index 0: ε of C_1).
    training_error_history_: the accepted committee's loss after each trial; never rises
        when ``rejection`` is on.
    training_error_: final committee's training loss.
    n_artificial_: |R| per trial.

    Identical training rows may come merged (``fits_multiplicities``: row ``i`` stands for
    ``multiplicity[i]`` examples whose weights sum to ``sample_weight[i]``, as for J48): |T|,
    the training error and the artificial-data statistics count each example, the members
    get the multiplicities (or the copies, if the base learner cannot take them), and no
    random draw is per training row, so the committee is the one fitted on the copies.
    """

    display_name = "DECORATE"

    _parameter_constraints = {
        **ENSEMBLE_CONSTRAINTS,
        "max_iterations": [POSITIVE_INT],
        "artificial_size": [NON_NEGATIVE],
        "artificial": [StrOptions(set(ARTIFICIAL_STRATEGIES)), HasMethods(["generate"])],
        "rejection": ["boolean"],
        "rejection_loss": [StrOptions({"error", "mse"})],
    }
    fits_multiplicities = True
    # committee_share: every trial's artificial examples are labelled by the committee so far;
    # at 0.25 §4.5's size-100 DECORATE (ch4_large_ensembles) is planned at 0.91 of its units'
    # measured CPU, 0.38 when the cost grew with the size alone.
    fit_cost = FitCost(1.4e-5, growth=1.3, ensemble=True, trials="max_iterations", engine="c45", own_share=0.37,
                       artificial="artificial_size", rejection="rejection", committee_share=0.25)
    committee_settings = ("max_iterations", "artificial_size", "rejection_loss")
    renamed_parameters = {"base_estimator": "estimator", "ensemble_size": "n_estimators"}
    sample_weight_departure = (
        "|R| = floor(R_size * m) and the nominal Laplace counts are per row (as in Weka), so "
        "k copies of an example change the artificial data that a weight of k leaves alone"
    )

    def __init__(self, estimator=None, n_estimators: int = 15, max_iterations: int = 50,
                 artificial_size: float = 1.0, artificial="gaussian", rejection: bool = True,
                 rejection_loss: str = "error", random_state=None):
        self.estimator = estimator
        self.n_estimators = n_estimators
        self.max_iterations = max_iterations
        self.artificial_size = artificial_size
        self.artificial = artificial
        self.rejection = rejection
        self.rejection_loss = rejection_loss
        self.random_state = random_state

    @classmethod
    def takes_pool(cls, params: Mapping[str, Any]) -> bool:
        """The pool-based variants of §4.6.1 (:data:`POOL_STRATEGIES`) take ``pool=U``."""
        return isinstance(params.get("artificial"), str) and params["artificial"] in POOL_STRATEGIES

    def fit(self, X, y, sample_weight=None, *, pool=None):
        """Fit on ``T = (X, y)``; ``pool`` is the example pool ``U`` of DECORATE (Unlabeled)
        (same columns as ``X``; used only by the "unlabeled"/"sampled" strategies)."""
        self._fit_pool = pool
        try:
            return super().fit(X, y, sample_weight)
        finally:
            del self._fit_pool

    def _fit_encoded(self, X: np.ndarray, y: np.ndarray, sample_weight: np.ndarray,
                     schema: FeatureSchema, n_classes: int,
                     multiplicity: np.ndarray | None = None) -> None:
        n_estimators = self.n_estimators
        base = default_base_estimator() if self.estimator is None else self.estimator
        make_member = MemberFactory(base)
        strategy = resolve_artificial(self.artificial)
        raw_pool = getattr(self, "_fit_pool", None)
        pool = None if raw_pool is None else schema.encode(raw_pool)
        X_all, w_all, (X, y, sample_weight, multiplicity) = _expanded(X, y, sample_weight, multiplicity, base)

        seed = as_seed_sequence(self.random_state)
        m = X_all.shape[0]
        n_art = max(1, math.floor(self.artificial_size * m))
        draw_artificial = _start(strategy, X_all, schema, np.random.default_rng(seed.spawn(1)[0]),
                                 w_all, pool)
        art_weight = np.ones(n_art)
        w_aug = np.concatenate([sample_weight, art_weight])
        mult_aug = (None if multiplicity is None
                    else np.concatenate([multiplicity, np.ones(n_art, dtype=np.int64)]))

        # Steps 1-5: C_1 = BaseLearn(T), C* = {C_1}, ε = training error of C*.
        _, learner_seed = seed.spawn(1)[0].spawn(2)
        first = make_member(learner_seed)
        fit_member(first, X, y, sample_weight, schema, n_classes, multiplicity=multiplicity)
        members = [first]
        proba_sum = np.array(member_proba(first, X), dtype=np.float64)  # Σ_i P̂_{C_i} on T
        eps = ensemble_training_loss(proba_sum, y, self.rejection_loss, multiplicity)
        accepted, candidate_eps, history = [True], [eps], [eps]

        i, trials = 1, 1
        while i < n_estimators and trials < self.max_iterations:
            data_seed, learner_seed = seed.spawn(1)[0].spawn(2)
            rng = np.random.default_rng(data_seed)
            # Steps 7-8: artificial examples R, labelled against the current committee.
            R = draw_artificial(n_art, rng)
            committee_on_R = member_proba(members[0], R)
            for est in members[1:]:
                committee_on_R = committee_on_R + member_proba(est, R)
            labels = inverse_label(committee_on_R, rng)
            # Steps 9-12: C' = BaseLearn(T ∪ R); R is discarded afterwards.
            candidate = make_member(learner_seed)
            fit_member(candidate, np.vstack([X, R]), np.concatenate([y, labels]), w_aug,
                       schema, n_classes, multiplicity=mult_aug)
            # Steps 11, 13-18: keep C' iff the committee's training loss does not rise.
            new_sum = proba_sum + member_proba(candidate, X)
            new_eps = ensemble_training_loss(new_sum, y, self.rejection_loss, multiplicity)
            keep = (not self.rejection) or new_eps <= eps
            if keep:
                members.append(candidate)
                proba_sum, eps = new_sum, new_eps
                i += 1
            accepted.append(keep)
            candidate_eps.append(new_eps)
            history.append(eps)
            trials += 1  # step 19: every iteration counts (spec note (a))

        self.estimators_ = members
        self.n_trials_ = trials
        self.n_rejected_ = trials - len(members)
        self.trial_accepted_ = np.asarray(accepted, dtype=bool)
        self.trial_errors_ = np.asarray(candidate_eps)
        self.training_error_history_ = np.asarray(history)
        self.training_error_ = eps
        self.n_artificial_ = n_art
        self.n_classes_ = n_classes

    def _proba_encoded(self, X: np.ndarray) -> np.ndarray:
        """P̂_y(x) = mean over members of P̂_{C_i,y}(x) (§3.2)."""
        total = member_proba(self.estimators_[0], X)
        for est in self.estimators_[1:]:
            total = total + member_proba(est, X)
        return total / len(self.estimators_)
