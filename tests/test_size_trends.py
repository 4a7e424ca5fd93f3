"""§4.5's claim for ensembles of size 100 (redecorate.report.size_trends) on records whose
answer is known by hand, against the transcribed claim and Tables 4.2–4.5's printed values."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from redecorate.protocol.settings import JobSettings, ReportSettings
from redecorate.report.agreement import NOT_RUN, disagreeing
from redecorate.report.analyses import run_analyses
from redecorate.report.size_trends import size_trends_evidence

REPO = Path(__file__).resolve().parents[1]
SIZES = {"decorate_100": "decorate", "bagging_100": "bagging", "adaboost_100": "adaboost", "rf_100": "rf"}
# iris at 100 %, printed at size 15 (Tables 4.2-4.5): DECORATE 94.67, J48 94.73, Bagging 94.73,
# Random Forests 94.2, AdaBoost 94.2: DECORATE behind J48 and Bagging, ahead of the other two.
ACCURACY = {"decorate_100": 95.0, "bagging_100": 96.0, "rf_100": 94.0, "adaboost_100": 96.0, "j48": 94.0,
            "decorate": 94.0, "bagging": 95.0, "rf": 95.0, "adaboost": 97.0}


def _records(accuracy: dict[str, float] = ACCURACY) -> pd.DataFrame:
    return pd.DataFrame([{"experiment": "t", "dataset": "iris", "algorithm": label, "run": 0, "fold": fold,
                          "point": 100.0, "metric": "accuracy", "value": value + (0.5 if fold else -0.5)}
                         for label, value in accuracy.items() for fold in (0, 1)])  # fmt: skip


def _settings(disagreements: Path | None = None, **options: object) -> ReportSettings:
    return ReportSettings(job=JobSettings(experiment="t", folds=2, seed=1, points=(100,)), kind="passive",
                          scale="thesis", datasets=("iris",), params={k: {} for k in ACCURACY},
                          report={"analyses": ["size_trends"], "analysis_options": {"size_trends": options}},
                          published_dir=str(REPO / "config" / "published"),
                          disagreements=None if disagreements is None else str(disagreements))  # fmt: skip


def test_each_trend_is_judged_by_the_printed_size_15_sign_and_each_gain_by_the_claimed_one() -> None:
    evidence = size_trends_evidence(_records(), _settings(sizes=SIZES)).set_index("system")
    assert len(evidence) == 8 and evidence["signed"].all() and not evidence["printed"].any()
    trend = evidence.loc["decorate_100_vs_bagging_100"]
    assert trend["published"] == pytest.approx(94.67 - 94.73)  # printed, size 15
    assert trend["reproduced"] == pytest.approx(-1.0)  # ours, size 100
    assert evidence.loc["decorate_100_vs_j48", "published"] == pytest.approx(94.67 - 94.73)
    assert evidence.loc["rf_100_vs_rf", "published"] == 1.0  # the claimed sign
    assert evidence.loc["rf_100_vs_rf", "reproduced"] == pytest.approx(-1.0)
    wrong = set(evidence.index[disagreeing(evidence.reset_index()).to_numpy()])
    assert wrong == {"decorate_100_vs_j48", "decorate_100_vs_adaboost_100", "rf_100_vs_rf", "adaboost_100_vs_adaboost"}


def test_a_known_disagreement_row_explains_the_cells_it_names_and_no_other(tmp_path: Path) -> None:
    known = tmp_path / "known_disagreements.tsv"
    known.write_text("table\tdataset\tpoint\tsystem\texplanation\n"
                     "§4.5\tiris\t\tadaboost_100_vs_adaboost\tAdaBoost stops early on iris\n", encoding="utf-8")
    evidence = size_trends_evidence(_records(), _settings(known, sizes=SIZES)).set_index("system")
    assert evidence.loc["adaboost_100_vs_adaboost", "explanation"] == "AdaBoost stops early on iris"
    assert evidence.loc["rf_100_vs_rf", "explanation"] == ""  # disagrees too, but no row names it
    assert (evidence.drop(index="adaboost_100_vs_adaboost")["explanation"] == "").all()


def test_a_method_without_its_size_15_runs_is_not_run_a_dataset_never_printed_has_no_cells() -> None:
    without = {k: v for k, v in ACCURACY.items() if k != "bagging"}
    evidence = size_trends_evidence(_records(without), _settings(sizes=SIZES)).set_index("system")
    assert evidence.loc["bagging_100_vs_bagging", "status"] == NOT_RUN
    assert not disagreeing(evidence.reset_index()).to_numpy()[list(evidence.index).index("bagging_100_vs_bagging")]
    unprinted = _records().assign(dataset="sk-iris")  # no size-15 trend printed: no cells
    assert size_trends_evidence(unprinted, _settings(sizes=SIZES)).empty
    with pytest.raises(ValueError, match="analysis_options.size_trends.sizes"):
        size_trends_evidence(_records(), _settings())


def test_the_analysis_writes_every_cell_and_a_summary_per_comparison(tmp_path: Path) -> None:
    paths = run_analyses(["size_trends"], _records(), tmp_path / "tables", tmp_path / "figures", _settings(sizes=SIZES))
    assert [p.name for p in paths] == ["size_trends.csv", "size_trends.md"]
    assert len(pd.read_csv(paths[0])) == 8
    text = paths[1].read_text(encoding="utf-8")
    assert "| decorate_100_vs_bagging_100 | accuracy difference (published: size 15) | 1 | 1 of 1 |" in text
    assert "| adaboost_100_vs_adaboost | mean accuracy gain over size 15 (published: its sign) | 1 | 0 of 1 |" in text
