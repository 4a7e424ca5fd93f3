"""Ensemble diversity as the dissertation measures it (§3.1.1, Eqs. 3.1–3.2).

Diversity is the disagreement of the members with the *ensemble's* prediction, not
pairwise disagreement: d_i(x) = 1 if C_i(x) ≠ C*(x), averaged over the n members and
the m examples. It estimates the probability that a member disagrees with the whole
committee, which is what DECORATE tries to raise; §4.4 correlates it with error
reduction, for which it also needs the members' own mean error
(:func:`fitted_member_error`: the "ensemble error reduction" of Cunningham & Carney 2000
is that mean minus the ensemble's error).
"""

from __future__ import annotations

import numpy as np

__all__ = ["ensemble_diversity", "fitted_ensemble_diversity", "fitted_member_error"]


def ensemble_diversity(member_predictions, ensemble_prediction) -> float:
    """Eq. 3.2: ``(1/(n m)) Σ_i Σ_j [C_i(x_j) ≠ C*(x_j)]``.

    Parameters
    ----------
    member_predictions:
        Array-like ``(n_members, m)`` of predicted labels, one row per member.
    ensemble_prediction:
        Array-like ``(m,)`` of the ensemble's predicted labels on the same examples.
    """
    members = np.asarray(member_predictions)
    ensemble = np.asarray(ensemble_prediction)
    if members.ndim != 2:
        raise ValueError(f"member_predictions must be (n_members, m), got shape {members.shape}")
    if ensemble.shape != (members.shape[1],):
        raise ValueError(
            f"ensemble_prediction has shape {ensemble.shape}; expected ({members.shape[1]},) "
            "to match member_predictions"
        )
    if members.size == 0:
        raise ValueError("diversity is undefined for an empty ensemble or an empty example set")
    return float(np.mean(members != ensemble[None, :]))


def _member_codes(estimator, X) -> np.ndarray | None:
    """Arg-max class code of every member on ``X``, ``(n_members, m)``; None if no members.

    Members are fitted on codes 0..K-1 of ``estimator.classes_`` and vote with their arg-max
    class (first class on ties, as everywhere in the project).
    """
    from redecorate.learners.base import member_proba

    members = getattr(estimator, "estimators_", None)
    if not members:
        return None
    Xe = estimator.feature_schema_.encode(X)
    return np.stack([np.argmax(member_proba(m, Xe), axis=1) for m in members])


def fitted_ensemble_diversity(estimator, X) -> float:
    """Eq. 3.2 for a fitted project ensemble on the examples ``X`` (e.g. the test fold).

    Members vote with their arg-max class (first class on ties, as everywhere in the
    project) and ``C*(x)`` is the ensemble's own ``predict`` — for AdaBoost.M1 its weighted
    vote (spec Part 8 B.9). A single classifier, or an ensemble that stopped after one
    member, has diversity 0 by definition: its only member always agrees with it.
    """
    member_codes = _member_codes(estimator, X)
    if member_codes is None:
        return 0.0
    classes = np.asarray(estimator.classes_)
    ensemble = np.asarray(estimator.predict(X))
    # Compare class codes: members are fitted on codes 0..K-1 of the full class list.
    lookup = {label: code for code, label in enumerate(classes.tolist())}
    ensemble_codes = np.array([lookup[v] for v in ensemble.tolist()], dtype=np.int64)
    return ensemble_diversity(member_codes, ensemble_codes)


def fitted_member_error(estimator, X, y) -> float:
    """Mean error rate (fraction in [0, 1]) of the ensemble's members, each voting alone.

    ``(1/n) Σ_i (1/m) Σ_j [C_i(x_j) ≠ y_j]``: what §4.4 subtracts the ensemble's error from
    to get the *ensemble error reduction* (Cunningham & Carney 2000). Why a separate number
    rather than a single member's: the reduction is meant to measure what combining gains
    over a typical member, and DECORATE's later members (trained against artificial data) are
    individually weaker than ``C_1``.

    A single classifier is a one-member ensemble: its member error is its own error, and so
    is that of an ensemble that stopped after one member (its only member decides alone). A
    test label outside ``estimator.classes_`` is an error of every member.
    """
    truth = np.asarray(y, dtype=object)
    member_codes = _member_codes(estimator, X)
    if member_codes is None:
        predicted = np.asarray(estimator.predict(X), dtype=object)
        if truth.shape != predicted.shape or truth.size == 0:
            raise ValueError(f"need one label per example, got {truth.shape} for {predicted.shape}")
        return float(np.mean(predicted != truth))
    if truth.shape != (member_codes.shape[1],) or truth.size == 0:
        raise ValueError(
            f"need one label per example, got {truth.shape} for {member_codes.shape[1]} examples"
        )
    labels = np.asarray(estimator.classes_, dtype=object)
    return float(np.mean(labels[member_codes] != truth[None, :]))
