"""Expected error reduction (Roy & McCallum 2001; textbook §11.7.2.1).

For a candidate x, every label i it could get, weighted by the current model's belief p_i(x),
retrain the model on T ∪ {(x, i)} and measure the loss it would then expect on the remaining
unlabeled examples V; query the x of smallest expected loss:

    E(x) = Σ_i p_i(x) · (1/|V|) Σ_{z ∈ V} loss(P^{(x,i)}(z))

with, for the retrained model's distribution P' = P^{(x,i)}(z):

* ``loss="log"``: the entropy −Σ_j P'_j log P'_j (Roy & McCallum's log loss, the model's own
  estimate of its expected log loss; the textbook's k-way criterion);
* ``loss="zero_one"``: 1 − max_j P'_j (the expected 0/1 loss of predicting the most
  probable class). With two classes this is the textbook's Eq. 11.28 up to sign and scale:
  Σ_j |P'_j − 0.5| = 2 max_j P'_j − 1, which is maximised where 1 − max_j P'_j is minimised.

The textbook's V is "the remaining set of instances that has not yet been labeled", scored
for every candidate in the pool, and says only that the method "can be computationally
expensive". Roy & McCallum themselves subsample both: a random subset of candidates and a
random sample of the pool to estimate the loss. So does this implementation, with both
sizes parameters: ``candidates`` candidates drawn uniformly without replacement among the
unlabeled examples (at least the batch size; all of them if fewer remain), and V a uniform
sample of ``evaluation`` unlabeled examples (all if fewer), both drawn afresh at every query
from the learner's ``"eer_candidates"`` / ``"eer_evaluation"`` streams. Candidates outside
the subsample are not scored (NaN) and cannot be queried.

Retraining: the committee's ensemble (or single model) is refitted from scratch on the
labeled examples plus (x, i), in pool order, with the seed the loop's next model would get
(``seed_for(<model class>, |T| + 1)``), the same for every (x, i): differences between
candidates are not blurred by seed noise. A label with p_i(x) = 0 contributes nothing and is
not fitted. Cost per query: Σ_x #{i : p_i(x) > 0} ≤ candidates × K fits on |T| + 1
examples and as many scorings of |V| examples.
"""

from __future__ import annotations

import numbers
import time
from dataclasses import dataclass

import numpy as np
from scipy.special import xlogy

from redecorate.active.scores import weighted_mean_distribution

__all__ = ["EER_LOSSES", "ExpectedErrorReduction", "expected_loss_of"]

EER_LOSSES: tuple[str, ...] = ("log", "zero_one")
"""The losses E(x) can estimate: log loss (entropy) or 0/1 loss (1 − max probability)."""


def expected_loss_of(proba: np.ndarray, loss: str) -> float:
    """Mean estimated loss of a model whose distributions on V are the rows of ``proba``."""
    P = np.asarray(proba, dtype=np.float64)
    if loss == "log":
        return float(-xlogy(P, P).sum(axis=1).mean())
    if loss == "zero_one":
        return float((1.0 - P.max(axis=1)).mean())
    raise ValueError(f"loss must be one of {', '.join(EER_LOSSES)}, got {loss!r}")


def _positive(value: object, name: str) -> int:
    if not isinstance(value, numbers.Integral) or isinstance(value, bool) or value < 1:
        raise ValueError(f"eer {name} must be a positive integer, got {value!r}")
    return int(value)


@dataclass(frozen=True)
class ExpectedErrorReduction:
    """The expected-loss score of :mod:`redecorate.active.expected_error` (smaller is better).

    Parameters: ``loss`` (``"log"`` or ``"zero_one"``), ``candidates`` (how many unlabeled
    examples are scored per query) and ``evaluation`` (|V|, the pool sample the loss is
    estimated on).
    """

    loss: str = "log"
    candidates: int = 20
    evaluation: int = 100

    name = "expected_error"
    higher_is_better = False
    needs_pool = True

    def __post_init__(self) -> None:
        if self.loss not in EER_LOSSES:
            raise ValueError(f"eer loss must be one of {', '.join(EER_LOSSES)}, "
                             f"got {self.loss!r}")
        _positive(self.candidates, "candidates")
        _positive(self.evaluation, "evaluation")

    def bound(self, n_classes: int) -> float:
        """The largest possible expected loss: log K (log loss) or 1 − 1/K (0/1 loss)."""
        return float(np.log(n_classes)) if self.loss == "log" else 1.0 - 1.0 / n_classes

    def utility(self, raw: np.ndarray, output) -> np.ndarray:
        """Expected certainty, bound − E(x) ≥ 0: larger is more useful (for density weights)."""
        return np.maximum(self.bound(output.proba.shape[2]) - raw, 0.0)

    def compute(self, output, class_counts, pool, m: int) -> np.ndarray:
        """E(x) for a random subsample of the candidates, NaN for the others."""
        n = pool.candidates.size
        scores = np.full(n, np.nan)
        if n == 0:
            return scores
        k = min(n, max(self.candidates, m))
        sample = np.sort(np.random.default_rng(pool.seed_for("eer_candidates"))
                         .choice(n, size=k, replace=False))
        unlabeled = np.flatnonzero(pool.labels < 0)
        e = min(unlabeled.size, self.evaluation)
        V = np.sort(np.random.default_rng(pool.seed_for("eer_evaluation"))
                    .choice(unlabeled, size=e, replace=False))
        X_eval = pool.X[V]
        labeled = np.flatnonzero(pool.labels >= 0)
        belief = weighted_mean_distribution(output.proba, output.weights)
        seed = pool.seed_for(type(pool.committee.ensemble).__name__, labeled.size + 1)
        started = time.perf_counter()
        fits = 0
        for j in sample:
            x = int(pool.candidates[j])
            rows = np.sort(np.append(labeled, x))
            y = pool.labels[rows].copy()
            at = int(np.searchsorted(rows, x))
            total = 0.0
            for label in np.flatnonzero(belief[j] > 0):
                y[at] = label
                model = pool.committee.fit(pool.X[rows], y, pool.schema, pool.n_classes, seed)
                out = pool.committee.outputs(model, X_eval)
                total += belief[j, label] * expected_loss_of(
                    weighted_mean_distribution(out.proba, out.weights), self.loss)
                fits += 1
            scores[j] = total
        pool.log("eer", time.perf_counter() - started, fits)
        return scores
