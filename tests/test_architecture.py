"""The library's layering, checked from its source: what the architecture promises.

* no import cycle between the subpackages of ``redecorate`` (module-level or deferred
  imports alike: a deferred import only hides a cycle);
* the library never imports Snakemake (the workflow calls the library, not the reverse);
* no module imports another module's private (underscore) name.
"""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"


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
