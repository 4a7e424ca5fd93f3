"""Score the schedule readings of Tables 7.2 and 7.3 from the committed records and reports.

The dissertation says only "33 batches ... incrementally selected larger batches" (section 7.3).
Geometric growth from 10 examples is the reading adopted (`ch7_binary`, `ch7_multiclass`);
this ablation runs the same systems, datasets, seed and protocol (pilot: 1 run of 10-fold CV)
with batches growing linearly and with equal batches (`*_linear.yaml`, `*_equal.yaml` here),
and sets each reading's cells beside the published ones with the same measures. The adopted
reading's cells are its run 0 alone (the committed files hold 10 runs), reported by the
workflow's own report function into a scratch directory, so that all three readings are
compared at the same scale:

* mean reproduced value against the mean published value over the table's datasets;
* *sign*: share of datasets with the published sign, beside *trivial* (always an improvement);
* Spearman's rank correlation of the reproduced with the published values;
* *inside*: share of published values inside the reproduced 95 % interval.

    python3 reproduced/ch7_readings_schedule/score.py    # writes readings.md beside this file
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pandas as pd
from scipy.stats import spearmanr

from redecorate.experiment_report import ReportFiles, write_experiment_report
from redecorate.experiments import load_experiment, report_settings
from redecorate.stats.summary import summarise

HERE = Path(__file__).resolve().parent
REPRODUCED = HERE.parent
ROOT = REPRODUCED.parent
READINGS = {
    "geometric (adopted)": {"7.2": REPRODUCED / "ch7_binary", "7.3": REPRODUCED / "ch7_multiclass"},
    "linear": {"7.2": HERE / "ch7_binary_linear", "7.3": HERE / "ch7_multiclass_linear"},
    "equal": {"7.2": HERE / "ch7_binary_equal", "7.3": HERE / "ch7_multiclass_equal"},
}


def score(cells: pd.DataFrame) -> dict[str, float]:
    published, reproduced = cells["published"], cells["reproduced"]
    inside = ((cells["low"] <= published) & (published <= cells["high"])).mean()
    return {"cells": len(cells), "mean published": published.mean(), "mean reproduced": reproduced.mean(),
            "sign": ((published > 0) == (reproduced > 0)).mean(), "trivial": (published > 0).mean(),
            "Spearman": spearmanr(published, reproduced).statistic, "inside": inside}


def pilot_cells(folder: Path) -> pd.DataFrame:
    """The replication cells of an adopted experiment's run 0 (its pilot), from its committed
    records, as its report computes them."""
    os.environ.setdefault("MPLBACKEND", "Agg")
    records = pd.read_parquet(folder / "records.parquet")
    records = records[records["run"] == 0]
    spec = load_experiment(ROOT / "config" / "experiments" / f"{folder.name}.yaml",
                           schema=ROOT / "workflow" / "schemas" / "experiment.schema.yaml", scale="pilot")
    report = report_settings(spec, ROOT / "config" / "published").to_json()
    with tempfile.TemporaryDirectory(prefix=f"pilot_{folder.name}_") as tmp:
        write_experiment_report(records, summarise(records), report, ReportFiles.in_directory(Path(tmp)))
        return pd.read_csv(Path(tmp) / "replication.csv")


def main() -> None:
    rows = []
    for reading, tables in READINGS.items():
        for table, folder in tables.items():
            found = pilot_cells(folder) if folder.parent == REPRODUCED else pd.read_csv(folder / "replication.csv")
            cells = found.dropna(subset=["reproduced"])
            cells = cells[cells["table"].astype(str) == table]
            for (comparison, statistic), group in cells.groupby(["comparison", "statistic"], sort=False):
                rows.append({"table": table, "comparison": comparison, "statistic": statistic,
                             "reading": reading, **score(group)})
            for statistic, group in cells.groupby("statistic", sort=False):
                rows.append({"table": table, "comparison": "all", "statistic": statistic,
                             "reading": reading, **score(group)})
    frame = pd.DataFrame(rows).sort_values(["table", "statistic", "comparison", "reading"], kind="stable")
    frame.to_csv(HERE / "readings.csv", index=False, float_format="%.4f")
    header = ["table", "comparison", "statistic", "reading", "cells", "mean published", "mean reproduced",
              "sign", "trivial", "Spearman", "inside"]
    lines = ["# Tables 7.2 and 7.3 under three readings of the 33-batch schedule (pilot)", "",
             "Recomputed by `score.py` from run 0 of the committed records of `ch7_binary` and "
             "`ch7_multiclass` (geometric growth, the reading adopted) and from the committed reports of "
             "the ablation runs here (batches growing linearly; equal batches); 1 run of 10-fold CV each.", "",
             "| " + " | ".join(header) + " |", "| " + " | ".join(["--"] * 4 + ["--:"] * 7) + " |"]
    for values in frame.to_dict("records"):
        lines.append("| " + " | ".join(
            f"{values[h]:.2f}" if isinstance(values[h], float) else str(values[h]) for h in header) + " |")
    (HERE / "readings.md").write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
