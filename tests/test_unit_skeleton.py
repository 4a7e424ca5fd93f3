"""The unit-of-work skeleton every kind runs in (``redecorate.kinds.unit``): what it promises
a kind that supplies only ``evaluate_fold``.

Each test fails if the skeleton drops the promise: a failing fold that does not say where, a
record with a column the kind did not declare, a ``fold`` unit that runs every fold, dtypes
that differ between jobs, or folds that depend on the algorithm (the paired tests need the
same splits for every algorithm of a run).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import pytest

from redecorate.kinds import ExperimentKind, Fold, JobError, JobSettings, Record
from redecorate.kinds.unit import run_unit
from redecorate.stats.summary import RECORD_COLUMNS


@dataclass
class _Data:
    name: str
    X: pd.DataFrame
    y: pd.Series


DATA = _Data("toy", pd.DataFrame({"a": np.arange(30.0)}),
             pd.Series(pd.Categorical(["x", "y", "z"] * 10)))


def _kind(evaluate, record_columns: tuple[str, ...] = ()) -> ExperimentKind:
    return ExperimentKind(name="toy", description="a kind for tests", evaluate_fold=evaluate,
                          unit_cost=lambda job, unit, shape: 1.0,
                          report=lambda *args: None,  # type: ignore[arg-type,return-value]
                          record_columns=record_columns, algorithms_are_learners=False)


def _job(points=(1,)) -> JobSettings:
    return JobSettings(experiment="e", folds=5, seed=3, points=tuple(points),
                       algorithms={"a": {"params": {}}, "b": {"params": {}}})


def _test_rows(fold: Fold) -> list[Record]:
    return [Record(point, len(fold.train), "accuracy", float(fold.test[0]), 0.0)
            for point in fold.job.points]


def test_records_carry_the_unit_and_have_fixed_columns_and_dtypes() -> None:
    lines: list[str] = []
    frame = run_unit(_kind(_test_rows), DATA, _job(), {"algorithm": "a", "run": 1}, lines.append)
    assert list(frame.columns) == list(RECORD_COLUMNS)
    assert frame["fold"].tolist() == [0, 1, 2, 3, 4] and (frame["run"] == 1).all()
    assert (frame["experiment"] == "e").all() and (frame["algorithm"] == "a").all()
    assert frame["point"].dtype == np.int64 and frame["n_train"].dtype == np.int64
    assert len(lines) == 5 and all("done" in line for line in lines)  # one progress line a fold
    fractional = run_unit(_kind(_test_rows), DATA, _job((0.5, 1)), {"algorithm": "a", "run": 1}, print)
    assert fractional["point"].dtype == np.float64


def test_a_fold_unit_runs_that_fold_only() -> None:
    frame = run_unit(_kind(_test_rows), DATA, _job(), {"algorithm": "a", "run": 0, "fold": 3}, print)
    whole = run_unit(_kind(_test_rows), DATA, _job(), {"algorithm": "a", "run": 0}, print)
    assert frame["fold"].tolist() == [3]
    pd.testing.assert_frame_equal(frame.reset_index(drop=True),
                                  whole[whole["fold"] == 3].reset_index(drop=True))


def test_the_folds_of_a_run_are_the_same_for_every_algorithm() -> None:
    a = run_unit(_kind(_test_rows), DATA, _job(), {"algorithm": "a", "run": 2}, print)
    b = run_unit(_kind(_test_rows), DATA, _job(), {"algorithm": "b", "run": 2}, print)
    other_run = run_unit(_kind(_test_rows), DATA, _job(), {"algorithm": "a", "run": 3}, print)
    assert a["value"].tolist() == b["value"].tolist()  # the first test row of every fold
    assert a["value"].tolist() != other_run["value"].tolist()


def test_a_failing_fold_says_where_and_keeps_the_cause() -> None:
    def evaluate(fold: Fold) -> list[Record]:
        if fold.index == 2:
            raise ValueError("no split found")
        return _test_rows(fold)

    with pytest.raises(JobError) as info:
        run_unit(_kind(evaluate), DATA, _job(), {"algorithm": "b", "run": 4}, print)
    message = str(info.value)
    assert "dataset='toy' algorithm='b' run=4 fold=2" in message and "no split found" in message
    assert isinstance(info.value.__cause__, ValueError)


def test_a_record_must_have_exactly_the_declared_extra_columns() -> None:
    def evaluate(fold: Fold) -> list[Record]:
        return [Record(1, 1, "accuracy", 1.0, 0.0, extra={"order": 0})]

    frame = run_unit(_kind(evaluate, ("order",)), DATA, _job(), {"algorithm": "a", "run": 0}, print)
    assert list(frame.columns) == [*RECORD_COLUMNS, "order"]
    with pytest.raises(JobError, match="record_columns"):
        run_unit(_kind(evaluate), DATA, _job(), {"algorithm": "a", "run": 0}, print)
    with pytest.raises(JobError, match="record_columns"):
        run_unit(_kind(evaluate, ("order", "stream")), DATA, _job(), {"algorithm": "a", "run": 0}, print)
