"""The library's layering, checked from its source: what the architecture promises.

* no import cycle between the subpackages of ``redecorate`` (module-level or deferred
  imports alike: a deferred import only hides a cycle);
* the library never imports Snakemake (the workflow calls the library, not the reverse);
* no module imports another module's private (underscore) name;
* parsing the workflow and starting a job import no plotting library, and no learner
  (scikit-learn, numba) before a unit builds one: every Snakemake invocation and every job
  pays for what is imported at start-up (benchmarks/README.md, "Start-up").
"""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SRC = REPO / "src"


def _modules() -> dict[str, ast.Module]:
    out = {}
    for path in SRC.rglob("*.py"):
        name = ".".join(path.relative_to(SRC).with_suffix("").parts).removesuffix(".__init__")
        out[name] = ast.parse(path.read_text(encoding="utf-8"))
    return out


def _imports(tree: ast.Module) -> list[tuple[str, list[str]]]:
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.append((node.module, [a.name for a in node.names]))
        elif isinstance(node, ast.Import):
            found += [(a.name, []) for a in node.names]
    return found


def _package(module: str) -> str:
    return ".".join(module.split(".")[:2])


def test_no_import_cycle_between_subpackages() -> None:
    graph: dict[str, set[str]] = {}
    for name, tree in _modules().items():
        for module, _ in _imports(tree):
            if module.startswith("redecorate") and _package(module) != _package(name):
                graph.setdefault(_package(name), set()).add(_package(module))

    def reachable(start: str) -> set[str]:
        seen: set[str] = set()
        todo = [start]
        while todo:
            for nxt in graph.get(todo.pop(), ()):
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        return seen

    cycles = sorted(p for p in graph if p in reachable(p))
    assert not cycles, {p: sorted(graph[p]) for p in cycles}
    assert graph, "no imports found: the check would pass vacuously"


def test_the_library_never_imports_snakemake() -> None:
    offenders = [name for name, tree in _modules().items()
                 if any(m.split(".")[0] == "snakemake" for m, _ in _imports(tree))]  # fmt: skip
    assert not offenders


def test_no_private_name_is_imported_across_modules() -> None:
    offenders = []
    for name, tree in _modules().items():
        for module, names in _imports(tree):
            if not module.startswith("redecorate"):
                continue
            private_module = any(part.startswith("_") for part in module.split("."))
            private_names = [n for n in names if n.startswith("_")]
            if private_module or private_names:
                offenders.append(f"{name}: from {module} import {', '.join(names)}")
    assert not offenders, offenders


_HEAVY = ("matplotlib", "sklearn", "numba", "scipy")
"""Libraries that cost tenths of a second of CPU or more to import, none needed to parse."""


def _heavy_after(code: str) -> list[str]:
    """The heavy libraries in ``sys.modules`` after running ``code`` in a fresh interpreter
    (this test process has imported everything already)."""
    probe = f"{code}\nimport json, sys\nprint(json.dumps([m for m in {_HEAVY!r} if m in sys.modules]))"
    out = subprocess.run([sys.executable, "-c", probe], cwd=REPO, capture_output=True, text=True,
                         check=True, timeout=120)
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_parsing_the_workflow_imports_no_plotting_or_learner_library() -> None:
    # Every module the rule files import at their top level, as Snakemake does to parse.
    modules = sorted({m for path in (REPO / "workflow" / "rules").glob("*.smk")
                      for m in re.findall(r"^from (redecorate[\w.]*) import", path.read_text(), re.M)})
    assert "redecorate.experiments" in modules, modules
    assert _heavy_after("\n".join(f"import {m}" for m in modules)) == []


def test_starting_a_job_imports_no_plotting_or_learner_library() -> None:
    # The job script's imports (without running it) and the kind of a unit of work: learners
    # are imported by the units that build them, the report by the report rule.
    code = ("import runpy; runpy.run_path('scripts/run_job.py', run_name='job')\n"
            "from redecorate.kinds import KINDS, get_kind\n"
            "for name in KINDS: get_kind(name)")
    assert _heavy_after(code) == []
