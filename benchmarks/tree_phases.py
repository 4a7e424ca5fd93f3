"""Benchmark: where a J48 fit's time goes, phase by phase, on the replayed fits of real units.

Why: a speed lever is only worth trying where the time is. ``build_tree`` grows a tree,
collapses it and prunes it (with subtree raising); which of them dominates depends on the
data: chapter 8's masked pools send a row with a missing value down every branch, and
DECORATE's artificial examples grow large noisy trees whose pruning raises subtrees often.
This script times the phases of ``build_tree`` on the fits ``tree_replay.py`` records (the
same cached lists), grouped by the fit's row count (on the masked pools: the checkpoint),
and, with ``--twice``, what one part costs: the engine is copied with that call made twice
(the result of the second discarded, so the tree is the same) and the grown or pruned
tree timed against the plain engine, in turns. Parts:

- ``raising``: the subtree-raising estimate (``_route_subtree`` without storing);
- ``subtree_sum``: the pessimistic errors of the subtree at each pruning decision;
- ``numeric``: the evaluation of a numeric attribute at a node (``_eval_numeric``);
- ``nominal``: the class counts of the nominal attributes at a node.

Usage (from the repository root)::

    python benchmarks/tree_phases.py --sources kr-vs-kp-masked,hypothyroid-masked
    python benchmarks/tree_phases.py --sources kr-vs-kp-masked --twice raising,subtree_sum

Result: ``benchmarks/results/tree_phases.md`` (``--name`` for another stem).
"""

from __future__ import annotations

import argparse
import importlib.util
import shlex
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
for _path in (ROOT / "src", ROOT / "tools", HERE):
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))

from j48_vs_weka import load_average, run_setting  # noqa: E402 - one description of the machine for every benchmark
from tree_replay import ENGINE, SOURCES, fit_list  # noqa: E402

#: A part of the engine, as (the phase it is in, the call's text in ``c45_engine.py``).
PARTS = {
    "raising": ("prune", "            err_largest, R, W, d_top = _route_subtree("),
    "subtree_sum": ("prune", "        err_tree = _subtree_sum("),
    "numeric": ("grow", "    ok, g, r, thr = _eval_numeric(XT, y, srt[soff[a]:soff[a + 1]], wrow, mult, a, k, total, "
                        "min_obj, use_mdl,\n"),
    "nominal": ("grow", "        _accumulate_nominals("),
}


def _statement(text: str, start: int) -> str:
    """The whole call statement that begins at ``start`` (up to its closing parenthesis)."""
    depth, i = 0, text.index("(", start)
    while True:
        depth += {"(": 1, ")": -1}.get(text[i], 0)
        if depth == 0:
            return text[start:i + 1]
        i += 1


def doubled_engine(part: str, folder: Path) -> ModuleType:
    """``c45_engine.py`` with ``part``'s call made twice (the first result discarded)."""
    source = (ROOT / ENGINE).read_text(encoding="utf-8")
    marker = PARTS[part][1]
    if source.count(marker) != 1:
        raise SystemExit(f"{ENGINE}: the call of part {part!r} was not found once; update PARTS in {__file__}")
    start = source.index(marker)
    call = _statement(source, start)
    head, eq, rest = call.partition(" = ")
    if eq and "(" not in head:  # keep what the call updates (the arena), drop the result
        first = head.split(",")[0].rstrip()
        names = head[len(first):]
        duplicate = f"{head[:len(head) - len(head.lstrip())]}_unused{names} = {rest}"
    else:
        duplicate = call
    path = folder / f"c45_engine_twice_{part}.py"
    path.write_text(source[:start] + duplicate + "\n" + source[start:], encoding="utf-8")
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[path.stem] = module
    spec.loader.exec_module(module)
    return module


def _prepared(engine: ModuleType, args: tuple[Any, ...]) -> tuple[Any, ...]:
    X, y, w, mult, k, nom_sizes, min_obj, use_mdl, prune, raising, collapse, cf, random_k, seed = args
    XT = np.ascontiguousarray(X.T)
    counts = engine.gains_counted_in_average(nom_sizes, mult.sum())
    return X, XT, y, w, mult, k, nom_sizes, counts, min_obj, use_mdl, random_k, engine.nlogn_table(w)


def phases(engine: ModuleType, args: tuple[Any, ...]) -> dict[str, float]:
    """Process CPU of each phase of ``build_tree`` on one fit (as ``build_tree`` runs them)."""
    X, y, w, mult, k, nom_sizes, min_obj, use_mdl, prune, raising, collapse, cf, random_k, seed = args
    if random_k != 0:
        np.random.seed(seed)
    clock = [time.process_time()]
    _, XT, *_ = prep = _prepared(engine, args)
    srt, soff = engine.presort(XT, nom_sizes)
    clock.append(time.process_time())
    tree = engine._grow(*prep, srt, soff)
    clock.append(time.process_time())
    t_att, t_split, t_child0, t_nb, t_empty, t_dref, t_drows, D, d_top = tree
    if collapse:
        engine._collapse(t_att, t_child0, t_nb, t_dref, t_drows, D)
    clock.append(time.process_time())
    if prune:
        z = engine._norm_inverse_upper(cf)
        D = engine._store_room(D, d_top, t_att.shape[0])
        engine._prune(XT, y, w, k, nom_sizes, raising, t_att, t_split, t_child0, t_nb, t_empty, t_dref, t_drows, D,
                      d_top, cf, z)
    clock.append(time.process_time())
    engine._flatten(t_att, t_split, t_child0, t_nb, t_empty, t_dref, t_drows, D, k)
    clock.append(time.process_time())
    return dict(zip(("presort", "grow", "collapse", "prune", "flatten"), np.diff(clock), strict=True))


def phase_cpu(engine: ModuleType, fits: Sequence[tuple[Any, ...]], phase: str) -> float:
    """Process CPU of one phase of ``build_tree`` summed over ``fits``."""
    return sum(phases(engine, args)[phase] for args in fits)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sources", default="kr-vs-kp-masked,hypothyroid-masked", help=f"of {', '.join(SOURCES)}")
    parser.add_argument("--fits", type=int, default=40, help="fits per source, as tree_replay.py keeps them")
    parser.add_argument("--reps", type=int, default=3, help="timed repetitions (median kept)")
    parser.add_argument("--twice", default="", help=f"comma-separated parts to cost: {', '.join(PARTS)}")
    parser.add_argument("--out-dir", type=Path, default=HERE / "results")
    parser.add_argument("--name", default="tree_phases", help="stem of the result file")
    args = parser.parse_args(argv)
    sources = [s for s in args.sources.split(",") if s]
    parts = [p for p in args.twice.split(",") if p]
    if unknown := [s for s in sources if s not in SOURCES]:
        parser.error(f"--sources: unknown {', '.join(unknown)}; known: {', '.join(SOURCES)}")
    if unknown := [p for p in parts if p not in PARTS]:
        parser.error(f"--twice: unknown {', '.join(unknown)}; known: {', '.join(PARTS)}")
    load_start = load_average()
    started = time.perf_counter()
    from redecorate.learners import c45_engine

    names = ("presort", "grow", "collapse", "prune", "flatten")
    phase_rows, part_rows = [], []
    with tempfile.TemporaryDirectory() as tmp:
        doubled = {p: doubled_engine(p, Path(tmp)) for p in parts}
        for source in sources:
            fits = fit_list(source, args.fits)["fits"]
            reference = [a.tobytes() for a in c45_engine.build_tree(*fits[0])]
            for part, engine in doubled.items():  # compiled, and the same tree, before any timing
                if [a.tobytes() for a in engine.build_tree(*fits[0])] != reference:
                    raise SystemExit(f"{source}: the engine with part {part!r} twice grew another tree")
            groups: dict[int, list[dict[str, float]]] = {}
            for _ in range(args.reps):
                for i, fit in enumerate(fits):
                    groups.setdefault(fit[0].shape[0], []).append((i, phases(c45_engine, fit)))
            for rows, timed in sorted(groups.items()):
                per_fit: dict[int, list[dict[str, float]]] = {}
                for i, t in timed:
                    per_fit.setdefault(i, []).append(t)
                medians = [{n: statistics.median(t[n] for t in ts) for n in names} for ts in per_fit.values()]
                total = {n: sum(m[n] for m in medians) for n in names}
                phase_rows.append((source, rows, len(medians), total))
            for part in parts:
                phase = PARTS[part][0]
                plain, twice = [], []
                for _ in range(args.reps):
                    plain.append(phase_cpu(c45_engine, fits, phase))
                    twice.append(phase_cpu(doubled[part], fits, phase))
                p, t = statistics.median(plain), statistics.median(twice)
                part_rows.append((source, part, phase, p, t))
                print(f"{source} {part}: {phase} {p:.3f} s, with it twice {t:.3f} s", flush=True)
    lines = [
        "# Where a J48 fit's time goes: the phases of build_tree on replayed fits",
        "",
        "See the docstring of `benchmarks/tree_phases.py`. Process CPU, each fit's median over the repetitions, "
        "summed over the fits of a row count (on chapter 8's masked pools the row count is the checkpoint's "
        "training rows plus DECORATE's artificial ones; a J48 fit alone has no artificial rows).",
        "",
        "## Setting",
        "",
        f"- **command**: python benchmarks/tree_phases.py {shlex.join(sys.argv[1:] if argv is None else argv)}".rstrip(),
        *run_setting(load_start, started),
        "",
        "## Phases",
        "",
        "| source | rows | fits | " + " | ".join(f"{n} (s)" for n in names) + " | grow share | prune share |",
        "| --- | --: | --: | " + " | ".join("--:" for _ in names) + " | --: | --: |",
    ]
    for source, rows, n, total in phase_rows:
        whole = sum(total.values()) or float("nan")
        lines.append(f"| {source} | {rows} | {n} | " + " | ".join(f"{total[x]:.3f}" for x in names)
                     + f" | {total['grow'] / whole:.0%} | {total['prune'] / whole:.0%} |")
    if part_rows:
        lines += ["", "## What a part costs (its call made twice)", "",
                  "| source | part | phase | phase (s) | with the part twice (s) | part's share of the phase |",
                  "| --- | --- | --- | --: | --: | --: |"]
        lines += [f"| {s} | {part} | {ph} | {p:.3f} | {t:.3f} | {(t - p) / p:.0%} |" for s, part, ph, p, t in part_rows]
    out = args.out_dir / f"{args.name}.md"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
