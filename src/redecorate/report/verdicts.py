"""One verdict per published table, from a fixed vocabulary, by a rule a statistician accepts.

Why a rule and not prose: a hand-written summary drifts from the numbers it summarises (the
project's README once said a table "holds 6 of 6" where its sign agreement was below what a
trivial prediction scores), and a rule that only compares shares (sign agreement above the
trivial prediction's, a share of cells "inside our interval") lets luck and noise pass for
replication. Here the verdict is a function of the measures of
:func:`redecorate.report.agreement.agreement_measures` and of the scale the table was
reproduced at, decided by two tests, and :data:`LEGEND` states the same rule in words, from
the same constants.

* **Signs.** A table's signed cells (reductions, differences between its two systems) are
  scored against the trivial prediction, the best constant sign given the *published* signs.
  They *replicate* when the reproduction beats it by more than chance: the one-sided exact
  McNemar test on the cells where one is right and the other wrong has p < :data:`ALPHA`
  (:func:`redecorate.stats.replication_tests.mcnemar_exact`). The cells of one learning curve
  move together, so the same test with every dataset's cells flipped together
  (``cluster_p``) is reported beside it.
* **Values.** A published mean is itself an estimate by the same protocol, as noisy as ours,
  so a printed cell agrees when the published value lies within the 95 % interval of the
  difference of two independent estimates, rep − pub ± t·√(se_rep² + se_pub²), the standard
  errors from the spread of our runs (the sources print none). A perfect replication puts
  95 % of its cells inside; the values *replicate* when at least :data:`VALUE_SHARE` do.
* A table **discriminates** when the trivial prediction must miss at least
  :data:`MINORITY_TO_DISCRIMINATE` of its signed cells (with fewer, even perfect agreement
  cannot reach p < 0.05). It replicates when both its signs and its values do.
* A **one-sided** table (the trivial prediction misses fewer cells) can only be judged by its
  values.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

__all__ = [
    "ALPHA", "EXPLAINED", "LEGEND", "MINORITY_TO_DISCRIMINATE", "NOT_COMPARABLE", "NOT_RUN", "ONE_SIDED", "OPEN",
    "PROVISIONAL", "REPLICATES", "SIGNS_ONLY", "VALUES_ONLY", "VALUE_SHARE", "VERDICTS", "discriminates",
    "evidence_verdict", "signs_contradict", "signs_replicate", "table_verdict", "values_replicate",
]

REPLICATES = "replicates"
SIGNS_ONLY = "signs replicate, values do not"
VALUES_ONLY = "values replicate, signs not beyond trivial"
ONE_SIDED = "one-sided: consistent"
EXPLAINED = "disagrees: explained"
OPEN = "disagrees: open"
PROVISIONAL = "provisional"
NOT_RUN = "not run"
NOT_COMPARABLE = "not comparable"
VERDICTS: tuple[str, ...] = (REPLICATES, SIGNS_ONLY, VALUES_ONLY, ONE_SIDED, EXPLAINED, OPEN, PROVISIONAL,
                             NOT_RUN, NOT_COMPARABLE)
"""Every verdict, in the order of the summary line."""

ALPHA = 0.05
"""The level of the sign test: signs replicate when its p-value is below it."""

MINORITY_TO_DISCRIMINATE = 5
"""A table discriminates when its published signs leave the best constant prediction at
least this many cells to miss: only then can perfect agreement beat that prediction at
p < 0.05 (the exact McNemar test with every discordant cell in the reproduction's favour:
0.5⁵ = 0.031; with four, 0.5⁴ = 0.063)."""

VALUE_SHARE = 0.8
"""The values replicate when at least this share of the printed cells lies within the
difference interval. Under a perfect replication each cell is inside with probability 0.95,
so a table of n independent cells puts a share 0.95 ± √(0.95·0.05/n) inside: 0.80 is three
standard errors below 0.95 for n = 20 cells (the size of Tables 4.11–4.16) and further for
the larger tables; the cells of one curve or one dataset are correlated, which widens the
share's spread, and the margin leaves room for that."""


def discriminates(measures: Mapping[str, object]) -> bool:
    """Whether the table's signed cells can tell a replication from the trivial prediction
    (:data:`MINORITY_TO_DISCRIMINATE`)."""
    return int(measures.get("compared", 0) or 0) > 0 and int(measures.get("minority", 0) or 0) >= MINORITY_TO_DISCRIMINATE


def _number(value: object) -> float:
    return float("nan") if value is None else float(value)  # type: ignore[arg-type]


def signs_replicate(measures: Mapping[str, object]) -> bool:
    """The sign test of :data:`ALPHA`: the exact McNemar p below it."""
    return _number(measures.get("sign_p")) < ALPHA


def signs_contradict(measures: Mapping[str, object]) -> bool:
    """The same test the other way: the reproduction's signs significantly *worse* than the
    trivial prediction's (``worse_p`` below :data:`ALPHA`)."""
    return _number(measures.get("worse_p")) < ALPHA


def values_replicate(measures: Mapping[str, object]) -> bool | None:
    """Whether at least :data:`VALUE_SHARE` of the printed cells lie within their difference
    interval; None when no printed cell has one (nothing to score the values by)."""
    share = _number(measures.get("value_share"))
    if int(measures.get("value_cells", 0) or 0) == 0 or math.isnan(share):  # type: ignore[call-overload]
        return None
    return share >= VALUE_SHARE


def evidence_verdict(measures: Mapping[str, object]) -> str:
    """What the evidence says, whatever the scale (see the module docstring):

    1. Neither a signed cell nor a printed cell with a difference interval: :data:`NOT_COMPARABLE`.
    2. A table that discriminates: :data:`REPLICATES` when its signs replicate and its values
       do (or it prints no value to score); :data:`SIGNS_ONLY` when its signs replicate and
       its values do not; :data:`VALUES_ONLY` when its values replicate and its sign agreement
       is at least the trivial prediction's without beating it significantly.
    3. A one-sided table: :data:`REPLICATES` when its values replicate and its signs do not
       contradict the source's beyond chance (:func:`signs_contradict`); :data:`ONE_SIDED` when
       it has no value to score and its sign agreement is at least the trivial prediction's.
    4. Otherwise it disagrees (its values, or its signs): :data:`EXPLAINED` when every
       disagreeing cell has a row in ``known_disagreements.tsv``, :data:`OPEN` when one has none.
    """
    agreement, trivial = _number(measures.get("sign_agreement")), _number(measures.get("trivial"))
    compared = int(measures.get("compared", 0) or 0)  # type: ignore[call-overload]
    values = values_replicate(measures)
    if compared == 0 and values is None:
        return NOT_COMPARABLE
    if discriminates(measures):
        if signs_replicate(measures):
            return SIGNS_ONLY if values is False else REPLICATES
        if values and agreement >= trivial:
            return VALUES_ONLY
    else:
        if values and not signs_contradict(measures):
            return REPLICATES
        if values is None and compared > 0 and agreement >= trivial:
            return ONE_SIDED
    disagreeing = int(measures.get("disagreeing", 0) or 0)  # type: ignore[call-overload]
    explained = int(measures.get("explained", 0) or 0)  # type: ignore[call-overload]
    return EXPLAINED if disagreeing and explained == disagreeing else OPEN


def table_verdict(*, not_comparable: bool, reproduced: bool, scale: str, on_evidence: str) -> str:
    """The verdict the report prints: :data:`NOT_COMPARABLE` for an item the source lets
    nobody reproduce, :data:`NOT_RUN` without a reproduced cell (or a scale of ``not run``),
    :data:`PROVISIONAL` below the source's protocol (``scale`` other than ``"thesis"``),
    else the evidence's (:func:`evidence_verdict`)."""
    if not_comparable:
        return NOT_COMPARABLE
    if not reproduced or scale == NOT_RUN:
        return NOT_RUN
    if scale != "thesis":
        return PROVISIONAL
    return on_evidence


LEGEND: tuple[str, ...] = (
    f"- **{NOT_COMPARABLE}**: the source prints nothing this project can score against (a "
    "figure whose values the seed does not keep, data that are not public, running times of "
    "another machine); the reason is given.",
    f"- **{NOT_RUN}**: no committed record reproduces a published cell of the table.",
    f"- **{PROVISIONAL}**: reproduced below the source's protocol (fewer runs or stream orders, "
    "or published datasets not run: *Scale*); the column *On this evidence* says what the rules "
    "below give on it.",
    "- *Signs*: a table's signed cells are scored against the trivial prediction, the best "
    "constant sign given the published signs. They **replicate** when the reproduction beats it "
    f"beyond chance: one-sided exact McNemar test on the cells where one of the two is right and "
    f"the other wrong, p < {ALPHA:g} (*p*); the same comparison with each dataset's cells flipped "
    "together is shown beside it (*clustered p*), since the cells of one curve are not independent.",
    "- *Values*: a published value agrees with ours when it lies within the 95 % interval of the "
    "difference of two independent estimates of the cell, rep − pub ± t·√(se_rep² + se_pub²), both "
    "standard errors estimated from the spread of our runs at the source's protocol (the sources "
    "print none; Student's t on runs − 1 degrees of freedom; the printed rounding counted as inside). "
    f"They **replicate** when at least {VALUE_SHARE:.2f} of the printed cells agree: a perfect "
    "replication puts 0.95 inside, and 0.80 is three standard errors below that for a table of "
    "20 cells. With one run there is no spread and the values are not scored.",
    "- A table **discriminates** when the trivial prediction must miss at least "
    f"{MINORITY_TO_DISCRIMINATE} of its signed cells (fewer cannot reach p < 0.05 even with perfect "
    f"agreement), and is **one-sided** otherwise. **{REPLICATES}**: a discriminating table whose signs "
    "and values replicate (or whose signs do and that prints no value to score), or a one-sided table "
    f"whose values replicate. **{SIGNS_ONLY}**: a discriminating table whose signs replicate and whose "
    f"values do not. **{VALUES_ONLY}**: a discriminating table whose values replicate and whose sign "
    "agreement is at least the trivial prediction's without beating it beyond chance. "
    f"**{ONE_SIDED}**: a one-sided table whose values do not replicate (or are not scored) and whose "
    "sign agreement is at least the trivial prediction's, all it can be scored against. Otherwise "
    f"**{EXPLAINED}** when every disagreeing cell (outside its interval, or of the other sign) has a row "
    f"in `config/published/known_disagreements.tsv`, and **{OPEN}** when one has none.",
)
"""The rules of :func:`evidence_verdict` and of the scale, as the report prints them."""
