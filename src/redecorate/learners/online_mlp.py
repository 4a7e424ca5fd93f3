"""The online neural network of Oza §2.1.3: backpropagation, one pass, 1 or 10 steps per example.

The network is :class:`~redecorate.learners.mlp.MLP`'s (nominal-to-binary inputs scaled to
[-1, 1], one sigmoid hidden layer, one sigmoid output per class, squared error, momentum),
trained as a stream: each example, when it arrives, gets ``updates_per_example`` backprop
steps (Oza's "Online Neural Net (1)" and "(10)") and is not seen again. It is *lossy*: the
network depends on the order of the examples, so online ensembles give it Poisson copies as
repeated one-example updates.

The batch network scales its inputs from the training minimum and maximum, which a stream
does not know in advance. Here the scaling follows the running minimum and maximum, and when
they widen the first-layer weights (and their momentum terms) are re-expressed so that the
network computes the same function of the raw inputs as before: a range that grows changes
how later steps move the weights, never what has been learned. (A missing input contributes
0, the centre of the current range, as in the batch network.)
"""

from __future__ import annotations

import numpy as np
from numba import njit

from redecorate.arithmetic import matvec
from redecorate.learners.base import POSITIVE_INT
from redecorate.learners.compilation import announce_compilation
from redecorate.learners.cost import FitCost
from redecorate.learners.features import FeatureSchema
from redecorate.learners.incremental import IncrementalClassifier
from redecorate.learners.mlp import MLP, train_stream
from redecorate.util import as_seed_sequence

announce_compilation()

__all__ = ["OnlineMLP"]


@njit(cache=True, inline="always")
def _widen(low, high, row):  # pragma: no cover - compiled
    """Extend the ranges ``low``/``high`` to take ``row`` in (a missing value, NaN, compares
    false and is skipped; a tie is no change); whether any of them moved."""
    moved = False
    for j in range(row.shape[0]):
        v = row[j]
        if v < low[j]:
            low[j] = v
            moved = True
        if v > high[j]:
            high[j] = v
            moved = True
    return moved


@njit(cache=True)
def _widenings(B, lo, hi):  # pragma: no cover - compiled
    """Where the inputs' running ranges widen: the rows of ``B`` at which some column's
    running minimum or maximum (missing values skipped, a tie no change), starting from
    ``lo``/``hi``, changes, and the ranges from each such row on, ``(rows, lows, highs)``.
    One pass without the full running-range matrices a ufunc's ``accumulate`` would make
    (a tenth of an online bagging fit of mushroom's networks)."""
    n, d = B.shape
    low, high = lo.copy(), hi.copy()
    flags = np.zeros(n, dtype=np.bool_)
    for i in range(n):
        flags[i] = _widen(low, high, B[i])
    count = int(flags.sum())
    rows = np.empty(count, dtype=np.int64)
    lows = np.empty((count, d))
    highs = np.empty((count, d))
    low[:] = lo
    high[:] = hi
    k = 0
    for i in range(n):
        _widen(low, high, B[i])
        if flags[i]:
            rows[k] = i
            lows[k] = low
            highs[k] = high
            k += 1
    return rows, lows, highs


class OnlineMLP(IncrementalClassifier, MLP):
    """Backpropagation network learned online, example by example (Oza's online NN).

    Parameters
    ----------
    updates_per_example:
        backprop steps on each arriving example (Oza: 1 or 10).
    learning_rate, momentum, hidden:
        as :class:`~redecorate.learners.mlp.MLP` (Oza does not give them, spec A4).
    random_state:
        seeds the initial weights.

    ``fit`` is one pass over the rows in the order given (so it is ``streamed``).
    """

    display_name = "Neural Network"

    _parameter_constraints = {
        "updates_per_example": [POSITIVE_INT],
        **{key: MLP._parameter_constraints[key]
           for key in ("learning_rate", "momentum", "hidden", "random_state")},
    }
    # Per update × (weight + NETWORK_ROW_WEIGHTS): as the batch MLP's pass
    # (redecorate.learners.cost.NETWORK_ROW_WEIGHTS).
    fit_cost = FitCost(1.2e-9, network=True, engine="network")
    lossless = False
    streamed = True

    def __init__(self, updates_per_example: int = 1, learning_rate: float = 0.15,
                 momentum: float = 0.9, hidden: int | str = "a", random_state=None):
        self.updates_per_example = updates_per_example
        self.learning_rate = learning_rate
        self.momentum = momentum
        self.hidden = hidden
        self.random_state = random_state

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.poor_score = True  # one pass over the data: weak on small sets
        return tags

    def _reset_stream(self, schema: FeatureSchema, n_classes: int) -> None:
        self._sizes = [0 if c is None else len(c) for c in schema.categories]
        n_inputs = sum(1 if size in (0, 2) else size for size in self._sizes)
        H = self._hidden_units(n_inputs, n_classes)
        rng = np.random.default_rng(as_seed_sequence(self.random_state))
        self.W1_ = rng.uniform(-0.05, 0.05, size=(H, n_inputs + 1))
        self.W2_ = rng.uniform(-0.05, 0.05, size=(n_classes, H + 1))
        self._dW1 = np.zeros_like(self.W1_)
        self._dW2 = np.zeros_like(self.W2_)
        self._lo = np.full(n_inputs, np.inf)
        self._hi = np.full(n_inputs, -np.inf)
        self.input_base_ = np.zeros(n_inputs)
        self.input_range_ = np.ones(n_inputs)
        self.n_hidden_ = H
        self.n_classes_ = n_classes
        self.n_seen_ = 0

    def _grow_classes(self, n_classes: int) -> None:
        extra = n_classes - self.n_classes_
        rng = np.random.default_rng(as_seed_sequence(self.random_state))
        self.W2_ = np.vstack([self.W2_, rng.uniform(-0.05, 0.05, size=(extra, self.W2_.shape[1]))])
        self._dW2 = np.vstack([self._dW2, np.zeros((extra, self._dW2.shape[1]))])
        self.n_classes_ = n_classes

    def _rescale(self, lo: np.ndarray, hi: np.ndarray) -> None:
        """Widen the input ranges to [lo, hi] without changing the network's function."""
        self._lo, self._hi = lo, hi
        seen = np.isfinite(lo) & np.isfinite(hi)
        lo_seen, hi_seen = np.where(seen, lo, 0.0), np.where(seen, hi, 0.0)  # no inf - inf
        half = (hi_seen - lo_seen) / 2.0
        base = (hi_seen + lo_seen) / 2.0
        scale = np.where(half > 0, half, 1.0)
        # z = w0 + sum_j w_j (x_j - b_j) / r_j is kept for every x: w_j' = w_j r_j' / r_j,
        # w0' = w0 + sum_j w_j (b_j' - b_j) / r_j; the momentum terms are steps of the same
        # weights and move with them.
        for W in (self.W1_, self._dW1):
            W[:, 0] += matvec(W[:, 1:], (base - self.input_base_) / self.input_range_)
            W[:, 1:] *= scale / self.input_range_
        self.input_base_, self.input_range_ = base, scale

    def _partial_fit_encoded(self, X: np.ndarray, y: np.ndarray, sample_weight: np.ndarray) -> None:
        """Each example is scaled with the range of the examples up to and including it, so
        the network after a stream is the same however the stream was cut into batches."""
        B = self._binarise(X)
        y = np.ascontiguousarray(y, dtype=np.int64)
        w = np.asarray(sample_weight, dtype=np.float64)
        widened, lows, highs = _widenings(B, self._lo, self._hi)
        starts = [*widened.tolist(), X.shape[0]]
        if not widened.size or widened[0] != 0:
            starts = [0, *starts]
        at = {row: k for k, row in enumerate(widened.tolist())}
        for begin, end in zip(starts[:-1], starts[1:], strict=True):
            if begin in at:
                self._rescale(lows[at[begin]], highs[at[begin]])
            Z = np.ascontiguousarray(np.nan_to_num((B[begin:end] - self.input_base_) / self.input_range_,
                                                   nan=0.0))
            train_stream(Z, y[begin:end], w[begin:end], self.W1_, self.W2_, self._dW1, self._dW2,
                         float(self.learning_rate), float(self.momentum), int(self.updates_per_example))
        self.n_seen_ += X.shape[0]
