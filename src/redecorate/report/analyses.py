"""Experiment-specific analyses: the studies that are not a baseline-vs-others table.

Why: most of chapters 4-5 fits one mould (comparison tables, scatter plots, learning curves,
reproduced vs published), which :mod:`redecorate.report` builds for every experiment. A few
sections report something else: the Spearman correlations of §4.4, the diversity win-loss
Table 4.7, accuracy against ensemble size (Figure 4.7), ensembles of 100 against 15 (§4.5). An experiment file asks for them by
name (``report: {analyses: [name, ...]}``); each name maps to one function in a module of
this package, imported only when asked for.

Every analysis has the signature ``analysis(records, tables_dir, figures_dir, settings)``
and returns the paths it wrote. ``records`` are the experiment's long-form records,
``tables_dir``/``figures_dir`` the (staged) output directories of rule
``report_experiment``, ``settings`` the experiment's
:class:`~redecorate.protocol.settings.ReportSettings` (``experiment``, ``datasets``,
``algorithms``, ``params`` (label -> learner parameters), ``points``, ``published``, and the
analysis's own options under ``settings.analysis_options[name]``).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pandas as pd

from redecorate.protocol.settings import ReportSettings

Analysis = Callable[[pd.DataFrame, Path, Path, Mapping[str, Any]], list[Path]]

#: name -> "module:function", resolved lazily so an analysis's dependencies load on demand.
#: A static table so that experiment files are checked against it before anything runs.
ANALYSES: dict[str, str] = {
    "ensemble_size_curve": "redecorate.report.ensemble_size:ensemble_size_curve",  # §4.5, Fig. 4.7
    "diversity_correlation": "redecorate.report.diversity_study:diversity_correlation",  # §4.4
    "diversity_win_loss": "redecorate.report.diversity_study:diversity_win_loss",  # Table 4.7
    "size_trends": "redecorate.report.size_trends:size_trends",  # §4.5, size 100 (Figs 4.8-4.9)
}

#: name -> "module:function" of the analyses that compare with a published table: their
#: cells in the evidence layout (:data:`redecorate.report.agreement.EVIDENCE_COLUMNS`),
#: ``function(records, settings) -> DataFrame``, for the report and the replication report.
EVIDENCE: dict[str, str] = {
    "diversity_correlation": "redecorate.report.diversity_study:correlation_evidence",  # §4.4
    "diversity_win_loss": "redecorate.report.diversity_study:win_loss_evidence",  # Table 4.7
    "size_trends": "redecorate.report.size_trends:size_trends_evidence",  # §4.5, size 100
}


def _function(target: str) -> Callable[..., Any]:
    module, _, function = target.partition(":")
    return getattr(importlib.import_module(module), function)


def resolve(name: str) -> Analysis:
    """The function behind an analysis name; a clear error for an unknown one."""
    if name not in ANALYSES:
        known = ", ".join(sorted(ANALYSES)) or "none"
        raise KeyError(f"unknown report analysis {name!r}; known analyses: {known}")
    return _function(ANALYSES[name])


def analyses_evidence(names: list[str], records: pd.DataFrame, settings: ReportSettings) -> list[pd.DataFrame]:
    """The evidence of each named analysis that compares with a published table."""
    return [_function(EVIDENCE[name])(records, settings) for name in names if name in EVIDENCE]


def run_analyses(
    names: list[str],
    records: pd.DataFrame,
    tables_dir: Path,
    figures_dir: Path,
    settings: ReportSettings,
) -> list[Path]:
    """Run each named analysis in order; returns every path written."""
    written: list[Path] = []
    for name in names:
        written += resolve(name)(records, Path(tables_dir), Path(figures_dir), settings)
    return written
