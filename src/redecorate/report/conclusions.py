"""Conclusions: does what the source concludes still hold, and is that more than chance?

Every replication report asks the same two questions of a pairwise comparison "A vs B on
metric M at point P" (DECORATE vs J48 at 20 % of the data; ActiveDecorate vs DECORATE on
random samples over a learning curve; Bagging vs J48 at 30 % class noise):

* **Per conclusion**: the source's summary (Sig. W/D/L, GM error ratio, the sign of a mean
  reduction) points one way; does the reproduction point the same way?
* **Per cell**: dataset by dataset, does the reproduced difference have the published sign?

A count of conclusions held means little on its own: the dissertation's tables mostly show
its method winning, so the *trivial prediction* "A always wins" already holds in most of
them. Every count is therefore reported beside what that prediction scores on the same
conclusions (:func:`trivial_holds`, :func:`sign_agreement`), and the reports say both.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

import numpy as np
import pandas as pd

__all__ = [
    "SIGN_TOLERANCE", "Agreement", "cell_signs", "comparability", "comparability_lines", "held_sentence",
    "mark_comparability", "rank_correlation", "sign_agreement", "side", "trivial_holds",
]


class Agreement(NamedTuple):
    """Share of compared cells with the published sign, and what "A always wins" scores."""

    agreement: float
    trivial: float
    compared: int


SIGN_TOLERANCE = 1e-9
"""A value whose absolute value is at most this has no sign. A reproduced difference of two
means that are equal comes out as ±1e-14 from the order of the additions (Oza's Table 3.5: car,
mushroom, synthetic3, where both systems are right on every example); its sign is rounding
noise, not a side being ahead, and must not decide whether a published tie is reproduced.
Every real difference of the reports' accuracies, errors, counts and ratios is many orders
larger."""


def cell_signs(values: Iterable[float] | pd.Series | np.ndarray) -> np.ndarray:
    """The sign of each value (-1, 0 or 1; NaN stays NaN), 0 within :data:`SIGN_TOLERANCE`:
    the one sign every comparison of the reports takes."""
    array = np.asarray(values if isinstance(values, pd.Series | np.ndarray) else list(values), dtype=float)
    return np.where(np.abs(array) <= SIGN_TOLERANCE, 0.0, np.sign(array))


def side(value: float) -> int:
    """−1, 0 or +1 (0 for NaN): the direction of a difference, a W − L or a GM ratio − 1."""
    return int(cell_signs([value])[0]) if pd.notna(value) else 0


def sign_agreement(reproduced: Iterable[float], published: Iterable[float]) -> Agreement:
    """Per cell: does sign(reproduced) equal sign(published)? Pairs with a NaN are left out.

    ``trivial`` is the share the prediction "always positive" (A always better) would get on
    the same cells, i.e. the share of published values above 0.
    """
    rep = np.asarray(list(reproduced), dtype=float)
    pub = np.asarray(list(published), dtype=float)
    if rep.shape != pub.shape:
        raise ValueError(f"sign_agreement: {rep.size} reproduced values vs {pub.size} published")
    known = ~(np.isnan(rep) | np.isnan(pub))
    if not known.any():
        return Agreement(float("nan"), float("nan"), 0)
    rep, pub = rep[known], pub[known]
    return Agreement(float((cell_signs(rep) == cell_signs(pub)).mean()), float((pub > 0).mean()), int(known.sum()))


def rank_correlation(reproduced: Iterable[float], published: Iterable[float]) -> float:
    """Spearman's rank correlation of reproduced and published differences, cell by cell.

    Sign agreement says whether each winner is the same; the rank correlation says whether the
    *sizes* of the differences are ordered alike (the datasets where the source's method gains
    most are those where the reproduction's gains most). Unlike the sign, it cannot be scored
    by a prediction that ignores the data: "A always wins" has no ranking. Pairs with a NaN are
    left out; NaN with fewer than three pairs or when either side is constant.
    """
    rep = np.asarray(list(reproduced), dtype=float)
    pub = np.asarray(list(published), dtype=float)
    if rep.shape != pub.shape:
        raise ValueError(f"rank_correlation: {rep.size} reproduced values vs {pub.size} published")
    known = ~(np.isnan(rep) | np.isnan(pub))
    rep, pub = rep[known], pub[known]
    if rep.size < 3 or np.ptp(rep) == 0 or np.ptp(pub) == 0:
        return float("nan")
    x = pd.Series(rep).rank().to_numpy()
    y = pd.Series(pub).rank().to_numpy()
    # Pearson's r of the ranks from numpy's own sums (np.corrcoef would take BLAS's products,
    # whose last bit depends on the kernel: redecorate.arithmetic)
    x, y = x - x.mean(), y - y.mean()
    return float(np.clip((x * y).sum() / np.sqrt((x * x).sum() * (y * y).sum()), -1.0, 1.0))


def trivial_holds(sig_w: float, sig_l: float, gm_ratio: float) -> object:
    """Whether "A always wins" (W > L, GM error ratio < 1) would hold for a published summary row.

    A conclusion holds when the reproduction has the published sign of W − L and side of the
    GM ratio; the trivial prediction has sign +1 and side −1, so it holds exactly where the
    source reports A ahead on both. NA where the source prints neither.
    """
    sig_known = pd.notna(sig_w) and pd.notna(sig_l)
    gm_known = pd.notna(gm_ratio)
    if not sig_known and not gm_known:
        return pd.NA
    sig_ok = side(float(sig_w) - float(sig_l)) == 1 if sig_known else True
    gm_ok = side(float(gm_ratio) - 1.0) == -1 if gm_known else True
    return bool(sig_ok and gm_ok)


def held_sentence(held: pd.Series, trivial: pd.Series, what: str = "conclusions",
                  prediction: str = '"A always wins"') -> str:
    """"n of m conclusions hold (the trivial prediction "A always wins": k of m)".

    Only rows where both are known count, so the two numbers are over the same conclusions.
    """
    both = pd.DataFrame({"held": held, "trivial": trivial}).dropna()
    m = len(both)
    if m == 0:
        return f"no {what} could be tested"
    return (f"{int(both['held'].astype(bool).sum())} of {m} {what} hold (the trivial prediction "
            f"{prediction} would hold in {int(both['trivial'].astype(bool).sum())} of {m})")


PILOT = "pilot"
PILOT_CAVEAT = ("the source's datasets and protocol with fewer runs: conclusions are counted, "
                "but means rest on fewer folds and significance tests on fewer pairs than the "
                "source's, so fewer differences reach significance; a provisional replication")


def comparability(scale: str | None, published_datasets: Iterable[str],
                  reproduced_datasets: Iterable[str], *, unnamed_published: int = 0) -> tuple[bool, str]:
    """Whether counting conclusions against the source's is meaningful, and if not why.

    A thesis-scale run on every dataset of the published table is a replication. A ``pilot``
    run is the source's protocol on the same datasets with fewer runs (every experiment file's
    ``pilot`` profile only lowers ``runs`` and ``orders``): its conclusions are counted, and
    the returned text says why they are provisional. A quick or smoke run, or one that leaves
    published datasets out, is shown for inspection only.

    ``unnamed_published`` counts datasets the source covers without naming them (a table of
    w/d/l counts only): the run must cover as many datasets beyond the named ones. The reason
    names the published datasets not run.
    """
    reasons = []
    if scale is not None and scale not in ("thesis", PILOT):
        reasons.append(f"scale {scale!r}, not the thesis protocol")
    published = set(published_datasets) - {""}
    reproduced = set(reproduced_datasets)
    named_missing = sorted(published - reproduced)
    missing = len(named_missing) + max(0, unnamed_published - len(reproduced - published))
    total = len(published) + unnamed_published
    if not total:
        reasons.append("no published values for these datasets")
    elif missing:
        # Named, so a reader sees which (an offline run skips the OpenML-only sets; a slice
        # leaves some to another machine) without opening the experiment file.
        which = f": {', '.join(named_missing)}" if named_missing else ""
        reasons.append(f"{missing} of the source's {total} datasets not run{which}")
    if reasons:
        return False, "; ".join(reasons)
    return True, PILOT_CAVEAT if scale == PILOT else ""


def comparability_lines(comparable: bool, why: str) -> list[str]:
    """The report's banner when the run is not a full replication (nothing when it is)."""
    if comparable:
        return [f"**Pilot scale** ({why}).", ""] if why else []
    return [f"**Not comparable with the dissertation** ({why}): the numbers below are shown "
            "for inspection; no conclusion is counted as held or not.", ""]


def mark_comparability(conclusions: pd.DataFrame, comparable: bool, *, clear: bool = True) -> pd.DataFrame:
    """The conclusions as written to CSV, with a ``comparable`` column.

    ``clear`` blanks ``holds`` when the run is not comparable, so a table of smoke-scale
    conclusions cannot be read as a replication's.
    """
    out = conclusions.assign(comparable=comparable)
    if not comparable and clear and "holds" in out:
        out["holds"] = pd.NA
    return out
