"""Benchmark: revisions of the J48 engine replaying the same real tree fits, for speed and exactness.

Why: the campaign's units spend most of their CPU in ``c45_engine.build_tree`` (chapter 7's
PETs, chapter 6's pruned committees, chapter 8's masked pools), so the engine is where a
speed lever pays. Every lever must be exact: records of committed units are reused by key,
so a tree that changes by one bit would make new runs disagree with the committed ones.
This script measures both on the same fixed list of fits.

The fits: ``build_tree``'s arguments recorded from real units of the experiments (fold 0 of
run 0 at the thesis protocol; :data:`SOURCES`), and on chapter 8's masked pools (fold 0 of
run 0 of ``ch8_afa``'s split with 30 % of the features known; the pools of
``acquisition_fit.py``, one DECORATE fit at each checkpoint). A unit makes hundreds to
thousands of fits; an evenly spaced sample of ``--fits`` per source is kept (every s-th
fit, s doubling as the list fills), in ``$REDECORATE_CACHE/tree_replay`` (default
``~/.cache/redecorate``), so later calls replay the same list. The capture also records the
share of the fold's process CPU spent in ``build_tree``.

The revisions: ``c45_engine.py`` as committed at each given git revision (``WORKTREE``: the
file as it is), each imported as its own module from
``$REDECORATE_CACHE/tree_replay/engines/<commit>/`` (numba compiles each once and caches it
there). For every fit each revision's tree (all eight arrays) and its class probabilities on
the fit's rows (plain and Laplace) must equal the first revision's bit for bit; the result
says how many do. Timing: process CPU of ``build_tree`` summed over a source's fits; the
revisions take turns within each repetition (the order rotating), and the median over
``--reps`` repetitions is reported, since the machine is shared.

Usage (from the repository root)::

    python benchmarks/tree_replay.py --revs 9bcb5d8,WORKTREE
    python benchmarks/tree_replay.py --revs 9bcb5d8,HEAD~3,HEAD~2,HEAD~1,HEAD --reps 5
    python benchmarks/tree_replay.py --sources car,credit-g --fits 40 --reps 1   # a quick look

Result: ``benchmarks/results/tree_replay.md`` (``--name`` for another stem).
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import os
import pickle
import shlex
import statistics
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
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
from revisions import git, subject  # noqa: E402
from uci_mirror import MIRROR  # noqa: E402

ENGINE = "src/redecorate/learners/c45_engine.py"
WORKTREE = "WORKTREE"
CACHE = Path(os.environ.get("REDECORATE_CACHE", Path.home() / ".cache" / "redecorate")) / "tree_replay"
SCHEMA = ROOT / "workflow" / "schemas" / "experiment.schema.yaml"
#: The tree arrays of ``build_tree``'s result, in order (``redecorate.learners.j48.Tree``).
TREE_FIELDS = ("att", "split", "child0", "nb", "empty", "doff", "dist", "totals")


@dataclass(frozen=True)
class Source:
    """Where a list of fits comes from: fold 0 of run 0 of one algorithm's unit of an
    experiment (``experiment`` set), or chapter 8's masked pools of a dataset (``pools``)."""

    dataset: str
    what: str
    experiment: str | None = None
    algorithm: str | None = None
    pools: bool = False


SOURCES: dict[str, Source] = {
    "segment-pets": Source("segment", "ch7_cpe ActiveDecorate-JS: unpruned Laplace PETs", "ch7_cpe",
                           "active_decorate_js"),
    "segment-bootstrap": Source("segment", "ch7_cpe Bootstrap-JS: PETs on bootstrap replicates", "ch7_cpe",
                                "bootstrap_js"),
    "credit-g": Source("credit-g", "ch6_active ActiveDecorate: pruned J48", "ch6_active", "active_decorate"),
    "hypothyroid": Source("hypothyroid", "ch7_cpe ActiveDecorate-JS: PETs, missing values", "ch7_cpe",
                          "active_decorate_js"),
    "nursery": Source("nursery", "ch7_cpe ActiveDecorate-JS: PETs, all nominal", "ch7_cpe",
                      "active_decorate_js"),
    "car": Source("car", "ch7_cpe ActiveDecorate-JS: PETs, all nominal", "ch7_cpe", "active_decorate_js"),
    "kr-vs-kp-masked": Source("kr-vs-kp", "ch8_afa DECORATE on masked pools (Table 8.3)", pools=True),
    "hypothyroid-masked": Source("hypothyroid", "ch8_afa DECORATE on masked pools (Table 8.3)", pools=True),
}
#: The checkpoints of the masked pools (shares of the pool complete), as ``acquisition_fit.py``.
POOL_FRACTIONS = (0.05, 0.25, 0.5, 0.75, 0.95)
DECORATE = {"n_estimators": 15, "max_iterations": 50, "artificial_size": 1.0}


# ---------------------------------------------------------------------------------------
# capture
# ---------------------------------------------------------------------------------------


class _Sample:
    """An evenly spaced sample of at most ``2 * target`` items of a stream of unknown length:
    every ``stride``-th item, the stride doubling (and every other kept item dropped) when
    the sample is full."""

    def __init__(self, target: int) -> None:
        self.target = max(1, target)
        self.stride = 1
        self.seen = 0
        self.items: list[Any] = []

    def offer(self, item: Callable[[], Any]) -> None:
        if self.seen % self.stride == 0:
            self.items.append(item())
            if len(self.items) >= 2 * self.target:
                self.items = self.items[::2]
                self.stride *= 2
        self.seen += 1


BASE_ARGS = 14
"""``build_tree``'s positional arguments in every revision (X to seed); later ones have defaults."""


def _recording(sample: _Sample, spent: list[float]) -> Callable[..., Any]:
    from redecorate.learners import c45_engine

    original = c45_engine.build_tree

    def build_tree(*args: Any) -> Any:
        # Kept in the form every revision takes: the trailing options added since (J48
        # random trees' ``random_ratio``) are left out where they hold their defaults.
        kept = args[:BASE_ARGS] if not any(args[BASE_ARGS:]) else args
        sample.offer(lambda: tuple(a.copy() if isinstance(a, np.ndarray) else a for a in kept))
        cpu = time.process_time()
        out = original(*args)
        spent[0] += time.process_time() - cpu
        return out

    return build_tree


def _run_source(source: Source) -> None:
    """Run what ``source`` names (its fits go through ``c45_engine.build_tree``)."""
    from redecorate.data import load_dataset, load_registry

    registry = load_registry(ROOT / "config" / "datasets.yaml")
    if source.pools:
        from acquisition_fit import masked_pools

        for _, _, view, y, schema in masked_pools(source.dataset, list(POOL_FRACTIONS)):
            model = _make_learner("decorate", DECORATE, np.random.SeedSequence(20050801))
            model.fit_prepared(view, y.cat.codes.to_numpy(), classes=np.asarray(y.cat.categories),
                               schema=schema, columns=schema.decode(view[:0]), merge_identical=True)
        return
    from redecorate.experiments import load_experiment
    from redecorate.kinds import get_kind
    from redecorate.kinds.unit import run_unit

    spec = load_experiment(ROOT / "config" / "experiments" / f"{source.experiment}.yaml", schema=SCHEMA,
                           scale="pilot")
    kind = get_kind(spec.kind)
    units = [u for u in kind.units(spec) if u.get("algorithm") == source.algorithm and int(u["run"]) == 0]
    if not units:
        raise SystemExit(f"{source.experiment}: no unit of algorithm {source.algorithm!r} in run 0")
    dataset = load_dataset(source.dataset, registry=registry, mirror=MIRROR)
    run_unit(kind, dataset, kind.job_settings(spec), {**units[0], "fold": 0}, progress=lambda _: None)


def _make_learner(name: str, params: dict[str, Any], seed: np.random.SeedSequence) -> Any:
    """A learner of the registry, where the revision running has it (``unit_cpu.py`` runs
    this module with older revisions' code too)."""
    try:
        from redecorate.learners.params import make_learner
    except ImportError:  # before 9aa7c31 the registry built the learners
        from redecorate.learners.registry import make_learner
    return make_learner(name, params, seed)


def _warm_up() -> None:
    """Compile (or load from numba's cache) the kernels a fit and a prediction use, so the
    fold's CPU and its share in ``build_tree`` do not include it."""
    import pandas as pd

    rng = np.random.default_rng(0)
    X = pd.DataFrame({"a": rng.random(40), "b": pd.Categorical(rng.choice(["u", "v"], 40))})
    y = pd.Series(rng.choice(["p", "q"], 40))
    for name, params in (("j48", {}), ("j48", {"unpruned": True, "laplace": True}), ("decorate", DECORATE),
                         ("bagging", {"base": {"name": "j48", "params": {"unpruned": True, "laplace": True}}})):
        _make_learner(name, params, np.random.SeedSequence(0)).fit(X, y).predict_proba(X)


def capture(name: str, target: int) -> dict[str, Any]:
    """Record an evenly spaced sample of the fits of source ``name``."""
    from redecorate.learners import c45_engine

    _warm_up()
    sample, spent = _Sample(target), [0.0]
    original = c45_engine.build_tree
    c45_engine.build_tree = _recording(sample, spent)
    cpu = time.process_time()
    try:
        _run_source(SOURCES[name])
    finally:
        c45_engine.build_tree = original
    total = time.process_time() - cpu
    return {"fits": sample.items, "fits_seen": sample.seen, "tree_cpu": spent[0], "cpu": total}


def fit_list(name: str, target: int) -> dict[str, Any]:
    """The fits of ``name``, captured once and cached (the cache file names the sample size)."""
    path = CACHE / f"{name}-{target}.pickle"
    if path.is_file():
        return pickle.loads(path.read_bytes())
    print(f"capturing {name} ({SOURCES[name].what}) ...", flush=True)
    captured = capture(name, target)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_bytes(pickle.dumps(captured, protocol=pickle.HIGHEST_PROTOCOL))
    tmp.replace(path)
    return captured


# ---------------------------------------------------------------------------------------
# engine revisions
# ---------------------------------------------------------------------------------------


def engine(rev: str) -> tuple[str, ModuleType]:
    """(label, module) of ``c45_engine.py`` at git revision ``rev`` (or as it is: WORKTREE)."""
    if rev == WORKTREE:
        from redecorate.learners import c45_engine

        return WORKTREE, c45_engine
    commit = git("rev-parse", "--verify", f"{rev}^{{commit}}").strip()
    folder = CACHE / "engines" / commit
    path = folder / f"c45_engine_{commit[:12]}.py"
    if not path.is_file():
        folder.mkdir(parents=True, exist_ok=True)
        path.write_text(git("show", f"{commit}:{ENGINE}"), encoding="utf-8")
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[path.stem] = module  # numba's cache finds the module of a kernel by name
    spec.loader.exec_module(module)
    return commit[:9], module


def _tree_and_predictions(module: ModuleType, args: tuple[Any, ...]) -> list[np.ndarray]:
    tree = module.build_tree(*args)
    X, k, nom = args[0], args[4], args[5]
    return [*tree, *(module.predict_tree(X, *tree, nom, k, laplace) for laplace in (False, True))]


def _same(a: Sequence[np.ndarray], b: Sequence[np.ndarray]) -> bool:
    return all(x.dtype == y.dtype and x.shape == y.shape and x.tobytes() == y.tobytes()
               for x, y in zip(a, b, strict=True))


def digest(arrays: Sequence[np.ndarray]) -> str:
    """SHA-256 over dtype, shape and bytes of each array."""
    h = hashlib.sha256()
    for a in arrays:
        h.update(f"{a.dtype.str}{a.shape}".encode())
        h.update(np.ascontiguousarray(a).tobytes())
    return h.hexdigest()


def _tree_cpu(module: ModuleType, fits: Sequence[tuple[Any, ...]]) -> float:
    cpu = time.process_time()
    for args in fits:
        module.build_tree(*args)
    return time.process_time() - cpu


def _rotations(items: Sequence[Any], reps: int) -> Iterator[list[Any]]:
    for r in range(reps):
        shift = r % len(items)
        yield list(items[shift:]) + list(items[:shift])


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--revs", default=f"HEAD,{WORKTREE}",
                        help="comma-separated git revisions of the engine, the first the reference")
    parser.add_argument("--sources", default=",".join(SOURCES), help=f"of {', '.join(SOURCES)}")
    parser.add_argument("--fits", type=int, default=150, help="fits kept per source (an even sample)")
    parser.add_argument("--reps", type=int, default=5, help="timed repetitions (median kept)")
    parser.add_argument("--labels", default="", help="comma-separated names of the revisions in the result")
    parser.add_argument("--out-dir", type=Path, default=HERE / "results")
    parser.add_argument("--name", default="tree_replay", help="stem of the result file")
    args = parser.parse_args(argv)
    load_start = load_average()
    started = time.perf_counter()
    sources = [s for s in args.sources.split(",") if s]
    if unknown := [s for s in sources if s not in SOURCES]:
        parser.error(f"--sources: unknown {', '.join(unknown)}; known: {', '.join(SOURCES)}")
    lists = {s: fit_list(s, args.fits) for s in sources}
    revs = [r for r in args.revs.split(",") if r]
    engines = [engine(r) for r in revs]
    names = [n for n in args.labels.split(",") if n] or [label for label, _ in engines]
    if len(names) != len(engines):
        parser.error("--labels: one name per revision")
    # Exactness (and every revision compiled before anything is timed).
    identical = {s: [0] * len(engines) for s in sources}
    for s in sources:
        for fit in lists[s]["fits"]:
            reference = _tree_and_predictions(engines[0][1], fit)
            for i, (_, module) in enumerate(engines):
                identical[s][i] += _same(reference, _tree_and_predictions(module, fit))
    timings: dict[tuple[str, int], list[float]] = {(s, i): [] for s in sources for i in range(len(engines))}
    for order in _rotations(list(range(len(engines))), args.reps):
        for s in sources:
            for i in order:
                timings[(s, i)].append(_tree_cpu(engines[i][1], lists[s]["fits"]))
    median = {key: statistics.median(v) for key, v in timings.items()}
    lines = [
        "# J48 engine revisions replaying the same real fits: CPU and exactness",
        "",
        "What is timed and compared: see the docstring of `benchmarks/tree_replay.py`. CPU is the process "
        f"CPU of `build_tree` summed over a source's fits, median of {args.reps} repetitions with the "
        "revisions taking turns; identical = fits whose tree (all eight arrays) and class probabilities "
        "(plain and Laplace) equal the first revision's bit for bit.",
        "",
        "## Setting",
        "",
        f"- **command**: python benchmarks/tree_replay.py {shlex.join(sys.argv[1:] if argv is None else argv)}",
        "- **revisions**: " + "; ".join(
            f"{n} = {label}" + ("" if label == WORKTREE else f" ({subject(label)})")
            for n, (label, _) in zip(names, engines, strict=True)),
        *run_setting(load_start, started),
        "",
        "## Fits",
        "",
        "| source | what | fits kept / made in the fold | share of the fold's CPU in build_tree |",
        "| --- | --- | --: | --: |",
        *(f"| {s} | {SOURCES[s].what} | {len(lists[s]['fits'])} / {lists[s]['fits_seen']} | "
          f"{lists[s]['tree_cpu'] / lists[s]['cpu']:.0%} |" for s in sources),
        "",
        "## CPU of build_tree (s) and identical fits",
        "",
        "| source | " + " | ".join(names) + " | " + " | ".join(f"{n} / {names[0]}" for n in names[1:])
        + " | identical |",
        "| --- | " + " | ".join("--:" for _ in names) + " | " + " | ".join("--:" for _ in names[1:]) + " | --: |",
    ]
    for s in sources:
        cells = [f"{median[(s, i)]:.3f}" for i in range(len(engines))]
        ratios = [f"{median[(s, i)] / median[(s, 0)]:.2f}" for i in range(1, len(engines))]
        same = ", ".join(f"{identical[s][i]}" for i in range(1, len(engines)))
        lines.append(f"| {s} | " + " | ".join(cells) + " | " + " | ".join(ratios)
                     + f" | {same} of {len(lists[s]['fits'])} |")
    totals = [sum(median[(s, i)] for s in sources) for i in range(len(engines))]
    lines.append("| all | " + " | ".join(f"{t:.3f}" for t in totals) + " | "
                 + " | ".join(f"{t / totals[0]:.2f}" for t in totals[1:]) + " | "
                 + f"{sum(min(identical[s][1:] or [len(lists[s]['fits'])]) for s in sources)} of "
                 + f"{sum(len(lists[s]['fits']) for s in sources)} |")
    lines.append("")
    out = args.out_dir / f"{args.name}.md"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("\n".join(lines), encoding="utf-8")
    print("\n".join(lines))
    print(f"wrote {out}")
    differing = sum(len(lists[s]["fits"]) - identical[s][i] for s in sources for i in range(len(engines)))
    return 1 if differing else 0


if __name__ == "__main__":
    raise SystemExit(main())
