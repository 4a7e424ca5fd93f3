"""The sources' tables and figures, one row each: what the replication report has a verdict for.

``config/published/contents.tsv`` lists every table and figure that reports a result in the
three sources (the dissertation's chapters 4–8, Oza's chapters 3–4, Bommaganti's Tables 5–7
and Figures 10–22), with the experiment(s) that reproduce it, the transcribed values that
score it (``file:table`` keys of the other TSVs of ``config/published/``), the readings and
ablations that probe it, links to our outputs, and, where nothing can be scored, why (a
figure whose values the seed does not keep, data that are not public, running times of
another machine). Algorithm listings, worked examples, diagrams and dataset summaries are
not results and have no row.

Why a file and not code: it is a transcription of the sources' lists of tables and figures,
like the values beside it, and a test checks it against them (every published table is
claimed by a row, every claimed key exists).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from os import PathLike
from pathlib import Path

import pandas as pd

from redecorate.report.published import PublishedFormatError

__all__ = ["CONTENTS_COLUMNS", "CONTENTS_FILE", "SOURCES", "PublishedItem", "read_contents"]

CONTENTS_FILE = "contents.tsv"
"""Beside the transcribed values in ``config/published/``."""

CONTENTS_COLUMNS: tuple[str, ...] = (
    "source", "item", "caption", "experiments", "published", "readings", "links", "not_comparable",
)  # fmt: skip
"""The columns of :data:`CONTENTS_FILE`; list columns separate their entries with ``;``."""

SOURCES: dict[str, str] = {
    "dissertation": "Melville (2005)",
    "oza": "Oza (2001)",
    "bommaganti": "Bommaganti",
}
"""The three sources (the ``source`` column) and how the report names them."""


@dataclass(frozen=True)
class PublishedItem:
    """One table or figure of a source.

    Attributes:
        source: a key of :data:`SOURCES`.
        item: ``Table 4.2``, ``Figure 6.1``, ``§4.4`` (a result printed in the text).
        caption: the source's caption, shortened.
        experiments: the experiment(s) whose records reproduce it.
        published: ``(file, table)`` keys of the transcribed values that score it.
        readings: directories (under the records root) of readings and ablations probing it.
        links: files or directories (under the records root) of our outputs to link.
        not_comparable: why nothing can be scored against it; empty when something can.
    """

    source: str
    item: str
    caption: str
    experiments: tuple[str, ...]
    published: tuple[tuple[str, str], ...]
    readings: tuple[str, ...]
    links: tuple[str, ...]
    not_comparable: str

    @property
    def is_figure(self) -> bool:
        """Figures are listed apart and never counted in the summary line: the values they
        draw, where the seed keeps any, are a table's."""
        return self.item.startswith("Figure")

    @property
    def tables(self) -> frozenset[str]:
        """The table keys of its published values (the evidence rows it is scored on)."""
        return frozenset(table for _, table in self.published)

    @property
    def section(self) -> str:
        """The report's section: the source and, for the dissertation and Oza, the chapter."""
        if self.source == "bommaganti":
            return SOURCES[self.source]
        number = re.search(r"(\d+)\.", self.item)
        return f"{SOURCES[self.source]}, chapter {number.group(1) if number else '?'}"


def _entries(text: str) -> tuple[str, ...]:
    return tuple(part.strip() for part in text.split(";") if part.strip())


def read_contents(path: str | PathLike[str]) -> list[PublishedItem]:
    """The rows of a contents file, in file order.

    Raises:
        PublishedFormatError: a missing column, an unknown source, a repeated item or a
            published entry that is not ``file:table``, naming the file, line and column.
    """
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"list of published tables and figures not found: {path} "
                                f"(config/published/{CONTENTS_FILE})")
    frame = pd.read_csv(path, sep="\t", dtype=str, keep_default_na=False)
    missing = [c for c in CONTENTS_COLUMNS if c not in frame.columns]
    if missing:
        raise PublishedFormatError(f"{path}: needs the columns {', '.join(CONTENTS_COLUMNS)}; missing "
                                   f"{', '.join(missing)}")
    items, seen = [], {}
    for index, row in frame.iterrows():
        line = int(index) + 2
        where = f"{path}, line {line}"
        if row["source"] not in SOURCES:
            raise PublishedFormatError(f"{where}, column source: {row['source']!r} is not one of "
                                       f"{', '.join(SOURCES)}")
        key = (row["source"], row["item"].strip())
        if key in seen:
            raise PublishedFormatError(f"{where}, column item: {key[1]!r} of {key[0]} is also on line "
                                       f"{seen[key]}; one row per table or figure")
        seen[key] = line
        published = []
        for entry in _entries(row["published"]):
            file, sep, table = entry.partition(":")
            if not sep or not file.strip() or not table.strip():
                raise PublishedFormatError(f"{where}, column published: {entry!r} is not 'file:table' "
                                           "(e.g. ch4_summary_4.2-4.5.tsv:4.2)")
            published.append((file.strip(), table.strip()))
        if not published and not row["not_comparable"].strip():
            raise PublishedFormatError(f"{where}: {key[1]} has neither published values to score nor a "
                                       "reason in not_comparable")
        items.append(PublishedItem(
            source=row["source"], item=key[1], caption=row["caption"].strip(),
            experiments=_entries(row["experiments"]), published=tuple(published),
            readings=_entries(row["readings"]), links=_entries(row["links"]),
            not_comparable=row["not_comparable"].strip(),
        ))  # fmt: skip
    return items
