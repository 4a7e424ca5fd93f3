"""Slices of experiments (``--config algorithms=[...] datasets=[...]``,
:func:`redecorate.experiments.slice_experiments`): the units a slice runs have the keys of the
same units of the whole experiment (so the whole experiment reuses them), unknown names fail
before any job naming the valid ones, and the report knows it is a slice."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from redecorate.config import ExperimentConfigError
from redecorate.experiments import load_experiment, report_settings, slice_experiments
from redecorate.job_records import unit_id, unit_key
from redecorate.kinds import ExperimentSpec, get_kind

REPO = Path(__file__).resolve().parents[1]
SCHEMA = REPO / "workflow" / "schemas" / "experiment.schema.yaml"
EXPERIMENTS = sorted((REPO / "config" / "experiments").glob("*.yaml"))


def _spec(name: str) -> ExperimentSpec:
    return load_experiment(REPO / "config" / "experiments" / f"{name}.yaml", schema=SCHEMA)


def _keys(spec: ExperimentSpec) -> dict[tuple[str, str], str]:
    """(dataset, unit) -> unit key, for every unit of ``spec``."""
    kind = get_kind(spec.kind)
    settings = kind.job_settings(spec)
    return {(dataset, unit_id(unit)): unit_key(kind, settings, unit, dataset)
            for dataset in spec.datasets for unit in kind.units(spec)}


@pytest.mark.parametrize("path", EXPERIMENTS, ids=[p.stem for p in EXPERIMENTS])
def test_a_slice_runs_the_units_of_the_whole_experiment_under_the_same_keys(path: Path) -> None:
    spec = load_experiment(path, schema=SCHEMA)
    labels, datasets = list(spec.algorithms), list(spec.datasets)
    kept_labels, kept_datasets = labels[-1:] + labels[:1], datasets[1:2] or datasets[:1]
    sliced = slice_experiments({spec.name: spec}, kept_labels, kept_datasets)[spec.name]
    assert list(sliced.algorithms) == list(dict.fromkeys(labels[:1] + labels[-1:]))
    assert list(sliced.datasets) == kept_datasets
    full = _keys(spec)
    expected = {(dataset, unit): key for (dataset, unit), key in full.items()
                if dataset in kept_datasets and json.loads(unit).get("algorithm") in kept_labels}
    assert _keys(sliced) == expected
    assert expected, "the slice has no units: the check would pass vacuously"


def test_the_ch8_afa_halves_are_slices_of_the_whole_file() -> None:
    # What a hand-edited copy of the file (the J48 half alone) was once committed for.
    spec = _spec("ch8_afa")
    j48 = slice_experiments({"ch8_afa": spec}, ["j48_error_sampling", "j48_random"], None)["ch8_afa"]
    assert j48.slice == {"algorithms": ["j48_error_sampling", "j48_random"], "datasets": list(spec.datasets),
                         "left_out_algorithms": ["decorate_error_sampling", "decorate_random"],
                         "left_out_datasets": []}  # fmt: skip
    assert report_settings(j48, REPO / "config" / "published").to_json()["slice"] == j48.slice
    # The whole experiment's report parameters are unchanged (no `slice` key).
    assert "slice" not in report_settings(spec, REPO / "config" / "published").to_json()
    assert slice_experiments({"ch8_afa": spec}, None, None)["ch8_afa"] is spec


def test_unknown_names_fail_naming_the_valid_ones() -> None:
    specs = {"ch8_afa": _spec("ch8_afa")}
    with pytest.raises(ExperimentConfigError, match=r"'j48_randum'.*valid: .*j48_random"):
        slice_experiments(specs, ["j48_randum"], None)
    with pytest.raises(ExperimentConfigError, match=r"'irisx' is not a dataset.*valid: .*anneal"):
        slice_experiments(specs, None, ["irisx"])


def test_an_experiment_left_with_nothing_is_an_error() -> None:
    specs = {"ch8_afa": _spec("ch8_afa"), "ch6_utility": _spec("ch6_utility")}
    with pytest.raises(ExperimentConfigError, match="experiment 'ch6_utility'.*has none of j48_random"):
        slice_experiments(specs, ["j48_random"], None)


def test_the_report_of_a_slice_says_so_and_where_it_is_not_comparable(tmp_path: Path) -> None:
    from redecorate.report.replication_report import (
        ReplicationPaths,
        ReplicationReport,
        write_replication_report,
    )

    spec = _spec("ch8_afa")
    j48 = slice_experiments({"ch8_afa": spec}, None, ["anneal", "soybean", "autos", "kr-vs-kp"])["ch8_afa"]
    md, conclusions = tmp_path / "replication.md", tmp_path / "replication_conclusions.csv"
    report = ReplicationReport(
        markdown="# Replication report: ch8_afa (scale thesis)\n\nThis run: 4 datasets.\n",
        conclusions=pd.DataFrame({"table": ["8.2", "8.9"], "claim": ["sign", "other"], "holds": [False, True],
                                  "comparable": [True, True]}))  # fmt: skip
    settings = report_settings(j48, REPO / "config" / "published")
    write_replication_report(report, ReplicationPaths(md, tmp_path / "replication.csv", conclusions),
                             experiment="ch8_afa", slice_=settings.slice, published=list(settings.published))
    text = md.read_text()
    assert text.startswith("# Replication report: ch8_afa (scale thesis)\n\n**A slice of ch8_afa**: datasets "
                           "anneal, soybean, autos, kr-vs-kp (left out: hypothyroid).")  # fmt: skip
    assert "Table 8.2 (needs hypothyroid); Table 8.3 (needs hypothyroid)" in text
    assert text.rstrip().endswith("This run: 4 datasets.")
    marked = pd.read_csv(conclusions, dtype={"table": str})
    assert marked["holds"].isna().tolist() == [True, False]
    assert marked["comparable"].astype(str).tolist() == ["False", "True"]


#: Per kind: a repository experiment file of that kind, a small dataset of its smoke scale,
#: and the algorithm its report compares the others with (left out by the slice).
LEFT_OUT = {
    "passive": ("ch4_passive", "iris", "decorate"),
    "noise": ("ch5_missing", "iris", "decorate"),
    "active": ("ch6_active", "iris", "decorate"),
    "acquisition": ("ch8_afa", "autos", "j48_random"),
    "feature_subsets": ("fs_ensembles", "iris", "j48"),
    "online": ("oza_online", "balance-scale", "nb"),
}


def test_every_kind_has_a_slice_example() -> None:
    from redecorate.kinds import KINDS

    assert set(LEFT_OUT) == set(KINDS)


@pytest.mark.slow
@pytest.mark.parametrize("kind", sorted(LEFT_OUT))
def test_the_report_of_a_slice_without_the_compared_algorithm_is_written(tmp_path: Path, kind: str) -> None:
    """A slice that leaves out what the report compares with (a baseline, one side of a
    comparison, a table's reference) still gets its report, whatever the kind: the workflow
    warned before any job, and the records it computed must not end in a failed report."""
    import smoke_support as smoke

    if (reason := smoke.mirror_missing_reason()) is not None:
        pytest.skip(reason)
    name, dataset_name, left_out = LEFT_OUT[kind]
    spec = load_experiment(REPO / "config" / "experiments" / f"{name}.yaml", schema=SCHEMA, scale="smoke")
    kept = [a for a in spec.algorithms if a != left_out]
    sliced = slice_experiments({name: spec}, kept, [dataset_name])[name]
    assert sliced.slice["left_out_algorithms"] == [left_out]
    replication, _ = smoke.smoke_report(sliced, dataset_name, tmp_path)
    assert replication.markdown.startswith("# ")
