"""``explore.html``: the replication report's evidence as one page a reader can explore.

Why: ``REPLICATION.md`` says per table whether it replicates, and its scatters show how the
cells lie, but a reader who wants to know *which* dataset and point sits off the diagonal, or
what its interval was, had to open CSV files. This page holds every scored cell of every
table (published, reproduced, the interval it is judged by, the table's verdict) and each
experiment's mean learning curves, drawn with plotly.js embedded in the file, so it works
offline and from a file URL:

* per published table, reproduced against published, each cell with its interval as an
  error bar and a hover naming its dataset, system, point, statistic, interval and status;
* per experiment and dataset, every system's mean accuracy by curve point (or noise level),
  with a band of ±1.96 standard errors of the per-fold accuracies;
* a table of all cells, filtered by what is typed above it.

The page is written beside ``REPLICATION.md`` from the same index
(:func:`redecorate.report.replication_index.write_report`), so the two never disagree.
"""

from __future__ import annotations

import html
import json
import math
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pandas as pd
from plotly.offline import get_plotlyjs

from redecorate.report.contents import SOURCES
from redecorate.report.tables import display_name
from redecorate.util import atomic_write

__all__ = ["CURVE_COLUMNS", "curve_summary", "explorer_html", "write_explorer"]

CURVE_COLUMNS = ("experiment", "dataset", "algorithm", "point", "mean", "se", "n")


def curve_summary(name: str, records: pd.DataFrame | None) -> pd.DataFrame:
    """Mean accuracy, its standard error and the number of fold records per (dataset,
    algorithm, point) of an experiment's records (nothing when they have no accuracy by point)."""
    if records is None or not len(records) or not {"point", "metric", "value"} <= set(records.columns):
        return pd.DataFrame(columns=list(CURVE_COLUMNS))
    accuracy = records.loc[records["metric"] == "accuracy", ["dataset", "algorithm", "point", "value"]]
    accuracy = accuracy[pd.to_numeric(accuracy["point"], errors="coerce").notna()]
    if accuracy.empty:
        return pd.DataFrame(columns=list(CURVE_COLUMNS))
    grouped = accuracy.astype({"point": float}).groupby(["dataset", "algorithm", "point"], sort=True)["value"]
    out = grouped.agg(mean="mean", sd="std", n="count").reset_index()
    out["se"] = out["sd"] / out["n"].pow(0.5)
    out.insert(0, "experiment", name)
    return out[list(CURVE_COLUMNS)]


def _number(value: Any) -> float | None:
    """A JSON number, or None for NaN and missing values."""
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return number if math.isfinite(number) else None


def _cells(rows: Iterable[Any]) -> list[dict[str, Any]]:
    """Every printed cell with a reproduced value, as the page draws and lists it."""
    cells = []
    for row in rows:
        evidence = row.evidence
        if evidence is None or not len(evidence):
            continue
        printed = evidence[evidence["printed"].astype(bool) & evidence["reproduced"].notna()
                           & evidence["published"].notna()]  # fmt: skip
        for cell in printed.itertuples(index=False):
            half = _number(cell.half_width)
            reproduced = _number(cell.reproduced)
            low = reproduced - half if half is not None and reproduced is not None else _number(cell.low)
            high = reproduced + half if half is not None and reproduced is not None else _number(cell.high)
            cells.append({
                "source": SOURCES.get(row.item.source, row.item.source), "table": row.item.item, "verdict": row.verdict,
                "dataset": str(cell.dataset), "system": str(cell.system), "point": _number(cell.point),
                "statistic": str(cell.statistic), "published": _number(cell.published), "reproduced": reproduced,
                "low": low, "high": high, "status": str(cell.status),
                "interval": "difference" if half is not None else "reproduced mean",
            })  # fmt: skip
    return cells


def _curves(curves: pd.DataFrame) -> dict[str, dict[str, list[dict[str, Any]]]]:
    """experiment -> dataset -> one trace per algorithm (points, means, standard errors)."""
    out: dict[str, dict[str, list[dict[str, Any]]]] = {}
    if curves.empty:
        return out
    for (experiment, dataset, algorithm), group in curves.groupby(["experiment", "dataset", "algorithm"], sort=True):
        out.setdefault(str(experiment), {}).setdefault(str(dataset), []).append({
            "name": display_name(str(algorithm)), "x": [_number(v) for v in group["point"]],
            "y": [_number(v) for v in group["mean"]], "se": [_number(v) for v in group["se"]],
        })  # fmt: skip
    return out


_STYLE = """
body { font-family: sans-serif; margin: 1.5em; color: #222; }
section { margin-bottom: 2em; }
select, input { font-size: 1em; margin: 0 0.5em 0.5em 0; }
.plot { width: 100%; max-width: 900px; height: 520px; }
table { border-collapse: collapse; font-size: 0.85em; }
th, td { border: 1px solid #bbb; padding: 0.15em 0.4em; }
th { background: #eee; position: sticky; top: 0; }
td.num { text-align: right; }
#cells-wrap { max-height: 600px; overflow-y: auto; }
"""

_SCRIPT = r"""
const DATA = JSON.parse(document.getElementById('explorer-data').textContent);
const fmt = v => (v === null || v === undefined) ? '–' : (Number.isInteger(v) ? String(v) : v.toFixed(2));
function options(select, values) {
  select.innerHTML = '';
  for (const v of values) { const o = document.createElement('option'); o.value = v; o.textContent = v; select.appendChild(o); }
}
// Reproduced against published, one table at a time.
const tables = [...new Set(DATA.cells.map(c => c.source + ' · ' + c.table))];
const tableSelect = document.getElementById('table-select');
options(tableSelect, tables);
function drawTable() {
  const key = tableSelect.value;
  const cells = DATA.cells.filter(c => c.source + ' · ' + c.table === key);
  const traces = ['agrees', 'other'].map(kind => {
    const mine = cells.filter(c => (c.status === 'agrees') === (kind === 'agrees'));
    return {
      type: 'scatter', mode: 'markers', name: kind === 'agrees' ? 'published value inside the interval' : 'outside',
      x: mine.map(c => c.published), y: mine.map(c => c.reproduced),
      marker: {color: kind === 'agrees' ? '#1f77b4' : '#d62728', size: 7},
      error_y: {type: 'data', symmetric: false, array: mine.map(c => c.high === null ? 0 : c.high - c.reproduced),
                arrayminus: mine.map(c => c.low === null ? 0 : c.reproduced - c.low), thickness: 1, width: 0},
      text: mine.map(c => `${c.dataset || 'all datasets'} · ${c.system} · point ${fmt(c.point)} · ${c.statistic}` +
                          `<br>published ${fmt(c.published)}, reproduced ${fmt(c.reproduced)} [${fmt(c.low)}, ${fmt(c.high)}]` +
                          ` (${c.interval})<br>${c.status}; table: ${c.verdict}`),
      hoverinfo: 'text',
    };
  });
  const values = cells.flatMap(c => [c.published, c.reproduced]).filter(v => v !== null);
  const lo = Math.min(...values), hi = Math.max(...values), pad = 0.05 * ((hi - lo) || 1);
  traces.push({type: 'scatter', mode: 'lines', name: 'reproduced = published', x: [lo - pad, hi + pad],
               y: [lo - pad, hi + pad], line: {dash: 'dash', color: 'black', width: 1}, hoverinfo: 'skip'});
  const verdict = cells.length ? cells[0].verdict : '';
  Plotly.react('table-plot', traces, {title: {text: `${key} (${cells.length} cells): ${verdict}`},
    xaxis: {title: {text: 'published'}}, yaxis: {title: {text: 'reproduced'}}, hovermode: 'closest',
    legend: {orientation: 'h', y: -0.15}}, {responsive: true});
}
tableSelect.addEventListener('change', drawTable);
// Learning curves, one experiment and dataset at a time.
const experimentSelect = document.getElementById('experiment-select');
const datasetSelect = document.getElementById('dataset-select');
options(experimentSelect, Object.keys(DATA.curves));
function datasets() { options(datasetSelect, Object.keys(DATA.curves[experimentSelect.value] || {})); }
function drawCurves() {
  const traces = [];
  for (const t of (DATA.curves[experimentSelect.value] || {})[datasetSelect.value] || []) {
    const upper = t.y.map((v, i) => v === null ? null : v + 1.96 * (t.se[i] || 0));
    const lower = t.y.map((v, i) => v === null ? null : v - 1.96 * (t.se[i] || 0));
    traces.push({type: 'scatter', mode: 'lines+markers', name: t.name, x: t.x, y: t.y, legendgroup: t.name,
                 error_y: {type: 'data', symmetric: false, array: upper.map((u, i) => u - t.y[i]),
                           arrayminus: lower.map((l, i) => t.y[i] - l), thickness: 1, width: 2}});
  }
  Plotly.react('curve-plot', traces, {title: {text: `${experimentSelect.value}: ${datasetSelect.value}`},
    xaxis: {title: {text: 'curve point (or noise level)'}}, yaxis: {title: {text: 'mean accuracy (%)'}},
    hovermode: 'x unified'}, {responsive: true});
}
experimentSelect.addEventListener('change', () => { datasets(); drawCurves(); });
datasetSelect.addEventListener('change', drawCurves);
// Every cell, filtered by the words typed.
const body = document.getElementById('cells-body');
const filter = document.getElementById('cells-filter');
const columns = ['source', 'table', 'dataset', 'system', 'point', 'statistic', 'published', 'reproduced', 'low', 'high', 'status', 'verdict'];
const numeric = new Set(['point', 'published', 'reproduced', 'low', 'high']);
function drawCells() {
  const words = filter.value.toLowerCase().split(/\s+/).filter(Boolean);
  const shown = DATA.cells.filter(c => words.every(w => columns.some(k => String(c[k] ?? '').toLowerCase().includes(w))));
  body.innerHTML = '';
  for (const c of shown.slice(0, 2000)) {
    const tr = document.createElement('tr');
    for (const k of columns) {
      const td = document.createElement('td');
      td.textContent = numeric.has(k) ? fmt(c[k]) : (c[k] ?? '');
      if (numeric.has(k)) td.className = 'num';
      tr.appendChild(td);
    }
    body.appendChild(tr);
  }
  document.getElementById('cells-count').textContent =
    `${shown.length} of ${DATA.cells.length} cells` + (shown.length > 2000 ? ' (the first 2000 shown)' : '');
}
filter.addEventListener('input', drawCells);
if (tables.length) drawTable();
datasets(); drawCurves(); drawCells();
"""


def explorer_html(index: Any, curves: pd.DataFrame, summary: str, *,
                  title: str = "Replication report: explore the evidence") -> str:
    """The self-contained page of ``index`` (a :class:`~redecorate.report.replication_index.
    ReplicationIndex`, whose ``summary`` line it opens with) and ``curves`` (:func:`curve_summary`
    rows of its experiments)."""

    data = {"cells": _cells(index.rows), "curves": _curves(curves)}
    payload = json.dumps(data, separators=(",", ":"), allow_nan=False).replace("</", "<\\/")
    header = "".join(f"<th>{html.escape(c)}</th>" for c in
                     ("source", "table", "dataset", "system", "point", "statistic", "published", "reproduced",
                      "low", "high", "status", "table verdict"))  # fmt: skip
    return (
        f'<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>{html.escape(title)}</title>\n'
        f"<style>{_STYLE}</style>\n<script>{get_plotlyjs()}</script>\n</head>\n<body>\n"
        f"<h1>{html.escape(title)}</h1>\n<p>{html.escape(summary)} The verdicts and how they are "
        "decided: <a href=\"REPLICATION.md\">REPLICATION.md</a>, beside this page.</p>\n"
        '<section id="tables"><h2>Reproduced against published, per table</h2>\n'
        '<label>Table <select id="table-select"></select></label>\n<div id="table-plot" class="plot"></div>\n'
        "<p>Each cell's bar is the interval it is judged by: the 95 % interval of the difference of the two "
        "estimates where the cell has one, else that of the reproduced mean.</p></section>\n"
        '<section id="curves"><h2>Learning curves</h2>\n<label>Experiment <select id="experiment-select"></select>'
        '</label><label>Dataset <select id="dataset-select"></select></label>\n<div id="curve-plot" class="plot">'
        "</div>\n<p>Mean accuracy of every system at each point; bars ±1.96 standard errors of the per-fold "
        "accuracies (folds of one run are not independent, so read them as a spread, not a test).</p></section>\n"
        '<section id="cells"><h2>Every cell</h2>\n<input id="cells-filter" type="search" size="50" '
        'placeholder="filter: words that must all appear, e.g. 4.2 labor">\n<span id="cells-count"></span>\n'
        f'<div id="cells-wrap"><table id="cells-table"><thead><tr>{header}</tr></thead><tbody id="cells-body">'
        "</tbody></table></div></section>\n"
        f'<script type="application/json" id="explorer-data">{payload}</script>\n<script>{_SCRIPT}</script>\n'
        "</body>\n</html>\n"
    )


def write_explorer(index: Any, curves: pd.DataFrame, summary: str, path: str | os.PathLike[str]) -> Path:
    """Write :func:`explorer_html` to ``path`` (replaced only once complete)."""
    text = explorer_html(index, curves, summary)
    return atomic_write(Path(path), lambda tmp: tmp.write_text(text, encoding="utf-8"))
