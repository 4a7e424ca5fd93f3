"""Expected model change (textbook §11.7.1.3; Settles, Craven & Ray 2008's expected gradient
length), where it is defined for the project's learners: the backpropagation MLP.

The textbook defines it for models trained by optimising an objective G over the labeled set L
with a gradient in the model parameters: with δg_i(x) = ‖∇G(L ∪ {(x, i)}) − ∇G(L)‖ and the
current model's p_i(x),

    C(x) = Σ_i p_i(x) · δg_i(x),        query the x of largest C(x).

The project's :class:`~redecorate.learners.mlp.MLP` (Weka's MultilayerPerceptron) minimises
the squared error G(L) = Σ_{(z, t) ∈ L} ½ Σ_k (t_k − o_k(z))², a *sum* over examples, so
∇G(L ∪ {(x, i)}) − ∇G(L) is exactly the gradient of the one new term, at the current
parameters, whether or not training converged:

    δg_i(x)² = Σ_k δ_k² (1 + ‖h‖²) + Σ_h ε_h² (1 + ‖x̃‖²)

with x̃ the network's (binarised, normalised) inputs, h the hidden activations, o the outputs,
δ_k = (t_k − o_k) o_k (1 − o_k) the output errors for target t = e_i and
ε_h = h_h (1 − h_h) Σ_k W2[k, h] δ_k the back-propagated hidden errors (the "+1" terms are the
biases); p_i(x) is the MLP's normalised output.

The other learners have no such gradient: J48, Random Forests and Naive Bayes are fitted by
counting and greedy splitting, not by descending an objective, and the ensembles (Bagging,
AdaBoost.M1, DECORATE) combine such members, so "the change in the gradient" is undefined for
them; a substitute (e.g. the change in predictions) would be another strategy, not this one.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.special import expit

from redecorate.active.committee import committee_members
from redecorate.arithmetic import matmul
from redecorate.learners.mlp import MLP

__all__ = ["ExpectedModelChange", "mlp_gradient_norms"]


def _sigmoid(z: np.ndarray) -> np.ndarray:
    return expit(np.clip(z, -45.0, 45.0))  # the MLP clips its logistic inputs at ±45


def mlp_gradient_norms(model, X: np.ndarray) -> np.ndarray:
    """δg_i(x) for every encoded row x and class i: ``(n, K)`` gradient norms of the squared
    error of (x, i) in all of a fitted :class:`~redecorate.learners.mlp.MLP`'s weights."""
    Z = model._inputs(np.asarray(X, dtype=np.float64))
    W1, W2 = model.W1_, model.W2_
    hidden = _sigmoid(matmul(Z, W1[:, 1:].T) + W1[:, 0])
    out = _sigmoid(matmul(hidden, W2[:, 1:].T) + W2[:, 0])
    hidden_sq = 1.0 + (hidden * hidden).sum(axis=1)
    input_sq = 1.0 + (Z * Z).sum(axis=1)
    K = W2.shape[0]
    norms = np.empty((Z.shape[0], K))
    for i in range(K):
        target = np.zeros(K)
        target[i] = 1.0
        delta = (target - out) * out * (1.0 - out)
        eps = hidden * (1.0 - hidden) * matmul(delta, W2[:, 1:])
        norms[:, i] = np.sqrt((delta * delta).sum(axis=1) * hidden_sq
                              + (eps * eps).sum(axis=1) * input_sq)
    return norms


@dataclass(frozen=True)
class ExpectedModelChange:
    """C(x) = Σ_i p_i(x) δg_i(x) for a committee of one MLP (larger is more useful)."""

    name = "expected_model_change"
    higher_is_better = True
    needs_pool = True

    def utility(self, raw: np.ndarray, output) -> np.ndarray:
        return raw

    def compute(self, output, class_counts, pool, m: int) -> np.ndarray:
        members = committee_members(pool.model)
        if len(members) != 1 or not isinstance(members[0], MLP):
            raise ValueError(
                "expected model change is defined for a gradient-trained model: a single MLP "
                f"(got {type(pool.model).__name__}); see redecorate.active.model_change"
            )
        p = output.proba[0]
        return (p * mlp_gradient_norms(members[0], pool.X[pool.candidates])).sum(axis=1)
