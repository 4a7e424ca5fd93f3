"""The phase benchmark's parts must name calls the J48 engine still makes.

Why: ``benchmarks/tree_phases.py`` costs a part of ``build_tree`` by copying the engine with
that part's call made twice, found by its text; an edit of the engine that renames or reshapes
a call would otherwise only surface when someone runs the benchmark. Cheap: nothing compiles.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _phases_module():
    spec = importlib.util.spec_from_file_location("tree_phases", ROOT / "benchmarks" / "tree_phases.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("tree_phases", module)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("part", ["raising", "subtree_sum", "numeric", "nominal"])
def test_each_part_is_one_whole_call_of_the_engine(part):
    phases = _phases_module()
    source = (ROOT / phases.ENGINE).read_text(encoding="utf-8")
    marker = phases.PARTS[part][1]
    assert source.count(marker) == 1
    call = phases._statement(source, source.index(marker))
    assert call.endswith(")") and call.count("(") == call.count(")")
    assert phases.PARTS[part][0] in {"grow", "prune"}


def test_a_statement_ends_at_its_own_closing_parenthesis():
    phases = _phases_module()
    text = "    x = f(a, g(b), (c + d))\n    y = 2\n"
    assert phases._statement(text, 0) == "    x = f(a, g(b), (c + d))"
