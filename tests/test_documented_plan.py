"""The job counts and planned CPU hours that README.md, docs/operations.md and
docs/performance.md state are the planner's (:func:`redecorate.kinds.jobs.plan_experiment`
at the thesis scale, the default ``job_seconds``, every dataset of the registry).

Why: the documents had drifted from the plan (fs_ensembles 46 jobs where the planner makes 16,
oza_online 380 where it makes 128, ch4_passive 47 where it makes 51); a change of costs,
packing or protocol now fails here until the numbers are updated.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from shipped_experiments import readme_rows, shipped_experiment_files

from redecorate.data import load_registry
from redecorate.experiments import load_experiment
from redecorate.kinds.jobs import DEFAULT_TARGET_SECONDS, plan_experiment, planned_hours

REPO = Path(__file__).resolve().parents[1]
SCHEMA = REPO / "workflow" / "schemas" / "experiment.schema.yaml"


@pytest.fixture(scope="module")
def plans() -> dict[str, dict[str, float]]:
    """Experiment -> jobs, units and planned CPU hours, for every shipped experiment file (a
    user's own file in config/experiments/ is not in the documents)."""
    registry = load_registry(REPO / "config" / "datasets.yaml")
    out = {}
    for path in shipped_experiment_files():
        spec = load_experiment(path, schema=SCHEMA, known_datasets=registry)
        chunks = [c for cs in plan_experiment(spec, registry, DEFAULT_TARGET_SECONDS).values() for c in cs]
        out[spec.name] = {"jobs": len(chunks), "units": sum(len(c.units) for c in chunks),
                          "hours": planned_hours(chunks)}  # fmt: skip
    return out


def _number(text: str) -> float:
    return float(text.replace(",", ""))


def test_the_readme_table_states_the_planned_jobs_and_hours(plans) -> None:
    checked = 0
    for names, text in readme_rows():
        jobs = re.search(r"(\d[\d,]*(?: \+ \d[\d,]*)*) jobs", text)
        if jobs:
            counts = [int(_number(n)) for n in jobs.group(1).split(" + ")]
            if len(counts) == 1 and len(names) > 1:  # "27 jobs ... each"
                counts *= len(names)
            assert counts == [plans[n]["jobs"] for n in names], (names, text[:80])
            checked += len(names)
        hours = re.search(r"~([\d,.]+) CPU h", text)
        if hours:
            stated = _number(hours.group(1))
            each = "each" in text[hours.end():hours.end() + 6]
            planned = [plans[n]["hours"] for n in names] if each else [sum(plans[n]["hours"] for n in names)]
            decimals = len(hours.group(1).partition(".")[2])
            assert all(round(h, decimals) == stated for h in planned), (names, stated, planned)
    assert checked >= len(plans) - 1, "the table must state the plan of (nearly) every experiment"


def test_the_readme_totals_are_the_plans(plans) -> None:
    text = " ".join((REPO / "README.md").read_text().split())
    total = sum(p["hours"] for p in plans.values())
    online = plans["oza_online_boosting"]["hours"] + plans["oza_online_nn"]["hours"]
    match = re.search(r"about ([\d,]+) CPU-hours by the plan .*?, ([\d,]+) of them the thesis scale of "
                      r"`oza_online_boosting` and `oza_online_nn`.*?the rest about (\d+)", text)
    assert match, "the README's plan totals were not found"
    assert _number(match.group(1)) == round(total, -1)
    assert _number(match.group(2)) == round(online, -1)
    assert _number(match.group(3)) == round(total - online)
    passive = plans["ch4_passive"]
    assert f"= {passive['units']} units of work (10 folds × 10 curve points each), packed into {passive['jobs']} jobs" in text


def test_operations_and_performance_state_the_plans(plans) -> None:
    operations = " ".join((REPO / "docs" / "operations.md").read_text().split())
    passive = plans["ch4_passive"]
    bundles = -(-passive["jobs"] // 4)
    assert (f"`ch4_passive` at the thesis scale is {passive['units']} units of work (15 datasets × 5 "
            f"algorithms × 10 runs) packed into {passive['jobs']} experiment jobs") in operations
    assert f"→ {bundles} bundles of 4" in operations
    performance = " ".join((REPO / "docs" / "performance.md").read_text().split())
    jobs = sum(p["jobs"] for p in plans.values())
    units = sum(p["units"] for p in plans.values())
    hours = sum(p["hours"] for p in plans.values())
    assert (f"plans {passive['jobs']} experiment jobs for `ch4_passive` at the thesis scale "
            f"({passive['units']} units) and {jobs:,} for the {len(plans)} experiment files "
            f"({units:,} units, {hours:,.0f} CPU h") in performance
