"""Utility scores of pool examples, computed from a committee's member outputs.

Every function here reads what a committee says about ``n`` pool examples and returns one
number per example. The input is the members' class-probability array ``proba`` of shape
``(members, n, classes)`` (rows sum to one), with optional vote weights ``weights`` of
shape ``(members,)`` and, for the vote-based scores, the members' predicted class codes
``votes`` of shape ``(members, n)``. They are pure array functions so that the query
strategies, the tests and the peer cross-checks all exercise the same code.

Direction differs by score, as in the dissertation (spec §1.6):

=======================  ==========================================  ====================
score                    definition                                  more useful when
=======================  ==========================================  ====================
``probability_margin``   P̂_(1) − P̂_(2) of the committee's weighted   smaller
                         mean distribution (ActiveDecorate, §6.2)
``vote_margin``          votes for the top label − votes for the     smaller
                         runner-up (QBag/QBoost, Abe & Mamitsuka)
``vote_entropy``         entropy of the vote shares (Dagan &         larger
                         Engelson; not used by the thesis, kept for
                         the peer cross-checks)
``js_divergence``        H(Σ w_i P_i) − Σ w_i H(P_i) (§6.4.1)        larger
``local_variance``       Σ_i (p_i0 − p̄_0)² / p̄_min (Bootstrap-LV,    larger
                         §7.2; two classes only)
``local_variance_ext``   mean over classes of the across-member      larger
                         variance (Bootstrap-LV-EXT, §7.2)
``least_confident``      1 − P̂_(1) of the committee's weighted mean  larger
                         distribution (uncertainty sampling)
``predictive_entropy``   H(Σ w_i P_i), the entropy of the weighted   larger
                         mean distribution (entropy sampling;
                         "consensus entropy" for a committee)
``kl_to_mean``           Σ_i w_i KL(P_i ‖ Σ_j w_j P_j) (McCallum &   larger
                         Nigam 1998: QBC's KL divergence to the
                         mean)
=======================  ==========================================  ====================

With uniform weights the JS divergence equals the mean Kullback–Leibler divergence of
each member to the committee's mean (the "KL-to-mean" disagreement of McCallum & Nigam
1998), which is what the peers' ``average_kl_divergence`` computes: the dissertation
itself describes JS as "the average KL divergence of each distribution to the mean".
"""

from __future__ import annotations

import numpy as np
from scipy.special import xlogy

from redecorate.arithmetic import weighted_sum

__all__ = [
    "js_divergence",
    "kl_to_mean",
    "least_confident",
    "local_variance",
    "local_variance_ext",
    "member_votes",
    "normalised_weights",
    "predictive_entropy",
    "probability_margin",
    "vote_counts",
    "vote_entropy",
    "vote_margin",
    "weighted_mean_distribution",
]


def _check_proba(proba) -> np.ndarray:
    P = np.asarray(proba, dtype=np.float64)
    if P.ndim != 3:
        raise ValueError(
            f"proba must have shape (members, n_examples, n_classes), got shape {P.shape}"
        )
    if P.shape[0] == 0:
        raise ValueError("proba has no committee members")
    if not np.isfinite(P).all():
        raise ValueError("proba contains NaN or infinite values")
    return P


def normalised_weights(weights, n_members: int) -> np.ndarray:
    """Vote weights scaled to sum to one (uniform when ``weights`` is None).

    The dissertation's JS footnote: "our experiments use uniform vote weights, normalized to
    sum to one". Negative, non-finite or all-zero weights are refused rather than silently
    turned into a committee that no longer means anything.
    """
    if weights is None:
        return np.full(n_members, 1.0 / n_members)
    w = np.asarray(weights, dtype=np.float64)
    if w.shape != (n_members,):
        raise ValueError(f"weights must have shape ({n_members},), one per member, got {w.shape}")
    if not np.isfinite(w).all() or (w < 0).any() or w.sum() <= 0:
        raise ValueError(f"weights must be finite, non-negative and not all zero, got {w!r}")
    return w / w.sum()


def weighted_mean_distribution(proba, weights=None) -> np.ndarray:
    """The committee's distribution Σ_i w_i P_i, shape ``(n_examples, n_classes)``.

    For DECORATE and Bagging (uniform weights) this is the ensemble's own ``predict_proba``
    (the average of member distributions, §3.2). The terms are added member by member
    (:func:`redecorate.arithmetic.weighted_sum`), never by BLAS, whose kernels add them in
    an order of their own: the margins it feeds rank the pool.
    """
    P = _check_proba(proba)
    return weighted_sum(normalised_weights(weights, P.shape[0]), P)


def _top_two(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Largest and second-largest value of every row (second is 0 with one column)."""
    if rows.shape[1] == 1:
        return rows[:, 0], np.zeros(rows.shape[0])
    part = -np.partition(-rows, 1, axis=1)
    return part[:, 0], part[:, 1]


def probability_margin(proba, weights=None) -> np.ndarray:
    """ActiveDecorate's margin (§6.2): P̂_(1)(x) − P̂_(2)(x) of the committee's distribution.

    Abe & Mamitsuka's vote margin generalised to members that output class probabilities:
    the highest minus the second-highest *committee-averaged* class probability. A small
    margin means the committee is split between two labels, so the example is informative.
    Values lie in [0, 1]; **smaller is more useful**.
    """
    first, second = _top_two(weighted_mean_distribution(proba, weights))
    return first - second


def member_votes(proba) -> np.ndarray:
    """Each member's predicted class code, ``(members, n)``: the first most probable class.

    Committees read from fitted ensembles carry each member's own classification rule
    instead (:class:`~redecorate.active.committee.CommitteeOutput`), which for J48 differs
    from this arg-max only on near-ties.
    """
    return np.argmax(_check_proba(proba), axis=2)


def vote_counts(votes, n_classes: int, weights=None) -> np.ndarray:
    """Summed vote weight per class, ``(n_examples, n_classes)``.

    ``weights=None`` counts one vote per member (QBag). Weights are used *as given*, not
    normalised, so that the counts stay in votes (QBoost's log(1/β) units); scaling never
    changes a ranking.
    """
    V = np.asarray(votes)
    if V.ndim != 2:
        raise ValueError(f"votes must have shape (members, n_examples), got shape {V.shape}")
    if V.shape[0] == 0:
        raise ValueError("votes has no committee members")
    if not np.issubdtype(V.dtype, np.integer):
        if not np.all(np.mod(V, 1) == 0):
            raise ValueError("votes must be integer class codes")
        V = V.astype(np.int64)
    if n_classes < 1 or (V.size and (V.min() < 0 or V.max() >= n_classes)):
        raise ValueError(f"votes must be class codes in [0, {n_classes}), got range "
                         f"[{V.min() if V.size else 0}, {V.max() if V.size else 0}]")
    if weights is None:
        w = np.ones(V.shape[0])
    else:
        w = np.asarray(weights, dtype=np.float64)
        if w.shape != (V.shape[0],) or not np.isfinite(w).all() or (w < 0).any():
            raise ValueError(
                f"weights must be {V.shape[0]} finite non-negative vote weights, got {weights!r}"
            )
    counts = np.zeros((V.shape[1], n_classes))
    cols = np.arange(V.shape[1])
    for member, wi in zip(V, w, strict=True):
        counts[cols, member] += wi
    return counts


def _votes_for(proba, votes) -> tuple[np.ndarray, int]:
    P = _check_proba(proba)
    V = np.argmax(P, axis=2) if votes is None else np.asarray(votes)
    if V.shape != P.shape[:2]:
        raise ValueError(f"votes must have shape {P.shape[:2]} to match proba, got {V.shape}")
    return V, P.shape[2]


def vote_margin(proba, weights=None, *, votes=None) -> np.ndarray:
    """Query by Bagging / Boosting's margin (Abe & Mamitsuka 1998; §6.1).

    Votes for the most popular label minus votes for the second most popular, counted over
    the members' predicted labels (``votes``; the arg-max of ``proba`` when not given).
    ``weights`` weights each member's vote (QBoost with log(1/β_i)); ``None`` counts one
    vote each (QBag). **Smaller is more useful.**
    """
    V, k = _votes_for(proba, votes)
    first, second = _top_two(vote_counts(V, k, weights))
    return first - second


def vote_entropy(proba, weights=None, *, votes=None) -> np.ndarray:
    """Entropy (natural log) of the committee's vote shares; **larger is more useful**.

    Not a score of the dissertation: it is the most common query-by-committee disagreement
    in the peers (scikit-activeml, modAL), kept so that the committee machinery can be
    cross-checked against them. With two classes it ranks examples exactly as
    :func:`vote_margin` does, in the opposite direction.
    """
    V, k = _votes_for(proba, votes)
    counts = vote_counts(V, k, weights)
    shares = counts / counts.sum(axis=1, keepdims=True)
    return -xlogy(shares, shares).sum(axis=1)


def _entropy(P: np.ndarray) -> np.ndarray:
    """Shannon entropy along the last axis, with 0·log 0 = 0."""
    return -xlogy(P, P).sum(axis=-1)


def js_divergence(proba, weights=None) -> np.ndarray:
    """Jensen–Shannon divergence of the members' distributions (§6.4.1, Lin 1991).

    JS(P_1, …, P_n) = H(Σ_i w_i P_i) − Σ_i w_i H(P_i), with H the Shannon entropy (natural
    log; the base rescales every score equally and changes neither rankings nor
    score-proportional sampling) and 0·log 0 = 0. ``weights`` are the members' vote
    weights normalised to sum to one, uniform by default (the dissertation's footnote).
    Zero if and only if all members agree; at most H(w) (log n for uniform weights), reached
    when the members put their mass on disjoint classes. **Larger is more useful.**
    Rounding can leave a tiny negative value for identical members; it is clipped to 0.
    """
    P = _check_proba(proba)
    w = normalised_weights(weights, P.shape[0])
    mean = weighted_sum(w, P)
    js = _entropy(mean) - weighted_sum(w, _entropy(P))
    return np.maximum(js, 0.0)


def local_variance(proba, minority_class: int, weights=None) -> np.ndarray:
    """Bootstrap-LV's score (Saar-Tsechansky & Provost 2001; §7.2), two classes only.

    score_j = Σ_i (p_i(x_j) − p̄_j)² / p̄_{j,min}, where p_i is member i's probability of
    class 0 (the variance is the same for either class), p̄_j its mean over the members and
    p̄_{j,min} the members' mean probability of the *minority* class, a factor that favours
    examples the committee might place in the under-represented class. Which class is the
    minority is the caller's choice (:class:`~redecorate.active.strategy.QueryStrategy`
    takes the class with fewer labeled examples; the dissertation does not say).
    When p̄_{j,min} = 0 every member gives the minority class probability 0, so they agree
    and the score is 0. ``weights`` must be None or uniform: the score is defined for an
    unweighted bootstrap committee. **Larger is more useful.**
    """
    P = _check_proba(proba)
    if weights is not None and not np.allclose(weights, np.asarray(weights).ravel()[0]):
        raise ValueError("local_variance is defined for an unweighted committee; "
                         "use vote_weights='uniform'")
    if P.shape[2] != 2:
        raise ValueError(
            f"local_variance (Bootstrap-LV) is defined for two classes, got {P.shape[2]}; "
            "use local_variance_ext for multi-class problems (for a file that declares classes "
            "no instance has, give its registry entry drop_absent_classes: true)"
        )
    if minority_class not in (0, 1):
        raise ValueError(f"minority_class must be 0 or 1, got {minority_class!r}")
    p0 = P[:, :, 0]
    spread = ((p0 - p0.mean(axis=0)) ** 2).sum(axis=0)
    p_min = P[:, :, minority_class].mean(axis=0)
    out = np.zeros_like(spread)
    np.divide(spread, p_min, out=out, where=p_min > 0)
    return out


def local_variance_ext(proba, weights=None) -> np.ndarray:
    """Bootstrap-LV-EXT's score (§7.2): (1/K) Σ_k Var_i(p_{i,k}(x_j)).

    The mean over classes of the across-member (population) variance of the class
    probability, with no minority-class factor; defined for any number of classes.
    ``weights`` must be None or uniform (an unweighted bootstrap committee). **Larger is
    more useful.**
    """
    P = _check_proba(proba)
    if weights is not None and not np.allclose(weights, np.asarray(weights).ravel()[0]):
        raise ValueError("local_variance_ext is defined for an unweighted committee; "
                         "use vote_weights='uniform'")
    return P.var(axis=0).mean(axis=1)


def least_confident(proba, weights=None) -> np.ndarray:
    """Least-confident uncertainty (Lewis & Gale 1994; textbook §11.7.1.1): 1 − P̂_(1)(x).

    One minus the highest class probability of the committee's weighted mean distribution
    (of a single model's distribution for a committee of one). Values lie in [0, 1 − 1/K];
    **larger is more useful**. With two classes it ranks examples exactly as the margin and
    the entropy do (all three are monotone in |P̂_1 − 0.5|, the textbook's Eq. 11.25).
    """
    return 1.0 - weighted_mean_distribution(proba, weights).max(axis=1)


def predictive_entropy(proba, weights=None) -> np.ndarray:
    """Entropy sampling (textbook Eq. 11.26): H(P̂(x)) = −Σ_k P̂_k log P̂_k (natural log).

    The entropy of the committee's weighted mean distribution (one model's distribution for
    a committee of one); for a committee this is modAL's "consensus entropy". Zero for a
    certain prediction, at most log K for a uniform one; **larger is more useful**.
    """
    return _entropy(weighted_mean_distribution(proba, weights))


def kl_to_mean(proba, weights=None) -> np.ndarray:
    """Query by committee's KL divergence to the mean (McCallum & Nigam 1998; §11.7.1.2).

    Σ_i w_i KL(P_i ‖ P̄) with P̄ = Σ_j w_j P_j, weights normalised to sum to one (uniform
    by default): how far, on average, each member's distribution is from the consensus.
    Computed from its own definition here; it equals :func:`js_divergence` (the generalised
    Jensen-Shannon divergence, H(P̄) − Σ w_i H(P_i)) for any weights, which the tests use as
    a cross-check. Terms with P_ik = 0 contribute 0. **Larger is more useful.**
    """
    P = _check_proba(proba)
    w = normalised_weights(weights, P.shape[0])
    mean = weighted_sum(w, P)
    # KL(P_i || mean) = Σ_k P_ik log P_ik − Σ_k P_ik log mean_k; mean_k > 0 wherever P_ik > 0.
    own = xlogy(P, P).sum(axis=2)
    cross = xlogy(P, np.broadcast_to(mean, P.shape)).sum(axis=2)
    return np.maximum(weighted_sum(w, own - cross), 0.0)
