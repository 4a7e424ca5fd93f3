"""Classification noise (§5.1.1, item 2).

"To introduce N% classification noise to a data set of D instances, we randomly select
N·D/100 instances with replacement and change their class labels to one of the *other*
values chosen randomly with equal probability. Classification noise was introduced only to
the training set and not to the test set."

"Other values" are the classes *present in the dataset* (spec Part 8, C.17): flipping to a
declared-but-absent label (e.g. autos' symboling −3) would create a class no test example
has. The flips are applied in draw order, so an instance drawn twice is flipped twice (for
a binary class it returns to its original label), as the sequential procedure implies.
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from redecorate.corrupt.draws import SeedLike, generator, n_draws

__all__ = ["add_class_noise", "present_classes"]


def present_classes(y: pd.Series) -> list:
    """Classes that occur in ``y``, in declared (category) order when ``y`` is Categorical."""
    if isinstance(y.dtype, pd.CategoricalDtype):
        counts = y.value_counts(sort=False)
        return [c for c in y.cat.categories if counts.get(c, 0) > 0]
    return list(pd.unique(y.dropna()))


def add_class_noise(
    y: pd.Series,
    level: float | int,
    seed: SeedLike,
    classes: Sequence | None = None,
) -> pd.Series:
    """Return a copy of ``y`` with ``N·D/100`` drawn labels changed to another class.

    Args:
        y: class labels of the training set being corrupted (Categorical keeps its
            categories; every new label is one of them).
        level: N, the percentage of classification noise.
        seed: the stream of this (run, fold, level) training set.
        classes: the values a label may change to; default the classes present in ``y``.
            The noise job passes the classes present in the whole dataset (C.17), so a
            class absent from one training fold is still a possible new label.

    Draws: instance indices, then one uniform number per draw choosing among the
    ``K − 1`` classes other than the instance's label at that moment. With a single
    possible class there is no other value and the draw changes nothing.
    """
    out = y.copy(deep=True)
    domain = list(present_classes(y) if classes is None else classes)
    if isinstance(out.dtype, pd.CategoricalDtype):
        unknown = [c for c in domain if c not in set(out.cat.categories)]
        if unknown:
            raise ValueError(f"classes {unknown} are not categories of the class attribute")
    n_rows = len(out)
    n = n_draws(level, n_rows)
    if n == 0 or n_rows == 0:
        return out
    rng = generator(seed)
    rows = rng.integers(0, n_rows, size=n)
    choice = rng.random(n)
    values = out.to_numpy(dtype=object).copy()
    for row, u in zip(rows.tolist(), choice.tolist(), strict=True):
        others = [c for c in domain if c != values[row]]
        if others:
            values[row] = others[min(int(u * len(others)), len(others) - 1)]
    if isinstance(out.dtype, pd.CategoricalDtype):
        return pd.Series(pd.Categorical(values, dtype=out.dtype), index=out.index, name=out.name)
    return pd.Series(values, index=out.index, name=out.name).astype(out.dtype)
