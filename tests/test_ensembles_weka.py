"""Cross-check: redecorate's Bagging, Random Forests and DECORATE against Weka 3.6's.

Chapter 4 compares DECORATE with the Weka implementations of its rivals. J48 and
AdaBoost.M1 are deterministic, so their differential tests ask for the same labels
(``test_j48_weka.py``, ``test_adaboost_weka.py``); these three draw random numbers (bootstrap
replicates, candidate attributes, artificial examples) from streams that cannot be the same
on both sides, so they can only agree in distribution. What is checked is that our learners
are as accurate as Weka's on the same training and test sets, and predict mostly the same
labels: per learner, over the 15 datasets of Table 4.1 on the J48 test's seeded 10-fold
split, both at full training folds (``full``) and at 10 % of each fold (``sub10``, the
learning-curve regime where the ensembles differ most):

* the mean accuracy difference (ours − Weka) over all folds, with its 95 % interval, must hold
  zero or stay within the peer's ``mean_tolerance`` (1 point; 1.5 for the forest): a
  systematic shift (a forest with the wrong number of candidates, an ensemble of the wrong
  size, a DECORATE that keeps every candidate) shows here first;
* every (dataset, setting) cell's mean difference must lie within :data:`CELL_SE` standard
  errors of its ten fold differences, or within :data:`CELL_FLOOR` points: two random streams
  make ten folds of 15 test rows (iris, hepatitis) differ by several points, and a wide cut
  keeps the 30 cells of a correct learner from failing by chance (about 1 in 20 at 4.5
  standard errors with 9 degrees of freedom, all cells together), while a broken one moves
  many cells at once, which the mean above catches;
* the share of test rows given the same label must reach the peer's ``label_agreement``
  (90 %; 80 % for the forest).

Our Random Forest is compared with ``max_features="weka"`` (Weka's K = floor(log2(k+1)) + 1)
and grows J48 random trees where Weka grows ``RandomTree``s (information gain, no collapsing,
missing values spread before the gain is computed), so it has the widest tolerances. Weka's
Decorate refuses training sets of fewer than 15 instances; those folds are left out on both
sides and counted. A per-learner table is printed (``pytest -s``) and repeated in every
assertion message.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

import numpy as np
import pytest

# The J48 differential test's data, split and subsets (imported, not copied: one way of each).
from test_j48_weka import DATASETS, SEED, SETTINGS, _data, _splits

from redecorate.learners import Bagging, Decorate, RandomForest

pytestmark = [pytest.mark.weka, pytest.mark.slow]

J48 = "weka.classifiers.trees.J48"


@dataclass(frozen=True)
class Peer:
    """One of our learners and the Weka classifier it is checked against."""

    ours: Callable[[int], Any]
    weka: str
    options: str
    mean_tolerance: float
    label_agreement: float


PEERS = {
    "Bagging": Peer(lambda s: Bagging(n_estimators=15, random_state=s), "weka.classifiers.meta.Bagging",
                    f"-I 15 -W {J48}", 1.0, 0.90),
    "RandomForest": Peer(lambda s: RandomForest(n_estimators=15, max_features="weka", random_state=s),
                         "weka.classifiers.trees.RandomForest", "-I 15", 1.5, 0.80),
    "Decorate": Peer(lambda s: Decorate(n_estimators=15, max_iterations=50, artificial_size=1.0, random_state=s),
                     "weka.classifiers.meta.Decorate", f"-E 15 -I 50 -R 1.0 -W {J48}", 1.0, 0.90),
}
PEER_SETTINGS = ("full", "sub10")
#: A cell fails when its mean difference is beyond this many standard errors of its folds...
CELL_SE = 4.5
#: ...and beyond this many points (a cell whose folds happen to agree closely).
CELL_FLOOR = 2.0
#: Weka's Decorate needs at least this many training instances (its own check).
WEKA_DECORATE_MINIMUM = 15


@dataclass
class Cell:
    """One dataset in one setting: per-fold accuracies (%) of both sides, label agreement."""

    dataset: str
    setting: str
    ours: list[float] = field(default_factory=list)
    weka: list[float] = field(default_factory=list)
    n_test: int = 0
    same_label: int = 0
    left_out: int = 0

    @property
    def difference(self) -> float:
        return float(np.mean(np.subtract(self.ours, self.weka))) if self.ours else math.nan

    @property
    def standard_error(self) -> float:
        if len(self.ours) < 2:
            return math.nan
        return float(np.std(np.subtract(self.ours, self.weka), ddof=1)) / math.sqrt(len(self.ours))

    @property
    def too_far(self) -> bool:
        return abs(self.difference) > max(CELL_FLOOR, CELL_SE * self.standard_error)


def _compare(oracle: ModuleType, peer: Peer, name: str, setting: str) -> Cell:
    data = _data(oracle, name)
    cell = Cell(name, setting)
    folds = _splits(data.y.cat.codes.to_numpy(), SETTINGS[setting], SEED)
    seeds = [SEED + k for k in range(len(folds))]
    weka = oracle.run_weka(
        data.arff_path, data.class_index,
        [data.file_rows[tr] for tr, _, _ in folds], [data.file_rows[te] for _, te, _ in folds],
        peer.weka, peer.options, seed=seeds, dump_model=False,
        set_ids=[f"fold{k}" for k in range(len(folds))], timeout=900,
    )
    column = {v: i for i, v in enumerate(data.class_values)}
    y = np.array([column[str(c)] for c in data.y])
    for (train, test, _), seed, wk in zip(folds, seeds, weka, strict=True):
        if wk["error"] is not None:
            assert "Decorate" in peer.weka and len(train) < WEKA_DECORATE_MINIMUM, wk["error"]
            cell.left_out += 1
            continue
        model = peer.ours(seed).fit(data.X.iloc[train], data.y.iloc[train])
        ours = np.array([column[str(c)] for c in model.predict(data.X.iloc[test])])
        theirs = wk["pred_eval"]
        cell.ours.append(100.0 * float(np.mean(ours == y[test])))
        cell.weka.append(100.0 * float(np.mean(theirs == y[test])))
        cell.n_test += len(test)
        cell.same_label += int((ours == theirs).sum())
    return cell


def _table(name: str, peer: Peer, cells: list[Cell], mean: float, half: float, agreement: float) -> str:
    lines = [f"{name}(ours) vs Weka 3.6 {peer.weka} {peer.options}, seed {SEED}, accuracy in %",
             f"{'dataset':<11}{'setting':>8}{'folds':>6}{'ours':>8}{'Weka':>8}{'diff':>8}{'se':>6}{'labels':>9}"]
    for c in cells:
        if not c.ours:
            lines.append(f"{c.dataset:<11}{c.setting:>8}{0:>6}  (every fold left out: Weka refuses "
                         f"< {WEKA_DECORATE_MINIMUM} training instances)")
            continue
        lines.append(f"{c.dataset:<11}{c.setting:>8}{len(c.ours):>6}{np.mean(c.ours):>8.2f}"
                     f"{np.mean(c.weka):>8.2f}{c.difference:>+8.2f}{c.standard_error:>6.2f}"
                     f"{100.0 * c.same_label / max(c.n_test, 1):>8.1f}%"
                     + (f"  ({c.left_out} folds left out: Weka refuses < {WEKA_DECORATE_MINIMUM})"
                        if c.left_out else "") + ("  <- too far" if c.too_far else ""))
    lines.append(f"mean difference over all folds {mean:+.2f} points (95 % interval ±{half:.2f}); "
                 f"same label on {100.0 * agreement:.1f} % of the test rows")
    return "\n".join(lines)


@pytest.mark.parametrize("name", list(PEERS))
def test_ensemble_is_as_accurate_as_weka_s(weka_oracle: ModuleType, name: str) -> None:
    peer = PEERS[name]
    cells = [_compare(weka_oracle, peer, dataset, setting) for setting in PEER_SETTINGS for dataset in DATASETS]
    differences = np.concatenate([np.subtract(c.ours, c.weka) for c in cells])
    mean = float(differences.mean())
    half = 1.96 * float(differences.std(ddof=1)) / math.sqrt(len(differences))
    agreement = sum(c.same_label for c in cells) / sum(c.n_test for c in cells)
    table = _table(name, peer, cells, mean, half, agreement)
    print("\n" + table)
    compared = sum(len(c.ours) for c in cells)
    assert compared >= 0.8 * (compared + sum(c.left_out for c in cells)), table
    assert abs(mean) <= half or abs(mean) <= peer.mean_tolerance, (
        f"mean difference {mean:+.2f} ± {half:.2f} points excludes zero and exceeds {peer.mean_tolerance}\n{table}")
    far = [c for c in cells if c.ours and c.too_far]
    assert not far, (f"{len(far)} cells differ by more than {CELL_SE} standard errors and {CELL_FLOOR} points: "
                     + ", ".join(f"{c.dataset}/{c.setting} {c.difference:+.2f}" for c in far) + f"\n{table}")
    assert agreement >= peer.label_agreement, (
        f"same label on {agreement:.1%} of the test rows (< {peer.label_agreement:.0%})\n{table}")
