"""The shared conclusions layer: sign agreement and the trivial prediction beside every count."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from redecorate.report.conclusions import held_sentence, sign_agreement, trivial_holds


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
