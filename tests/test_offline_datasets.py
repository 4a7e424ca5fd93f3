"""Offline runs (data_mirror) and datasets only OpenML has: what is dropped, and what is said.

The decision is a library function (redecorate.data.registry.unavailable_offline) and the
dropping is redecorate.experiments.without_datasets; workflow/rules/common.smk only calls
them (its dry run is tests/test_workflow.py::test_offline_runs_skip_datasets_only_openml_has).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from redecorate.config import ExperimentConfigError
from redecorate.data import load_registry
from redecorate.data.registry import unavailable_offline
from redecorate.experiments import load_experiment, without_datasets

REPO = Path(__file__).resolve().parents[1]
REGISTRY = load_registry(REPO / "config" / "datasets.yaml")
SCHEMA = REPO / "workflow" / "schemas" / "experiment.schema.yaml"
MIRROR = "../shared/datasets/uci"


def test_only_openml_datasets_without_a_mirror_file_are_skipped() -> None:
    names = ["promoters", "breast-w", "synthetic1", "covertype", "sk-iris", "kr-vs-kp-1000"]
    skipped = unavailable_offline(REGISTRY, names, MIRROR)
    assert list(skipped) == ["promoters", "covertype"]  # breast-w: openml id and a mirror file
    assert skipped["covertype"] == (
        "skipping covertype (OpenML 1596, 581,012 instances): not in the ARFF mirror "
        "../shared/datasets/uci and data_mirror means offline; run without data_mirror to "
        "download it"
    )


def test_every_oza_dataset_outside_the_mirror_is_recognised() -> None:
    oza = ["promoters", "connect-4", "census-income", "covertype", "synthetic1", "synthetic2", "synthetic3"]
    assert [n for n in oza if REGISTRY[n].needs_network] == oza[:4]
    assert not any(REGISTRY[n].needs_network for n in REGISTRY if REGISTRY[n].file)


def test_a_thesis_label_is_resolved_and_reported_as_the_experiment_wrote_it() -> None:
    assert list(unavailable_offline(REGISTRY, ["Connect4"], MIRROR)) == ["Connect4"]


def test_dropping_datasets_keeps_the_rest_of_the_experiment() -> None:
    spec = load_experiment(REPO / "config" / "experiments" / "oza_online_trees.yaml", schema=SCHEMA)
    assert spec.datasets[0] == "promoters"
    kept = without_datasets(spec, ["promoters"])
    assert kept.datasets == spec.datasets[1:]
    assert (kept.name, kept.algorithms, kept.protocol.runs, kept.protocol.folds, kept.settings) == (
        spec.name, spec.algorithms, spec.protocol.runs, spec.protocol.folds, spec.settings)
    assert without_datasets(spec, []) == spec


def test_an_experiment_left_without_datasets_is_an_error_naming_it() -> None:
    spec = load_experiment(REPO / "config" / "experiments" / "oza_online_trees.yaml", schema=SCHEMA)
    with pytest.raises(ExperimentConfigError, match="experiment 'oza_online_trees' .*none of its datasets"):
        without_datasets(spec, spec.datasets)
