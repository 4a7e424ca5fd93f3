"""Oza's Tables 3.3-3.11 as transcribed in config/published/oza_tables_3.3-3.11.tsv."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from redecorate.report.published import read_published

REPO = Path(__file__).resolve().parents[1]
TSV = REPO / "config" / "published" / "oza_tables_3.3-3.11.tsv"
SEED = REPO.parent / "shared" / "seeds" / "001_64112686ee2ae0e1.txt"
TABLES = ["3.3", "3.4", "3.5", "3.6", "3.7", "3.8", "3.9", "3.10", "3.11"]


def test_every_table_has_its_datasets_and_columns() -> None:
    rows = read_published(TSV)
    means = rows[rows["statistic"] == "mean"]
    per_table = means.groupby("table")["dataset"].nunique().to_dict()
    assert per_table == {"3.3": 8, "3.8": 8, **{t: 14 for t in TABLES if t not in ("3.3", "3.8")}}
    columns = means.groupby("table")["system"].nunique().to_dict()
    assert columns == {"3.3": 3, "3.4": 3, "3.5": 3, "3.6": 4, "3.7": 4, "3.8": 3, "3.9": 3,
                       "3.10": 3, "3.11": 6}
    # Every garbled cell is text (NaN value), never a number invented for it.
    assert means["value"].isna().sum() == (means["printed"] == "illegible").sum() == 11


def test_every_printed_number_is_in_its_table_in_the_seed() -> None:
    """Each value (with its star) occurs in the seed text between its table's caption and the
    next table's, so a mistyped digit cannot pass."""
    if not SEED.is_file():
        pytest.skip("seed text ../shared/seeds/001_*.txt not found")
    text = SEED.read_text(encoding="utf-8", errors="replace")
    starts = {t: text.index(f"Table {t}: R", 100_000) for t in TABLES}
    rows = read_published(TSV)
    stars = set(map(tuple, rows[rows["statistic"] == "star"][["table", "dataset", "system"]].to_numpy()))
    for table in TABLES:
        later = [s for s in starts.values() if s > starts[table]]
        segment = text[starts[table]:min(later) if later else len(text)]
        tokens = re.findall(r"[0-9][0-9.]*\*?", segment)
        here = rows[(rows["table"] == table) & (rows["statistic"] == "mean") & rows["value"].notna()]
        for _, row in here.iterrows():
            star = "*" if (table, row["dataset"], row["system"]) in stars else ""
            assert row["printed"] + star in tokens, (table, row["dataset"], row["system"], row["printed"])
