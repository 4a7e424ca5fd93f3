"""Helpers for the ``report:`` keys a kind owns, shared by the kinds that own similar ones.

A kind declares its report keys (``report_schema``) and checks the labels they name before
any job (``check``); several kinds have "A vs B" ``comparisons`` or tables whose columns are
algorithms, and most kinds' reports live in a report module imported only when the report
runs. One definition of each here keeps their schemas, messages and imports alike.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

import pandas as pd

from redecorate.config import ExperimentConfigError, did_you_mean
from redecorate.protocol.experiment import ExperimentSpec
from redecorate.protocol.settings import ReportOutputs, ReportSettings

if TYPE_CHECKING:
    from redecorate.report.replication_report import ReplicationReport

__all__ = ["comparisons_schema", "deferred_report", "require_algorithms", "require_comparisons"]


def require_algorithms(spec: ExperimentSpec, key: str, labels: Iterable[str]) -> None:
    """Labels a kind's key names (``report.comparisons[0]``, ``report.tables.5``) must be
    algorithms of the file: a typo would otherwise fail in the report, after every job.

    Raises:
        redecorate.config.ExperimentConfigError: naming the file, the key, the unknown labels
            with close matches, and the file's algorithms.
    """
    unknown = [str(a) for a in labels if a not in spec.algorithms]
    if unknown:
        hints = "".join(did_you_mean(a, list(spec.algorithms)) for a in unknown)
        raise ExperimentConfigError(
            f"experiment file {spec.path}: key '{key}': {', '.join(map(repr, unknown))} not among "
            f"the algorithms ({', '.join(spec.algorithms)}).{hints}"
        )


def require_comparisons(spec: ExperimentSpec) -> None:
    """Both sides of every ``report.comparisons`` entry are algorithms of the file."""
    for i, pair in enumerate(spec.report.get("comparisons") or []):
        require_algorithms(spec, f"report.comparisons[{i}]", [pair.get("a"), pair.get("b")])


def comparisons_schema(description: str, min_items: int = 0) -> dict[str, Any]:
    """The JSON schema of a ``report.comparisons`` list of "A vs B" tables (noise, active's
    probability variant, acquisition): entries ``{a, b, table}``, a and b algorithm labels
    (:func:`require_comparisons`), table the source's table number."""
    return {"description": description, "type": "array", "minItems": min_items,
            "items": {"type": "object", "additionalProperties": False, "required": ["a", "b"],
                      "properties": {"a": {"type": "string"}, "b": {"type": "string"},
                                     "table": {"type": "string"}}}}  # fmt: skip


def deferred_report(target: str, **options: Any) -> Callable[..., ReplicationReport]:
    """A kind's report that lives in a report module, ``"module:function"``, imported only when
    the report runs (parsing the workflow and running jobs never load plotting code); the
    function takes ``(records, outputs, settings, **options)``."""

    def report(records: pd.DataFrame, summary: pd.DataFrame, out: ReportOutputs,
               settings: ReportSettings) -> ReplicationReport:
        module, _, name = target.partition(":")
        return getattr(importlib.import_module(module), name)(records, out, settings, **options)

    report.__doc__ = f"The report of {target} (:func:`deferred_report`)."
    return report
