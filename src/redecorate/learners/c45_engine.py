"""Compiled C4.5 release 8 tree induction, pruning and prediction (the engine behind J48).

The algorithm follows Quinlan (1993) with the continuous-attribute refinements of
Quinlan (1996), in the form Weka 3.6's J48 implements them, because every table of the
dissertation was produced with that implementation:

* a node is a leaf when its weight is below ``2 * min_instances`` or it is pure;
* candidate splits: multiway on nominal attributes (at least two branches holding
  ``min_instances``), binary on numeric ones with C4.5's minimum-split rule
  (``0.1 * weight / n_classes`` clipped to ``[min_instances, 25]``) and only between
  values more than 1e-5 apart;
* information gain is scaled by the known fraction, numeric gains lose the MDL penalty
  ``log2(#candidate thresholds) / weight``; the best gain ratio wins among attributes
  whose gain is at least the average (minus 1e-3);
* the threshold is moved down onto the largest value of the whole training set that
  does not exceed the midpoint;
* missing values travel as fractional instances, proportionally to the branch weights;
* the tree is collapsed where a subtree does not reduce training error, then pruned
  bottom-up with the pessimistic (upper confidence limit) error estimate and subtree
  raising of the largest branch.

Comparisons use Weka's tolerance of 1e-6 (``Utils.SMALL``) so that near-ties resolve the
same way. Everything here is ``numba``-compiled with an on-disk cache: one fit is one
call, with no Python per node.

Tree layout while growing: parallel arrays indexed by node id (``att`` = split attribute
or -1 for a leaf, ``split`` = numeric threshold, ``child0`` = id of the first of ``nbags``
consecutive children, ``empty`` = leaf that received no training weight, ``dref`` and
``drows`` = the node's class weights, one row per branch, as rows of the fit's store ``D``;
row 0 holds the zero distribution every branch without training data shares). The data of
the nodes still to visit live in arenas, a child's above its parent's (:func:`_partition`).

Speed without changing a bit (committed records are reused by key, so a tree that moved
by one bit would make new runs disagree with them; ``tests/test_c45_exactness.py`` pins
trees by digest): n·log n from a table where weights are whole (:func:`nlogn_table`),
numeric attributes sorted once per fit (:func:`presort`), a nominal attribute split on
above a node neither evaluated nor counted, scratch buffers while comparing attributes and
while pruning (no array made per attribute, node or pruning decision), and arenas instead
of per-node arrays. Each keeps every sum in its order; ``docs/performance.md`` has their
measured effect.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from redecorate.learners.compilation import announce_compilation

announce_compilation()

SMALL = 1e-6
LOG2 = math.log(2.0)


@njit(cache=True, inline="always")
def _gr(a, b):
    return a - b > 1e-6


@njit(cache=True, inline="always")
def _eq(a, b):
    return (a - b < 1e-6) and (b - a < 1e-6)


@njit(cache=True, inline="always")
def _log_func(num):
    if num < 1e-6:
        return 0.0
    return num * math.log(num) / 0.6931471805599453


@njit(cache=True)
def nlogn_table(w):
    """``_log_func(i)`` for ``i = 0 .. sum(w)`` when every weight is a whole number, else empty.

    Why: with whole weights (unit weights, draw counts) every class count at a node is a
    whole number, so the n·log n terms of the entropy at each candidate threshold can be
    looked up instead of computed; the table is filled by the same expression, so each
    entry is bit for bit the value it replaces. Above 2**22 total weight the table would
    cost more than it saves, and weights that are not whole never use it.
    """
    tot = 0.0
    for i in range(w.shape[0]):
        if w[i] != math.floor(w[i]):
            return np.empty(0)
        tot += w[i]
    if not tot < 4194304.0:
        return np.empty(0)
    n = int(tot) + 1
    out = np.empty(n)
    for i in range(n):
        out[i] = _log_func(float(i))
    return out


@njit(cache=True, inline="always")
def _nlogn(x, lut):
    """``_log_func(x)``, from the table when one is given (``x`` then a whole number)."""
    if lut.shape[0] > 0:
        return lut[int(x)]
    return _log_func(x)


@njit(cache=True, inline="always")
def _class_total(dist, j):
    """Class j's weight over the branches of ``dist``, summed in branch order (as the
    totals array of the engine before its levers was)."""
    c = 0.0
    for i in range(dist.shape[0]):
        c += dist[i, j]
    return c


@njit(cache=True)
def _ent_of_totals(dist, lut):
    """Unnormalised entropy ``N*H`` of the class totals of ``dist`` (its column sums; a
    one-row view for a single vector of class weights), each total summed as it is needed
    instead of into an array of its own, so no allocation per attribute and node."""
    tot = 0.0
    acc = 0.0
    for j in range(dist.shape[1]):
        c = _class_total(dist, j)
        tot += c
        acc += _nlogn(c, lut)
    return _nlogn(tot, lut) - acc


@njit(cache=True)
def _new_ent(dist, lut):
    """Unnormalised conditional entropy of the classes given the branch."""
    acc = 0.0
    for i in range(dist.shape[0]):
        bag = 0.0
        for j in range(dist.shape[1]):
            acc += _nlogn(dist[i, j], lut)
            bag += dist[i, j]
        acc -= _nlogn(bag, lut)
    return -acc


@njit(cache=True)
def _split_ent(dist, total_with_unknown, lut):
    """Split information with the unknown-valued weight as an extra branch."""
    known = dist.sum()
    if not (known - 0.0 > 1e-6):
        return 0.0
    acc = 0.0
    for i in range(dist.shape[0]):
        bag = 0.0
        for j in range(dist.shape[1]):
            bag += dist[i, j]
        acc -= _nlogn(bag, lut)
    acc -= _nlogn(total_with_unknown - known, lut)
    acc += _nlogn(total_with_unknown, lut)
    return acc


@njit(cache=True)
def _info_gain(dist, total_with_unknown, old_ent, lut):
    known = dist.sum()
    unknown_rate = (total_with_unknown - known) / total_with_unknown
    numerator = (1.0 - unknown_rate) * (old_ent - _new_ent(dist, lut))
    if _eq(numerator, 0.0):
        return 0.0
    return numerator / known


@njit(cache=True)
def _gain_ratio(dist, total_with_unknown, gain, lut):
    denom = _split_ent(dist, total_with_unknown, lut)
    if _eq(denom, 0.0):
        return 0.0
    denom = denom / total_with_unknown
    return gain / denom


@njit(cache=True)
def _max_class(per_class):
    best = 0.0
    idx = 0
    for j in range(per_class.shape[0]):
        if _gr(per_class[j], best):
            best = per_class[j]
            idx = j
    return idx


@njit(cache=True)
def _num_incorrect(dist):
    """The weight outside the majority class: ``pc.sum() - pc[_max_class(pc)]`` of the class
    totals ``pc``, each total summed as it is needed instead of into an array of its own
    (pruning asks this of every leaf below each node it decides on), in the same order."""
    best = 0.0
    chosen = 0.0
    s = 0.0
    for j in range(dist.shape[1]):
        c = _class_total(dist, j)
        s += c
        if j == 0:
            chosen = c  # _max_class's answer when no total exceeds zero
        if _gr(c, best):
            best = c
            chosen = c
    return s - chosen


@njit(cache=True)
def _norm_inverse_upper(cf):
    """z such that P(Z > z) = cf, by bisection on erfc (cf in (0, 0.5])."""
    lo = 0.0
    hi = 10.0
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if 0.5 * math.erfc(mid / math.sqrt(2.0)) > cf:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


@njit(cache=True)
def _add_errs_normal(n, e, z):
    """Upper-limit errors for e >= 1 by the normal approximation with continuity correction."""
    if e + 0.5 >= n:
        return max(n - e, 0.0)
    f = (e + 0.5) / n
    r = (f + (z * z) / (2.0 * n) + z * math.sqrt((f / n) - (f * f / n) + (z * z / (4.0 * n * n)))) / (
        1.0 + (z * z) / n
    )
    return (r * n) - e


@njit(cache=True)
def _add_errs(n, e, cf, z):
    """Pessimistic extra errors: upper confidence limit of the binomial (C4.5's U_CF).

    Below one error the exact e = 0 limit ``n * (1 - cf**(1/n))`` is interpolated
    linearly towards the value at e = 1, as C4.5 does.
    """
    if cf > 0.5:
        return 0.0
    if e < 1.0:
        base = n * (1.0 - cf ** (1.0 / n))
        if e == 0.0:
            return base
        return base + e * (_add_errs_normal(n, 1.0, z) - base)
    return _add_errs_normal(n, e, z)


@njit(cache=True)
def _estimated_errors_dist(dist, cf, z):
    total = dist.sum()
    if _eq(total, 0.0):
        return 0.0
    wrong = _num_incorrect(dist)
    return wrong + _add_errs(total, wrong, cf, z)


# ---------------------------------------------------------------------------------------
# split evaluation
# ---------------------------------------------------------------------------------------


@njit(cache=True)
def _accumulate_nominal(XT, y, idx, wt, a, k, dist, present):
    """Add the node's known values of nominal attribute a into ``dist`` (all zero before),
    in row order; when ``present`` has room, list each value met (first-met order) in it
    and return how many there are."""
    track = present.shape[0] > 0
    n_present = 0
    for t in range(idx.shape[0]):
        v = XT[a, idx[t]]
        if not np.isnan(v):
            c = int(v)
            if track:
                seen = False
                for j in range(k):
                    if dist[c, j] != 0.0:
                        seen = True
                if not seen:
                    present[n_present] = c
                    n_present += 1
            dist[c, y[idx[t]]] += wt[t]
    return n_present


@njit(cache=True)
def _nominal_criteria(crit, nvals, k, total, min_obj, lut):
    """(valid, gain, ratio) of a multiway split whose values hold the class weights ``crit``
    (every value of the attribute, or only those present at the node, in value order)."""
    ok = 0
    for i in range(crit.shape[0]):
        bag = 0.0
        for j in range(k):
            bag += crit[i, j]
        if min_obj - bag < 1e-6:
            ok += 1
    if min_obj < 1e-6:  # a minimum this small is met by the values without weight too
        ok += nvals - crit.shape[0]
    if ok <= 1:
        return False, 0.0, 0.0
    old = _ent_of_totals(crit, lut)
    gain = _info_gain(crit, total, old, lut)
    ratio = _gain_ratio(crit, total, gain, lut)
    return True, gain, ratio


@njit(cache=True)
def _eval_nominal(XT, y, idx, wt, a, nvals, k, total, min_obj, lut, buf, present):
    """Return (valid, gain, ratio) of a multiway split on nominal attribute a.

    The criteria are computed on the values that occur at the node only, in value order:
    a value without weight adds exact zeros to every sum, so the result is the same to the
    last bit, and an attribute with thousands of values (splice's Instance_name) costs in
    proportion to the node's rows rather than to its values.

    ``buf`` (at least ``nvals`` rows, all zero) and ``present`` are scratch space, shared
    by every evaluation of a fit and left all zero again; the winner's distribution is
    built afresh (:func:`_nominal_dist`). Attributes of at most 64 values are counted all
    at once instead where every attribute is evaluated (:func:`_accumulate_nominals`).
    """
    dist = buf[:nvals]
    sparse = nvals > 64  # with fewer values, sorting and copying costs more than it saves
    n_present = _accumulate_nominal(XT, y, idx, wt, a, k, dist, present if sparse else present[:0])
    if sparse and n_present < nvals:
        valid, gain, ratio = _nominal_criteria(dist[np.sort(present[:n_present])], nvals, k, total, min_obj,
                                               lut)
        for i in range(n_present):
            dist[present[i]] = 0.0
    else:
        valid, gain, ratio = _nominal_criteria(dist, nvals, k, total, min_obj, lut)
        dist[:, :] = 0.0
    return valid, gain, ratio


@njit(cache=True)
def _accumulate_nominals(X, y, idx, wt, attrs, noff, nball):
    """The class weights of every value of each nominal attribute in ``attrs`` at the node,
    in one pass over its rows: attribute a's are rows ``noff[a]:noff[a] + nvals`` of
    ``nball`` (zeroed here). Each cell adds the same weights in the same (row) order as
    :func:`_accumulate_nominal` does attribute by attribute; reading a row's attributes
    together, and its class and weight once, is what saves.
    """
    nball[:, :] = 0.0
    for t in range(idx.shape[0]):
        r = idx[t]
        c = y[r]
        w_t = wt[t]
        for q in range(attrs.shape[0]):
            a = attrs[q]
            v = X[r, a]
            if not np.isnan(v):
                nball[noff[a] + int(v), c] += w_t


@njit(cache=True)
def _eval_numeric(XT, y, rows, wrow, mult, a, k, total, min_obj, use_mdl, random_mode, lut, sv, sy, sw,
                  dist):
    """Return (valid, gain, ratio, threshold) of the best binary split on a; ``dist`` (2 x k)
    then holds its class weights.

    ``rows`` are the node's rows with a known value of a, sorted by (value, row)
    (:func:`presort`); ``wrow[row]`` is each one's weight at the node. ``mult[row]`` is how
    many training instances row stands for (see :func:`build_tree`): C4.5's "enough known
    values" test counts instances, not weight. ``sv``, ``sy``, ``sw`` (as long as the fit)
    and ``dist`` are scratch space shared by every evaluation of a fit.
    """
    nk = rows.shape[0]
    dist[:, :] = 0.0
    if nk < 2:
        return False, 0.0, 0.0, 0.0
    n_known = 0
    for r in range(nk):
        row = rows[r]
        sv[r] = XT[a, row]
        sy[r] = y[row]
        sw[r] = wrow[row]
        n_known += mult[row]
    for r in range(nk):
        dist[1, sy[r]] += sw[r]
    known_total = dist.sum()
    if random_mode:
        min_split = min_obj
    else:
        min_split = 0.1 * known_total / k
        if min_split - min_obj < 1e-6:
            min_split = min_obj
        elif min_split - 25.0 > 1e-6:
            min_split = 25.0
        if 2.0 * min_split - n_known > 1e-6:
            return False, 0.0, 0.0, 0.0
    default_ent = _ent_of_totals(dist[1:2], lut)
    best_gain = 0.0
    split_index = -1
    n_index = 0
    last = 0
    bag0 = 0.0
    bag1 = known_total
    for nxt in range(1, nk):
        if sv[nxt - 1] + 1e-5 < sv[nxt]:
            for r in range(last, nxt):
                dist[1, sy[r]] -= sw[r]
                dist[0, sy[r]] += sw[r]
                bag0 += sw[r]
                bag1 -= sw[r]
            if (min_split - bag0 < 1e-6) and (min_split - bag1 < 1e-6):
                g = _info_gain(dist, total, default_ent, lut)
                if _gr(g, best_gain):
                    best_gain = g
                    split_index = nxt - 1
                n_index += 1
            last = nxt
    if n_index == 0 or split_index < 0:
        return False, 0.0, 0.0, 0.0
    if use_mdl:
        best_gain = best_gain - (math.log(n_index) / LOG2) / total
    if best_gain - 0.0 < 1e-6:
        return False, 0.0, 0.0, 0.0
    thr = (sv[split_index + 1] + sv[split_index]) / 2.0
    if thr == sv[split_index + 1]:
        thr = sv[split_index]
    dist[:, :] = 0.0
    for r in range(nk):
        if r <= split_index:
            dist[0, sy[r]] += sw[r]
        else:
            dist[1, sy[r]] += sw[r]
    ratio = _gain_ratio(dist, total, best_gain, lut)
    return True, best_gain, ratio, thr


@njit(cache=True)
def _add_unknown(dist, XT, y, idx, wt, a):
    """Spread the weight of instances missing attribute a over the branches (Weka's
    ``addInstWithUnknown``), so the stored distribution describes the whole node."""
    nb = dist.shape[0]
    probs = np.empty(nb)
    tot = dist.sum()
    for i in range(nb):
        if _eq(tot, 0.0):
            probs[i] = 1.0 / nb
        else:
            probs[i] = dist[i].sum() / tot
    for t in range(idx.shape[0]):
        if np.isnan(XT[a, idx[t]]):
            cls = y[idx[t]]
            for i in range(nb):
                dist[i, cls] += probs[i] * wt[t]


@njit(cache=True)
def _split_point_on_data(XT, rows, a, thr):
    """The largest training value not above the threshold (Weka's ``setSplitPoint``).

    Weka scans the whole training set and moves the threshold onto the largest value
    that does not exceed it (by 1e-6 or more). Its scan also skips a value within 1e-6
    of the best so far, which makes the choice between two such values depend on an
    instance order we have not pinned down (file order reproduces some differential-test
    folds and breaks others); taking the plain maximum agrees with Weka's predictions and
    tree sizes on every fold of the differential test, differing only in the sixth
    decimal of a few printed thresholds.

    ``rows`` are the training rows with a known value of a in ascending order of it
    (:func:`presort`): ``v - thr < 1e-6`` holds on a prefix of them (floating-point
    subtraction is monotone), so the maximum is found by bisection.
    """
    lo = 0
    hi = rows.shape[0]  # the prefix is rows[:lo] once lo == hi
    while lo < hi:
        mid = (lo + hi) // 2
        if XT[a, rows[mid]] - thr < 1e-6:
            lo = mid + 1
        else:
            hi = mid
    if lo == 0:
        return -1.7976931348623157e308
    return XT[a, rows[lo - 1]]


@njit(cache=True)
def presort(XT, nom_sizes):
    """Rows with a known value of each numeric attribute, sorted by (value, row), once per fit.

    ``rows[off[a]:off[a + 1]]`` for attribute a (empty for nominal ones). Why: C4.5 sorts a
    node's known values at every node and attribute (a stable sort, ties in row order);
    a node's rows are always in ascending row order, so the same order is the fit's order
    restricted to the node, and :func:`_partition_sorted` hands each child its part of it.
    """
    d, n = XT.shape
    off = np.zeros(d + 1, dtype=np.int64)
    for a in range(d):
        c = 0
        if nom_sizes[a] == 0:
            for i in range(n):
                if not np.isnan(XT[a, i]):
                    c += 1
        off[a + 1] = off[a] + c
    rows = np.empty(off[d], dtype=np.int64)
    known = np.empty(n, dtype=np.int64)
    vals = np.empty(n)
    for a in range(d):
        if nom_sizes[a] > 0:
            continue
        c = 0
        for i in range(n):
            if not np.isnan(XT[a, i]):
                known[c] = i
                vals[c] = XT[a, i]
                c += 1
        order = np.argsort(vals[:c], kind="mergesort")
        for r in range(c):
            rows[off[a] + r] = known[order[r]]
    return rows, off


@njit(cache=True)
def _which_subset(v, att_is_nominal, thr):
    if np.isnan(v):
        return -1
    if att_is_nominal:
        return int(v)
    if v <= thr:
        return 0
    return 1


@njit(cache=True)
def _reserve(R, W, top, need):
    """The arena ``(R, W)`` (rows and their weights) with room for ``need`` entries above
    ``top``: the same arrays, or larger copies (doubling)."""
    if top + need > R.shape[0]:
        cap = max(2 * R.shape[0], top + need)
        R = _resized(R, cap)
        W = _resized(W, cap)
    return R, W


@njit(cache=True)
def _route(XT, R, W, off, m, a, att_is_nominal, thr, sub):
    """``sub[p]``: the branch of row ``R[off + p]`` under the split (-1 when its value is missing)."""
    for p in range(m):
        sub[p] = _which_subset(XT[a, R[off + p]], att_is_nominal, thr)


@njit(cache=True)
def _reset_dist_into(y, R, W, off, m, sub, dist, probs):
    """The split's class distribution recomputed from the rows ``R[off:off + m]`` (for pruning),
    into ``dist`` (nb x k, its contents replaced), from their branches ``sub``
    (:func:`_route`): the known values first, then the missing ones spread as
    :func:`_add_unknown` spreads them. ``probs`` is scratch."""
    nb = dist.shape[0]
    dist[:, :] = 0.0
    for p in range(m):
        if sub[p] >= 0:
            dist[sub[p], y[R[off + p]]] += W[off + p]
    tot = dist.sum()  # then the missing values, as _add_unknown spreads them
    for i in range(nb):
        if _eq(tot, 0.0):
            probs[i] = 1.0 / nb
        else:
            probs[i] = dist[i].sum() / tot
    for p in range(m):
        if sub[p] < 0:
            cls = y[R[off + p]]
            for i in range(nb):
                dist[i, cls] += probs[i] * W[off + p]


@njit(cache=True)
def _props_into(dist, props):
    """Share of the node's weight in each branch of ``dist`` (uniform when it has none), into
    ``props``: the fraction of an instance with a missing value that each branch receives."""
    nb = dist.shape[0]
    tot = dist.sum()
    for i in range(nb):
        props[i] = dist[i].sum() / tot if tot > 0 else 1.0 / nb


@njit(cache=True)
def _partition(R, W, off, m, sub, props, top, first_last, coff, clen):
    """Partition a node's data by its split: the rows ``R[off:off + m]`` (weights ``W``) go to
    their branches ``sub``, a row with a missing value to every branch with a share
    ``props`` above 1e-6 (its weight times the share: C4.5's fractional instances); each
    branch gets a segment of the arena above ``top``, rows in order (so a node's rows are
    always in ascending order, as the root's are).
    ``first_last``: segments in branch order (else in reverse order), so that the branch
    popped first from a stack holds the topmost one. Returns ``(R, W, new top)``; branch
    i's segment is ``coff[i]``, ``clen[i]`` long."""
    nb = props.shape[0]
    for i in range(nb):
        clen[i] = 0
    n_out = 0
    for p in range(m):
        s = sub[p]
        if s >= 0:
            clen[s] += 1
            n_out += 1
        else:
            for i in range(nb):
                if props[i] > 1e-6:
                    clen[i] += 1
                    n_out += 1
    R, W = _reserve(R, W, top, n_out)
    pos = top
    for j in range(nb):
        i = j if first_last else nb - 1 - j
        coff[i] = pos
        pos += clen[i]
        clen[i] = 0
    for p in range(m):
        s = sub[p]
        if s >= 0:
            q = coff[s] + clen[s]
            R[q] = R[off + p]
            W[q] = W[off + p]
            clen[s] += 1
        else:
            for i in range(nb):
                if props[i] > 1e-6:
                    q = coff[i] + clen[i]
                    R[q] = R[off + p]
                    W[q] = W[off + p] * props[i]
                    clen[i] += 1
    return R, W, pos


@njit(cache=True)
def _leaf_dist(y, idx, wt, k):
    dist = np.zeros((1, k))
    for t in range(idx.shape[0]):
        dist[0, y[idx[t]]] += wt[t]
    return dist


# ---------------------------------------------------------------------------------------
# growing
# ---------------------------------------------------------------------------------------


@njit(cache=True)
def _nominal_dist(XT, y, idx, wt, a, nvals, k):
    """The class weights of each value of nominal attribute a at the node (a new array)."""
    dist = np.zeros((nvals, k))
    _accumulate_nominal(XT, y, idx, wt, a, k, dist, np.empty(0, dtype=np.int64))
    return dist


@njit(cache=True, inline="always")
def _eval_attribute(XT, y, idx, wt, srt, soff, wrow, mult, a, nom_sizes, k, total, min_obj, use_mdl, random_mode,
                    lut, nbuf, present, sv, sy, sw, numd):
    """(valid, gain, ratio, threshold) of attribute a's split at the node: a multiway split
    of a nominal attribute (:func:`_eval_nominal`), the best binary one of a numeric
    attribute (:func:`_eval_numeric`, whose distribution is left in ``numd[a]``)."""
    if nom_sizes[a] > 0:
        ok, g, r = _eval_nominal(XT, y, idx, wt, a, nom_sizes[a], k, total, min_obj, lut, nbuf, present)
        return ok, g, r, 0.0
    ok, g, r, thr = _eval_numeric(XT, y, srt[soff[a]:soff[a + 1]], wrow, mult, a, k, total, min_obj, use_mdl,
                                  random_mode, lut, sv, sy, sw, numd[a])
    return ok, g, r, thr


@njit(cache=True)
def _best_by_gain_ratio(valid, gains, ratios, counts_for_avg):
    """C4.5's choice among the evaluated attributes (``valid``): the best gain ratio among
    those whose gain reaches the average gain of the ones ``counts_for_avg`` admits; -1 if
    none, or if the best ratio is zero (then the node is a leaf)."""
    avg = 0.0
    n_valid = 0
    for a in range(valid.shape[0]):
        if valid[a] and counts_for_avg[a]:
            avg += gains[a]
            n_valid += 1
    if n_valid == 0:
        return -1
    avg = avg / n_valid
    best = -1
    min_result = 0.0
    for a in range(valid.shape[0]):
        if valid[a] and gains[a] >= avg - 1e-3 and _gr(ratios[a], min_result):
            best = a
            min_result = ratios[a]
    if best < 0 or _eq(min_result, 0.0):
        return -1
    return best


@njit(cache=True)
def _select_random_ratio(XT, y, idx, wt, srt, soff, wrow, mult, k, nom_sizes, counts_for_avg, min_obj, use_mdl,
                         random_k, lut, skip, nbuf, present, sv, sy, sw, numd, valid, crit, total, none):
    """C4.5's choice of split restricted to randomly drawn candidates: a J48 random tree.

    Why: the dissertation builds its forests with "J48 as the base learner for the ensemble
    methods" and says it does "not perform any pruning on the random trees" [L377, L513],
    which reads as J48 choosing among F random attributes, not as Weka's ``RandomTree``
    (information gain, no minimum split size, never pruned). So the candidates are drawn as
    in :func:`_select_split`'s random-tree mode (``|random_k|`` of them, more while none is a
    valid split with positive gain unless ``random_k < 0``) and judged as C4.5 judges all
    attributes: numeric splits with C4.5's minimum split size and (``use_mdl``) the MDL
    correction, then the best gain ratio among the valid candidates whose gain reaches
    their average. With ``|random_k|`` at least the number of attributes every attribute is
    a candidate and the tree is J48's.
    """
    d = XT.shape[0]
    gains = crit[0]
    ratios = crit[1]
    thrs = crit[2]
    for a in range(d):
        valid[a] = False
    perm = np.random.permutation(d)
    found = False
    for p in range(d):
        a = perm[p]
        if p >= abs(random_k) and (found or random_k < 0):
            break
        if skip[a]:
            continue
        ok, g, r, thr = _eval_attribute(XT, y, idx, wt, srt, soff, wrow, mult, a, nom_sizes, k, total, min_obj,
                                        use_mdl, False, lut, nbuf, present, sv, sy, sw, numd)
        valid[a] = ok
        gains[a] = g
        ratios[a] = r
        thrs[a] = thr
        if ok and _gr(g, 0.0):
            found = True
    best = _best_by_gain_ratio(valid, gains, ratios, counts_for_avg)
    if best < 0:
        return none
    if nom_sizes[best] > 0:
        return best, thrs[best], _nominal_dist(XT, y, idx, wt, best, nom_sizes[best], k)
    return best, thrs[best], numd[best].copy()


@njit(cache=True)
def _select_split(X, XT, y, idx, wt, srt, soff, wrow, mult, k, nom_sizes, counts_for_avg, min_obj, use_mdl,
                  random_k, random_ratio, lut, skip, nbuf, present, sv, sy, sw, numd, attrs, noff, nball, valid,
                  crit, active):
    """Choose the split of one node: returns (attribute or -1, threshold, dist).

    ``srt``/``soff`` are the node's rows sorted by each numeric attribute (:func:`presort`).
    ``lut`` is the fit's n·log n table (:func:`nlogn_table`); it is used where every weight
    at the node is a whole number (fractions of instances with missing values are not).
    ``skip[a]`` marks the nominal attributes split on above the node (see :func:`_grow`):
    their split is not valid here. The rest is scratch space of the fit, so that comparing
    the attributes allocates nothing: ``wrow`` (weights by row), ``nbuf`` and ``present``
    (:func:`_eval_nominal`), ``sv``, ``sy``, ``sw`` (:func:`_eval_numeric`), ``numd`` (the
    split distribution of each numeric attribute) and ``nball`` (the class weights of the
    nominal attributes ``attrs`` of at most 64 values, :func:`_accumulate_nominals`),
    ``valid`` and ``crit`` (each attribute's validity, and gain, ratio and threshold),
    ``active`` (the attributes of ``attrs`` not skipped here, the only ones counted); only
    the winner's distribution is made into an array of its own. ``X`` and ``XT`` are the
    fit's rows, row-major and column-major.

    Random-tree mode (``random_k != 0``) draws the candidates; ``random_ratio`` then
    chooses among them as C4.5 chooses among all attributes (:func:`_select_random_ratio`)
    instead of by information gain alone.
    """
    d = XT.shape[0]
    node = _leaf_dist(y, idx, wt, k)
    pc = node[0]
    total = pc.sum()
    none = (-1, 0.0, node)
    if total < 2.0 * min_obj - 1e-6 or _eq(total, pc[_max_class(pc)]):
        return none
    if soff[d] > soff[0]:  # only numeric attributes read the weights by row
        for t in range(idx.shape[0]):
            wrow[idx[t]] = wt[t]
    if lut.shape[0] > 0:
        for t in range(wt.shape[0]):
            if wt[t] != math.floor(wt[t]):
                lut = lut[:0]
                break
    if random_k != 0 and random_ratio:
        return _select_random_ratio(XT, y, idx, wt, srt, soff, wrow, mult, k, nom_sizes, counts_for_avg, min_obj,
                                    use_mdl, random_k, lut, skip, nbuf, present, sv, sy, sw, numd, valid, crit,
                                    total, none)
    if random_k != 0:
        # Random-tree mode: K = |random_k| random candidate attributes, more if none has
        # positive gain (Weka's RandomTree); random_k < 0: only K, a leaf if none has.
        perm = np.random.permutation(d)
        best_a = -1
        best_g = 0.0
        best_thr = 0.0
        for p in range(d):
            a = perm[p]
            if p >= abs(random_k) and (best_a >= 0 or random_k < 0):
                break
            if skip[a]:
                continue
            ok, g, r, thr = _eval_attribute(XT, y, idx, wt, srt, soff, wrow, mult, a, nom_sizes, k, total, min_obj,
                                            False, True, lut, nbuf, present, sv, sy, sw, numd)
            if ok and _gr(g, best_g):
                best_a = a
                best_g = g
                best_thr = thr
        if best_a < 0:
            return none
        if nom_sizes[best_a] > 0:
            return best_a, best_thr, _nominal_dist(XT, y, idx, wt, best_a, nom_sizes[best_a], k)
        return best_a, best_thr, numd[best_a].copy()
    gains = crit[0]
    ratios = crit[1]
    thrs = crit[2]
    if attrs.shape[0] > 0:
        n_active = 0
        for q in range(attrs.shape[0]):
            if not skip[attrs[q]]:
                active[n_active] = attrs[q]
                n_active += 1
        _accumulate_nominals(X, y, idx, wt, active[:n_active], noff, nball)
    for a in range(d):
        if skip[a]:
            valid[a] = False
            continue
        if noff[a] >= 0:
            ok, g, r = _nominal_criteria(nball[noff[a]:noff[a] + nom_sizes[a]], nom_sizes[a], k, total, min_obj,
                                         lut)
            thr = 0.0
        else:
            ok, g, r, thr = _eval_attribute(XT, y, idx, wt, srt, soff, wrow, mult, a, nom_sizes, k, total, min_obj,
                                            use_mdl, False, lut, nbuf, present, sv, sy, sw, numd)
        valid[a] = ok
        gains[a] = g
        ratios[a] = r
        thrs[a] = thr
    best = _best_by_gain_ratio(valid, gains, ratios, counts_for_avg)
    if best < 0:
        return none
    if noff[best] >= 0:
        return best, thrs[best], nball[noff[best]:noff[best] + nom_sizes[best]].copy()
    if nom_sizes[best] > 0:
        return best, thrs[best], _nominal_dist(XT, y, idx, wt, best, nom_sizes[best], k)
    return best, thrs[best], numd[best].copy()


@njit(cache=True)
def _resized(a, cap):
    """``a`` copied into a larger array (its first ``a.shape[0]`` entries kept)."""
    out = np.empty(cap, dtype=a.dtype)
    out[: a.shape[0]] = a
    return out


@njit(cache=True)
def _dist(D, t_dref, t_drows, node):
    """The class weights of ``node`` (one row per branch): rows of the fit's store ``D``."""
    return D[t_dref[node]:t_dref[node] + t_drows[node]]


@njit(cache=True)
def _set_dist(D, d_top, t_dref, t_drows, node, dist):
    """Make ``dist`` the class weights of ``node``; returns the store's new top.

    The store ``D`` is one array for every node of a fit (its first row, slot 0, the zero
    distribution shared by branches without data): a node gets rows of its own at the top
    on first use, and keeps them when new class weights fit in them. ``D`` must have room
    (:func:`_store_room`). Why not a typed list of arrays: reading a node's weights from a
    typed list costs reference counting at every read, and pruning reads them often.
    """
    rows = dist.shape[0]
    if t_dref[node] == 0 or rows > t_drows[node]:
        t_dref[node] = d_top
        d_top += rows
    t_drows[node] = rows
    D[t_dref[node]:t_dref[node] + rows] = dist
    return d_top


@njit(cache=True)
def _store_room(D, d_top, rows):
    """The store ``D`` with room for ``rows`` more rows above ``d_top`` (doubling)."""
    if d_top + rows > D.shape[0]:
        out = np.zeros((max(2 * D.shape[0], d_top + rows), D.shape[1]))
        out[:d_top] = D[:d_top]
        return out
    return D


@njit(cache=True)
def _partition_sorted(S, SO, so, d, srow, props, s_top, so_top, child_so, first_last):
    """Hand each branch its part of the node's sorted rows
    (``S[SO[so + b]:SO[so + b + 1]]`` for attribute b), order kept, in a segment of ``S``
    above ``s_top`` with its ``d + 1`` offsets in ``SO`` at ``child_so[i]`` (above
    ``so_top``). ``srow[row]`` is each row's branch (-1: every branch with a share
    ``props`` above 1e-6, as :func:`_partition` sends it). Segments are laid out in branch order, or reversed (``first_last``), as
    :func:`_partition`. Returns ``(S, SO, s_top, so_top)``."""
    nb = props.shape[0]
    if so_top + nb * (d + 1) > SO.shape[0]:
        SO = _resized(SO, max(2 * SO.shape[0], so_top + nb * (d + 1)))
    for j in range(nb):
        i = j if first_last else nb - 1 - j
        child_so[i] = so_top + j * (d + 1)
    for i in range(nb):
        for b in range(d + 1):
            SO[child_so[i] + b] = 0
    n_out = 0
    for b in range(d):  # counts first: SO[child_so[i] + b + 1] = rows of attribute b
        for q in range(SO[so + b], SO[so + b + 1]):
            s = srow[S[q]]
            if s >= 0:
                SO[child_so[s] + b + 1] += 1
                n_out += 1
            else:
                for i in range(nb):
                    if props[i] > 1e-6:
                        SO[child_so[i] + b + 1] += 1
                        n_out += 1
    if s_top + n_out > S.shape[0]:
        S = _resized(S, max(2 * S.shape[0], s_top + n_out))
    pos = s_top
    for j in range(nb):  # then absolute offsets, the branches' segments one after the other
        i = j if first_last else nb - 1 - j
        c = child_so[i]
        SO[c] = pos
        for b in range(d):
            pos += SO[c + b + 1]
            SO[c + b + 1] = pos
    fill = np.empty(nb, dtype=np.int64)
    for b in range(d):
        for i in range(nb):
            fill[i] = SO[child_so[i] + b]
        for q in range(SO[so + b], SO[so + b + 1]):
            row = S[q]
            s = srow[row]
            if s >= 0:
                S[fill[s]] = row
                fill[s] += 1
            else:
                for i in range(nb):
                    if props[i] > 1e-6:
                        S[fill[i]] = row
                        fill[i] += 1
    return S, SO, pos, so_top + nb * (d + 1)


@njit(cache=True)
def _grow(X, XT, y, w, mult, k, nom_sizes, counts_for_avg, min_obj, use_mdl, random_k, lut, srt0, soff0,
          random_ratio=False):
    """Grow the whole tree depth-first with an explicit stack (numba cannot cache recursion).

    Returns the node arrays ``(att, split, child0, nb, empty, dref, drows)`` and ``D``, the
    store of class weights (:func:`_set_dist`). A branch that receives no training data
    becomes an empty leaf at once, exactly as growing it would end (no weight: no split,
    no random draw), and keeps ``dref = 0``, the shared zero distribution. Why: a split on
    a nominal attribute with thousands of values (splice's Instance_name, which random
    trees draw) makes thousands of such branches; giving each one an array, or a
    typed-list entry per field, dominated the time of a random forest. Node arrays grow by
    doubling.

    The data of the nodes waiting on the stack live in arenas, each node's above its
    parent's (:func:`_partition`): its rows and their weights in ``R``/``W``, its rows
    sorted by every numeric attribute in ``S`` with their offsets in ``SO`` (the root's:
    ``srt0``/``soff0``, :func:`presort`; :func:`_partition_sorted`). A node popped from
    the stack is the topmost, so whatever lies above it is free. Nothing is allocated per
    node but its class weights (:func:`_select_split`).

    A nominal attribute split on above a node is not evaluated there: the node's known
    values of it are all one value, so fewer than two branches can hold ``min_obj`` and
    the split is invalid, as evaluating it would find (when ``min_obj`` is below 1e-6,
    C4.5 counts branches without weight as holding it, and such attributes are evaluated).
    """
    d, n = XT.shape
    cap = 64
    t_att = np.full(cap, -1, dtype=np.int64)
    t_split = np.zeros(cap)
    t_child0 = np.full(cap, -1, dtype=np.int64)
    t_nb = np.zeros(cap, dtype=np.int64)
    t_empty = np.zeros(cap, dtype=np.int64)
    t_dref = np.zeros(cap, dtype=np.int64)
    t_drows = np.ones(cap, dtype=np.int64)
    t_parent = np.full(cap, -1, dtype=np.int64)
    D = np.zeros((64, k))
    d_top = 1  # row 0: the zero distribution
    n_nodes = 1  # the root; its distribution is set when it is grown
    skip = np.zeros(d, dtype=np.bool_)
    skips = not min_obj < 1e-6
    nmax = 2
    for a in range(d):
        nmax = max(nmax, nom_sizes[a])
    nbuf = np.zeros((nmax, k))
    present = np.empty(min(n, nmax), dtype=np.int64)
    sv = np.empty(n)
    sy = np.empty(n, dtype=np.int64)
    sw = np.empty(n)
    numd = np.zeros((d, 2, k))
    noff = np.full(d, -1, dtype=np.int64)  # nominal attributes counted all at once
    n_attrs = 0
    rows = 0
    for a in range(d):
        if 0 < nom_sizes[a] <= 64 and random_k == 0:
            noff[a] = rows
            rows += nom_sizes[a]
            n_attrs += 1
    attrs = np.empty(n_attrs, dtype=np.int64)
    n_attrs = 0
    for a in range(d):
        if noff[a] >= 0:
            attrs[n_attrs] = a
            n_attrs += 1
    nball = np.zeros((max(rows, 1), k))
    valid = np.zeros(d, dtype=np.bool_)
    crit = np.zeros((3, d))
    active = np.empty(n_attrs, dtype=np.int64)
    wrow = np.empty(n)
    sub = np.empty(n, dtype=np.int64)
    srow = np.empty(n, dtype=np.int64)
    props = np.empty(nmax)
    coff = np.empty(nmax, dtype=np.int64)
    clen = np.empty(nmax, dtype=np.int64)
    child_so = np.empty(nmax, dtype=np.int64)
    R = np.empty(2 * n + 16, dtype=np.int64)
    W = np.empty(R.shape[0])
    R[:n] = np.arange(n)
    W[:n] = w
    S = np.empty(2 * srt0.shape[0] + 16, dtype=np.int64)
    S[:srt0.shape[0]] = srt0
    SO = np.empty(8 * (d + 1), dtype=np.int64)
    SO[:d + 1] = soff0
    st_cap = 64
    st_node = np.empty(st_cap, dtype=np.int64)
    st_off = np.empty(st_cap, dtype=np.int64)
    st_len = np.empty(st_cap, dtype=np.int64)
    st_so = np.empty(st_cap, dtype=np.int64)
    st_node[0] = 0
    st_off[0] = 0
    st_len[0] = n
    st_so[0] = 0
    n_st = 1
    while n_st > 0:
        n_st -= 1
        node = st_node[n_st]
        off = st_off[n_st]
        m = st_len[n_st]
        so = st_so[n_st]
        top = off + m
        s_top = SO[so + d]
        so_top = so + d + 1
        idx = R[off:top]
        wt = W[off:top]
        if skips:
            p = t_parent[node]
            while p >= 0:
                if nom_sizes[t_att[p]] > 0:
                    skip[t_att[p]] = True
                p = t_parent[p]
        a, thr, dist = _select_split(X, XT, y, idx, wt, S, SO[so:so_top], wrow, mult, k, nom_sizes,
                                     counts_for_avg, min_obj, use_mdl, random_k, random_ratio, lut, skip, nbuf,
                                     present,
                                     sv, sy, sw, numd, attrs, noff, nball, valid, crit, active)
        if skips:
            p = t_parent[node]
            while p >= 0:
                skip[t_att[p]] = False
                p = t_parent[p]
        D = _store_room(D, d_top, dist.shape[0])
        if a < 0:
            d_top = _set_dist(D, d_top, t_dref, t_drows, node, dist)
            if _eq(dist.sum(), 0.0):
                t_empty[node] = 1
            continue
        _add_unknown(dist, XT, y, idx, wt, a)
        nominal = nom_sizes[a] > 0
        if not nominal and (random_k == 0 or random_ratio):
            thr = _split_point_on_data(XT, srt0[soff0[a]:soff0[a + 1]], a, thr)
        nb = dist.shape[0]
        t_att[node] = a
        t_split[node] = thr
        t_nb[node] = nb
        d_top = _set_dist(D, d_top, t_dref, t_drows, node, dist)
        _props_into(dist, props[:nb])
        _route(XT, R, W, off, m, a, nominal, thr, sub)
        for p in range(m):
            srow[R[off + p]] = sub[p]
        R, W, top = _partition(R, W, off, m, sub, props[:nb], top, False, coff, clen)
        S, SO, s_top, so_top = _partition_sorted(S, SO, so, d, srow, props[:nb], s_top, so_top, child_so,
                                                 False)
        first = n_nodes
        if n_nodes + nb > cap:
            cap = max(2 * cap, n_nodes + nb)
            t_att = _resized(t_att, cap)
            t_split = _resized(t_split, cap)
            t_child0 = _resized(t_child0, cap)
            t_nb = _resized(t_nb, cap)
            t_empty = _resized(t_empty, cap)
            t_dref = _resized(t_dref, cap)
            t_drows = _resized(t_drows, cap)
            t_parent = _resized(t_parent, cap)
        for c in range(first, first + nb):
            t_att[c] = -1
            t_split[c] = 0.0
            t_child0[c] = -1
            t_nb[c] = 0
            t_empty[c] = 0
            t_dref[c] = 0
            t_drows[c] = 1
            t_parent[c] = node
        n_nodes += nb
        t_child0[node] = first
        if n_st + nb > st_cap:
            st_cap = max(2 * st_cap, n_st + nb)
            st_node = _resized(st_node, st_cap)
            st_off = _resized(st_off, st_cap)
            st_len = _resized(st_len, st_cap)
            st_so = _resized(st_so, st_cap)
        for i in range(nb - 1, -1, -1):
            if clen[i] == 0:
                t_empty[first + i] = 1
                continue
            st_node[n_st] = first + i
            st_off[n_st] = coff[i]
            st_len[n_st] = clen[i]
            st_so[n_st] = child_so[i]
            n_st += 1
    return (t_att[:n_nodes], t_split[:n_nodes], t_child0[:n_nodes], t_nb[:n_nodes],
            t_empty[:n_nodes], t_dref[:n_nodes], t_drows[:n_nodes], D, d_top)


# ---------------------------------------------------------------------------------------
# collapsing and pruning
# ---------------------------------------------------------------------------------------


@njit(cache=True)
def _subtree_sum(node, t_att, t_child0, t_nb, t_dref, t_drows, D, estimated, cf, z, stack):
    """Sum over the leaves below node of training errors (or pessimistic estimates).

    ``stack`` is scratch of at least as many entries as the tree has nodes (each is pushed
    at most once), the caller's, since pruning asks this at every node it decides on.
    """
    stack[0] = node
    top = 1
    s = 0.0
    while top > 0:
        top -= 1
        n = stack[top]
        if t_att[n] < 0:
            if estimated:
                s += _estimated_errors_dist(_dist(D, t_dref, t_drows, n), cf, z)
            else:
                s += _num_incorrect(_dist(D, t_dref, t_drows, n))
        else:
            for i in range(t_nb[n]):
                stack[top] = t_child0[n] + i
                top += 1
    return s


@njit(cache=True)
def _collapse(t_att, t_child0, t_nb, t_dref, t_drows, D):
    """Turn into leaves the subtrees that do not reduce training error (top-down).

    The training errors of every subtree are summed once, bottom-up (children always have
    larger indices than their parent in a grown tree), in Weka's order: a node's errors
    are the sum of its sons' in branch order (``getTrainingErrors``). Collapsing a node
    changes nothing a later visit reads, since its subtree is not visited any more.
    Why not sum each visited subtree afresh: on wide, deep random trees (thousands of
    leaves under each of many nodes) that was quadratic and cost more than growing.
    """
    n_nodes = len(t_att)
    sub_errors = np.zeros(n_nodes)
    for n in range(n_nodes - 1, -1, -1):
        if t_att[n] < 0:
            if t_dref[n] != 0:  # a branch without data makes no errors
                sub_errors[n] = _num_incorrect(_dist(D, t_dref, t_drows, n))
        else:
            s = 0.0
            for i in range(t_nb[n]):
                s += sub_errors[t_child0[n] + i]
            sub_errors[n] = s
    stack = np.empty(n_nodes, dtype=np.int64)
    stack[0] = 0
    top = 1
    while top > 0:
        top -= 1
        node = stack[top]
        if t_att[node] < 0:
            continue
        sub = sub_errors[node]
        here = _num_incorrect(_dist(D, t_dref, t_drows, node))
        if sub >= here - 1e-3:
            t_att[node] = -1
        else:
            for i in range(t_nb[node]):
                stack[top] = t_child0[node] + i
                top += 1


@njit(cache=True)
def _leaf_errors(y, R, W, off, m, counts, cf, z):
    """:func:`_estimated_errors_dist` of the class weights of ``R[off:off + m]`` (``counts``
    is scratch of k entries): the same sums in the same order."""
    counts[:] = 0.0
    for p in range(m):
        counts[y[R[off + p]]] += W[off + p]
    total = 0.0
    for j in range(counts.shape[0]):
        total += counts[j]
    if _eq(total, 0.0):
        return 0.0
    wrong = total - counts[_max_class(counts)]
    return wrong + _add_errs(total, wrong, cf, z)


@njit(cache=True)
def _route_subtree(node, XT, y, R, W, off, m, k, nom_sizes, t_att, t_split, t_child0, t_nb, t_empty, t_dref,
                   t_drows, D, d_top, cf, z, sub, scratch, store, work):
    """Route the rows ``R[off:off + m]`` down the subtree below node, as C4.5 sends data to a
    subtree while pruning: each node's split distribution is recomputed from the rows that
    reach it, and a row with a missing value goes down every branch with its share.

    ``store`` false: the pessimistic errors if these rows were classified by the subtree
    (C4.5's estimate for subtree raising); ``store`` true: every distribution below node
    replaced by these rows' (after a subtree is raised; the errors are then 0). One routine
    for both, so the estimate and the raised tree see the rows sent the same way.

    The rows are routed in the arena above ``off + m`` (:func:`_partition`) and each node's
    distribution built in ``scratch``; the stack and the other buffers are the tuple
    ``work``, made once per pruning (:func:`_prune`), so nothing is allocated per call.
    Nodes are visited, and leaves' errors summed, in the order of a stack with branches
    pushed in order.
    Returns ``(errors, R, W, d_top)`` (the arena and the store's top, grown if they had to be).
    """
    st_node, st_off, st_len, props, coff, clen, counts, leaf = work
    st_node[0] = node
    st_off[0] = off
    st_len[0] = m
    n_st = 1
    s = 0.0
    while n_st > 0:
        n_st -= 1
        n = st_node[n_st]
        o = st_off[n_st]
        ln = st_len[n_st]
        top = o + ln  # everything above belongs to subtrees already done
        a = t_att[n]
        if a < 0:
            if not store:
                s += _leaf_errors(y, R, W, o, ln, counts, cf, z)
                continue
            leaf[:, :] = 0.0
            for p in range(ln):
                leaf[0, y[R[o + p]]] += W[o + p]
            d_top = _set_dist(D, d_top, t_dref, t_drows, n, leaf)
            if not _eq(leaf.sum(), 0.0):
                t_empty[n] = 0
            continue
        nb = t_nb[n]
        _route(XT, R, W, o, ln, a, nom_sizes[a] > 0, t_split[n], sub)
        dist = scratch[:nb]
        _reset_dist_into(y, R, W, o, ln, sub, dist, props)
        if store:
            d_top = _set_dist(D, d_top, t_dref, t_drows, n, dist)
        _props_into(dist, props[:nb])
        R, W, top = _partition(R, W, o, ln, sub, props[:nb], top, True, coff, clen)
        for i in range(nb):
            st_node[n_st] = t_child0[n] + i
            st_off[n_st] = coff[i]
            st_len[n_st] = clen[i]
            n_st += 1
    return s, R, W, d_top


@njit(cache=True)
def _prune(XT, y, w, k, nom_sizes, raising, t_att, t_split, t_child0, t_nb, t_empty, t_dref, t_drows, D,
           d_top, cf, z):
    """Bottom-up pessimistic pruning with subtree raising.

    An explicit stack of frames replaces recursion: a node is visited once on the way
    down (its data are split for the children) and once after all its children are
    pruned (the decision). A raised node is pushed again, to be pruned anew. The frames'
    data live in one arena, each node's above its parent's (:func:`_partition`); the
    raising estimate and the new distributions route a node's rows above it.

    ``D`` must have a row free for every node (a branch without data that subtree raising
    gives data gets rows of its own).
    """
    n = XT.shape[1]
    nmax = 2
    for a in range(nom_sizes.shape[0]):
        nmax = max(nmax, nom_sizes[a])
    scratch = np.empty((nmax, k))
    sub = np.empty(n, dtype=np.int64)
    props = np.empty(nmax)
    coff = np.empty(nmax, dtype=np.int64)
    clen = np.empty(nmax, dtype=np.int64)
    R = np.empty(4 * n + 16, dtype=np.int64)
    W = np.empty(R.shape[0])
    R[:n] = np.arange(n)
    W[:n] = w
    cap = 64
    st_node = np.empty(cap, dtype=np.int64)
    st_state = np.empty(cap, dtype=np.int64)
    st_off = np.empty(cap, dtype=np.int64)
    st_len = np.empty(cap, dtype=np.int64)
    n_nodes = t_att.shape[0]  # each node is pushed at most once by one routing or sum
    st_sum = np.empty(n_nodes, dtype=np.int64)
    work = (np.empty(n_nodes, dtype=np.int64), np.empty(n_nodes, dtype=np.int64), np.empty(n_nodes, dtype=np.int64),
            np.empty(nmax), np.empty(nmax, dtype=np.int64), np.empty(nmax, dtype=np.int64), np.empty(k),
            np.empty((1, k)))
    st_node[0] = 0
    st_state[0] = 0
    st_off[0] = 0
    st_len[0] = n
    n_st = 1
    while n_st > 0:
        n_st -= 1
        node = st_node[n_st]
        state = st_state[n_st]
        off = st_off[n_st]
        m = st_len[n_st]
        top = off + m
        a = t_att[node]
        if a < 0:
            continue
        nb = t_nb[node]
        if n_st + nb + 1 > cap:
            cap = max(2 * cap, n_st + nb + 1)
            st_node = _resized(st_node, cap)
            st_state = _resized(st_state, cap)
            st_off = _resized(st_off, cap)
            st_len = _resized(st_len, cap)
        if state == 0:
            st_node[n_st] = node
            st_state[n_st] = 1
            st_off[n_st] = off
            st_len[n_st] = m
            n_st += 1
            _props_into(_dist(D, t_dref, t_drows, node), props[:nb])
            _route(XT, R, W, off, m, a, nom_sizes[a] > 0, t_split[node], sub)
            R, W, top = _partition(R, W, off, m, sub, props[:nb], top, False, coff, clen)
            for i in range(nb - 1, -1, -1):
                st_node[n_st] = t_child0[node] + i
                st_state[n_st] = 0
                st_off[n_st] = coff[i]
                st_len[n_st] = clen[i]
                n_st += 1
            continue
        # largest branch (Weka's maxBag: the last of equally heavy branches)
        dist = _dist(D, t_dref, t_drows, node)
        largest = -1
        mx = 0.0
        for i in range(dist.shape[0]):
            bag = dist[i].sum()
            if mx - bag < 1e-6:
                mx = bag
                largest = i
        big = t_child0[node] + largest
        if raising:
            err_largest, R, W, d_top = _route_subtree(big, XT, y, R, W, off, m, k, nom_sizes, t_att, t_split,
                                                      t_child0, t_nb, t_empty, t_dref, t_drows, D, d_top, cf, z,
                                                      sub, scratch, False, work)
        else:
            err_largest = 1.7976931348623157e308
        err_leaf = _estimated_errors_dist(dist, cf, z)
        err_tree = _subtree_sum(node, t_att, t_child0, t_nb, t_dref, t_drows, D, True, cf, z, st_sum)
        if (err_leaf - (err_tree + 0.1) < 1e-6) and (err_leaf - (err_largest + 0.1) < 1e-6):
            t_att[node] = -1
            continue
        if err_largest - (err_tree + 0.1) < 1e-6:
            t_att[node] = t_att[big]
            t_split[node] = t_split[big]
            t_child0[node] = t_child0[big]
            t_nb[node] = t_nb[big]
            t_dref[node] = t_dref[big]  # big is cut loose: node may take over its rows
            t_drows[node] = t_drows[big]
            _, R, W, d_top = _route_subtree(node, XT, y, R, W, off, m, k, nom_sizes, t_att, t_split, t_child0,
                                            t_nb, t_empty, t_dref, t_drows, D, d_top, cf, z, sub, scratch, True, work)
            st_node[n_st] = node
            st_state[n_st] = 0
            st_off[n_st] = off
            st_len[n_st] = m
            n_st += 1


# ---------------------------------------------------------------------------------------
# flattening, entry point and prediction
# ---------------------------------------------------------------------------------------


@njit(cache=True)
def _count_reachable(t_att, t_child0, t_nb):
    stack = np.empty(t_att.shape[0], dtype=np.int64)
    stack[0] = 0
    top = 1
    c = 0
    while top > 0:
        top -= 1
        n = stack[top]
        c += 1
        if t_att[n] >= 0:
            for i in range(t_nb[n]):
                stack[top] = t_child0[n] + i
                top += 1
    return c


@njit(cache=True)
def _flatten(t_att, t_split, t_child0, t_nb, t_empty, t_dref, t_drows, D, k):
    """Copy the reachable tree into compact arrays, breadth-first so siblings are consecutive.

    ``dist`` keeps one row per branch of internal nodes only (rows ``doff[i]:doff[i+1]``),
    needed for missing values and empty branches; ``totals`` holds every node's class
    weights, all a leaf needs. (A leaf made from a collapsed many-valued split would
    otherwise carry one row per value of the attribute.)
    """
    n = _count_reachable(t_att, t_child0, t_nb)
    att = np.full(n, -1, dtype=np.int64)
    split = np.zeros(n)
    child0 = np.full(n, -1, dtype=np.int64)
    nb = np.zeros(n, dtype=np.int64)
    empty = np.zeros(n, dtype=np.bool_)
    doff = np.zeros(n + 1, dtype=np.int64)
    totals = np.zeros((n, k))
    old = np.empty(n, dtype=np.int64)
    old[0] = 0
    head = 0
    tail = 1
    total_rows = 0
    while head < tail:
        o = old[head]
        a = t_att[o]
        att[head] = a
        empty[head] = t_empty[o] != 0
        if a < 0 and t_dref[o] == 0:  # a branch without data: zero totals
            doff[head + 1] = total_rows
            head += 1
            continue
        src = _dist(D, t_dref, t_drows, o)
        for r in range(src.shape[0]):
            for j in range(k):
                totals[head, j] += src[r, j]
        if a >= 0:
            split[head] = t_split[o]
            nb[head] = t_nb[o]
            child0[head] = tail
            for i in range(t_nb[o]):
                old[tail] = t_child0[o] + i
                tail += 1
            total_rows += src.shape[0]
        doff[head + 1] = total_rows
        head += 1
    dist = np.zeros((total_rows, k))
    for i in range(n):
        if att[i] >= 0:
            src = _dist(D, t_dref, t_drows, old[i])
            for r in range(src.shape[0]):
                for j in range(k):
                    dist[doff[i] + r, j] = src[r, j]
    return att, split, child0, nb, empty, doff, dist, totals


@njit(cache=True)
def gains_counted_in_average(nom_sizes, n):
    """Attributes whose gain enters the average-gain threshold.

    Weka leaves out nominal attributes with many values (at least 30 % of the number of
    instances), unless every attribute is such a nominal one.
    """
    d = nom_sizes.shape[0]
    many = np.empty(d, dtype=np.bool_)
    all_many = d > 0
    for a in range(d):
        many[a] = nom_sizes[a] > 0 and not (0.3 * n - nom_sizes[a] > 1e-6)
        all_many = all_many and many[a]
    out = np.empty(d, dtype=np.bool_)
    for a in range(d):
        out[a] = all_many or not many[a]
    return out


@njit(cache=True)
def build_tree(X, y, w, mult, k, nom_sizes, min_obj, use_mdl, prune, raising, collapse, cf,
               random_k, seed, random_ratio=False):
    """Grow, collapse and prune one tree; return it as compact arrays.

    ``mult[i]`` (a positive integer, usually 1) says row ``i`` stands for that many
    identical training instances whose weights sum to ``w[i]``. Every rule of C4.5 sums
    weights except two that count instances (the known values of a numeric split, the
    many-valued-attribute cut-off), so a bootstrap replicate given as distinct rows with
    their draw counts grows the same tree as its copies, on about 63 % of the rows.
    """
    counts_for_avg = gains_counted_in_average(nom_sizes, mult.sum())
    if random_k != 0:
        np.random.seed(seed)
    # Attribute by attribute: every scan of the fit reads one attribute of many rows, in
    # ascending row order, so the columns are laid out contiguously (the same values).
    XT = np.ascontiguousarray(X.T)
    srt, soff = presort(XT, nom_sizes)
    t_att, t_split, t_child0, t_nb, t_empty, t_dref, t_drows, D, d_top = _grow(
        X, XT, y, w, mult, k, nom_sizes, counts_for_avg, min_obj, use_mdl, random_k, nlogn_table(w), srt, soff,
        random_ratio)
    if collapse:
        _collapse(t_att, t_child0, t_nb, t_dref, t_drows, D)
    if prune:
        z = _norm_inverse_upper(cf)
        D = _store_room(D, d_top, t_att.shape[0])
        _prune(XT, y, w, k, nom_sizes, raising, t_att, t_split, t_child0, t_nb, t_empty, t_dref, t_drows, D,
               d_top, cf, z)
    return _flatten(t_att, t_split, t_child0, t_nb, t_empty, t_dref, t_drows, D, k)


@njit(cache=True)
def _class_prob(counts, j, k, laplace):
    """P(class j) from class weights: relative frequency or Laplace estimate."""
    tot = 0.0
    for c in range(k):
        tot += counts[c]
    if laplace:
        return (counts[j] + 1.0) / (tot + k)
    if _eq(tot, 0.0):
        return 0.0
    return counts[j] / tot


@njit(cache=True, inline="always")
def _empty_branch_probs(branch, parent, k, laplace, weight, out):
    """``weight`` × the class probabilities of a value that leads to an empty leaf: the
    branch's class distribution at the parent (``branch``), or the parent's own (``parent``)
    when the branch has no weight, as Weka's ``getProbs`` does."""
    bag = 0.0
    for j in range(k):
        bag += branch[j]
    source = branch if bag - 0.0 > 1e-6 else parent
    for j in range(k):
        out[j] = weight * _class_prob(source, j, k, laplace)


@njit(cache=True)
def _probs(x, att, split, child0, nb, empty, doff, dist, totals, nom_sizes, k, laplace, out,
           f_node, f_w, f_next, acc, start=0):
    """Weka's ``getProbs`` for one row, evaluated in Weka's arithmetic order.

    A node returns ``weight * P(class)`` at a leaf; at a node whose attribute value is
    missing it returns the sum, child by child in branch order, of what its non-empty
    children return for ``(branch weight / node weight) * weight``; a value leading to an
    empty leaf returns ``weight`` times the class distribution of that branch at the
    parent (the parent's own distribution if the branch has no weight). Frames on an
    explicit stack replace recursion (numba cannot cache recursive functions); ``acc[f]``
    holds frame f's running sum, so rounding matches the recursive original. ``start``: the
    node the row has reached on its single path from the root (:func:`_single_path_probs`),
    where frame 0 would stand with weight 1 after the same steps.
    """
    top = 0
    f_node[0] = start
    f_w[0] = 1.0
    f_next[0] = -1
    while True:
        f = top
        node = f_node[f]
        weight = f_w[f]
        done = False
        if f_next[f] < 0:
            a = att[node]
            if a < 0:
                for j in range(k):
                    acc[f, j] = weight * _class_prob(totals[node], j, k, laplace)
                done = True
            else:
                s = _which_subset(x[a], nom_sizes[a] > 0, split[node])
                if s >= nb[node]:
                    s = -1  # a nominal code the tree has no branch for: treat it as missing
                if s < 0:
                    for j in range(k):
                        acc[f, j] = 0.0
                    f_next[f] = 0
                else:
                    c = child0[node] + s
                    if empty[c]:
                        _empty_branch_probs(dist[doff[node] + s], totals[node], k, laplace, weight, acc[f])
                        done = True
                    else:
                        f_node[f] = c  # a single path: the child's value is the node's value
                        continue
        if not done:
            i = f_next[f]
            while i < nb[node] and empty[child0[node] + i]:
                i += 1
            if i < nb[node]:
                f_next[f] = i + 1
                tot = totals[node].sum()
                bag = 0.0
                for j in range(k):
                    bag += dist[doff[node] + i, j]
                top = f + 1
                f_node[top] = child0[node] + i
                f_w[top] = (bag / tot) * weight
                f_next[top] = -1
                continue
            done = True
        # frame f is complete: hand its value to the parent (or finish)
        if f == 0:
            for j in range(k):
                out[j] = acc[0, j]
            return
        for j in range(k):
            acc[f - 1, j] += acc[f, j]
        top = f - 1


@njit(cache=True)
def _single_path_probs(x, att, split, child0, nb, empty, doff, dist, totals, nom_sizes, k, laplace, out):
    """:func:`_probs` for a row that meets no missing value on its way down: one path from
    the root, so the row's weight stays 1 and ``out`` gets exactly what :func:`_probs`
    computes (1.0 × the leaf's probabilities), without its frames. Returns -1 when done; at
    the first missing value (or a nominal code the tree has no branch for) returns the node
    reached, leaving ``out`` untouched, and :func:`_probs` goes on from there. Most rows take
    this path to the end: DECORATE's artificial examples, which every member classifies at
    every trial, have no missing values."""
    node = 0
    while True:
        a = att[node]
        if a < 0:
            for j in range(k):
                out[j] = 1.0 * _class_prob(totals[node], j, k, laplace)
            return -1
        s = _which_subset(x[a], nom_sizes[a] > 0, split[node])
        if s < 0 or s >= nb[node]:
            return node
        c = child0[node] + s
        if empty[c]:
            _empty_branch_probs(dist[doff[node] + s], totals[node], k, laplace, 1.0, out)
            return -1
        node = c


@njit(cache=True)
def predict_tree(X, att, split, child0, nb, empty, doff, dist, totals, nom_sizes, k, laplace):
    """Class probabilities of each row.

    Weka leaves a row's distribution unnormalised when part of its weight reaches empty
    leaves through a missing value; such rows are rescaled to sum to one (the shares of
    the classes are unchanged), every other row is returned exactly as Weka computes it.
    A row with no weight left gets the uniform distribution.
    """
    n = X.shape[0]
    m = att.shape[0] + 1
    out = np.zeros((n, k))
    f_node = np.empty(m, dtype=np.int64)
    f_w = np.empty(m)
    f_next = np.empty(m, dtype=np.int64)
    acc = np.empty((m, k))
    for i in range(n):
        reached = _single_path_probs(X[i], att, split, child0, nb, empty, doff, dist, totals, nom_sizes, k,
                                     laplace, out[i])
        if reached >= 0:
            _probs(X[i], att, split, child0, nb, empty, doff, dist, totals, nom_sizes, k, laplace,
                   out[i], f_node, f_w, f_next, acc, reached)
        tot = 0.0
        for j in range(k):
            tot += out[i, j]
        if tot <= 0.0:
            for j in range(k):
                out[i, j] = 1.0 / k
        elif abs(tot - 1.0) > 1e-9:
            for j in range(k):
                out[i, j] /= tot
    return out


@njit(cache=True)
def weka_classify(proba):
    """Weka's ``Classifier.classifyInstance`` on each row: the first class whose
    probability beats every earlier one by more than 1e-6 (``Utils.gr``)."""
    n, k = proba.shape
    out = np.zeros(n, dtype=np.int64)
    for i in range(n):
        best = -1.0
        for j in range(k):
            if proba[i, j] - best > 1e-6:
                best = proba[i, j]
                out[i] = j
    return out
