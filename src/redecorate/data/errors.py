"""Exceptions of the data layer.

Every failure in the data layer ends a workflow rule, so each exception message is written
for the person who has to fix it: it names the dataset or file, what was expected, what was
found, and what to change. The classes exist so callers can tell *kinds* of failure apart
(a corrupt file is not a network outage) without parsing messages.
"""

from __future__ import annotations

from pathlib import Path


class DataError(Exception):
    """Base class of every error raised by :mod:`redecorate.data`."""


class DatasetError(DataError, ValueError):
    """A dataset is unusable: wrong size, wrong class count, a single class, a bad checksum."""


class ArffError(DatasetError):
    """An ARFF file is malformed or uses a feature the parser does not support.

    The message always starts with ``<file>:<line>:`` so editors and terminals can jump to
    the offending line; ``path`` and ``line`` are kept as attributes for programmatic use.
    """

    def __init__(self, path: str | Path, line: int | None, problem: str, fix: str) -> None:
        self.path = str(path)
        self.line = line
        self.problem = problem
        self.fix = fix
        where = f"{self.path}:{line}" if line is not None else self.path
        super().__init__(f"{where}: {problem}; fix: {fix}")


class DownloadError(DataError, OSError):
    """A dataset could not be fetched, or the fetched bytes do not match their checksum."""


class RegistryError(DataError, LookupError):
    """A dataset name is not in the registry, or a registry entry cannot be used as asked."""

    def __str__(self) -> str:
        # LookupError subclasses such as KeyError repr() their message; keep it readable.
        return str(self.args[0]) if self.args else ""
