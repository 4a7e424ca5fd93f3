"""Ensemble diversity as the dissertation measures it (§3.1.1, Eqs. 3.1–3.2).

Diversity is the disagreement of the members with the *ensemble's* prediction, not
pairwise disagreement: d_i(x) = 1 if C_i(x) ≠ C*(x), averaged over the n members and
the m examples. It estimates the probability that a member disagrees with the whole
committee, which is what DECORATE tries to raise; §4.4 correlates it with error
reduction.
"""

from __future__ import annotations

import numpy as np

__all__ = ["ensemble_diversity", "fitted_ensemble_diversity"]


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


def fitted_ensemble_diversity(estimator, X) -> float:
    """Eq. 3.2 for a fitted project ensemble on the examples ``X`` (e.g. the test fold).

    Members vote with their arg-max class (first class on ties, as everywhere in the
    project) and ``C*(x)`` is the ensemble's own ``predict`` — for AdaBoost.M1 its weighted
    vote (spec Part 8 B.9). A single classifier, or an ensemble that stopped after one
    member, has diversity 0 by definition: its only member always agrees with it.
    """
    from redecorate.learners.base import member_proba

    members = getattr(estimator, "estimators_", None)
    if not members:
        return 0.0
    schema = estimator.feature_schema_
    Xe = schema.encode(X)
    classes = np.asarray(estimator.classes_)
    ensemble = np.asarray(estimator.predict(X))
    # Compare class codes: members are fitted on codes 0..K-1 of the full class list.
    lookup = {label: code for code, label in enumerate(classes.tolist())}
    ensemble_codes = np.array([lookup[v] for v in ensemble.tolist()], dtype=np.int64)
    member_codes = np.stack([np.argmax(member_proba(m, Xe), axis=1) for m in members])
    return ensemble_diversity(member_codes, ensemble_codes)
