"""The shared conclusions layer: sign agreement and the trivial prediction beside every count."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy.stats import spearmanr

from redecorate.report.conclusions import (
    comparability,
    comparability_lines,
    held_sentence,
    mark_comparability,
    rank_correlation,
    sign_agreement,
    trivial_holds,
)


def test_sign_agreement_counts_cells_and_what_always_positive_scores() -> None:
    got = sign_agreement([1.0, -2.0, 0.5, float("nan"), 3.0], [2.0, 1.0, 0.1, 4.0, -1.0])
    # compared: 4 (the NaN pair left out); same sign in 2 (first, third); published > 0 in 3.
    assert got.compared == 4 and got.agreement == 0.5 and got.trivial == 0.75


def test_sign_agreement_of_nothing_is_nan_not_zero() -> None:
    got = sign_agreement([float("nan")], [1.0])
    assert got.compared == 0 and math.isnan(got.agreement) and math.isnan(got.trivial)
    with pytest.raises(ValueError, match="2 reproduced values vs 1 published"):
        sign_agreement([1.0, 2.0], [1.0])


@pytest.mark.parametrize(
    ("sig_w", "sig_l", "gm", "expected"),
    [(5, 1, 0.9, True), (5, 5, 0.9, False), (5, 1, 1.1, False), (1, 5, 0.9, False),
     (float("nan"), float("nan"), 0.9, True), (float("nan"), float("nan"), float("nan"), pd.NA)],
)  # fmt: skip
def test_trivial_prediction_holds_where_the_source_has_a_ahead(sig_w, sig_l, gm, expected) -> None:
    got = trivial_holds(sig_w, sig_l, gm)
    assert (got is pd.NA) if expected is pd.NA else got is expected


def test_held_sentence_counts_both_over_the_same_conclusions() -> None:
    held = pd.Series([True, False, True, None], dtype="boolean")
    trivial = pd.Series([True, True, False, True], dtype="boolean")
    assert held_sentence(held, trivial) == (
        '2 of 3 conclusions hold (the trivial prediction "A always wins" would hold in 2 of 3)'
    )
    assert held_sentence(held[3:], trivial[3:]) == "no conclusions could be tested"


def test_rank_correlation_is_spearmans_with_ties_and_nans_left_out() -> None:
    rng = np.random.default_rng(3)
    published = rng.normal(size=40)
    reproduced = published + rng.normal(scale=0.8, size=40)
    reproduced[[4, 9]] = reproduced[2]  # ties get average ranks, as in scipy
    expected = spearmanr(reproduced, published).statistic
    with_nan = np.append(reproduced, np.nan), np.append(published, 1.0)
    assert rank_correlation(*with_nan) == pytest.approx(expected, abs=1e-12)
    # Reversed order is a perfect negative correlation; "A always wins" has no ranking to score.
    assert rank_correlation([1, 2, 3, 4], [8, 6, 4, 2]) == pytest.approx(-1.0)


def test_rank_correlation_is_nan_when_a_side_has_no_ranking() -> None:
    assert math.isnan(rank_correlation([1.0, 2.0, 3.0], [5.0, 5.0, 5.0]))
    assert math.isnan(rank_correlation([1.0, 2.0], [1.0, 2.0]))


@pytest.mark.parametrize(
    ("scale", "run", "comparable", "banner"),
    [
        ("thesis", ["a", "b"], True, None),
        ("pilot", ["a", "b"], True, "**Pilot scale**"),
        ("quick", ["a", "b"], False, "scale 'quick'"),
        ("pilot", ["a"], False, "1 of the source's 2 datasets not run: b"),
        ("thesis", ["a"], False, "1 of the source's 2 datasets not run: b"),
    ],
)
def test_only_the_thesis_and_pilot_protocols_on_every_dataset_count_conclusions(
    scale, run, comparable, banner
) -> None:
    got, why = comparability(scale, ["a", "b", "a"], run)
    assert got is comparable
    lines = comparability_lines(got, why)
    if banner is None:
        assert lines == []
    else:
        assert banner in lines[0]
        assert ("Not comparable" in lines[0]) is (not comparable)
    held = mark_comparability(pd.DataFrame({"holds": [True, False]}), got)
    assert bool(held["holds"].isna().all()) is (not comparable)


@pytest.mark.parametrize(
    ("run", "missing"),
    [(["a", "b", "c", "d"], None), (["a", "b", "c"], "1 of the source's 4 datasets not run"),
     (["c", "d", "e"], "2 of the source's 4 datasets not run: a, b"), (["a", "b"], "2 of the source's 4 datasets not run")],
)
def test_unnamed_published_datasets_are_covered_only_by_datasets_beyond_the_named_ones(run, missing) -> None:
    """A source naming a and b and counting two more (w/d/l only) needs two datasets besides a, b."""
    got, why = comparability("thesis", ["a", "b"], run, unnamed_published=2)
    assert got is (missing is None)
    assert (missing or "") in why
    if missing:  # only the named ones are listed
        assert why.endswith("not run") is (run != ["c", "d", "e"])
    assert comparability("thesis", [], [], unnamed_published=0)[1] == "no published values for these datasets"
