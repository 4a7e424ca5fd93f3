"""Statistics of the dissertation's comparisons, as pure functions of the long-form records.

* :mod:`~redecorate.stats.summary`: per-cell mean/std/count (:func:`summarise`).
* :mod:`~redecorate.stats.significance`: :func:`paired_t_test` (the thesis's test) and
  :func:`corrected_resampled_t_test` (Nadeau & Bengio 2003, reported alongside).
* :mod:`~redecorate.stats.comparison`: :func:`win_draw_loss`, :func:`significant_win_draw_loss`,
  :func:`geometric_mean_error_ratio` and the per-(dataset, point) :func:`compare_algorithms`.
* :mod:`~redecorate.stats.learning_curves`: active-learning curve summaries (§6.3.1):
  :func:`target_error`, :func:`data_utilization`, :func:`mean_error_reduction`,
  :func:`top_error_reduction`, :func:`error_reduction_test`, :func:`number_of_wins`.
"""

from redecorate.stats.comparison import (
    WinDrawLoss,
    compare_algorithms,
    error_from_accuracy,
    geometric_mean_error_ratio,
    infer_n_test,
    significance_sign,
    significant_win_draw_loss,
    strict_win_draw_loss,
    summarise_comparison,
    win_draw_loss,
)
from redecorate.stats.learning_curves import (
    DataUtilization,
    align_curves,
    data_utilization,
    error_reduction_test,
    examples_to_reach,
    mean_error_reduction,
    number_of_wins,
    percent_error_reduction,
    target_error,
    top_error_reduction,
    top_fraction_points,
    utilization_ratio,
)
from redecorate.stats.significance import (
    TestResult,
    corrected_resampled_t_test,
    paired_t_test,
)
from redecorate.stats.summary import RECORD_COLUMNS, check_records, load_records, summarise

__all__ = [
    "RECORD_COLUMNS",
    "DataUtilization",
    "align_curves",
    "data_utilization",
    "error_reduction_test",
    "examples_to_reach",
    "mean_error_reduction",
    "number_of_wins",
    "percent_error_reduction",
    "target_error",
    "top_error_reduction",
    "top_fraction_points",
    "utilization_ratio",
    "TestResult",
    "WinDrawLoss",
    "check_records",
    "compare_algorithms",
    "corrected_resampled_t_test",
    "error_from_accuracy",
    "geometric_mean_error_ratio",
    "infer_n_test",
    "load_records",
    "paired_t_test",
    "significance_sign",
    "significant_win_draw_loss",
    "strict_win_draw_loss",
    "summarise",
    "summarise_comparison",
    "win_draw_loss",
]
