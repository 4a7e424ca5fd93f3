"""The verdict rule itself (:mod:`redecorate.report.verdicts`) and the tests it rests on
(:mod:`redecorate.stats.replication_tests`, :func:`redecorate.report.agreement.agreement_measures`).

Each threshold is tested on both sides and exactly on it, and each mutation that once passed
the suite unnoticed (a ``>=`` turned ``>``, the trivial rate computed from the reproduced
signs, Spearman on misaligned pairs, the provisional rule inverted, a threshold moved by one
cell) fails a test here, not only the byte-for-byte snapshot of ``REPLICATION.md``.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from redecorate.report.agreement import (
    agreement_measures,
    difference_interval,
    evidence_frame,
    sign_evidence,
)
from redecorate.report.verdicts import (
    ALPHA,
    EXPLAINED,
    MINORITY_TO_DISCRIMINATE,
    NOT_COMPARABLE,
    NOT_RUN,
    ONE_SIDED,
    OPEN,
    PROVISIONAL,
    REPLICATES,
    SIGNS_ONLY,
    VALUE_SHARE,
    VALUES_ONLY,
    evidence_verdict,
    table_verdict,
)
from redecorate.stats.replication_tests import cluster_sign_flip, mcnemar_exact


def _measures(**values: object) -> dict[str, object]:
    base = {"compared": 0, "minority": 0, "sign_agreement": np.nan, "trivial": np.nan, "sign_p": np.nan,
            "worse_p": np.nan, "value_cells": 0, "value_share": np.nan, "disagreeing": 0, "explained": 0}  # fmt: skip
    return {**base, **values}


# --- the tests the rule rests on ---------------------------------------------------------------


@pytest.mark.parametrize(("better", "worse"), [(5, 0), (4, 0), (10, 3), (30, 18), (0, 6), (7, 7)])
def test_mcnemar_is_the_exact_one_sided_binomial_of_the_discordant_cells(better: int, worse: int) -> None:
    expected = stats.binomtest(better, better + worse, 0.5, alternative="greater").pvalue
    assert mcnemar_exact(better, worse) == pytest.approx(expected, rel=1e-12)
    assert mcnemar_exact(0, 0) == 1.0
    with pytest.raises(ValueError):
        mcnemar_exact(-1, 2)


def test_the_clustered_test_enumerates_every_sign_vector() -> None:
    # d = (3, 1): totals over the four sign vectors are 4, 2, -2, -4; P(T >= 4) = 1/4
    assert cluster_sign_flip([3, 1]) == 0.25
    assert cluster_sign_flip([2, 2, 0, 0]) == 0.25  # clusters with nothing to flip do not count
    assert cluster_sign_flip([]) == 1.0
    assert cluster_sign_flip([-1, -2]) == 1.0
    # beyond the exact range, a seeded Monte Carlo close to the exact value, the same every time
    d = [1] * 22
    exact = sum(math.comb(22, k) for k in range(22, 23)) / 2**22  # only the all-plus vector reaches 22
    first, again = cluster_sign_flip(d), cluster_sign_flip(d)
    assert first == again and first == pytest.approx(exact, abs=2e-5)


def test_the_trivial_prediction_is_taken_from_the_published_signs_not_the_reproduced() -> None:
    """Published 7 positive and 3 negative: "always positive" scores 0.7, whatever the
    reproduction says (here 8 negative of 10; computed from those signs it would be 0.8)."""
    signed = evidence_frame([{"dataset": f"d{i}", "published": p, "reproduced": r, "signed": True}
                             for i, (p, r) in enumerate(zip([1] * 7 + [-1] * 3, [1, 1, -1, -1, -1, -1, -1, -1, -1, -1],
                                                            strict=True))])  # fmt: skip
    found = sign_evidence(signed)
    assert found["trivial"] == pytest.approx(0.7) and found["minority"] == 3
    assert found["sign_agreement"] == pytest.approx(0.5)
    # right where the trivial prediction is wrong: the three negative cells; wrong where it is right: 5
    assert (found["better"], found["worse"]) == (3, 5)
    assert found["sign_p"] == pytest.approx(mcnemar_exact(3, 5))


def test_spearman_pairs_each_reproduced_value_with_its_own_published_one() -> None:
    """Rows in any order, with missing values in between: the correlation is of the pairs."""
    pub = [1.0, 2.0, np.nan, 3.0, 4.0, 5.0]
    rep = [5.0, 4.0, 9.0, 3.0, np.nan, 1.0]  # known pairs (1,5) (2,4) (3,3) (5,1): rho = -1
    rows = [{"dataset": f"d{i}", "published": p, "reproduced": r, "signed": True} for i, (p, r) in
            enumerate(zip(pub, rep, strict=True))]
    frame = evidence_frame(rows)
    assert agreement_measures(frame)["spearman"] == pytest.approx(-1.0)
    shuffled = frame.sample(frac=1.0, random_state=3).reset_index(drop=True)
    assert agreement_measures(shuffled)["spearman"] == pytest.approx(-1.0)


def test_the_difference_interval_covers_a_perfect_replication_95_percent_of_the_time() -> None:
    """Two independent estimates of one cell, each a mean of 10 runs: the published value lies
    within rep ± t·√(2)·se about 95 % of the time, inside our mean's own 95 % interval only
    about 83 % (the issue's P(|Z|·√2 < 1.96)), so the latter cannot be the test."""
    rng = np.random.default_rng(7)
    runs, trials = 10, 4000
    ours = rng.normal(80.0, 2.0, size=(trials, runs))
    theirs = rng.normal(80.0, 2.0, size=(trials, runs)).mean(axis=1)
    mean, sd = ours.mean(axis=1), ours.std(axis=1, ddof=1)
    half = np.array([difference_interval(s, runs)[0] for s in sd])
    within = np.abs(theirs - mean) <= half
    own = np.abs(theirs - mean) <= stats.norm.ppf(0.975) * sd / np.sqrt(runs)
    assert within.mean() == pytest.approx(0.95, abs=0.015)
    assert own.mean() == pytest.approx(0.83, abs=0.03)
    assert difference_interval(2.0, runs)[1] == runs - 1


def test_with_too_few_runs_the_interval_comes_from_the_corrected_bootstrap() -> None:
    """Two runs (chapter 6's protocol): the bootstrap's standard error, inflated by Nadeau and
    Bengio's factor for 20 splits of 10-fold CV, on 19 degrees of freedom."""
    half, df = difference_interval(float("nan"), 2, low=10.0, high=14.0, splits=20)
    se = 4.0 / (2 * stats.norm.ppf(0.975)) * math.sqrt(1 + 20 / 9)
    assert df == 19 and half == pytest.approx(stats.t.ppf(0.975, 19) * math.sqrt(2) * se)
    assert all(math.isnan(v) for v in difference_interval(float("nan"), 1))


def _printed(share_inside: float, n: int = 10, df: float = 9.0) -> pd.DataFrame:
    """``n`` printed cells, the first ``share_inside · n`` of them within their interval."""
    inside = round(share_inside * n)
    return evidence_frame([{"dataset": f"d{i}", "system": "a", "statistic": "mean", "published": 80.0,
                            "reproduced": 80.5 if i < inside else 83.0, "status": "agrees" if i < inside else "disagrees",
                            "half_width": 1.0, "df": df, "printed": True} for i in range(n)])  # fmt: skip


def test_the_value_share_counts_the_published_values_within_their_interval() -> None:
    measures = agreement_measures(_printed(0.7))
    assert measures["value_cells"] == 10 and measures["value_share"] == pytest.approx(0.7)
    # the printed rounding counts as inside: 1.0 + 0.005 reaches 81.005
    edge = _printed(1.0).assign(reproduced=81.005)
    assert agreement_measures(edge)["value_share"] == 1.0
    assert agreement_measures(edge.assign(reproduced=81.0051))["value_share"] == 0.0


# --- the rule ----------------------------------------------------------------------------------


def test_a_table_exactly_on_the_value_threshold_replicates_and_one_cell_below_does_not() -> None:
    """A one-sided table (every published sign positive) scored by its values: 8 of 10 within
    is exactly VALUE_SHARE and replicates; 7 of 10 does not (and disagrees). A rule with `>`
    instead of `>=`, or a threshold moved by one cell, fails one of the two."""
    assert VALUE_SHARE == 0.8
    signs = {"compared": 10, "minority": 0, "sign_agreement": 1.0, "trivial": 1.0, "sign_p": 1.0, "worse_p": 1.0}
    on = _measures(**signs, value_cells=10, value_share=8 / 10, disagreeing=2)
    assert evidence_verdict(on) == REPLICATES
    below = {**on, "value_share": 7 / 10, "disagreeing": 3}
    assert evidence_verdict(below) == OPEN
    assert evidence_verdict({**below, "explained": 3}) == EXPLAINED
    # the same from cells, not hand-made measures
    for share, verdict in ((0.8, REPLICATES), (0.7, OPEN)):
        cells = pd.concat([_printed(share), evidence_frame([{"dataset": f"d{i}", "published": 1.0, "reproduced": 2.0,
                                                              "signed": True} for i in range(10)])])  # fmt: skip
        assert evidence_verdict(agreement_measures(cells)) == verdict, share


def test_a_table_discriminates_from_the_fifth_minority_cell() -> None:
    """Perfect agreement beats "always positive" at p < 0.05 only from 5 discordant cells on
    (0.5^5 = 0.031, 0.5^4 = 0.0625): with 4 minority cells a table is one-sided."""
    assert MINORITY_TO_DISCRIMINATE == 5
    assert mcnemar_exact(5, 0) < ALPHA < mcnemar_exact(4, 0)
    for minority, expected in ((4, ONE_SIDED), (5, REPLICATES)):
        cells = evidence_frame([{"dataset": f"d{i}", "published": -1.0 if i < minority else 1.0,
                                 "reproduced": -1.0 if i < minority else 1.0, "signed": True} for i in range(40)])
        measures = agreement_measures(cells)
        assert measures["minority"] == minority
        assert evidence_verdict(measures) == expected, minority


def test_a_p_value_exactly_on_alpha_is_not_significant() -> None:
    discriminating = {"compared": 40, "minority": 10, "sign_agreement": 0.9, "trivial": 0.75}
    assert evidence_verdict(_measures(**discriminating, sign_p=ALPHA, worse_p=0.9)) == OPEN
    assert evidence_verdict(_measures(**discriminating, sign_p=np.nextafter(ALPHA, 0), worse_p=0.9)) == REPLICATES


def test_signs_and_values_each_say_what_held() -> None:
    discriminating = {"compared": 99, "minority": 30, "sign_agreement": 0.85, "trivial": 0.70, "worse_p": 0.99}
    both = _measures(**discriminating, sign_p=0.001, value_cells=198, value_share=0.9)
    assert evidence_verdict(both) == REPLICATES
    assert evidence_verdict({**both, "value_share": 0.5, "disagreeing": 90}) == SIGNS_ONLY
    # Table 5.3's case: agreement above the trivial prediction, but not beyond chance
    lucky = {**both, "sign_p": 0.28}
    assert evidence_verdict(lucky) == VALUES_ONLY
    assert evidence_verdict({**lucky, "value_share": 0.5, "disagreeing": 90}) == OPEN
    # below the trivial prediction, values or not, the signs disagree
    assert evidence_verdict({**lucky, "sign_agreement": 0.65, "disagreeing": 40}) == OPEN
    # a discriminating table that prints no value to score replicates by its signs alone
    assert evidence_verdict({**both, "value_cells": 0, "value_share": np.nan}) == REPLICATES


def test_a_one_sided_table_whose_signs_contradict_the_source_does_not_replicate() -> None:
    values = {"value_cells": 60, "value_share": 0.95, "disagreeing": 8}
    fine = _measures(compared=60, minority=4, sign_agreement=0.9, trivial=0.93, sign_p=0.9, worse_p=0.3, **values)
    assert evidence_verdict(fine) == REPLICATES
    assert evidence_verdict({**fine, "worse_p": 0.01}) == OPEN


def test_one_sided_consistent_means_nothing_else_could_be_scored() -> None:
    nothing = _measures(compared=10, minority=0, sign_agreement=1.0, trivial=1.0, sign_p=1.0, worse_p=1.0)
    assert evidence_verdict(nothing) == ONE_SIDED
    assert evidence_verdict({**nothing, "value_cells": 10, "value_share": 0.0, "disagreeing": 10}) == OPEN
    assert evidence_verdict(_measures()) == NOT_COMPARABLE


def test_the_scale_decides_before_the_evidence() -> None:
    """Below the source's protocol a table is provisional whatever its evidence says; at the
    protocol it is the evidence's verdict (a rule that inverted the two would swap them)."""
    assert table_verdict(not_comparable=False, reproduced=True, scale="pilot", on_evidence=REPLICATES) == PROVISIONAL
    assert table_verdict(not_comparable=False, reproduced=True, scale="thesis", on_evidence=OPEN) == OPEN
    assert table_verdict(not_comparable=False, reproduced=True, scale="thesis", on_evidence=REPLICATES) == REPLICATES
    assert table_verdict(not_comparable=False, reproduced=False, scale="thesis", on_evidence=NOT_RUN) == NOT_RUN
    assert table_verdict(not_comparable=False, reproduced=True, scale=NOT_RUN, on_evidence=REPLICATES) == NOT_RUN
    assert table_verdict(not_comparable=True, reproduced=True, scale="thesis", on_evidence=REPLICATES) == NOT_COMPARABLE


def test_the_committed_report_states_the_rule_with_the_constants_it_uses() -> None:
    from pathlib import Path

    text = (Path(__file__).resolve().parents[1] / "reproduced" / "REPLICATION.md").read_text(encoding="utf-8")
    assert f"p < {ALPHA:g}" in text and f"at least {VALUE_SHARE:.2f}" in text
    assert "McNemar" in text and "clustered" in text and "TOST" in text
