"""The CPU hours the README quotes are what the commands it quotes print.

Each figure is quoted beside the ``python3 -m redecorate.plan`` command that gives it; here the
command is run and its "CPU h, all (plan)" column (what the plan prices, recorded units or not)
compared with the README's text, so that a change of the cost model or of an experiment file
cannot leave a stale number behind.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from redecorate.plan import main as plan_main

REPO = Path(__file__).resolve().parents[1]
MIRROR = "../shared/datasets/uci"


def _all_hours(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, str]:
    """The plan's "CPU h, all (plan)" column by experiment (and ``total``) for ``args``."""
    assert plan_main([*args, "--repo", str(REPO)]) == 0
    out = capsys.readouterr().out
    header = next(line for line in out.splitlines() if line.startswith("| experiment"))
    column = [c.strip() for c in header.strip("|").split("|")].index("CPU h, all (plan)")
    hours = {}
    for line in out.splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if line.startswith("| `") or line.startswith("| **total**"):
            hours[cells[0].strip("`*")] = cells[column]
    return hours


@pytest.mark.skipif(not (REPO / MIRROR).is_dir(), reason=f"ARFF mirror not found at {REPO / MIRROR}")
def test_the_readmes_plan_figures_are_what_its_commands_print(capsys, monkeypatch) -> None:
    monkeypatch.chdir(REPO)
    readme = " ".join((REPO / "README.md").read_text(encoding="utf-8").split())
    everything = _all_hours(capsys)["total"]
    offline_rows = _all_hours(capsys, f"data_mirror={MIRROR}")  # an experiment's row is its plan alone
    offline, passive, afa = offline_rows["total"], offline_rows["ch4_passive"], offline_rows["ch8_afa"]
    afa_registry = _all_hours(capsys, "experiments=[ch8_afa]")["ch8_afa"]
    online_only = f"{float(everything.replace(',', '')) - float(offline.replace(',', '')):,.1f}"
    expected = [
        f"{passive} CPU-hours by the plan (`python3 -m redecorate.plan experiments=[ch4_passive] data_mirror={MIRROR}`",
        f"all experiments together are {everything} CPU-hours by the plan (`python3 -m redecorate.plan`;",
        f"{offline} of them offline (`python3 -m redecorate.plan data_mirror={MIRROR}`",
        f"the other {online_only} are those datasets'",
        f"{afa} CPU h by the plan command, which prices each fold from its own masked rows (`python3 -m "
        f"redecorate.plan experiments=[ch8_afa] data_mirror={MIRROR} --by-dataset`; without the mirror it prices "
        f"from the registry's sizes: {afa_registry};",
    ]
    missing = [text for text in expected if text not in readme]
    assert not missing, "README figures that the commands no longer print:\n" + "\n".join(missing)
    assert not re.search(r"about \d+ CPU-hours by the plan", readme)
