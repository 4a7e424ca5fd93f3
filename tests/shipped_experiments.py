"""The experiment files the repository ships: the ones the README's experiment table lists.

Tests that hold every experiment to the repository's own standards (every scale defined,
documented job counts, thesis-style display names) iterate these, never
``config/experiments/*.yaml``: a user's own file there needs only the thesis protocol
(README, "Profiles are optional") and must not break the test suite.
"""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
HEADER = "| file | dissertation | kind | thesis scale |"


def readme_rows() -> list[tuple[list[str], str]]:
    """(experiment names, thesis-scale column) of every row of the README's experiment table."""
    table = (REPO / "README.md").read_text().split(HEADER)[1]
    rows = []
    for line in table.split("\n\n")[0].splitlines()[2:]:
        cells = line.split(" | ")
        rows.append((re.findall(r"`([a-z0-9_]+)`", cells[0]), cells[-1]))
    assert rows, "the README's experiment table was not found"
    return rows


def shipped_experiments() -> list[str]:
    """The names of the experiment files the README describes, in its order."""
    return [name for names, _ in readme_rows() for name in names]


def shipped_experiment_files() -> list[Path]:
    """Their paths in ``config/experiments/``, sorted."""
    return sorted(REPO / "config" / "experiments" / f"{name}.yaml" for name in shipped_experiments())
