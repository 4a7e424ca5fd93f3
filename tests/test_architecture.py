"""The library's layering, checked from its source: what the architecture promises.

* no import cycle between the subpackages of ``redecorate`` (module-level or deferred
  imports alike: a deferred import only hides a cycle);
* the library never imports Snakemake (the workflow calls the library, not the reverse);
* no module imports another module's private (underscore) name;
* parsing the workflow and starting a job import no plotting library, and no learner
  (scikit-learn, numba) before a unit builds one: every Snakemake invocation and every job
  pays for what is imported at start-up (benchmarks/README.md, "Start-up");
* an import inside a function of a module loaded at start-up is there for that reason alone:
  every other import stands at the top of its module, where a reader looks for it.
"""

from __future__ import annotations

import ast
import importlib
import json
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
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


def test_no_import_cycle_between_modules() -> None:
    """Within a subpackage too (the kind contract and the unit skeleton once imported each
    other): every import counts, at the top, deferred or for type checking alone."""
    modules = _modules()
    graph: dict[str, set[str]] = {}
    for name, tree in modules.items():
        for module, names in _imports(tree):
            if module.startswith("redecorate"):
                targets = {f"{module}.{n}" for n in names if f"{module}.{n}" in modules}
                graph.setdefault(name, set()).update(targets or {module} & set(modules))
    order: list[str] = []
    state: dict[str, int] = {}

    def visit(node: str, path: list[str]) -> list[str] | None:
        """A cycle through ``node``, depth first, or None."""
        state[node] = 1
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt):], nxt] if nxt in path else [node, nxt]
            if nxt not in state and (cycle := visit(nxt, [*path, nxt])):
                return cycle
        state[node] = 2
        order.append(node)
        return None

    cycles = [c for start in sorted(graph) if start not in state and (c := visit(start, [start]))]
    assert not cycles, cycles
    assert len(order) > 100, "too few modules found: the check would pass vacuously"


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


def _modules_after(code: str) -> list[str]:
    """The modules in ``sys.modules`` after running ``code`` in a fresh interpreter (this test
    process has imported everything already)."""
    probe = f"{code}\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", probe], cwd=REPO, capture_output=True, text=True,
                         check=True, timeout=120)
    return json.loads(out.stdout.strip().splitlines()[-1])


def _heavy_after(code: str) -> list[str]:
    """The heavy libraries imported by ``code`` in a fresh interpreter."""
    loaded = set(_modules_after(code))
    return [m for m in _HEAVY if m in loaded]


_PARSE_RULE_FILES = sorted({m for path in (REPO / "workflow" / "rules").glob("*.smk")
                            for m in re.findall(r"^from (redecorate[\w.]*) import", path.read_text(), re.M)})
"""Every module the rule files import at their top level, as Snakemake does to parse."""
PARSING = "\n".join(f"import {m}" for m in _PARSE_RULE_FILES)
STARTING_A_JOB = ("import runpy; runpy.run_path('scripts/run_job.py', run_name='job')\n"
                  "from redecorate.kinds import KINDS, get_kind\n"
                  "for name in KINDS: get_kind(name)")
"""The job script's imports (without running it) and the kind of a unit of work: learners are
imported by the units that build them, the report by the report rule."""


def test_parsing_the_workflow_imports_no_plotting_or_learner_library() -> None:
    assert "redecorate.experiments" in _PARSE_RULE_FILES, _PARSE_RULE_FILES
    assert _heavy_after(PARSING) == []


def test_starting_a_job_imports_no_plotting_or_learner_library() -> None:
    assert _heavy_after(STARTING_A_JOB) == []


def _function_imports(tree: ast.Module) -> list[tuple[int, str]]:
    """(line, module) of every import inside a function of ``tree``."""
    found = set()
    for function in ast.walk(tree):
        if isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
            for node in ast.walk(function):
                if isinstance(node, ast.ImportFrom) and node.module:
                    found.add((node.lineno, node.module))
                elif isinstance(node, ast.Import):
                    found |= {(node.lineno, a.name) for a in node.names}
    return sorted(found)


def test_an_import_is_deferred_only_to_keep_a_heavy_library_out_of_start_up() -> None:
    """In a module that parsing or a job's start-up loads, an import inside a function is of a
    module that brings a heavy library (the two tests above fail when it moves to the top), or
    of the report package, which a job never loads (a kind's report runs in the report rule's
    process); a light one deferred there hides the module's dependencies and saves nothing."""
    job = [m for m in _modules_after(STARTING_A_JOB) if m.startswith("redecorate")]
    assert job and not [m for m in job if m.startswith("redecorate.report")]
    started = {*job, *(m for m in _modules_after(PARSING) if m.startswith("redecorate"))}
    deferred = [(name, line, module) for name, tree in _modules().items() if name in started
                for line, module in _function_imports(tree) if not module.startswith("redecorate.report")]
    assert deferred, "no deferred import found: the check would pass vacuously"
    with ThreadPoolExecutor(max_workers=2) as pool:
        heavy = dict(zip(targets := sorted({m for _, _, m in deferred}),
                         pool.map(lambda m: bool(_heavy_after(f"import {m}")), targets), strict=True))
    light = [f"{name}:{line} imports {module} inside a function" for name, line, module in deferred
             if not heavy[module]]
    assert not light, light


ARCHITECTURE = REPO / "docs" / "architecture.md"


def test_the_architecture_names_every_module_and_nothing_else() -> None:
    """``docs/architecture.md`` is drawn from the code as it is: every subpackage and top-level
    module of the library has its place there, and every module, attribute and file it names
    exists (a moved module cannot leave the page stale)."""
    text = ARCHITECTURE.read_text(encoding="utf-8")
    named = set(re.findall(r"`(redecorate(?:\.\w+)+)`", text))
    def resolves(name: str) -> bool:  # the longest module prefix, then attributes
        parts = name.split(".")
        for end in range(len(parts), 0, -1):
            try:
                obj = importlib.import_module(".".join(parts[:end]))
            except ImportError:
                continue
            for attribute in parts[end:]:
                obj = getattr(obj, attribute, None)
            return obj is not None
        return False

    missing = [name for name in sorted(named) if not resolves(name)]
    assert not missing, f"docs/architecture.md names what does not exist: {missing}"
    package = SRC / "redecorate"
    top = {f"redecorate.{p.stem}" for p in package.glob("*.py") if p.stem != "__init__"}
    top |= {f"redecorate.{p.parent.name}" for p in package.glob("*/__init__.py")}
    assert top - named == set(), f"not placed in docs/architecture.md: {sorted(top - named)}"
    paths = re.findall(r"`((?:workflow|scripts|config|docs)/[\w./-]+\.\w+)`", text)
    assert paths and [p for p in paths if not (REPO / p).is_file()] == []


def _rules_with_run_blocks() -> list[str]:
    """The rules of the workflow's rule files whose action is a ``run:`` block."""
    found = []
    for path in sorted((REPO / "workflow" / "rules").glob("*.smk")):
        for block in re.split(r"^(?=rule \w+:)", path.read_text(encoding="utf-8"), flags=re.M):
            name = re.match(r"rule (\w+):", block)
            if name and re.search(r"^    run:", block, re.M):
                found.append(name.group(1))
    return found


def test_no_rule_a_run_builds_starts_a_second_snakemake() -> None:
    """Snakemake executes a ``run:`` block (on POSIX, without ``--force-use-threads``) in a
    second Snakemake process that parses the whole workflow again: 2.3–2.6 CPU s for the
    milliseconds of work the replication page's block did, per experiment. Only
    ``run_status``, which ``--report`` asks for and a run never builds, keeps one."""
    assert _rules_with_run_blocks() == ["run_status"]
