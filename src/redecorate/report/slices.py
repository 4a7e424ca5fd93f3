"""The report of a slice of an experiment (``--config algorithms=[...] datasets=[...]``).

A slice runs some of an experiment's algorithms or datasets (one half of a table on one
machine, the expensive datasets on a cluster); the whole experiment later reuses its records.
Its report must not pass for the whole experiment's: every kind's report already says "not
comparable" where datasets are missing (:func:`redecorate.report.conclusions.comparability`),
but a left-out algorithm only leaves rows out. So, whatever the kind, the report of a slice
starts with what the slice kept and left out, names the published tables that need what
was left out (a table needs an algorithm label named in its ``system`` or ``comparison``
column, and a dataset in its ``dataset`` column), and marks those tables' conclusions not
comparable (:func:`redecorate.report.replication_report.write_replication_report`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import pandas as pd

__all__ = ["slice_lines", "tables_needing"]


def tables_needing(published: pd.DataFrame, left_out_algorithms: Iterable[str],
                   left_out_datasets: Iterable[str]) -> dict[str, list[str]]:
    """Published table -> the left-out algorithm labels and datasets its rows name."""
    algorithms, datasets = set(left_out_algorithms), set(left_out_datasets)
    needs: dict[str, list[str]] = {}
    for row in published.itertuples(index=False):
        named = {str(row.system), *str(row.comparison).split("_vs_")} & algorithms
        if str(row.dataset) in datasets:
            named.add(str(row.dataset))
        if named:
            table = needs.setdefault(str(row.table), [])
            table += sorted(named - set(table))
    return needs


def slice_lines(experiment: str, slice_: Mapping[str, Sequence[str]], needs: Mapping[str, Sequence[str]]) -> list[str]:
    """The Markdown banner of a slice's report."""
    kept = "; ".join(f"{key} {', '.join(slice_[key])} (left out: {', '.join(slice_[f'left_out_{key}'])})"
                     for key in ("algorithms", "datasets") if slice_[f"left_out_{key}"])
    lines = [f"**A slice of {experiment}**: {kept}.", ""]
    if needs:
        tables = "; ".join(f"Table {table} (needs {', '.join(names)})" for table, names in needs.items())
        lines += [f"**Not comparable with the dissertation** where a table needs what the slice "
                  f"left out: {tables}. Their conclusions are not counted.", ""]
    return lines
