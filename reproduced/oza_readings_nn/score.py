"""Score three readings of Oza's networks against Tables 3.6 and 3.7 (pilot: 1 run, 1 order).

Oza gives the networks' backpropagation (his section 2.1.3: each example's error propagated
back and the weights adjusted so that the example's error would be less) and their passes (10
epochs batch; one pass online, 1 or 10 update steps per example), but no learning rate, no
momentum and no hidden-layer size. The adopted reading (``config/experiments/oza_online_nn.yaml``,
docs/online.md) takes the DECORATE dissertation's Weka settings, learning rate 0.15 and momentum
0.9. With 10 update steps on one example the momentum compounds (with a steady gradient the
tenth step is 6.5 times the first), and that reading's pilot had its 10-update networks below
the 1-update ones, on credit-g below the majority class, where Oza's are mostly above them. The
readings here change only those two settings, for every network alike (batch, online, bagged):

* momentum 0, learning rate 0.15: plain backpropagation, the update section 2.1.3 describes;
* learning rate 0.3, momentum 0.2: Weka 3.6's ``MultilayerPerceptron`` defaults.

Each is the pilot of ``oza_online_nn`` (seed, folds, stream order, bootstrap and Poisson draws
the same) on the 7 UCI datasets of the mirror; the adopted reading is the committed pilot
(``reproduced/oza_online_nn``, momentum 0 since this ablation; the momentum-0.9 pilot is
``oza_online_nn_momentum09`` here). Every reading is scored with the measures of every report
(``redecorate.report.agreement``): for Tables 3.6 and 3.7, the printed cells (mean fraction
correct, in points: median |reproduced − published|, the share of published values inside the
reproduced 95 % interval) and the signed cells (batch − online and ensemble − single network per
dataset: share with the published sign beside the trivial prediction, Spearman's correlation);
and, per dataset, whether the 10-update network beats the 1-update one (Oza: mostly yes).

    PYTHONPATH=src python3 reproduced/oza_readings_nn/score.py    # writes readings.md and readings.csv here
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from redecorate.experiments import load_experiment, report_settings
from redecorate.report.agreement import table_agreement
from redecorate.report.online import evidence

HERE = Path(__file__).resolve().parent
REPRODUCED = HERE.parent
ROOT = REPRODUCED.parent
SCHEMA = ROOT / "workflow" / "schemas" / "experiment.schema.yaml"
READINGS = {
    "learning rate 0.15, momentum 0 (plain backpropagation, section 2.1.3; adopted)": (
        ROOT / "config" / "experiments" / "oza_online_nn.yaml", REPRODUCED / "oza_online_nn"),
    "learning rate 0.15, momentum 0.9 (the DECORATE dissertation's Weka settings; adopted before)": (
        HERE / "oza_online_nn_momentum09.yaml", HERE / "oza_online_nn_momentum09"),
    "learning rate 0.3, momentum 0.2 (Weka's defaults)": (
        HERE / "oza_online_nn_weka_defaults.yaml", HERE / "oza_online_nn_weka_defaults"),
}
"""Reading -> (experiment file, records folder). The adopted reading's pilot is
``reproduced/oza_online_nn``, whose units are the momentum-0 ablation's
(``oza_online_nn_momentum0/records``, read by unit key); the reading adopted before keeps its
pilot here (``oza_online_nn_momentum09``)."""
TABLES = ("3.6", "3.7")
DATASETS = ("balance-scale", "breast-w", "credit-g", "car", "kr-vs-kp", "mushroom", "nursery")


THESIS = "adopted reading at the thesis protocol (10 runs of 5-fold CV, 5 stream orders)"
"""The row of the adopted reading's whole committed run, beside the pilots."""


def reading_evidence(experiment_file: Path, folder: Path, scale: str = "pilot") -> tuple[pd.DataFrame, pd.DataFrame]:
    """Tables 3.6 and 3.7's evidence from run 0, order 0 of a reading's records (``scale``
    ``pilot``, the records every reading shares) or from all of them (``thesis``), and the
    records' mean accuracy per dataset and algorithm (in points)."""
    records = pd.read_parquet(folder / "records.parquet")
    records = records[records["dataset"].isin(DATASETS)]
    if scale == "pilot":
        records = records[records["run"] == 0]
        if "order" in records:
            records = records[records["order"].isna() | (records["order"] == 0)]
    spec = load_experiment(experiment_file, schema=SCHEMA, scale=scale)
    found = evidence(records, report_settings(spec, ROOT / "config" / "published"))
    found = found[found["table"].astype(str).isin(TABLES)]
    accuracy = records[records["metric"] == "accuracy"].groupby(["dataset", "algorithm"])["value"].mean()
    return found, accuracy.unstack("algorithm")


def main() -> None:
    rows, online10 = [], {}
    published = pd.read_csv(ROOT / "config" / "published" / "oza_tables_3.3-3.11.tsv", sep="\t", dtype=str)
    adopted_file, adopted_folder = next(iter(READINGS.values()))
    for reading, (experiment_file, folder, scale) in [*((r, (*v, "pilot")) for r, v in READINGS.items()),
                                                      (THESIS, (adopted_file, adopted_folder, "thesis"))]:
        found, accuracy = reading_evidence(experiment_file, folder, scale)
        for table in TABLES:
            cells = found[found["table"].astype(str) == table]
            on_print = table_agreement(cells[cells["printed"].astype(bool)], by=("table",)).iloc[0]
            signed = table_agreement(cells[cells["signed"].astype(bool)], by=("table",)).iloc[0]
            rows.append({"reading": reading, "table": f"Table {table}", "printed cells": int(on_print["reproduced"]),
                         "median abs. diff.": on_print["median_abs_difference"], "inside": on_print["inside_interval"],
                         "signed cells": int(signed["compared"]), "sign": signed["sign_agreement"],
                         "trivial": signed["trivial"], "Spearman": signed["spearman"]})
        online10[reading] = accuracy["online_nn10"] - accuracy["online_nn1"]
    pub = published[(published["statistic"] == "mean") & (published["metric"] == "fraction_correct")
                    & (((published["table"] == "3.6") & (published["system"] == "online_nn1"))
                       | ((published["table"] == "3.7") & (published["system"] == "online_nn10")))]
    pub = pub[pd.to_numeric(pub["value"], errors="coerce").notna()]
    pub = pub.assign(value=pub["value"].astype(float) * 100).pivot_table(index="dataset", columns="system", values="value")
    online10["published"] = (pub["online_nn10"] - pub["online_nn1"]).reindex(list(DATASETS))
    frame = pd.DataFrame(rows)
    frame.to_csv(HERE / "readings.csv", index=False, float_format="%.4f")
    gap = pd.DataFrame(online10).reindex(list(DATASETS))
    off = (gap.drop(columns="published").sub(gap["published"], axis=0)).abs().mean()
    same_sign = (gap.drop(columns="published").gt(0).eq(gap["published"].gt(0), axis=0)).sum()
    trivial = int(max(gap["published"].gt(0).sum(), gap["published"].lt(0).sum()))
    verdict = [f"- {reading}: {same_sign[reading]} of {len(gap)} datasets with Oza's sign of the gap (the "
               f"trivial constant sign: {trivial}), mean |reproduced − published gap| {off[reading]:.1f} points"
               for reading in off.index]
    pilot, thesis = (frame[frame["reading"] == r].set_index("table") for r in (next(iter(READINGS)), THESIS))
    def change(table: str, column: str) -> str:
        return f"{pilot.loc[table, column]:.2f} → {thesis.loc[table, column]:.2f}"
    at_thesis = (
        "At the thesis protocol (the adopted reading's whole run, `reproduced/oza_online_nn`; the pilot is its "
        "run 0, order 0, record for record), pilot → thesis: " + "; ".join(
            f"Table {t}: inside {change(f'Table {t}', 'inside')}, median |diff.| {change(f'Table {t}', 'median abs. diff.')}, "
            f"sign {change(f'Table {t}', 'sign')} (trivial {thesis.loc[f'Table {t}', 'trivial']:.2f}), Spearman "
            f"{change(f'Table {t}', 'Spearman')}" for t in TABLES) + ". Fifty fold pairs narrow the "
        "intervals, so the printed values that lay inside the pilot's wide ones now mostly lie outside: the "
        "differences are systematic, not fold noise (balance-scale below Oza's on all six "
        "networks, credit-g on all five with a legible value, car on five of six; kr-vs-kp above his "
        "on all four online ones, breast-w on three; "
        "`reproduced/oza_online_nn/replication.md`, cell by cell). The signed cells stay below the trivial "
        "prediction on both tables; the misses are mostly ensemble against single network, where online "
        "bagging of 1-update networks is within a fraction of a point of one such network (Table 3.6's "
        "conclusions). Balance-scale's 1-update gap at the thesis protocol: "
        f"{gap.loc['balance-scale', THESIS]:.1f} points against Oza's {gap.loc['balance-scale', 'published']:.1f}.")
    lines = [f"# Oza's networks under {len(READINGS)} readings (pilot: 1 run of 5-fold CV, 1 stream order; "
             "the adopted one also at the thesis protocol)", "",
             "Recomputed by `score.py` from the committed records: `oza_online_nn`'s pilot (the reading "
             "adopted) and the pilots of the other readings here, on the 7 UCI datasets of the mirror, with the same "
             "folds, stream order and draws. *Printed cells*: Oza's mean fraction correct (in points: "
             "median |reproduced − published|, share of published values inside the reproduced 95 % "
             "interval); *signed cells*: batch − online and ensemble − single network per dataset (share "
             "with the published sign beside the trivial prediction, Spearman's correlation).", "",
             frame.to_markdown(index=False, floatfmt=".2f"), "",
             "The 10-update online network minus the 1-update one, mean accuracy in points (Oza's: "
             "Table 3.7 minus Table 3.6):", "",
             gap.to_markdown(floatfmt=".2f"), "", *verdict, "",
             "Adopted: momentum 0. Oza describes plain backpropagation (each example's error propagated "
             "back and the weights moved so that its error would be less, section 2.1.3) and names no "
             "momentum; the 0.9 came from another source. On the evidence it takes the share of Table "
             "3.7's printed values inside the reproduced interval from 0.27 to 0.62 (Weka's defaults also "
             "0.62) and the median |difference| down on both tables against momentum 0.9 (Weka's defaults: "
             "lower on Table 3.7, higher on 3.6), and its 10-update networks stand to the 1-update ones "
             "closest to how Oza's do. What it does not mend, with the other readings alike: the signed "
             "cells of Table 3.7 (batch − online, ensemble − single network) stay below the trivial "
             "prediction, its misses reproduced differences within half a point of zero at one run of 5 "
             "folds, and balance-scale's gap is 36.6 points against Oza's 27.6. The thesis-scale run of "
             "`oza_online_nn` "
             "(10 runs, 5 orders) is made with it.", "", at_thesis, ""]
    (HERE / "readings.md").write_text("\n".join(lines), encoding="utf-8")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
