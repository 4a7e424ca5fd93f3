"""Bagging (Breiman 1996; dissertation §2.2) and the helpers every ensemble here shares.

Each member is trained on a *bootstrap replicate*: ``m`` examples drawn with replacement
from the ``m`` training examples. The dissertation describes Bagging's prediction as a
majority vote, but the experiments ran Weka's ``meta.Bagging``, which averages the
members' class distributions; ``voting="soft"`` (the default) reproduces Weka and
``voting="hard"`` gives the textbook vote (also what the QBag margin of chapter 6 counts).

Sample weights are honoured the way Weka's ``Instances.resampleWithWeights`` honours
them: the bootstrap is drawn with probabilities proportional to the weights and every
drawn copy then carries weight 1. Weighting therefore changes *which* examples a member
sees, never the weight its base learner sees, so J48's weight-summing rules
(``min_instances``) behave exactly as on an unweighted replicate.

The shared helpers at the bottom of this module (seed handling, the J48 default, cloning a
member with its own seed) are used by DECORATE, AdaBoost.M1 and
Random Forests as well.
"""

from __future__ import annotations

import copy

import numpy as np
from sklearn.base import BaseEstimator, clone
from sklearn.utils._param_validation import StrOptions

from redecorate.learners.base import (
    ENSEMBLE_CONSTRAINTS,
    EncodedClassifier,
    fit_replicate,
    member_proba,
)
from redecorate.learners.cost import FitCost
from redecorate.learners.features import FeatureSchema
from redecorate.learners.j48 import J48
from redecorate.learners.member_seeds import bootstrap_streams
from redecorate.util import as_seed_sequence

__all__ = [
    "Bagging",
    "MemberFactory",
    "ReplicateSampler",
    "combine_members",
    "default_base_estimator",
    "fit_bootstrap_members",
    "member_seed",
    "new_member",
]


RESAMPLED_DEPARTURE = (
    "a weight of k and k copies of an example are equivalent only in distribution: the random "
    "bootstrap (Weka's resampleWithWeights) draws different replicates from them"
)
"""How the bootstrap ensembles (Bagging, Random Forests, feature subsets) depart from
scikit-learn's sample-weight equivalence check."""


class Bagging(EncodedClassifier):
    """Bootstrap aggregation of any base learner (J48 unless told otherwise).

    Parameters
    ----------
    estimator:
        The learner to bag; ``None`` means Weka-default ``J48()`` (the thesis setting).
        Project learners are fitted on the encoded data; any scikit-learn classifier works
        through :func:`~redecorate.learners.base.fit_member`.
    n_estimators:
        Number of bootstrap replicates, hence of members (15 in the thesis).
    voting:
        ``"soft"`` averages member class probabilities (Weka's Bagging, used for the
        thesis tables); ``"hard"`` returns the share of member votes per class (the
        "majority vote" of §2.2).
    random_state:
        ``int``, :class:`numpy.random.SeedSequence`, ``None`` or a numpy generator. Member
        ``i`` draws its replicate and its own base-learner seed from the ``i``-th child of
        this seed, so the first ``n`` members are identical whatever ``n_estimators`` is.

    Attributes
    ----------
    estimators_: list of fitted members.
    estimators_samples_: list of the bootstrap index arrays (length ``m`` each).
    """

    display_name = "Bagging"

    _parameter_constraints = {**ENSEMBLE_CONSTRAINTS, "voting": [StrOptions({"soft", "hard"})]}
    fit_cost = FitCost(8.6e-7, ensemble=True, engine="c45")
    committee_settings = ("voting",)
    renamed_parameters = {"base_estimator": "estimator"}
    sample_weight_departure = RESAMPLED_DEPARTURE

    def __init__(self, estimator=None, n_estimators: int = 15, voting: str = "soft",
                 random_state=None):
        self.estimator = estimator
        self.n_estimators = n_estimators
        self.voting = voting
        self.random_state = random_state

    def _fit_encoded(self, X: np.ndarray, y: np.ndarray, sample_weight: np.ndarray,
                     schema: FeatureSchema, n_classes: int) -> None:
        base = default_base_estimator() if self.estimator is None else self.estimator
        self.estimators_, self.estimators_samples_ = fit_bootstrap_members(
            base, X, y, sample_weight, schema, n_classes, self.n_estimators,
            as_seed_sequence(self.random_state),
        )
        self.n_classes_ = n_classes

    def _proba_encoded(self, X: np.ndarray) -> np.ndarray:
        return combine_members(self.estimators_, X, self.n_classes_, self.voting)

    def staged_predict_proba_prepared(self, X_encoded: np.ndarray):
        """The prediction of the first 1, 2, …, n_estimators members, on encoded rows.

        Member ``i`` does not depend on ``n_estimators`` (see ``random_state``), so stage
        ``i`` is exactly what ``Bagging(n_estimators=i)`` predicts: one fit gives a whole
        curve over ensemble sizes.
        """
        X = np.asarray(X_encoded, dtype=np.float64)
        total = np.zeros((X.shape[0], self.n_classes_))
        for i, est in enumerate(self.estimators_, start=1):
            p = member_proba(est, X)
            if self.voting == "hard":
                total[np.arange(X.shape[0]), np.argmax(p, axis=1)] += 1.0
            else:
                total += p
            yield total / i


def combine_members(estimators: list, X: np.ndarray, n_classes: int,
                    voting: str = "soft") -> np.ndarray:
    """Average member probabilities (``soft``) or vote shares (``hard``) on encoded ``X``.

    Hard votes go to each member's most probable class, ties to the first class (as
    Weka's ``classifyInstance`` breaks them).
    """
    out = np.zeros((X.shape[0], n_classes))
    rows = np.arange(X.shape[0])
    for est in estimators:
        p = member_proba(est, X)
        if voting == "hard":
            out[rows, np.argmax(p, axis=1)] += 1.0
        else:
            out += p
    out /= len(estimators)
    return out


def fit_bootstrap_members(base, X: np.ndarray, y: np.ndarray, sample_weight: np.ndarray,
                          schema: FeatureSchema, n_classes: int, n_estimators: int,
                          seed: np.random.SeedSequence) -> tuple[list, list[np.ndarray]]:
    """Fit ``n_estimators`` clones of ``base``, each on its own bootstrap replicate.

    Returns ``(members, replicate_indices)``. Members are trained with unit weights on the
    drawn copies (Weka's resampleWithWeights), see the module docstring.
    """
    members, samples = [], []
    make_member = MemberFactory(base)
    draw = ReplicateSampler(sample_weight)
    # Member i: replicate from default_rng(seed.spawn(n)[i].spawn(2)[0]), learner seed from
    # the second grandchild; bootstrap_streams derives the same numbers in bulk.
    for rng, learner_seed in bootstrap_streams(seed, n_estimators):
        idx = draw(rng)
        est = make_member(learner_seed)
        fit_replicate(est, X, y, idx, schema, n_classes)
        members.append(est)
        samples.append(idx)
    return members, samples


class ReplicateSampler:
    """Bootstrap replicates of one weighted training set: ``m`` draws with replacement,
    P(j) ∝ weight j, the weights checked once.

    Why a class: an ensemble draws one replicate per member from the same weights, and on
    the small training sets of a learning curve the checks cost as much as the draw.
    """

    def __init__(self, sample_weight: np.ndarray):
        w = np.asarray(sample_weight, dtype=np.float64)
        total = w.sum()
        if not np.isfinite(total) or total <= 0 or (w < 0).any():
            raise ValueError("bootstrap sampling needs non-negative sample weights with a positive sum")
        self.m = w.size
        self.p = None if np.all(w == w[0]) else w / total

    def __call__(self, rng: np.random.Generator) -> np.ndarray:
        """``m`` indices drawn with replacement (uniformly when all weights are equal)."""
        if self.p is None:
            return rng.integers(0, self.m, size=self.m)
        return rng.choice(self.m, size=self.m, replace=True, p=self.p)


# -- helpers shared by the ensembles ------------------------------------------------------
def member_seed(seed: np.random.SeedSequence) -> int:
    """A 32-bit integer seed for a base learner (every scikit-learn estimator accepts it)."""
    return int(seed.generate_state(1, dtype=np.uint32)[0])


class MemberFactory:
    """Unfitted copies of a base learner, each with its own seed.

    ``clone`` introspects constructor signatures, which costs more than fitting J48 on a
    handful of examples (the low learning-curve points); so ``base`` is cloned once and
    each member is a shallow copy of that unfitted prototype. That is equivalent because
    fitting never mutates constructor parameters (scikit-learn's contract): a nested
    base learner is itself cloned by the member that uses it.
    Weka's ensembles reseed ``Randomizable`` members the same way; random trees depend on
    the seed, deterministic learners (default J48) ignore it.
    """

    def __init__(self, base: BaseEstimator):
        self.prototype = clone(base)
        self.seeded = "random_state" in self.prototype.get_params(deep=False)
        self.plain = isinstance(self.prototype, EncodedClassifier)  # the project's own learners

    def __call__(self, seed: np.random.SeedSequence | int) -> BaseEstimator:
        """A fresh member; ``seed`` is its SeedSequence or the int :func:`member_seed` of one."""
        if self.plain:  # a shallow copy without copy.copy's pickling protocol
            est = object.__new__(type(self.prototype))
            est.__dict__.update(self.prototype.__dict__)
        else:
            est = copy.copy(self.prototype)
        if self.seeded:  # what set_params does, minus introspection
            est.random_state = seed if isinstance(seed, int) else member_seed(seed)
        return est


def new_member(base: BaseEstimator, seed: np.random.SeedSequence) -> BaseEstimator:
    """One unfitted clone of ``base`` with its own seed (see :class:`MemberFactory`)."""
    return MemberFactory(base)(seed)


def default_base_estimator() -> BaseEstimator:
    """Weka-default J48, the base learner of every thesis experiment."""
    return J48()
