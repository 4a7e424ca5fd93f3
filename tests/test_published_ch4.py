"""Consistency of the transcribed Tables 4.6-4.16 (spec Part 7: every row sums to 15)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

PUBLISHED = Path(__file__).resolve().parents[1] / "config" / "published"


def test_summary_rows_of_tables_4_8_to_4_16_sum_to_15() -> None:
    # "4.10" must stay text: as a float it would be Table 4.1.
    t = pd.read_csv(PUBLISHED / "ch4_summary_4.8-4.16.tsv", sep="\t", dtype={"table": str})
    assert sorted(t["table"].unique(), key=lambda s: int(s.split(".")[1])) == [
        f"4.{i}" for i in range(8, 17)
    ]
    assert (t[["wdl_w", "wdl_d", "wdl_l"]].sum(axis=1) == 15).all()
    assert (t[["sig_w", "sig_d", "sig_l"]].sum(axis=1) == 15).all()
    counts = t.groupby("table").size()
    early = ["4.8", "4.9", "4.10"]
    assert (counts[early] == 7).all() and (counts.drop(early) == 10).all()
    row = t[(t["table"] == "4.13") & (t["pct"] == 5)].iloc[0]
    assert (row.sig_w, row.sig_d, row.sig_l, row.wdl_w, row.gm_ratio) == (2, 11, 2, 10, 1.0151)


def test_table_4_6_has_33_registry_datasets() -> None:
    from redecorate.data import load_registry

    t = pd.read_csv(PUBLISHED / "ch4_table_4.6.tsv", sep="\t")
    registry = load_registry(PUBLISHED.parents[1] / "config" / "datasets.yaml")
    names = registry.names() if callable(getattr(registry, "names", None)) else list(registry)
    assert t["dataset"].nunique() == 33 and set(t["dataset"]) <= set(names)
    assert set(t["algo"]) == {"adaboost", "decorate"} and (t["pct"] == 100).all()
    wide = t.pivot(index="dataset", columns="algo", values="accuracy")
    assert wide.loc["diabetes", "decorate"] == 75.52 and wide.loc["zoo", "adaboost"] == 96.18


def test_table_4_7_cells_sum_to_15() -> None:
    t = pd.read_csv(PUBLISHED / "ch4_diversity_4.7.tsv", sep="\t")
    assert len(t) == 10 and ((t["sig_w"] + t["sig_l"]) == 15).all()
