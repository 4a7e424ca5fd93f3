"""Reporting: the dissertation's tables and figures, and the replication report.

Entry points for workflow scripts (each takes the long-form records or their summary and
an output directory, and returns the paths it wrote):

* :func:`write_comparison_tables`: Tables 4.2–4.5 layout, Markdown/LaTeX/CSV;
* :func:`write_figures`: Figures 4.1–4.4 (scatter) and 4.5–4.6 (learning curves), PNG/PDF;
* :func:`summary_replication`: reproduced vs published cells and conclusions (a value;
  :func:`~redecorate.report.replication_report.write_replication_report` writes it).

The names below are imported on first use (module ``__getattr__``), not with the package:
the workflow reads ``report.published`` and ``report.status`` when it parses, and importing
the figures (matplotlib, ~0.6 s) for that would be paid by every Snakemake invocation.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from redecorate.util import lazy_exports

if TYPE_CHECKING:
    from redecorate.report.figures import learning_curves, scatter_plot, write_figures
    from redecorate.report.replication import (
        check_conclusions,
        compare_cells,
        difference_summary,
        load_published,
        summary_replication,
    )
    from redecorate.report.tables import (
        ComparisonTable,
        comparison_table,
        render_latex,
        render_markdown,
        table_frame,
        write_comparison_tables,
    )

_EXPORTS = {
    "learning_curves": "figures",
    "scatter_plot": "figures",
    "write_figures": "figures",
    "check_conclusions": "replication",
    "compare_cells": "replication",
    "difference_summary": "replication",
    "load_published": "replication",
    "summary_replication": "replication",
    "ComparisonTable": "tables",
    "comparison_table": "tables",
    "render_latex": "tables",
    "render_markdown": "tables",
    "table_frame": "tables",
    "write_comparison_tables": "tables",
}

__all__ = [
    "ComparisonTable",
    "check_conclusions",
    "compare_cells",
    "comparison_table",
    "difference_summary",
    "learning_curves",
    "load_published",
    "render_latex",
    "render_markdown",
    "scatter_plot",
    "table_frame",
    "write_comparison_tables",
    "write_figures",
    "summary_replication",
]

__getattr__ = lazy_exports(__name__, _EXPORTS)
