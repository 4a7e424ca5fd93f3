"""One verdict per published table, from a fixed vocabulary, by rules the report prints.

Why rules and not prose: a hand-written summary drifts from the numbers it summarises (the
project's README once said a table "holds 6 of 6" where its sign agreement was below what a
trivial prediction scores). Here the verdict is a function of the measures of
:func:`redecorate.report.agreement.table_agreement` and of the scale the table was reproduced
at, and :data:`LEGEND` states the same rules in words, from the same constants.

The measures a verdict reads (one row of ``table_agreement``): ``compared`` signed cells,
``sign_agreement`` and ``trivial`` (the best constant prediction's score), ``minority`` (signed
cells whose published sign is not the majority's: what a constant prediction must miss),
``inside_interval`` (share of printed cells inside the reproduced 95 % interval),
``disagreeing`` and ``explained`` (rows that disagree, and those a known disagreement covers).
"""

from __future__ import annotations

import math
from collections.abc import Mapping

__all__ = [
    "EXPLAINED", "INSIDE_SHARE", "LEGEND", "MINORITY_TO_DISCRIMINATE", "NOT_COMPARABLE", "NOT_RUN",
    "ONE_SIDED", "OPEN", "PROVISIONAL", "REPLICATES", "VERDICTS", "discriminates", "evidence_verdict",
]

REPLICATES = "replicates"
ONE_SIDED = "one-sided: consistent"
EXPLAINED = "disagrees: explained"
OPEN = "disagrees: open"
PROVISIONAL = "provisional"
NOT_RUN = "not run"
NOT_COMPARABLE = "not comparable"
VERDICTS: tuple[str, ...] = (REPLICATES, ONE_SIDED, EXPLAINED, OPEN, PROVISIONAL, NOT_RUN, NOT_COMPARABLE)
"""Every verdict, in the order of the summary line."""

MINORITY_TO_DISCRIMINATE = 5
"""A table discriminates when its published signs leave the best constant prediction at
least this many cells to miss: only then can perfect agreement beat that prediction at
p < 0.05 (one-sided sign test on the cells where the two differ: 0.5⁵ = 0.031; with four,
0.5⁴ = 0.063)."""

INSIDE_SHARE = 2 / 3
"""A one-sided table replicates when at least this share of its printed cells lies inside
the reproduced 95 % interval. A replication as precise as the source would put about 83 %
inside (both numbers carry sampling noise: P(|Z|·√2 < 1.96) = 0.83); two thirds leaves room
for the spread of that share over a table's dozen or hundred cells."""


def discriminates(measures: Mapping[str, object]) -> bool:
    """Whether the table's signed cells can tell a replication from the trivial prediction
    (:data:`MINORITY_TO_DISCRIMINATE`)."""
    return int(measures.get("compared", 0) or 0) > 0 and int(measures.get("minority", 0) or 0) >= MINORITY_TO_DISCRIMINATE


def _number(value: object) -> float:
    return float("nan") if value is None else float(value)  # type: ignore[arg-type]


def evidence_verdict(measures: Mapping[str, object]) -> str:
    """What the evidence says, whatever the scale: one of :data:`REPLICATES`,
    :data:`ONE_SIDED`, :data:`EXPLAINED`, :data:`OPEN`, or :data:`NOT_COMPARABLE` when it has
    neither a signed cell nor a printed cell with an interval to score.

    1. A table that discriminates replicates when its sign agreement is above the trivial
       prediction's.
    2. A one-sided table replicates when :data:`INSIDE_SHARE` of its printed cells lie inside
       the reproduced interval; otherwise it is *one-sided: consistent* when its sign
       agreement is at least the trivial prediction's (which is all it can be scored against).
    3. Otherwise it disagrees: *explained* when every disagreeing cell has a row in
       ``known_disagreements.tsv``, *open* when one has none.
    """
    agreement, trivial = _number(measures.get("sign_agreement")), _number(measures.get("trivial"))
    inside = _number(measures.get("inside_interval"))
    compared = int(measures.get("compared", 0) or 0)  # type: ignore[call-overload]
    if compared == 0 and math.isnan(inside):
        return NOT_COMPARABLE
    if discriminates(measures):
        if agreement > trivial:
            return REPLICATES
    else:
        if not math.isnan(inside) and inside >= INSIDE_SHARE:
            return REPLICATES
        if compared > 0 and agreement >= trivial:
            return ONE_SIDED
    disagreeing = int(measures.get("disagreeing", 0) or 0)  # type: ignore[call-overload]
    explained = int(measures.get("explained", 0) or 0)  # type: ignore[call-overload]
    return EXPLAINED if disagreeing and explained == disagreeing else OPEN


LEGEND: tuple[str, ...] = (
    f"- **{NOT_COMPARABLE}**: the source prints nothing this project can score against (a "
    "figure whose values the seed does not keep, data that are not public, running times of "
    "another machine); the reason is given.",
    f"- **{NOT_RUN}**: no committed record reproduces a published cell of the table.",
    f"- **{PROVISIONAL}**: reproduced below the source's protocol (fewer runs or stream orders, "
    "or published datasets not run: *Scale*); the column *On this evidence* says what the rules "
    "below give on it.",
    "- At the source's protocol, a table **discriminates** when the best constant prediction "
    "(\"always positive\" or \"always negative\") must miss at least "
    f"{MINORITY_TO_DISCRIMINATE} of its signed cells (fewer cannot be beaten at p < 0.05 by a "
    f"sign test), and is **one-sided** otherwise. **{REPLICATES}**: a discriminating table whose "
    "sign agreement is above the trivial prediction's, or a one-sided table with at least "
    f"{INSIDE_SHARE:.2f} of its printed cells inside the reproduced 95 % interval (a replication "
    f"as precise as the source would put about 83 % inside). **{ONE_SIDED}**: a one-sided table "
    "below that share whose sign agreement is at least the trivial prediction's, all it can be "
    f"scored against. Otherwise **{EXPLAINED}** when every disagreeing cell (outside its interval, "
    "or of the other sign) has a row in `config/published/known_disagreements.tsv`, and "
    f"**{OPEN}** when one has none.",
)
"""The rules of :func:`evidence_verdict` and of the scale, as the report prints them."""
