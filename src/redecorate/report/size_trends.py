"""§4.5's claim for ensembles of size 100, the one result Figures 4.8–4.9 state in words.

The two figures keep their captions only; the text says what they show: "Apart from slight
improvements in accuracies for all methods, the trends of the results are the same as with
ensembles of size 15" (L735 of the dissertation text). Both halves are checked, cell by cell,
with measures that can fail:

* **the trends**: for each comparison of the claim file (``decorate_100_vs_bagging_100``, ...)
  and each dataset and curve point, the size-100 difference of mean accuracies has the sign
  of the *printed* size-15 difference of Tables 4.2–4.5 (the same two methods at 15 members:
  ``analysis_options.size_trends.sizes`` maps each size-100 label to its size-15 label).
  Signed cells, published = the printed difference, reproduced = ours at 100; scored as every
  signed cell is, by sign agreement beside the best constant prediction and Spearman's ρ.
* **the slight improvements**: for each method and dataset, the method at 100 members minus
  the same method at 15 on the same splits (the size-15 units are ``ch4_passive``'s, reused by
  unit key), averaged over the curve's points, is positive: one cell per curve, as the figures
  draw them, since a slight gain is a property of a curve, not of each point, where fold noise
  of the same size decides the sign. Signed cells whose published value is the claim's sign
  (the claim file's ``value``); a one-sided claim, so the trivial prediction scores 1 and the
  cells can only disagree.

Which four datasets the thesis used is not said (§4.5: "the four datasets presented in
Figures 4.5 and 4.6", whose names did not survive); the experiment file says which it runs,
and only datasets Tables 4.2–4.5 print have cells.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from redecorate.protocol.settings import ReportSettings
from redecorate.report.agreement import NOT_RUN, agreement_lines, evidence_frame, explanations
from redecorate.report.published import read_disagreements, read_published
from redecorate.report.tables import markdown_table

__all__ = ["CLAIM_FILE", "SIZE_15_FILE", "size_trends", "size_trends_evidence"]

CLAIM_FILE = "section_4_5_size_100.tsv"
"""The claim, one row per comparison (``statistic`` ``trend`` or ``gain``; default of the
option ``published``)."""

SIZE_15_FILE = "ch4_tables_4.2-4.5.tsv"
"""The printed size-15 accuracies the trends are compared with (option ``size_15``)."""

NAME = "size_trends"


def _options(settings: ReportSettings) -> dict[str, Any]:
    return dict(settings.analysis_options.get(NAME) or {})


def _sizes(options: Mapping[str, Any]) -> dict[str, str]:
    """Size-100 label -> the size-15 label of the same method (option ``sizes``)."""
    sizes = options.get("sizes")
    if not isinstance(sizes, Mapping) or not sizes:
        raise ValueError(f"report.analysis_options.{NAME}.sizes: give each size-100 label's size-15 label, "
                         "e.g. {decorate_100: decorate, bagging_100: bagging}")
    return {str(k): str(v) for k, v in sizes.items()}


def _mean_accuracy(records: pd.DataFrame) -> pd.Series:
    """Mean accuracy per (algorithm, dataset, point) over runs × folds."""
    accuracy = records[records["metric"] == "accuracy"]
    return accuracy.groupby(["algorithm", "dataset", "point"])["value"].mean()


def size_trends_evidence(records: pd.DataFrame, settings: ReportSettings) -> pd.DataFrame:
    """The claim's cells in the evidence layout (:data:`redecorate.report.agreement.EVIDENCE_COLUMNS`):
    signed cells of the trends (published: the printed size-15 difference) and of the gains
    (published: the claimed sign), table key of the claim file, each with the
    ``known_disagreements.tsv`` row that covers it (system key: the comparison)."""
    options = _options(settings)
    sizes = _sizes(options)
    published_dir = Path(settings.published_dir)
    claim = read_published(published_dir / str(options.get("published", CLAIM_FILE)))
    printed = read_published(published_dir / str(options.get("size_15", SIZE_15_FILE)))
    printed = printed[(printed["metric"] == "accuracy") & (printed["statistic"] == "mean")]
    size_15 = printed.set_index(["system", "dataset", "point"])["value"]
    ours = _mean_accuracy(records)
    # The claim is about datasets of Tables 4.2-4.5 (four of them, unnamed): a dataset they do
    # not print has no size-15 trend to share, and no cell.
    datasets = sorted(set(records["dataset"].unique()) & set(printed["dataset"]))
    points = sorted(records["point"].unique())
    rows = []
    for c in claim.itertuples():
        a, _, b = c.comparison.partition("_vs_")
        for dataset in datasets:
            key = {"table": c.table, "dataset": dataset, "system": c.comparison, "signed": True}
            mine = pd.Series([ours.get((a, dataset, p), np.nan) - ours.get((b, dataset, p), np.nan) for p in points],
                             index=points, dtype=float)
            if c.statistic == "trend":  # per point: the figures' trends are the curves' order
                for point in points:
                    theirs = [size_15.get((sizes.get(label, label), dataset, float(point)), np.nan) for label in (a, b)]
                    rows.append({**key, "point": point, "statistic": "accuracy difference (published: size 15)",
                                 "published": theirs[0] - theirs[1], "reproduced": mine[point],
                                 "status": NOT_RUN if np.isnan(mine[point]) else ""})
            elif c.statistic == "gain":  # per curve: "slight improvements ... for all methods"
                reproduced = float(mine.mean()) if mine.notna().all() else np.nan
                rows.append({**key, "statistic": "mean accuracy gain over size 15 (published: its sign)",
                             "published": c.value, "reproduced": reproduced,
                             "status": NOT_RUN if np.isnan(reproduced) else ""})
            else:
                raise ValueError(f"{CLAIM_FILE}: statistic {c.statistic!r} of {c.comparison}: use 'trend' or 'gain'")
    cells = evidence_frame(rows)
    cells["explanation"] = explanations(cells, read_disagreements(settings.disagreements))
    return cells


def size_trends(records: pd.DataFrame, tables_dir: Path, figures_dir: Path, settings: ReportSettings) -> list[Path]:
    """§4.5 (L735): write ``size_trends.csv`` (every cell) and ``size_trends.md`` into ``tables_dir``.

    Options (``report.analysis_options.size_trends``): ``sizes`` (size-100 label -> size-15
    label; required), ``published`` (the claim file, default :data:`CLAIM_FILE`), ``size_15``
    (the printed size-15 accuracies, default :data:`SIZE_15_FILE`). ``figures_dir`` is unused:
    the experiment's learning curves are the figures.
    """
    evidence = size_trends_evidence(records, settings)
    tables_dir = Path(tables_dir)
    tables_dir.mkdir(parents=True, exist_ok=True)
    csv_path = tables_dir / "size_trends.csv"
    evidence.to_csv(csv_path, index=False, lineterminator="\n")
    done = evidence[evidence["reproduced"].notna() & evidence["published"].notna()]
    body = []
    for (comparison, statistic), group in done.groupby(["system", "statistic"], sort=False):
        same = int((np.sign(group["published"]) == np.sign(group["reproduced"])).sum())
        body.append([comparison, statistic, str(len(group)), f"{same} of {len(group)}",
                     f"{group['reproduced'].mean():+.2f}", f"{group['published'].mean():+.2f}"])
    text = ("### §4.5: ensembles of size 100 against size 15 (L735)\n\n"
            "\"Apart from slight improvements in accuracies for all methods, the trends of the results are the "
            "same as with ensembles of size 15.\" Per comparison, the cells (dataset × point) whose size-100 "
            "difference of mean accuracies has the sign of the published one: for a trend the printed size-15 "
            "difference of Tables 4.2–4.5 per point, for a gain the claimed sign (+: the method at 100 members "
            "ahead of itself at 15 on the same splits, averaged over the curve's points).\n\n"
            + markdown_table(["Comparison", "Statistic", "Cells", "Same sign", "Mean, reproduced", "Mean, published"],
                             body)
            + "\n" + "\n".join(agreement_lines(evidence, by=("statistic",))) + "\n")
    md_path = tables_dir / "size_trends.md"
    md_path.write_text(text, encoding="utf-8")
    return [csv_path, md_path]
