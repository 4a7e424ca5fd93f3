"""Helpers for the ``report:`` keys a kind owns, shared by the kinds that own similar ones.

A kind declares its report keys (``report_schema``) and checks the labels they name before
any job (``check``); several kinds have "A vs B" ``comparisons`` or tables whose columns are
algorithms, and every built-in kind's report lives in a report module imported only when the report
runs (:class:`DeferredReport`, the one way a kind names its report). One definition of each
here keeps their schemas, messages and imports alike.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import ModuleType
from typing import TYPE_CHECKING, Any

import pandas as pd

from redecorate.config import ExperimentConfigError, did_you_mean
from redecorate.protocol.experiment import ExperimentSpec
from redecorate.protocol.settings import ReportOutputs, ReportSettings

if TYPE_CHECKING:
    from redecorate.report.replication_report import ReplicationReport

__all__ = ["DeferredReport", "comparisons_schema", "deferred_report", "require_algorithms", "require_comparisons"]


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


@dataclass(frozen=True)
class DeferredReport:
    """A kind's report: the report module that writes it, imported only when the report runs
    (parsing the workflow and running jobs never load plotting code).

    Every report module defines the same two functions, so that a kind names its report in
    one way whatever it reports:

    * ``write_report(records, outputs, settings, **options) -> ReplicationReport``: the
      tables and figures (written to ``outputs``) and the reproduced-vs-published
      comparison (returned);
    * ``evidence(records, settings) -> DataFrame``: every published cell beside its
      reproduction, in the one layout of :mod:`redecorate.report.agreement`, which the
      replication report of all experiments (:mod:`redecorate.report.replication_index`)
      reads without writing any table or figure.

    ``modules`` maps a ``report.variant`` to its module; the first is the default (the
    ``active`` kind reports chapter 6 or chapter 7 from the same records). Calling the value
    is the kind's ``report`` (:attr:`redecorate.kinds.kind.ExperimentKind.report`).
    """

    modules: Mapping[str, str]
    options: Mapping[str, Any] = field(default_factory=dict)

    def module(self, settings: ReportSettings) -> ModuleType:
        """The report module of ``settings``' variant."""
        variant = str(settings.report.get("variant", next(iter(self.modules))))
        if variant not in self.modules:
            raise ValueError(f"experiment {settings.experiment}: report.variant {variant!r} is not one of "
                             f"{', '.join(self.modules)}")
        return importlib.import_module(self.modules[variant])

    def __call__(self, records: pd.DataFrame, summary: pd.DataFrame, out: ReportOutputs,
                 settings: ReportSettings) -> ReplicationReport:
        """The kind's report: ``write_report`` of the variant's module (``summary`` is
        recomputed by the reports that need it, from ``records``)."""
        return self.module(settings).write_report(records, out, settings, **self.options)

    def evidence(self, records: pd.DataFrame, settings: ReportSettings) -> pd.DataFrame:
        """The reproduced-vs-published cells alone: ``evidence`` of the variant's module."""
        return self.module(settings).evidence(records, settings)


def deferred_report(module: str | Mapping[str, str], **options: Any) -> DeferredReport:
    """A kind's report that lives in a report module (``"redecorate.report.noise"``), or one
    module per ``report.variant`` (a mapping, the default first); ``options`` are passed to
    its ``write_report``. See :class:`DeferredReport`."""
    modules = {"default": module} if isinstance(module, str) else dict(module)
    return DeferredReport(modules, dict(options))
