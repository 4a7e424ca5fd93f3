"""The HTML report's captions (workflow/report/*.rst) name the experiment's own kind's
dissertation counterpart, not chapter 4's for every kind (rendered as Snakemake renders them:
Jinja with ``snakemake.wildcards``, ``snakemake.params``)."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from redecorate.kinds import KINDS

jinja2 = pytest.importorskip("jinja2")

CAPTIONS = Path(__file__).resolve().parents[1] / "workflow" / "report"
#: What each kind's table caption must name (its chapter and tables).
COUNTERPART = {
    "passive": "Tables 4.2–4.5",
    "noise": "Chapter 5, Tables 5.2–5.10",
    "active": "Chapter 6, Tables 6.1–6.4",
    "acquisition": "Chapter 8",
    "feature_subsets": "Bommaganti",
    "online": "Oza (2001)",
}


def _render(name: str, kind: str) -> str:
    snakemake = SimpleNamespace(wildcards=SimpleNamespace(experiment="x"),
                                params=SimpleNamespace(report={"kind": kind, "published": []}))
    text = jinja2.Template((CAPTIONS / name).read_text(encoding="utf-8")).render(snakemake=snakemake)
    return " ".join(text.split())


def test_every_kind_has_a_counterpart_here() -> None:
    assert set(COUNTERPART) == set(KINDS)


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_table_and_figure_captions_are_the_kinds_own(kind: str) -> None:
    tables, figures = _render("tables.rst", kind), _render("figures.rst", kind)
    assert COUNTERPART[kind] in tables, tables
    assert "kind's own" not in tables + figures  # not the fallback for an unknown kind
    if kind != "passive":
        assert "Tables 4.2–4.5" not in tables and "Figures 4.1–4.4" not in figures
    else:
        assert "Figures 4.1–4.4" in figures
