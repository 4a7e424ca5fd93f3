"""Reporting: the dissertation's tables and figures, and the replication report.

Entry points for workflow scripts (each takes the long-form records or their summary and
an output directory, and returns the paths it wrote):

* :func:`write_comparison_tables`: Tables 4.2–4.5 layout, Markdown/LaTeX/CSV;
* :func:`write_figures`: Figures 4.1–4.4 (scatter) and 4.5–4.6 (learning curves), PNG/PDF;
* :func:`write_replication`: reproduced vs published cells and conclusions.
"""

from redecorate.report.figures import learning_curves, scatter_plot, write_figures
from redecorate.report.replication import (
    check_conclusions,
    compare_cells,
    difference_summary,
    load_published,
    write_replication,
)
from redecorate.report.tables import (
    ComparisonTable,
    comparison_table,
    render_latex,
    render_markdown,
    table_frame,
    write_comparison_tables,
)

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
    "write_replication",
]
