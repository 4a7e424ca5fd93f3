"""A toy experiment kind, defined outside the package as a user would: the majority-class rule.

``docs/adding-an-experiment-kind.md`` walks through this file. It is one module: settings
(``baseline_label``), a unit of work (one run of k-fold CV: predict each training fold's
majority class on its test fold), one extra record column (``majority_class``) and a report
(a table of mean accuracies; no published values). An experiment file selects it with
``kind: majority_kind:MAJORITY`` when this directory is on ``PYTHONPATH``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pandas as pd

from redecorate.kinds import DatasetShape, ExperimentKind, Progress, ReportOutputs, Unit
from redecorate.protocol import RECORD_COLUMNS, run_folds

SCHEMA = {
    "properties": {
        "baseline_label": {
            "description": "what the report calls the rule",
            "type": "string",
            "default": "majority class",
        }
    },
    "required": [],
    "profile_properties": {},
}


def job_settings(spec: Any) -> dict[str, Any]:
    return {"experiment": spec.name, "n_folds": spec.protocol.folds, "seed": spec.protocol.seed}


def units(spec: Any) -> list[Unit]:
    return [{"algorithm": a, "run": r} for r in spec.runs for a in spec.algorithms]


def run_unit(dataset: Any, settings: Mapping[str, Any], unit: Unit, progress: Progress) -> pd.DataFrame:
    rows = []
    folds = run_folds(dataset, settings["n_folds"], run=unit["run"], seed=settings["seed"])
    for fold, (train, test) in enumerate(folds):
        majority = dataset.y.iloc[train].value_counts().idxmax()
        accuracy = 100.0 * float((dataset.y.iloc[test] == majority).mean())
        rows.append((settings["experiment"], dataset.name, unit["algorithm"], unit["run"], fold,
                     100, len(train), "accuracy", accuracy, 0.0, 1, str(majority)))
        progress(f"{dataset.name} run {unit['run']} fold {fold + 1}: majority {majority!r}")
    return pd.DataFrame(rows, columns=[*RECORD_COLUMNS, "majority_class"])


def unit_cost(settings: Mapping[str, Any], unit: Unit, shape: DatasetShape) -> float:
    return 1e-6 * shape.n_instances


def report(records: pd.DataFrame, summary: pd.DataFrame, out: ReportOutputs,
           settings: Mapping[str, Any]) -> None:
    label = settings["settings"].get("baseline_label", "majority class")
    means = summary[summary["metric"] == "accuracy"][["dataset", "mean"]]
    means.to_csv(out.tables / "majority.csv", index=False)
    out.replication_md.write_text(
        f"# {settings['experiment']}: {label}\n\nNo published values.\n\n"
        + "\n".join(f"- {d}: {m:.2f} %" for d, m in means.itertuples(index=False)) + "\n",
        encoding="utf-8",
    )
    pd.DataFrame(columns=["dataset", "published", "reproduced"]).to_csv(out.replication_csv, index=False)
    pd.DataFrame(columns=["table", "holds"]).to_csv(out.replication_conclusions, index=False)


MAJORITY = ExperimentKind(
    name="majority",
    description="majority-class rule under k-fold CV (a worked example of a kind)",
    schema=SCHEMA,
    job_settings=job_settings,
    units=units,
    run_unit=run_unit,
    unit_cost=unit_cost,
    report=report,
    points_key=None,
    record_columns=("majority_class",),
    algorithms_are_learners=False,
)
