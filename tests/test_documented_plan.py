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
MIRROR = "../shared/datasets/uci"


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


def _plan_hours(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, str]:
    """``python3 -m redecorate.plan`` with ``args``: its "CPU h, all (plan)" column (what the
    plan prices, recorded units or not) by experiment and ``total``, as printed."""
    from redecorate.plan import main

    assert main([*args, "--repo", str(REPO)]) == 0
    out = capsys.readouterr().out
    header = next(line for line in out.splitlines() if line.startswith("| experiment"))
    column = [c.strip() for c in header.strip("|").split("|")].index("CPU h, all (plan)")
    return {cells[0].strip("`*"): cells[column] for line in out.splitlines()
            if line.startswith(("| `", "| **total**")) for cells in [[c.strip() for c in line.strip("|").split("|")]]}


@pytest.mark.skipif(not (REPO / MIRROR).is_dir(), reason=f"ARFF mirror not found at {REPO / MIRROR}")
def test_the_readme_totals_are_what_the_commands_beside_them_print(plans, capsys, monkeypatch) -> None:
    """Each total is quoted beside the plan command that gives it; the command is run here."""
    monkeypatch.chdir(REPO)
    text = " ".join((REPO / "README.md").read_text(encoding="utf-8").split())
    everything = sum(p["hours"] for p in plans.values())
    offline_rows = _plan_hours(capsys, f"data_mirror={MIRROR}")  # an experiment's row is its plan alone
    offline = _number(offline_rows["total"])
    passive = plans["ch4_passive"]
    expected = [
        f"= {passive['units']} units of work (10 folds × 10 curve points each), packed into {passive['jobs']} jobs, "
        f"{offline_rows['ch4_passive']} CPU-hours by the plan (`python3 -m redecorate.plan experiments=[ch4_passive] "
        f"data_mirror={MIRROR}`",
        f"all experiments together are {everything:,.1f} CPU-hours by the plan (`python3 -m redecorate.plan`;",
        f"{offline:,.1f} of them offline (`python3 -m redecorate.plan data_mirror={MIRROR}`",
        f"the other {everything - offline:,.1f} are those datasets'",
        f"{offline_rows['ch8_afa']} CPU h by the plan command, which prices each fold from its own masked rows "
        f"(`python3 -m redecorate.plan experiments=[ch8_afa] data_mirror={MIRROR} --by-dataset`; without the "
        f"mirror it prices from the registry's sizes: {plans['ch8_afa']['hours']:.1f};",
    ]
    missing = [quoted for quoted in expected if quoted not in text]
    assert not missing, "README figures that the commands no longer print:\n" + "\n".join(missing)
    assert not re.search(r"about \d+ CPU-hours by the plan", text)


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
