"""A toy experiment kind, defined outside the package as a user would: the majority-class rule.

``docs/adding-an-experiment-kind.md`` walks through this file. It is one module: settings
(``baseline_label``), what one fold measures (the training fold's majority class predicted
for the whole test fold), one extra record column (``majority_class``), a cost estimate and
a report (a table of mean accuracies; no published values). An experiment file selects it
with ``kind: majority_kind:MAJORITY`` when this directory is on ``PYTHONPATH``.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from redecorate.kinds import (
    DatasetShape,
    ExperimentKind,
    Fold,
    JobSettings,
    KindSettings,
    Record,
    ReportOutputs,
    ReportSettings,
    Unit,
)
from redecorate.report.replication_report import ReplicationReport


@dataclass(frozen=True)
class MajoritySettings(KindSettings):
    """The kind's own YAML keys; the defaults are filled when the file is read."""

    baseline_label: str = "majority class"


SCHEMA = {
    "properties": {
        "baseline_label": {
            "description": "what the report calls the rule",
            "type": "string",
            "default": "majority class",
        }
    },
}


def evaluate_fold(fold: Fold) -> list[Record]:
    """One fold: predict the training fold's majority class for every test example."""
    y = fold.dataset.y
    majority = y.iloc[fold.train].value_counts().idxmax()
    accuracy = 100.0 * float((y.iloc[fold.test] == majority).mean())
    return [Record(point=100, n_train=len(fold.train), metric="accuracy", value=accuracy,
                   fit_seconds=0.0, extra={"majority_class": str(majority)})]


def unit_cost(job: JobSettings, unit: Unit, shape: DatasetShape) -> float:
    """Counting labels: next to nothing, whatever the dataset."""
    return 1e-6 * shape.n_instances * job.folds


def report(records: pd.DataFrame, summary: pd.DataFrame, out: ReportOutputs,
           settings: ReportSettings) -> ReplicationReport:
    """A table of mean accuracies; nothing was published, so nothing is compared."""
    means = summary.loc[summary["metric"] == "accuracy", ["dataset", "mean"]]
    means.to_csv(out.tables / "majority.csv", index=False)
    lines = [f"- {dataset}: {mean:.2f} %" for dataset, mean in means.itertuples(index=False)]
    title = f"# {settings.experiment}: {settings.options.baseline_label}"
    return ReplicationReport(markdown=f"{title}\n\nNo published values.\n\n" + "\n".join(lines) + "\n")


MAJORITY = ExperimentKind(
    name="majority",
    description="majority-class rule under k-fold CV (a worked example of a kind)",
    settings=MajoritySettings,
    schema=SCHEMA,
    evaluate_fold=evaluate_fold,
    unit_cost=unit_cost,
    report=report,
    record_columns=("majority_class",),
    algorithms_are_learners=False,
)
