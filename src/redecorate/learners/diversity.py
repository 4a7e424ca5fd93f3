"""Ensemble diversity as the dissertation measures it (§3.1.1, Eqs. 3.1–3.2).

Diversity is the disagreement of the members with the *ensemble's* prediction, not
pairwise disagreement: d_i(x) = 1 if C_i(x) ≠ C*(x), averaged over the n members and
the m examples. It estimates the probability that a member disagrees with the whole
committee, which is what DECORATE tries to raise; §4.4 correlates it with error
reduction.
"""

from __future__ import annotations

import numpy as np

__all__ = ["ensemble_diversity"]


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
