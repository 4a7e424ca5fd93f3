"""Information density (Settles & Craven 2008; textbook §11.7.3): a representativeness weight.

The textbook's representativeness-based models score a candidate by O(x, V) = H(x) · R(x, V):
a heterogeneity criterion H (any utility, "transformed appropriately for maximization")
times the density R of x with respect to the unlabeled set V, "in a simple version ... the
average similarity of x to the instances in V". Settles & Craven's information density
raises the density to a power β that sets its weight:

    ID(x) = H(x) · ( (1/|U|) Σ_{u ∈ U} sim(x, u) )^β

Readings where the sources leave a choice (``docs/active-learning.md``):

* **Features.** Similarity is computed on the encoded pool: every numeric attribute min-max
  scaled to [0, 1] over the whole pool (the unlabeled features of a pool are known), a
  missing numeric value replaced by its attribute's mean; every nominal attribute one-hot
  coded with each indicator scaled by 1/√2, so that two different values are at distance 1
  (as a numeric attribute at opposite ends of its range, and as Weka's Euclidean distance
  counts a nominal mismatch); a missing nominal value has no indicator set.
* **Similarity.** ``"cosine"`` (Settles & Craven's choice for text): x·u / (‖x‖‖u‖), in
  [0, 1] here since every feature is non-negative, 0 when either vector is all zeros.
  ``"euclidean"``: 1 / (1 + ‖x − u‖), in (0, 1].
* **V** is the current unlabeled pool, the candidate itself included (its similarity to
  itself is the same for every candidate).
* **Scale.** The densities are divided by their maximum over the candidates, so they lie in
  (0, 1] and a constant density is exactly 1 (the unweighted strategy); dividing every
  utility by the same number changes no ranking and no proportional sample.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass

import numpy as np

from redecorate.arithmetic import matmul, matvec, row_norms
from redecorate.learners.features import FeatureSchema

__all__ = ["SIMILARITIES", "Density", "mean_similarity", "similarity_features"]

SIMILARITIES: tuple[str, ...] = ("cosine", "euclidean")
"""How two examples' similarity is measured on :func:`similarity_features`."""


def similarity_features(X: np.ndarray, schema: FeatureSchema) -> np.ndarray:
    """The pool as non-negative numeric vectors for similarity (see the module docstring)."""
    X = np.asarray(X, dtype=np.float64)
    if X.ndim != 2 or X.shape[1] != schema.n_features:
        raise ValueError(f"X must be the encoded pool with {schema.n_features} columns, "
                         f"got shape {X.shape}")
    cols = []
    for j, categories in enumerate(schema.categories):
        col = X[:, j]
        if categories is None:
            seen = ~np.isnan(col)
            if not seen.any():
                cols.append(np.zeros((X.shape[0], 1)))
                continue
            lo, hi = col[seen].min(), col[seen].max()
            scaled = (col - lo) / (hi - lo) if hi > lo else np.zeros_like(col)
            scaled[~seen] = scaled[seen].mean()
            cols.append(scaled[:, None])
        else:
            codes = np.arange(len(categories), dtype=np.float64)[None, :]
            cols.append((col[:, None] == codes).astype(np.float64) / np.sqrt(2.0))
    if not cols:
        return np.zeros((X.shape[0], 0))
    return np.hstack(cols)


def mean_similarity(F_candidates: np.ndarray, F_pool: np.ndarray,
                    similarity: str = "cosine") -> np.ndarray:
    """(1/|V|) Σ_{u ∈ V} sim(x, u) for every candidate row x of ``F_candidates``."""
    A = np.asarray(F_candidates, dtype=np.float64)
    B = np.asarray(F_pool, dtype=np.float64)
    if B.shape[0] == 0:
        raise ValueError("the density needs at least one unlabeled example")
    if similarity == "cosine":
        na = row_norms(A)
        nb = row_norms(B)
        An = np.divide(A, na[:, None], out=np.zeros_like(A), where=na[:, None] > 0)
        Bn = np.divide(B, nb[:, None], out=np.zeros_like(B), where=nb[:, None] > 0)
        # mean of dot products = dot with the mean; in a fixed order, since it weighs a ranking
        return np.clip(matvec(An, Bn.mean(axis=0)), 0.0, 1.0)
    if similarity == "euclidean":
        out = np.empty(A.shape[0])
        bb = (B * B).sum(axis=1)
        for start in range(0, A.shape[0], 512):  # bounded memory on large pools
            a = A[start:start + 512]
            d2 = (a * a).sum(axis=1)[:, None] + bb[None, :] - 2.0 * matmul(a, B.T)
            out[start:start + 512] = (1.0 / (1.0 + np.sqrt(np.maximum(d2, 0.0)))).mean(axis=1)
        return out
    raise ValueError(f"similarity must be one of {', '.join(SIMILARITIES)}, got {similarity!r}")


@dataclass(frozen=True)
class Density:
    """The information-density weight ``(mean similarity to the unlabeled pool)^beta``.

    ``beta`` ≥ 0 weighs density against the utility (0: no effect; Settles & Craven use 1);
    ``similarity`` is ``"cosine"`` or ``"euclidean"``.
    """

    beta: float = 1.0
    similarity: str = "cosine"

    def __post_init__(self) -> None:
        if not isinstance(self.beta, numbers.Real) or isinstance(self.beta, bool) \
                or not np.isfinite(self.beta) or self.beta < 0:
            raise ValueError(f"density beta must be a finite number >= 0, got {self.beta!r}")
        if self.similarity not in SIMILARITIES:
            raise ValueError(f"density similarity must be one of {', '.join(SIMILARITIES)}, "
                             f"got {self.similarity!r}")

    def densities(self, pool) -> np.ndarray:
        """The candidates' mean similarity to the unlabeled pool, scaled to max 1."""
        key = "similarity_features"
        F = pool.cache.get(key)
        if F is None:
            F = similarity_features(pool.X, pool.schema)
            pool.cache[key] = F
        d = mean_similarity(F[pool.candidates], F[pool.labels < 0], self.similarity)
        top = d.max() if d.size else 0.0
        return d / top if top > 0 else np.ones_like(d)

    def weights(self, pool) -> np.ndarray:
        """``densities ** beta`` for the candidates of ``pool`` (all 1 when beta is 0)."""
        if self.beta == 0:
            return np.ones(pool.candidates.size)
        return self.densities(pool) ** float(self.beta)
