"""The replication report of every published table (``reproduced/REPLICATION.md``).

Three kinds of check: the list of the sources' tables and figures against the transcribed
values (none missing, none twice); the committed report and the README lines that quote it
against what the committed records give, byte for byte; and the verdict and scale rules on
hand-made measures and records.
"""

from __future__ import annotations

import difflib
import json
from pathlib import Path

import pandas as pd
import pytest

from redecorate.report.contents import CONTENTS_FILE, read_contents
from redecorate.report.published import DISAGREEMENTS_FILE, OPEN_FILE, read_published
from redecorate.report.replication_index import (
    REPORT_FILE,
    readme_block,
    render_index,
    summary_line,
    with_readme_block,
)
from redecorate.report.verdicts import NOT_COMPARABLE
from redecorate.reproduction import Inputs, experiment_records, replication_index

REPO = Path(__file__).resolve().parents[1]
PUBLISHED = REPO / "config" / "published"
REPRODUCED = REPO / "reproduced"
REGENERATE = "python3 tools/replication_report.py"

SHARED_KEYS = {("ch4_tables_4.2-4.5.tsv", "4.2-4.5")}
"""Transcribed keys several rows score: the dissertation prints DECORATE's accuracies in
each of Tables 4.2–4.5, transcribed once, and each table takes its two systems' cells."""


def _published_keys() -> set[tuple[str, str]]:
    """Every (file, table) of the transcribed values."""
    keys = set()
    for path in sorted(PUBLISHED.glob("*.tsv")):
        if path.name in (DISAGREEMENTS_FILE, CONTENTS_FILE, OPEN_FILE):
            continue
        keys |= {(path.name, str(t)) for t in read_published(path)["table"].unique()}
    return keys


def test_every_published_table_has_its_row_and_none_has_two() -> None:
    items = read_contents(PUBLISHED / CONTENTS_FILE)
    published = _published_keys()
    claims: dict[tuple[str, str], list[str]] = {}
    for item in items:
        for key in item.published:
            claims.setdefault(key, []).append(f"{item.source} {item.item}")
    assert published - set(claims) == set(), "published tables no row scores"
    assert set(claims) - published == set(), "rows claim tables the published files do not have"
    twice = {key: rows for key, rows in claims.items() if len(rows) > 1}
    assert set(twice) == SHARED_KEYS, twice
    names = [(item.source, item.item) for item in items]
    assert len(names) == len(set(names))


def test_every_row_names_experiments_that_read_its_published_files() -> None:
    import yaml

    for item in read_contents(PUBLISHED / CONTENTS_FILE):
        for name in item.experiments:
            path = REPO / "config" / "experiments" / f"{name}.yaml"
            assert path.is_file(), f"{item.item}: experiment {name} has no file"
            report = yaml.safe_load(path.read_text(encoding="utf-8")).get("report", {})
            files = set(report.get("published", []))
            files |= {o.get("published") for o in (report.get("analysis_options") or {}).values()}
            analyses = set(report.get("analyses", []))
            for file, _ in item.published:
                assert (file in files or (file == "section_4_4_spearman.tsv" and "diversity_correlation" in analyses)
                        or (file == "ch4_diversity_4.7.tsv" and "diversity_win_loss" in analyses)), (item.item, name, file)
        for reading in item.readings:
            assert (REPRODUCED / reading).is_dir(), f"{item.item}: reading {reading} is not in reproduced/"


@pytest.fixture(scope="module")
def committed() -> tuple[object, str]:
    """The index of the committed records and its Markdown (about two minutes of CPU)."""
    index = replication_index(Inputs.of_repository(REPRODUCED, REPO))
    return index, render_index(index)


@pytest.mark.slow
def test_the_committed_report_is_what_the_committed_records_give(committed) -> None:
    _, text = committed
    path = REPRODUCED / REPORT_FILE
    current = path.read_text(encoding="utf-8") if path.is_file() else ""
    if current != text:
        diff = "".join(list(difflib.unified_diff(current.splitlines(True), text.splitlines(True),
                                                 "committed", "regenerated", n=1))[:60])  # fmt: skip
        pytest.fail(f"{path} is not what the committed records give; regenerate it with `{REGENERATE}` "
                    f"and commit it.\n{diff}")


@pytest.mark.slow
def test_the_readmes_quote_the_generated_summary(committed) -> None:
    index, _ = committed
    summary = summary_line(index)
    for readme, report in ((REPO / "README.md", f"reproduced/{REPORT_FILE}"), (REPRODUCED / "README.md", REPORT_FILE)):
        text = readme.read_text(encoding="utf-8")
        expected = with_readme_block(text, readme_block(summary, report), str(readme))
        assert text == expected, f"{readme}: the summary block is not the report's; run `{REGENERATE}`"


@pytest.mark.slow
def test_every_reproduced_row_has_evidence_and_every_verdict_is_known(committed) -> None:
    """Each table whose experiment left records is scored on cells of its own keys (a wrong
    key or experiment in the contents would leave it without), and the verdicts are words of
    the vocabulary."""
    from redecorate.report.verdicts import VERDICTS

    index, text = committed
    for row in index.rows:
        assert row.verdict in VERDICTS
        ran = any((REPRODUCED / e / "records.parquet").is_file() for e in row.item.experiments)
        if row.item.published and ran:
            assert len(row.evidence) and set(row.evidence["table"]) <= row.item.tables, row.item.item
    assert f"**Summary.** {summary_line(index)}" in text


@pytest.mark.slow
def test_every_open_table_says_why_and_no_note_outlives_its_disagreement(committed) -> None:
    """A table that disagrees without a known cause carries a sentence saying what was found
    and tried (``open_disagreements.tsv``), and a note whose table no longer disagrees, or
    whose row does not exist, is stale."""
    from redecorate.report.published import read_open_notes
    from redecorate.report.verdicts import OPEN

    index, text = committed
    notes = read_open_notes(PUBLISHED / OPEN_FILE)
    rows = {(r.item.source, r.item.item): r for r in index.rows}
    assert set(notes) <= set(rows), sorted(set(notes) - set(rows))
    for key, row in rows.items():
        assert (row.verdict == OPEN) == bool(row.open_note), (key, row.verdict, row.open_note[:60])
        if row.open_note:
            assert row.open_note in text


def test_the_readme_quotes_the_summary_on_its_first_screen() -> None:
    """A reader sees which results hold before anything else: the generated block comes
    before the README's first section and within its first screen (24 lines)."""
    from redecorate.report.replication_index import README_END, README_START

    lines = (REPO / "README.md").read_text(encoding="utf-8").splitlines()
    first_section = next(i for i, line in enumerate(lines) if line.startswith("## "))
    start, end = lines.index(README_START), lines.index(README_END)
    assert start < end < min(first_section, 24), (start, end, first_section)


def test_the_readme_block_replaces_only_what_is_between_its_markers() -> None:
    block = readme_block("3 tables: replicates 3.", "REPLICATION.md")
    text = f"intro\n\n{block}\n\nrest\n"
    updated = with_readme_block(text, readme_block("4 tables: replicates 4.", "REPLICATION.md"), "x")
    assert updated.startswith("intro\n\n") and updated.endswith("\n\nrest\n") and "4 tables" in updated
    assert "3 tables" not in updated
    with pytest.raises(ValueError, match="no replication summary block"):
        with_readme_block("no markers", block, "README.md")


# The verdict rule itself: tests/test_verdicts.py.


# --- scale and records -------------------------------------------------------------------------


def _write_records(directory: Path, runs: list[int], experiment: str, algorithm: str = "a") -> None:
    directory.mkdir(parents=True, exist_ok=True)
    rows = [(experiment, "iris", algorithm, r, f, 10, 10, "accuracy", 90.0, 0.0, 1) for r in runs for f in range(3)]
    pd.DataFrame(rows, columns=["experiment", "dataset", "algorithm", "run", "fold", "point", "n_train", "metric",
                                "value", "fit_seconds", "ensemble_size"]).to_parquet(directory / "records.parquet")


def test_an_experiments_records_include_its_sub_directories_of_the_same_experiment(tmp_path: Path) -> None:
    _write_records(tmp_path / "exp", [0, 1], "exp")
    _write_records(tmp_path / "exp" / "half", [0, 2], "exp")  # run 0 again, and run 2
    (tmp_path / "exp" / "half" / "provenance.json").write_text(json.dumps({"experiment": {"name": "exp"}}))
    _write_records(tmp_path / "exp" / "other", [5], "exp")  # no provenance: not this experiment's
    records = experiment_records(tmp_path, "exp")
    assert sorted(records["run"].unique()) == [0, 1, 2]
    assert len(records) == 3 * 3  # run 0 counted once
    assert experiment_records(tmp_path, "absent") is None


def test_the_scale_is_read_from_the_records_against_the_thesis_protocol() -> None:
    from redecorate.report.agreement import evidence_frame
    from redecorate.report.contents import PublishedItem
    from redecorate.report.replication_index import PILOT, THESIS, ExperimentEvidence, _scale

    item = PublishedItem("dissertation", "Table 9.9", "", ("exp",), (("f.tsv", "9.9"),), (), (), "")
    rows = [(d, a, r, f) for d in ("iris", "labor") for a in ("a", "b") for r in (0, 1) for f in range(3)]
    records = pd.DataFrame(rows, columns=["dataset", "algorithm", "run", "fold"])
    evidence = evidence_frame([{"table": "9.9", "dataset": d, "system": "a_vs_b", "published": 1.0,
                                "reproduced": 2.0, "signed": True} for d in ("iris", "labor")])  # fmt: skip

    def scale(recs: pd.DataFrame, runs: int, published: list[str], offline: set[str] = frozenset()) -> object:
        return _scale(item, [ExperimentEvidence("exp", recs, evidence, runs, None, ("iris", "labor"))], evidence,
                      published, set(offline))  # fmt: skip

    assert scale(records, 2, ["iris", "labor"]).status == THESIS
    below = scale(records[records["run"] == 0], 2, ["iris", "labor"])
    assert below.status == PILOT and below.text == "pilot: 1 of 2 runs"
    # one system behind on one dataset is enough to be below the protocol
    partial = records[~((records["dataset"] == "labor") & (records["algorithm"] == "b") & (records["run"] == 1))]
    assert scale(partial, 2, ["iris", "labor"]).text == "pilot: 1 of 2 runs, up to 2 on some datasets"
    missing = scale(records, 2, ["iris", "labor", "promoters", "glass"], {"promoters"})
    assert missing.status == PILOT
    assert missing.text == "not comparable: 2 of 4 datasets (promoters only on OpenML; glass not run)"
    assert scale(records.iloc[:0], 2, ["iris"]).status == "not run"


def test_the_scale_prices_the_datasets_the_records_lack_by_the_plan() -> None:
    """A dataset left out says what running it would cost (a laptop's evening or a cluster's
    job), summed over the experiments that list it, as the plan prices it; the real index reads
    the plan of the shipped file."""
    from redecorate.report.agreement import evidence_frame
    from redecorate.report.contents import PublishedItem
    from redecorate.report.replication_index import ExperimentEvidence, _scale
    from redecorate.reproduction import experiment_evidence

    item = PublishedItem("dissertation", "Table 9.9", "", ("exp",), (("f.tsv", "9.9"),), (), (), "")
    records = pd.DataFrame([("iris", "a", 0, 0)], columns=["dataset", "algorithm", "run", "fold"])
    evidence = evidence_frame([{"table": "9.9", "dataset": "iris", "system": "a", "published": 1.0,
                                "reproduced": 2.0, "signed": False}])  # fmt: skip
    hours = {"iris": 0.2, "glass": 4.25, "sick": 0.02, "promoters": 0.01}
    both = [ExperimentEvidence(name, records, evidence, 1, None, ("iris", "glass", "sick", "promoters"), hours)
            for name in ("exp", "other")]
    text = _scale(item, both, evidence, ["iris", "glass", "sick", "promoters"], {"promoters"}).text
    assert text == ("not comparable: 1 of 4 datasets (promoters only on OpenML: <0.1 CPU h by the plan; "
                    "glass, sick not run: 8.5 CPU h by the plan)")

    from redecorate.data import load_registry
    from redecorate.experiments import load_experiment
    from redecorate.kinds.jobs import plan_experiment

    inputs = Inputs.of_repository(REPRODUCED, REPO)
    registry = load_registry(inputs.registry)
    planned = experiment_evidence(inputs, "oza_online_nn", registry).planned_hours
    spec = load_experiment(inputs.experiments / "oza_online_nn.yaml", schema=inputs.schema, scale="thesis")
    expected = sum(c.estimated_seconds for c in plan_experiment(spec, registry)["synthetic1"]) / 3600
    assert planned["synthetic1"] == pytest.approx(expected) and expected > 1
    # A user's registry without some of the file's datasets (a workflow run with registry=...)
    # prices the ones it has and leaves the others out, never an error.
    mine = {name: registry[name] for name in ("car", "nursery")}
    assert set(experiment_evidence(inputs, "oza_online_nn", mine).planned_hours) == {"car", "nursery"}
    assert experiment_evidence(inputs, "oza_online_nn", {}).planned_hours == {}


@pytest.mark.parametrize("name", sorted(p.parent.name for p in REPRODUCED.glob("*/records.parquet")
                                        if (REPO / "config" / "experiments" / f"{p.parent.name}.yaml").is_file()))
def test_an_experiment_run_only_on_datasets_the_sources_do_not_print_has_no_evidence_and_no_error(
        tmp_path: Path, name: str) -> None:
    """The quick scale runs scikit-learn's bundled sets, which no published table prints: the
    report of every table is then empty, never an error (chapter 7's failed on a frame of
    cells without columns, so the quick run's replication report stopped the workflow)."""
    from redecorate.reproduction import experiment_evidence

    records = pd.read_parquet(REPRODUCED / name / "records.parquet")
    first = records["dataset"].iloc[0]
    own = records[records["dataset"] == first].assign(dataset="sk-iris")
    (tmp_path / name).mkdir()
    own.to_parquet(tmp_path / name / "records.parquet", index=False)
    evidence = experiment_evidence(Inputs.of_repository(tmp_path, REPO), name).evidence
    per_dataset = evidence[evidence["dataset"].fillna("") != ""]
    assert per_dataset["reproduced"].isna().all(), per_dataset[per_dataset["reproduced"].notna()].head()


def test_a_run_on_datasets_no_table_prints_gets_no_verdict_but_not_run(tmp_path: Path) -> None:
    """A quick-scale root (scikit-learn's sets only): every table the run's experiments
    reproduce is *not run* (its scale says 0 of N datasets), never *provisional*, which would
    read as a replication below the protocol."""
    from redecorate.report.verdicts import NOT_RUN

    for name in ("ch4_diversity_table", "ch7_binary"):
        records = pd.read_parquet(REPRODUCED / name / "records.parquet")
        own = records[records["dataset"] == records["dataset"].iloc[0]].assign(dataset="sk-iris")
        (tmp_path / name).mkdir()
        own.to_parquet(tmp_path / name / "records.parquet", index=False)
    index = replication_index(Inputs.of_repository(tmp_path, REPO))
    ran = [r for r in index.rows if {"ch4_diversity_table", "ch7_binary"} & set(r.item.experiments)]
    assert ran and all(r.verdict in (NOT_RUN, NOT_COMPARABLE) for r in ran), \
        [(r.item.item, r.verdict, r.scale.text) for r in ran if r.verdict not in (NOT_RUN, NOT_COMPARABLE)]


def test_a_run_below_the_thesis_scale_is_not_comparable_and_the_report_names_its_records(tmp_path: Path) -> None:
    """A quick-scale run that happens to reach a published dataset (here labor's committed
    cells of chapter 7 copied as a quick run's) still is not a replication: every table its
    experiments reach is *not comparable: quick scale*, the scale column says quick, and the
    report says it was computed from that run's records, not from the committed ones."""
    from dataclasses import replace

    from redecorate.report.replication_index import ReplicationIndex, render_index, summary_line
    from redecorate.report.verdicts import NOT_RUN

    name = "ch7_binary"
    records = pd.read_parquet(REPRODUCED / name / "records.parquet")
    (tmp_path / name).mkdir()
    records[records["dataset"] == records["dataset"].iloc[0]].to_parquet(tmp_path / name / "records.parquet",
                                                                          index=False)  # fmt: skip
    thesis = replication_index(Inputs.of_repository(tmp_path, REPO))
    quick = replication_index(replace(Inputs.of_repository(tmp_path, REPO), scale="quick"))
    ran = [r for r in quick.rows if name in r.item.experiments]
    assert any(r.evidence["reproduced"].notna().any() for r in ran), "the copied cells reproduce something"
    assert any(r.verdict not in (NOT_RUN, NOT_COMPARABLE) for r in thesis.rows if name in r.item.experiments)
    for row in ran:
        assert row.scale.text.startswith("quick scale: "), row.scale.text
        assert "pilot" not in row.scale.text
        assert row.verdict == "not comparable: quick scale" or row.item.not_comparable, (row.item.item, row.verdict)
    others = [r for r in quick.rows if name not in r.item.experiments and not r.item.not_comparable]
    assert others and all(r.verdict == NOT_RUN for r in others)
    text = render_index(quick)
    assert f"the records of the run under `{tmp_path}`" in text and "at the **quick** scale" in text
    assert "committed records" not in text.split("## ")[0]
    assert "(records of the quick scale)" in summary_line(quick)
    assert "committed records beside this file" in render_index(ReplicationIndex((), (), "thesis", str(REPRODUCED)))


def test_the_first_runs_alone_give_the_pilots_scale_and_the_comparison_lists_what_more_runs_changed(
        tmp_path: Path) -> None:
    """``Inputs.runs`` reads only the first runs (the pilot: run 0), and
    ``tools/scale_comparison.py`` sets that report beside every run's for the tables whose
    experiments recorded more runs."""
    import importlib.util

    name = "ch6_committees"  # Table 6.4, 2 runs committed
    (tmp_path / name).mkdir()
    (tmp_path / name / "records.parquet").symlink_to(REPRODUCED / name / "records.parquet")
    first = replication_index(Inputs.of_repository(tmp_path, REPO, runs=1))
    every = replication_index(Inputs.of_repository(tmp_path, REPO))
    row_first, row_every = ([r for r in index.rows if name in r.item.experiments] for index in (first, every))
    assert row_every and all(r.scale.text == "thesis" for r in row_every)
    assert all(r.scale.text == "pilot: 1 of 2 runs" for r in row_first)
    assert any(a.measures["sign_agreement"] != b.measures["sign_agreement"]
               for a, b in zip(row_first, row_every, strict=True))
    spec = importlib.util.spec_from_file_location("scale_comparison", REPO / "tools" / "scale_comparison.py")
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    table = tool.comparison(first, every, {name: 2}, runs=1)
    listed = [line for line in table.splitlines()[2:]]
    assert listed and all(f"| {name} | 2 |" in line for line in listed), table
    assert tool.comparison(first, every, {name: 1}, runs=1).count("\n") == 2  # header only
