"""Any of the project's ensembles as a query-by-committee committee.

Query by committee needs the members one by one, not just the ensemble's combined
prediction: the vote margin counts member votes, JS divergence compares member
distributions. The project's ensembles all keep their fitted members in ``estimators_``
(DECORATE: the accepted members, ``C_1`` first; Bagging and Random Forests: one per
bootstrap replicate; AdaBoost.M1: the members kept before it stopped), and members are
fitted on the encoded representation with class codes ``0..K-1`` of the full class list,
so :func:`~redecorate.learners.base.member_proba_and_classify` reads each of them the same
way. A learner without ``estimators_`` (a single J48) is a committee of one.

Vote weights: AdaBoost.M1 weights member ``i``'s vote by log(1/β_i)
(``estimator_weights_``); every other ensemble here votes unweighted. Whether QBoost's
margin counts weighted votes is not stated in the dissertation; the spec (Part 8 D.21)
recommends the committee's own voting rule, which is ``vote_weights="model"`` (default);
``"uniform"`` counts one vote per member.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from sklearn.base import BaseEstimator, clone

from redecorate.learners.base import (
    EncodedClassifier,
    fit_member,
    member_proba,
    member_proba_and_classify,
)
from redecorate.learners.decorate import Decorate
from redecorate.learners.features import FeatureSchema

__all__ = [
    "VOTE_WEIGHTS",
    "Committee",
    "CommitteeOutput",
    "committee_members",
    "committee_outputs",
    "fit_model",
    "member_vote_weights",
]

VOTE_WEIGHTS: tuple[str, ...] = ("model", "uniform")
"""``model``: the ensemble's own vote weights (AdaBoost's log(1/β)); ``uniform``: one each."""


@dataclass(frozen=True)
class CommitteeOutput:
    """What a fitted committee says about ``n`` examples.

    Attributes:
        proba: ``(members, n, classes)`` member class distributions.
        votes: ``(members, n)`` member predicted class codes, by each member's own
            classification rule (J48's tolerance rule; the first maximum otherwise);
            ``None`` when they were not asked for (``committee_outputs(..., votes=False)``).
        weights: ``(members,)`` vote weights (not normalised).
    """

    proba: np.ndarray
    votes: np.ndarray | None
    weights: np.ndarray

    @property
    def n_members(self) -> int:
        return self.proba.shape[0]


def committee_members(fitted) -> list:
    """The fitted members of a project ensemble, or ``[fitted]`` for a single learner."""
    if not isinstance(fitted, EncodedClassifier):
        raise TypeError(
            "a committee must be one of the project's learners (Decorate, Bagging, AdaBoostM1, "
            f"RandomForest, J48, ... — any EncodedClassifier), got {type(fitted).__name__}"
        )
    members = getattr(fitted, "estimators_", None)
    if members is None:
        return [fitted]
    if len(members) == 0:
        raise ValueError(f"the fitted {type(fitted).__name__} has no members")
    return list(members)


def member_vote_weights(fitted, vote_weights: str = "model") -> np.ndarray:
    """Vote weight of each member: the ensemble's own (``"model"``) or all ones."""
    if vote_weights not in VOTE_WEIGHTS:
        raise ValueError(f"vote_weights must be one of {VOTE_WEIGHTS}, got {vote_weights!r}")
    n = len(committee_members(fitted))
    own = getattr(fitted, "estimator_weights_", None)
    if vote_weights == "uniform" or own is None:
        return np.ones(n)
    w = np.asarray(own, dtype=np.float64)
    if w.shape != (n,):
        raise ValueError(f"{type(fitted).__name__} has {w.size} vote weights for {n} members")
    return w


def committee_outputs(fitted, X: np.ndarray, vote_weights: str = "model",
                      votes: bool = True) -> CommitteeOutput:
    """Member distributions, votes (unless ``votes`` is false) and vote weights of ``fitted``
    on encoded ``X``."""
    members = committee_members(fitted)
    weights = member_vote_weights(fitted, vote_weights)
    if not votes:
        return CommitteeOutput(np.stack([np.asarray(member_proba(est, X), dtype=np.float64)
                                         for est in members]), None, weights)
    pairs = [member_proba_and_classify(est, X) for est in members]
    proba = np.stack([np.asarray(p, dtype=np.float64) for p, _ in pairs])
    votes = np.stack([np.asarray(c, dtype=np.int64) for _, c in pairs])
    return CommitteeOutput(proba, votes, weights)


class Committee:
    """An unfitted ensemble used to select examples, and how its members vote.

    Parameters
    ----------
    ensemble:
        Any of the project's ensembles (``Decorate``, ``Bagging``, ``AdaBoostM1``,
        ``RandomForest``) or a single learner; ``None`` means ``Decorate()`` with the
        thesis defaults (ActiveDecorate's committee).
    vote_weights:
        ``"model"`` (default): members vote with the ensemble's own weights (AdaBoost.M1's
        log(1/β_i); uniform for the others). ``"uniform"``: one vote per member.
    """

    def __init__(self, ensemble: BaseEstimator | None = None, vote_weights: str = "model"):
        if ensemble is None:
            ensemble = Decorate()
        if not isinstance(ensemble, EncodedClassifier):
            raise TypeError(
                "a committee must be one of the project's learners (Decorate, Bagging, "
                f"AdaBoostM1, RandomForest, J48, ...), got {type(ensemble).__name__}"
            )
        if vote_weights not in VOTE_WEIGHTS:
            raise ValueError(f"vote_weights must be one of {VOTE_WEIGHTS}, got {vote_weights!r}")
        self.ensemble = ensemble
        self.vote_weights = vote_weights

    def __repr__(self) -> str:
        return f"Committee({self.ensemble!r}, vote_weights={self.vote_weights!r})"

    def fit(self, X: np.ndarray, y: np.ndarray, schema: FeatureSchema, n_classes: int,
            seed: np.random.SeedSequence | None = None):
        """A fresh clone of the ensemble fitted on encoded ``(X, y)`` with the given seed."""
        return fit_model(self.ensemble, X, y, schema, n_classes, seed)

    def outputs(self, fitted, X: np.ndarray, votes: bool = True) -> CommitteeOutput:
        """:func:`committee_outputs` with this committee's vote weighting."""
        return committee_outputs(fitted, X, self.vote_weights, votes)


def fit_model(estimator: BaseEstimator, X: np.ndarray, y: np.ndarray, schema: FeatureSchema,
              n_classes: int, seed: np.random.SeedSequence | None = None):
    """Clone ``estimator``, seed it (if it takes a seed) and fit it on encoded data.

    Every model of the active-learning loop goes through here: the training set is encoded
    once for the whole pool, and each model sees the full class list even when the labeled
    set still lacks a class (as the ensembles give their members).
    """
    model = clone(estimator)
    if seed is not None and "random_state" in model.get_params(deep=False):
        model.set_params(random_state=seed)
    if hasattr(model, "_validate_params"):  # as fit would: the encoded path checks nothing
        model._validate_params()
    return fit_member(model, X, y, np.ones(y.size), schema, n_classes)
