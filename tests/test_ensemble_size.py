"""§4.5 (ensemble size): the Figure-4.7 analysis on records whose answer is known by hand,
and the two experiment files (E4.5a accuracy vs size, E4.5b size-100 learning curves)."""

from __future__ import annotations

import hashlib
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from redecorate.experiments import check_learner_params, load_experiment
from redecorate.protocol.settings import JobSettings, ReportSettings
from redecorate.report.analyses import ANALYSES, run_analyses
from redecorate.report.ensemble_size import (
    FIGURE_STEM,
    MEAN_ROW,
    ensemble_sizes,
    level_off,
)

REPO = Path(__file__).resolve().parents[1]
SCHEMA = REPO / "workflow" / "schemas" / "experiment.schema.yaml"
EXPERIMENTS = REPO / "config" / "experiments"

# Labels deliberately say nothing (or the wrong thing) about the size: the analysis must take
# the size from the learner parameters. "j48" has no ensemble_size and must be ignored.
PARAMS = {
    "j48": {},
    "one": {"ensemble_size": 1, "max_iterations": 50},
    "big": {"ensemble_size": 5, "max_iterations": 50},
    "d100": {"ensemble_size": 10, "max_iterations": 50},
    "x": {"ensemble_size": 25, "max_iterations": 75},
    "y": {"ensemble_size": 50, "max_iterations": 150},
}
# dataset -> label -> accuracy of fold 0 and fold 1 at point 20
VALUES = {
    # rises, then level: best 82.2 at 25; 81.9 at 10 is within 0.5, 79 at 5 is not
    "aa": {"one": (70.0, 72.0), "big": (78.0, 80.0), "d100": (81.8, 82.0),
           "x": (82.0, 82.4), "y": (82.0, 82.0), "j48": (10.0, 10.0)},
    # touches the band at 5, dips at 10, level from 25 on: best 70.2 at 25
    "bb": {"one": (60.0, 60.0), "big": (69.8, 70.2), "d100": (68.0, 68.0),
           "x": (70.0, 70.4), "y": (70.1, 70.1), "j48": (10.0, 10.0)},
}  # fmt: skip
MEMBERS = {"y": 40}  # size 50 stopped at 40 members (I_max reached); all others reach the size


def _records() -> pd.DataFrame:
    rows = []
    for dataset, by_label in VALUES.items():
        for label, values in by_label.items():
            size = PARAMS[label].get("ensemble_size", 1)
            for fold, value in enumerate(values):
                for point, v in ((20, value), (100, 99.0)):  # point 100 must be ignored
                    rows.append({"experiment": "es", "dataset": dataset, "algorithm": label,
                                 "run": 0, "fold": fold, "point": point, "n_train": 30,
                                 "metric": "accuracy", "value": v, "fit_seconds": 0.1,
                                 "ensemble_size": MEMBERS.get(label, size)})  # fmt: skip
    return pd.DataFrame(rows)


def _settings(**options) -> ReportSettings:
    return ReportSettings(
        job=JobSettings(experiment="es", folds=10, seed=1, points=(20, 100)), kind="passive",
        scale="thesis",
        datasets=("bb", "aa", "cc"),  # cc has no records: listed, not invented
        params=PARAMS,
        report={"analyses": ["ensemble_size_curve"],
                "analysis_options": {"ensemble_size_curve": options} if options else {}},
    )


@pytest.fixture()
def written(tmp_path: Path) -> tuple[list[Path], Path, Path]:
    tables, figures = tmp_path / "tables", tmp_path / "figures"
    paths = run_analyses(["ensemble_size_curve"], _records(), tables, figures, _settings())
    return paths, tables, figures


def test_registered_under_its_name() -> None:
    assert ANALYSES["ensemble_size_curve"] == "redecorate.report.ensemble_size:ensemble_size_curve"


def test_figure_files_are_written(written) -> None:
    paths, tables, figures = written
    png, pdf = figures / f"{FIGURE_STEM}.png", figures / f"{FIGURE_STEM}.pdf"
    assert png in paths and pdf in paths
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 5000
    assert pdf.read_bytes()[:5] == b"%PDF-"
    assert all(p.exists() for p in paths)


def test_table_means_are_the_fold_means(written) -> None:
    _, tables, _ = written
    frame = pd.read_csv(tables / "ensemble_size.csv")
    assert set(frame["algorithm"]) == {"one", "big", "d100", "x", "y"}  # no j48
    assert set(frame["point"]) == {20.0}
    for dataset, by_label in VALUES.items():
        for label, values in by_label.items():
            if label == "j48":
                continue
            row = frame[(frame["dataset"] == dataset) & (frame["algorithm"] == label)].iloc[0]
            assert row["ensemble_size"] == PARAMS[label]["ensemble_size"]
            assert row["mean"] == pytest.approx(np.mean(values))
            assert row["n"] == 2
            assert row["sem"] == pytest.approx(abs(values[0] - values[1]) / 2)  # sd/sqrt(2)
            assert row["members"] == MEMBERS.get(label, PARAMS[label]["ensemble_size"])
    sizes = frame[frame["dataset"] == "aa"]["ensemble_size"].tolist()
    assert sizes == [1, 5, 10, 25, 50]


def test_level_off_sizes(written) -> None:
    _, tables, _ = written
    levels = pd.read_csv(tables / "ensemble_size_level_off.csv").set_index("dataset")
    assert list(levels.index) == ["bb", "aa", "cc", MEAN_ROW]
    aa, bb = levels.loc["aa"], levels.loc["bb"]
    assert (aa["best_size"], aa["best_accuracy"]) == (25, pytest.approx(82.2))
    assert aa["level_off_size"] == 10 and aa["stays_level_size"] == 10
    assert aa["level_off_accuracy"] == pytest.approx(81.9)
    assert (bb["best_size"], bb["best_accuracy"]) == (25, pytest.approx(70.2))
    assert bb["level_off_size"] == 5 and bb["stays_level_size"] == 25
    assert bool(aa["in_thesis_range"]) and not bool(bb["in_thesis_range"])
    assert math.isnan(levels.loc["cc", "level_off_size"])
    # mean of the two curves: 65.5, 74.5, 74.95, 76.2, 76.05 -> best 76.2 at 25, level at 25
    mean = levels.loc[MEAN_ROW]
    assert mean["best_accuracy"] == pytest.approx(76.2)
    assert mean["level_off_size"] == 25 and mean["stays_level_size"] == 25
    assert (levels["tolerance"] == 0.5).all()


def test_markdown_states_the_computed_conclusion(written) -> None:
    _, tables, _ = written
    text = (tables / "ensemble_size.md").read_text(encoding="utf-8")
    assert "| aa | 71.00 | 79.00 | 81.90 | 82.20 | 82.00 | 82.20 (25) | 10 | 10 |" in text
    assert "| cc | – | – | – | – | – | – | – | – |" in text
    assert "at a size in 10-25 on 1 of 2 datasets (below 10 on 1, above 25 on 0)" in text
    assert "stopped short" in text and "40.0 members" in text


def test_tolerance_option_changes_the_level_off(tmp_path: Path) -> None:
    run_analyses(["ensemble_size_curve"], _records(), tmp_path / "t", tmp_path / "f",
                 _settings(tolerance=3.5, point=20))  # fmt: skip
    levels = pd.read_csv(tmp_path / "t" / "ensemble_size_level_off.csv").set_index("dataset")
    assert levels.loc["aa", "level_off_size"] == 5  # 79.0 >= 82.2 - 3.5
    assert levels.loc["bb", "stays_level_size"] == 5  # 68.0 >= 70.2 - 3.5 as well


def test_figures_are_byte_identical_on_rerun(tmp_path: Path) -> None:
    digests = []
    for i in range(2):
        paths = run_analyses(["ensemble_size_curve"], _records(), tmp_path / f"t{i}",
                             tmp_path / f"f{i}", _settings())  # fmt: skip
        digests.append([hashlib.sha256(p.read_bytes()).hexdigest() for p in paths])
    assert digests[0] == digests[1]


def test_level_off_edge_cases() -> None:
    # exactly `tolerance` below the best counts as level; a final dip means "never stays"
    assert level_off([1, 5, 10], [80.0, 81.5, 82.0], 0.5)["level_off_size"] == 5
    dip = level_off([10, 1, 5], [79.0, 70.0, 80.0], 0.5)  # unsorted input
    assert dip["best_size"] == 5 and dip["level_off_size"] == 5
    assert math.isnan(dip["stays_level_size"])
    with pytest.raises(ValueError):
        level_off([1, 5], [80.0, float("nan")])


def test_ensemble_sizes_come_from_params() -> None:
    assert ensemble_sizes(PARAMS) == {"one": 1, "big": 5, "d100": 10, "x": 25, "y": 50}
    assert ensemble_sizes(PARAMS, ["y", "one"]) == {"one": 1, "y": 50}
    with pytest.raises(ValueError, match="both have"):
        ensemble_sizes({**PARAMS, "dup": {"ensemble_size": 5}})
    with pytest.raises(ValueError, match="sets no"):
        ensemble_sizes(PARAMS, ["j48"])


def _known_datasets() -> list[str]:
    from redecorate.data import load_registry

    registry = load_registry(REPO / "config" / "datasets.yaml")
    return registry.names() if callable(getattr(registry, "names", None)) else list(registry)


@pytest.mark.parametrize("name", ["ch4_ensemble_size", "ch4_large_ensembles"])
@pytest.mark.parametrize("scale", ["thesis", "quick", "smoke"])
def test_experiment_files_load_and_every_variant_builds(name: str, scale: str) -> None:
    from redecorate.learners.registry import ALGORITHMS

    spec = load_experiment(EXPERIMENTS / f"{name}.yaml", schema=SCHEMA, scale=scale,
                           known_algorithms=list(ALGORITHMS), known_datasets=_known_datasets())  # fmt: skip
    check_learner_params(spec)
    assert spec.name == name and spec.kind == "passive"
    if scale == "smoke":
        assert spec.protocol.runs == 1 and spec.protocol.folds <= 3
        assert set(spec.datasets) <= {"iris", "labor"}
        # jobs: cheap in CI (ch4_large_ensembles: five methods at 100, four of them at 15 too)
        assert len(spec.datasets) * len(spec.algorithms) <= {"ch4_ensemble_size": 11, "ch4_large_ensembles": 18}[name]


def test_ensemble_size_experiment_follows_the_stated_rule() -> None:
    spec = load_experiment(EXPERIMENTS / "ch4_ensemble_size.yaml", schema=SCHEMA)
    assert set(spec.learners.values()) == {"decorate"}
    sizes = {label: p["n_estimators"] for label, p in spec.algorithms.items()}
    assert sorted(sizes.values()) == [1, 5, 10, 15, 20, 25, 30, 40, 50, 75, 100]
    for label, params in spec.algorithms.items():
        assert params["max_iterations"] == max(50, 3 * params["n_estimators"]), label
        assert params.get("artificial_size", 1.0) == 1.0
    assert list(spec.protocol.points) == [20]
    assert (spec.protocol.runs, spec.protocol.folds) == (1, 10)
    assert len(spec.datasets) == 5
    assert spec.report["analyses"] == ["ensemble_size_curve"]
    assert ensemble_sizes(spec.algorithms) == dict(sorted(sizes.items(), key=lambda kv: kv[1]))


def test_large_ensembles_experiment_is_size_100_beside_size_15_as_ch4_passive_runs_it() -> None:
    """Every ensemble at 100 (DECORATE with I_max 300) and, for §4.5's "slight improvements",
    the same method at 15 with ch4_passive's very entries, so its units are reused by key."""
    spec = load_experiment(EXPERIMENTS / "ch4_large_ensembles.yaml", schema=SCHEMA)
    passive = load_experiment(EXPERIMENTS / "ch4_passive.yaml", schema=SCHEMA)
    learners = {label: spec.learner_of(label) for label in spec.algorithms}
    assert sorted(learners.values()) == ["adaboost", "adaboost", "bagging", "bagging", "decorate", "decorate",
                                         "j48", "rf", "rf"]
    sizes = spec.report["analysis_options"]["size_trends"]["sizes"]
    assert sorted(sizes) == sorted(label for label in learners if label.endswith("_100"))
    for label, learner in learners.items():
        params = spec.algorithms[label]
        if label in sizes:
            assert learners[sizes[label]] == learner
            assert params["n_estimators"] == 100, label
            if learner == "decorate":
                assert params["max_iterations"] == 300
        else:
            assert (spec.learner_of(label), params) == (passive.learner_of(label), passive.algorithms[label]), label
    assert (spec.protocol.seed, spec.protocol.runs, spec.protocol.folds, spec.protocol.points) == \
        (passive.protocol.seed, passive.protocol.runs, passive.protocol.folds, passive.protocol.points)
    assert list(spec.protocol.points) == [1, 2, 5, 10, 20, 30, 40, 50, 75, 100]
    assert (spec.protocol.runs, spec.protocol.folds) == (10, 10)
    assert len(spec.datasets) == 4
    report = spec.report
    assert {report["baseline"], *report["others"]} == set(spec.algorithms) - set(sizes.values())  # size 15: §4.5 only


def test_no_records_at_the_point_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="no .* records at point 30"):
        run_analyses(["ensemble_size_curve"], _records(), tmp_path / "t", tmp_path / "f",
                     _settings(point=30))  # fmt: skip
