"""Ensembles of feature subsets (Bommaganti, §3.2–3.7): bagged trees that each see k features.

Every method of the source builds the same ensemble (its Fig. 7, spec A.5) and differs only in
the distribution ``D_F`` over the features from which each member's subset is drawn:

* ``random`` (§3.3): uniform, so each member gets an independent random k-subset (random
  subspaces on bootstrap replicates);
* ``top_gain`` (§3.4): the k features of highest information gain on the training set, so every
  member sees the same k features and members differ only by their bootstrap replicates;
* ``cumulative_gain`` (§3.5): k features chosen level by level of a tree, each the one with the
  highest size-weighted mean gain over that level's nodes; again the same k for every member;
* ``feature_boost`` (§3.6, Table 3, eq. 8): ``D_F`` learned by boosting the weights of features
  whose random k-subsets give trees more accurate than average, then sampled per member.

Member ``i`` is the base learner (J48 by default) trained on a bootstrap replicate of the
training set restricted to its subset S_i; it votes with weight ``a_i``, its accuracy on the
whole training set (the source's "accuracy on the training set itself", eq. 7), and the
ensemble predicts the class with the largest total weight.

Where the source is silent (spec part D) this module takes these readings, each a parameter
where it is a number:

* k larger than the number of features means all of them (Tables 6 and 7 print "≤ 6" and
  "≤ 12", the cap per dataset);
* the weighted k-of-F draw without replacement is NumPy's ``Generator.choice(replace=False, p=…)``
  (successive draws renormalised over the features not yet drawn);
* gains use the training set only (§3.7), numeric attributes by their best binary split and
  missing values as C4.5 does (:mod:`redecorate.learners.information_gain`);
* cumulative gain grows an *oblivious* tree, as Fig. 8 draws it: every node of a level is split
  on the attribute chosen at that level (numeric: at the node's own best threshold; examples
  missing the attribute form their own node); an attribute is chosen once; when every node is
  pure before k are chosen, the rest follow in order of root gain;
* feature boosting runs ``boost_iterations`` rounds (default: the ensemble size, as §3.6 says) of
  J48 on the whole training set restricted to a subset drawn from ``D_F``; the mean and standard
  deviation in eq. 8 are over all accuracies so far *including* the current one (Table 3; §3.6.1
  says "previous"), population standard deviation; updates start after ``boost_init`` rounds
  (never given in the source: default 2, the fewest for which a spread exists before the
  first update) and are skipped when the spread is 0.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Iterator

import numpy as np
from sklearn.utils._param_validation import StrOptions
from sklearn.utils.validation import check_is_fitted

from redecorate.learners.bagging import (
    RESAMPLED_DEPARTURE,
    MemberFactory,
    ReplicateSampler,
    default_base_estimator,
    member_seed,
)
from redecorate.learners.base import (
    ENSEMBLE_CONSTRAINTS,
    POSITIVE_INT,
    EncodedClassifier,
    NumberInterval,
    fit_member,
    fit_replicate,
    member_classify,
)
from redecorate.learners.cost import FitCost
from redecorate.learners.features import FeatureSchema
from redecorate.learners.information_gain import feature_gains, information_gain
from redecorate.util import as_seed_sequence

__all__ = [
    "STRATEGIES",
    "FeatureSubsetEnsemble",
    "boosted_feature_weights",
    "cumulative_gain_features",
    "feature_boost_update",
    "top_gain_features",
]

STRATEGIES: tuple[str, ...] = ("random", "top_gain", "cumulative_gain", "feature_boost")
"""The four ways of choosing member subsets (the source's Random, I. Gain, C. Gain, F. Boost)."""


def top_gain_features(gains: np.ndarray, k: int) -> np.ndarray:
    """Indices of the ``k`` highest gains, best first (ties: the earlier attribute)."""
    order = np.lexsort((np.arange(gains.size), -np.asarray(gains)))
    return order[:k]


def _split_node(rows: np.ndarray, x: np.ndarray, y: np.ndarray, w: np.ndarray, nominal: bool,
                n_classes: int) -> list[np.ndarray]:
    """One node's rows split on one attribute: by value (nominal) or at the node's best
    threshold (numeric); rows missing the attribute become a node of their own."""
    xv = x[rows]
    missing = np.isnan(xv)
    known_rows = rows[~missing]
    parts: list[np.ndarray] = []
    if known_rows.size:
        xk = x[known_rows]
        if nominal:
            parts += [known_rows[xk == v] for v in np.unique(xk)]
        else:
            t = _best_threshold(xk, y[known_rows], w[known_rows], n_classes)
            parts += [known_rows[xk <= t], known_rows[xk > t]] if t is not None else [known_rows]
    if missing.any():
        parts.append(rows[missing])
    return [p for p in parts if p.size]


def _best_threshold(x: np.ndarray, y: np.ndarray, w: np.ndarray, n_classes: int) -> float | None:
    """The midpoint threshold of the best binary split of a numeric column (None: constant)."""
    values = np.unique(x)
    if values.size < 2:
        return None
    best, best_t = -np.inf, None
    for t in (values[:-1] + values[1:]) / 2:
        left = x <= t
        g = 0.0
        for side in (left, ~left):
            counts = np.bincount(y[side], weights=w[side], minlength=n_classes)
            p = counts[counts > 0] / counts.sum()
            g -= counts.sum() * float(-(p * np.log2(p)).sum())
        if g > best:
            best, best_t = g, float(t)
    return best_t


def cumulative_gain_features(X: np.ndarray, y: np.ndarray, is_nominal: np.ndarray, n_classes: int,
                             k: int, sample_weight: np.ndarray | None = None) -> np.ndarray:
    """§3.5: k attributes chosen level by level by cumulative information gain.

    At each level with nodes D_1..D_p, Cumulative_Info_Gain(A) = Σ |D_i| Gain(D_i, A) / Σ |D_i|
    (|D_i| weighted); the best unchosen attribute is taken and every node is split on it
    (see the module docstring for the readings taken).
    """
    w = np.ones(len(y)) if sample_weight is None else np.asarray(sample_weight, dtype=np.float64)
    n_features = X.shape[1]
    chosen: list[int] = []
    nodes = [np.arange(len(y))]
    while len(chosen) < k:
        candidates = [a for a in range(n_features) if a not in chosen]
        sizes = np.array([w[rows].sum() for rows in nodes])
        cumulative = np.zeros(len(candidates))
        for node, size in zip(nodes, sizes, strict=True):
            if node.size < 2 or np.unique(y[node]).size < 2:
                continue  # a pure node gains nothing from any attribute
            for c, a in enumerate(candidates):
                cumulative[c] += size * information_gain(X[node, a], y[node], nominal=bool(is_nominal[a]),
                                                         n_classes=n_classes, sample_weight=w[node])
        cumulative /= sizes.sum()
        if cumulative.max() <= 0:
            break
        best = candidates[int(np.argmax(cumulative))]
        chosen.append(best)
        nodes = [part for rows in nodes
                 for part in _split_node(rows, X[:, best], y, w, bool(is_nominal[best]), n_classes)]
    if len(chosen) < k:  # pure before k: the rest in order of root gain
        gains = feature_gains(X, y, is_nominal, n_classes, w)
        chosen += [int(a) for a in top_gain_features(gains, n_features) if a not in chosen][: k - len(chosen)]
    return np.array(chosen, dtype=np.int64)


def feature_boost_update(weights: np.ndarray, subset: np.ndarray, accuracies: list[float],
                         k: int) -> np.ndarray:
    """Eq. 8: scale the weights of ``subset`` by 1 + δ and renormalise.

    δ = ((F − k)/(F − 1)) · ψ((acc − Ā)/σ), ψ(x) = (1 − e^{−4x})/(1 + e^{−4x}), where acc is the
    last of ``accuracies`` and Ā, σ their mean and population standard deviation. No change
    when σ = 0 (every tree so far equally accurate) or when F = 1.
    """
    w = np.asarray(weights, dtype=np.float64).copy()
    n_features = w.size
    acc = np.asarray(accuracies, dtype=np.float64)
    sd = float(acc.std())
    if n_features < 2 or sd == 0.0:
        return w
    z = (acc[-1] - acc.mean()) / sd
    psi = (1.0 - math.exp(-4.0 * z)) / (1.0 + math.exp(-4.0 * z))
    delta = (n_features - k) / (n_features - 1) * psi
    w[np.asarray(subset)] *= 1.0 + delta
    return w / w.sum()


def boosted_feature_weights(base, X: np.ndarray, y: np.ndarray, sample_weight: np.ndarray,
                            schema: FeatureSchema, n_classes: int, k: int, iterations: int,
                            init: int, seed: np.random.SeedSequence) -> np.ndarray:
    """§3.6, Table 3: the distribution D_F that feature boosting learns (see the module docstring)."""
    n_features = X.shape[1]
    weights = np.full(n_features, 1.0 / n_features)
    draws_seed, *tree_seeds = seed.spawn(iterations + 1)
    rng = np.random.default_rng(draws_seed)
    make = MemberFactory(base)
    accuracies: list[float] = []
    total = sample_weight.sum()
    for t, tree_seed in enumerate(tree_seeds, start=1):
        subset = np.sort(rng.choice(n_features, size=k, replace=False, p=weights))
        tree = fit_member(make(member_seed(tree_seed)), X[:, subset], y, sample_weight,
                          schema.select(subset), n_classes)
        correct = member_classify(tree, X[:, subset]) == y
        accuracies.append(float(sample_weight[correct].sum() / total))
        if t > init:
            weights = feature_boost_update(weights, subset, accuracies, k)
    return weights


class FeatureSubsetEnsemble(EncodedClassifier):
    """Bagged base learners on feature subsets of size ``k``, chosen by ``strategy``.

    Parameters
    ----------
    strategy:
        ``"random"``, ``"top_gain"``, ``"cumulative_gain"`` or ``"feature_boost"`` (see the
        module docstring).
    k:
        Features per member, capped at the number of features.
    n_estimators:
        Members (25 in the source's tables).
    estimator:
        The member learner; ``None`` means Weka-default J48 (C4.5, the source's learner).
    boost_iterations:
        Feature-boosting rounds; ``None`` means ``n_estimators`` (§3.6).
    boost_init:
        Rounds before feature boosting starts updating ``D_F``.
    random_state:
        Seed (int, SeedSequence, Generator or None). Member ``i`` draws its subset, replicate
        and learner seed from its own child stream, so with a fixed ``D_F`` the first members
        do not depend on ``n_estimators``.

    Attributes
    ----------
    estimators_: fitted members. subsets_: each member's feature indices (sorted).
    estimator_weights_: each member's vote weight a_i (training-set accuracy).
    feature_distribution_: D_F, from which the subsets were drawn (sums to 1).
    feature_importances_: the same distribution (scikit-learn's name for it).
    feature_gains_: information gain of every feature on the training set.
    k_: the subset size used (``k`` capped).
    """

    display_name = "Feature Subset Ensemble"

    _parameter_constraints = {
        **ENSEMBLE_CONSTRAINTS,
        "strategy": [StrOptions(set(STRATEGIES))],
        "k": [POSITIVE_INT],
        "boost_iterations": [POSITIVE_INT, None],
        "boost_init": [NumberInterval(numbers.Integral, 0, None, closed="left")],
    }
    fit_cost = FitCost(6.8e-7, ensemble=True, subset="k", engine="c45")
    renamed_parameters = {"base_estimator": "estimator"}
    sample_weight_departure = RESAMPLED_DEPARTURE

    def __init__(self, strategy: str = "random", k: int = 2, n_estimators: int = 25,
                 estimator=None, boost_iterations: int | None = None, boost_init: int = 2,
                 random_state=None):
        self.strategy = strategy
        self.k = k
        self.n_estimators = n_estimators
        self.estimator = estimator
        self.boost_iterations = boost_iterations
        self.boost_init = boost_init
        self.random_state = random_state

    def _fit_encoded(self, X: np.ndarray, y: np.ndarray, sample_weight: np.ndarray,
                     schema: FeatureSchema, n_classes: int) -> None:
        base = default_base_estimator() if self.estimator is None else self.estimator
        n_features = X.shape[1]
        k = min(int(self.k), n_features)
        boost_seed, members_seed = as_seed_sequence(self.random_state).spawn(2)
        self.feature_gains_ = feature_gains(X, y, schema.is_nominal, n_classes, sample_weight)
        fixed: np.ndarray | None = None
        if self.strategy == "random":
            dist = np.full(n_features, 1.0 / n_features)
        elif self.strategy == "feature_boost":
            iterations = self.n_estimators if self.boost_iterations is None else self.boost_iterations
            dist = boosted_feature_weights(base, X, y, sample_weight, schema, n_classes, k,
                                           iterations, self.boost_init, boost_seed)
        else:
            fixed = (top_gain_features(self.feature_gains_, k) if self.strategy == "top_gain"
                     else cumulative_gain_features(X, y, schema.is_nominal, n_classes, k, sample_weight))
            fixed = np.sort(fixed)
            dist = np.zeros(n_features)
            dist[fixed] = 1.0 / k
        make = MemberFactory(base)
        draw = ReplicateSampler(sample_weight)
        total = sample_weight.sum()
        self.estimators_, self.subsets_, weights = [], [], []
        for child in members_seed.spawn(self.n_estimators):
            rng_seed, learner_seed = child.spawn(2)
            rng = np.random.default_rng(rng_seed)
            subset = fixed if fixed is not None else np.sort(
                rng.choice(n_features, size=k, replace=False, p=dist))
            rows = draw(rng)
            member = fit_replicate(make(learner_seed), X[:, subset], y, rows, schema.select(subset),
                                   n_classes)
            correct = member_classify(member, X[:, subset]) == y
            self.estimators_.append(member)
            self.subsets_.append(subset)
            weights.append(float(sample_weight[correct].sum() / total))
        self.estimator_weights_ = np.array(weights)
        self.feature_distribution_ = dist
        self.feature_importances_ = dist
        self.k_ = k
        self.n_classes_ = n_classes

    def _votes(self, X: np.ndarray) -> Iterator[np.ndarray]:
        """Each member's weighted one-hot vote on encoded ``X``, in member order."""
        rows = np.arange(X.shape[0])
        for member, subset, weight in zip(self.estimators_, self.subsets_, self.estimator_weights_,
                                          strict=True):
            vote = np.zeros((X.shape[0], self.n_classes_))
            vote[rows, member_classify(member, X[:, subset])] = weight
            yield vote

    @staticmethod
    def _share(total: np.ndarray) -> np.ndarray:
        sums = total.sum(axis=1, keepdims=True)
        # Every member with zero training accuracy: no weighted vote; share equally.
        return np.divide(total, sums, out=np.full_like(total, 1.0 / total.shape[1]), where=sums > 0)

    def _proba_encoded(self, X: np.ndarray) -> np.ndarray:
        return self._share(sum(self._votes(X)))

    def staged_predict_proba(self, X) -> Iterator[np.ndarray]:
        """Class-vote shares of the first 1, 2, …, n_estimators members (eq. 7 per size).

        How the learning curves over ensemble size (the source's Figs. 10–22) are drawn from
        one fitted ensemble.
        """
        check_is_fitted(self, "estimators_")
        return self.staged_predict_proba_prepared(self._validate_X(X, reset=False))

    def staged_predict_proba_prepared(self, X_encoded: np.ndarray) -> Iterator[np.ndarray]:
        """:meth:`staged_predict_proba` on rows encoded as for :meth:`fit_prepared`."""
        X_encoded = np.asarray(X_encoded, dtype=np.float64)
        total = np.zeros((X_encoded.shape[0], self.n_classes_))
        for vote in self._votes(X_encoded):
            total += vote
            yield self._share(total.copy())
