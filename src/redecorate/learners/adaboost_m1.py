"""AdaBoost.M1 (Freund & Schapire 1996; dissertation Algorithm 1), by reweighting.

The thesis ran Weka's ``meta.AdaBoostM1`` with J48, which handles instance weights, so
each member is trained on the *reweighted* training set (no resampling, not SAMME).
Algorithm 1, with the details Weka 3.6 adds (checked against the bytecode of
``weka-3.6.14.jar``, spec §1.3 and Part 8 note 7b):

* ``ε_i`` = weighted training error of ``C_i`` under the current weights.
* Stop when ``ε_i ≥ 0.5`` **or** ``ε_i = 0`` (Algorithm 1 only stops at ``ε_i > 1/2``;
  ``ε_i = 0`` would give an infinite vote). Both comparisons use Weka's tolerance
  ``Utils.SMALL = 1e-6``. The offending member is discarded, unless it is the first: then
  the ensemble is ``C_1`` alone and predicts with ``C_1``'s own class distribution. With
  J48 at tiny training sizes ``ε_1 = 0`` is common, so AdaBoost often collapses to one tree.
* Weight update as Weka performs it: misclassified examples are multiplied by
  ``1/β_i = (1-ε_i)/ε_i``, then every weight by ``old sum / new sum``. Algorithm 1
  multiplies the correct ones by ``β_i`` instead; after renormalisation the two agree up to
  rounding, and Weka's order keeps our weights equal to Weka's to the last bit.
  "Misclassified" is decided by the member's ``classifyInstance`` (J48's first class
  ahead by more than 1e-6), ``ε_i`` by the first maximum of its distribution, as Weka's
  ``Evaluation`` does; the two differ only on near-ties.
* Renormalisation keeps the **sum of weights equal to the original total** (``m`` for unit
  weights), as Weka's ``setWeights`` does, rather than 1 as Algorithm 1 writes. The scale
  matters because J48's pruning and ``min_instances`` rules compare *sums of weights*
  against absolute counts (at least 2 instances per branch); with weights summing to 1
  no split could ever satisfy them.
* Vote weight ``log(1/β_i) = log((1-ε_i)/ε_i)``. ``predict`` is the arg-max of the summed
  votes each member gives its predicted class (Algorithm 1's output). ``predict_proba``
  follows Weka's ``distributionForInstance``, which passes the vote sums through
  ``Utils.logs2probs``, i.e. a softmax, ``exp(v_y)/Σ exp(v_y')``; ``vote_proba="share"``
  returns the plain normalised vote sums instead. Both have the same arg-max.
"""

from __future__ import annotations

import math

import numpy as np
from sklearn.utils._param_validation import StrOptions

from redecorate.learners.bagging import MemberFactory, default_base_estimator
from redecorate.learners.base import (
    ENSEMBLE_CONSTRAINTS,
    EncodedClassifier,
    fit_member,
    member_classify,
    member_proba,
    member_proba_and_classify,
)
from redecorate.learners.cost import FitCost
from redecorate.learners.features import FeatureSchema
from redecorate.learners.member_seeds import child_seeds
from redecorate.util import as_seed_sequence

__all__ = ["AdaBoostM1", "WEKA_SMALL"]

#: Weka's ``Utils.SMALL``: tolerance of ``Utils.eq``/``Utils.grOrEq`` in the stop test.
WEKA_SMALL = 1e-6


def _java_sum(v: np.ndarray) -> float:
    """Left-to-right total, the order Weka adds in: NumPy's pairwise ``sum`` can differ in
    the last bit, enough to flip an exact 50/50 tie of a later member (seen on colic)."""
    return float(np.cumsum(v)[-1]) if v.size else 0.0


class AdaBoostM1(EncodedClassifier):
    """AdaBoost.M1 by reweighting, with Weka 3.6's stopping and scaling rules.

    Parameters
    ----------
    estimator:
        Learner that accepts ``sample_weight``; ``None`` means ``J48()``.
    n_estimators:
        Maximum number of boosting iterations ``I`` (15 in the thesis).
    vote_proba:
        ``"softmax"`` (Weka's ``logs2probs`` of the vote sums, default) or ``"share"``
        (vote sums divided by their total).
    random_state:
        Seeds randomised base learners (iteration ``i`` gets the ``i``-th child seed, as
        Weka reseeds ``Randomizable`` members); J48 itself is deterministic.

    Attributes
    ----------
    estimators_: the members kept.
    estimator_weights_: their vote weights ``log(1/β_i)``. A lone member (the ensemble
        collapsed at the first iteration) gets weight 1.0: its vote is irrelevant and a
        finite value keeps weighted-vote consumers such as the QBoost margin free of
        ``inf``.
    estimator_errors_: weighted training error ``ε_i`` of each kept member.
    stop_reason_: ``"completed"``, ``"zero_error"`` or ``"error_at_least_half"``.
    """

    display_name = "AdaBoost"

    _parameter_constraints = {**ENSEMBLE_CONSTRAINTS, "vote_proba": [StrOptions({"softmax", "share"})]}
    # member_share: over networks, boosting stops early (a member without training error on
    # §4.8's small sets; ch4_base_learners).
    fit_cost = FitCost(2.2e-6, ensemble=True, engine="c45", member_share=0.2)
    committee_settings = ()
    renamed_parameters = {"base_estimator": "estimator"}

    def __init__(self, estimator=None, n_estimators: int = 15, vote_proba: str = "softmax",
                 random_state=None):
        self.estimator = estimator
        self.n_estimators = n_estimators
        self.vote_proba = vote_proba
        self.random_state = random_state

    def _fit_encoded(self, X: np.ndarray, y: np.ndarray, sample_weight: np.ndarray,
                     schema: FeatureSchema, n_classes: int) -> None:
        base = default_base_estimator() if self.estimator is None else self.estimator
        seed = as_seed_sequence(self.random_state)
        make_member = MemberFactory(base)
        weights = np.array(sample_weight, dtype=np.float64)  # a copy: never touch the caller's
        members: list = []
        alphas: list[float] = []
        errors: list[float] = []
        self.stop_reason_ = "completed"
        member_seeds = child_seeds(seed, self.n_estimators)  # seed.spawn(n), in bulk
        for i in range(self.n_estimators):
            est = make_member(int(member_seeds[i]))
            fit_member(est, X, y, weights, schema, n_classes)
            proba, classified = member_proba_and_classify(est, X)
            # ε as Weka's Evaluation scores it (first maximum of the distribution) ...
            missed = np.argmax(proba, axis=1) != y
            eps = _java_sum(weights[missed]) / _java_sum(weights)
            # ... and the reweighting by the member's classifyInstance (J48's tolerance rule).
            wrong = classified != y
            zero_error = abs(eps) < WEKA_SMALL
            if zero_error or 0.5 - eps < WEKA_SMALL:
                self.stop_reason_ = "zero_error" if zero_error else "error_at_least_half"
                if i == 0:  # Weka: "if we're the first we have to use it"
                    members.append(est)
                    alphas.append(1.0)
                    errors.append(eps)
                break
            members.append(est)
            alphas.append(math.log((1.0 - eps) / eps))  # log(1/β), written as Weka computes it
            errors.append(eps)
            old_sum = _java_sum(weights)
            weights = np.where(wrong, weights * ((1.0 - eps) / eps), weights)
            weights = weights * old_sum / _java_sum(weights)
        self.estimators_ = members
        self.estimator_weights_ = np.asarray(alphas)
        self.estimator_errors_ = np.asarray(errors)
        self.n_classes_ = n_classes

    def _vote_sums(self, X: np.ndarray) -> np.ndarray:
        """Σ_{i: C_i(x)=y} log(1/β_i) for every class y (Algorithm 1's output score)."""
        votes = np.zeros((X.shape[0], self.n_classes_))
        rows = np.arange(X.shape[0])
        for est, alpha in zip(self.estimators_, self.estimator_weights_, strict=True):
            votes[rows, member_classify(est, X)] += alpha
        return votes

    def _proba_encoded(self, X: np.ndarray) -> np.ndarray:
        if len(self.estimators_) == 1:
            return member_proba(self.estimators_[0], X)
        votes = self._vote_sums(X)
        if self.vote_proba == "share":
            return votes / votes.sum(axis=1, keepdims=True)
        e = np.exp(votes - votes.max(axis=1, keepdims=True))
        return e / e.sum(axis=1, keepdims=True)
