"""The cost plan that packs units into jobs against the CPU the committed runs measured.

Why: jobs are sized by estimated CPU (``job_seconds``) and given cluster time limits from it;
a model that drifts from the measurements makes jobs many times longer (or shorter) than
meant. Every committed ``reproduced/*/provenance.json`` with measured experiment jobs is
replanned with today's model (:mod:`redecorate.kinds.calibration`); a change of the model
that takes an experiment's plan beyond 1.5× of its measured CPU fails here.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from redecorate.kinds.calibration import planned_vs_measured

REPO = Path(__file__).resolve().parents[1]
PROVENANCE = sorted((REPO / "reproduced").glob("*/provenance.json"))
TOLERANCE = 1.5


@pytest.mark.parametrize("path", PROVENANCE, ids=[p.parent.name for p in PROVENANCE])
def test_plan_is_within_one_and_a_half_times_the_measured_cpu(path: Path) -> None:
    calibration = planned_vs_measured(path, REPO)
    if calibration is None:
        pytest.skip("no measured experiment jobs, or no experiment file of that name")
    assert 1 / TOLERANCE <= calibration.ratio <= TOLERANCE, (
        f"{calibration.experiment}: planned {calibration.planned:.0f} s of CPU, measured "
        f"{calibration.measured:.0f} s (ratio {calibration.ratio:.2f}); per dataset "
        + ", ".join(f"{d} {p:.0f}/{m:.0f}" for d, (p, m) in calibration.per_dataset.items()))


def test_most_committed_experiments_are_checked() -> None:
    """The check above must not pass by skipping: the committed runs measure most experiments."""
    checked = [p for p in PROVENANCE if planned_vs_measured(p, REPO) is not None]
    assert len(checked) >= 10
