"""The J48 engine grows, prunes and predicts bit for bit what it did before it was made faster.

Why: committed records are reused by unit key (``records_from``); a change of the engine that
moved one tree by one bit would make new runs silently disagree with the committed ones.
Every speed lever of :mod:`redecorate.learners.c45_engine` is meant to be exact, so the trees
of fixed cases are pinned by digest: the digests below were produced by the engine before the
levers (commit 9bcb5d8) and must not change. A failure names the case; if a change of the
trees is intended, it is a change of records too, and the committed runs must be recomputed.

The cases cover each path a lever touches: whole and fractional weights (the n·log n table
applies to whole ones only), missing values travelling fractionally, numeric ties (the order
of rows within a tie decides the sums with fractional weights), nominal attributes below a
split on themselves, a nominal attribute with more than 64 values, multiplicities, pruning
with and without subtree raising, collapsing off, the MDL correction off, the random-tree mode
and a tiny ``min_instances``. The data come from PCG64's raw 64-bit stream through exact
arithmetic, so they are the same on every machine and numpy version.
"""

from __future__ import annotations

import hashlib
from typing import Any

import numpy as np
import pytest

from redecorate.learners import c45_engine

#: Digest of every tree array and of the class probabilities (plain and Laplace) per case,
#: produced by the engine at commit 9bcb5d8, before the speed levers.
DIGESTS = {
    "pruned mixed whole weights":
        "451a903dcef93a0185d834091eddda4d680137f14f2279040bea6014dbaf60bd",
    "pruned mixed missing values":
        "cb13e6269623c35baaa7da594557a5ba50550ff6c1f67f0a663e028331c53e89",
    "pruned fractional weights missing ties":
        "900d9fad994cf21ce92c27cf51589cb7e278e3f3d21d827bc1fe56a36c2e59b3",
    "pruned fractional weights ties":
        "c9aebbd2db7036df1c7abfc7e6994556c74d57366aebe325465cf2db4cd1d9ae",
    "pet numeric whole weights":
        "61cfb1bfcd119646b7b1ca1a109c0e4d2011b8e0743db86cc2da8b51cf86e6e6",
    "pet counts missing":
        "ceb2ea2d8f3f81731cbbfcded4683eda19e3453fe510d27eb88e9cc12cdfde6e",
    "pruned counts all nominal missing":
        "1aafc2c3021c2a7fdde8ca596cad53bcc544a44e90d4f96ff1a2094d086a2118",
    "all nominal no raising":
        "09186ba798de2e963ebff6261cab4e038e91afcca427a38c364cda83412758f4",
    "no collapse no mdl":
        "654490b4f5808423f6a546453650b5f0b3c818e2451110fe0c751595a24dc75b",
    "many-valued nominal":
        "0231dabdd3d2a4ae8485debea653801a0e3dd9499ceab72322f62dbc08bdea6d",
    "random trees":
        "9bfb97a6f3711bbfac8ba937d094cbca8e87b0be179ac3068b3b28a63346893f",
    "tiny min_instances":
        "56858955b6b98c0d34d4ccb49bf04faebd75e664d27d1f597e17d6b4de3e9466",
    "confidence 0.1":
        "921816ba4b46eeb73c86845d90acffefd0c38545f7dd453534489ea603c70e01",
}


def _uniform(seed: int, shape: tuple[int, ...]) -> np.ndarray:
    """Doubles in [0, 1) from PCG64's raw stream (53 bits each), stable across numpy versions."""
    raw = np.random.PCG64(seed).random_raw(int(np.prod(shape)))
    return ((raw >> np.uint64(11)).astype(np.float64) * 2.0**-53).reshape(shape)


def _data(seed: int, n: int, numeric: int, nominal: tuple[int, ...], k: int, *, missing: float = 0.0,
          ties: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(X, y, nominal sizes): numeric columns first (rounded to ``ties`` steps when given, so
    values repeat), then nominal codes; the class depends on the first columns plus noise."""
    u = _uniform(seed, (n, numeric + len(nominal) + 2))
    cols = []
    for j in range(numeric):
        v = u[:, j] * 10.0
        cols.append(np.floor(v * ties) / ties if ties else v)
    for j, size in enumerate(nominal):
        cols.append(np.floor(u[:, numeric + j] * size))
    X = np.column_stack(cols)
    score = u[:, 0] + (X[:, numeric] / max(nominal[0], 1) if nominal else 0.0) + 0.6 * u[:, -2]
    y = np.minimum(np.floor(score / score.max() * k), k - 1).astype(np.int64)
    if missing:
        X[u[:, -1][:, None] * np.arange(1, X.shape[1] + 1) % 1.0 < missing] = np.nan
    nom = np.array([0] * numeric + list(nominal), dtype=np.int64)
    return X, y, nom


def _weights(seed: int, n: int, kind: str) -> tuple[np.ndarray, np.ndarray]:
    """(weights, multiplicities): ones, bootstrap-like draw counts, or fractional weights."""
    u = _uniform(seed + 1000, (n,))
    mult = np.ones(n, dtype=np.int64)
    if kind == "ones":
        return np.ones(n), mult
    if kind == "counts":
        mult = 1 + np.floor(u * 3).astype(np.int64)
        return mult.astype(np.float64), mult
    return 0.25 + u * 1.5, mult


#: name -> (data arguments, weights, build_tree options)
CASES: dict[str, tuple[dict[str, Any], str, dict[str, Any]]] = {
    "pruned mixed whole weights": (dict(seed=1, n=300, numeric=4, nominal=(3, 4), k=3), "ones", {}),
    "pruned mixed missing values": (dict(seed=2, n=300, numeric=4, nominal=(3, 4), k=3, missing=0.15),
                                    "ones", {}),
    "pruned fractional weights missing ties": (
        dict(seed=3, n=400, numeric=3, nominal=(5,), k=2, missing=0.1, ties=4), "fractional", {}),
    "pruned fractional weights ties": (dict(seed=4, n=400, numeric=3, nominal=(2,), k=4, ties=3),
                                       "fractional", {}),
    "pet numeric whole weights": (dict(seed=5, n=500, numeric=6, nominal=(), k=5), "ones",
                                  dict(prune=False)),
    "pet counts missing": (dict(seed=6, n=400, numeric=3, nominal=(3, 3, 2), k=3, missing=0.2), "counts",
                           dict(prune=False)),
    "pruned counts all nominal missing": (dict(seed=7, n=600, numeric=0, nominal=(3, 3, 3, 2, 4, 2), k=2,
                                               missing=0.5), "counts", {}),
    "all nominal no raising": (dict(seed=8, n=500, numeric=0, nominal=(3, 4, 3, 5), k=4), "ones",
                               dict(raising=False)),
    "no collapse no mdl": (dict(seed=9, n=300, numeric=3, nominal=(4,), k=3, missing=0.05), "ones",
                           dict(collapse=False, use_mdl=False)),
    "many-valued nominal": (dict(seed=10, n=400, numeric=2, nominal=(90, 3), k=3, missing=0.05),
                            "ones", dict(collapse=False, prune=False)),
    "random trees": (dict(seed=11, n=300, numeric=4, nominal=(3, 70), k=3, missing=0.1), "counts",
                     dict(prune=False, min_obj=1.0, random_k=2, seed=77)),
    "tiny min_instances": (dict(seed=12, n=200, numeric=2, nominal=(3, 3), k=2, missing=0.1), "ones",
                           dict(min_obj=1e-7)),
    "confidence 0.1": (dict(seed=13, n=300, numeric=3, nominal=(3,), k=2, missing=0.1, ties=2),
                       "fractional", dict(cf=0.1)),
}


def _fit(name: str) -> tuple[list[np.ndarray], np.ndarray, np.ndarray, int]:
    data, weights, options = CASES[name]
    X, y, nom = _data(**data)
    w, mult = _weights(data["seed"], len(y), weights)
    o = dict(min_obj=2.0, use_mdl=True, prune=True, raising=True, collapse=True, cf=0.25, random_k=0,
             seed=0) | options
    k = data["k"]
    tree = c45_engine.build_tree(X, y, w, mult, k, nom, o["min_obj"], o["use_mdl"], o["prune"], o["raising"],
                                 o["collapse"], o["cf"], o["random_k"], o["seed"])
    return list(tree), X, nom, k


def _digest(name: str) -> str:
    tree, X, nom, k = _fit(name)
    # Rows to predict: the training rows, with some values missing and unseen nominal codes.
    test = X.copy()
    test[::7, :] = np.nan
    test[3::11, nom > 0] = nom[nom > 0]
    arrays = [*tree, *(c45_engine.predict_tree(test, *tree, nom, k, laplace) for laplace in (False, True))]
    h = hashlib.sha256()
    for a in arrays:
        h.update(f"{a.dtype.str}{a.shape}".encode())
        h.update(np.ascontiguousarray(a).tobytes())
    return h.hexdigest()


@pytest.mark.parametrize("name", sorted(CASES))
def test_trees_and_predictions_are_those_of_the_engine_before_the_levers(name: str) -> None:
    assert _digest(name) == DIGESTS[name]


def test_the_cases_grow_real_trees() -> None:
    """A digest of stumps would pin little: every case grows a tree with several levels."""
    for name in CASES:
        tree, *_ = _fit(name)
        att, child0, nb = tree[0], tree[2], tree[3]
        inner = np.flatnonzero(att >= 0)
        assert len(inner) >= 3, name
        children = np.concatenate([child0[i] + np.arange(nb[i]) for i in inner])
        assert (att[children] >= 0).any(), name  # an internal node below another


def test_a_row_without_missing_values_takes_the_single_path_to_the_same_probabilities() -> None:
    """Rows that meet no missing value are classified without the frames of ``_probs`` (most
    of DECORATE's predictions: its artificial examples have none). The shortcut must give
    exactly ``_probs``'s values, be taken by every row without missing values, and hand
    back every row that meets one on its path, at a node from which ``_probs`` gives what it
    gives from the root."""
    taken = declined = 0
    for name in CASES:
        tree, X, nom, k = _fit(name)
        test = X.copy()
        test[::7, :] = np.nan
        m = tree[0].shape[0] + 1
        frames = (np.empty(m, dtype=np.int64), np.empty(m), np.empty(m, dtype=np.int64), np.empty((m, k)))
        for laplace in (False, True):
            for row in test:
                fast, general = np.full(k, -1.0), np.empty(k)
                reached = c45_engine._single_path_probs(row, *tree, nom, k, laplace, fast)
                c45_engine._probs(row, *tree, nom, k, laplace, general, *frames)
                if reached < 0:
                    taken += 1
                    assert np.array_equal(fast, general), name
                else:
                    declined += 1
                    assert (fast == -1.0).all() and np.isnan(row).any(), name
                    resumed = np.empty(k)
                    c45_engine._probs(row, *tree, nom, k, laplace, resumed, *frames, reached)
                    assert np.array_equal(resumed, general), name
                if not np.isnan(row).any():
                    assert reached < 0, name
    assert taken > 1000 and declined > 100


def _reference_num_incorrect(dist: np.ndarray) -> float:
    """The training errors of a leaf as the engine computed them before its totals were
    summed in place: class totals in row order, their sum in class order, minus the total of
    the first class above zero by Weka's tolerance (class 0 when none is)."""
    totals = [0.0] * dist.shape[1]
    for i in range(dist.shape[0]):
        for j in range(dist.shape[1]):
            totals[j] += float(dist[i, j])
    best, chosen = 0.0, 0
    for j, t in enumerate(totals):
        if t - best > 1e-6:
            best, chosen = t, j
    s = 0.0
    for t in totals:
        s += t
    return s - totals[chosen]


@pytest.mark.parametrize("case", ["fractions", "whole", "below tolerance", "all zero", "ties"])
def test_a_leafs_errors_summed_in_place_are_those_of_the_class_totals_array(case: str) -> None:
    """``_num_incorrect`` sums each class total as it needs it instead of into an array; the
    sums, their order and the fallback to class 0 when no total exceeds zero stay the same,
    which the digests above reach only through whole trees."""
    rng = np.random.default_rng(7)
    dist = {
        "fractions": rng.random((3, 4)) * 5.0,
        "whole": rng.integers(0, 9, (2, 3)).astype(float),
        "below tolerance": np.array([[3e-7, 1e-7], [2e-7, 0.0]]),
        "all zero": np.zeros((2, 3)),
        "ties": np.array([[1.0, 2.0, 2.0], [1.0, 0.5, 0.5]]),
    }[case]
    assert c45_engine._num_incorrect(dist) == _reference_num_incorrect(dist)
    if case == "below tolerance":  # class 0's total (5e-7) is taken, not zero (which gives 6e-7)
        assert c45_engine._num_incorrect(dist) == pytest.approx(1e-7, rel=1e-9)
