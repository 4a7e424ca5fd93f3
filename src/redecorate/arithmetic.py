"""Reductions whose result is the same on every CPU, BLAS kernel and thread count.

Why: numpy sends ``dot``, ``@``, ``tensordot``, ``inner`` and ``linalg`` products to BLAS
(OpenBLAS in the wheels), which picks its kernel by CPU when it is loaded (Haswell, SkylakeX,
Sandybridge, ...; ``OPENBLAS_CORETYPE`` forces one) and splits long products between threads.
Each kernel adds the terms of a sum in its own order, so the same inputs give sums that differ
in the last bit from one machine to the next. Where such a sum decides something discrete (a
ranking of pool examples, an accept/reject, an arg-max) a last-bit difference becomes a
different labelling order and a different learning curve: the committed ActiveDecorate
records once reproduced only on AVX-512 machines.

Every product here is written as numpy element-wise operations (one IEEE rounding each; numpy
never fuses a multiply and an add) and numpy reductions, whose order numpy fixes in its own
source for every CPU (pairwise summation along a contiguous axis, in index order along any
other). So each function has one stated order of operations, and its result is a function of
its inputs alone. They are used wherever a product can reach a record; the speed they cost is
measured in ``benchmarks/fixed_order_arithmetic.py``.

Ties are the other half of a reproducible choice: :data:`TIE_GRID_BITS` and
:func:`on_tie_grid` say when two utilities are equal (:func:`redecorate.active.selection.top_m`).
"""

from __future__ import annotations

import numpy as np

__all__ = ["TIE_GRID_BITS", "matmul", "matvec", "on_tie_grid", "row_norms", "weighted_sum"]


def weighted_sum(weights, arrays) -> np.ndarray:
    """Σ_i w_i A_i over the first axis of ``arrays``, added in index order (member by member).

    ``weights`` has shape ``(m,)`` and ``arrays`` ``(m, ...)``; the result has the shape of
    one ``A_i``. With one member of weight 1 the result is that member's array exactly.
    """
    w = np.asarray(weights, dtype=np.float64)
    A = np.asarray(arrays, dtype=np.float64)
    if w.ndim != 1 or A.shape[:1] != w.shape:
        raise ValueError(f"weighted_sum needs one weight per array: weights {w.shape}, arrays {A.shape}")
    if w.size == 0:
        raise ValueError("weighted_sum needs at least one array")
    out = w[0] * A[0]
    for i in range(1, w.size):
        out += w[i] * A[i]
    return out


def matvec(A, x) -> np.ndarray:
    """``A @ x`` for a 2-D ``A``: each row's products with ``x`` summed by numpy along the row
    (pairwise summation in a fixed blocking)."""
    A = np.asarray(A, dtype=np.float64)
    x = np.asarray(x, dtype=np.float64)
    if A.ndim != 2 or x.shape != (A.shape[1],):
        raise ValueError(f"matvec needs (n, d) and (d,), got {A.shape} and {x.shape}")
    return np.ascontiguousarray(A * x).sum(axis=1)


def matmul(A, B) -> np.ndarray:
    """``A @ B`` for 2-D arrays: the outer products of A's columns and B's rows added in
    column order (``k = 0, 1, ...``), an ``(n, p)`` array per term."""
    A = np.asarray(A, dtype=np.float64)
    B = np.asarray(B, dtype=np.float64)
    if A.ndim != 2 or B.ndim != 2 or A.shape[1] != B.shape[0]:
        raise ValueError(f"matmul needs (n, d) and (d, p), got {A.shape} and {B.shape}")
    out = np.zeros((A.shape[0], B.shape[1]))
    for k in range(A.shape[1]):
        out += A[:, k, None] * B[None, k, :]
    return out


def row_norms(A) -> np.ndarray:
    """The Euclidean norm of every row of a 2-D array (``np.linalg.norm(A, axis=1)``)."""
    A = np.asarray(A, dtype=np.float64)
    return np.sqrt(np.ascontiguousarray(A * A).sum(axis=1))


TIE_GRID_BITS = 40
"""Utilities are compared on a grid of 2^-40 (about 1e-12) of the largest magnitude among them.

Why a grid: a committee's scores are sums and differences of member probabilities, so two
examples the committee scores equally in exact arithmetic (the same leaf fractions in
another member order, a margin 0.6 − 0.3 against 0.5 − 0.2) can differ in the last bit, and
an exact comparison would rank them by rounding instead of breaking the tie at random, as
the dissertation says to (spec §1.6). Rounding leaves an error of a few 2^-52 of the largest
term; the probabilities of committees of trees grown on at most a few thousand examples are
fractions whose distinct values lie far further apart than 2^-40. A power of two keeps the
scaling exact, so the grid value is a function of the utilities alone."""


def on_tie_grid(values) -> np.ndarray:
    """``values`` rounded to :data:`TIE_GRID_BITS` bits below the largest magnitude: the
    numbers a ranking compares. All-zero (or empty) input is returned as it is."""
    v = np.asarray(values, dtype=np.float64)
    top = float(np.max(np.abs(v))) if v.size else 0.0
    if top == 0.0 or not np.isfinite(top):
        return v.copy()
    quantum = np.ldexp(1.0, int(np.frexp(top)[1]) - TIE_GRID_BITS)
    return np.round(v / quantum) * quantum
