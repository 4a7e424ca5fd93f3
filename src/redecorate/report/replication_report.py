"""The reproduced-vs-published comparison of one experiment, as one value, and its writer.

Every kind's report ends in the same three files: ``replication.md`` (what a person reads:
the verdict, the cells beside the published ones, the conclusions), ``replication.csv`` (the
cells) and ``replication_conclusions.csv`` (each published conclusion and whether it held).
A kind's report returns a :class:`ReplicationReport`; :func:`write_replication_report` is the
one place that marks the conclusions' comparability, adds a slice's banner and writes the
files, so they say the same things in the same way whatever the kind. The HTML report shows
``replication.md`` as its page and the two CSV files as its tables (workflow/rules/
aggregate.smk).
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import pandas as pd

from redecorate.report.conclusions import mark_comparability

__all__ = ["ReplicationPaths", "ReplicationReport", "write_replication_report"]


@dataclass(frozen=True)
class ReplicationReport:
    """What an experiment reproduced, set beside the published values.

    Attributes:
        markdown: ``replication.md``: title line, a blank line, then the body.
        cells: one row per compared cell (kind-specific columns: dataset, system, published,
            reproduced, ...); empty when nothing was published.
        conclusions: one row per published conclusion, with ``holds`` (True/False/NA).
        comparable: whether the run is the source's protocol on its datasets, so that its
            conclusions count as a replication; False blanks ``holds``. None: the kind
            already marked its conclusions (or has none to mark).
    """

    markdown: str
    cells: pd.DataFrame = field(default_factory=pd.DataFrame)
    conclusions: pd.DataFrame = field(default_factory=lambda: pd.DataFrame(columns=["table", "holds"]))
    comparable: bool | None = None


@dataclass(frozen=True)
class ReplicationPaths:
    """Where :func:`write_replication_report` writes (staged paths in the workflow)."""

    markdown: Path
    cells: Path
    conclusions: Path


def _sliced(report: ReplicationReport, slice_: Mapping[str, Any], experiment: str,
            published: list[str]) -> ReplicationReport:
    """The report of a slice: its banner after the title, and the conclusions of the tables
    that need a left-out algorithm or dataset marked not comparable."""
    from redecorate.report.published import read_published
    from redecorate.report.slices import slice_lines, tables_needing

    needs = tables_needing(read_published(published), slice_["left_out_algorithms"],
                           slice_["left_out_datasets"])  # fmt: skip
    head, sep, rest = report.markdown.partition("\n\n")
    markdown = head + sep + "\n".join(slice_lines(experiment, slice_, needs)) + "\n" + rest
    conclusions = report.conclusions
    if needs and "table" in conclusions and len(conclusions):
        hit = conclusions["table"].astype(str).isin(list(needs))
        if hit.any():
            marked = mark_comparability(conclusions[hit], False)
            conclusions = conclusions.astype({c: object for c in ("holds", "comparable") if c in conclusions})
            conclusions.loc[hit, marked.columns] = marked
    return replace(report, markdown=markdown, conclusions=conclusions)


def write_replication_report(report: ReplicationReport, paths: ReplicationPaths, *, experiment: str,
                             slice_: Mapping[str, Any] | None = None,
                             published: list[str] | None = None, this_run: Sequence[str] = ()) -> None:
    """Write the three replication files of ``report``.

    ``slice_`` (:attr:`redecorate.protocol.settings.ReportSettings.slice`) marks the report
    of a slice; ``published`` are the published-value files its tables come from;
    ``this_run`` (:func:`redecorate.report.this_run.this_run_lines`) goes right after the
    title (and a slice's banner), before the comparison with the dissertation.
    """
    if report.comparable is not None:
        report = replace(report, conclusions=mark_comparability(report.conclusions, report.comparable))
    if this_run:
        head, sep, rest = report.markdown.partition("\n\n")
        report = replace(report, markdown=head + sep + "\n".join(this_run) + "\n" + rest)
    if slice_:
        report = _sliced(report, slice_, experiment, [str(p) for p in published or []])
    for path in (paths.markdown, paths.cells, paths.conclusions):
        Path(os.fspath(path)).parent.mkdir(parents=True, exist_ok=True)
    Path(paths.markdown).write_text(report.markdown, encoding="utf-8")
    report.cells.to_csv(paths.cells, index=False, lineterminator="\n")
    report.conclusions.to_csv(paths.conclusions, index=False, lineterminator="\n")
