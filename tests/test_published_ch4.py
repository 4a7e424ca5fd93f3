"""Consistency of the transcribed Tables 4.6-4.16 (spec Part 7: every row sums to 15)."""

from __future__ import annotations

from pathlib import Path

from redecorate.report.diversity_study import published_win_loss
from redecorate.report.published import read_published
from redecorate.report.replication import load_published

PUBLISHED = Path(__file__).resolve().parents[1] / "config" / "published"


def test_summary_rows_of_tables_4_8_to_4_16_sum_to_15() -> None:
    # "4.10" must stay text: as a float it would be Table 4.1.
    _, t = load_published([PUBLISHED / "ch4_summary_4.8-4.16.tsv"])
    assert sorted(t["table"].unique(), key=lambda s: int(s.split(".")[1])) == [
        f"4.{i}" for i in range(8, 17)
    ]
    assert (t[["wdl_w", "wdl_d", "wdl_l"]].sum(axis=1) == 15).all()
    assert (t[["sig_w", "sig_d", "sig_l"]].sum(axis=1) == 15).all()
    counts = t.groupby("table").size()
    early = ["4.8", "4.9", "4.10"]
    assert (counts[early] == 7).all() and (counts.drop(early) == 10).all()
    row = t[(t["table"] == "4.13") & (t["point"] == 5)].iloc[0]
    assert (row.sig_w, row.sig_d, row.sig_l, row.wdl_w, row.gm_ratio) == (2, 11, 2, 10, 1.0151)


def test_table_4_6_has_33_registry_datasets() -> None:
    from redecorate.data import load_registry

    t, _ = load_published([PUBLISHED / "ch4_table_4.6.tsv"])
    registry = load_registry(PUBLISHED.parents[1] / "config" / "datasets.yaml")
    names = registry.names() if callable(getattr(registry, "names", None)) else list(registry)
    assert t["dataset"].nunique() == 33 and set(t["dataset"]) <= set(names)
    assert set(t["algorithm"]) == {"adaboost", "decorate"} and (t["point"] == 100).all()
    wide = t.pivot(index="dataset", columns="algorithm", values="published")
    assert wide.loc["diabetes", "decorate"] == 75.52 and wide.loc["zoo", "adaboost"] == 96.18


def test_table_4_7_cells_sum_to_15() -> None:
    t = published_win_loss(PUBLISHED / "ch4_diversity_4.7.tsv", "diversity")
    assert len(t) == 10 and ((t["sig_w"] + t["sig_l"]) == 15).all()


def test_every_published_file_has_the_long_form_layout() -> None:
    """One layout for every chapter: each file reads, every row says which number it is."""
    from redecorate.report.contents import CONTENTS_FILE
    from redecorate.report.published import DISAGREEMENTS_FILE, OPEN_FILE

    # Beside the values: the known disagreements and the list of tables (other layouts).
    files = sorted(f for f in PUBLISHED.glob("*.tsv") if f.name not in (DISAGREEMENTS_FILE, CONTENTS_FILE, OPEN_FILE))
    assert len(files) >= 10
    rows = read_published(files)
    assert set(rows["source"]) == {f.name for f in files}
    assert (rows["statistic"] != "").all() and (rows["table"] != "").all()
    text_only = rows[rows["value"].isna() & (rows["printed"] != "")]
    # §4.4's p is printed as text; Oza's garbled cells are marked as such, never given a value.
    assert set(text_only["printed"]) <= {"<<1e-50", "illegible"}, set(text_only["printed"])
    assert set(text_only.loc[text_only["printed"] == "illegible", "source"]) <= {"oza_tables_3.3-3.11.tsv"}


def test_long_form_errors_name_the_file_line_and_fix(tmp_path: Path) -> None:
    import pytest

    from redecorate.report.published import PublishedFormatError

    old = tmp_path / "old.tsv"
    old.write_text("table\tdataset\tpct\talgo\taccuracy\n4.2\tiris\t1\tj48\t90\n", encoding="utf-8")
    with pytest.raises(PublishedFormatError, match=r"old\.tsv.*missing comparison.*README"):
        read_published(old)
    bad = tmp_path / "bad.tsv"
    bad.write_text("table\tcomparison\tdataset\tpoint\tsystem\tmetric\tstatistic\tvalue\n"
                   "4.2\t\tiris\t1\tj48\taccuracy\tmean\t90\n"
                   "4.2\t\tiris\tten\tj48\taccuracy\tmean\t91\n", encoding="utf-8")
    with pytest.raises(PublishedFormatError, match=r"bad\.tsv, line 3, column point: 'ten'"):
        read_published(bad)


def test_tables_4_2_to_4_5_equal_the_spec_transcription() -> None:
    """The long-form file holds exactly the spec's checked cells (750 of them)."""
    import pandas as pd
    import pytest

    spec = PUBLISHED.parents[2] / "shared" / "spec" / "published_ch4_tables_4.2-4.5.tsv"
    if not spec.is_file():
        pytest.skip(f"the specification notes are not beside the repository ({spec})")
    want = pd.read_csv(spec, sep="\t", dtype={"table": str})
    cells, _ = load_published([PUBLISHED / "ch4_tables_4.2-4.5.tsv"])
    got = cells.rename(columns={"algorithm": "algo", "point": "pct", "published": "accuracy"})
    key = ["dataset", "pct", "algo"]
    want = want.assign(pct=want["pct"].astype(float)).sort_values(key).reset_index(drop=True)
    got = got.sort_values(key).reset_index(drop=True)
    assert len(got) == len(want) == 750
    pd.testing.assert_frame_equal(got[[*key, "accuracy"]], want[[*key, "accuracy"]], check_dtype=False)


def test_known_disagreements_explain_the_cells_they_name(tmp_path: Path) -> None:
    import pandas as pd
    import pytest

    from redecorate.report.published import (
        DISAGREEMENTS_FILE,
        PublishedFormatError,
        explain_cells,
        read_disagreements,
    )

    notes = read_disagreements(PUBLISHED / DISAGREEMENTS_FILE)
    cells = pd.DataFrame({"table": ["4.2-4.5"] * 4, "dataset": ["splice", "splice", "hepatitis", "hepatitis"],
                          "point": [50.0, 50.0, 1.0, 2.0], "algorithm": ["rf", "j48", "j48", "j48"]})  # fmt: skip
    got = explain_cells(cells, notes, system="algorithm")
    assert "Instance_name" in got[0] and got[1] == "" and "one-example" in got[2] and got[3] == ""
    bad = tmp_path / "notes.tsv"
    bad.write_text("table\tdataset\tpoint\tsystem\texplanation\n4.2\tiris\t\tj48\t\n", encoding="utf-8")
    with pytest.raises(PublishedFormatError, match=r"notes\.tsv, line 2, column explanation: empty"):
        read_disagreements(bad)
    assert read_disagreements(tmp_path / "absent.tsv").empty

