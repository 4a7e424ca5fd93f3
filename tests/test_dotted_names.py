"""Every dotted name ``redecorate.<...>`` written in the code, the workflow and the docs exists.

Why: modules move (``redecorate.learners.registry.make_learner`` became
``redecorate.learners.params.make_learner``,
``redecorate.online`` became ``redecorate.learners.online_ensembles``) and a name left behind in a
docstring, a rule file's comment, a ``"module:attribute"`` registry target or a README sends
the reader (or ``importlib``) to nothing. The names are found as text, so prose, backticks,
Sphinx roles and ``module:attribute`` strings are all checked; each must resolve: the longest
importable module prefix is imported and the rest is looked up as attributes.
"""

from __future__ import annotations

import importlib
import re
from functools import cache
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]

#: Where dotted names are looked for: the code (library, workflow rules and their scripts,
#: tests, benchmarks, tools) and the docs (docs/, the README, the YAML files' comments).
SCANNED = (
    "src/**/*.py",
    "Snakefile",
    "workflow/**/*.smk",
    "workflow/**/*.py",
    "workflow/**/*.rst",
    "workflow/**/*.yaml",
    "scripts/**/*.py",
    "tests/**/*.py",
    "benchmarks/**/*.py",
    "benchmarks/**/*.md",
    "tools/**/*.py",
    "tools/**/*.java",
    "docs/*.md",
    "README.md",
    "config/**/*.yaml",
)

#: ``redecorate`` followed by dotted identifiers, optionally ``:attribute[.attribute]``; not
#: part of a path, a URL or a longer name (``src/redecorate.egg-info``, ``x.redecorate.y``).
DOTTED = re.compile(
    r"(?<![\w./-])redecorate(?:\.[A-Za-z_]\w*)+(?::[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)?"
)

#: Text that looks like a dotted name but names no module: (file, name) -> what it is.
NOT_NAMES = {
    ("src/redecorate/job_records.py", "redecorate.job"):
        "the key of a records file's job metadata in its parquet schema",
    ("tests/test_online_learners.py", "redecorate.probe_kernels"):
        "the module name the test gives the functions it compiles",
    ("docs/adding-a-learner.md", "redecorate.learners.class_prior:ClassPrior"):
        "the registry line of the guide's worked example (tests/learners/class_prior.py)",
    ("tests/test_adding_a_learner.py", "redecorate.learners.class_prior:ClassPrior"):
        "the registry line the test adds to a copy of the package",
}


def scanned_files() -> list[Path]:
    """The files of :data:`SCANNED`, but this one (its examples are stale on purpose)."""
    files = {path for pattern in SCANNED for path in REPO.glob(pattern)
             if path.is_file() and "__pycache__" not in path.parts}  # fmt: skip
    return sorted(files - {Path(__file__).resolve()})


def dotted_names(text: str) -> list[tuple[int, str]]:
    """``(line number, name)`` of every dotted ``redecorate`` name in ``text``."""
    return [(number, match.group(0)) for number, line in enumerate(text.splitlines(), 1)
            for match in DOTTED.finditer(line)]  # fmt: skip


def _declared(obj: object, attribute: str) -> bool:
    """Whether ``obj`` is a class declaring ``attribute`` without a class-level value (a
    dataclass field with a default factory or none, an annotated instance attribute)."""
    return isinstance(obj, type) and any(attribute in vars(cls).get("__annotations__", {})
                                         for cls in obj.__mro__)  # fmt: skip


@cache
def unresolved(name: str) -> str | None:
    """Why ``name`` (``a.b.c`` or ``a.b:c.d``) does not resolve, or None when it does."""
    module_path, _, attributes = name.partition(":")
    parts = module_path.split(".")
    for end in range(len(parts), 0, -1):
        candidate = ".".join(parts[:end])
        try:
            obj = importlib.import_module(candidate)
        except ModuleNotFoundError as exc:
            if exc.name is not None and candidate.startswith(exc.name):
                continue  # this prefix is not a module: try a shorter one
            return f"importing {candidate} fails: {exc}"
        except Exception as exc:  # a module that exists but cannot be imported
            return f"importing {candidate} fails: {type(exc).__name__}: {exc}"
        rest = parts[end:] + (attributes.split(".") if attributes else [])
        where = candidate
        for attribute in rest:
            if not hasattr(obj, attribute):
                if _declared(obj, attribute):
                    return None  # an instance's field: what follows is the field value's
                return f"{where} has no attribute or submodule {attribute!r}"
            obj = getattr(obj, attribute)
            where = f"{where}.{attribute}"
        return None
    return f"no module {parts[0]!r}"


def test_the_pattern_finds_names_in_prose_backticks_roles_and_targets() -> None:
    text = ("see redecorate.kinds.passive.\n"
            "``redecorate.learners.registry`` and :func:`redecorate.job_records.unit_key`\n"
            '"redecorate.learners.j48:J48", src/redecorate/online.py, x.redecorate.y\n')  # fmt: skip
    assert dotted_names(text) == [
        (1, "redecorate.kinds.passive"),
        (2, "redecorate.learners.registry"),
        (2, "redecorate.job_records.unit_key"),
        (3, "redecorate.learners.j48:J48"),
    ]


def test_resolution_imports_the_longest_module_and_looks_up_the_rest() -> None:
    assert unresolved("redecorate.learners.params:make_learner") is None
    assert unresolved("redecorate.job_records.unit_key") is None
    assert unresolved("redecorate.learners.cost.FitCost.seconds") is not None
    assert unresolved("redecorate.learners.cost.FitCost.per_example") is None  # a field
    assert "no attribute or submodule 'online'" in unresolved("redecorate.online")
    assert "'Nothing'" in unresolved("redecorate.learners.j48:Nothing")


def test_every_dotted_name_resolves() -> None:
    files = scanned_files()
    assert any(path.suffix == ".smk" for path in files) and any(path.suffix == ".md" for path in files)
    stale, found = [], 0
    for path in files:
        relative = path.relative_to(REPO).as_posix()
        for number, name in dotted_names(path.read_text(encoding="utf-8", errors="replace")):
            found += 1
            if (relative, name) in NOT_NAMES:
                continue
            reason = unresolved(name)
            if reason is not None:
                stale.append(f"{relative}:{number}: {name} ({reason})")
    assert found > 100, f"only {found} dotted names found: the scan would pass vacuously"
    assert not stale, "dotted names that resolve to nothing:\n" + "\n".join(stale)


@pytest.mark.parametrize(("where", "name"), sorted(NOT_NAMES))
def test_the_exceptions_are_still_there_and_still_not_names(where: str, name: str) -> None:
    """An exception whose text is gone (or that became a real name) is removed from the list."""
    assert any(found == name for _, found in dotted_names((REPO / where).read_text(encoding="utf-8")))
    assert unresolved(name) is not None
